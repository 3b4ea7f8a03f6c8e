"""Forward-mode derivatives (``ops.jvp``, ``ops.jacfwd``, ``ops.linearize``) through the layers whose CPU
lowerings have hand-written backward passes (custom VJPs: GEMM / channels-last / per-tap convolutions, block
max-pools, the RNN scan). Forward mode cannot go through a custom VJP, so sporax traces the plain forms there
(``ops._lowering.forward_mode``); each tangent is checked against reverse mode through the fast lowerings:
``<u, J v>`` from ``jvp`` equals ``<J^T u, v>`` from ``grad``, in float64."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops


class _Head(nn.Cell):
    """The first output of ``cell`` (the RNNs return tuples)."""

    def __init__(self, cell):
        super().__init__()
        self.cell = cell

    def construct(self, x):
        out = self.cell(x)
        return out[0] if isinstance(out, tuple) else out


def _cases():
    f64 = ms.float64
    return {
        "conv_rgb_stem": (nn.Conv2d(3, 8, 3, pad_mode="same", dtype=f64), (2, 3, 8, 8)),
        "conv_channels_last": (nn.Conv2d(16, 16, 3, pad_mode="same", dtype=f64), (2, 16, 8, 8)),
        "conv_per_tap_4x4": (nn.Conv2d(16, 8, 3, pad_mode="same", dtype=f64), (2, 16, 4, 4)),
        "conv_1x1_strided": (nn.Conv2d(16, 8, 1, stride=2, dtype=f64), (2, 16, 8, 8)),
        "conv_pool": (
            nn.SequentialCell([nn.Conv2d(1, 6, 5, pad_mode="valid", dtype=f64), nn.ReLU(), nn.MaxPool2d(2, 2)]),
            (2, 1, 12, 12),
        ),
        "conv3d": (nn.Conv3d(4, 4, 3, pad_mode="same", dtype=f64), (1, 4, 4, 4, 4)),
        "conv_transpose": (nn.Conv2dTranspose(16, 8, 3, stride=2, pad_mode="same", dtype=f64), (1, 16, 4, 4)),
        "lstm": (nn.LSTM(6, 8, num_layers=2, bidirectional=True, batch_first=True, dtype=f64), (2, 5, 6)),
        "gru": (nn.GRU(6, 8, batch_first=True, dtype=f64), (2, 5, 6)),
    }


@pytest.mark.parametrize("name", sorted(_cases()))
def test_jvp_matches_reverse_mode(name):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    cell, shape = _cases()[name]
    net = _Head(cell)
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal(shape))
    v = Tensor(rng.standard_normal(shape))
    out, tangent = ops.jvp(net, x, v)
    np.testing.assert_allclose(out.asnumpy(), net(x).asnumpy(), rtol=1e-12, atol=1e-12)
    u = Tensor(rng.standard_normal(out.shape))
    pullback = ops.grad(lambda t: (net(t) * u).sum())(x)  # reverse mode: the custom VJPs
    forward = float((tangent.asnumpy() * u.asnumpy()).sum())
    reverse = float((pullback.asnumpy() * v.asnumpy()).sum())
    assert forward == pytest.approx(reverse, rel=1e-9, abs=1e-9)


def test_jacfwd_and_linearize_through_a_convolution():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    conv = nn.Conv2d(16, 4, 3, pad_mode="same", has_bias=True, dtype=ms.float64)
    rng = np.random.default_rng(1)
    x = Tensor(rng.standard_normal((1, 16, 4, 4)))
    jac = ops.jacfwd(conv)(x).asnumpy().reshape(4 * 4 * 4, 16 * 4 * 4)
    jac_rev = ops.jacrev(conv)(x).asnumpy().reshape(4 * 4 * 4, 16 * 4 * 4)
    np.testing.assert_allclose(jac, jac_rev, rtol=1e-12, atol=1e-12)
    v = rng.standard_normal((1, 16, 4, 4))
    out, lin = ops.linearize(conv, x)
    np.testing.assert_allclose(lin(Tensor(v)).asnumpy().reshape(-1), jac @ v.reshape(-1), rtol=1e-10, atol=1e-10)
    # the conv is linear in x: its jvp is the conv of v without the bias
    ref = conv(Tensor(v)).asnumpy() - conv.bias.asnumpy()[None, :, None, None]
    np.testing.assert_allclose(lin(Tensor(v)).asnumpy(), ref, rtol=1e-10, atol=1e-10)
