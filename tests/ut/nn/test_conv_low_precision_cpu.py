"""float16 and bfloat16 convolutions on CPU compute in float32 (operands widened, the result rounded back once):
their values and gradients equal the float32 convolution of the same operands, rounded, in a GRAPH step and in
sink mode (inside a while loop, where XLA:CPU's plain low-precision convolutions ran their backward as naive
loops: LeNet5 b32's bfloat16 step 9.5 ms sunk against 1.1 ms in float32)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax.ops import _lowering as L

CASES = [  # (x shape, w shape, stride, pads)
    ((2, 1, 12, 12), (6, 1, 5, 5), (1, 1), [(0, 0), (0, 0)]),  # LeNet's first layer ("gemm" in float32)
    ((2, 16, 9, 9), (16, 16, 3, 3), (2, 2), [(1, 1), (1, 1)]),
]


def _ops(dtype, xs, ws):
    rng = np.random.RandomState(0)
    x = jnp.asarray(rng.randn(*xs), dtype)
    w = jnp.asarray(rng.randn(*ws) * 0.2, dtype)
    return x, w


@pytest.mark.skipif(jax.default_backend() != "cpu", reason="the CPU lowering")
@pytest.mark.parametrize("dtype", [jnp.bfloat16, jnp.float16])
@pytest.mark.parametrize("case", CASES)
def test_low_precision_conv_is_the_rounded_float32_conv(dtype, case):
    xs, ws, stride, pads = case
    x, w = _ops(dtype, xs, ws)

    def conv(x, w):
        return L.conv2d_array(x, w, stride, pads, (1, 1), 1)

    def ref(x, w):  # float32 arithmetic on the same (already rounded) operands, rounded once
        f = jnp.float32
        return jax.lax.conv_general_dilated(x.astype(f), w.astype(f), stride, pads).astype(x.dtype)

    y = jax.jit(conv)(x, w)
    assert y.dtype == dtype
    np.testing.assert_array_equal(np.asarray(y, np.float32), np.asarray(ref(x, w), np.float32))
    ct = jnp.ones_like(y)
    g = jax.jit(jax.vjp(conv, x, w)[1])(ct)
    r = jax.vjp(ref, x, w)[1](ct)
    for a, b in zip(g, r):
        assert a.dtype == dtype
        np.testing.assert_allclose(np.asarray(a, np.float32), np.asarray(b, np.float32), rtol=1e-2, atol=1e-2)

    # the same convolution and its gradient inside a while loop (what sink mode compiles) give the same
    def loop(x, w):
        def body(c, _):
            y, vjp = jax.vjp(conv, x, w)
            return c, (y, *vjp(ct))

        return jax.lax.scan(body, 0, None, length=2)[1]

    ys, gx, gw = jax.jit(loop)(x, w)
    np.testing.assert_array_equal(np.asarray(ys[1], np.float32), np.asarray(y, np.float32))
    np.testing.assert_array_equal(np.asarray(gx[1], np.float32), np.asarray(g[0], np.float32))
    np.testing.assert_array_equal(np.asarray(gw[1], np.float32), np.asarray(g[1], np.float32))
    # and the loop's convolutions and GEMMs are float32 ones
    lines = [
        ln for ln in jax.jit(loop).lower(x, w).as_text().splitlines() if "convolution" in ln or "dot_general" in ln
    ]
    assert lines and not any("bf16>" in ln or "xf16>" in ln for ln in lines)


@pytest.mark.skipif(jax.default_backend() != "cpu", reason="the CPU lowering")
@pytest.mark.parametrize("dtype", [jnp.bfloat16, jnp.float16])
def test_low_precision_conv3d_and_transpose_round_the_float32_result(dtype):
    rng = np.random.RandomState(1)
    x = jnp.asarray(rng.randn(1, 3, 5, 6, 6), dtype)
    w = jnp.asarray(rng.randn(4, 3, 3, 3, 3) * 0.2, dtype)
    f = jnp.float32
    pads = [(1, 1)] * 3
    y = L.conv_nd_array(x, w, (1, 1, 1), pads, (1, 1, 1), 1)
    ref = L.conv_nd_array(x.astype(f), w.astype(f), (1, 1, 1), pads, (1, 1, 1), 1).astype(dtype)
    assert y.dtype == dtype
    np.testing.assert_array_equal(np.asarray(y, f), np.asarray(ref, f))
    xt = jnp.asarray(rng.randn(1, 4, 5, 6, 6), dtype)
    yt = L.conv_transpose_array(xt, w, (1, 1, 1), pads, (1, 1, 1), 1, (5, 6, 6))
    rt = L.conv_transpose_array(xt.astype(f), w.astype(f), (1, 1, 1), pads, (1, 1, 1), 1, (5, 6, 6)).astype(dtype)
    assert yt.dtype == dtype and yt.shape == (1, 3, 5, 6, 6)
    np.testing.assert_array_equal(np.asarray(yt, f), np.asarray(rt, f))
