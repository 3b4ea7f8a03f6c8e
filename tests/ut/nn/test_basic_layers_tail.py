"""Linear, BiDense, DenseBnAct, Identity, OneHot, Roll, Tril/Triu, Norm, the MatrixDiag family, L1Regularizer,
ReduceLogSumExp, Range, Moments, MatDet/MatInverse, LGamma/DiGamma/IGamma/LBeta, MatMul, TimeDistributed,
SparseToDense/SparseTensorDenseMatmul, ops.bidense, no_init_parameters: against MindSpore 2.10 (fixture) where
its CPU build has the kernel, else NumPy/SciPy; gradients; MindSpore's errors."""

import numpy as np
import pytest
import scipy.special as sp
from _seq_ref import check_case

import sporax as ms
from sporax import Parameter, Tensor, nn, ops

CASES = [
    ("linear", lambda: nn.Linear(3, 4), False),
    ("bidense", lambda: nn.BiDense(3, 4, 5), False),
    ("densebnact", lambda: nn.DenseBnAct(3, 4, has_bn=True, activation="leakyrelu"), True),
    ("reducelogsumexp", lambda: nn.ReduceLogSumExp((0, 2), keep_dims=True), False),
    ("moments", lambda: nn.Moments(axis=(0, 1), keep_dims=False), False),
    ("lgamma", lambda: nn.LGamma(), False),
    ("digamma", lambda: nn.DiGamma(), False),
    ("lbeta", lambda: nn.LBeta(), False),
    ("tril", lambda: nn.Tril(), False),
    ("triu", lambda: nn.Triu(), False),
    ("norm", lambda: nn.Norm(axis=1, keep_dims=True), False),
    ("l1regularizer", lambda: nn.L1Regularizer(0.5), False),
    ("timedistributed_reshape", lambda: nn.TimeDistributed(nn.Dense(3, 2), time_axis=1, reshape_with_axis=0), False),
    ("timedistributed_loop", lambda: nn.TimeDistributed(nn.Dense(3, 2), time_axis=1), False),
]


@pytest.mark.parametrize("name,factory,train", CASES, ids=[c[0] for c in CASES])
def test_against_mindspore(name, factory, train):
    net = factory()
    net.set_train(train)
    check_case(name, net, rtol=1e-4, atol=1e-5)


def test_numpy_checked_cells():
    rng = np.random.RandomState(0)
    a = rng.randn(3, 3).astype(np.float32)
    spd = (a @ a.T + 3 * np.eye(3)).astype(np.float32)
    np.testing.assert_allclose(float(nn.MatDet()(Tensor(spd))), np.linalg.det(spd), rtol=1e-4)
    np.testing.assert_allclose(nn.MatInverse()(Tensor(spd)).asnumpy(), np.linalg.inv(spd), rtol=1e-4, atol=1e-5)
    x = rng.randn(3, 4).astype(np.float32)
    np.testing.assert_array_equal(nn.Roll((1, -2), (0, 1))(Tensor(x)).asnumpy(), np.roll(x, (1, -2), (0, 1)))
    d = rng.randn(2, 3).astype(np.float32)
    np.testing.assert_array_equal(nn.MatrixDiag()(Tensor(d)).asnumpy(), np.stack([np.diag(r) for r in d]))
    m = rng.randn(2, 3, 4).astype(np.float32)
    np.testing.assert_array_equal(nn.MatrixDiagPart()(Tensor(m)).asnumpy(), np.diagonal(m, 0, -2, -1))
    out = nn.MatrixSetDiag()(Tensor(m), Tensor(d)).asnumpy()
    want = m.copy()
    want[:, np.arange(3), np.arange(3)] = d
    np.testing.assert_array_equal(out, want)
    aa, xx = rng.rand(4).astype(np.float32) + 0.5, rng.rand(4).astype(np.float32) * 3
    np.testing.assert_allclose(nn.IGamma()(Tensor(aa), Tensor(xx)).asnumpy(), sp.gammainc(aa, xx), rtol=1e-4)
    oh = nn.OneHot(axis=0, depth=3, on_value=5.0, off_value=-1.0)(Tensor(np.array([[0, 2, 7]], np.int32)))
    want = np.full((3, 1, 3), -1.0, np.float32)
    want[0, 0, 0] = want[2, 0, 1] = 5.0
    np.testing.assert_array_equal(oh.asnumpy(), want)
    assert nn.Range(1, 8, 2)().asnumpy().tolist() == [1, 3, 5, 7] and nn.Range(0.5, 2)().dtype == ms.float32
    assert nn.Identity(1, 2, k=3)(x) is x
    mm = nn.MatMul(transpose_x2=True)(Tensor(x), Tensor(x)).asnumpy()
    np.testing.assert_allclose(mm, x @ x.T, rtol=1e-5)
    np.testing.assert_allclose(nn.MatMul()(Tensor(x[0]), Tensor(x[0])).asnumpy(), x[0] @ x[0], rtol=1e-5)


def test_bidense_op_and_sparse_cells():
    rng = np.random.RandomState(1)
    x1, x2, w, b = rng.randn(4, 3), rng.randn(4, 5), rng.randn(2, 3, 5), rng.randn(2)
    x1, x2, w, b = (t.astype(np.float32) for t in (x1, x2, w, b))
    out = ops.bidense(Tensor(x1), Tensor(x2), Tensor(w), Tensor(b)).asnumpy()
    np.testing.assert_allclose(out, np.einsum("bi,oij,bj->bo", x1, w, x2) + b, rtol=1e-4, atol=1e-5)
    idx = Tensor(np.array([[0, 1], [2, 3], [0, 1]], np.int32))
    val = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    dense = np.zeros((3, 4), np.float32)
    dense[0, 1], dense[2, 3] = 4.0, 2.0

    class Coo:
        indices, values, shape = idx, val, (3, 4)

    np.testing.assert_array_equal(nn.SparseToDense()(Coo()).asnumpy(), dense)
    rhs = rng.randn(4, 2).astype(np.float32)
    np.testing.assert_allclose(
        nn.SparseTensorDenseMatmul()(idx, val, (3, 4), Tensor(rhs)).asnumpy(), dense @ rhs, rtol=1e-5
    )
    rhs_t = rng.randn(2, 3).astype(np.float32)
    got = nn.SparseTensorDenseMatmul(adjoint_st=True, adjoint_dt=True)(idx, val, (3, 4), Tensor(rhs_t)).asnumpy()
    np.testing.assert_allclose(got, dense.T @ rhs_t.T, rtol=1e-5)


def test_no_init_parameters_and_linear_init():
    with nn.no_init_parameters():
        assert getattr(Parameter, "init_param", True) is False
        net = nn.Linear(3, 4, bias=False)
    assert getattr(Parameter, "init_param", True) is True
    assert net.bias is None and [p.name for p in net.get_parameters()] == ["weight"]
    assert np.abs(net.weight.asnumpy()).max() <= 1 / np.sqrt(3) + 1e-6  # HeUniform(sqrt(5)) on fan_in 3


ERRORS = [
    (lambda: nn.L1Regularizer(-1), ValueError, "For 'L1Regularizer', the 'scale' must be greater than 0, but got -1."),
    (lambda: nn.Roll((1, 2), 0), ValueError, "the shape of 'shift' and the shape of 'axis' must be the same"),
    (lambda: nn.Range(1, 5, 0), ValueError, "For 'Range', the 'delta' can not be zero."),
    (lambda: nn.TimeDistributed(3, 1), TypeError, "the 'layer' must be Cell or Primitive instance"),
    (
        lambda: nn.TimeDistributed(nn.ReLU(), 1)(Tensor(np.ones((2, 3), np.float32))),
        ValueError,
        "the inputs shape must be at least 3D, but got 2.",
    ),
    (lambda: nn.Linear(0, 3), ValueError, "For 'Linear', the 'in_features' must be int and must > 0"),
    (
        lambda: nn.BiDense(3, 4, 5)(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 4), np.float32))),
        ValueError,
        "the last dimension of 'input1' must be equal to 'in1_channels'",
    ),
    (lambda: nn.Moments(axis=1)(Tensor(np.ones((2, 2), np.int32))), TypeError, "For 'Moments', the 'input x'"),
    (
        lambda: nn.MatMul()(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3), np.float32))),
        ValueError,
        "must be equal to the 'x2' row",
    ),
]


@pytest.mark.parametrize("fn,err,msg", ERRORS)
def test_errors(fn, err, msg):
    with pytest.raises(err) as info:
        fn()
    assert msg in str(info.value)
