"""``mindspore.export``: a network to a file (MINDIR, STABLEHLO; ONNX with the ``onnx`` extra).

* ``MINDIR``: MindSpore's own format, readable by MindSpore 2.10 (``ms.load`` + ``nn.GraphCell``) and
  by sporax. The network is traced to JAX primitives, mapped to MindSpore operators
  (``ops/_lowering/mindir.py``) and written by ``_mindir_write``.
* ``STABLEHLO`` (sporax's own): ``jax.export``'s serialized, versioned StableHLO program with the weights
  beside it (``_stablehlo_file``); runs back with :func:`sporax.load` without the Python model code.
"""

from __future__ import annotations

import logging
import os
import stat
from typing import Any

import numpy as np

from .. import _checkparam as validator
from .._engine import _export as engine_export
from ..common.tensor import Tensor
from ..ops._lowering import force_lowering
from ..ops._lowering.mindir import to_mindspore

_log = logging.getLogger("sporax")

_FORMATS = ("AIR", "ONNX", "MINDIR", "STABLEHLO")
_SUFFIX = {"MINDIR": ".mindir", "ONNX": ".onnx", "STABLEHLO": ".stablehlo"}


def _holders(net: Any) -> list[tuple[str, Any]]:
    if hasattr(net, "parameters_and_names"):
        return list(net.parameters_and_names())
    return []


def _file_path(file_name: str, suffix: str) -> str:
    path = os.path.realpath(file_name)
    if not path.endswith(suffix):
        path += suffix
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    return path


def _write_read_only(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data`` and leave it owner-read-only, as MindSpore leaves an exported model."""
    if os.path.exists(path):
        os.chmod(path, stat.S_IWUSR | stat.S_IRUSR)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    os.chmod(path, stat.S_IRUSR)


def _graph_name(net: Any) -> str:
    return f"sporax_{type(net).__name__}_construct"


def trace_network(net: Any, inputs: tuple[Any, ...]) -> tuple[Any, list[str], list[np.ndarray]]:
    """The flat program of ``net(*inputs)`` in inference mode, with its Parameters' names and values."""
    named = _holders(net)
    was_training = getattr(net, "training", False)
    if hasattr(net, "set_train"):
        net.set_train(False)
    try:
        with force_lowering(conv="plain", maxpool="plain"):
            prog = engine_export.trace_flat(net, [p for _, p in named], inputs)
    finally:
        if was_training:
            net.set_train(True)
    return prog, [p.name for _, p in named], [p.asnumpy() for _, p in named]


def mindir_model(net: Any, inputs: tuple[Any, ...]) -> Any:
    """The MindIR ModelProto of ``net`` traced on ``inputs``."""
    from ._mindir_write import graph_to_model

    prog, names, values = trace_network(net, inputs)
    graph = to_mindspore(prog)
    return graph_to_model(graph, names, values, _graph_name(net))


def _save_mindir(net: Any, inputs: tuple[Any, ...], path: str) -> None:
    """One ``.mindir`` file, or MindSpore's split form when the weights pass 1 GiB: ``<prefix>_graph.mindir``
    beside ``<prefix>_variables/data_0``."""
    from . import _mindir_write

    model = mindir_model(net, inputs)
    if sum(len(p.raw_data) for p in model.graph.parameter) <= _mindir_write.SPLIT_BYTES:
        _write_read_only(path, model.SerializeToString())
        return
    _log.warning("Parameters in the net capacity exceeds 1G, save MindIR model and parameters separately.")
    folder, prefix = os.path.dirname(path), os.path.basename(path)[: -len(".mindir")]
    _mindir_write.move_weights_out(model, folder, prefix)
    _write_read_only(os.path.join(folder, f"{prefix}_graph.mindir"), model.SerializeToString())


def export(net: Any, *inputs: Any, file_name: str, file_format: str, **kwargs: Any) -> None:
    """Export ``net`` traced on ``inputs`` to ``file_name`` (the format's suffix added when missing)."""
    if "obf_func" in kwargs:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    if file_format not in _FORMATS:
        raise ValueError(f"For 'export', 'file_format' must be one of {list(_FORMATS)}, but got {file_format}.")
    if file_format == "AIR":
        raise ValueError(
            "For 'export', the 'AIR' format is Ascend's offline model (built by Ascend's graph compiler); sporax "
            "runs on XLA and cannot write it. Export 'MINDIR' and convert it with MindSpore Lite's converter."
        )
    for key in ("enc_key", "enc_mode", "obf_config", "custom_func", "dataset"):
        if kwargs.get(key) is not None:
            raise NotImplementedError(
                f"For 'export', '{key}' is not supported by sporax: it writes unencrypted, unobfuscated models."
            )
    validator.check_file_name_by_regular(file_name)
    inputs = validator.check_export_inputs(tuple(Tensor(x) if isinstance(x, np.ndarray) else x for x in inputs), Tensor)
    path = _file_path(file_name, _SUFFIX[file_format])
    _log.info("exporting model file:%s format:%s.", path, file_format)
    if file_format != "STABLEHLO":
        validator.check_static_shapes([x.shape for x in inputs], file_format)
    if file_format == "MINDIR":
        _save_mindir(net, inputs, path)
    elif file_format == "STABLEHLO":
        from ._stablehlo_file import stablehlo_bytes

        _write_read_only(path, stablehlo_bytes(net, inputs))
    else:
        from ._onnx_export import onnx_bytes

        _write_read_only(path, onnx_bytes(net, inputs))
