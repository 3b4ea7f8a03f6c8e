"""Sparse functions (``mindspore.ops`` functional, MindSpore's ``sparse_func``): conversions between
``COOTensor``, ``CSRTensor`` and dense Tensors, their arithmetic and products, and the sparse primitives'
kernels.

Ops whose result has a data-dependent number of stored values (``coalesce``, ``coo_add``, ``coo_concat``,
``csr_add``, ``dense_to_sparse_*``, ``csr_mm`` of two CSR tensors) compute on the host eagerly; the rest
(``to_dense``, ``csr_mv``, ``csr_mm`` with a dense matrix, ``csr_mul``/``csr_div``, ``csr_reduce_sum``,
``csr_softmax``, ``csr_gather``) are jax programs that also run inside ``jit``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._checkparam import check_instance
from ..._engine import jax, jnp
from ...common import dtype as mstype
from ...common._sparse_tensor import COOTensor, CSRTensor, RowTensor
from ...common.tensor import Tensor
from .._utils import as_tensor_array, wrap

__all__ = [
    "coalesce",
    "coo2csr",
    "csr2coo",
    "csr_gather",
    "coo_add",
    "coo_concat",
    "csr_add",
    "csr_div",
    "csr_mul",
    "csr_mm",
    "csr_mv",
    "csr_reduce_sum",
    "csr_softmax",
    "csr_to_coo",
    "csr_to_dense",
    "dense_to_sparse_coo",
    "dense_to_sparse_csr",
    "make_sparse_tensor",
    "make_row_tensor",
    "sparse_segment_mean",
]


def _np(t: Any) -> np.ndarray:
    return np.asarray(t.asnumpy() if isinstance(t, Tensor) else t)


# ------------------------------------------------------------------ conversions
def coo_to_dense(x: COOTensor) -> Tensor:
    """The dense tensor of a COOTensor (duplicate coordinates add up)."""
    idx, val = as_tensor_array(x.indices), as_tensor_array(x.values)
    dense = jnp.zeros(x.shape, val.dtype)
    return wrap(dense.at[tuple(idx[:, d] for d in range(idx.shape[1]))].add(val))


def coo2csr(*args: Any) -> Tensor:
    """``coo2csr(row_indices, height)``: the ``indptr`` (Int32, ``height + 1``) of sorted COO row indices (a
    primitive instance in MindSpore, hence the positional arguments)."""
    return _coo2csr(*args)


def _coo2csr(row_indices: Any, height: int) -> Tensor:
    rows = as_tensor_array(row_indices).astype(jnp.int32)
    counts = jnp.zeros((int(height),), jnp.int32).at[rows].add(1)
    return wrap(jnp.concatenate([jnp.zeros((1,), jnp.int32), jnp.cumsum(counts, dtype=jnp.int32)]))


def csr2coo(*args: Any) -> Tensor:
    """``csr2coo(indptr, nnz)``: the row index of each of the ``nnz`` stored values of a CSR ``indptr``."""
    return _csr2coo(*args)


def _csr2coo(indptr: Any, nnz: int) -> Tensor:
    ptr = as_tensor_array(indptr)
    return wrap((jnp.searchsorted(ptr, jnp.arange(int(nnz), dtype=ptr.dtype), side="right") - 1).astype(ptr.dtype))


def coo_to_csr(x: COOTensor) -> CSRTensor:
    """A 2-D COOTensor (sorted by row) as a CSRTensor."""
    idx = as_tensor_array(x.indices)
    if idx.dtype != jnp.int32:
        raise TypeError(f"The dtype of row_indices only support Int32 for now, but got {mstype.from_np(idx.dtype)}.")
    indptr = coo2csr(wrap(idx[:, 0]), x.shape[0])
    return CSRTensor(indptr, wrap(idx[:, 1]), x.values, x.shape)


def csr_to_coo(tensor: CSRTensor) -> COOTensor:
    """A CSRTensor as a COOTensor (coordinates ``(row, column)``)."""
    check_instance(tensor, CSRTensor, "tensor", "csr_to_coo")
    rows = as_tensor_array(csr2coo(tensor.indptr, tensor.values.shape[0]))
    cols = as_tensor_array(tensor.indices).astype(rows.dtype)
    return COOTensor(wrap(jnp.stack([rows, cols], axis=1)), tensor.values, tensor.shape)


def csr_to_dense(csr_tensor: CSRTensor) -> Tensor:
    """The dense tensor of a CSRTensor."""
    check_instance(csr_tensor, CSRTensor, "csr_tensor", "csr_to_dense")
    return coo_to_dense(csr_to_coo(csr_tensor))


def row_tensor_to_dense(x: RowTensor) -> Tensor:
    """The dense tensor of a RowTensor (rows named twice add up)."""
    val = as_tensor_array(x.values)
    return wrap(jnp.zeros(x.dense_shape, val.dtype).at[as_tensor_array(x.indices)].add(val))


def dense_to_sparse_coo(tensor: Any) -> COOTensor:
    """The non-zero elements of a dense tensor as a COOTensor (Int64 coordinates, row-major order)."""
    a = _np(tensor)
    idx = np.argwhere(a != 0).astype(np.int64)
    return COOTensor(Tensor(idx), Tensor(a[tuple(idx.T)]), a.shape)


def dense_to_sparse_csr(tensor: Any) -> CSRTensor:
    """The non-zero elements of a dense 2-D tensor as a CSRTensor (Int32 indices)."""
    a = _np(tensor)
    if a.ndim != 2:
        raise ValueError(f"For 'dense_to_sparse_csr', the input must be 2-D, but got {a.ndim}-D.")
    rows, cols = np.nonzero(a)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=a.shape[0]))]).astype(np.int32)
    return CSRTensor(Tensor(indptr), Tensor(cols.astype(np.int32)), Tensor(a[rows, cols]), a.shape)


def make_sparse_tensor(indices: Any, values: Any, dense_shape: Any) -> COOTensor:
    """``COOTensor(indices, values, dense_shape)``."""
    return COOTensor(indices, values, dense_shape)


def make_row_tensor(indices: Any, values: Any, dense_shape: Any) -> RowTensor:
    """``RowTensor(indices, values, dense_shape)``."""
    return RowTensor(indices, values, dense_shape)


# ------------------------------------------------------------------- COO ops
def _coalesce_np(idx: np.ndarray, val: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    if idx.shape[0] == 0:
        return idx.reshape(0, len(shape)), val
    flat = np.ravel_multi_index(tuple(idx.T), shape)
    uniq, inverse = np.unique(flat, return_inverse=True)
    sums = np.zeros(uniq.shape, val.dtype)
    np.add.at(sums, inverse, val)
    return np.stack(np.unravel_index(uniq, shape), axis=1).astype(idx.dtype), sums


def coalesce(x_indices: Any, x_values: Any, x_shape: Any) -> tuple[Tensor, Tensor, Tensor]:
    """Merge duplicate coordinates (values summed) and sort them: ``x_indices`` is ``(ndim, N)``, as
    MindSpore's ``Coalesce``; returns ``(y_indices, y_values, y_shape)``."""
    idx, val, shp = _np(x_indices), _np(x_values), tuple(int(s) for s in _np(x_shape))
    if idx.ndim != 2 or idx.shape[0] != len(shp) or idx.shape[1] != val.shape[0]:
        raise ValueError(
            f"For 'Coalesce', the 'x_indices' must be (ndim, N) = ({len(shp)}, {val.shape[0]}), but got {idx.shape}."
        )
    out_idx, out_val = _coalesce_np(idx.T.astype(np.int64), val, shp)
    return Tensor(out_idx.T.copy()), Tensor(out_val), Tensor(np.asarray(shp, np.int64))


def coo_add(x1: COOTensor, x2: COOTensor, thresh: Any) -> COOTensor:
    """The sum of two COOTensors of one shape, dropping stored sums whose magnitude is below ``thresh``."""
    check_instance(x1, COOTensor, "x1", "coo_add")
    check_instance(x2, COOTensor, "x2", "coo_add")
    if x1.shape != x2.shape:
        raise ValueError(f"For 'coo_add', the shapes must be equal, but got {x1.shape} and {x2.shape}.")
    idx = np.concatenate([_np(x1.indices), _np(x2.indices).astype(_np(x1.indices).dtype)])
    val = np.concatenate([_np(x1.values), _np(x2.values).astype(_np(x1.values).dtype)])
    idx, val = _coalesce_np(idx, val, x1.shape)
    keep = np.abs(val) >= float(_np(thresh))
    return COOTensor(Tensor(idx[keep]), Tensor(val[keep]), x1.shape)


def coo_concat(sp_input: Any, concat_dim: int = 0) -> COOTensor:
    """COOTensors joined along ``concat_dim`` (coordinates sorted row-major)."""
    if not isinstance(sp_input, (list, tuple)) or len(sp_input) < 2:
        raise ValueError("For 'coo_concat', the 'sp_input' must be a tuple of at least two COOTensors.")
    first = sp_input[0]
    nd = len(first.shape)
    dim = concat_dim % nd
    offset, idxs, vals = 0, [], []
    for t in sp_input:
        check_instance(t, COOTensor, "sp_input", "coo_concat")
        if len(t.shape) != nd or any(t.shape[d] != first.shape[d] for d in range(nd) if d != dim):
            raise ValueError(f"For 'coo_concat', the shapes must agree except in dim {dim}, but got {t.shape}.")
        i = _np(t.indices).astype(np.int64).copy()
        i[:, dim] += offset
        offset += t.shape[dim]
        idxs.append(i)
        vals.append(_np(t.values))
    shape = tuple(offset if d == dim else first.shape[d] for d in range(nd))
    idx, val = np.concatenate(idxs), np.concatenate(vals)
    order = np.argsort(np.ravel_multi_index(tuple(idx.T), shape), kind="stable")
    return COOTensor(Tensor(idx[order]), Tensor(val[order]), shape)


def coo_mul_dense(x: COOTensor, y: Any) -> COOTensor:
    """``x * y`` for a dense ``y`` broadcast to ``x``'s shape: the stored values scaled."""
    idx = as_tensor_array(x.indices)
    dense = jnp.broadcast_to(as_tensor_array(y), x.shape)
    picked = dense[tuple(idx[:, d] for d in range(idx.shape[1]))]
    return COOTensor(x.indices, wrap(as_tensor_array(x.values) * picked), x.shape)


# ------------------------------------------------------------------- CSR ops
def _rows_cols(x: CSRTensor) -> tuple[Any, Any]:
    rows = as_tensor_array(csr2coo(x.indptr, x.values.shape[0]))
    return rows, as_tensor_array(x.indices)


def csr_gather(*args: Any) -> Tensor:
    """``csr_gather(indptr, indices, dense, sparse_shape)``: the values of ``dense`` at the positions a CSR
    structure stores."""
    return _csr_gather(*args)


def _csr_gather(indptr: Any, indices: Any, dense: Any, sparse_shape: Any) -> Tensor:
    ptr, cols = as_tensor_array(indptr), as_tensor_array(indices)
    rows = as_tensor_array(csr2coo(wrap(ptr), cols.shape[0]))
    return wrap(as_tensor_array(dense)[rows, cols])


def _csr_scale(x: CSRTensor, y: Any, op: str, divide: bool) -> CSRTensor:
    check_instance(x, CSRTensor, "x", op)
    rows, cols = _rows_cols(x)
    dense = jnp.broadcast_to(as_tensor_array(y), x.shape)
    picked = dense[rows, cols]
    v = as_tensor_array(x.values)
    return CSRTensor(x.indptr, x.indices, wrap(v / picked if divide else v * picked), x.shape)


def csr_mul(x: CSRTensor, y: Any) -> CSRTensor:
    """``x * y`` for a dense ``y`` broadcast to ``x``'s shape (a CSRTensor of the same structure)."""
    return _csr_scale(x, y, "csr_mul", False)


def csr_div(x: CSRTensor, y: Any) -> CSRTensor:
    """``x / y`` for a dense ``y`` broadcast to ``x``'s shape (a CSRTensor of the same structure)."""
    return _csr_scale(x, y, "csr_div", True)


def csr_mv(csr_tensor: CSRTensor, dense: Any) -> Tensor:
    """The CSR matrix times the dense ``(N, 1)`` (or ``(N,)``) vector."""
    check_instance(csr_tensor, CSRTensor, "csr_tensor", "csr_mv")
    rows, cols = _rows_cols(csr_tensor)
    d = as_tensor_array(dense)
    vec = d.reshape(-1)
    v = as_tensor_array(csr_tensor.values)
    out = jax.ops.segment_sum(v * vec[cols].astype(v.dtype), rows, num_segments=csr_tensor.shape[0])
    return wrap(out.reshape(-1, 1) if d.ndim == 2 else out)


def csr_reduce_sum(csr_tensor: CSRTensor, axis: int) -> Tensor:
    """The sum over ``axis`` (0 or 1) of a 2-D CSRTensor, keeping the reduced axis (a dense tensor)."""
    check_instance(csr_tensor, CSRTensor, "csr_tensor", "csr_reduce_sum")
    rows, cols = _rows_cols(csr_tensor)
    v = as_tensor_array(csr_tensor.values)
    ax = int(axis) % 2
    if ax == 1:
        return wrap(jax.ops.segment_sum(v, rows, num_segments=csr_tensor.shape[0]).reshape(-1, 1))
    return wrap(jax.ops.segment_sum(v, cols, num_segments=csr_tensor.shape[1]).reshape(1, -1))


def csr_softmax(logits: CSRTensor, dtype: Any) -> CSRTensor:
    """Softmax over the stored values of each row (a CSRTensor of the same structure, in ``dtype``)."""
    check_instance(logits, CSRTensor, "logits", "csr_softmax")
    rows, _ = _rows_cols(logits)
    v = as_tensor_array(logits.values).astype(mstype.to_np(dtype))
    n = logits.shape[0]
    row_max = jax.ops.segment_max(v, rows, num_segments=n)
    e = jnp.exp(v - row_max[rows])
    return CSRTensor(
        logits.indptr, logits.indices, wrap(e / jax.ops.segment_sum(e, rows, num_segments=n)[rows]), logits.shape
    )


def csr_add(a: CSRTensor, b: CSRTensor, alpha: Any, beta: Any) -> CSRTensor:
    """``alpha * a + beta * b`` of two CSRTensors of one shape."""
    check_instance(a, CSRTensor, "a", "csr_add")
    check_instance(b, CSRTensor, "b", "csr_add")
    if a.shape != b.shape:
        raise ValueError(f"For 'csr_add', the shapes must be equal, but got {a.shape} and {b.shape}.")
    ca, cb = csr_to_coo(a), csr_to_coo(b)
    va = _np(ca.values) * _np(alpha)
    vb = _np(cb.values) * _np(beta)
    idx, val = _coalesce_np(
        np.concatenate([_np(ca.indices), _np(cb.indices)]).astype(np.int64),
        np.concatenate([va, vb]).astype(_np(a.values).dtype),
        a.shape,
    )
    return _csr_from_coo_np(idx, val, a.shape, _np(a.indptr).dtype)


def _csr_from_coo_np(idx: np.ndarray, val: np.ndarray, shape: tuple[int, ...], dt: Any) -> CSRTensor:
    indptr = np.concatenate([[0], np.cumsum(np.bincount(idx[:, 0], minlength=shape[0]))]).astype(dt)
    return CSRTensor(Tensor(indptr), Tensor(idx[:, 1].astype(dt)), Tensor(val), shape)


def csr_mm(
    a: CSRTensor,
    b: Any,
    trans_a: bool = False,
    trans_b: bool = False,
    adjoint_a: bool = False,
    adjoint_b: bool = False,
) -> Any:
    """The product of a CSRTensor with a dense matrix (a dense result) or with another CSRTensor (a CSRTensor);
    ``trans_*``/``adjoint_*`` transpose (conjugate) the operands first."""
    check_instance(a, CSRTensor, "a", "csr_mm")
    if isinstance(b, CSRTensor) or trans_a or adjoint_a:
        da = as_tensor_array(csr_to_dense(a))
        if trans_a or adjoint_a:
            da = jnp.swapaxes(da, -1, -2)
            da = jnp.conj(da) if adjoint_a else da
        db = as_tensor_array(csr_to_dense(b)) if isinstance(b, CSRTensor) else as_tensor_array(b)
        if trans_b or adjoint_b:
            db = jnp.swapaxes(db, -1, -2)
            db = jnp.conj(db) if adjoint_b else db
        out = da @ db.astype(da.dtype)
        return dense_to_sparse_csr(wrap(out)) if isinstance(b, CSRTensor) else wrap(out)
    db = as_tensor_array(b)
    if trans_b or adjoint_b:
        db = jnp.swapaxes(db, -1, -2)
        db = jnp.conj(db) if adjoint_b else db
    rows, cols = _rows_cols(a)
    v = as_tensor_array(a.values)
    contrib = v[:, None] * db[cols].astype(v.dtype)
    return wrap(jax.ops.segment_sum(contrib, rows, num_segments=a.shape[0]))


def sparse_segment_mean(x: Any, indices: Any, segment_ids: Any) -> Tensor:
    """``out[s] = mean(x[indices[j]] for j with segment_ids[j] == s)`` (0 for an empty segment); the number of
    segments is ``max(segment_ids) + 1``."""
    a = as_tensor_array(x)
    idx = as_tensor_array(indices)
    seg = as_tensor_array(segment_ids)
    n = int(np.max(_np(segment_ids))) + 1 if seg.size else 0
    rows = a[idx]
    sums = jax.ops.segment_sum(rows, seg, num_segments=n)
    counts = jax.ops.segment_sum(jnp.ones(seg.shape, a.dtype), seg, num_segments=n)
    shape = (n,) + (1,) * (a.ndim - 1)
    return wrap(sums / jnp.maximum(counts, 1).reshape(shape))


# ------------------------------------------------- kernels of primitive classes
def sparse_to_dense(indices: Any, values: Any, sparse_shape: Any) -> Tensor:
    """``SparseToDense``: ``(N, ndim)`` coordinates and values into a dense tensor."""
    shape = tuple(int(s) for s in _np(sparse_shape).reshape(-1)) if isinstance(sparse_shape, Tensor) else sparse_shape
    return coo_to_dense(COOTensor(indices, values, tuple(shape)))


def sparse_slice(indices: Any, values: Any, shape: Any, start: Any, size: Any) -> tuple[Tensor, Tensor, Tensor]:
    """``SparseSlice``: the stored values inside the box ``[start, start + size)``, re-based."""
    idx, val = _np(indices), _np(values)
    shp, st, sz = _np(shape).astype(np.int64), _np(start).astype(np.int64), _np(size).astype(np.int64)
    stop = np.minimum(st + sz, shp)
    keep = np.all((idx >= st) & (idx < stop), axis=1)
    return Tensor(idx[keep] - st), Tensor(val[keep]), Tensor(np.maximum(stop - st, 0))
