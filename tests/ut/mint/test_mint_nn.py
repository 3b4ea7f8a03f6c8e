"""``sporax.mint.nn`` layers: PyTorch constructors over sporax.nn / mint.nn.functional, checked against NumPy."""

import numpy as np
import pytest

import sporax as ms
from sporax import mint
from sporax.mint import nn as mnn
from sporax.mint.nn import functional as F

T = ms.Tensor
RNG = np.random.default_rng(0)
X4 = RNG.standard_normal((2, 2, 4, 4)).astype(np.float32)
X = RNG.standard_normal((2, 3)).astype(np.float32)

ACTS = [
    (mnn.ELU(0.5), np.where(X > 0, X, 0.5 * np.expm1(X))),
    (mnn.GELU(), F.gelu(T(X)).asnumpy()),
    (mnn.Hardshrink(0.5), np.where(np.abs(X) > 0.5, X, 0)),
    (mnn.Hardsigmoid(), np.clip(X / 6 + 0.5, 0, 1)),
    (mnn.Hardswish(), X * np.clip(X / 6 + 0.5, 0, 1)),
    (mnn.Hardtanh(-0.5, 0.5), np.clip(X, -0.5, 0.5)),
    (mnn.LogSoftmax(1), X - np.log(np.exp(X).sum(1, keepdims=True))),
    (mnn.Softmax(0), np.exp(X) / np.exp(X).sum(0)),
    (mnn.Mish(), X * np.tanh(np.log1p(np.exp(X)))),
    (mnn.SELU(), 1.0507009873554805 * np.where(X > 0, X, 1.6732632423543772 * np.expm1(X))),
    (mnn.ReLU6(), np.clip(X, 0, 6)),
    (mnn.SiLU(), X / (1 + np.exp(-X))),
    (mnn.Threshold(0.1, 20.0), np.where(X > 0.1, X, 20.0)),
    (mnn.ZeroPad1d((1, 2)), np.pad(X, ((0, 0), (1, 2)))),
    (mnn.ZeroPad3d(1), np.pad(X[None], 1)[1:-1] if False else np.pad(X[None], 1)),
]


@pytest.mark.parametrize("cell,ref", ACTS, ids=[type(a[0]).__name__ for a in ACTS])
def test_parameter_free_layers(cell, ref):
    x = T(X[None]) if isinstance(cell, mnn.ZeroPad3d) else T(X)
    np.testing.assert_allclose(cell(x).asnumpy(), ref, rtol=1e-5, atol=1e-6)


def test_losses_and_pools():
    t01 = (X > 0).astype(np.float32)
    p = 1 / (1 + np.exp(-X))
    np.testing.assert_allclose(
        mnn.BCEWithLogitsLoss()(T(X), T(t01)).asnumpy(),
        -(t01 * np.log(p) + (1 - t01) * np.log(1 - p)).mean(),
        rtol=1e-5,
    )
    d = np.abs(X)
    np.testing.assert_allclose(
        mnn.SmoothL1Loss()(T(X), T(np.zeros_like(X))).asnumpy(), np.where(d < 1, 0.5 * d * d, d - 0.5).mean(), rtol=1e-5
    )
    lp = np.log(np.full((2, 3), 1 / 3, np.float32))
    np.testing.assert_allclose(
        mnn.KLDivLoss("sum")(T(lp), T(np.full((2, 3), 1 / 3, np.float32))).asnumpy(), 0.0, atol=1e-6
    )
    ref = X4.reshape(2, 2, 2, 2, 2, 2).mean((3, 5))
    np.testing.assert_allclose(mnn.AvgPool2d(2)(T(X4)).asnumpy(), ref, rtol=1e-5)
    assert mnn.AvgPool1d(2)(T(X4[:, :, 0])).shape == (2, 2, 2)
    assert mnn.AvgPool3d(2)(T(X4[None])).shape == (1, 2, 1, 2, 2)
    assert mnn.AdaptiveMaxPool1d(2)(T(X4[:, :, 0])).shape == (2, 2, 2)
    cols = mnn.Unfold(2, stride=2)(T(X4))
    assert cols.shape == (2, 8, 4)
    np.testing.assert_allclose(mnn.Fold((4, 4), 2, stride=2)(cols).asnumpy(), X4, rtol=1e-6)
    assert mnn.UpsamplingNearest2d(scale_factor=2.0)(T(X4)).shape == (2, 2, 8, 8)
    up = mnn.UpsamplingBilinear2d(size=(7, 7))(T(X4)).asnumpy()
    np.testing.assert_allclose(up[..., 0, 0], X4[..., 0, 0], rtol=1e-5)
    np.testing.assert_allclose(up[..., -1, -1], X4[..., -1, -1], rtol=1e-5)


def test_conv_layers():
    ms.set_seed(0)
    conv = mnn.Conv2d(2, 3, 3, padding=1)
    assert conv.weight.shape == (3, 2, 3, 3) and conv.bias.shape == (3,)
    out = conv(T(X4))
    ref = F.conv2d(T(X4), conv.weight, conv.bias, 1, 1)
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-6)
    assert out.shape == (2, 3, 4, 4)
    bound = 1 / np.sqrt(2 * 9)
    assert np.abs(conv.weight.asnumpy()).max() <= bound + 1e-6
    assert mnn.Conv2d(2, 4, 3, stride=2, padding="valid", bias=False)(T(X4)).shape == (2, 4, 1, 1)
    circ = mnn.Conv2d(2, 1, 3, padding=1, padding_mode="circular", bias=False)
    xp = np.pad(X4, ((0, 0), (0, 0), (1, 1), (1, 1)), "wrap")
    np.testing.assert_allclose(circ(T(X4)).asnumpy(), F.conv2d(T(xp), circ.weight).asnumpy(), rtol=1e-5)
    assert mnn.Conv1d(2, 3, 2, groups=1)(T(X4[:, :, 0])).shape == (2, 3, 3)
    assert mnn.Conv3d(2, 2, 1, groups=2)(T(X4[:, :, None])).shape == (2, 2, 1, 4, 4)
    ct = mnn.ConvTranspose2d(2, 3, 2, stride=2)
    assert ct.weight.shape == (2, 3, 2, 2) and ct(T(X4)).shape == (2, 3, 8, 8)
    with pytest.raises(
        ValueError, match="For 'Conv2d', 'in_channels' and 'out_channels' must be divisible by 'groups'"
    ):
        mnn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="'padding_mode'"):
        mnn.Conv2d(2, 4, 3, padding_mode="bad")


def test_norm_layers():
    bn = mnn.BatchNorm2d(2, momentum=0.2)
    bn.set_train(True)
    out = bn(T(X4)).asnumpy()
    mu, var = X4.mean((0, 2, 3)), X4.var((0, 2, 3))
    np.testing.assert_allclose(out, (X4 - mu[:, None, None]) / np.sqrt(var[:, None, None] + 1e-5), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.2 * mu, rtol=1e-4, atol=1e-6)
    bn1 = mnn.BatchNorm1d(2)
    bn1.set_train(True)
    x3 = X4[:, :, 0]
    np.testing.assert_allclose(bn1(T(x3)).asnumpy().mean((0, 2)), 0, atol=1e-5)
    assert mnn.BatchNorm3d(2)(T(X4[:, :, None])).shape == (2, 2, 1, 4, 4)
    assert mnn.SyncBatchNorm(2).moving_mean.shape == (2,)
    gn = mnn.GroupNorm(1, 2)
    g = gn(T(X4)).asnumpy()
    np.testing.assert_allclose(g.reshape(2, -1).mean(1), 0, atol=1e-5)
    pr = mnn.PReLU(2, 0.1)
    np.testing.assert_allclose(pr(T(X4)).asnumpy(), np.where(X4 > 0, X4, 0.1 * X4), rtol=1e-6)
    assert len(list(mint.nn.Linear(3, 2).get_parameters())) == 2
