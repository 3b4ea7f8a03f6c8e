"""Index-driven operator classes: row updates (``InplaceAdd(indices)``, ``InplaceUpdateV2()``, ``IndexAdd``,
``InplaceIndexAdd``) and ``RaggedRange``."""

from __future__ import annotations

from typing import Any

from ...common import dtype as mstype
from ...common.tensor import Tensor
from .. import function as F
from ._primitive import Primitive
from .math_ops import _NoArgs, _set_attrs

__all__ = ["InplaceAdd", "InplaceSub", "InplaceUpdate", "InplaceUpdateV2", "InplaceIndexAdd", "IndexAdd", "RaggedRange"]


class _RowUpdate(Primitive):
    _fn: Any = None

    def __init__(self, indices: Any) -> None:
        super().__init__()
        _set_attrs(self, indices=indices)

    def __call__(self, x: Any, input_v: Any) -> Any:
        return type(self)._fn(x, input_v, self.indices)


class InplaceAdd(_RowUpdate):
    """``InplaceAdd(indices)(x, input_v)``: ``x`` with ``input_v`` added to the rows ``indices``."""

    _fn = staticmethod(F.inplace_add)


class InplaceSub(_RowUpdate):
    """``InplaceSub(indices)(x, input_v)``: ``x`` with ``input_v`` subtracted from the rows ``indices``."""

    _fn = staticmethod(F.inplace_sub)


class InplaceUpdate(_RowUpdate):
    """``InplaceUpdate(indices)(x, v)``: ``x`` with the rows ``indices`` replaced by ``v``."""

    _fn = staticmethod(F.inplace_update)


class InplaceUpdateV2(_NoArgs):
    """``InplaceUpdateV2()(x, indices, v)``: ``x`` with the rows ``indices`` replaced by ``v``."""

    def __call__(self, x: Any, indices: Any, v: Any) -> Any:
        return F.inplace_update(x, v, indices)


class InplaceIndexAdd(Primitive):
    """``InplaceIndexAdd(axis)(var, indices, updates)``: add into the Parameter ``var`` in place."""

    def __init__(self, axis: int) -> None:
        super().__init__()
        _set_attrs(self, axis=axis)

    def __call__(self, var: Any, indices: Any, updates: Any) -> Any:
        return F.inplace_index_add(var, indices, updates, self.axis)


class IndexAdd(Primitive):
    """``IndexAdd(axis, use_lock=True, check_index_bound=True)(input_x, indices, y)``: add ``y`` into the
    Parameter ``input_x`` at ``indices`` along ``axis``, in place."""

    def __init__(self, axis: int, use_lock: bool = True, check_index_bound: bool = True) -> None:
        super().__init__()
        _set_attrs(self, axis=axis, use_lock=use_lock, check_index_bound=check_index_bound)

    def __call__(self, input_x: Any, indices: Any, y: Any) -> Any:
        return F.inplace_index_add(input_x, indices, y, self.axis)


class RaggedRange(Primitive):
    """``RaggedRange(Tsplits)(starts, limits, deltas)`` -> ``(rt_nested_splits, rt_dense_values)``: the ranges
    ``range(starts[i], limits[i], deltas[i])`` concatenated, and where each begins (dtype ``Tsplits``)."""

    def __init__(self, Tsplits: Any) -> None:
        super().__init__()
        if Tsplits not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'RaggedRange', the 'Tsplits' must be int32 or int64, but got {Tsplits}.")
        _set_attrs(self, Tsplits=Tsplits)

    def __call__(self, starts: Any, limits: Any, deltas: Any) -> Any:
        import numpy as np

        s, lim, d = (np.asarray(t.asnumpy()).reshape(-1) for t in (starts, limits, deltas))
        s, lim, d = np.broadcast_arrays(s, lim, d)
        if np.any(d == 0):
            raise ValueError("For 'RaggedRange', the 'deltas' must not contain 0.")
        pieces = [np.arange(a, b, c, dtype=starts.asnumpy().dtype) for a, b, c in zip(s, lim, d, strict=True)]
        splits = np.concatenate([[0], np.cumsum([len(p) for p in pieces])]).astype(mstype.to_np(self.Tsplits))
        values = np.concatenate(pieces) if pieces else np.zeros((0,), starts.asnumpy().dtype)
        return Tensor(splits), Tensor(values)
