"""Gradient clipping: nn.ClipByNorm, ops.clip_by_global_norm and ops.clip_by_norm against values computed by
MindSpore 2.10 (CPU) on the same inputs, and inside a compiled step."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

RNG = np.random.RandomState(0)
A = RNG.randn(3, 4).astype(np.float32)
B = RNG.randn(5).astype(np.float32)
ONE = Tensor(np.array([1.0], np.float32))


def test_clip_by_norm_cell_all_dims():
    out = nn.ClipByNorm()(Tensor(A), ONE)
    assert out.shape == (3, 4) and out.dtype == ms.float32
    np.testing.assert_allclose(
        out.asnumpy().ravel()[:3], [0.42866751551628113, 0.09723883867263794, 0.2378348857164383], rtol=1e-6
    )
    np.testing.assert_allclose(np.linalg.norm(out.asnumpy()), 1.0, rtol=1e-6)


def test_clip_by_norm_cell_axis():
    # MindSpore 2.10's CPU kernel agrees on row 0 only (its rows 1 and 2 do not have the norm they are
    # clipped to); these are the documented formula's values
    out = nn.ClipByNorm(axis=1)(Tensor(A), ONE).asnumpy()
    np.testing.assert_allclose(out[0], [0.57996863, 0.13155994, 0.32178032, 0.7367399], rtol=1e-6)
    np.testing.assert_allclose(out, A / np.maximum(np.linalg.norm(A, axis=1, keepdims=True), 1.0), rtol=1e-6)
    rows = nn.ClipByNorm(axis=1)(Tensor(A), Tensor(np.array([[1.0], [2.0], [0.5]], np.float32))).asnumpy()
    norms = np.linalg.norm(A, axis=1, keepdims=True)
    np.testing.assert_allclose(
        rows, A * np.array([[1.0], [2.0], [0.5]]) / np.maximum(norms, [[1.0], [2.0], [0.5]]), rtol=1e-6
    )
    cols = nn.ClipByNorm(axis=0)(Tensor(A), Tensor(1.0)).asnumpy()
    np.testing.assert_allclose(cols, A / np.maximum(np.linalg.norm(A, axis=0, keepdims=True), 1.0), rtol=1e-6)
    both = nn.ClipByNorm(axis=(0, 1))(Tensor(A), ONE).asnumpy()
    np.testing.assert_allclose(both, nn.ClipByNorm()(Tensor(A), ONE).asnumpy(), rtol=1e-7)


def test_clip_by_norm_cell_no_clip_half_precision_and_zeros():
    np.testing.assert_allclose(
        nn.ClipByNorm()(Tensor(A), Tensor(np.array([100.0], np.float32))).asnumpy(), A, rtol=1e-6
    )
    half = nn.ClipByNorm()(Tensor(A.astype(np.float16)), ONE)
    assert half.dtype == ms.float32  # MindSpore's output type
    np.testing.assert_allclose(
        half.asnumpy().ravel()[:3], [0.4286614656448364, 0.09725583344697952, 0.23782879114151], rtol=1e-6
    )
    zeros = nn.ClipByNorm(axis=1)(Tensor(np.zeros((2, 3), np.float32)), ONE)
    assert not zeros.asnumpy().any() and np.isfinite(zeros.asnumpy()).all()
    g = ms.grad(lambda x: nn.ClipByNorm()(x, ONE).sum())(Tensor(np.zeros((2, 2), np.float32)))
    assert np.isfinite(g.asnumpy()).all()


def test_clip_by_norm_cell_errors():
    with pytest.raises(
        TypeError, match="the type of 'axis' should be one of '\\['int', 'tuple', 'list'\\]', but got type 'float'"
    ):
        nn.ClipByNorm(axis=1.5)
    with pytest.raises(
        TypeError, match="the input argument\\[x\\] must be a type of \\{Float16, Float32, BFloat16\\}, but got Int32"
    ):
        nn.ClipByNorm()(Tensor(np.ones(2, np.int32)), ONE)
    with pytest.raises(ValueError, match="out of range"):
        nn.ClipByNorm(axis=2)(Tensor(A), ONE)
    assert repr(nn.ClipByNorm(axis=1)) == "ClipByNorm(axis=1)"


def test_clip_by_global_norm_mindspore_values():
    out = ops.clip_by_global_norm((Tensor(A), Tensor(B)), 1.0)
    assert isinstance(out, tuple) and [o.shape for o in out] == [(3, 4), (5,)]
    np.testing.assert_allclose(
        out[0].asnumpy().ravel()[:3], [0.393770694732666, 0.08932285010814667, 0.21847330033779144], rtol=1e-6
    )
    np.testing.assert_allclose(
        out[1].asnumpy()[:3], [0.16987837851047516, 0.027160223573446274, 0.09907888621091843], rtol=1e-6
    )
    big = ops.clip_by_global_norm([Tensor(A), Tensor(B)], 100.0)
    np.testing.assert_allclose(big[0].asnumpy(), A, rtol=1e-6)
    two = ops.clip_by_global_norm((Tensor(A), Tensor(B)), 2)
    np.testing.assert_allclose(
        two[0].asnumpy().ravel()[:3], [0.7875415682792664, 0.17864574491977692, 0.43694669008255005], rtol=1e-6
    )
    half = ops.clip_by_global_norm((Tensor(A.astype(np.float16)), Tensor(B)), 1.0)
    assert half[0].dtype == ms.float16 and half[1].dtype == ms.float32
    np.testing.assert_allclose(
        half[1].asnumpy()[:3], [0.16986726224422455, 0.027158444747328758, 0.0990723967552185], rtol=1e-3
    )


def test_clip_by_norm_function_mindspore_values():
    two = ops.clip_by_norm((Tensor(A), Tensor(B)), 1.0)
    np.testing.assert_allclose(
        two[0].asnumpy().ravel()[:3], [0.393770694732666, 0.08932285010814667, 0.21847330033779144], rtol=1e-6
    )
    inf = ops.clip_by_norm((Tensor(A), Tensor(B)), 1.0, norm_type=float("inf"))
    np.testing.assert_allclose(
        inf[0].asnumpy().ravel()[:3], [0.7872092127799988, 0.17857034504413605, 0.4367623031139374], rtol=1e-6
    )
    single = ops.clip_by_norm(Tensor(A), 1.0)
    assert isinstance(single, Tensor)
    np.testing.assert_allclose(
        single.asnumpy().ravel()[:3], [0.42866745591163635, 0.09723882377147675, 0.2378348559141159], rtol=1e-6
    )


def test_clipping_inside_a_compiled_train_step():
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = nn.SGD(net.trainable_params(), 0.5)
    with_loss = nn.WithLossCell(net, nn.MSELoss())
    grad_fn = ms.value_and_grad(with_loss, None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(ops.clip_by_global_norm(grads, 1.0))
        return loss

    step(Tensor(np.array([[1.0, 2.0]], np.float32)), Tensor(np.zeros((1, 1), np.float32)))
    g = np.array([6.0, 12.0, 6.0]) / np.linalg.norm([6.0, 12.0, 6.0])
    np.testing.assert_allclose(net.weight.asnumpy(), [[1 - 0.5 * g[0], 1 - 0.5 * g[1]]], rtol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), [-0.5 * g[2]], rtol=1e-6)
