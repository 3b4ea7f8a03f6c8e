"""Sorting and searching ops (``mindspore.ops`` functional): ``sort``, ``argsort``, ``topk``, ``unique``,
``unique_consecutive``, ``searchsorted``, ``bincount``, ``isin``."""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ..._engine import jax, jnp, lax
from ...common.tensor import Tensor
from .._utils import as_tensor_array, wrap
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
]


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
