"""Shape, creation, indexing and data-movement ops (``mindspore.ops`` functional)."""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ..._engine import jax, jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor, to_array
from .._amp import amp_promote
from .._utils import arr, as_tensor_array, check_axis, np_dtype, wrap

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
    "gather",
    "gather_elements",
    "gather_d",
    "gather_nd",
    "take",
    "index_select",
    "masked_fill",
    "masked_select",
    "where",
    "select",
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
    "tensor_getitem",
    "tensor_setitem",
    "nonzero",
    "diag",
    "diagonal",
    "trace",
    "tril",
    "triu",
    "flip",
    "roll",
    "sort",
    "argsort",
    "topk",
    "unique",
    "tensor_scatter_update",
    "tensor_scatter_add",
    "scatter_nd",
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
    "isin",
    "scatter",
    "masked_scatter",
    "dyn_shape",
    "tensor_split",
    "clone",
    "numel",
    "is_tensor",
]


def cast(input: Any, dtype: Any) -> Tensor:
    """Convert to ``dtype`` (a sporax dtype)."""
    if not isinstance(dtype, mstype.Type):
        raise TypeError(f"For 'Cast', the 'dtype' must be a sporax dtype such as ms.float32, but got {dtype!r}.")
    a = as_tensor_array(input)
    nd = np_dtype(dtype)
    return wrap(a if a.dtype == nd else a.astype(nd))


def _shape_arg(shape: Any, op: str) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = tuple(int(s) for s in shape.asnumpy().reshape(-1))
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"For '{op}', the 'shape' must be a tuple or list of ints, but got {type(shape).__name__}.")
    return tuple(int(s) for s in shape)


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


def transpose(input: Any, input_perm: Any = None) -> Tensor:
    a = as_tensor_array(input)
    if input_perm is None:
        return wrap(a.T)
    perm = tuple(int(p) for p in input_perm)
    if sorted(p % builtins.max(a.ndim, 1) for p in perm) != list(builtins.range(a.ndim)):
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


unsqueeze = expand_dims


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
    if order not in ("C", "F"):
        raise ValueError(f"For 'flatten', the 'order' must be 'C' or 'F', but got '{order}'.")
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


def dstack(inputs: Any) -> Tensor:
    return wrap(jnp.dstack([as_tensor_array(t) for t in inputs]))


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


def gather(input_params: Any, input_indices: Any, axis: int, batch_dims: int = 0) -> Tensor:
    """Take slices along ``axis`` at ``input_indices`` (MindSpore's Gather)."""
    a = as_tensor_array(input_params)
    idx = as_tensor_array(input_indices)
    ax = check_axis(axis, a.ndim, "Gather")
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(
            f"For 'Gather', the 'input_indices' must be an int Tensor, but got {mstype.from_np(idx.dtype)}."
        )
    if batch_dims:
        fn = lambda p, i: jnp.take(p, i, axis=ax - batch_dims)  # noqa: E731
        for _ in builtins.range(batch_dims):
            fn = jax.vmap(fn)
        return wrap(fn(a, idx))
    return wrap(jnp.take(a, idx, axis=ax, mode="clip"))


def gather_elements(input: Any, dim: int, index: Any) -> Tensor:
    a = as_tensor_array(input)
    return wrap(jnp.take_along_axis(a, as_tensor_array(index), axis=dim))


def gather_d(x: Any, dim: int, index: Any) -> Tensor:
    return gather_elements(x, dim, index)


def gather_nd(input_x: Any, indices: Any) -> Tensor:
    a = as_tensor_array(input_x)
    idx = as_tensor_array(indices)
    return wrap(a[tuple(jnp.moveaxis(idx, -1, 0))])


def take(x: Any, indices: Any, axis: Any = None, mode: str = "clip") -> Tensor:
    return wrap(jnp.take(as_tensor_array(x), as_tensor_array(indices), axis=axis, mode=mode))


def index_select(input: Any, axis: int, index: Any) -> Tensor:
    return wrap(jnp.take(as_tensor_array(input), as_tensor_array(index), axis=axis))


def masked_fill(input_x: Any, mask: Any, value: Any) -> Tensor:
    a = as_tensor_array(input_x)
    return wrap(jnp.where(as_tensor_array(mask), jnp.asarray(arr(value), a.dtype), a))


def masked_select(input: Any, mask: Any) -> Tensor:
    a = as_tensor_array(input)
    m = _concrete(jnp.broadcast_to(as_tensor_array(mask), a.shape), "masked_select")
    return wrap(a[m])


def masked_scatter(input: Any, mask: Any, source: Any) -> Tensor:
    a = np.array(_concrete(as_tensor_array(input), "masked_scatter"))
    m = np.broadcast_to(_concrete(as_tensor_array(mask), "masked_scatter"), a.shape)
    a[m] = np.asarray(as_tensor_array(source)).reshape(-1)[: int(m.sum())]
    return wrap(jnp.asarray(a))


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """Elements of ``x`` where ``condition`` else ``y`` (numbers adapt to the tensor's dtype)."""
    cond = as_tensor_array(condition)
    if x is None and y is None:
        return nonzero(condition)
    from .._utils import promote

    a, b = promote(x, y)
    try:
        np.broadcast_shapes(tuple(cond.shape), tuple(a.shape), tuple(b.shape))
    except ValueError:
        raise ValueError(
            f"For 'select', the shapes of 'condition' {tuple(cond.shape)}, 'x' {tuple(a.shape)} and "
            f"'y' {tuple(b.shape)} must broadcast together."
        ) from None
    return wrap(jnp.where(cond, a, b))


def select(cond: Any, x: Any, y: Any) -> Tensor:
    return where(cond, x, y)


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


def range(start: Any, end: Any, step: Any) -> Tensor:
    return arange(start, end, step)


def linspace(start: Any, end: Any, steps: int) -> Tensor:
    s, e = arr(start), arr(end)
    return wrap(jnp.linspace(s, e, int(steps), dtype=jnp.float32))


def eye(n: int, m: int | None = None, dtype: Any = mstype.float32) -> Tensor:
    return wrap(jnp.eye(n, m, dtype=np_dtype(dtype)))


def stop_gradient(value: Any) -> Any:
    """Block gradients through ``value`` (a Tensor or a tuple/list of them)."""
    return jax.tree_util.tree_map(
        lambda t: wrap(lax.stop_gradient(arr(t))) if isinstance(t, Tensor) else t,
        value,
        is_leaf=lambda t: isinstance(t, Tensor),
    )


def depend(value: Any, expr: Any) -> Any:
    """Return ``value``; ``expr`` is evaluated first (ordering is implicit in sporax's programs)."""
    return value


def identity(input: Any) -> Any:
    return input


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


numel = size


def dtype(input_x: Any) -> mstype.Type:
    return mstype.from_np(as_tensor_array(input_x).dtype)


def is_tensor(obj: Any) -> bool:
    return isinstance(obj, Tensor)


# ----------------------------------------------------------------- indexing
def _index(index: Any) -> Any:
    if isinstance(index, Tensor):
        return index._data
    if isinstance(index, tuple):
        return tuple(_index(i) for i in index)
    if isinstance(index, list):
        return jnp.asarray(np.asarray([i.item() if isinstance(i, Tensor) else i for i in index]))
    return index


def _check_int_indices(index: Any, shape: tuple[int, ...], op: str) -> None:
    """JAX clamps out-of-range integer indices; MindSpore raises. Check the static ones."""
    items = index if isinstance(index, tuple) else (index,)
    consumed = builtins.sum(1 for i in items if i is not None and i is not Ellipsis and not isinstance(i, bool))
    dim = 0
    for i in items:
        if i is Ellipsis:
            dim += builtins.max(len(shape) - consumed, 0)
            continue
        if i is None or isinstance(i, bool):
            continue
        if isinstance(i, (int, np.integer)):
            if dim >= len(shape):
                raise IndexError(f"For '{op}', too many indices for a tensor of shape {shape}.")
            if not -shape[dim] <= i < shape[dim]:
                raise IndexError(
                    f"For '{op}', the index {int(i)} is out of bounds for dimension {dim} with size {shape[dim]}."
                )
        ai = arr(i)
        dim += ai.ndim if getattr(ai, "dtype", None) == np.bool_ else 1


def _basic_index_key(index: Any) -> tuple[Any, list[int]] | None:
    """For an index of ints, slices of ints, None and Ellipsis: (static structure, the ints). The ints
    stay dynamic, so ``x[i]`` in a loop compiles once; anything else returns None."""
    items = index if isinstance(index, tuple) else (index,)
    static: list[Any] = []
    ints: list[int] = []
    for i in items:
        if i is None or i is Ellipsis:
            static.append(i)
        elif isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_)):
            static.append("I")
            ints.append(int(i))
        elif isinstance(i, builtins.slice) and builtins.all(
            v is None or (isinstance(v, (int, np.integer)) and not isinstance(v, bool))
            for v in (i.start, i.stop, i.step)
        ):
            static.append(("S", i.start, i.stop, i.step))
        else:
            return None
    return (tuple(static), isinstance(index, tuple)), ints


def _basic_getitem(a: Any, ints: list[Any], key: Any) -> Any:
    static, was_tuple = key
    it = iter(ints)
    idx = tuple(
        next(it) if s == "I" else (builtins.slice(s[1], s[2], s[3]) if isinstance(s, tuple) else s) for s in static
    )
    return a[idx if was_tuple else idx[0]]


_basic_getitem_jit = jax.jit(_basic_getitem, static_argnums=2)


def tensor_getitem(x: Any, index: Any) -> Tensor:
    a = as_tensor_array(x)
    _check_int_indices(index, tuple(a.shape), "Tensor.__getitem__")
    basic = _basic_index_key(index)
    if basic is not None:
        key, ints = basic
        try:
            return wrap(_basic_getitem_jit(a, ints, key))
        except IndexError as err:
            raise IndexError(f"For 'Tensor.__getitem__', {err} (tensor shape {tuple(a.shape)}).") from None
    try:
        return wrap(a[_index(index)])
    except IndexError as err:
        raise IndexError(f"For 'Tensor.__getitem__', {err} (tensor shape {tuple(a.shape)}).") from None


def tensor_setitem(x: Any, index: Any, value: Any) -> Tensor:
    a = as_tensor_array(x)
    v = arr(value)
    v = jnp.asarray(v, a.dtype) if not hasattr(v, "dtype") or v.dtype != a.dtype else v
    _check_int_indices(index, tuple(a.shape), "Tensor.__setitem__")
    try:
        return wrap(a.at[_index(index)].set(v))
    except (IndexError, ValueError, TypeError) as err:
        raise type(err)(f"For 'Tensor.__setitem__', {err} (tensor shape {tuple(a.shape)}).") from None


def tensor_scatter_update(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """A copy of ``input_x`` with ``updates`` written at the N-d ``indices``."""
    a = as_tensor_array(input_x)
    return wrap(
        a.at[_scatter_nd_index(a, indices, "tensor_scatter_update")].set(as_tensor_array(updates).astype(a.dtype))
    )


def tensor_scatter_add(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """A copy of ``input_x`` with ``updates`` added at the N-d ``indices``."""
    a = as_tensor_array(input_x)
    return wrap(a.at[_scatter_nd_index(a, indices, "tensor_scatter_add")].add(as_tensor_array(updates).astype(a.dtype)))


def scatter_nd(indices: Any, updates: Any, shape: Any) -> Tensor:
    u = as_tensor_array(updates)
    z = jnp.zeros(_shape_arg(shape, "scatter_nd"), u.dtype)
    return wrap(z.at[_scatter_nd_index(z, indices, "scatter_nd")].add(u))


def scatter(input: Any, axis: int, index: Any, src: Any) -> Tensor:
    a = as_tensor_array(input)
    idx = as_tensor_array(index)
    s = jnp.broadcast_to(jnp.asarray(arr(src), a.dtype), idx.shape)
    grids = list(jnp.indices(idx.shape, sparse=True))
    grids[axis] = idx
    return wrap(a.at[tuple(grids)].set(s))


def nonzero(input: Any) -> Tensor:
    a = _concrete(as_tensor_array(input), "nonzero")
    return Tensor(np.stack(np.nonzero(a), axis=-1).astype(np.int64).reshape(-1, a.ndim))


def diag(input: Any) -> Tensor:
    return wrap(jnp.diag(as_tensor_array(input)))


def diagonal(input: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    return wrap(jnp.diagonal(as_tensor_array(input), offset, dim1, dim2))


def trace(input: Any) -> Tensor:
    return wrap(jnp.trace(as_tensor_array(input)))


def tril(input: Any, diagonal: int = 0) -> Tensor:
    return wrap(jnp.tril(as_tensor_array(input), diagonal))


def triu(input: Any, diagonal: int = 0) -> Tensor:
    return wrap(jnp.triu(as_tensor_array(input), diagonal))


def flip(input: Any, dims: Any) -> Tensor:
    return wrap(jnp.flip(as_tensor_array(input), dims))


reverse = flip


def roll(input: Any, shifts: Any, dims: Any = None) -> Tensor:
    return wrap(jnp.roll(as_tensor_array(input), shifts, dims))


def sort(input_x: Any, axis: int = -1, descending: bool = False) -> tuple[Tensor, Tensor]:
    a = as_tensor_array(input_x)
    idx = jnp.argsort(-a if descending else a, axis=axis, stable=True)
    return wrap(jnp.take_along_axis(a, idx, axis=axis)), wrap(idx.astype(jnp.int64))


def argsort(input: Any, axis: int = -1, descending: bool = False) -> Tensor:
    a = as_tensor_array(input)
    return wrap(jnp.argsort(-a if descending else a, axis=axis, stable=True).astype(jnp.int64))


def topk(input: Any, k: int, dim: Any = None, largest: bool = True, sorted: bool = True) -> tuple[Tensor, Tensor]:
    """The ``k`` largest (or smallest) entries along ``dim`` (last by default) and their indices."""
    a = as_tensor_array(input)
    ax = -1 if dim is None else int(dim)
    if not 0 < k <= a.shape[ax]:
        raise ValueError(f"For 'TopK', the 'k' must be in [1, {a.shape[ax]}], but got {k}.")
    moved = jnp.moveaxis(a, ax, -1)
    vals, idx = lax.top_k(moved if largest else -moved, k)
    if not largest:
        vals = -vals
    return wrap(jnp.moveaxis(vals, -1, ax)), wrap(jnp.moveaxis(idx, -1, ax).astype(jnp.int64))


def unique(input: Any) -> tuple[Tensor, Tensor]:
    a = _concrete(as_tensor_array(input), "unique")
    vals, inv = np.unique(a, return_inverse=True)
    return Tensor(vals), Tensor(inv.reshape(a.shape).astype(np.int64))


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
    return Tensor(to_array(list(input_x)))


def isin(elements: Any, test_elements: Any) -> Tensor:
    return wrap(jnp.isin(as_tensor_array(elements), as_tensor_array(test_elements)))


# ------------------------------------------------------------ state updates
def assign(variable: Any, value: Any) -> Any:
    """Write ``value`` into the Parameter ``variable`` (cast to its dtype) and return it."""
    from ...common.parameter import Parameter

    if not isinstance(variable, Parameter):
        raise TypeError(f"For 'Assign', the 'variable' must be a Parameter, but got {type(variable).__name__}.")
    v = as_tensor_array(value)
    if tuple(v.shape) != variable.shape:
        try:
            v = jnp.broadcast_to(v, variable.shape)
        except ValueError:
            raise ValueError(
                f"For 'Assign', the shape of 'value' must be {variable.shape}, but got {tuple(v.shape)}."
            ) from None
    cur = variable._raw  # the stored dtype, not a to_float cast of it
    variable._data = v.astype(cur.dtype) if v.dtype != cur.dtype else v
    return variable


def assign_add(variable: Any, value: Any) -> Any:
    """``variable += value`` for a Parameter."""
    return assign(variable, variable._data + jnp.asarray(as_tensor_array(value), variable._data.dtype))


def assign_sub(variable: Any, value: Any) -> Any:
    """``variable -= value`` for a Parameter."""
    return assign(variable, variable._data - jnp.asarray(as_tensor_array(value), variable._data.dtype))


__all__ += ["assign", "assign_add", "assign_sub"]


# ------------------------------------------------------- more shape / slicing
def _concrete(a: Any, op: str) -> np.ndarray:
    """The value of ``a`` for ops whose output shape depends on the data (eager only)."""
    if isinstance(a, jax.core.Tracer):
        raise RuntimeError(
            f"For '{op}', the output shape depends on the input values, so it cannot run inside jit or "
            "GRAPH_MODE. Call it in PYNATIVE_MODE, or use a fixed-size alternative (ops.where, masking)."
        )
    return np.asarray(a)


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


def argwhere(input: Any) -> Tensor:
    """Coordinates of the non-zero elements, shape ``(N, rank)``, Int64 (eager only)."""
    a = _concrete(as_tensor_array(input), "argwhere")
    return Tensor(np.argwhere(a).astype(np.int64))


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


def searchsorted(
    sorted_sequence: Any,
    values: Any,
    *,
    out_int32: bool = False,
    right: bool = False,
    side: Any = None,
    sorter: Any = None,
) -> Tensor:
    seq, v = as_tensor_array(sorted_sequence), as_tensor_array(values)
    side = side or ("right" if right else "left")
    if sorter is not None:
        seq = jnp.take_along_axis(seq, as_tensor_array(sorter), axis=-1)
    if side not in ("left", "right"):
        raise ValueError(f"For 'SearchSorted', the 'side' must be 'left' or 'right', but got '{side}'.")
    if seq.ndim > 1 and tuple(seq.shape[:-1]) != tuple(v.shape[:-1]):
        raise ValueError(
            f"For 'SearchSorted', the leading dimensions of 'sorted_sequence' {tuple(seq.shape)} and "
            f"'values' {tuple(v.shape)} must match."
        )
    if seq.ndim <= 1:
        out = jnp.searchsorted(seq, v, side=side)
    else:
        fn = lambda s, x: jnp.searchsorted(s, x, side=side)  # noqa: E731
        for _ in builtins.range(seq.ndim - 1):
            fn = jax.vmap(fn)
        out = fn(seq, v)
    return wrap(out.astype(jnp.int32 if out_int32 else jnp.int64))


def bincount(input: Any, weights: Any = None, minlength: int = 0) -> Tensor:
    """Counts of each value in the non-negative int ``input`` (eager only: the length depends on the data)."""
    a = _concrete(as_tensor_array(input), "bincount")
    w = None if weights is None else np.asarray(as_tensor_array(weights))
    out = np.bincount(a.reshape(-1), None if w is None else w.reshape(-1), minlength)
    return Tensor(out.astype(np.int64) if w is None else out.astype(w.dtype))


def matrix_band_part(x: Any, lower: Any, upper: Any) -> Tensor:
    """Keep the band of each matrix: ``lower`` sub-diagonals and ``upper`` super-diagonals (-1: all)."""
    a = as_tensor_array(x)
    m, n = a.shape[-2], a.shape[-1]
    i = jnp.arange(m)[:, None]
    j = jnp.arange(n)[None, :]
    lo, up = int(arr(lower)), int(arr(upper))
    keep = ((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))
    return wrap(jnp.where(keep, a, jnp.zeros((), a.dtype)))


def _segment(kernel: Any, name: str) -> Any:
    def op(input_x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
        a = as_tensor_array(input_x)
        ids = as_tensor_array(segment_ids)
        n = int(arr(num_segments))
        return wrap(kernel(a, ids.reshape(-1), n, a.reshape((-1,) + a.shape[ids.ndim :])))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``{name}(input_x, segment_ids, num_segments)``: reduce rows of ``input_x`` by segment id."
    return op


unsorted_segment_sum = _segment(lambda a, ids, n, flat: jax.ops.segment_sum(flat, ids, n), "unsorted_segment_sum")
unsorted_segment_max = _segment(lambda a, ids, n, flat: jax.ops.segment_max(flat, ids, n), "unsorted_segment_max")
unsorted_segment_min = _segment(lambda a, ids, n, flat: jax.ops.segment_min(flat, ids, n), "unsorted_segment_min")
unsorted_segment_prod = _segment(lambda a, ids, n, flat: jax.ops.segment_prod(flat, ids, n), "unsorted_segment_prod")


def _scatter_nd_index(a: Any, indices: Any, op: str) -> Any:
    idx = as_tensor_array(indices)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For '{op}', the 'indices' must be an int Tensor, but got {mstype.from_np(idx.dtype)}.")
    if idx.shape[-1] > a.ndim:
        raise ValueError(
            f"For '{op}', the last dimension of 'indices' ({idx.shape[-1]}) cannot exceed the rank of the input ({a.ndim})."
        )
    return tuple(jnp.moveaxis(idx, -1, 0))


def _tensor_scatter(method: str, name: str) -> Any:
    def op(input_x: Any, indices: Any, updates: Any) -> Tensor:
        a = as_tensor_array(input_x)
        ref = a.at[_scatter_nd_index(a, indices, name)]
        return wrap(getattr(ref, method)(as_tensor_array(updates).astype(a.dtype)))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Out-of-place ``{method}`` of ``updates`` into ``input_x`` at the N-d ``indices``."
    return op


tensor_scatter_sub = _tensor_scatter("subtract", "tensor_scatter_sub")
tensor_scatter_mul = _tensor_scatter("multiply", "tensor_scatter_mul")
tensor_scatter_div = _tensor_scatter("divide", "tensor_scatter_div")
tensor_scatter_max = _tensor_scatter("max", "tensor_scatter_max")
tensor_scatter_min = _tensor_scatter("min", "tensor_scatter_min")


def tensor_scatter_elements(input_x: Any, indices: Any, updates: Any, axis: int = 0, reduction: str = "none") -> Tensor:
    """Write (``reduction='none'``) or add (``'add'``) ``updates`` at ``indices`` along ``axis``."""
    a = as_tensor_array(input_x)
    idx = as_tensor_array(indices)
    ax = check_axis(axis, a.ndim, "TensorScatterElements")
    grids = list(jnp.indices(idx.shape, sparse=True))
    grids[ax] = idx
    ref = a.at[tuple(grids)]
    u = as_tensor_array(updates).astype(a.dtype)
    if reduction == "none":
        return wrap(ref.set(u))
    if reduction == "add":
        return wrap(ref.add(u))
    raise ValueError(f"For 'TensorScatterElements', the 'reduction' must be 'none' or 'add', but got '{reduction}'.")


def _param_update(name: str, compute: Any) -> Any:
    def op(input_x: Any, indices: Any, updates: Any, use_locking: bool = False) -> Any:
        a = as_tensor_array(input_x)
        new = compute(a, indices, as_tensor_array(updates).astype(a.dtype), name)
        return assign(input_x, wrap(new)) if _is_parameter(input_x) else wrap(new)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``{name}``: update the Parameter ``input_x`` in place (returns it)."
    return op


def _is_parameter(x: Any) -> bool:
    from ...common.parameter import Parameter

    return isinstance(x, Parameter)


scatter_nd_update = _param_update("scatter_nd_update", lambda a, i, u, n: a.at[_scatter_nd_index(a, i, n)].set(u))
scatter_nd_add = _param_update("scatter_nd_add", lambda a, i, u, n: a.at[_scatter_nd_index(a, i, n)].add(u))
scatter_nd_sub = _param_update("scatter_nd_sub", lambda a, i, u, n: a.at[_scatter_nd_index(a, i, n)].subtract(u))
scatter_update = _param_update("scatter_update", lambda a, i, u, n: a.at[as_tensor_array(i)].set(u))
scatter_add = _param_update("scatter_add", lambda a, i, u, n: a.at[as_tensor_array(i)].add(u))
scatter_sub = _param_update("scatter_sub", lambda a, i, u, n: a.at[as_tensor_array(i)].subtract(u))
scatter_max = _param_update("scatter_max", lambda a, i, u, n: a.at[as_tensor_array(i)].max(u))
scatter_min = _param_update("scatter_min", lambda a, i, u, n: a.at[as_tensor_array(i)].min(u))


def unique_consecutive(input: Any, return_idx: bool = False, return_counts: bool = False, axis: Any = None) -> Any:
    """Collapse runs of equal consecutive elements (eager only)."""
    a = _concrete(as_tensor_array(input), "unique_consecutive")
    flat = a.reshape(-1) if axis is None else np.moveaxis(a, axis, 0)
    if flat.shape[0] == 0:
        starts = np.zeros(0, bool)
    else:
        neq = np.any((flat[1:] != flat[:-1]).reshape(flat.shape[0] - 1, -1), axis=1)
        starts = np.concatenate([[True], neq])
    out = flat[starts] if axis is None else np.moveaxis(flat[starts], 0, axis)
    res: list[Any] = [Tensor(out)]
    if return_idx:
        res.append(Tensor((np.cumsum(starts) - 1).astype(np.int64).reshape(a.shape if axis is None else -1)))
    if return_counts:
        res.append(Tensor(np.diff(np.append(np.flatnonzero(starts), flat.shape[0])).astype(np.int64)))
    return res[0] if len(res) == 1 else tuple(res)


def padding(x: Any, pad_dim_size: int = 8) -> Tensor:
    """Pad the last dimension (of size 1) with zeros up to ``pad_dim_size`` (MindSpore's Padding)."""
    a = as_tensor_array(x)
    if a.ndim < 1 or a.shape[-1] != 1:
        raise ValueError(f"For 'Padding', the last dimension of 'x' must be 1, but got shape {tuple(a.shape)}.")
    pad = [(0, 0)] * (a.ndim - 1) + [(0, int(pad_dim_size) - 1)]
    return wrap(jnp.pad(a, pad))


__all__ += [
    "slice",
    "strided_slice",
    "argwhere",
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
    "searchsorted",
    "bincount",
    "matrix_band_part",
    "unsorted_segment_sum",
    "unsorted_segment_max",
    "unsorted_segment_min",
    "unsorted_segment_prod",
    "tensor_scatter_sub",
    "tensor_scatter_mul",
    "tensor_scatter_div",
    "tensor_scatter_max",
    "tensor_scatter_min",
    "tensor_scatter_elements",
    "scatter_nd_update",
    "scatter_nd_add",
    "scatter_nd_sub",
    "scatter_update",
    "scatter_add",
    "scatter_sub",
    "scatter_max",
    "scatter_min",
    "unique_consecutive",
]
