"""Autodiff signatures (issue 12): grad/value_and_grad ``sens_param``, a Parameter passed positionally at
``grad_position``, ``nn.ForwardValueAndGrad`` with a plain list of weights. Values from real MindSpore 2.10
(tools/make_top_reference.py -> fixtures/top_reference.json)."""

import inspect
import json
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn

REF = json.loads((Path(__file__).parent / "fixtures" / "top_reference.json").read_text())["grad"]
FULL = json.loads((Path(__file__).parent / "fixtures" / "top_reference.json").read_text())

x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
y = Tensor(np.array([2.0, 3.0, 4.0], np.float32))
s = Tensor(np.array([0.5, 1.0, 2.0], np.float32))


def f(a, b):
    return a * a * b


def g(a, b):
    return a * b, a + b


def h(a):
    return a * 2, a * 3


def _val(t):
    if isinstance(t, tuple | list):
        return [_val(v) for v in t]
    return t.asnumpy().tolist()


def test_signatures_have_sens_param():
    for fn in (ms.grad, ms.value_and_grad):
        params = list(inspect.signature(fn).parameters)
        assert params == ["fn", "grad_position", "weights", "has_aux", "return_ids", "sens_param"]


def test_grad_sens_param():
    assert _val(ms.grad(f, 0, sens_param=True)(x, y, s)) == REF["sens"]
    assert _val(ms.grad(f, (0, 1), sens_param=True)(x, y, s)) == REF["sens_pos01"]
    assert _val(ms.value_and_grad(f, 0, sens_param=True)(x, y, s)) == REF["vag_sens"]
    assert _val(ms.grad(g, 0, sens_param=True)(x, y, (s, s))) == REF["sens_tuple_out"]


def test_grad_sens_param_with_aux():
    assert _val(ms.grad(h, 0, has_aux=True, sens_param=True)(x, s)) == REF["sens_has_aux"]
    assert _val(ms.value_and_grad(h, 0, has_aux=True, sens_param=True)(x, s)) == REF["vag_sens_has_aux"]


def test_grad_sens_param_checks_the_sens():
    with pytest.raises(ValueError, match="the shape of sens must be"):
        ms.grad(f, 0, sens_param=True)(x, y, Tensor(np.ones(4, np.float32)))


def test_grad_wrt_parameter_passed_positionally():
    p = Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="p")
    assert _val(ms.grad(f, 0)(p, y)) == REF["param_pos"]
    assert _val(ms.grad(f, (0, 1))(p, y)) == REF["param_pos_both"]
    assert _val(ms.value_and_grad(f, 1)(y, p)) == REF["vag_param"]
    assert _val(ms.ops.GradOperation(get_all=True)(f)(p, y)) == FULL["grad_op_param_pos"]
    np.testing.assert_array_equal(p.asnumpy(), [1.0, 2.0, 3.0])  # untouched


def test_forward_value_and_grad_takes_a_plain_list():
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    ones = Tensor(np.ones((1, 3), np.float32))
    fvg = nn.ForwardValueAndGrad(net, weights=net.trainable_params(), get_by_list=True)
    assert _val(fvg(ones)) == FULL["forward_value_and_grad_list"]
    fvg_t = nn.ForwardValueAndGrad(net, weights=tuple(net.trainable_params()), get_by_list=True)
    assert _val(fvg_t(ones)) == FULL["forward_value_and_grad_list"]
    ref = FULL["forward_value_and_grad_bad"]
    with pytest.raises(TypeError) as info:
        nn.ForwardValueAndGrad(net, weights=3, get_by_list=True)
    assert str(info.value) == ref["message"]


HO = FULL["higher_order"]


def test_linearize_derivative_jet():
    xs = Tensor(np.array([0.5, 1.0], np.float32))

    def sin_x(a):
        return ms.ops.sin(a) * a

    for got, key in (
        (ms.ops.derivative(sin_x, xs, 1), "derivative1"),
        (ms.ops.derivative(sin_x, xs, 3), "derivative3"),
        (ms.ops.jet(sin_x, xs, Tensor(np.array([[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]], np.float32))), "jet"),
        (ms.ops.jet(sin_x, xs, Tensor(np.array([[1.0, 2.0], [0.5, 0.0]], np.float32))), "jet2"),
    ):
        np.testing.assert_allclose(got[0].asnumpy(), HO[key][0], rtol=1e-5)
        np.testing.assert_allclose(got[1].asnumpy(), HO[key][1], rtol=1e-5, atol=1e-6)
    out, jvp_fn = ms.ops.linearize(sin_x, xs)
    np.testing.assert_allclose(out.asnumpy(), HO["linearize"][0], rtol=1e-6)
    np.testing.assert_allclose(
        jvp_fn(Tensor(np.array([1.0, 2.0], np.float32))).asnumpy(), HO["linearize"][1], rtol=1e-6
    )
    # two inputs (MindSpore 2.10 fails on this one; the value is d(a*b*b) = b*b*da + 2*a*b*db)
    out2, jvp2 = ms.ops.linearize(lambda a, b: a * b * b, (xs, xs))
    np.testing.assert_allclose(
        jvp2(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32))).asnumpy(), [0.75, 3.0]
    )
    with pytest.raises(ValueError, match="For 'derivative', the 'order' must be a positive int"):
        ms.ops.derivative(sin_x, xs, 0)
    with pytest.raises(ValueError, match="For 'jet', each series must have the shape"):
        ms.ops.jet(sin_x, xs, Tensor(np.ones((2, 3), np.float32)))


def test_ops_function_exposes_the_autodiff_entry_points():
    from sporax.ops import function as F

    assert F.grad is ms.grad and F.value_and_grad is ms.value_and_grad and F.vjp is ms.vjp and F.jvp is ms.jvp
    assert F.jacfwd is ms.jacfwd and F.jacrev is ms.jacrev and F.vmap is ms.vmap and F.get_grad is ms.ops.get_grad
    assert F.linearize is ms.ops.linearize and F.derivative is ms.ops.derivative and F.jet is ms.ops.jet
    assert _val(F.grad(f, 0, sens_param=True)(x, y, s)) == REF["sens"]


def test_ops_functional_exposes_them_too():
    from sporax.ops import functional as F

    assert F.jacfwd is ms.jacfwd and F.jacrev is ms.jacrev and F.get_grad is ms.ops.get_grad
    assert F.linearize is ms.ops.linearize and F.derivative is ms.ops.derivative and F.jet is ms.ops.jet


def test_tensor_register_hook():
    ref = FULL["register_hook"]
    xs = Tensor(np.array([0.5, 1.0], np.float32))
    seen = []

    def hook(g):
        seen.append(g.asnumpy().tolist())  # the value is there, also when the gradient is compiled
        return g * 3

    def hooked(a):
        b = a * 2
        b.register_hook(hook)
        assert b.hooks() == [hook]
        return (b * b).sum()

    def removed(a):
        b = a * 2
        b.register_hook(hook).remove()
        return (b * b).sum()

    assert ms.grad(hooked)(xs).asnumpy().tolist() == ref["grad"]
    assert seen == ref["seen"]
    assert ms.grad(removed)(xs).asnumpy().tolist() == ref["removed"]
    with pytest.raises(TypeError) as info:
        xs.register_hook(3)
    assert str(info.value) == ref["bad"]["message"]


def test_parameter_register_hook():
    ref = FULL["register_hook"]
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    seen = []

    def hook(g):
        seen.append(g.asnumpy().tolist())
        return g * 10

    ones12 = Tensor(np.ones((1, 2), np.float32))
    loss = lambda a: net(a).sum()  # noqa: E731
    ms.grad(loss, None, net.trainable_params())(ones12)  # compiled once before the hook: it still applies after
    handle = net.weight.register_hook(hook)
    assert net.weight.hooks() == [hook]
    assert _val(ms.grad(loss, None, net.trainable_params())(ones12)) == ref["parameter"]
    assert seen == ref["parameter_seen"]
    handle.remove()
    assert _val(ms.grad(loss, None, net.trainable_params())(ones12)) == ref["parameter_removed"]
