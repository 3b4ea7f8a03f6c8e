"""Helpers the array-family op modules share (shape arguments, eager-only values)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._engine import jax
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
