"""Batch norm in the order the CPU convolution left its result in (``_lowering.layout``): the same values,
gradients and running statistics as batch norm in NCHW, after channels-last ('nhwc') and [C, B, H, W]
('gemm') convolutions, in training and inference, float64 and float16."""

import jax
import numpy as np
import pytest

import sporax as ms
from sporax import ops
from sporax.ops import _lowering as L
from sporax.ops._lowering import layout
from sporax.ops.function import nn_func

pytestmark = pytest.mark.skipif(jax.default_backend() != "cpu", reason="the CPU lowering")


def _block(x, w, w2, gamma, beta, training, mean=None, var=None):
    """conv -> batch norm -> relu -> conv -> batch norm: the ResNet pattern the hints are for."""
    y = ops.conv2d(x, w, pad_mode="pad", padding=(1, 0, 2, 1), stride=(2, 1))
    y = ops.relu(nn_func.batch_norm(y, mean, var, gamma, beta, training=training, momentum=0.3))
    y = ops.conv2d(y, w2, pad_mode="pad", padding=1)
    y = nn_func.batch_norm(y, None if training else mean, None if training else var, gamma, beta, training)
    return y._data


def _run(lowering, hints, monkeypatch, dtype, training):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 2, 7, 5)).astype(dtype)
    w = rng.standard_normal((4, 2, 3, 2)).astype(dtype)
    w2 = rng.standard_normal((4, 4, 3, 3)).astype(dtype)
    gamma, beta = rng.standard_normal(4).astype(dtype), rng.standard_normal(4).astype(dtype)
    mean, var = rng.standard_normal(4).astype(dtype), rng.uniform(0.5, 2, 4).astype(dtype)
    seen = []
    real = layout.physical_perm
    with monkeypatch.context() as m:
        m.setattr(layout, "physical_perm", lambda x: seen.append(real(x)) or seen[-1] if hints else None)
        with L.force_lowering(conv=lowering):
            fn = lambda *a: _block(*a, training, mean, var)  # noqa: E731
            y = jax.jit(fn)(x, w, w2, gamma, beta)
            probe = rng.standard_normal(y.shape).astype(dtype)
            grads = jax.jit(jax.grad(lambda *a: (fn(*a).astype(np.float64) * probe).sum(), tuple(range(5))))(
                x, w, w2, gamma, beta
            )
    assert not hints or {"nhwc": (0, 2, 3, 1), "gemm": (1, 0, 2, 3)}[lowering] in seen  # the hint was taken
    return [np.asarray(y), *map(np.asarray, grads)]


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("lowering", ["nhwc", "gemm"])
def test_batch_norm_in_the_convolutions_order_matches_nchw(lowering, training, monkeypatch):
    with jax.enable_x64():
        got = _run(lowering, True, monkeypatch, np.float64, training)
        want = _run(lowering, False, monkeypatch, np.float64, training)
    for g, v in zip(got, want):
        assert g.shape == v.shape
        np.testing.assert_allclose(g, v, rtol=1e-9, atol=1e-9)


def test_batch_norm_in_the_convolutions_order_float16(monkeypatch):
    got = _run("nhwc", True, monkeypatch, np.float16, True)
    want = _run("nhwc", False, monkeypatch, np.float16, True)
    for g, v in zip(got, want):
        assert g.dtype == v.dtype
        np.testing.assert_allclose(g.astype(np.float32), v.astype(np.float32), rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("lowering", ["nhwc", "gemm"])
def test_batch_norm_layer_running_statistics(lowering, monkeypatch):
    """nn.Conv2d -> nn.BatchNorm2d in training: output and moving statistics as without the hint."""
    x = ms.Tensor(np.random.default_rng(1).standard_normal((4, 3, 6, 5)).astype(np.float32))
    out = {}
    for hints in (True, False):
        ms.set_seed(0)
        net = ms.nn.SequentialCell([ms.nn.Conv2d(3, 5, 3, pad_mode="pad", padding=1), ms.nn.BatchNorm2d(5)])
        net.set_train()
        with monkeypatch.context() as m:
            if not hints:
                m.setattr(layout, "physical_perm", lambda x: None)
            with L.force_lowering(conv=lowering):
                y = net(x).asnumpy()
        bn = net[1]
        out[hints] = (y, bn.moving_mean.asnumpy(), bn.moving_variance.asnumpy())
    assert not np.allclose(out[True][1], 0)  # the statistics moved
    for g, v in zip(out[True], out[False]):
        np.testing.assert_allclose(g, v, rtol=1e-5, atol=1e-6)


def test_layout_hints_mark_only_the_tagged_array():
    x = jax.numpy.arange(24.0).reshape(1, 2, 3, 4)
    assert layout.physical_perm(x) is None
    y = layout.from_physical(x, (0, 2, 3, 1))  # x read as NHWC [1, 2, 3, 4]: y is NCHW [1, 4, 2, 3]
    assert y.shape == (1, 4, 2, 3) and layout.physical_perm(y) == (0, 2, 3, 1)
    np.testing.assert_array_equal(layout.to_physical(y, (0, 2, 3, 1)), x)
    assert layout.physical_perm(y + 1) is None
    assert layout.tag(np.float32(1), (0,)) == 1  # not weak-referenceable: no hint, no error


# ---------------------------------------------------------------- 'gemm_cl': im2col + GEMM, channels last
# (C, O, kernel, stride, pads, dilation, H, W)
GEMM_CL_CASES = [
    (3, 16, (3, 3), (1, 1), [(1, 1), (1, 1)], (1, 1), (6, 5)),  # an RGB stem
    (3, 4, (3, 3), (2, 2), [(3, 3), (3, 3)], (1, 1), (7, 6)),  # padding wider than the kernel's reach
    (2, 2, (3, 2), (3, 2), [(0, 2), (1, 0)], (2, 1), (11, 9)),  # dilated, asymmetric, unused last rows
    (4, 3, (1, 1), (2, 3), [(0, 0), (0, 0)], (1, 1), (7, 8)),  # strided 1x1
]


@pytest.mark.parametrize("case", GEMM_CL_CASES)
def test_conv2d_gemm_cl_matches_lax_autodiff(case):
    c, o, k, s, pads, d, hw = case
    rng = np.random.default_rng(11)
    x, w = rng.standard_normal((2, c, *hw)), rng.standard_normal((o, c, *k))
    out = {}
    with jax.enable_x64():
        for lowering in ("plain", "gemm_cl"):
            fn = lambda x, w, lowering=lowering: L.conv2d_array(x, w, s, pads, d, 1, lowering=lowering)  # noqa: E731
            y = jax.jit(fn)(x, w)
            probe = np.random.default_rng(3).standard_normal(y.shape)
            grads = jax.jit(jax.grad(lambda x, w: (fn(x, w) * probe).sum(), (0, 1)))(x, w)
            out[lowering] = [np.asarray(y), *map(np.asarray, grads)]
    assert out["gemm_cl"][0].dtype == np.float64
    for got, want in zip(out["gemm_cl"], out["plain"]):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize(
    "xshape, wshape, groups, dtype, want",
    [
        ((64, 3, 34, 34), (64, 3, 3, 3), 1, np.float32, "gemm_cl"),  # ResNet-18's stem, batch 64
        ((32, 1, 32, 32), (6, 1, 5, 5), 1, np.float32, "gemm"),  # LeNet5's layers: [C, B, H, W]
        ((32, 6, 14, 14), (16, 6, 5, 5), 1, np.float32, "gemm"),
        ((16, 16, 18, 18), (32, 16, 3, 3), 1, np.float32, "nhwc"),  # wider layers stay channels last
        ((16, 16, 16, 16), (32, 16, 1, 1), 1, np.float32, "nhwc"),
        ((8, 16, 10, 10), (16, 4, 3, 3), 4, np.float32, "gemm"),  # grouped: no channels-last lowering
        ((64, 3, 34, 34), (64, 3, 3, 3), 1, np.float16, "plain"),
    ],
)
def test_conv_lowering_choice(xshape, wshape, groups, dtype, want):
    x, w = jax.ShapeDtypeStruct(xshape, dtype), jax.ShapeDtypeStruct(wshape, dtype)
    assert L.conv_lowering(x, w, (1, 1), (1, 1), groups) == want


def test_gemm_cl_result_is_tagged_channels_last():
    x, w = np.ones((2, 3, 5, 5), np.float32), np.ones((16, 3, 3, 3), np.float32)
    y = L.conv2d_array(x, w, (1, 1), [(1, 1), (1, 1)], (1, 1), 1, lowering="gemm_cl")
    assert y.shape == (2, 16, 5, 5) and layout.physical_perm(y) == (0, 2, 3, 1)
    np.testing.assert_allclose(np.asarray(y)[:, :, 2, 2], 27.0)


@pytest.mark.parametrize("lowering", ["nhwc", "gemm", "gemm_cl"])
def test_conv_bias_keeps_the_hint(lowering, monkeypatch):
    """A convolution's bias is added in the lowering's order: batch norm after a biased convolution still
    computes there, with the values of NCHW."""
    rng = np.random.default_rng(5)
    x, w, b = rng.standard_normal((2, 3, 6, 5)), rng.standard_normal((16, 3, 3, 3)), rng.standard_normal(16)
    gamma, beta = rng.standard_normal(16), rng.standard_normal(16)

    def fn(x, w, b):
        y = ops.conv2d(x, w, b, pad_mode="pad", padding=1)
        assert layout.physical_perm(y._data) == {"gemm": (1, 0, 2, 3)}.get(lowering, (0, 2, 3, 1))
        return nn_func.batch_norm(y, None, None, gamma, beta, training=True)._data

    out = []
    with jax.enable_x64(), L.force_lowering(conv=lowering):
        for hints in (True, False):
            with monkeypatch.context() as m:
                if not hints:
                    m.setattr(layout, "physical_perm", lambda x: None)
                    fn_ = lambda x, w, b: (  # noqa: E731
                        nn_func.batch_norm(
                            ops.conv2d(x, w, b, pad_mode="pad", padding=1), None, None, gamma, beta, training=True
                        )._data
                    )
                else:
                    fn_ = fn
                y = jax.jit(fn_)(x, w, b)
                gb = jax.grad(lambda *a: (fn_(*a) ** 3).sum(), (0, 1, 2))(x, w, b)
                out.append([np.asarray(y), *map(np.asarray, gb)])
    for g, v in zip(*out):
        np.testing.assert_allclose(g, v, rtol=1e-9, atol=1e-9)
