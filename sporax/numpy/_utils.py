"""Helpers shared by ``sporax.numpy``: array-like to Tensor with MindSpore-numpy's dtype rules."""

from __future__ import annotations

import numpy as _np

from ..common import dtype as mstype
from ..common.tensor import Tensor


def _infer(obj):
    """Python data's dtype under mindspore.numpy: bool, int32 for ints, float32 for floats."""
    flat = _np.asarray(obj)
    if flat.dtype == _np.bool_:
        return mstype.bool_
    if _np.issubdtype(flat.dtype, _np.integer):
        return mstype.int32
    return mstype.float32


def _t(x, dtype=None):
    """An array-like (Tensor, scalar, list, tuple, NumPy array) as a Tensor."""
    if isinstance(x, Tensor):
        return x if dtype is None or x.dtype == dtype else x.astype(dtype)
    if isinstance(x, list | tuple) and any(isinstance(v, Tensor) for v in x):
        from .. import ops

        return ops.stack([_t(v, dtype) for v in x])
    if isinstance(x, _np.ndarray):
        return Tensor(x, dtype)
    if not isinstance(x, int | float | bool | list | tuple | _np.generic):
        raise TypeError(f"input data must be `int`, `float`, `bool`, `Tensor`, `list`, `tuple`, but got {type(x)}")
    return Tensor(_np.asarray(x), dtype if dtype is not None else _infer(x))


def _out(res, dtype):
    """Cast a result to ``dtype`` when one is given (the ``dtype=`` argument of the math functions)."""
    if dtype is None:
        return res
    return res.astype(dtype)


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(a % ndim if ndim else a for a in axis)


def _float(x):
    """Integer and bool inputs compute in float32 (MindSpore's float default)."""
    return (
        x if x.dtype in (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16) else x.astype(mstype.float32)
    )
