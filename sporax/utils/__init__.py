"""``mindspore.utils``: DLPack exchange (``to_dlpack``/``from_dlpack``) with NumPy, PyTorch, CuPy... through
XLA's DLPack support; ``dryrun``; the reliability helpers ``ExitByRequest`` and ``stress_detect``; the handles of
Huawei's MindIO TFT / MindX controllers (``TFTCommValue``, ``RSCPluginHandle``, ``_tft_handler``), which report
themselves unavailable outside Ascend clusters as MindSpore's do.
"""

from __future__ import annotations

from typing import Any

from .._checkparam import check_instance
from .._engine import jax

__all__ = [
    "to_dlpack",
    "from_dlpack",
    "dryrun",
    "ExitByRequest",
    "TFTCommValue",
    "RSCPluginHandle",
    "stress_detect",
    "MsDispatchMode",
    "comm_exec_order_check",
    "runtime_execution_order_check",
    "sdc_detect_start",
    "sdc_detect_stop",
    "get_sdc_detect_result",
]

_KDL_CPU, _KDL_CUDA = 1, 2


class _Capsule:
    """A bare DLPack capsule, dressed as the protocol object XLA's ``from_dlpack`` asks for."""

    def __init__(self, capsule: Any) -> None:
        self._capsule = capsule
        device = getattr(jax.config, "jax_default_device", None)  # a flag jax's Config stubs do not declare
        platform = getattr(device, "platform", None) or jax.default_backend()
        self._device = (_KDL_CUDA, getattr(device, "id", 0)) if platform in ("gpu", "cuda") else (_KDL_CPU, 0)

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        return self._capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return self._device


def to_dlpack(tensor: Any) -> Any:
    """A DLPack capsule sharing ``tensor``'s device buffer (read it with ``torch.utils.dlpack.from_dlpack``...)."""
    from ..common.tensor import Tensor

    check_instance(tensor, Tensor, "tensor", "to_dlpack")
    return tensor._data.__dlpack__()


def from_dlpack(dlpack: Any) -> Any:
    """A Tensor from a DLPack capsule or from any object with ``__dlpack__`` (a NumPy array, a torch tensor)."""
    from ..common.tensor import Tensor

    if type(dlpack).__name__ == "PyCapsule":
        dlpack = _Capsule(dlpack)
    elif not hasattr(dlpack, "__dlpack__"):
        raise TypeError(
            f"For 'from_dlpack', the 'dlpack' must be a DLPack capsule or have __dlpack__, but got "
            f"{type(dlpack).__name__}."
        )
    return Tensor._from_data(jax.dlpack.from_dlpack(dlpack))


from . import dryrun  # noqa: E402
from .ms_dispatch import MsDispatchMode  # noqa: E402
from ._exec_order import comm_exec_order_check, runtime_execution_order_check  # noqa: E402
from ._sdc import get_sdc_detect_result, sdc_detect_start, sdc_detect_stop  # noqa: E402
from ._reliability import ExitByRequest, RSCPluginHandle, TFTCommValue, _tft_handler, stress_detect  # noqa: E402
