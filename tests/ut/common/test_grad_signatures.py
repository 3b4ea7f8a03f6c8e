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
