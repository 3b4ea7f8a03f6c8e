"""Indexing, gather and scatter ops (``mindspore.ops`` functional): ``gather``, ``gather_d``, ``gather_nd``,
``index_select``, ``masked_fill``, ``where``, the ``scatter*``/``tensor_scatter_*`` families, segment reductions,
``Tensor.__getitem__``/``__setitem__`` and the Parameter updates ``assign``/``assign_add``/``assign_sub``."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jax, jnp
from ..._engine._checks import check_nd_in_range
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import arr, as_tensor_array, check_axis, wrap
from . import segment_func
from ._array_utils import IndexOutOfRangeError, _concrete, _shape_arg, _verify_index_range
from .segment_func import *  # noqa: F403

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
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
        "scatter_mul",
        "scatter_div",
        "scatter_nd_mul",
        "scatter_nd_div",
        "scatter_nd_max",
        "scatter_nd_min",
        "index_fill",
        "put_",
        "select_scatter",
        "slice_scatter",
        "diagonal_scatter",
    ]
    __all__ += segment_func.__all__


# Pre-compiled kernels (static configuration as static arguments): eagerly one dispatch each instead of
# one per jnp call; inside a trace they are inlined. Out-of-range indices give zeros (gathers) or are
# dropped (scatters) there, as MindSpore on GPU; eager calls check them first.
def _take_fill(a: Any, i: Any, axis: int) -> Any:
    return jnp.take(a, i, axis=axis, mode="fill", fill_value=0)


def _take_along_fill(a: Any, i: Any, axis: int) -> Any:
    return jnp.take_along_axis(a, i, axis=axis, mode="fill", fill_value=0)


def _nd_apply(a: Any, idx: Any, u: Any, method: str) -> Any:
    ref = a.at[tuple(jnp.moveaxis(idx, -1, 0))]
    if method == "get":
        return ref.get(mode="fill", fill_value=0)
    return getattr(ref, method)(u.astype(a.dtype))


def _rows_apply(a: Any, idx: Any, u: Any, method: str) -> Any:
    return getattr(a.at[idx], method)(u.astype(a.dtype))


_take_k = jax.jit(_take_fill, static_argnums=2)
_take_along_k = jax.jit(_take_along_fill, static_argnums=2)
_nd_k = jax.jit(_nd_apply, static_argnums=3)
_rows_k = jax.jit(_rows_apply, static_argnums=3)


def gather(input_params: Any, input_indices: Any, axis: int, batch_dims: int = 0) -> Tensor:
    """Take slices along ``axis`` at ``input_indices`` (MindSpore's Gather).

    Negative indices count from the end. Eagerly an index outside ``[-n, n)`` raises MindSpore's error;
    inside a compiled program the same error is raised after the program ran (with the checks switched off,
    ``SPORAX_INDEX_CHECKS=0``, it gives zeros, as MindSpore on GPU).
    """
    a = as_tensor_array(input_params)
    idx = as_tensor_array(input_indices)
    ax = check_axis(axis, a.ndim, "Gather")
    if idx.dtype.kind not in "iu":  # (jnp.issubdtype costs a microsecond per call)
        raise TypeError(
            f"For 'Gather', the 'input_indices' must be an int Tensor, but got {mstype.from_np(idx.dtype)}."
        )
    n = a.shape[ax]
    _verify_index_range(
        idx, -n, n, lambda b: f"For 'Gather', the 'input_indices' should be in the range [0, {n}), but got {b}."
    )
    if batch_dims:
        fn = lambda p, i: jnp.take(p, i, axis=ax - batch_dims, mode="fill", fill_value=0)  # noqa: E731
        for _ in builtins.range(batch_dims):
            fn = jax.vmap(fn)
        return wrap(fn(a, idx))
    return wrap(_take_k(a, idx, ax))


def gather_elements(input: Any, dim: int, index: Any) -> Tensor:
    """``out[i][j] = input[i][index[i][j]]`` along ``dim`` (MindSpore's GatherD); negative indices count
    from the end."""
    a = as_tensor_array(input)
    idx = as_tensor_array(index)
    ax = check_axis(dim, a.ndim, "GatherD", "dim")
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For 'GatherD', the 'index' must be an int Tensor, but got {mstype.from_np(idx.dtype)}.")
    if idx.ndim != a.ndim:
        raise ValueError(f"For primitive[GatherD], the x_rank must be equal to {idx.ndim}, but got {a.ndim}.")
    n = a.shape[ax]
    _verify_index_range(
        idx, -n, n, lambda b: f"For 'GatherD', the value of 'index' must be in [{-n}, {n}), but got: {b}"
    )
    return wrap(_take_along_k(a, idx, ax))


def gather_d(x: Any, dim: int, index: Any) -> Tensor:
    return gather_elements(x, dim, index)


def gather_nd(input_x: Any, indices: Any) -> Tensor:
    """Gather slices of ``input_x`` at the N-d ``indices`` (last axis: coordinates)."""
    a = as_tensor_array(input_x)
    idx = as_tensor_array(indices)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For 'GatherNd', the 'indices' must be an int Tensor, but got {mstype.from_np(idx.dtype)}.")
    if idx.ndim == 0 or idx.shape[-1] > a.ndim:
        raise ValueError(
            f"For 'GatherNd', the last dimension of 'indices' must be at most the rank of 'input_x' ({a.ndim}), "
            f"but got indices shape {tuple(idx.shape)}."
        )
    _verify_nd_indices(idx, tuple(a.shape), "GatherNd")
    return wrap(_nd_k(a, idx, None, "get"))


def take(input: Any, index: Any) -> Tensor:
    """Elements of the flattened ``input`` at ``index`` (``index``'s shape); negative indices count from the end."""
    a = as_tensor_array(input).reshape(-1)
    idx = as_tensor_array(index)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For 'Take', the 'index' must be an int Tensor, but got {mstype.from_np(idx.dtype)}.")
    n = a.shape[0]
    _verify_index_range(idx, -n, n, lambda b: f"For 'Take', the 'index' must be in range [{-n}, {n}), but got {b}.")
    return wrap(_take_k(a, idx, None))


def index_select(input: Any, axis: int, index: Any) -> Tensor:
    """Slices of ``input`` along ``axis`` at the 1-D ``index``."""
    idx = as_tensor_array(index)
    if idx.ndim > 1:
        raise ValueError(f"For 'index_select', the dimension of `index` must be 1, but got {idx.ndim}")
    return gather(input, idx, axis)


def _masked_fill_apply(a: Any, mask: Any, value: Any) -> Any:
    return jnp.where(mask, value.astype(a.dtype), a)


_masked_fill_k = jax.jit(_masked_fill_apply)


def masked_fill(input_x: Any, mask: Any, value: Any) -> Tensor:
    """``input_x`` with ``value`` (a number or 0-d Tensor, cast to ``input_x``'s dtype) where ``mask`` is True."""
    a = as_tensor_array(input_x)
    v = arr(value)
    v = v if hasattr(v, "dtype") else np.asarray(v, a.dtype)
    return wrap(_masked_fill_k(a, as_tensor_array(mask), v))


def masked_select(input: Any, mask: Any) -> Tensor:
    a = as_tensor_array(input)
    m = _concrete(jnp.broadcast_to(as_tensor_array(mask), a.shape), "masked_select")
    return wrap(a[m])


def masked_scatter(input: Any, mask: Any, source: Any) -> Tensor:
    a = np.array(_concrete(as_tensor_array(input), "masked_scatter"))
    m = np.broadcast_to(_concrete(as_tensor_array(mask), "masked_scatter"), a.shape)
    a[m] = np.asarray(as_tensor_array(source)).reshape(-1)[: int(m.sum())]
    return wrap(jnp.asarray(a))


def where(condition: Any, input: Any, other: Any) -> Any:
    """Elements of ``input`` where ``condition`` else ``other`` (numbers adapt to the tensor's dtype)."""
    cond = as_tensor_array(condition)
    from .._utils import promote

    a, b = promote(input, other)
    try:
        np.broadcast_shapes(tuple(cond.shape), tuple(a.shape), tuple(b.shape))
    except ValueError:
        raise ValueError(
            f"For 'select', the shapes of 'condition' {tuple(cond.shape)}, 'x' {tuple(a.shape)} and "
            f"'y' {tuple(b.shape)} must broadcast together."
        ) from None
    return wrap(jnp.where(cond, a, b))


def select(condition: Any, input: Any, other: Any) -> Tensor:
    """``input`` where ``condition`` is True, else ``other`` (either may be a number)."""
    return where(condition, input, other)


# ----------------------------------------------------------------- indexing
def _index(index: Any) -> Any:
    if isinstance(index, Tensor):
        return index._data
    if isinstance(index, tuple):
        return tuple(_index(i) for i in index)
    if isinstance(index, list):
        return jnp.asarray(np.asarray([i.item() if isinstance(i, Tensor) else i for i in index]))
    return index


def _verify_static_indices(index: Any, shape: tuple[int, ...], op: str) -> None:
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
        elif dim < len(shape) and isinstance(i, (Tensor, list, np.ndarray)):
            ia = arr(i) if isinstance(i, Tensor) else np.asarray(i)
            if getattr(ia, "dtype", None) is not None and np.issubdtype(ia.dtype, np.integer):
                n = shape[dim]
                _verify_index_range(
                    ia,
                    -n,
                    n,
                    lambda b, d=dim, n=n: (
                        f"For '{op}', the index {b} is out of bounds for dimension {d} with size {n}."
                    ),
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
    basic = _basic_index_key(index)
    if basic is None or basic[1]:  # (slices, None and Ellipsis alone cannot leave the shape: nothing to check)
        _verify_static_indices(index, tuple(a.shape), "Tensor.__getitem__")
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
    _verify_static_indices(index, tuple(a.shape), "Tensor.__setitem__")
    try:
        return wrap(a.at[_index(index)].set(v))
    except (IndexError, ValueError, TypeError) as err:
        raise type(err)(f"For 'Tensor.__setitem__', {err} (tensor shape {tuple(a.shape)}).") from None


def tensor_scatter_update(*args: Any) -> Tensor:
    """``tensor_scatter_update(input_x, indices, updates)``: a copy of ``input_x`` with ``updates`` written at
    the N-d ``indices`` (positional arguments only, as MindSpore's primitive instance of this name)."""
    return _tensor_scatter_update(*args)


def _tensor_scatter_update(input_x: Any, indices: Any, updates: Any) -> Tensor:
    a = as_tensor_array(input_x)
    idx = _scatter_nd_index(a, indices, "tensor_scatter_update", "TensorScatterUpdate")
    return wrap(_nd_k(a, idx, as_tensor_array(updates), "set"))


def tensor_scatter_add(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """A copy of ``input_x`` with ``updates`` added at the N-d ``indices``."""
    a = as_tensor_array(input_x)
    idx = _scatter_nd_index(a, indices, "tensor_scatter_add", "TensorScatterAdd")
    return wrap(_nd_k(a, idx, as_tensor_array(updates), "add"))


def scatter_nd(indices: Any, updates: Any, shape: Any) -> Tensor:
    """Zeros of ``shape`` with ``updates`` added at the N-d ``indices`` (repeated indices accumulate)."""
    u = as_tensor_array(updates)
    z = jnp.zeros(_shape_arg(shape, "scatter_nd"), u.dtype)
    return wrap(_nd_k(z, _scatter_nd_index(z, indices, "scatter_nd", "ScatterNd"), u, "add"))


def scatter(input: Any, axis: int, index: Any, src: Any) -> Tensor:
    """A copy of ``input`` with ``src`` written along ``axis`` at ``index`` (``src`` may be a number)."""
    a = as_tensor_array(input)
    idx = as_tensor_array(index)
    ax = check_axis(axis, a.ndim, "TensorScatterElements")
    s = jnp.broadcast_to(jnp.asarray(arr(src), a.dtype), idx.shape) if not isinstance(src, Tensor) else None
    if s is None:
        s = as_tensor_array(src).astype(a.dtype)
        s = s[tuple(builtins.slice(0, d) for d in idx.shape)]
    return wrap(a.at[_elements_grid(a, idx, ax, "TensorScatterElements")].set(s))


def nonzero(input: Any, *, as_tuple: bool = False) -> Any:
    """Coordinates of the non-zero elements: one ``(N, rank)`` Int64 Tensor, or with ``as_tuple`` one
    ``(N,)`` Tensor per dimension (eager only: the length depends on the data)."""
    a = _concrete(as_tensor_array(input), "nonzero")
    if as_tuple:
        if a.ndim == 0:
            return (Tensor(np.nonzero(a.reshape(1))[0].astype(np.int64)),)
        return tuple(Tensor(c.astype(np.int64)) for c in np.nonzero(a))
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


def _scatter_nd_index(a: Any, indices: Any, op: str, prim: str | None = None) -> Any:
    idx = as_tensor_array(indices)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For '{op}', the 'indices' must be an int Tensor, but got {mstype.from_np(idx.dtype)}.")
    if idx.ndim == 0 or idx.shape[-1] > a.ndim:
        raise ValueError(
            f"For {prim or op}, the last dimension of 'indices' must be less than or equal to the dimension of "
            f"'input_x', but got the last dimension of 'indices': {idx.shape[-1] if idx.ndim else 0} and the "
            f"dimension of 'input_x': {a.ndim}"
        )
    _verify_nd_indices(idx, tuple(a.shape), prim or op)
    return idx


def _tensor_scatter(method: str, name: str) -> Any:
    prim = "".join(w.capitalize() for w in name.split("_"))

    def op(input_x: Any, indices: Any, updates: Any) -> Tensor:
        a = as_tensor_array(input_x)
        idx = _scatter_nd_index(a, indices, name, prim)
        return wrap(_nd_k(a, idx, as_tensor_array(updates), method))

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
    ref = a.at[_elements_grid(a, idx, ax, "TensorScatterElements")]
    u = as_tensor_array(updates).astype(a.dtype)
    if reduction == "none":
        return wrap(ref.set(u))
    if reduction == "add":
        return wrap(ref.add(u))
    raise ValueError(f"For 'TensorScatterElements', the 'reduction' must be 'none' or 'add', but got '{reduction}'.")


def _param_update(name: str, compute: Any, locking: bool) -> Any:
    prim = "".join(w.capitalize() for w in name.split("_"))

    def update(input_x: Any, indices: Any, updates: Any) -> Any:
        a = as_tensor_array(input_x)
        new = compute(a, indices, as_tensor_array(updates).astype(a.dtype), prim)
        return assign(input_x, wrap(new)) if _is_parameter(input_x) else wrap(new)

    if locking:

        def op(input_x: Any, indices: Any, updates: Any, use_locking: bool = False) -> Any:
            return update(input_x, indices, updates)

    else:

        def op(input_x: Any, indices: Any, updates: Any) -> Any:  # type: ignore[misc]
            return update(input_x, indices, updates)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (
        f"``{name}``: update the Parameter ``input_x`` in place at ``indices`` and return it (a Tensor "
        "``input_x`` gives a new Tensor). Eagerly an index out of range raises MindSpore's error."
    )
    return op


def _is_parameter(x: Any) -> bool:
    from ...common.parameter import Parameter

    return isinstance(x, Parameter)


def _nd(method: str) -> Any:
    return lambda a, i, u, p: _nd_k(a, _scatter_nd_index(a, i, p, p), u, method)


def _row(method: str) -> Any:
    return lambda a, i, u, p: _rows_k(a, _rows(a, i, p), u, method)


_scatter_nd_update = _param_update("scatter_nd_update", _nd("set"), True)
scatter_nd_add = _param_update("scatter_nd_add", _nd("add"), True)
scatter_nd_sub = _param_update("scatter_nd_sub", _nd("subtract"), True)
scatter_update = _param_update("scatter_update", _row("set"), False)
scatter_add = _param_update("scatter_add", _row("add"), False)
scatter_sub = _param_update("scatter_sub", _row("subtract"), False)
scatter_max = _param_update("scatter_max", _row("max"), False)
scatter_min = _param_update("scatter_min", _row("min"), False)
scatter_nd_mul = _param_update("scatter_nd_mul", _nd("multiply"), True)
scatter_nd_div = _param_update("scatter_nd_div", _nd("divide"), True)
scatter_nd_max = _param_update("scatter_nd_max", _nd("max"), True)
scatter_nd_min = _param_update("scatter_nd_min", _nd("min"), True)
scatter_mul = _param_update("scatter_mul", _row("multiply"), False)
scatter_div = _param_update("scatter_div", _row("divide"), False)


def _verify_nd_indices(idx: Any, shape: tuple[int, ...], op: str) -> None:
    """Every row ``idx[..., :]`` must index into ``shape`` (eagerly; MindSpore's error names the row)."""
    if isinstance(idx, jax.core.Tracer):
        check_nd_in_range(
            idx, shape, lambda i: f"For '{op}', the indices[{i}] does not index into input_shape: {list(shape)}."
        )
        return
    if idx.size == 0:
        return
    v = np.asarray(idx).reshape(-1, idx.shape[-1])
    bound = np.asarray(shape[: v.shape[1]])
    bad = np.nonzero(((v < 0) | (v >= bound)).any(axis=1))[0]
    if bad.size:
        i = int(bad[0])
        raise IndexOutOfRangeError(
            f"For '{op}', the indices[{i}]: {v[i].tolist()}, does not index into input_shape: {list(shape)}."
        )


def _elements_grid(a: Any, idx: Any, ax: int, prim: str) -> tuple[Any, ...]:
    """Index arrays writing ``idx`` along ``ax`` (and the element's own position elsewhere)."""
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For '{prim}', the 'indices' must be an int Tensor, but got {mstype.from_np(idx.dtype)}.")
    n = a.shape[ax]
    _verify_index_range(idx, -n, n, lambda b: f"For '{prim}', the 'indices' must be in range [{-n}, {n}), but got {b}.")
    grids = list(jnp.indices(idx.shape, sparse=True))
    grids[ax] = jnp.where(idx < 0, idx + n, idx)
    return tuple(grids)


def _rows(a: Any, indices: Any, prim: str) -> Any:
    """The 1-D-or-more ``indices`` into the first axis of ``a`` (ScatterUpdate & co.)."""
    idx = as_tensor_array(indices)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For '{prim}', the 'indices' must be an int Tensor, but got {mstype.from_np(idx.dtype)}.")
    n = a.shape[0]
    _verify_index_range(
        idx, 0, n, lambda b: f"For '{prim}', the value of indices should be in [0, {n}), but got '{b}' in indices."
    )
    return idx


def index_fill(x: Any, axis: Any, index: Any, value: Any) -> Tensor:
    """A copy of ``x`` with the slices at ``index`` along ``axis`` set to ``value`` (a number or 0-d Tensor)."""
    a = as_tensor_array(x)
    ax = check_axis(int(arr(axis)) if isinstance(axis, Tensor) else axis, a.ndim, "IndexFill")
    idx = as_tensor_array(index)
    if not jnp.issubdtype(idx.dtype, jnp.integer) or idx.ndim > 1:
        raise TypeError(
            f"For 'IndexFill', the 'index' must be a 0-D or 1-D int Tensor, but got {mstype.from_np(idx.dtype)} "
            f"of rank {idx.ndim}."
        )
    v = as_tensor_array(value)
    if v.ndim != 0:
        raise ValueError(f"For 'IndexFill', the 'value' must be a number or a 0-D Tensor, but got rank {v.ndim}.")
    n = a.shape[ax] if a.ndim else 1
    _verify_index_range(
        idx,
        -n,
        n,
        lambda b: (
            f"For 'IndexFill', the input of 'index' out of range (expected to be in range of [{-n}, {n - 1}], "
            f"but got {b})"
        ),
    )
    sel = (slice(None),) * ax + (idx.reshape(-1),)
    return wrap(a.at[sel].set(v.astype(a.dtype)))


def index_fill_(input: Any, dim: Any, index: Any, value: Any) -> Any:
    """In-place :func:`index_fill` of a Tensor or Parameter (returns it)."""
    return _write_back(input, index_fill(input, dim, index, value))


def _write_back(target: Any, result: Tensor) -> Any:
    """Store ``result`` into ``target`` (a Parameter through its state frame, a Tensor in place)."""
    if _is_parameter(target):
        return assign(target, result)
    if isinstance(target, Tensor):
        target._data = as_tensor_array(result).astype(as_tensor_array(target).dtype)
        return target
    raise TypeError(f"In-place ops need a Tensor or Parameter, but got {type(target).__name__}.")


def index_put(input: Any, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``values`` written (or with ``accumulate`` added) at the tuple of index
    Tensors ``indices`` (``input[indices] = values``)."""
    a = as_tensor_array(input)
    idx = tuple(as_tensor_array(i) for i in indices)
    if len(idx) > a.ndim:
        raise ValueError(
            f"For 'IndexPut', the number of index Tensors ({len(idx)}) cannot exceed the rank of 'x' ({a.ndim})."
        )
    for d, i in enumerate(idx):
        if not (jnp.issubdtype(i.dtype, jnp.integer) or i.dtype == jnp.bool_):
            raise TypeError(
                f"For 'IndexPut', the indices must be int or bool Tensors, but got {mstype.from_np(i.dtype)}."
            )
        if i.dtype != jnp.bool_:
            n = a.shape[d]
            _verify_index_range(
                i,
                -n,
                n,
                lambda b, d=d, n=n: f"For 'IndexPut', the index {b} is out of bounds for dimension {d} with size {n}.",
            )
    v = as_tensor_array(values).astype(a.dtype)
    ref = a.at[tuple(_concrete(i, "IndexPut") if i.dtype == jnp.bool_ else i for i in idx)]
    return wrap(ref.add(v) if accumulate else ref.set(v))


def put_(input: Any, index: Any, source: Any, accumulate: bool = False) -> Any:
    """Write (or with ``accumulate`` add) ``source`` into the flattened ``input`` at ``index``, in place."""
    a = as_tensor_array(input)
    idx = as_tensor_array(index).reshape(-1)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For 'put_', the 'index' must be an int Tensor, but got {mstype.from_np(idx.dtype)}.")
    n = a.size
    _verify_index_range(idx, -n, n, lambda b: f"For 'put_', the 'index' must be in range [{-n}, {n}), but got {b}.")
    src = as_tensor_array(source).reshape(-1).astype(a.dtype)
    if src.shape[0] != idx.shape[0]:
        raise ValueError(
            f"For 'put_', 'source' must have as many elements as 'index' ({idx.shape[0]}), but got {src.shape[0]}."
        )
    flat = a.reshape(-1).at[idx]
    new = (flat.add(src) if accumulate else flat.set(src)).reshape(a.shape)
    return _write_back(input, wrap(new))


def select_scatter(input: Any, src: Any, axis: int, index: int) -> Tensor:
    """A copy of ``input`` with ``src`` embedded at position ``index`` of ``axis`` (``input.select(axis, index)``)."""
    a = as_tensor_array(input)
    ax = check_axis(axis, a.ndim, "select_scatter")
    n = a.shape[ax]
    if not -n <= index < n:
        raise IndexOutOfRangeError(f"For 'select_scatter', the 'index' must be in range [{-n}, {n}), but got {index}.")
    s = as_tensor_array(src)
    want = a.shape[:ax] + a.shape[ax + 1 :]
    if tuple(s.shape) != tuple(want):
        raise ValueError(f"For 'select_scatter', the 'src' shape must be {want}, but got {tuple(s.shape)}.")
    return wrap(a.at[(slice(None),) * ax + (index,)].set(s.astype(a.dtype)))


def slice_scatter(input: Any, src: Any, axis: int = 0, start: Any = None, end: Any = None, step: int = 1) -> Tensor:
    """A copy of ``input`` with ``src`` embedded at ``input[..., start:end:step, ...]`` on ``axis``."""
    a = as_tensor_array(input)
    ax = check_axis(axis, a.ndim, "slice_scatter")
    sl = builtins.slice(start, end, step)
    s = as_tensor_array(src)
    want = a[(slice(None),) * ax + (sl,)].shape
    if tuple(s.shape) != tuple(want):
        raise ValueError(f"For 'slice_scatter', the 'src' shape must be {tuple(want)}, but got {tuple(s.shape)}.")
    return wrap(a.at[(slice(None),) * ax + (sl,)].set(s.astype(a.dtype)))


def diagonal_scatter(input: Any, src: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A copy of ``input`` with ``src`` written on the ``offset`` diagonal of dims ``dim1``/``dim2``."""
    a = as_tensor_array(input)
    d1 = check_axis(dim1, a.ndim, "diagonal_scatter", "dim1")
    d2 = check_axis(dim2, a.ndim, "diagonal_scatter", "dim2")
    if d1 == d2:
        raise ValueError("For 'diagonal_scatter', 'dim1' and 'dim2' cannot be the same dimension.")
    s = as_tensor_array(src)
    want = jnp.diagonal(a, offset, d1, d2).shape
    if tuple(s.shape) != tuple(want):
        raise ValueError(f"For 'diagonal_scatter', the 'src' shape must be {tuple(want)}, but got {tuple(s.shape)}.")
    m = jnp.moveaxis(a, (d1, d2), (-2, -1))
    k = s.shape[-1]
    i = jnp.arange(k) + builtins.max(-offset, 0)
    j = jnp.arange(k) + builtins.max(offset, 0)
    m = m.at[..., i, j].set(s.astype(a.dtype))
    return wrap(jnp.moveaxis(m, (-2, -1), (d1, d2)))


def unravel_index(indices: Any, dims: Any) -> Tensor:
    """The coordinates of the flat ``indices`` in an array of shape ``dims``: shape ``(len(dims),) + indices.shape``."""
    idx = as_tensor_array(indices)
    d = as_tensor_array(dims)
    shape = tuple(int(v) for v in _concrete(d, "UnravelIndex").reshape(-1))
    total = int(np.prod(shape)) if shape else 1
    _verify_index_range(
        idx, 0, total, lambda b: f"For 'UnravelIndex', the 'indices' must be in [0, {total}), but got {b}."
    )
    return wrap(jnp.stack(jnp.unravel_index(idx, shape)).astype(idx.dtype))


def scatter_add_with_axis(input_x: Any, indices: Any, updates: Any, axis: int = 0) -> Any:
    """Add ``updates`` into ``input_x`` along ``axis`` at ``indices`` (a Parameter is updated in place)."""
    out = tensor_scatter_elements(input_x, indices, updates, axis, "add")
    return assign(input_x, out) if _is_parameter(input_x) else out


def sparse_gather_v2(input_params: Any, input_indices: Any, axis: int) -> Tensor:
    """MindSpore's SparseGatherV2: :func:`gather` (the gradient is dense in sporax)."""
    return gather(input_params, input_indices, axis)


def embedding_lookup(input_params: Any, input_indices: Any, offset: int) -> Tensor:
    """Rows ``input_indices - offset`` of ``input_params``; indices outside the table give zero rows."""
    a = as_tensor_array(input_params)
    idx = as_tensor_array(input_indices) - int(offset)
    valid = (idx >= 0) & (idx < a.shape[0])
    rows = jnp.take(a, jnp.where(valid, idx, 0), axis=0)
    return wrap(jnp.where(valid.reshape(valid.shape + (1,) * (a.ndim - 1)), rows, jnp.zeros((), a.dtype)))


def tensor_take(x: Any, indices: Any, axis: Any = None, mode: str = "clip") -> Tensor:
    """``Tensor.take``: NumPy's ``take`` (``mode`` ``'raise'``, ``'wrap'`` or ``'clip'``)."""
    validator.check_choice(mode, ("raise", "wrap", "clip"), "mode", "Tensor.take")
    a = as_tensor_array(x)
    idx = as_tensor_array(indices)
    if mode == "raise":
        n = a.size if axis is None else a.shape[check_axis(axis, a.ndim, "Tensor.take")]
        _verify_index_range(idx, -n, n, lambda b: f"For 'Tensor.take', the index {b} is out of range for size {n}.")
        mode = "fill"
    return wrap(jnp.take(a, idx, axis=axis, mode=mode))


def scatter_nd_update(*args: Any) -> Any:
    """``scatter_nd_update(input_x, indices, updates)``: write ``updates`` into the Parameter ``input_x`` at the
    N-d ``indices`` in place and return it (positional arguments only, as MindSpore's primitive instance)."""
    return _scatter_nd_update(*args)
