"""Creation, shape, join/split and type ops (``mindspore.ops`` functional).

The indexing/gather/scatter ops live in :mod:`.gather_scatter_func` and the sorting/searching ops in
:mod:`.sort_search_func`; this module re-exports them, so ``array_func.X`` keeps working."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jax, jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor, to_array
from .._amp import amp_promote
from .._utils import arr, as_tensor_array, check_axis, np_dtype, wrap
from . import array_layout_func, gather_scatter_func, sort_search_func
from ._array_utils import _concrete, _shape_arg
from .array_layout_func import *  # noqa: F403
from .gather_scatter_func import *  # noqa: F403
from .sort_search_func import *  # noqa: F403

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__ = [
        "cast",
        "reshape",
        "transpose",
        "permute",
        "swapaxes",
        "moveaxis",
        "expand_dims",
        "unsqueeze",
        "squeeze",
        "flatten",
        "broadcast_to",
        "tile",
        "concat",
        "cat",
        "stack",
        "split",
        "chunk",
        "narrow",
        "one_hot",
        "zeros",
        "ones",
        "zeros_like",
        "ones_like",
        "fill",
        "full",
        "full_like",
        "arange",
        "range",
        "linspace",
        "eye",
        "stop_gradient",
        "depend",
        "identity",
        "shape",
        "rank",
        "size",
        "dtype",
        "flip",
        "roll",
        "repeat_elements",
        "repeat_interleave",
        "repeat_elements_np",
        "meshgrid",
        "unstack",
        "bitcast",
        "resize_tensor",
        "scalar_to_tensor",
        "tuple_to_array",
        "reverse",
        "hstack",
        "vstack",
        "dstack",
        "dyn_shape",
        "tensor_split",
        "clone",
        "numel",
        "is_tensor",
        "slice",
        "strided_slice",
        "swapdims",
        "movedim",
        "t",
        "unbind",
        "column_stack",
        "atleast_1d",
        "atleast_2d",
        "atleast_3d",
        "hsplit",
        "vsplit",
        "dsplit",
        "sequence_mask",
    ]
    __all__ += [
        "expand",
        "expand_as",
        "view_as",
        "type_as",
        "ravel",
        "fills",
        "zero_",
        "deepcopy",
        "is_nonzero",
        "scalar_to_array",
        "population_count",
        "hamming_window",
        "padding",
        "tensor_range",
        "tensor_slice",
        "shape_mul",
    ]
    __all__ += array_layout_func.__all__
    __all__ += gather_scatter_func.__all__
    __all__ += sort_search_func.__all__


def cast(input: Any, dtype: Any) -> Tensor:
    """Convert to ``dtype`` (a sporax dtype)."""
    if not isinstance(dtype, mstype.Type):
        raise TypeError(f"For 'Cast', the 'dtype' must be a sporax dtype such as ms.float32, but got {dtype!r}.")
    a = as_tensor_array(input)
    nd = np_dtype(dtype)
    return wrap(a if a.dtype == nd else a.astype(nd))


def reshape(input: Any, shape: Any) -> Tensor:
    a = as_tensor_array(input)
    shp = _shape_arg(shape, "Reshape")
    known = int(np.prod([s for s in shp if s != -1])) if shp else 1
    if (
        shp.count(-1) > 1
        or builtins.any(s < -1 for s in shp)
        or (-1 not in shp and known != a.size)
        or (-1 in shp and (known == 0 or a.size % known))
    ):
        raise ValueError(
            f"For 'Reshape', the product of the 'input_x' shape should be equal to product of 'input_shape', "
            f"but got 'input_x' shape: {tuple(a.shape)}, and 'input_shape': {shp}."
        )
    return wrap(a.reshape(shp))


def transpose(input: Any, dims: Any) -> Tensor:
    """Permute the dimensions of ``input`` by ``dims`` (``None``: reverse them)."""
    a = as_tensor_array(input)
    if dims is None:
        return wrap(a.T)
    perm = tuple(int(p) for p in dims)
    if len(perm) != a.ndim or sorted(p % builtins.max(a.ndim, 1) for p in perm) != list(builtins.range(a.ndim)):
        raise ValueError(
            f"For 'Transpose', the 'input_perm' must be a permutation of the {a.ndim} axes, but got {perm}."
        )
    return wrap(jnp.transpose(a, perm))


def permute(input: Any, axis: Any) -> Tensor:
    return transpose(input, axis)


def swapaxes(input: Any, axis0: int, axis1: int) -> Tensor:
    return wrap(jnp.swapaxes(as_tensor_array(input), axis0, axis1))


def moveaxis(x: Any, source: Any, destination: Any) -> Tensor:
    return wrap(jnp.moveaxis(as_tensor_array(x), source, destination))


def expand_dims(input_x: Any, axis: int) -> Tensor:
    a = as_tensor_array(input_x)
    ax = check_axis(axis, a.ndim + 1, "ExpandDims")
    return wrap(jnp.expand_dims(a, ax))


def unsqueeze(input: Any, dim: int) -> Tensor:
    """``input`` with a new dimension of size 1 at ``dim``."""
    return expand_dims(input, dim)


def squeeze(input: Any, axis: Any = None) -> Tensor:
    a = as_tensor_array(input)
    if axis is None:
        return wrap(jnp.squeeze(a))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    axes = tuple(check_axis(ax, a.ndim, "Squeeze") for ax in axes)
    for ax in axes:
        if a.shape[ax] != 1:
            raise ValueError(f"For 'Squeeze', the dimension at axis {ax} must be 1, but got shape {tuple(a.shape)}.")
    return wrap(jnp.squeeze(a, axes))


def flatten(input: Any, order: str = "C", *, start_dim: int = 1, end_dim: int = -1) -> Tensor:
    """Flatten dims ``start_dim..end_dim`` (MindSpore's functional default starts at 1)."""
    a = as_tensor_array(input)
    validator.check_choice(order, ("C", "F"), "order", "flatten")
    if a.ndim == 0:
        return wrap(a.reshape(1))
    s = start_dim % a.ndim
    e = end_dim % a.ndim
    if s > e:
        raise ValueError(f"For 'flatten', 'start_dim' ({start_dim}) cannot come after 'end_dim' ({end_dim}).")
    if order == "F":
        a = a.T
    shape = a.shape[:s] + (-1,) + a.shape[e + 1 :]
    return wrap(a.reshape(shape))


def broadcast_to(input: Any, shape: Any) -> Tensor:
    a = as_tensor_array(input)
    shp = list(_shape_arg(shape, "broadcast_to"))
    off = len(shp) - a.ndim
    for i, s in enumerate(shp):
        if s == -1:
            if i < off:
                raise ValueError(f"For 'broadcast_to', -1 cannot stand for a new leading dimension: {tuple(shape)}.")
            shp[i] = a.shape[i - off]
    try:
        return wrap(jnp.broadcast_to(a, tuple(shp)))
    except ValueError:
        raise ValueError(
            f"For 'broadcast_to', the input shape {tuple(a.shape)} cannot be broadcast to {tuple(shp)}."
        ) from None


def tile(input: Any, dims: Any) -> Tensor:
    return wrap(jnp.tile(as_tensor_array(input), tuple(dims)))


@amp_promote
def concat(tensors: Any, axis: int = 0) -> Tensor:
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError("For 'concat', the input must be a non-empty list or tuple of Tensors.")
    arrays = [as_tensor_array(t) for t in tensors]
    dt = arrays[0].dtype
    for a in arrays[1:]:
        dt = jnp.promote_types(dt, a.dtype)
    nd = arrays[0].ndim
    ax = check_axis(axis, nd, "concat")
    for i, a in enumerate(arrays):
        if a.ndim != nd or builtins.any(a.shape[d] != arrays[0].shape[d] for d in builtins.range(nd) if d != ax):
            raise ValueError(
                f"For 'concat', all tensors must have the same shape except on axis {axis}, but got "
                f"{tuple(arrays[0].shape)} and {tuple(a.shape)} (element {i})."
            )
    return wrap(jnp.concatenate([a.astype(dt) for a in arrays], axis=ax))


cat = concat


def stack(tensors: Any, axis: int = 0) -> Tensor:
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError("For 'stack', the input must be a non-empty list or tuple of Tensors.")
    arrays = [as_tensor_array(t) for t in tensors]
    for i, a in enumerate(arrays):
        if a.shape != arrays[0].shape:
            raise ValueError(
                f"For 'stack', all tensors must have the same shape, but got {tuple(arrays[0].shape)} and {tuple(a.shape)} (element {i})."
            )
    return wrap(jnp.stack(arrays, axis=axis))


def unstack(input_x: Any, axis: int = 0) -> tuple[Tensor, ...]:
    a = as_tensor_array(input_x)
    return tuple(wrap(x) for x in jnp.moveaxis(a, axis, 0))


def hstack(tensors: Any) -> Tensor:
    return wrap(jnp.hstack([as_tensor_array(t) for t in tensors]))


def vstack(inputs: Any) -> Tensor:
    return wrap(jnp.vstack([as_tensor_array(t) for t in inputs]))


def dstack(tensors: Any) -> Tensor:
    """The tensors stacked along the third axis (1-D and 2-D ones first become ``(1, N, 1)`` / ``(M, N, 1)``)."""
    return wrap(jnp.dstack([as_tensor_array(t) for t in tensors]))


def split(tensor: Any, split_size_or_sections: Any, axis: int = 0) -> tuple[Tensor, ...]:
    """Split into chunks of ``split_size_or_sections`` (int) or of the listed sizes."""
    a = as_tensor_array(tensor)
    ax = check_axis(axis, a.ndim, "split")
    n = a.shape[ax]
    if isinstance(split_size_or_sections, (int, np.integer)):
        size = int(split_size_or_sections)
        if size <= 0:
            raise ValueError(f"For 'split', the split size must be positive, but got {size}.")
        sizes = [size] * (n // size) + ([n % size] if n % size else [])
    else:
        sizes = [int(s) for s in split_size_or_sections]
        if builtins.sum(sizes) != n:
            raise ValueError(f"For 'split', the sections {sizes} must add up to the axis length {n}.")
    idx = np.cumsum(sizes)[:-1].tolist()
    return tuple(wrap(x) for x in jnp.split(a, idx, axis=ax))


def tensor_split(input: Any, indices_or_sections: Any, axis: int = 0) -> tuple[Tensor, ...]:
    return tuple(wrap(x) for x in jnp.array_split(as_tensor_array(input), indices_or_sections, axis=axis))


def chunk(input: Any, chunks: int, axis: int = 0) -> tuple[Tensor, ...]:
    a = as_tensor_array(input)
    n = a.shape[axis]
    size = -(-n // chunks)
    return split(input, size, axis)


def narrow(input: Any, axis: int, start: int, length: int) -> Tensor:
    a = as_tensor_array(input)
    return wrap(lax.slice_in_dim(a, start, start + length, axis=axis))


def one_hot(indices: Any, depth: int, on_value: Any = 1, off_value: Any = 0, axis: int = -1) -> Tensor:
    """One-hot encoding of ``indices`` with ``depth`` classes (dtype of ``on_value``; int64 for ints)."""
    idx = as_tensor_array(indices)
    on, off = arr(on_value), arr(off_value)
    dt = on.dtype if hasattr(on, "dtype") else (np.float32 if isinstance(on, float) else np.int64)
    oh = jax.nn.one_hot(idx, int(depth), axis=axis, dtype=jnp.bool_)
    return wrap(jnp.where(oh, jnp.asarray(on, dt), jnp.asarray(off, dt)))


def _creation_dtype(dtype: Any, default: Any = mstype.float32) -> np.dtype:
    return np_dtype(dtype if dtype is not None else default)


def zeros(size: Any, dtype: Any = None) -> Tensor:
    return wrap(jnp.zeros(_shape_arg(size, "zeros"), _creation_dtype(dtype)))


def ones(shape: Any, dtype: Any = None) -> Tensor:
    return wrap(jnp.ones(_shape_arg(shape, "ones"), _creation_dtype(dtype)))


def zeros_like(input: Any, *, dtype: Any = None) -> Tensor:
    a = as_tensor_array(input)
    return wrap(jnp.zeros(a.shape, a.dtype if dtype is None else np_dtype(dtype)))


def ones_like(input: Any, *, dtype: Any = None) -> Tensor:
    a = as_tensor_array(input)
    return wrap(jnp.ones(a.shape, a.dtype if dtype is None else np_dtype(dtype)))


def fill(type: Any, shape: Any, value: Any) -> Tensor:
    """A tensor of ``shape`` filled with ``value`` (MindSpore's ``ops.fill(type, shape, value)``)."""
    if not isinstance(type, mstype.Type):
        raise TypeError(f"For 'Fill', the 'type' must be a sporax dtype such as ms.float32, but got {type!r}.")
    return wrap(jnp.full(_shape_arg(shape, "fill"), arr(value), np_dtype(type)))


def full(size: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:
    if dtype is None:
        fv = arr(fill_value)
        dtype = (
            mstype.from_np(fv.dtype)
            if hasattr(fv, "dtype")
            else (mstype.bool_ if isinstance(fv, bool) else mstype.int64 if isinstance(fv, int) else mstype.float32)
        )
    return wrap(jnp.full(_shape_arg(size, "full"), arr(fill_value), np_dtype(dtype)))


def full_like(input: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:
    a = as_tensor_array(input)
    return wrap(jnp.full(a.shape, arr(fill_value), a.dtype if dtype is None else np_dtype(dtype)))


def arange(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None) -> Tensor:
    s, e, st = arr(start), arr(end), arr(step)
    if dtype is None:
        is_f = builtins.any(
            isinstance(v, float) or (hasattr(v, "dtype") and jnp.issubdtype(v.dtype, jnp.floating))
            for v in (s, e, st)
            if v is not None
        )
        dtype = mstype.float32 if is_f else mstype.int64
    return wrap(jnp.arange(s, e, st, dtype=np_dtype(dtype)))


def range(start: Any, end: Any, step: Any, maxlen: int = 1000000) -> Tensor:
    """Numbers from ``start`` up to ``end`` (exclusive) by ``step``: Int64 for ints, Float32 for floats
    (all three of one kind, as in MindSpore), at most ``maxlen`` of them."""
    vals = [arr(v) for v in (start, end, step)]
    kinds = []
    for v in vals:
        if hasattr(v, "dtype"):
            kinds.append(mstype.from_np(v.dtype))
        else:
            kinds.append(mstype.float32 if isinstance(v, float) else mstype.int64)
    if builtins.len(set(kinds)) != 1:
        raise TypeError(
            f"For Range, the dtypes of inputs must be the same, but got ({', '.join(str(k) for k in kinds)})."
        )
    s, e, st = (np.asarray(v).item() for v in vals)
    if st == 0:
        raise ValueError("For 'Range', the 'step' cannot be 0.")
    if (st > 0 and s > e) or (st < 0 and s < e):
        raise ValueError(
            f"For 'Range', 'start' must be less than 'end' for a positive 'step' (greater for a negative one), "
            f"but got start={s}, end={e}, step={st}."
        )
    n = int(np.ceil((e - s) / st))
    if n > maxlen:
        raise ValueError(f"For 'Range', the number of elements ({n}) must not exceed 'maxlen' ({maxlen}).")
    out_dt = mstype.int64 if isinstance(kinds[0], (mstype.Int, mstype.UInt)) else mstype.float32
    return wrap(jnp.arange(s, e, st, dtype=np_dtype(out_dt)))


def linspace(start: Any, end: Any, steps: int) -> Tensor:
    s, e = arr(start), arr(end)
    return wrap(jnp.linspace(s, e, int(steps), dtype=jnp.float32))


def eye(n: int, m: int | None = None, dtype: Any = None) -> Tensor:
    """An ``n x m`` matrix with ones on the diagonal (Float32 by default)."""
    return wrap(jnp.eye(n, m, dtype=np_dtype(mstype.float32 if dtype is None else dtype)))


def stop_gradient(value: Any) -> Any:
    """Block gradients through ``value`` (a Tensor or a tuple/list of them)."""
    return jax.tree_util.tree_map(
        lambda t: wrap(lax.stop_gradient(arr(t))) if isinstance(t, Tensor) else t,
        value,
        is_leaf=lambda t: isinstance(t, Tensor),
    )


def depend(value: Any, expr: Any) -> Any:
    """Return ``value``; ``expr`` is evaluated first (ordering is implicit in sporax's programs). A float-status
    tensor (``ops.NPUAllocFloatStatus``) records whether ``expr`` overflowed."""
    from ._float_status import LIVE, note

    if LIVE:
        note(value, expr)
    return value


def identity(x: Any) -> Any:
    """``x`` itself."""
    return x


def clone(input: Any) -> Tensor:
    return wrap(jnp.array(as_tensor_array(input), copy=True))


def shape(input_x: Any) -> tuple[int, ...]:
    return tuple(as_tensor_array(input_x).shape)


def dyn_shape(input_x: Any) -> Tensor:
    return Tensor(np.asarray(shape(input_x), np.int64))


def rank(input_x: Any) -> int:
    return as_tensor_array(input_x).ndim


def size(input_x: Any) -> int:
    return int(as_tensor_array(input_x).size)


def numel(input: Any) -> int:
    """The number of elements (``size``; MindSpore names the argument ``input``)."""
    return size(input)


def dtype(x: Any) -> mstype.Type:
    """The dtype of the Tensor ``x`` (``mstype.float32``...)."""
    return mstype.from_np(as_tensor_array(x).dtype)


def tensor_range(start: Any, end: Any, step: Any) -> Tensor:
    """MindSpore's ``F.tensor_range`` (a ``Range()`` instance): :func:`range`."""
    return range(start, end, step)


def tensor_slice(input: Any, begin: Any, size: Any) -> Tensor:
    """MindSpore's ``F.tensor_slice`` (a ``Slice()`` instance): :func:`slice`."""
    return slice(input, begin, size)


def is_tensor(obj: Any) -> bool:
    return isinstance(obj, Tensor)


def flip(input: Any, dims: Any) -> Tensor:
    return wrap(jnp.flip(as_tensor_array(input), dims))


def reverse(x: Any, axis: Any) -> Tensor:
    """``x`` reversed along the dimensions in ``axis`` (MindSpore's ReverseV2)."""
    return flip(x, axis)


def roll(input: Any, shifts: Any, dims: Any = None) -> Tensor:
    return wrap(jnp.roll(as_tensor_array(input), shifts, dims))


def repeat_elements(x: Any, rep: int, axis: int = 0) -> Tensor:
    return wrap(jnp.repeat(as_tensor_array(x), rep, axis=axis))


def repeat_interleave(input: Any, repeats: Any, axis: Any = None) -> Tensor:
    return wrap(jnp.repeat(as_tensor_array(input), arr(repeats), axis=axis))


repeat_elements_np = repeat_interleave


def meshgrid(*inputs: Any, indexing: str = "xy") -> tuple[Tensor, ...]:
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = tuple(inputs[0])
    return tuple(wrap(g) for g in jnp.meshgrid(*[as_tensor_array(t) for t in inputs], indexing=indexing))


def bitcast(x: Any, dtype: Any) -> Tensor:
    return wrap(lax.bitcast_convert_type(as_tensor_array(x), np_dtype(dtype)))


def resize_tensor(x: Any, shape: Any) -> Tensor:
    return wrap(jnp.resize(as_tensor_array(x), tuple(shape)))


def scalar_to_tensor(input_x: Any, dtype: Any = mstype.float32) -> Tensor:
    return wrap(jnp.asarray(input_x, np_dtype(dtype)))


def tuple_to_array(input_x: Any) -> Tensor:
    """A tuple of numbers as a 1-D Tensor: Int32 when all are ints, else Float32 (MindSpore's TupleToArray)."""
    vals = list(input_x)
    ints = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in vals)
    return wrap(jnp.asarray(np.asarray(vals, np.int32 if ints else np.float32)))


def slice(input_x: Any, begin: Any, size: Any) -> Tensor:
    """``input_x[begin[i]:begin[i]+size[i]]`` on every axis (``size[i] == -1``: to the end)."""
    a = as_tensor_array(input_x)
    b, s = _shape_arg(begin, "Slice"), _shape_arg(size, "Slice")
    if len(b) != a.ndim or len(s) != a.ndim:
        raise ValueError(
            f"For 'Slice', the length of 'begin' and 'size' must equal the rank of 'input_x' ({a.ndim}), "
            f"but got begin={b}, size={s}."
        )
    lim = []
    for d, (bi, si) in enumerate(zip(b, s)):
        end = a.shape[d] if si == -1 else bi + si
        if bi < 0 or end > a.shape[d] or end < bi:
            raise ValueError(
                f"For 'Slice', 'begin' + 'size' must lie within the input shape {tuple(a.shape)}, "
                f"but got begin={b}, size={s}."
            )
        lim.append(end)
    return wrap(lax.slice(a, b, tuple(lim)))


def strided_slice(
    input_x: Any,
    begin: Any,
    end: Any,
    strides: Any,
    begin_mask: int = 0,
    end_mask: int = 0,
    ellipsis_mask: int = 0,
    new_axis_mask: int = 0,
    shrink_axis_mask: int = 0,
) -> Tensor:
    """TensorFlow-style strided slice with bit masks (MindSpore's StridedSlice)."""
    a = as_tensor_array(input_x)
    b, e, st = _shape_arg(begin, "StridedSlice"), _shape_arg(end, "StridedSlice"), _shape_arg(strides, "StridedSlice")
    if not len(b) == len(e) == len(st):
        raise ValueError(
            f"For 'StridedSlice', 'begin', 'end' and 'strides' must have the same length, but got {b}, {e}, {st}."
        )
    if builtins.any(s == 0 for s in st):
        raise ValueError(f"For 'StridedSlice', the 'strides' cannot contain 0, but got {st}.")
    index: list[Any] = []
    for i in builtins.range(len(b)):
        bit = 1 << i
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            index.append(b[i])
        else:
            index.append(builtins.slice(None if begin_mask & bit else b[i], None if end_mask & bit else e[i], st[i]))
    return wrap(a[tuple(index)])


def swapdims(input: Any, dim0: int, dim1: int) -> Tensor:
    return swapaxes(input, dim0, dim1)


movedim = moveaxis


def t(input: Any) -> Tensor:
    """Transpose of a tensor with at most 2 dims."""
    a = as_tensor_array(input)
    if a.ndim > 2:
        raise ValueError(f"For 't', the input must have at most 2 dimensions, but got {a.ndim}.")
    return wrap(a.T)


def unbind(input: Any, dim: int = 0) -> tuple[Tensor, ...]:
    return unstack(input, dim)


def column_stack(tensors: Any) -> Tensor:
    return wrap(jnp.column_stack([as_tensor_array(x) for x in tensors]))


def atleast_1d(inputs: Any) -> Any:
    if isinstance(inputs, (list, tuple)):
        return tuple(atleast_1d(x) for x in inputs)
    return wrap(jnp.atleast_1d(as_tensor_array(inputs)))


def atleast_2d(inputs: Any) -> Any:
    if isinstance(inputs, (list, tuple)):
        return tuple(atleast_2d(x) for x in inputs)
    return wrap(jnp.atleast_2d(as_tensor_array(inputs)))


def atleast_3d(inputs: Any) -> Any:
    if isinstance(inputs, (list, tuple)):
        return tuple(atleast_3d(x) for x in inputs)
    return wrap(jnp.atleast_3d(as_tensor_array(inputs)))


def hsplit(input: Any, indices_or_sections: Any) -> tuple[Tensor, ...]:
    return tensor_split(input, indices_or_sections, 1 if as_tensor_array(input).ndim > 1 else 0)


def vsplit(input: Any, indices_or_sections: Any) -> tuple[Tensor, ...]:
    return tensor_split(input, indices_or_sections, 0)


def dsplit(input: Any, indices_or_sections: Any) -> tuple[Tensor, ...]:
    return tensor_split(input, indices_or_sections, 2)


def sequence_mask(lengths: Any, maxlen: Any = None) -> Tensor:
    """``mask[..., j] = j < lengths[...]`` (Bool), ``maxlen`` defaulting to ``max(lengths)``."""
    lens = as_tensor_array(lengths)
    if maxlen is None:
        maxlen = int(_concrete(lens, "sequence_mask").max())
    return wrap(jnp.arange(int(maxlen), dtype=lens.dtype) < lens[..., None])


def padding(x: Any, pad_dim_size: int = 8) -> Tensor:
    """Pad the last dimension (of size 1) with zeros up to ``pad_dim_size`` (MindSpore's Padding)."""
    a = as_tensor_array(x)
    if a.ndim < 1 or a.shape[-1] != 1:
        raise ValueError(f"For 'Padding', the last dimension of 'x' must be 1, but got shape {tuple(a.shape)}.")
    pad = [(0, 0)] * (a.ndim - 1) + [(0, int(pad_dim_size) - 1)]
    return wrap(jnp.pad(a, pad))


def expand(input_x: Any, size: Any) -> Tensor:
    """``input_x`` broadcast to ``size`` (a tuple or an int Tensor; -1 keeps a dimension)."""
    return broadcast_to(input_x, size)


def expand_as(input: Any, other: Any) -> Tensor:
    """``input`` broadcast to the shape of ``other``."""
    return broadcast_to(input, tuple(as_tensor_array(other).shape))


def view_as(input: Any, other: Any) -> Tensor:
    """``input`` reshaped to the shape of ``other``."""
    return reshape(input, tuple(as_tensor_array(other).shape))


def type_as(input: Any, other: Any) -> Tensor:
    """``input`` converted to the dtype of ``other``."""
    return cast(input, mstype.from_np(as_tensor_array(other).dtype))


def ravel(input: Any) -> Tensor:
    """``input`` flattened to 1-D."""
    return wrap(as_tensor_array(input).reshape(-1))


def fills(x: Any, value: Any) -> Tensor:
    """A tensor like ``x`` filled with ``value`` (a number or a 0-d Tensor)."""
    a = as_tensor_array(x)
    v = arr(value)
    if hasattr(v, "ndim") and v.ndim != 0:
        raise ValueError(f"For 'fills', the 'value' must be a number or a 0-D Tensor, but got rank {v.ndim}.")
    if not isinstance(v, (int, float, bool, np.number)) and not hasattr(v, "dtype"):
        raise TypeError(f"For 'fills', the 'value' must be a number or a Tensor, but got {type(value).__name__}.")
    return wrap(jnp.full(a.shape, v, a.dtype))


def zero_(input: Any) -> Any:
    """Fill ``input`` (a Tensor or Parameter) with zeros in place and return it."""
    from .gather_scatter_func import _write_back

    return _write_back(input, zeros_like(input))


def deepcopy(input_x: Any) -> Tensor:
    """A copy of ``input_x``."""
    return clone(input_x)


def is_nonzero(input: Any) -> bool:
    """Whether the single element of ``input`` is not zero."""
    a = as_tensor_array(input)
    if a.size != 1:
        raise ValueError(f"For is_nonzero, the numel of input must be 1, but got {a.size}.")
    return bool(np.asarray(a).reshape(-1)[0] != 0)


def scalar_to_array(input_x: Any) -> Tensor:
    """A Python number as a 0-d Tensor (MindSpore's default dtypes: Int64, Float32, Bool)."""
    if isinstance(input_x, Tensor):
        return input_x
    if not isinstance(input_x, (int, float, bool, np.number)):
        raise TypeError(f"For 'ScalarToArray', the 'input_x' must be a number, but got {type(input_x).__name__}.")
    return wrap(to_array(input_x))


def population_count(input_x: Any) -> Tensor:
    """The number of 1 bits of each element of the integer ``input_x`` (UInt8)."""
    a = as_tensor_array(input_x)
    if not jnp.issubdtype(a.dtype, jnp.integer):
        raise TypeError(
            f"For 'PopulationCount', the 'input_x' must be an int Tensor, but got {mstype.from_np(a.dtype)}."
        )
    return wrap(lax.population_count(a).astype(jnp.uint8))


def hamming_window(
    window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *, dtype: Any = None
) -> Tensor:
    """``alpha - beta * cos(2 pi n / (N - 1))`` (``N = window_length + 1`` when ``periodic``)."""
    if isinstance(window_length, bool) or not isinstance(window_length, (int, np.integer)):
        raise TypeError(
            f"For 'hamming_window', 'window_length' must be an int, but got {type(window_length).__name__}."
        )
    if window_length < 0:
        raise ValueError(f"For 'hamming_window', 'window_length' must be non-negative, but got {window_length}.")
    dt = np_dtype(mstype.float32 if dtype is None else dtype)
    if window_length <= 1:
        return wrap(jnp.ones((window_length,), dt))
    n = window_length + 1 if periodic else window_length
    w = alpha - beta * np.cos(2 * np.pi * np.arange(window_length) / (n - 1))
    return wrap(jnp.asarray(w, dt))


def shape_mul(input_data: Any) -> int:
    """The product of the ints of a shape tuple."""
    out = 1
    for v in input_data:
        out *= int(v)
    return out
