"""Indexing, gather and scatter ops (``mindspore.ops`` functional): ``gather``, ``gather_d``, ``gather_nd``,
``index_select``, ``masked_fill``, ``where``, the ``scatter*``/``tensor_scatter_*`` families, segment reductions,
``Tensor.__getitem__``/``__setitem__`` and the Parameter updates ``assign``/``assign_add``/``assign_sub``."""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ..._engine import jax, jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import arr, as_tensor_array, check_axis, wrap
from ._array_utils import _concrete, _shape_arg

__all__ = [
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
    "tensor_getitem",
    "tensor_setitem",
    "nonzero",
    "tensor_scatter_update",
    "tensor_scatter_add",
    "scatter_nd",
    "scatter",
    "masked_scatter",
    "assign",
    "assign_add",
    "assign_sub",
    "argwhere",
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
]


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


def argwhere(input: Any) -> Tensor:
    """Coordinates of the non-zero elements, shape ``(N, rank)``, Int64 (eager only)."""
    a = _concrete(as_tensor_array(input), "argwhere")
    return Tensor(np.argwhere(a).astype(np.int64))


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
