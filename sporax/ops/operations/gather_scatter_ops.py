"""Gather, scatter, index and segment operator classes beyond the classic ones in ``array_ops``
(``ops.IndexFill()``, ``ops.ScatterMul()``, ``ops.SegmentSum()``, ``ops.UniqueConsecutive()``...).

Each class keeps its construction arguments as attributes and delegates to the functional op.
"""

from __future__ import annotations

from typing import Any

from ..._checkparam import check_bool
from ...common import dtype as mstype
from .. import function as F
from .._utils import check_int
from ..function import gather_scatter_func as G
from ..function import segment_func as SG
from ..function import sort_search_func as S
from ._primitive import Primitive
from .math_ops import _set_attrs

__all__ = [
    "SparseGatherV2",
    "EmbeddingLookup",
    "IndexFill",
    "IndexPut",
    "MaskedScatter",
    "NonZero",
    "UnravelIndex",
    "ScatterMul",
    "ScatterDiv",
    "ScatterNdMul",
    "ScatterNdDiv",
    "ScatterNdMax",
    "ScatterNdMin",
    "ScatterAddWithAxis",
    "ScatterNonAliasingAdd",
    "SegmentSum",
    "SegmentMax",
    "SegmentMin",
    "SegmentMean",
    "SegmentProd",
    "UniqueConsecutive",
    "UniqueWithPad",
    "LowerBound",
    "UpperBound",
    "ListDiff",
]


class SparseGatherV2(Primitive):
    """``SparseGatherV2()(input_params, input_indices, axis)``: :class:`Gather` (dense gradient)."""

    def __call__(self, input_params: Any, input_indices: Any, axis: Any) -> Any:
        return G.sparse_gather_v2(input_params, input_indices, int(axis))


class EmbeddingLookup(Primitive):
    """``EmbeddingLookup()(input_params, input_indices, offset)``: rows ``indices - offset``; indices
    outside the table give zero rows."""

    def __call__(self, input_params: Any, input_indices: Any, offset: int) -> Any:
        return G.embedding_lookup(input_params, input_indices, offset)


class IndexFill(Primitive):
    """``IndexFill()(x, dim, index, value)``."""

    def __call__(self, x: Any, dim: Any, index: Any, value: Any) -> Any:
        return F.index_fill(x, dim, index, value)


class IndexPut(Primitive):
    """``IndexPut(accumulate=0)(x1, x2, indices)``: ``x1[indices] = x2`` (``+=`` with ``accumulate=1``)."""

    def __init__(self, accumulate: int = 0) -> None:
        super().__init__()
        if accumulate not in (0, 1) or isinstance(accumulate, bool):
            raise ValueError(f"For 'IndexPut', the 'accumulate' must be 0 or 1, but got {accumulate}.")
        _set_attrs(self, accumulate=accumulate)

    def __call__(self, x1: Any, x2: Any, indices: Any) -> Any:
        return G.index_put(x1, tuple(indices), x2, bool(self.accumulate))


class MaskedScatter(Primitive):
    """``MaskedScatter()(input, mask, updates)`` (eager only)."""

    def __call__(self, input: Any, mask: Any, updates: Any) -> Any:
        return F.masked_scatter(input, mask, updates)


class NonZero(Primitive):
    """``NonZero()(x)``: coordinates of the non-zero elements, ``(N, rank)`` Int64 (eager only)."""

    def __call__(self, x: Any) -> Any:
        return F.nonzero(x)


class UnravelIndex(Primitive):
    """``UnravelIndex()(indices, dims)``: coordinates of flat indices in an array of shape ``dims``."""

    def __call__(self, indices: Any, dims: Any) -> Any:
        return G.unravel_index(indices, dims)


class _ParamScatter(Primitive):
    _fn: Any = None

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        _set_attrs(self, use_locking=check_bool(use_locking, "use_locking", self.name))

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> Any:
        return type(self)._fn(input_x, indices, updates)


def _param_scatter(name: str, fn: Any) -> type:
    doc = f"``{name}(use_locking=False)(input_x, indices, updates)``: update the Parameter in place."
    return type(name, (_ParamScatter,), {"_fn": staticmethod(fn), "__doc__": doc, "__module__": __name__})


ScatterMul = _param_scatter("ScatterMul", F.scatter_mul)
ScatterDiv = _param_scatter("ScatterDiv", F.scatter_div)
ScatterNdMul = _param_scatter("ScatterNdMul", F.scatter_nd_mul)
ScatterNdDiv = _param_scatter("ScatterNdDiv", F.scatter_nd_div)
ScatterNdMax = _param_scatter("ScatterNdMax", F.scatter_nd_max)
ScatterNdMin = _param_scatter("ScatterNdMin", F.scatter_nd_min)


class ScatterAddWithAxis(Primitive):
    """``ScatterAddWithAxis(axis=0)(input_x, indices, updates)``: add ``updates`` along ``axis``."""

    def __init__(self, axis: int = 0) -> None:
        super().__init__()
        _set_attrs(self, axis=check_int(axis, "axis", self.name))

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> Any:
        return G.scatter_add_with_axis(input_x, indices, updates, self.axis)


class ScatterNonAliasingAdd(Primitive):
    """``ScatterNonAliasingAdd()(input_x, indices, updates)``: :func:`tensor_scatter_add` into the Parameter."""

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> Any:
        out = F.tensor_scatter_add(input_x, indices, updates)
        return F.assign(input_x, out) if G._is_parameter(input_x) else out


class _Segment(Primitive):
    _fn: Any = None

    def __call__(self, input_x: Any, segment_ids: Any) -> Any:
        return type(self)._fn(input_x, segment_ids)


def _segment(name: str, fn: Any) -> type:
    doc = f"``{name}()(input_x, segment_ids)``: reduce rows by the sorted ``segment_ids`` (eager only)."
    return type(name, (_Segment,), {"_fn": staticmethod(fn), "__doc__": doc, "__module__": __name__})


SegmentSum = _segment("SegmentSum", SG.segment_sum)
SegmentMax = _segment("SegmentMax", SG.segment_max)
SegmentMin = _segment("SegmentMin", SG.segment_min)
SegmentMean = _segment("SegmentMean", SG.segment_mean)
SegmentProd = _segment("SegmentProd", SG.segment_prod)


class UniqueConsecutive(Primitive):
    """``UniqueConsecutive(return_inverse=False, return_counts=False, dim=None)(x)`` -> ``(output, idx,
    counts)``; an output not asked for is a 0-d zero, as in MindSpore (eager only)."""

    def __init__(self, return_inverse: bool = False, return_counts: bool = False, dim: Any = None) -> None:
        super().__init__()
        _set_attrs(
            self,
            return_inverse=check_bool(return_inverse, "return_inverse", self.name),
            return_counts=check_bool(return_counts, "return_counts", self.name),
            dim=dim,
        )

    def __call__(self, x: Any) -> Any:
        out, idx, counts = F.unique_consecutive(x, True, True, self.dim)
        zero = F.zeros((), mstype.int64)
        return out, idx if self.return_inverse else zero, counts if self.return_counts else zero


class UniqueWithPad(Primitive):
    """``UniqueWithPad()(x, pad_num)`` -> ``(y, idx)``."""

    def __call__(self, x: Any, pad_num: Any) -> Any:
        return F.unique_with_pad(x, pad_num)


class LowerBound(Primitive):
    """``LowerBound(out_type=mstype.int32)(sorted_x, values)``: row-wise left ``searchsorted``."""

    def __init__(self, out_type: Any = mstype.int32) -> None:
        super().__init__()
        _set_attrs(self, out_type=out_type)

    def __call__(self, sorted_x: Any, values: Any) -> Any:
        return S.bound(sorted_x, values, False, self.out_type, self.name)


class UpperBound(LowerBound):
    """``UpperBound(out_type=mstype.int32)(sorted_x, values)``: row-wise right ``searchsorted``."""

    def __call__(self, sorted_x: Any, values: Any) -> Any:
        return S.bound(sorted_x, values, True, self.out_type, self.name)


class ListDiff(Primitive):
    """``ListDiff(out_idx=mstype.int32)(x, y)`` -> ``(out, idx)``: the values of ``x`` not in ``y``."""

    def __init__(self, out_idx: Any = mstype.int32) -> None:
        super().__init__()
        _set_attrs(self, out_idx=out_idx)

    def __call__(self, x: Any, y: Any) -> Any:
        return S.list_diff(x, y, self.out_idx)
