"""Array operator classes (``ops.Reshape()``, ``ops.Concat(axis)``, ``ops.Gather()``, ``ops.OneHot()``...).

Each class keeps its construction arguments as attributes and delegates to the functional op.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._checkparam import check_bool
from ...common import dtype as mstype
from .. import function as F
from .._utils import check_int
from ._primitive import Primitive
from .math_ops import _set_attrs

__all__ = [
    "Reshape",
    "Fill",
    "DType",
    "Shape",
    "TensorShape",
    "DynamicShape",
    "Cast",
    "Transpose",
    "Concat",
    "Stack",
    "Pack",
    "Unstack",
    "Unpack",
    "Split",
    "Gather",
    "GatherV2",
    "GatherD",
    "GatherNd",
    "OneHot",
    "Select",
    "Squeeze",
    "ExpandDims",
    "Tile",
    "ZerosLike",
    "OnesLike",
    "Zeros",
    "Ones",
    "Identity",
    "Depend",
    "StopGradient",
    "Assign",
    "AssignAdd",
    "AssignSub",
    "Size",
    "Rank",
    "ScalarToTensor",
    "TupleToArray",
    "ScalarCast",
    "TensorScatterUpdate",
    "TensorScatterAdd",
    "TensorScatterSub",
    "TensorScatterMax",
    "TensorScatterMin",
    "TensorScatterMul",
    "TensorScatterDiv",
    "TensorScatterElements",
    "ScatterNd",
    "ScatterNdUpdate",
    "ScatterNdAdd",
    "ScatterNdSub",
    "ScatterUpdate",
    "ScatterAdd",
    "ScatterSub",
    "ScatterMax",
    "ScatterMin",
    "Eye",
    "Range",
    "LinSpace",
    "Meshgrid",
    "Sort",
    "Unique",
    "Padding",
    "TopK",
    "Slice",
    "StridedSlice",
    "BroadcastTo",
    "ReverseV2",
    "MaskedFill",
    "MaskedSelect",
    "Tril",
    "Triu",
    "Diag",
    "UnsortedSegmentSum",
    "UnsortedSegmentMax",
    "UnsortedSegmentMin",
    "UnsortedSegmentProd",
    "InvertPermutation",
    "Roll",
    "SearchSorted",
    "IsInstance",
]


class Reshape(Primitive):
    """``Reshape()(input, shape)``."""

    def __call__(self, input: Any, shape: Any) -> Any:
        return F.reshape(input, shape)


class Fill(Primitive):
    """``Fill()(type, shape, value)``."""

    def __call__(self, type: Any, shape: Any, value: Any) -> Any:
        return F.fill(type, shape, value)


class DType(Primitive):
    """``DType()(input_x)``: the dtype object (``mstype.float32``...)."""

    def __call__(self, input_x: Any) -> Any:
        return F.dtype(input_x)


class Shape(Primitive):
    """``Shape()(x)``: the shape as a tuple of ints."""

    def __call__(self, x: Any) -> Any:
        return F.shape(x)


class TensorShape(Primitive):
    """``TensorShape()(input_x)``: the shape as an Int64 Tensor."""

    def __call__(self, input_x: Any) -> Any:
        return F.dyn_shape(input_x)


class DynamicShape(TensorShape):
    """``DynamicShape(dtype=9)()(input_x)``: the shape as an Int64 Tensor (``dtype`` 9 is MindSpore's
    type id of int64, the only one it accepts)."""

    def __init__(self, dtype: int = 9) -> None:
        super().__init__()
        _set_attrs(self, dtype=dtype)


class Cast(Primitive):
    """``Cast()(input_x, type)``."""

    def __call__(self, input_x: Any, type: Any) -> Any:
        return F.cast(input_x, type)


class Transpose(Primitive):
    """``Transpose()(input_x, input_perm)``."""

    def __call__(self, input_x: Any, input_perm: Any) -> Any:
        return F.transpose(input_x, input_perm)


class _AxisPrim(Primitive):
    def __init__(self, axis: int = 0) -> None:
        super().__init__()
        _set_attrs(self, axis=check_int(axis, "axis", self.name))


class Concat(_AxisPrim):
    """``Concat(axis=0)(input_x)``: join a tuple of Tensors along ``axis``."""

    def __call__(self, input_x: Any) -> Any:
        return F.concat(input_x, self.axis)


class Stack(_AxisPrim):
    """``Stack(axis=0)(input_x)``: stack a tuple of same-shaped Tensors on a new ``axis``."""

    def __call__(self, input_x: Any) -> Any:
        return F.stack(input_x, self.axis)


Pack = Stack


class Unstack(Primitive):
    """``Unstack(axis=0, num=None)(input_x)``: split along ``axis`` into a tuple of Tensors."""

    def __init__(self, axis: int = 0, num: Any = None) -> None:
        super().__init__()
        _set_attrs(self, axis=check_int(axis, "axis", self.name), num=num)

    def __call__(self, input_x: Any) -> Any:
        return F.unstack(input_x, self.axis)


class Unpack(Unstack):
    """``Unpack(axis=0)(input_x)``: MindSpore's old name of :class:`Unstack`."""

    def __init__(self, axis: int = 0) -> None:
        super().__init__(axis)


class Split(Primitive):
    """``Split(axis=0, output_num=1)(input_x)``: ``output_num`` equal parts along ``axis``."""

    def __init__(self, axis: int = 0, output_num: int = 1) -> None:
        super().__init__()
        _set_attrs(
            self, axis=check_int(axis, "axis", self.name), output_num=check_int(output_num, "output_num", self.name, 1)
        )

    def __call__(self, input_x: Any) -> Any:
        n = input_x.shape[self.axis]
        if n % self.output_num:
            raise ValueError(
                f"For 'Split', the shape of 'input_x' at 'axis' ({n}) must be divisible by "
                f"'output_num' ({self.output_num})."
            )
        return F.split(input_x, n // self.output_num, self.axis)


class Gather(Primitive):
    """``Gather(batch_dims=0)(input_params, input_indices, axis)``."""

    def __init__(self, batch_dims: int = 0) -> None:
        super().__init__()
        _set_attrs(self, batch_dims=check_int(batch_dims, "batch_dims", self.name))

    def __call__(self, input_params: Any, input_indices: Any, axis: Any) -> Any:
        ax = int(axis.item()) if hasattr(axis, "item") else axis
        return F.gather(input_params, input_indices, ax, self.batch_dims)


class GatherV2(Primitive):
    """``GatherV2()(input_params, input_indices, axis)``: MindSpore's old name of :class:`Gather`."""

    def __call__(self, input_params: Any, input_indices: Any, axis: Any) -> Any:
        return F.gather(input_params, input_indices, int(axis.item()) if hasattr(axis, "item") else axis)


class GatherD(Primitive):
    """``GatherD()(x, dim, index)``."""

    def __call__(self, x: Any, dim: Any, index: Any) -> Any:
        return F.gather_d(x, int(dim), index)


class GatherNd(Primitive):
    """``GatherNd()(input_x, indices)``."""

    def __call__(self, input_x: Any, indices: Any) -> Any:
        return F.gather_nd(input_x, indices)


class OneHot(Primitive):
    """``OneHot(axis=-1)(indices, depth, on_value, off_value)``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        _set_attrs(self, axis=check_int(axis, "axis", self.name))

    def __call__(self, indices: Any, depth: int, on_value: Any, off_value: Any) -> Any:
        return F.one_hot(indices, depth, on_value, off_value, self.axis)


class Select(Primitive):
    """``Select()(condition, x, y)``."""

    def __call__(self, condition: Any, x: Any, y: Any) -> Any:
        return F.select(condition, x, y)


class Squeeze(Primitive):
    """``Squeeze(axis=())(input_x)``: remove size-1 dims (all of them when ``axis`` is empty)."""

    def __init__(self, axis: Any = ()) -> None:
        super().__init__()
        axis = (axis,) if isinstance(axis, int) else tuple(axis)
        _set_attrs(self, axis=axis)

    def __call__(self, input_x: Any) -> Any:
        return F.squeeze(input_x, self.axis if self.axis else None)


class ExpandDims(Primitive):
    """``ExpandDims()(input_x, axis)``."""

    def __call__(self, input_x: Any, axis: int) -> Any:
        return F.expand_dims(input_x, axis)


class Tile(Primitive):
    """``Tile()(input_x, multiples)``."""

    def __call__(self, input_x: Any, multiples: Any) -> Any:
        return F.tile(input_x, multiples)


class ZerosLike(Primitive):
    """``ZerosLike()(input_x)``."""

    def __call__(self, input_x: Any) -> Any:
        return F.zeros_like(input_x)


class OnesLike(Primitive):
    """``OnesLike()(input_x)``."""

    def __call__(self, input_x: Any) -> Any:
        return F.ones_like(input_x)


class Zeros(Primitive):
    """``Zeros()(size, type=None)``."""

    def __call__(self, size: Any, type: Any = None) -> Any:
        return F.zeros(size, type)


class Ones(Primitive):
    """``Ones()(shape, type=None)``."""

    def __call__(self, shape: Any, type: Any = None) -> Any:
        return F.ones(shape, type)


class Identity(Primitive):
    """``Identity()(x)``: the input itself."""

    def __call__(self, x: Any) -> Any:
        return F.identity(x)


class Depend(Primitive):
    """``Depend()(value, expr)``: ``value``, after ``expr``."""

    def __call__(self, value: Any, expr: Any) -> Any:
        return F.depend(value, expr)


class StopGradient(Primitive):
    """``StopGradient()(x)``."""

    def __call__(self, x: Any) -> Any:
        return F.stop_gradient(x)


class Assign(Primitive):
    """``Assign()(variable, value)``: write ``value`` into the Parameter ``variable``."""

    def __call__(self, variable: Any, value: Any) -> Any:
        return F.assign(variable, value)


class AssignAdd(Primitive):
    """``AssignAdd()(variable, value)``: ``variable += value``."""

    def __call__(self, variable: Any, value: Any) -> Any:
        return F.assign_add(variable, value)


class AssignSub(Primitive):
    """``AssignSub()(variable, value)``: ``variable -= value``."""

    def __call__(self, variable: Any, value: Any) -> Any:
        return F.assign_sub(variable, value)


class Size(Primitive):
    """``Size()(input_x)``: the number of elements (int)."""

    def __call__(self, input_x: Any) -> Any:
        return F.size(input_x)


class Rank(Primitive):
    """``Rank()(input_x)``: the number of dimensions (int)."""

    def __call__(self, input_x: Any) -> Any:
        return F.rank(input_x)


class ScalarToTensor(Primitive):
    """``ScalarToTensor()(input_x, dtype=mstype.float32)``."""

    def __call__(self, input_x: Any, dtype: Any = mstype.float32) -> Any:
        return F.scalar_to_tensor(input_x, dtype)


class TupleToArray(Primitive):
    """``TupleToArray()(input_x)``: a tuple of numbers as a 1-D Tensor."""

    def __call__(self, input_x: Any) -> Any:
        if len({type(v) for v in input_x}) > 1:
            raise TypeError("For 'TupleToArray', all elements of 'input_x' must be have same type.")
        return F.tuple_to_array(input_x)


class ScalarCast(Primitive):
    """``ScalarCast()(input_x, input_t)``: a Python number converted to the type of ``input_t``."""

    def __call__(self, input_x: Any, input_t: Any) -> Any:
        return mstype.dtype_to_pytype(input_t)(input_x)


class _Scatter(Primitive):
    _fn: Any = None

    def __call__(self, *args: Any) -> Any:  # (input_x, indices, updates); MindSpore's instance signature
        return type(self)._fn(*args)


class _ParamScatter(_Scatter):
    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        _set_attrs(self, use_locking=check_bool(use_locking, "use_locking", self.name))


class _LockedParamScatter(_ParamScatter):
    def __init__(self, use_locking: bool = True) -> None:
        super().__init__(use_locking)


def _scatter(base: type, name: str, fn: Any) -> type:
    doc = f"``{name}()(input_x, indices, updates)``."
    return type(name, (base,), {"_fn": staticmethod(fn), "__doc__": doc, "__module__": __name__})


TensorScatterUpdate = _scatter(_Scatter, "TensorScatterUpdate", F.tensor_scatter_update)
TensorScatterAdd = _scatter(_Scatter, "TensorScatterAdd", F.tensor_scatter_add)
TensorScatterSub = _scatter(_Scatter, "TensorScatterSub", F.tensor_scatter_sub)
TensorScatterMax = _scatter(_Scatter, "TensorScatterMax", F.tensor_scatter_max)
TensorScatterMin = _scatter(_Scatter, "TensorScatterMin", F.tensor_scatter_min)
TensorScatterMul = _scatter(_Scatter, "TensorScatterMul", F.tensor_scatter_mul)
TensorScatterDiv = _scatter(_Scatter, "TensorScatterDiv", F.tensor_scatter_div)
ScatterNdUpdate = _scatter(_LockedParamScatter, "ScatterNdUpdate", F.scatter_nd_update)
ScatterNdAdd = _scatter(_ParamScatter, "ScatterNdAdd", F.scatter_nd_add)
ScatterNdSub = _scatter(_ParamScatter, "ScatterNdSub", F.scatter_nd_sub)
ScatterUpdate = _scatter(_LockedParamScatter, "ScatterUpdate", F.scatter_update)
ScatterAdd = _scatter(_ParamScatter, "ScatterAdd", F.scatter_add)
ScatterSub = _scatter(_ParamScatter, "ScatterSub", F.scatter_sub)
ScatterMax = _scatter(_ParamScatter, "ScatterMax", F.scatter_max)
ScatterMin = _scatter(_ParamScatter, "ScatterMin", F.scatter_min)


class TensorScatterElements(Primitive):
    """``TensorScatterElements(axis=0, reduction='none')(data, indices, updates)``."""

    def __init__(self, axis: int = 0, reduction: str = "none") -> None:
        super().__init__()
        _set_attrs(self, axis=axis, reduction=reduction)

    def __call__(self, data: Any, indices: Any, updates: Any) -> Any:
        return F.tensor_scatter_elements(data, indices, updates, self.axis, self.reduction)


class ScatterNd(Primitive):
    """``ScatterNd()(indices, updates, shape)``: zeros of ``shape`` with ``updates`` added at ``indices``."""

    def __call__(self, indices: Any, updates: Any, shape: Any) -> Any:
        return F.scatter_nd(indices, updates, shape)


class Eye(Primitive):
    """``Eye()(n, m, t)``: an ``n x m`` identity matrix of dtype ``t``."""

    def __call__(self, n: int, m: int, t: Any) -> Any:
        return F.eye(n, m, t)


class Range(Primitive):
    """``Range(maxlen=1000000)(start, limit, delta)``."""

    def __init__(self, maxlen: int = 1000000) -> None:
        super().__init__()
        _set_attrs(self, maxlen=maxlen)

    def __call__(self, start: Any, limit: Any, delta: Any) -> Any:
        return F.range(start, limit, delta)


class LinSpace(Primitive):
    """``LinSpace()(start, stop, num)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, start: Any, stop: Any, num: Any) -> Any:
        return F.linspace(start, stop, num)


class Meshgrid(Primitive):
    """``Meshgrid(indexing='xy')(inputs)``."""

    def __init__(self, indexing: str = "xy") -> None:
        super().__init__()
        validator.check_choice(indexing, ("xy", "ij"), "indexing", "Meshgrid")
        _set_attrs(self, indexing=indexing)

    def __call__(self, inputs: Any) -> Any:
        return F.meshgrid(*inputs, indexing=self.indexing)


class Sort(Primitive):
    """``Sort(axis=-1, descending=False)(x)`` -> ``(values, indices)``."""

    def __init__(self, axis: int = -1, descending: bool = False) -> None:
        super().__init__()
        _set_attrs(self, axis=axis, descending=check_bool(descending, "descending", self.name))

    def __call__(self, x: Any) -> Any:
        values, idx = F.sort(x, self.axis, self.descending)
        return values, F.cast(idx, mstype.int32)


class Unique(Primitive):
    """``Unique()(input_x)`` -> ``(values, indices)`` (eager only)."""

    def __call__(self, input_x: Any) -> Any:
        values, idx = F.unique(input_x)
        return values, F.cast(idx, mstype.int32)


class Padding(Primitive):
    """``Padding(pad_dim_size=8)(x)``: zero-pad a last dimension of size 1 to ``pad_dim_size``."""

    def __init__(self, pad_dim_size: int = 8) -> None:
        super().__init__()
        _set_attrs(self, pad_dim_size=check_int(pad_dim_size, "pad_dim_size", self.name, 1))

    def __call__(self, x: Any) -> Any:
        from ..function.array_func import padding

        return padding(x, self.pad_dim_size)


class TopK(Primitive):
    """``TopK(sorted=True)(input_x, k)`` -> ``(values, indices)`` along the last axis (indices Int32)."""

    def __init__(self, sorted: bool = True) -> None:
        super().__init__()
        _set_attrs(self, sorted=check_bool(sorted, "sorted", self.name))

    def __call__(self, input_x: Any, k: int) -> Any:
        values, idx = F.topk(input_x, k, None, True, self.sorted)
        return values, F.cast(idx, mstype.int32)


class Slice(Primitive):
    """``Slice()(input_x, begin, size)``."""

    def __call__(self, input_x: Any, begin: Any, size: Any) -> Any:
        return F.slice(input_x, begin, size)


class StridedSlice(Primitive):
    """``StridedSlice(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0)
    (input_x, begin, end, strides)``."""

    def __init__(
        self,
        begin_mask: int = 0,
        end_mask: int = 0,
        ellipsis_mask: int = 0,
        new_axis_mask: int = 0,
        shrink_axis_mask: int = 0,
    ) -> None:
        super().__init__()
        _set_attrs(
            self,
            begin_mask=begin_mask,
            end_mask=end_mask,
            ellipsis_mask=ellipsis_mask,
            new_axis_mask=new_axis_mask,
            shrink_axis_mask=shrink_axis_mask,
        )

    def __call__(self, input_x: Any, begin: Any, end: Any, strides: Any) -> Any:
        return F.strided_slice(
            input_x,
            begin,
            end,
            strides,
            self.begin_mask,
            self.end_mask,
            self.ellipsis_mask,
            self.new_axis_mask,
            self.shrink_axis_mask,
        )


class BroadcastTo(Primitive):
    """``BroadcastTo(shape)(input_x)``."""

    def __init__(self, shape: Any) -> None:
        super().__init__()
        _set_attrs(self, shape=tuple(shape))

    def __call__(self, input_x: Any) -> Any:
        return F.broadcast_to(input_x, self.shape)


class ReverseV2(Primitive):
    """``ReverseV2(axis)(input_x)``: reverse along the listed axes."""

    def __init__(self, axis: Any) -> None:
        super().__init__()
        _set_attrs(self, axis=tuple(axis))

    def __call__(self, input_x: Any) -> Any:
        return F.flip(input_x, self.axis)


class MaskedFill(Primitive):
    """``MaskedFill()(input, mask, value)``."""

    def __call__(self, input: Any, mask: Any, value: Any) -> Any:
        return F.masked_fill(input, mask, value)


class MaskedSelect(Primitive):
    """``MaskedSelect()(x, mask)`` (eager only)."""

    def __call__(self, x: Any, mask: Any) -> Any:
        return F.masked_select(x, mask)


class Tril(Primitive):
    """``Tril(diagonal=0)(x)``."""

    def __init__(self, diagonal: int = 0) -> None:
        super().__init__()
        _set_attrs(self, diagonal=diagonal)

    def __call__(self, x: Any) -> Any:
        return F.tril(x, self.diagonal)


class Triu(Tril):
    """``Triu(diagonal=0)(x)``."""

    def __call__(self, x: Any) -> Any:
        return F.triu(x, self.diagonal)


class Diag(Primitive):
    """``Diag()(input_x)``."""

    def __call__(self, input_x: Any) -> Any:
        return F.diag(input_x)


class _Segment(Primitive):
    _fn: Any = None

    def __call__(self, input_x: Any, segment_ids: Any, num_segments: Any) -> Any:
        return type(self)._fn(input_x, segment_ids, num_segments)


def _segment(name: str, fn: Any) -> type:
    doc = f"``{name}()(input_x, segment_ids, num_segments)``."
    return type(name, (_Segment,), {"_fn": staticmethod(fn), "__doc__": doc, "__module__": __name__})


UnsortedSegmentSum = _segment("UnsortedSegmentSum", F.unsorted_segment_sum)
UnsortedSegmentMax = _segment("UnsortedSegmentMax", F.unsorted_segment_max)
UnsortedSegmentMin = _segment("UnsortedSegmentMin", F.unsorted_segment_min)
UnsortedSegmentProd = _segment("UnsortedSegmentProd", F.unsorted_segment_prod)


class InvertPermutation(Primitive):
    """``InvertPermutation()(input_x)``: the inverse of a permutation given as a tuple of ints."""

    def __call__(self, input_x: Any) -> Any:
        perm = [int(v) for v in input_x]
        if sorted(perm) != list(range(len(perm))):
            raise ValueError(f"For 'InvertPermutation', the 'input_x' must be a permutation, but got {tuple(perm)}.")
        out = [0] * len(perm)
        for i, p in enumerate(perm):
            out[p] = i
        return tuple(out)


class Roll(Primitive):
    """``Roll(shifts, dims=None)(input_x)``: the elements shifted by ``shifts`` along ``dims`` (the flattened
    tensor when None), wrapping around. ``shift``/``axis`` are kept as aliases of the attributes."""

    def __init__(self, shifts: Any, dims: Any = None) -> None:
        super().__init__()
        _set_attrs(self, shifts=shifts, dims=dims, shift=shifts, axis=dims)

    def __call__(self, input_x: Any) -> Any:
        return F.roll(input_x, self.shifts, self.dims)


class SearchSorted(Primitive):
    """``SearchSorted(dtype=mstype.int64, right=False)(sorted_sequence, values)``."""

    def __init__(self, dtype: Any = mstype.int64, right: bool = False) -> None:
        super().__init__()
        _set_attrs(self, dtype=dtype, right=right)

    def __call__(self, sorted_sequence: Any, values: Any) -> Any:
        out = F.searchsorted(sorted_sequence, values, right=self.right)
        return F.cast(out, self.dtype)


class IsInstance(Primitive):
    """``IsInstance()(inst, type_)``: whether ``inst``'s dtype is ``type_``."""

    def __call__(self, inst: Any, type_: Any) -> bool:
        return mstype.get_py_obj_dtype(inst) == type_
