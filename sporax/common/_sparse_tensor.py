"""MindSpore's sparse tensors: ``COOTensor`` (coordinates and values), ``CSRTensor`` (compressed rows),
``RowTensor`` (a few rows of a dense tensor) and the 1.x ``SparseTensor``.

Each holds dense Tensors (its index and value arrays) and its dense shape; the operations on them are
``sporax.ops`` functions (``ops.coo_add``, ``ops.csr_mm``, ``ops.coo_sin``...), which the methods call. They
are pytrees, so they pass through ``jit``, ``grad`` and ``vmap`` like Tensors (the shape is static).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._engine import jax
from . import dtype as mstype
from ._op_registry import op_function
from .tensor import Tensor

__all__ = ["COOTensor", "CSRTensor", "RowTensor", "SparseTensor"]


def _sparse() -> Any:
    return op_function("sparse_func")


def _shape(shape: Any, cls: str) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = tuple(int(v) for v in shape.asnumpy().reshape(-1))
    if not isinstance(shape, (tuple, list)) or not all(
        isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s >= 0 for s in shape
    ):
        raise TypeError(f"For '{cls}', the 'shape' must be a tuple of non-negative ints, but got {shape!r}.")
    return tuple(int(s) for s in shape)


def _tensor(x: Any, name: str, cls: str) -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (np.ndarray, list, tuple)) or isinstance(x, jax.Array):
        return Tensor(x)
    raise TypeError(f"For '{cls}', the '{name}' must be a Tensor, but got {type(x).__name__}.")


class _Sparse:
    """What the sparse tensors share: dtype/size/ndim/itemsize and the shape."""

    _values: Tensor
    _shape: tuple[int, ...]

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def dtype(self) -> Any:
        return self._values.dtype

    @property
    def size(self) -> int:
        """The number of stored values."""
        return int(np.prod(self._values.shape))

    @property
    def itemsize(self) -> int:
        return int(mstype.to_np(self.dtype).itemsize)

    @property
    def ndim(self) -> int:
        return len(self._shape)


class COOTensor(_Sparse):
    """A sparse tensor of ``shape`` holding ``values[i]`` at the coordinates ``indices[i]``.

    Args:
        indices (Tensor): Int32/Int64 ``(N, ndim)``. Default: ``None``.
        values (Tensor): ``(N,)``. Default: ``None``.
        shape (tuple[int]): the dense shape. Default: ``None``.
        coo_tensor (COOTensor): copy this one instead. Default: ``None``.
    """

    def __init__(self, indices: Any = None, values: Any = None, shape: Any = None, coo_tensor: Any = None) -> None:
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise TypeError(f"For 'COOTensor', 'coo_tensor' must be a COOTensor, but got {type(coo_tensor)}.")
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        self._indices = _tensor(indices, "indices", "COOTensor")
        self._values = _tensor(values, "values", "COOTensor")
        self._shape = _shape(shape, "COOTensor")
        ish, vsh = tuple(self._indices.shape), tuple(self._values.shape)
        if len(ish) != 2 or len(vsh) != 1 or ish[0] != vsh[0]:
            raise ValueError(
                "For 'COOTensor', 'indices' must be 2-D (N, ndim) and 'values' 1-D (N,), but got "
                f"{list(ish)} and {list(vsh)}."
            )
        if ish[1] != len(self._shape):
            raise ValueError(
                f"For 'COOTensor', the 'indices' shape[1] must be the rank of 'shape' {len(self._shape)}, "
                f"but got {ish[1]}."
            )
        if self._indices.dtype not in (mstype.int16, mstype.int32, mstype.int64):
            raise TypeError(f"For 'COOTensor', the 'indices' must be an int tensor, but got {self._indices.dtype}.")

    @property
    def indices(self) -> Tensor:
        return self._indices

    def to_tuple(self) -> tuple[Tensor, Tensor, tuple[int, ...]]:
        return self._indices, self._values, self._shape

    def to_dense(self) -> Tensor:
        return _sparse().coo_to_dense(self)

    def to_csr(self) -> CSRTensor:
        return _sparse().coo_to_csr(self)

    def coalesce(self) -> COOTensor:
        """Duplicate coordinates merged (their values summed), coordinates sorted."""
        i, v, s = _sparse().coalesce(self._indices.T, self._values, Tensor(np.asarray(self._shape, np.int64)))
        return COOTensor(i.T, v, tuple(int(d) for d in s.asnumpy()))

    def abs(self) -> COOTensor:
        return op_function("sparse_unary_func").coo_abs(self)

    def astype(self, dtype: Any) -> COOTensor:
        return COOTensor(self._indices, self._values.astype(dtype), self._shape)

    def add(self, other: COOTensor, thresh: Any) -> COOTensor:
        return _sparse().coo_add(self, other, thresh)

    def __neg__(self) -> COOTensor:
        return COOTensor(self._indices, -self._values, self._shape)

    def __add__(self, other: Any) -> Any:
        if isinstance(other, COOTensor):
            return _sparse().coo_add(self, other, 0.0)
        return self.to_dense() + other

    def __mul__(self, other: Any) -> Any:
        return _sparse().coo_mul_dense(self, other)

    def __repr__(self) -> str:
        return f"COOTensor(shape={list(self._shape)}, dtype={self.dtype}, indices={self._indices!r}, values={self._values!r})"


class CSRTensor(_Sparse):
    """A 2-D sparse tensor in compressed rows: row ``r`` holds ``values[indptr[r]:indptr[r+1]]`` in the
    columns ``indices[indptr[r]:indptr[r+1]]``.

    Args:
        indptr (Tensor): Int32/Int64 ``(rows + 1,)``. Default: ``None``.
        indices (Tensor): the column of each value, ``(N,)``. Default: ``None``.
        values (Tensor): ``(N,)``. Default: ``None``.
        shape (tuple[int]): the dense shape. Default: ``None``.
        csr_tensor (CSRTensor): copy this one instead. Default: ``None``.
    """

    def __init__(
        self, indptr: Any = None, indices: Any = None, values: Any = None, shape: Any = None, csr_tensor: Any = None
    ) -> None:
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError(f"For 'CSRTensor', 'csr_tensor' must be a CSRTensor, but got {type(csr_tensor)}.")
            indptr, indices, values, shape = csr_tensor.indptr, csr_tensor.indices, csr_tensor.values, csr_tensor.shape
        self._indptr = _tensor(indptr, "indptr", "CSRTensor")
        self._indices = _tensor(indices, "indices", "CSRTensor")
        self._values = _tensor(values, "values", "CSRTensor")
        self._shape = _shape(shape, "CSRTensor")
        if len(self._shape) < 2:
            raise ValueError(f"For 'CSRTensor', the 'shape' must have at least 2 dims, but got {self._shape}.")
        if len(self._indptr.shape) != 1 or self._indptr.shape[0] != self._shape[0] + 1:
            raise ValueError(
                f"For 'CSRTensor', 'indptr' must be 1-D of length shape[0] + 1 = {self._shape[0] + 1}, but got "
                f"{list(self._indptr.shape)}."
            )
        if len(self._indices.shape) != 1 or self._values.shape[0] != self._indices.shape[0]:
            raise ValueError(
                "For 'CSRTensor', 'indices' and 'values' must have the same length, but got "
                f"{list(self._indices.shape)} and {list(self._values.shape)}."
            )
        if self._values.ndim != 1 + len(self._shape) - 2:
            raise ValueError(f"For 'CSRTensor', the 'values' must be 1-D, but got {list(self._values.shape)}.")

    @property
    def indptr(self) -> Tensor:
        return self._indptr

    @property
    def indices(self) -> Tensor:
        return self._indices

    def to_tuple(self) -> tuple[Tensor, Tensor, Tensor, tuple[int, ...]]:
        return self._indptr, self._indices, self._values, self._shape

    def to_dense(self) -> Tensor:
        return _sparse().csr_to_dense(self)

    def to_coo(self) -> COOTensor:
        return _sparse().csr_to_coo(self)

    def abs(self) -> CSRTensor:
        return op_function("sparse_unary_func").csr_abs(self)

    def astype(self, dtype: Any) -> CSRTensor:
        return CSRTensor(self._indptr, self._indices, self._values.astype(dtype), self._shape)

    def add(self, b: CSRTensor, alpha: Any, beta: Any) -> CSRTensor:
        return _sparse().csr_add(self, b, alpha, beta)

    def mm(self, matrix: Any) -> Any:
        return _sparse().csr_mm(self, matrix)

    def mv(self, dense_vector: Any) -> Tensor:
        return _sparse().csr_mv(self, dense_vector)

    def sum(self, axis: int) -> Tensor:
        return _sparse().csr_reduce_sum(self, axis)

    def __neg__(self) -> CSRTensor:
        return CSRTensor(self._indptr, self._indices, -self._values, self._shape)

    def __mul__(self, other: Any) -> CSRTensor:
        return _sparse().csr_mul(self, other)

    def __truediv__(self, other: Any) -> CSRTensor:
        return _sparse().csr_div(self, other)

    def __add__(self, other: Any) -> Any:
        if isinstance(other, CSRTensor):
            return _sparse().csr_add(self, other, Tensor(1, self.dtype), Tensor(1, self.dtype))
        return self.to_dense() + other

    def __repr__(self) -> str:
        return (
            f"CSRTensor(shape={list(self._shape)}, dtype={self.dtype}, indptr={self._indptr!r}, "
            f"indices={self._indices!r}, values={self._values!r})"
        )


class RowTensor(_Sparse):
    """A tensor of ``shape`` that is zero except the rows ``indices``, which hold ``values`` (the form of an
    embedding's gradient).

    Args:
        indices (Tensor): the rows, ``(N,)``. Default: ``None``.
        values (Tensor): ``(N, *shape[1:])``. Default: ``None``.
        shape (tuple[int]): the dense shape. Default: ``None``.
        row_tensor (RowTensor): copy this one instead. Default: ``None``.
    """

    def __init__(self, indices: Any = None, values: Any = None, shape: Any = None, row_tensor: Any = None) -> None:
        if row_tensor is not None:
            indices, values, shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        self._indices = _tensor(indices, "indices", "RowTensor")
        self._values = _tensor(values, "values", "RowTensor")
        self._shape = _shape(shape, "RowTensor")
        if tuple(self._values.shape)[1:] != self._shape[1:] or self._values.shape[0] != self._indices.shape[0]:
            raise ValueError(
                f"For 'RowTensor', the 'values' must have shape (len(indices), *shape[1:]), but got "
                f"{list(self._values.shape)} for {len(self._indices)} rows of {self._shape}."
            )

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def dense_shape(self) -> tuple[int, ...]:
        return self._shape

    def to_dense(self) -> Tensor:
        return _sparse().row_tensor_to_dense(self)

    def __repr__(self) -> str:
        return f"RowTensor(dense_shape={list(self._shape)}, indices={self._indices!r}, values={self._values!r})"


class SparseTensor(COOTensor):
    """MindSpore 1.x's name of :class:`COOTensor` (``SparseTensor(indices, values, shape)``)."""

    def __init__(self, indices: Any, values: Any, shape: Any) -> None:
        super().__init__(indices, values, shape)


def _flatten(cls: type, fields: tuple[str, ...]) -> None:
    def flatten(x: Any) -> Any:
        return tuple(getattr(x, f) for f in fields), x._shape

    def unflatten(shape: Any, children: Any) -> Any:
        obj: Any = object.__new__(cls)
        for f, c in zip(fields, children, strict=True):
            setattr(obj, f, c)
        obj._shape = shape
        return obj

    jax.tree_util.register_pytree_node(cls, flatten, unflatten)


_flatten(COOTensor, ("_indices", "_values"))
_flatten(SparseTensor, ("_indices", "_values"))
_flatten(CSRTensor, ("_indptr", "_indices", "_values"))
_flatten(RowTensor, ("_indices", "_values"))
