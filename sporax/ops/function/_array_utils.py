"""Helpers the array-family op modules share (shape arguments, eager-only values, index checks)."""

from __future__ import annotations

import functools
import weakref
from typing import Any

import numpy as np

from ..._engine import jax
from ..._engine._checks import IndexOutOfRangeError, check_in_range
from ...common.tensor import Tensor


def _shape_arg(shape: Any, op: str) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = tuple(int(s) for s in shape.asnumpy().reshape(-1))
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"For '{op}', the 'shape' must be a tuple or list of ints, but got {type(shape).__name__}.")
    return tuple(int(s) for s in shape)


# ------------------------------------------------------- more shape / slicing
def _concrete(a: Any, op: str) -> np.ndarray:
    """The value of ``a`` for ops whose output shape depends on the data (eager only)."""
    if isinstance(a, jax.core.Tracer):
        raise RuntimeError(
            f"For '{op}', the output shape depends on the input values, so it cannot run inside jit or "
            "GRAPH_MODE. Call it in PYNATIVE_MODE, or use a fixed-size alternative (ops.where, masking)."
        )
    return np.asarray(a)


def _bad_index(idx: Any, lo: int, hi: int) -> int | None:
    """The first value of the concrete integer array ``idx`` outside ``[lo, hi)``, or None. Under a trace
    (jit, GRAPH_MODE) the values are unknown and nothing is checked: XLA clamps or drops there."""
    if isinstance(idx, jax.core.Tracer):
        return None
    seen = _INDEX_RANGES.get(id(idx))
    if seen is not None and seen[0]() is idx:  # this array's range is known (the same index Tensor reused)
        if lo <= seen[1] and seen[2] < hi:
            return None
    v = np.asarray(idx)  # (a device-to-host copy: the cost the cache above saves on reuse)
    if not v.size:
        return None
    if v.size <= 512:  # small index arrays (the usual case): Python's min/max beat NumPy's call overhead
        flat = v.ravel().tolist()
        vmin, vmax = min(flat), max(flat)
    else:
        vmin, vmax = int(v.min()), int(v.max())
    if isinstance(idx, jax.Array) and len(_INDEX_RANGES) < 4096:
        key = id(idx)
        _INDEX_RANGES[key] = (weakref.ref(idx, functools.partial(_forget_range, key)), vmin, vmax)
    if lo <= vmin and vmax < hi:
        return None
    if v.size <= 512:
        return next(int(b) for b in flat if not lo <= b < hi)
    bad = v[(v < lo) | (v >= hi)]
    return int(bad.reshape(-1)[0])


# id(index array) -> (weak reference to it, its min, its max): an eager op called again with the same index
# Tensor (an embedding lookup's ids, a fixed permutation) checks the bounds without copying it to the host.
# jax arrays are immutable, so a live array's range cannot change; the entry goes when the array does.
_INDEX_RANGES: dict[int, tuple[Any, int, int]] = {}


def _forget_range(key: int, _ref: Any) -> None:
    _INDEX_RANGES.pop(key, None)


def _verify_index_range(idx: Any, lo: int, hi: int, message: Any) -> None:
    """Raise IndexOutOfRangeError(``message(bad_value)``) when a concrete ``idx`` leaves ``[lo, hi)``. A traced
    ``idx`` inside a compiled step is checked there, and the error raised after the step (``_engine._checks``)."""
    if isinstance(idx, jax.core.Tracer):
        check_in_range(idx, lo, hi, message)
        return
    bad = _bad_index(idx, lo, hi)
    if bad is not None:
        raise IndexOutOfRangeError(message(bad))
