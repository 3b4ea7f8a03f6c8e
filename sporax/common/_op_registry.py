"""The one place ``common`` reaches up to ``ops``: Tensor methods call the functional ops (MindSpore's own
design: ``x.sum()`` is ``ops.sum(x)``), and ``ops`` imports the tensor module, so ``ops`` is imported on
first use, here, and every Tensor method module goes through these two functions."""

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


def op_function(module: str) -> Any:
    """``sporax.ops.function.<module>`` (a family module, for the methods whose op is not public)."""
    return importlib.import_module(f"sporax.ops.function.{module}")
