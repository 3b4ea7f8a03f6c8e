"""The channels-last CPU convolutions ('nhwc': padding inside the windows, 1x1 ones as a GEMM) against
``lax.conv``'s own autodiff ('plain') in float64: values and both gradients, on the paddings the windows
cannot hold (wider than the kernel: the input gradient crops instead of padding negatively), strides that
leave rows unused, 1x1 convolutions (strided, padded), 3-D and transposed convolutions."""

import jax
import numpy as np
import pytest

from sporax.ops import _lowering as L
from sporax.ops._lowering import conv as C

pytestmark = pytest.mark.skipif(jax.default_backend() != "cpu", reason="the CPU lowering")


def _values_and_grads(fn, *arrays):
    """``fn``'s value and the gradients of <fn(...), probe> for every operand, under each lowering."""
    out = {}
    for lowering in ("plain", "nhwc"):
        with L.force_lowering(conv=lowering):
            y = jax.jit(fn)(*arrays)
            probe = np.random.default_rng(3).standard_normal(y.shape)
            grads = jax.jit(jax.grad(lambda *a: (fn(*a) * probe).sum(), tuple(range(len(arrays)))))(*arrays)
        out[lowering] = [np.asarray(y), *map(np.asarray, grads)]
    return out


def _assert_same(out):
    for got, want in zip(out["nhwc"], out["plain"]):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


# (C, O, kernel, stride, pads, dilation, H, W)
CASES_2D = [
    (3, 4, (3, 3), (2, 2), [(3, 3), (3, 3)], (1, 1), (7, 6)),  # padding wider than the kernel's reach
    (2, 3, (1, 1), (1, 1), [(1, 2), (0, 1)], (1, 1), (5, 4)),  # padded 1x1: a convolution, not a GEMM
    (4, 3, (1, 1), (2, 3), [(0, 0), (0, 0)], (1, 1), (7, 8)),  # strided 1x1: the GEMM path
    (2, 2, (3, 2), (3, 2), [(0, 2), (1, 0)], (2, 1), (11, 9)),  # dilated, asymmetric, unused last rows
    (3, 2, (2, 2), (1, 1), [(0, 0), (4, 0)], (1, 1), (4, 4)),  # one-sided padding past the kernel
]


@pytest.mark.parametrize("case", CASES_2D)
def test_conv2d_nhwc_matches_lax_autodiff(case):
    c, o, k, s, pads, d, hw = case
    rng = np.random.default_rng(abs(hash(repr(case))) % 2**32)
    x, w = rng.standard_normal((2, c, *hw)), rng.standard_normal((o, c, *k))
    _assert_same(_values_and_grads(lambda x, w: L.conv2d_array(x, w, s, pads, d, 1), x, w))


@pytest.mark.parametrize("case", [CASES_2D[0], CASES_2D[3]])
def test_conv2d_nhwc_weight_gradient_in_batch_chunks(case, monkeypatch):
    """Large batches sum the weight gradient over batch chunks in a loop, and a strided convolution's input
    gradient runs chunk by chunk: here one image per chunk."""
    monkeypatch.setattr(C, "_WGRAD_CHUNK_BYTES", 1)
    monkeypatch.setattr(C, "_WGRAD_CHUNK_MIN_OUT", 1)
    monkeypatch.setattr(C, "_DGRAD_WHOLE_BYTES", 0)  # strided: the input gradient in chunks too
    monkeypatch.setattr(C, "_DGRAD_CHUNK_BYTES", 1)
    c, o, k, s, pads, d, hw = case
    rng = np.random.default_rng(11)
    x, w = rng.standard_normal((3, c, *hw)), rng.standard_normal((o, c, *k))
    _assert_same(_values_and_grads(lambda x, w: L.conv2d_array(x, w, s, pads, d, 1), x, w))
    jaxpr = str(jax.make_jaxpr(jax.grad(lambda x, w: L.conv2d_array(x, w, s, pads, d, 1, "nhwc").sum(), (0, 1)))(x, w))
    assert jaxpr.count("scan") == 2


def test_conv3d_nhwc_matches_lax_autodiff():
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((2, 2, 5, 4, 6)), rng.standard_normal((3, 2, 2, 3, 1))
    fn = lambda x, w: L.conv_nd_array(x, w, (2, 1, 2), [(2, 2), (0, 1), (1, 0)], (1, 2, 1), 1)  # noqa: E731
    _assert_same(_values_and_grads(fn, x, w))


@pytest.mark.parametrize(
    "stride, pads, out_shape",
    [
        ((2, 2), [(1, 1), (0, 1)], (7, 8)),  # as conv_transpose2d with padding gives
        ((2, 1), [(0, 0), (2, 2)], (10, 2)),  # output_padding: longer than the windows reach
        ((3, 2), [(1, 2), (0, 1)], (11, 9)),  # both: padding cropped, output_padding added
    ],
)
def test_conv_transpose_nhwc_matches_lax_autodiff(stride, pads, out_shape):
    rng = np.random.default_rng(sum(out_shape))
    x, w = rng.standard_normal((2, 3, 4, 4)), rng.standard_normal((3, 2, 3, 3))
    fn = lambda x, w: L.conv_transpose_array(x, w, stride, pads, (1, 1), 1, out_shape)  # noqa: E731
    _assert_same(_values_and_grads(fn, x, w))
