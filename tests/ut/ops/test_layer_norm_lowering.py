"""Layer norm's lowering (sporax/ops/_lowering/norm.py): values, statistics and gradients against NumPy, over
one and several normalised axes, half precision, and the property it exists for: the forward is the same
program with and without autodiff, so TrainOneStepCell's two forwards merge into one."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.common._compile import compiled_programs


def _np_layer_norm(x, axis, w, b, eps):
    axes = tuple(range(axis, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    xhat = (x - mean) / np.sqrt(var + eps)
    return xhat * w + b, mean, var, xhat


def _np_layer_norm_grads(x, axis, w, eps, dy):
    """d sum(y * dy) / d (x, w, b) in closed form."""
    axes = tuple(range(axis, x.ndim))
    n = int(np.prod(x.shape[axis:]))
    _, _, var, xhat = _np_layer_norm(x, axis, w, 0.0, eps)
    g = dy * w
    dx = (g - g.mean(axis=axes, keepdims=True) - xhat * (g * xhat).mean(axis=axes, keepdims=True)) / np.sqrt(var + eps)
    lead = tuple(range(x.ndim - w.ndim))
    del n
    return dx, (dy * xhat).sum(axis=lead), dy.sum(axis=lead)


@pytest.mark.parametrize("axis", [1, 2])
def test_primitive_values_and_statistics(axis):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4, 5)).astype(np.float64) * 3 + 1
    w = rng.standard_normal(x.shape[axis:])
    b = rng.standard_normal(x.shape[axis:])
    y, mean, var = ops.LayerNorm(axis, axis, 1e-5)(Tensor(x), Tensor(w), Tensor(b))
    ry, rmean, rvar, _ = _np_layer_norm(x, axis, w, b, 1e-5)
    assert mean.shape == rmean.shape and var.shape == rvar.shape
    np.testing.assert_allclose(y.asnumpy(), ry, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(mean.asnumpy(), rmean, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(var.asnumpy(), rvar, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("axis", [1, 2])
def test_gradients_match_closed_form(axis):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 6)) * 2 - 1
    w = rng.standard_normal(x.shape[axis:])
    b = rng.standard_normal(x.shape[axis:])
    dy = rng.standard_normal(x.shape)
    ns = x.shape[axis:]

    def f(x_, w_, b_):
        return (ops.layer_norm(x_, ns, w_, b_, 1e-5) * Tensor(dy)).sum()

    gx, gw, gb = ms.grad(f, grad_position=(0, 1, 2))(Tensor(x), Tensor(w), Tensor(b))
    rx, rw, rb = _np_layer_norm_grads(x, axis, w, 1e-5, dy)
    np.testing.assert_allclose(gx.asnumpy(), rx, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(gw.asnumpy(), rw, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(gb.asnumpy(), rb, rtol=1e-9, atol=1e-10)


def test_statistics_outputs_are_differentiable():
    """The LayerNorm primitive's mean and variance outputs carry gradients: d sum(mean) / dx = 1/N and
    d sum(var) / dx = 2 (x - mean) / N per row."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 5))
    one = Tensor(np.ones(5))
    zero = Tensor(np.zeros(5))
    prim = ops.LayerNorm(1, 1, 1e-5)
    gm = ms.grad(lambda t: prim(t, one, zero)[1].sum())(Tensor(x))
    gv = ms.grad(lambda t: prim(t, one, zero)[2].sum())(Tensor(x))
    np.testing.assert_allclose(gm.asnumpy(), np.full_like(x, 1 / 5), rtol=1e-12)
    np.testing.assert_allclose(gv.asnumpy(), 2 * (x - x.mean(1, keepdims=True)) / 5, rtol=1e-10, atol=1e-12)


def test_half_precision_normalises_in_float32():
    x = np.random.default_rng(3).standard_normal((2, 8)).astype(np.float16) * 100
    y, mean, var = ops.LayerNorm(1, 1, 1e-5)(Tensor(x), Tensor(np.ones(8, np.float16)), Tensor(np.zeros(8, np.float16)))
    assert y.dtype == ms.float16 and mean.dtype == ms.float32 and var.dtype == ms.float32
    ry, rmean, _, _ = _np_layer_norm(x.astype(np.float32), 1, 1.0, 0.0, 1e-5)
    np.testing.assert_allclose(y.asnumpy().astype(np.float32), ry, rtol=2e-3, atol=2e-3)
    np.testing.assert_allclose(mean.asnumpy(), rmean, rtol=1e-6)


def _train_step_dots(net):
    """GEMMs in the optimised program of one TrainOneStepCell step of ``net`` on a [4, 8] input."""
    import re

    ms.set_context(mode=ms.GRAPH_MODE)
    step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), 0.1))
    step.set_train()
    step(Tensor(np.ones((4, 8), np.float32)))
    (sjit,) = [s for s, owner in compiled_programs() if owner is step]
    text = list(sjit._cache.values())[-1].traced.lower().compile().as_text()
    return len(re.findall(r" dot\(", text))


class _NormNet(nn.Cell):
    def __init__(self, p):
        super().__init__()
        self.d1, self.d2, self.d3 = nn.Dense(8, 8), nn.Dense(8, 8), nn.Dense(8, 2)
        self.norm1, self.norm2 = nn.LayerNorm((8,)), nn.LayerNorm((8,))
        self.drop = nn.Dropout(p=p)

    def construct(self, x):
        h = self.d2(self.drop(self.norm1(self.d1(x))))
        return self.d3(self.norm2(h)).sum()


def test_sink_step_runs_the_forward_once():
    """Inside a sink loop (``scan_steps``) XLA hoists loop invariants before it merges equal instructions,
    so two forwards would stay two: TrainOneStepCell's step has one forward by construction."""
    import re

    from sporax._engine import scan_steps

    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    net = _NormNet(0.5)
    step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), 0.1))
    step.set_train()
    sink = ms.jit(lambda x: scan_steps(lambda r: step(*r), (x,)))
    sink(Tensor(np.ones((2, 4, 8), np.float32)))
    lowered = [s for s, owner in compiled_programs() if owner is None and not s.eager and s._cache]
    text = list(lowered[0]._cache.values())[-1].traced.lower().compile().as_text()
    assert len(re.findall(r" dot\(", text)) == 8


@pytest.mark.parametrize("p", [0.0, 0.5])
def test_train_step_runs_the_forward_once(p):
    """Three forward GEMMs, five backward ones (no input gradient of d1): XLA merged the loss's forward and
    the gradient's forward through the layer norms (and the dropout, whose masks both draw alike). A
    second forward would add the GEMMs after the first layer norm (d2 is needed by norm2's backward)."""
    ms.set_seed(0)
    assert _train_step_dots(_NormNet(p)) == 8
