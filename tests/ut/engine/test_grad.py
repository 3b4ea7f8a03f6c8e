"""Autodiff: grad / value_and_grad / GradOperation / vjp / jvp / jacobians / vmap, with state."""

import logging

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


def _t(a, dtype=np.float64):
    return Tensor(np.asarray(a, dtype))


def f3(x, y):
    return (x * x * y).sum()


def test_grad_positions_structures():
    x, y = _t([1.0, 2.0]), _t([3.0, 4.0])
    np.testing.assert_allclose(ms.grad(f3)(x, y).asnumpy(), 2 * np.array([1, 2]) * [3, 4])
    gx, gy = ms.grad(f3, grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gy.asnumpy(), [1, 4])
    g1 = ms.grad(f3, grad_position=1)(x, y)
    np.testing.assert_allclose(g1.asnumpy(), [1, 4])


class Lin(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(_t([[1.0, 2.0], [3.0, 4.0]]), name="w")
        self.b = Parameter(_t([0.5, -0.5]), name="b")

    def construct(self, x):
        return (ops.matmul(x, self.w) + self.b).sum()


def _fd(fn, arr, eps=1e-6):
    g = np.zeros_like(arr)
    for i in np.ndindex(arr.shape):
        a1, a2 = arr.copy(), arr.copy()
        a1[i] += eps
        a2[i] -= eps
        g[i] = (fn(a1) - fn(a2)) / (2 * eps)
    return g


def test_weights_gradients_match_finite_differences():
    net = Lin()
    x = _t([[1.0, -1.0], [0.5, 2.0]])
    gw, gb = ms.grad(net, grad_position=None, weights=net.trainable_params())(x)
    w0 = net.w.asnumpy()

    def loss_w(w):
        return float((x.asnumpy() @ w + net.b.asnumpy()).sum())

    np.testing.assert_allclose(gw.asnumpy(), _fd(loss_w, w0), rtol=1e-6)
    np.testing.assert_allclose(gb.asnumpy(), [2.0, 2.0])
    (gx, (gw2, gb2)) = ms.grad(net, 0, net.trainable_params())(x)
    np.testing.assert_allclose(gx.asnumpy(), np.ones((2, 2)) @ w0.T)
    np.testing.assert_allclose(gw2.asnumpy(), gw.asnumpy())


def test_single_parameter_weight_gives_single_gradient():
    net = Lin()
    g = ms.grad(net, None, net.b)(_t([[1.0, 1.0]]))
    assert isinstance(g, Tensor)
    np.testing.assert_allclose(g.asnumpy(), [1.0, 1.0])


def test_value_and_grad_has_aux_and_return_ids():
    def fn(x):
        return (x * x).sum(), x + 1

    (out, aux), g = ms.value_and_grad(fn, has_aux=True)(_t([1.0, 2.0]))
    assert float(out) == 5.0
    np.testing.assert_allclose(aux.asnumpy(), [2, 3])
    np.testing.assert_allclose(g.asnumpy(), [2, 4])
    g2, aux2 = ms.grad(fn, has_aux=True)(_t([1.0, 2.0]))
    np.testing.assert_allclose(g2.asnumpy(), [2, 4])
    np.testing.assert_allclose(aux2[0].asnumpy(), [2, 3])

    net = Lin()
    grads = ms.grad(net, 0, net.trainable_params(), return_ids=True)(_t([[1.0, 1.0]]))
    np.testing.assert_allclose(ms.get_grad(grads, net.b).asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(ms.get_grad(grads, 0).asnumpy(), net.w.asnumpy().sum(1, keepdims=True).T)


def test_grad_operation_forms_and_sens():
    net = Lin()
    x = _t([[1.0, 2.0]])
    g = ops.GradOperation()(net)(x)
    np.testing.assert_allclose(g.asnumpy(), net.w.asnumpy().sum(1)[None])
    (gx,) = ops.GradOperation(get_all=True)(net)(x)
    np.testing.assert_allclose(gx.asnumpy(), g.asnumpy())
    gw, gb = ops.GradOperation(get_by_list=True)(net, net.trainable_params())(x)
    np.testing.assert_allclose(gb.asnumpy(), [1, 1])
    (gx2,), (gw2, gb2) = ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(x)
    np.testing.assert_allclose(gw2.asnumpy(), gw.asnumpy())
    gw3, gb3 = ops.GradOperation(get_by_list=True, sens_param=True)(net, net.trainable_params())(x, _t(3.0))
    np.testing.assert_allclose(gb3.asnumpy(), [3, 3])
    with pytest.raises(ValueError, match="shape of sens"):
        ops.GradOperation(sens_param=True)(net)(x, _t([1.0, 2.0]))


def test_gradient_function_is_cached_and_compiled_once():
    net = Lin()
    weights = net.trainable_params()
    grad_op = ops.GradOperation(get_by_list=True)
    f1 = grad_op(net, weights)
    f2 = grad_op(net, weights)
    assert f1 is f2
    x = _t([[1.0, 2.0]])
    f1(x)
    f1(x)
    assert len(f1._jit._cache) == 1


class Counting(nn.Cell):
    """Writes state inside the differentiated function (like BatchNorm statistics)."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(_t([2.0]), name="w")
        self.steps = Parameter(_t(0.0), name="steps", requires_grad=False)

    def construct(self, x):
        ops.assign_add(self.steps, _t(1.0))
        return (self.w * x).sum()


def test_state_written_in_loss_is_applied_once_per_call():
    net = Counting()
    fn = ms.value_and_grad(net, None, net.trainable_params())
    for _ in range(3):
        fn(_t([1.0]))
    assert float(net.steps) == 3.0

    @ms.jit
    def step(x):
        return fn(x)[0]

    step(_t([1.0]))
    step(_t([1.0]))
    assert float(net.steps) == 5.0


def test_pynative_falls_back_to_eager_gradients_with_a_log_line(caplog):
    def fn(x):
        if float(x.sum()) > 0:
            return (x * x).sum()
        return x.sum()

    with caplog.at_level(logging.WARNING, logger="sporax"):
        g = ms.grad(fn)(_t([1.0, 2.0]))
    np.testing.assert_allclose(g.asnumpy(), [2, 4])
    assert any("eager" in r.message for r in caplog.records)


def test_higher_order_and_stop_gradient():
    def cube(x):
        return (x * x * x).sum()

    d2 = ms.grad(ms.grad(cube))
    np.testing.assert_allclose(d2(_t([2.0])).asnumpy(), [12.0])

    def f(x):
        return (x * ops.stop_gradient(x)).sum()

    np.testing.assert_allclose(ms.grad(f)(_t([3.0])).asnumpy(), [3.0])


def test_integer_input_gets_integer_zero_gradient():
    def f(x, n):
        return (x * n).sum()

    gx, gn = ms.grad(f, (0, 1))(_t([1.0]), Tensor(np.array([2], np.int32)))
    assert gn.dtype == ms.int32 and gn.asnumpy().tolist() == [0]
    np.testing.assert_allclose(gx.asnumpy(), [2.0])


def test_custom_bprop():
    class Clip(nn.Cell):
        def construct(self, x):
            return x * 1

        def bprop(self, x, out, dout):
            return (ops.clamp(dout, -0.5, 0.5),)

    net = Clip()
    g = ms.grad(lambda x: (net(x) * _t([1.0, -3.0])).sum())(_t([1.0, 1.0]))
    np.testing.assert_allclose(g.asnumpy(), [0.5, -0.5])


def test_vjp_jvp_jacobians():
    def f(x):
        return x * x

    x = _t([1.0, 2.0])
    out, vjp_fn = ms.vjp(f, x)
    np.testing.assert_allclose(out.asnumpy(), [1, 4])
    (g,) = vjp_fn(_t([1.0, 1.0]))
    np.testing.assert_allclose(g.asnumpy(), [2, 4])
    out, tangent = ms.jvp(f, x, _t([1.0, 0.0]))
    np.testing.assert_allclose(tangent.asnumpy(), [2, 0])
    np.testing.assert_allclose(ms.jacrev(f)(x).asnumpy(), np.diag([2.0, 4.0]))
    np.testing.assert_allclose(ms.jacfwd(f)(x).asnumpy(), np.diag([2.0, 4.0]))


def test_per_sample_gradients_with_vmap():
    net = Lin()
    xs = _t(np.random.RandomState(0).randn(5, 1, 2))

    def loss(x):
        return net(x)

    per = ms.vmap(ms.grad(loss))(xs)
    loop = np.stack([ms.grad(loss)(Tensor(xs.asnumpy()[i])).asnumpy() for i in range(5)])
    np.testing.assert_allclose(per.asnumpy(), loop, rtol=1e-12)


def test_bad_arguments():
    with pytest.raises(ValueError, match="cannot both be None"):
        ms.grad(f3, grad_position=None)
    with pytest.raises(TypeError, match="must be a Tensor"):
        ms.grad(f3)(1.0, _t([1.0]))
    with pytest.raises(TypeError, match="weights"):
        ms.grad(f3, None, weights=[_t([1.0])])
    with pytest.raises(TypeError, match="callable"):
        ops.GradOperation()(3)


def test_recompute_gives_the_same_gradients_and_state():
    a, b = Counting(), Counting()
    b.recompute()
    x = _t([3.0])
    ga = ms.grad(a, None, a.trainable_params())(x)
    gb = ms.grad(b, None, b.trainable_params())(x)
    np.testing.assert_allclose(gb[0].asnumpy(), ga[0].asnumpy())
    assert float(b.steps) == 1.0
