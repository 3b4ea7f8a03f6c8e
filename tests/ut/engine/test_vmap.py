"""vmap: in_axes / out_axes, nesting, Cells, per-sample gradients with vmap(grad(...)) against a Python loop,
under jit; Cell.recompute gives the same gradients."""

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops

RNG = np.random.RandomState(0)
XS = RNG.randn(5, 3).astype(np.float32)
TS = RNG.randn(5).astype(np.float32)
V = RNG.randn(3).astype(np.float32)


def _dot(a, b):
    return (a * b).sum()


def test_in_axes_none_broadcasts_an_input():
    out = ms.vmap(_dot, in_axes=(0, None))(Tensor(XS), Tensor(V))
    loop = [float(_dot(Tensor(XS[i]), Tensor(V)).asnumpy()) for i in range(5)]
    assert out.shape == (5,)
    np.testing.assert_allclose(out.asnumpy(), loop, rtol=1e-6)


def test_in_axes_and_out_axes_move_the_mapped_dimension():
    def scale_rows(a, s):
        return a * s, a.sum()

    cols = XS.T.copy()  # (3, 5): map over axis 1
    out, sums = ms.vmap(scale_rows, in_axes=(1, 0), out_axes=(1, 0))(Tensor(cols), Tensor(TS))
    assert out.shape == (3, 5) and sums.shape == (5,)
    np.testing.assert_allclose(out.asnumpy(), cols * TS[None, :], rtol=1e-6)
    np.testing.assert_allclose(sums.asnumpy(), XS.sum(1), rtol=1e-5)


def test_nested_vmap_is_an_outer_product():
    a, b = np.arange(3, dtype=np.float32), np.arange(4, dtype=np.float32) + 1
    inner = ms.vmap(lambda x, y: x * y, in_axes=(0, None))
    outer = ms.vmap(inner, in_axes=(None, 0))
    np.testing.assert_array_equal(outer(Tensor(a), Tensor(b)).asnumpy(), np.outer(b, a))


def test_nested_structures_in_in_axes():
    out = ms.vmap(lambda d, s: d["a"] * s + d["b"], in_axes=({"a": 0, "b": None}, 0))(
        {"a": Tensor(XS), "b": Tensor(V)}, Tensor(TS)
    )
    np.testing.assert_allclose(out.asnumpy(), XS * TS[:, None] + V, rtol=1e-6)


def test_vmap_over_a_cell_equals_per_sample_calls():
    net = nn.Dense(3, 2, weight_init="normal")
    out = ms.vmap(net)(Tensor(XS))
    loop = np.stack([net(Tensor(XS[i : i + 1])).asnumpy()[0] for i in range(5)])
    np.testing.assert_allclose(out.asnumpy(), loop, rtol=1e-5, atol=1e-6)


def test_per_sample_input_gradients_equal_a_loop():
    w = Parameter(Tensor(V * 0.25), "w")  # tanh away from saturation: no cancellation in 1 - tanh**2

    def loss(a, t):
        return (ops.tanh((a * w).sum()) - t) ** 2

    per_sample = ms.vmap(ms.grad(loss, 0), in_axes=(0, 0))(Tensor(XS), Tensor(TS))
    loop = np.stack([ms.grad(loss, 0)(Tensor(XS[i]), Tensor(TS[i])).asnumpy() for i in range(5)])
    np.testing.assert_allclose(per_sample.asnumpy(), loop, rtol=1e-5, atol=1e-7)


class Regressor(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4, weight_init="normal")
        self.fc2 = nn.Dense(4, 1, weight_init="normal")

    def construct(self, a, t):
        return ((self.fc2(ops.tanh(self.fc1(a.reshape(1, -1)))) - t) ** 2).sum()


def test_per_sample_weight_gradients_of_a_cell_equal_a_loop():
    net = Regressor()
    params = net.trainable_params()
    grad_fn = ms.grad(net, None, params)
    per_sample = ms.vmap(grad_fn, in_axes=(0, 0))(Tensor(XS), Tensor(TS))
    assert [g.shape for g in per_sample] == [(5, *p.shape) for p in params]
    for i in range(5):
        one = grad_fn(Tensor(XS[i]), Tensor(TS[i]))
        for g_all, g_one in zip(per_sample, one):
            np.testing.assert_allclose(g_all.asnumpy()[i], g_one.asnumpy(), rtol=1e-5, atol=1e-7)
    # the mean of the per-sample gradients is the gradient of the mean loss
    mean_grad = ms.grad(lambda a, t: ms.vmap(net)(a, t).mean(), None, params)(Tensor(XS), Tensor(TS))
    for g_all, g_mean in zip(per_sample, mean_grad):
        np.testing.assert_allclose(g_all.asnumpy().mean(0), g_mean.asnumpy(), rtol=1e-5, atol=1e-7)


def test_vmap_under_jit_equals_eager():
    net = Regressor()
    grad_fn = ms.grad(net, None, net.trainable_params())
    per_sample = ms.vmap(grad_fn, in_axes=(0, 0))
    eager = per_sample(Tensor(XS), Tensor(TS))
    compiled = ms.jit(per_sample)(Tensor(XS), Tensor(TS))
    for e, c in zip(eager, compiled):
        np.testing.assert_allclose(c.asnumpy(), e.asnumpy(), rtol=1e-5, atol=1e-7)


def test_vmap_errors():
    with pytest.raises(ValueError, match="For 'vmap'.*inconsistent sizes"):
        ms.vmap(_dot, in_axes=(0, 0))(Tensor(XS), Tensor(V))
    with pytest.raises(ValueError, match="For 'vmap'.*in_axes"):
        ms.vmap(_dot, in_axes=(0,))(Tensor(XS), Tensor(V))


def test_recompute_gives_identical_gradients():
    ms.set_seed(5)
    plain = Regressor()
    ms.set_seed(5)
    remat = Regressor()
    remat.fc1.recompute()
    a, t = Tensor(XS[0]), Tensor(TS[0])
    g_plain = ms.grad(plain, None, plain.trainable_params())(a, t)
    g_remat = ms.grad(remat, None, remat.trainable_params())(a, t)
    for p, r in zip(g_plain, g_remat):
        np.testing.assert_array_equal(p.asnumpy(), r.asnumpy())
