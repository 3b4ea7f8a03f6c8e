"""Sparse operator classes (``ops.SparseToDense()``, ``ops.SparseTensorDenseMatmul(adjoint_st, adjoint_dt)``,
``ops.Coalesce()``...): each delegates to the functional kernels in ``ops/function/sparse_func.py``."""

from __future__ import annotations

from typing import Any

from ..._checkparam import check_bool
from ..._engine import jax, jnp
from ...common.tensor import Tensor
from .._utils import as_tensor_array, wrap
from ..function import sparse_func as _sparse
from ._primitive import Primitive
from .math_ops import _NoArgs, _set_attrs

__all__ = ["Coalesce", "SparseToDense", "SparseTensorDenseAdd", "SparseTensorDenseMatmul", "SparseSlice"]


def _shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        return tuple(int(s) for s in shape.asnumpy().reshape(-1))
    return tuple(int(s) for s in shape)


class Coalesce(_NoArgs):
    """``Coalesce()(x_indices, x_values, x_shape)`` -> ``(y_indices, y_values, y_shape)``: duplicates merged."""

    def __call__(self, x_indices: Any, x_values: Any, x_shape: Any) -> Any:
        return _sparse.coalesce(x_indices, x_values, x_shape)


class SparseToDense(_NoArgs):
    """``SparseToDense()(indices, values, sparse_shape)``: the dense tensor of ``(N, ndim)`` coordinates."""

    def __call__(self, indices: Any, values: Any, sparse_shape: Any) -> Any:
        return _sparse.sparse_to_dense(indices, values, sparse_shape)


class SparseTensorDenseAdd(_NoArgs):
    """``SparseTensorDenseAdd()(x1_indices, x1_values, x1_shape, x2)``: the sparse tensor plus the dense ``x2``."""

    def __call__(self, x1_indices: Any, x1_values: Any, x1_shape: Any, x2: Any) -> Any:
        dense = _sparse.sparse_to_dense(x1_indices, x1_values, x1_shape)
        return wrap(as_tensor_array(dense) + as_tensor_array(x2).astype(as_tensor_array(dense).dtype))


class SparseTensorDenseMatmul(Primitive):
    """``SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values, sparse_shape, dense)``:
    the 2-D sparse matrix (its adjoint with ``adjoint_st``) times the dense one (its adjoint with
    ``adjoint_dt``)."""

    def __init__(self, adjoint_st: bool = False, adjoint_dt: bool = False) -> None:
        super().__init__()
        _set_attrs(
            self,
            adjoint_st=check_bool(adjoint_st, "adjoint_st", self.name),
            adjoint_dt=check_bool(adjoint_dt, "adjoint_dt", self.name),
        )

    def __call__(self, indices: Any, values: Any, sparse_shape: Any, dense: Any) -> Any:
        shape = _shape(sparse_shape)
        idx, val = as_tensor_array(indices), as_tensor_array(values)
        d = as_tensor_array(dense).astype(val.dtype)
        if self.adjoint_dt:
            d = jnp.conj(jnp.swapaxes(d, -1, -2))
        rows, cols = idx[:, 0], idx[:, 1]
        if self.adjoint_st:
            rows, cols, val, shape = cols, rows, jnp.conj(val), (shape[1], shape[0])
        return wrap(jax.ops.segment_sum(val[:, None] * d[cols], rows, num_segments=shape[0]))


class SparseSlice(_NoArgs):
    """``SparseSlice()(indices, values, shape, start, size)`` -> ``(y_indices, y_values, y_shape)``."""

    def __call__(self, indices: Any, values: Any, shape: Any, start: Any, size: Any) -> Any:
        return _sparse.sparse_slice(indices, values, shape, start, size)
