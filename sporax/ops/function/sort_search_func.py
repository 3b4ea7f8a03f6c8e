"""Sorting and searching ops (``mindspore.ops`` functional): ``sort``, ``argsort``, ``topk``, ``unique``,
``unique_consecutive``, ``searchsorted``, ``bincount``, ``isin``."""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jax, jnp, lax
from ...common.tensor import Tensor
from .._utils import arr, as_tensor_array, check_axis, np_dtype, wrap
from ._array_utils import _concrete

__all__ = [
    "sort",
    "argsort",
    "topk",
    "unique",
    "isin",
    "searchsorted",
    "bincount",
    "unique_consecutive",
    "top_k",
    "aminmax",
    "unique_with_pad",
]


def _sort_apply(a: Any, axis: int, descending: bool) -> Any:
    idx = jnp.argsort(a, axis=axis, stable=True, descending=descending)
    return jnp.take_along_axis(a, idx, axis=axis), idx.astype(jnp.int32)


def _topk_apply(a: Any, k: int, axis: int, largest: bool) -> Any:
    moved = jnp.moveaxis(a, axis, -1)
    if largest:
        vals, idx = lax.top_k(moved, k)
    else:
        idx = jnp.argsort(moved, axis=-1, stable=True)[..., :k]
        vals = jnp.take_along_axis(moved, idx, axis=-1)
    return jnp.moveaxis(vals, -1, axis), jnp.moveaxis(idx, -1, axis).astype(jnp.int32)


_sort_k = jax.jit(_sort_apply, static_argnums=(1, 2))
_topk_k = jax.jit(_topk_apply, static_argnums=(1, 2, 3))


def sort(input_x: Any, axis: int = -1, descending: bool = False) -> tuple[Tensor, Tensor]:
    """The values sorted along ``axis`` (stable) and their original indices (Int32, as MindSpore's)."""
    a = as_tensor_array(input_x)
    ax = check_axis(axis, a.ndim, "Sort")
    vals, idx = _sort_k(a, ax, bool(descending))
    return wrap(vals), wrap(idx)


def argsort(input: Any, axis: int = -1, descending: bool = False) -> Tensor:
    """The indices (Int32) that sort ``input`` along ``axis`` (stable)."""
    a = as_tensor_array(input)
    ax = check_axis(axis, a.ndim, "Sort")
    return wrap(_sort_k(a, ax, bool(descending))[1])


def topk(input: Any, k: int, dim: Any = None, largest: bool = True, sorted: bool = True) -> tuple[Tensor, Tensor]:
    """The ``k`` largest (or smallest) entries along ``dim`` (last by default) and their indices (Int32)."""
    a = as_tensor_array(input)
    ax = check_axis(-1 if dim is None else int(dim), a.ndim, "TopK", "dim")
    n = a.shape[ax] if a.ndim else 1
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 < k <= n:
        raise ValueError(f"For 'TopK', the 'k' must be in [1, {n}], but got {k}.")
    vals, idx = _topk_k(a, int(k), ax, bool(largest))
    return wrap(vals), wrap(idx)


def unique(input: Any) -> tuple[Tensor, Tensor]:
    """The distinct values of ``input`` in order of first appearance, and for each element the position of its
    value (Int64 for an Int64 input, else Int32, as MindSpore's) (eager only)."""
    a = _concrete(as_tensor_array(input), "unique")
    flat = a.reshape(-1)
    vals, first, inv = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    idt = np.int64 if a.dtype == np.int64 else np.int32
    return Tensor(vals[order]), Tensor(rank[inv.reshape(-1)].reshape(a.shape).astype(idt))


def isin(elements: Any, test_elements: Any) -> Tensor:
    return wrap(jnp.isin(as_tensor_array(elements), as_tensor_array(test_elements)))


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
    validator.check_choice(side, ("left", "right"), "side", "SearchSorted")
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
    return Tensor(out.astype(np.float32) if w is None else out.astype(w.dtype))  # MindSpore counts in Float32


def unique_consecutive(input: Any, return_inverse: bool = False, return_counts: bool = False, dim: Any = None) -> Any:
    """Collapse runs of equal consecutive elements (along ``dim``, or of the flattened input) (eager only).

    Returns:
        The values, then with ``return_inverse`` the run number of each element and with ``return_counts``
        the length of each run (both Int64).
    """
    a = _concrete(as_tensor_array(input), "unique_consecutive")
    if dim is not None:
        dim = check_axis(dim, a.ndim, "unique_consecutive", "dim")
    flat = a.reshape(-1) if dim is None else np.moveaxis(a, dim, 0)
    if flat.shape[0] == 0:
        starts = np.zeros(0, bool)
    else:
        neq = np.any((flat[1:] != flat[:-1]).reshape(flat.shape[0] - 1, -1), axis=1)
        starts = np.concatenate([[True], neq])
    out = flat[starts] if dim is None else np.moveaxis(flat[starts], 0, dim)
    res: list[Any] = [Tensor(out)]
    if return_inverse:
        res.append(Tensor((np.cumsum(starts) - 1).astype(np.int64).reshape(a.shape if dim is None else -1)))
    if return_counts:
        res.append(Tensor(np.diff(np.append(np.flatnonzero(starts), flat.shape[0])).astype(np.int64)))
    return res[0] if len(res) == 1 else tuple(res)


def top_k(input_x: Any, k: int, sorted: bool = True) -> tuple[Tensor, Tensor]:
    """The ``k`` largest entries along the last axis and their indices (Int32), as MindSpore's TopK."""
    values, idx = topk(input_x, k, None, True, sorted)
    return values, wrap(as_tensor_array(idx).astype(jnp.int32))


def aminmax(input: Any, *, axis: int = 0, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """The minimum and the maximum along ``axis`` (``axis=None``: over all elements)."""
    a = as_tensor_array(input)
    if axis is None:
        lo, hi = jnp.min(a), jnp.max(a)
        if keepdims:
            lo, hi = lo.reshape((1,) * a.ndim), hi.reshape((1,) * a.ndim)
        return wrap(lo), wrap(hi)
    ax = check_axis(axis, a.ndim, "aminmax")
    if a.ndim == 0:
        return wrap(a), wrap(a)
    return wrap(jnp.min(a, axis=ax, keepdims=keepdims)), wrap(jnp.max(a, axis=ax, keepdims=keepdims))


def unique_with_pad(x: Any, pad_num: Any) -> tuple[Tensor, Tensor]:
    """The unique values of the 1-D ``x`` in order of first appearance, padded with ``pad_num`` to ``x``'s
    length, and for each element the position of its value."""
    a = as_tensor_array(x)
    if a.ndim != 1:
        raise ValueError(f"For 'UniqueWithPad', the 'x' must be a 1-D Tensor, but got {a.ndim}-D.")
    v = _concrete(a, "UniqueWithPad")
    vals, first, inv = np.unique(v, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    out = np.full(v.shape, np.asarray(arr(pad_num)).item(), v.dtype)
    out[: order.size] = vals[order]
    return Tensor(out), Tensor(rank[inv.reshape(-1)].astype(v.dtype))


def bound(sorted_x: Any, values: Any, right: bool, out_type: Any, op: str) -> Tensor:
    """Row-wise ``searchsorted`` of 2-D ``values`` in 2-D ``sorted_x`` (MindSpore's LowerBound/UpperBound)."""
    s, v = as_tensor_array(sorted_x), as_tensor_array(values)
    if s.ndim != 2 or v.ndim != 2 or s.shape[0] != v.shape[0]:
        raise ValueError(
            f"For '{op}', 'sorted_x' and 'values' must be 2-D with the same number of rows, but got "
            f"{tuple(s.shape)} and {tuple(v.shape)}."
        )
    return wrap(searchsorted(s, v, right=right)._data.astype(np_dtype(out_type)))


def list_diff(x: Any, y: Any, out_idx: Any) -> tuple[Tensor, Tensor]:
    """The values of the 1-D ``x`` not in ``y`` (in order) and their positions in ``x`` (eager only)."""
    a = _concrete(as_tensor_array(x), "ListDiff")
    b = _concrete(as_tensor_array(y), "ListDiff")
    keep = ~np.isin(a, b)
    return Tensor(a[keep]), Tensor(np.flatnonzero(keep).astype(np_dtype(out_idx)))
