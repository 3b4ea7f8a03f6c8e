"""Row updates (``mindspore.ops`` functional): ``inplace_add``/``inplace_sub``/``inplace_update`` return a new
tensor with rows of ``x`` updated (as MindSpore's, they leave ``x`` itself alone); ``inplace_index_add`` adds
into a Parameter in place."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._engine import jnp
from ...common.tensor import Tensor
from .._utils import as_tensor_array, check_axis, wrap

__all__ = ["inplace_add", "inplace_sub", "inplace_update", "inplace_index_add"]


def _rows(indices: Any, x: Any, v: Any, op: str) -> Any:
    if isinstance(indices, Tensor):
        idx = indices._data.reshape(-1)
    elif isinstance(indices, (list, tuple)):
        idx = np.asarray(indices, np.int64).reshape(-1)
    elif isinstance(indices, (int, np.integer)) and not isinstance(indices, bool):
        idx = np.asarray([indices], np.int64)
    else:
        raise TypeError(f"For '{op}', the 'indices' must be an int, a tuple of ints or a Tensor, but got {indices!r}.")
    if v.ndim != x.ndim or v.shape[1:] != x.shape[1:] or v.shape[0] != idx.shape[0]:
        raise ValueError(
            f"For '{op}', the 'v' must have shape ({idx.shape[0]}, *x.shape[1:]) = "
            f"{(idx.shape[0], *x.shape[1:])}, but got {tuple(v.shape)}."
        )
    return idx


def inplace_add(x: Any, v: Any, indices: Any) -> Tensor:
    """``x`` with ``v[i]`` added to row ``indices[i]`` (a new tensor)."""
    a, b = as_tensor_array(x), as_tensor_array(v)
    return wrap(a.at[_rows(indices, a, b, "inplace_add")].add(b.astype(a.dtype)))


def inplace_sub(x: Any, v: Any, indices: Any) -> Tensor:
    """``x`` with ``v[i]`` subtracted from row ``indices[i]`` (a new tensor)."""
    a, b = as_tensor_array(x), as_tensor_array(v)
    return wrap(a.at[_rows(indices, a, b, "inplace_sub")].add(-b.astype(a.dtype)))


def inplace_update(x: Any, v: Any, indices: Any) -> Tensor:
    """``x`` with row ``indices[i]`` replaced by ``v[i]`` (a new tensor)."""
    a, b = as_tensor_array(x), as_tensor_array(v)
    return wrap(a.at[_rows(indices, a, b, "inplace_update")].set(b.astype(a.dtype)))


def index_add_into(var: Any, indices: Any, updates: Any, axis: int, op: str) -> Any:
    """``var`` with ``updates`` added at ``indices`` along ``axis`` (an array)."""
    a = as_tensor_array(var)
    idx = as_tensor_array(indices).reshape(-1)
    u = as_tensor_array(updates).astype(a.dtype)
    ax = check_axis(axis, a.ndim, op)
    if u.shape[ax] != idx.shape[0]:
        raise ValueError(
            f"For '{op}', the size of 'updates' along axis {ax} must equal the number of indices "
            f"{idx.shape[0]}, but got {u.shape[ax]}."
        )
    moved = jnp.moveaxis(a, ax, 0).at[idx].add(jnp.moveaxis(u, ax, 0))
    return jnp.moveaxis(moved, 0, ax)


def inplace_index_add(var: Any, indices: Any, updates: Any, axis: int) -> Tensor:
    """Add ``updates`` into the Parameter ``var`` at ``indices`` along ``axis``, in place; returns ``var``."""
    out = index_add_into(var, indices, updates, axis, "inplace_index_add")
    if hasattr(var, "set_data"):
        var.set_data(wrap(out))
        return var
    return wrap(out)
