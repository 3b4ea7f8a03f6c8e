"""SparseToDense and SparseTensorDenseMatmul (COO ``indices``/``values``/``shape`` made dense with one
scatter, then ordinary dense ops)."""

from __future__ import annotations

from typing import Any

from ... import ops
from ...common.tensor import Tensor
from ..cell import Cell

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]


def _dense(indices: Any, values: Any, shape: Any) -> Tensor:
    return ops.scatter_nd(indices, values, tuple(int(s) for s in shape))


class SparseToDense(Cell):
    """The dense Tensor of a COO sparse tensor (any object with ``indices`` ``(n, ndim)``, ``values`` ``(n,)``
    and ``shape``); repeated indices add up.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> class Coo:
        ...     indices = ms.Tensor(np.array([[0, 1], [1, 2]], np.int32))
        ...     values = ms.Tensor(np.array([1.0, 2.0], np.float32))
        ...     shape = (3, 4)
        >>> ms.nn.SparseToDense()(Coo()).asnumpy().sum()
        3.0
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, sparse_tensor: Any) -> Tensor:
        return _dense(sparse_tensor.indices, sparse_tensor.values, sparse_tensor.shape)


class SparseTensorDenseMatmul(Cell):
    """``A @ B`` with ``A`` the 2-D COO sparse tensor ``(indices, values, sparse_shape)`` and ``B`` dense;
    ``adjoint_st``/``adjoint_dt`` transpose ``A``/``B`` first.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> idx = ms.Tensor(np.array([[0, 1], [1, 2]], np.int32))
        >>> val = ms.Tensor(np.array([1.0, 2.0], np.float32))
        >>> out = ms.nn.SparseTensorDenseMatmul()(idx, val, (3, 4), ms.Tensor(np.ones([4, 2], np.float32)))
        >>> out.shape
        (3, 2)
    """

    def __init__(self, adjoint_st: bool = False, adjoint_dt: bool = False) -> None:
        super().__init__()
        self.adj_st = adjoint_st
        self.adj_dt = adjoint_dt

    def construct(self, indices: Tensor, values: Tensor, sparse_shape: Any, dense: Tensor) -> Tensor:
        if len(tuple(sparse_shape)) != 2:
            raise ValueError(
                f"For 'SparseTensorDenseMatmul', the 'sparse_shape' must be 2-D, but got {tuple(sparse_shape)}."
            )
        a = _dense(indices, values, sparse_shape)
        if self.adj_st:
            a = ops.transpose(a, (1, 0))
        b = ops.transpose(dense, (1, 0)) if self.adj_dt else dense
        return ops.matmul(a, b)
