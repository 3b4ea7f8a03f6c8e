"""Helpers the array-family op modules share (shape arguments, eager-only values, index checks)."""

from __future__ import annotations

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
    v = np.asarray(idx)
    if v.size <= 512:  # small index arrays (the usual case): Python's min/max beat NumPy's call overhead
        if not v.size:
            return None
        flat = v.ravel().tolist()
        if lo <= min(flat) and max(flat) < hi:
            return None
        return next(int(b) for b in flat if not lo <= b < hi)
    if v.min() >= lo and v.max() < hi:
        return None
    bad = v[(v < lo) | (v >= hi)]
    return int(bad.reshape(-1)[0])


def _check_index(idx: Any, lo: int, hi: int, message: Any) -> None:
    """Raise IndexOutOfRangeError(``message(bad_value)``) when a concrete ``idx`` leaves ``[lo, hi)``. A traced
    ``idx`` inside a compiled step is checked there, and the error raised after the step (``_engine._checks``)."""
    if isinstance(idx, jax.core.Tracer):
        check_in_range(idx, lo, hi, message)
        return
    bad = _bad_index(idx, lo, hi)
    if bad is not None:
        raise IndexOutOfRangeError(message(bad))
