"""Batch norm's training lowering (sporax/ops/_lowering/norm.py, ``batch_norm_train``): its hand-written VJP
against JAX's autodiff of the same forward (float64; channels last, NCHW and 2-D; with and without
weight/bias; cotangents on the output and on both statistics; a batch over 32, where the backward sums
reduce the batch axis last), its second derivatives, forward mode through ``forward_mode()``, the
two-pass variance on data far from zero, and a BatchNorm2d training step's values against NumPy."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.ops import _lowering
from sporax.ops._lowering import norm  # importing sporax enables float64

CASES = {
    "channels_last": ((4, 3, 5, 6), (0, 1, 2)),
    "nchw": ((4, 6, 3, 5), (0, 2, 3)),
    "two_d": ((7, 5), (0,)),
    "batch_over_32": ((40, 2, 3, 4), (0, 1, 2)),
}


def _plain(x, w, b, axes, eps):
    return norm._bn_forward(x, w, b, axes, eps)[:3]


def _operands(shape, axes, seed=0):
    rng = np.random.default_rng(seed)
    c = int(np.prod([d for i, d in enumerate(shape) if i not in axes]))
    x = jnp.asarray(rng.standard_normal(shape) * 2.0 + 3.0)
    w = jnp.asarray(rng.standard_normal(c))
    b = jnp.asarray(rng.standard_normal(c))
    cts = (
        jnp.asarray(rng.standard_normal(shape)),
        jnp.asarray(rng.standard_normal(c)),
        jnp.asarray(rng.standard_normal(c)),
    )
    return x, w, b, cts


@pytest.mark.parametrize("case", sorted(CASES))
def test_vjp_matches_autodiff(case):
    shape, axes = CASES[case]
    x, w, b, cts = _operands(shape, axes)
    out, pull = jax.vjp(lambda *a: norm._bn_train(*a, axes, 1e-5), x, w, b)
    ref_out, ref_pull = jax.vjp(lambda *a: _plain(*a, axes, 1e-5), x, w, b)
    for got, want in zip(out, ref_out):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    for got, want in zip(pull(cts), ref_pull(cts)):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-10)


def test_without_weight_and_bias_and_statistics():
    x, _, _, (dy, _, _) = _operands((3, 4, 4, 5), (0, 1, 2), seed=1)
    y, mean, var = norm.batch_norm_train(x, None, None, (0, 1, 2), 1e-3)
    xn = np.asarray(x)
    np.testing.assert_allclose(mean, xn.mean(axis=(0, 1, 2)), rtol=1e-12)
    np.testing.assert_allclose(var, xn.var(axis=(0, 1, 2)), rtol=1e-12)
    np.testing.assert_allclose(y, (xn - xn.mean((0, 1, 2))) / np.sqrt(xn.var((0, 1, 2)) + 1e-3), rtol=1e-10)
    g = jax.grad(lambda a: jnp.sum(norm.batch_norm_train(a, None, None, (0, 1, 2), 1e-3)[0] * dy))(x)
    ones = jnp.ones(5, x.dtype)
    ref = jax.grad(lambda a: jnp.sum(_plain(a, ones, 0 * ones, (0, 1, 2), 1e-3)[0] * dy))(x)
    np.testing.assert_allclose(g, ref, rtol=1e-9, atol=1e-10)


def test_second_derivatives_match_autodiff():
    shape, axes = CASES["channels_last"]
    x, w, b, (dy, _, _) = _operands(shape, axes, seed=2)

    def loss(fn):
        return lambda a, w_: jnp.sum(jnp.tanh(fn(a, w_, b, axes, 1e-5)[0]) * dy)

    got = jax.grad(lambda w_: jnp.sum(jax.grad(loss(norm._bn_train))(x, w_) ** 2))(w)
    want = jax.grad(lambda w_: jnp.sum(jax.grad(loss(_plain))(x, w_) ** 2))(w)
    np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-10)


def test_forward_mode_takes_the_plain_form():
    shape, axes = CASES["nchw"]
    x, w, b, (v, _, _) = _operands(shape, axes, seed=3)
    with pytest.raises(TypeError):
        jax.jvp(lambda a: norm._bn_train(a, w, b, axes, 1e-5)[0], (x,), (v,))
    with _lowering.forward_mode():
        got = jax.jvp(lambda a: norm.batch_norm_train(a, w, b, axes, 1e-5)[0], (x,), (v,))[1]
    want = jax.jvp(lambda a: _plain(a, w, b, axes, 1e-5)[0], (x,), (v,))[1]
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_variance_far_from_zero_float32():
    """The two-pass statistics: data at 1000 +- 0.01 keeps its variance (a one-pass sum of squares would not)."""
    rng = np.random.default_rng(4)
    x = (1000.0 + 0.01 * rng.standard_normal((64, 4, 4, 8))).astype(np.float32)
    _, mean, var = norm.batch_norm_train(jnp.asarray(x), None, None, (0, 1, 2), 1e-5)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(mean, x64.mean(axis=(0, 1, 2)), rtol=1e-6)
    np.testing.assert_allclose(var, x64.var(axis=(0, 1, 2)), rtol=2e-3)


def test_batchnorm2d_training_step_against_numpy():
    """nn.BatchNorm2d in training through the lowering: output, moving statistics and the input gradient."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 3, 4, 4)) * 1.5 + 0.5
    dy = rng.standard_normal(x.shape)
    bn = nn.BatchNorm2d(3, momentum=0.9, gamma_init="ones", dtype=ms.float64)
    bn.set_train()

    def f(a):
        return (bn(a) * Tensor(dy)).sum()

    loss, gx = ms.value_and_grad(f)(Tensor(x))
    mean, var = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    xhat = (x - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(float(loss.asnumpy()), float((xhat * dy).sum()), rtol=1e-10)
    g = dy
    gm = g.mean(axis=(0, 2, 3), keepdims=True)
    gxm = (g * xhat).mean(axis=(0, 2, 3), keepdims=True)
    np.testing.assert_allclose(
        gx.asnumpy(), (g - gm - xhat * gxm) / np.sqrt(var[None, :, None, None] + 1e-5), atol=1e-10
    )
    n = x.size // 3
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.1 * mean, rtol=1e-10)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), 0.9 + 0.1 * var * n / (n - 1), rtol=1e-10)
