"""Row updates (``mindspore.ops`` functional): ``inplace_add``/``inplace_sub``/``inplace_update`` return a new
tensor with rows of ``x`` updated (as MindSpore's, they leave ``x`` itself alone); ``inplace_index_add`` adds
into a Parameter in place."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._engine import jnp
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from .._utils import as_tensor_array, check_axis, wrap
from ._array_utils import _verify_index_range

__all__ = ["inplace_add", "inplace_sub", "inplace_update", "inplace_index_add", "index_add"]


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


def index_add(x: Any, indices: Any, y: Any, axis: int, use_lock: bool = True, check_index_bound: bool = True) -> Tensor:
    """``x`` with the slices of ``y`` added at ``indices`` (Int32) along ``axis``, repeated indices adding up
    (MindSpore's IndexAdd). A Parameter ``x`` is updated in place; the result is a new Tensor either way.
    ``use_lock`` (an Ascend atomic-add switch) changes nothing here; with ``check_index_bound`` an index
    outside ``x`` raises MindSpore's RuntimeError."""
    a = as_tensor_array(x) if isinstance(x, Tensor) else None
    if a is None:
        raise TypeError(
            f"For 'IndexAdd', the 1th input input_x can not be implicitly converted. Its type is "
            f"{type(x).__name__}. Only support Tensor or Scalar."
        )
    idx, u = as_tensor_array(indices), as_tensor_array(y)
    if idx.dtype != np.int32:
        raise TypeError(
            "For primitive[IndexAdd], the input argument[indices type] must be a type of {Tensor[Int32]}, "
            f"but got Tensor[{mstype.from_np(idx.dtype)}]."
        )
    n = a.ndim
    if not isinstance(axis, int) or isinstance(axis, bool) or not -n <= axis < n:
        raise ValueError(f"For primitive[IndexAdd], the axis must be in ({-n - 1},{n}), but got {axis}.")
    ax = axis % n
    for d in range(n):
        if d != ax and d < u.ndim and u.shape[d] != a.shape[d]:
            raise ValueError(
                f"For primitive[IndexAdd], the attribute[x dim] must be equal to {u.shape[d]}, but got {a.shape[d]}."
            )
    if check_index_bound:
        _verify_index_range(
            idx, 0, a.shape[ax],
            lambda b: f"For 'IndexAdd', the indices are out of range with input_shape: {list(a.shape)} (index {b}).",
        )  # fmt: skip
    out = index_add_into(a, idx, u, ax, "IndexAdd")
    if isinstance(x, Parameter):
        x.set_data(wrap(out))
    return wrap(out)


def inplace_index_add(var: Any, indices: Any, updates: Any, axis: int) -> Tensor:
    """Add ``updates`` into the Parameter ``var`` at ``indices`` along ``axis``, in place; returns ``var``."""
    out = index_add_into(var, indices, updates, axis, "inplace_index_add")
    if hasattr(var, "set_data"):
        var.set_data(wrap(out))
        return var
    return wrap(out)
