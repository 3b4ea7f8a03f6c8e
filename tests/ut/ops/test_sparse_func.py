"""Sparse tensors (COOTensor, CSRTensor, RowTensor, SparseTensor) and the sparse functions, checked against
SciPy's sparse matrices, NumPy, and MindSpore 2.10's outputs where its CPU build runs them (COO ops)."""

import numpy as np
import pytest
import scipy.sparse as ss

import sporax as ms
from sporax import ops
from sporax.ops.function import sparse_unary_func

T = ms.Tensor
RNG = np.random.default_rng(11)
DENSE = np.where(RNG.uniform(size=(4, 5)) < 0.4, RNG.normal(size=(4, 5)), 0.0)


def close(out, want, atol=1e-9):
    np.testing.assert_allclose(np.asarray(out.asnumpy(), np.float64), want, atol=atol)


def coo():
    return ms.COOTensor(T(np.array([[0, 1], [1, 2]], np.int64)), T(np.array([1.0, -2.0], np.float32)), (3, 4))


def csr():
    return ops.dense_to_sparse_csr(T(DENSE))


def test_coo_tensor_basics_match_mindspore():
    c = coo()
    assert c.shape == (3, 4) and c.dtype == ms.float32 and c.size == 2 and c.ndim == 2 and c.itemsize == 4
    close(c.to_dense(), [[0, 1, 0, 0], [0, 0, -2, 0], [0, 0, 0, 0]])
    close(ops.coo_abs(c).values, [1, 2])
    close(ops.coo_cos(c).to_dense(), [[0, np.cos(1), 0, 0], [0, 0, np.cos(-2), 0], [0, 0, 0, 0]], 1e-6)
    other = ms.COOTensor(T(np.array([[0, 1], [2, 0]], np.int64)), T(np.array([-1.0, 5.0], np.float32)), (3, 4))
    added = ops.coo_add(c, other, T(0.5))  # MindSpore 2.10: [[1, 2], [2, 0]], [-2, 5]
    assert added.indices.asnumpy().tolist() == [[1, 2], [2, 0]] and added.values.asnumpy().tolist() == [-2, 5]
    cat = ops.coo_concat((c, c), 1)  # MindSpore 2.10's order and shape
    assert cat.shape == (3, 8)
    assert cat.indices.asnumpy().tolist() == [[0, 1], [0, 5], [1, 2], [1, 6]]
    assert cat.values.asnumpy().tolist() == [1, 1, -2, -2]
    i, v, s = c.to_tuple()
    assert s == (3, 4) and i is c.indices and v is c.values
    assert c.astype(ms.float64).dtype == ms.float64
    assert ms.COOTensor(coo_tensor=c).shape == (3, 4)
    with pytest.raises(TypeError, match="Int32"):
        c.to_csr()
    c32 = ms.COOTensor(T(np.array([[0, 1], [1, 2]], np.int32)), T(np.array([1.0, -2.0], np.float32)), (3, 4))
    close(c32.to_csr().to_dense(), c.to_dense().asnumpy())
    dup = ms.COOTensor(T(np.array([[1, 0], [0, 1], [1, 0]], np.int64)), T(np.array([1.0, 2.0, 3.0])), (2, 2))
    merged = dup.coalesce()
    assert merged.indices.asnumpy().tolist() == [[0, 1], [1, 0]] and merged.values.asnumpy().tolist() == [2, 4]
    y_i, y_v, y_s = ops.coalesce(T(np.array([[0, 0, 1], [1, 1, 2]])), T(np.array([1.0, 2.0, 3.0])), T(np.array([3, 4])))
    assert y_i.asnumpy().tolist() == [[0, 1], [1, 2]] and y_v.asnumpy().tolist() == [3, 3]
    with pytest.raises(ValueError, match="'indices' must be 2-D"):
        ms.COOTensor(T(np.array([0, 1])), T(np.array([1.0, 2.0])), (3,))
    sp = ms.SparseTensor(T(np.array([[0, 0]])), T(np.array([3.0])), (2, 2))
    close(sp.to_dense(), [[3, 0], [0, 0]])


def test_csr_against_scipy():
    ref = ss.csr_matrix(DENSE)
    c = csr()
    np.testing.assert_array_equal(c.indptr.asnumpy(), ref.indptr)
    np.testing.assert_array_equal(c.indices.asnumpy(), ref.indices)
    close(c.to_dense(), DENSE)
    close(ops.csr_to_dense(c), DENSE)
    coo_t = ops.csr_to_coo(c)
    close(coo_t.to_dense(), DENSE)
    close(c.to_coo().to_dense(), DENSE)
    close(ops.coo2csr(coo_t.indices[:, 0], 4), ref.indptr)
    close(ops.csr2coo(c.indptr, c.values.shape[0]), ref.tocoo().row)
    vec = RNG.normal(size=(5, 1))
    close(ops.csr_mv(c, T(vec)), DENSE @ vec)
    close(c.mv(T(vec)), DENSE @ vec)
    mat = RNG.normal(size=(5, 3))
    close(ops.csr_mm(c, T(mat)), DENSE @ mat)
    close(c.mm(T(mat)), DENSE @ mat)
    close(ops.csr_mm(c, T(mat.T), trans_b=True), DENSE @ mat)
    other = ops.dense_to_sparse_csr(T(DENSE.T.copy()))
    close(ops.csr_mm(c, other).to_dense(), DENSE @ DENSE.T)
    close(ops.csr_reduce_sum(c, 1), DENSE.sum(1, keepdims=True))
    close(c.sum(0), DENSE.sum(0, keepdims=True))
    scale = RNG.uniform(1, 2, size=(5,))
    close(ops.csr_mul(c, T(scale)).to_dense(), DENSE * scale)
    close((c * T(scale)).to_dense(), DENSE * scale)
    close(ops.csr_div(c, T(scale)).to_dense(), DENSE / scale)
    close(ops.csr_add(c, c, T(1.0), T(2.0)).to_dense(), 3 * DENSE)
    close(ops.csr_gather(c.indptr, c.indices, T(DENSE * 2), (4, 5)), c.values.asnumpy() * 2)
    soft = ops.csr_softmax(c, ms.float64)
    for r in range(4):
        row = DENSE[r][DENSE[r] != 0]
        if row.size:
            close(soft.to_dense()[r][T(DENSE[r] != 0)], np.exp(row) / np.exp(row).sum())
    close(c.abs().to_dense(), np.abs(DENSE))
    assert c.astype(ms.float32).dtype == ms.float32


UNARY_OPS = (
    ops.coo_abs,
    ops.coo_acos,
    ops.coo_acosh,
    ops.coo_asin,
    ops.coo_asinh,
    ops.coo_atan,
    ops.coo_atanh,
    ops.coo_ceil,
    ops.coo_cos,
    ops.coo_cosh,
    ops.coo_exp,
    ops.coo_expm1,
    ops.coo_floor,
    ops.coo_inv,
    ops.coo_isfinite,
    ops.coo_isinf,
    ops.coo_isnan,
    ops.coo_log,
    ops.coo_log1p,
    ops.coo_neg,
    ops.coo_relu,
    ops.coo_relu6,
    ops.coo_round,
    ops.coo_sigmoid,
    ops.coo_sin,
    ops.coo_sinh,
    ops.coo_softsign,
    ops.coo_sqrt,
    ops.coo_square,
    ops.coo_tan,
    ops.coo_tanh,
    ops.csr_abs,
    ops.csr_acos,
    ops.csr_acosh,
    ops.csr_asin,
    ops.csr_asinh,
    ops.csr_atan,
    ops.csr_atanh,
    ops.csr_ceil,
    ops.csr_cos,
    ops.csr_cosh,
    ops.csr_exp,
    ops.csr_expm1,
    ops.csr_floor,
    ops.csr_inv,
    ops.csr_isfinite,
    ops.csr_isinf,
    ops.csr_isnan,
    ops.csr_log,
    ops.csr_log1p,
    ops.csr_neg,
    ops.csr_relu,
    ops.csr_relu6,
    ops.csr_round,
    ops.csr_sigmoid,
    ops.csr_sin,
    ops.csr_sinh,
    ops.csr_softsign,
    ops.csr_sqrt,
    ops.csr_square,
    ops.csr_tan,
    ops.csr_tanh,
)


def test_every_sparse_unary_op_is_listed():
    assert [f.__name__ for f in UNARY_OPS] == sparse_unary_func.__all__


@pytest.mark.parametrize("name", sparse_unary_func.__all__)
def test_unary_on_stored_values(name):
    kind, op = name.split("_", 1)
    x = coo() if kind == "coo" else ops.dense_to_sparse_csr(T(np.array([[0.0, 0.5], [0.25, 0.0]], np.float32)))
    if op == "acosh":
        x = (
            x.astype(ms.float32)
            if kind == "csr"
            else ms.COOTensor(x.indices, T(np.array([1.5, 2.0], np.float32)), x.shape)
        )
    out = getattr(ops, name)(x)
    dense_name = sparse_unary_func._OPS[op]
    want = getattr(ops, dense_name)(x.values if op != "acosh" or kind == "coo" else x.values + 1)
    if op == "acosh" and kind == "csr":
        out = getattr(ops, name)(type(x)(x.indptr, x.indices, x.values + 1, x.shape))
    np.testing.assert_allclose(out.values.asnumpy(), want.asnumpy(), equal_nan=True)
    assert type(out) is type(x) and out.shape == x.shape


def test_conversions_rows_segments_and_primitives():
    c = ops.dense_to_sparse_coo(T(DENSE))
    close(c.to_dense(), DENSE)
    assert c.indices.dtype == ms.int64
    m = ops.make_sparse_tensor(T(np.array([[0, 1]])), T(np.array([2.0])), (2, 2))
    assert isinstance(m, ms.COOTensor)
    r = ops.make_row_tensor(T(np.array([0, 2], np.int32)), T(np.ones((2, 3), np.float32)), (4, 3))
    assert isinstance(r, ms.RowTensor) and r.dense_shape == (4, 3)
    close(r.to_dense(), [[1, 1, 1], [0, 0, 0], [1, 1, 1], [0, 0, 0]])
    x = np.arange(6.0).reshape(3, 2)
    close(ops.sparse_segment_mean(T(x), T(np.array([0, 1, 2])), T(np.array([0, 0, 1]))), [[1, 2], [4, 5]])
    idx = T(np.array([[0, 1], [1, 2]], np.int64))
    val = T(np.array([1.0, -2.0], np.float32))
    close(ops.SparseToDense()(idx, val, (3, 4)), coo().to_dense().asnumpy())
    close(
        ops.SparseTensorDenseAdd()(idx, val, T(np.array([3, 4])), T(np.ones((3, 4), np.float32))),
        coo().to_dense().asnumpy() + 1,
    )
    dense = RNG.normal(size=(4, 2))
    close(ops.SparseTensorDenseMatmul()(idx, val, (3, 4), T(dense)), coo().to_dense().asnumpy() @ dense, 1e-6)
    d3 = RNG.normal(size=(3, 2))
    close(ops.SparseTensorDenseMatmul(True, False)(idx, val, (3, 4), T(d3)), coo().to_dense().asnumpy().T @ d3, 1e-6)
    y_i, y_v, y_s = ops.SparseSlice()(idx, val, T(np.array([3, 4])), T(np.array([0, 1])), T(np.array([2, 2])))
    assert (
        y_i.asnumpy().tolist() == [[0, 0], [1, 1]]
        and y_v.asnumpy().tolist() == [1, -2]
        and y_s.asnumpy().tolist() == [2, 2]
    )
    ci, cv, cs = ops.Coalesce()(T(np.array([[0, 0], [1, 1]])), T(np.array([1.0, 2.0])), T(np.array([2, 2])))
    assert ci.asnumpy().tolist() == [[0], [1]] and cv.asnumpy().tolist() == [3.0]


def test_sparse_tensors_pass_through_jit_and_grad():
    c = csr()
    f = ms.jit(lambda s, v: ops.csr_mv(s, v))
    vec = T(np.ones((5, 1)))
    close(f(c, vec), DENSE @ np.ones((5, 1)))
    g = ms.grad(lambda v: ops.sum(ops.csr_mv(c, v)))(vec)
    close(g, DENSE.sum(0).reshape(5, 1))
