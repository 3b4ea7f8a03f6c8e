"""The one place ``common`` reaches up: Tensor methods call the functional ops (MindSpore's own design:
``x.sum()`` is ``ops.sum(x)``) and ``sporax.utils`` (DLPack), which import the tensor module, so they are
imported on first use, here, and every Tensor method module goes through these functions."""

from __future__ import annotations

import importlib
from typing import Any

_ops_mod: list[Any] = []


def ops() -> Any:
    """``sporax.ops``."""
    if not _ops_mod:
        from .. import ops as mod

        _ops_mod.append(mod)
    return _ops_mod[0]


def utils() -> Any:
    """``sporax.utils`` (DLPack exchange: ``Tensor.to_dlpack`` / ``Tensor.from_dlpack``)."""
    from .. import utils as mod

    return mod


def op_function(module: str) -> Any:
    """``sporax.ops.function.<module>`` (a family module, for the methods whose op is not public)."""
    return importlib.import_module(f"sporax.ops.function.{module}")
