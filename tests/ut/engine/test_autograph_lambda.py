"""Lambdas with tensor conditions compile under jit / GRAPH_MODE: the rewrite finds the exact ``lambda``
in the source (by the code's source positions, so several lambdas on one line and nested lambdas each
get their own) and converts it like a ``def`` returning its body. Without source (``eval``) it runs
eagerly with one warning that says why."""

import logging

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops

POS = np.array([1.0, 2.0], np.float32)
NEG = np.array([-1.0, -3.0], np.float32)


def _t(a):
    return Tensor(np.asarray(a, np.float32))


def test_a_lambda_with_a_tensor_conditional_expression_compiles():
    traced = []
    f = ms.jit(lambda x: (traced.append(1), x if x.sum() > 0 else -x)[1])
    np.testing.assert_array_equal(f(_t(POS)).asnumpy(), POS)  # no warning: tests run with warnings as errors
    np.testing.assert_array_equal(f(_t(NEG)).asnumpy(), -NEG)
    n = len(traced)
    for a in (POS, NEG, -POS):
        np.testing.assert_array_equal(f(_t(a)).asnumpy(), np.abs(a))
    assert len(traced) == n  # compiled once: later calls run the program, not the Python


def test_several_lambdas_on_one_line_are_told_apart():
    f, g = ms.jit(lambda x: x * 2 if x.sum() > 0 else x * 3), ms.jit(lambda x: x - 1 if x.max() > 1 else x + 1)
    np.testing.assert_array_equal(f(_t(POS)).asnumpy(), POS * 2)
    np.testing.assert_array_equal(f(_t(NEG)).asnumpy(), NEG * 3)
    np.testing.assert_array_equal(g(_t(POS)).asnumpy(), POS - 1)
    np.testing.assert_array_equal(g(_t(NEG)).asnumpy(), NEG + 1)


def test_nested_lambdas_closures_defaults_and_boolean_operators():
    make = lambda s: lambda x, lo=0.0: x * s if x.sum() > lo and x.max() < 10 else x - s  # noqa: E731
    f = ms.jit(make(2.0))
    np.testing.assert_array_equal(f(_t(POS)).asnumpy(), POS * 2)
    np.testing.assert_array_equal(f(_t(NEG)).asnumpy(), NEG - 2)
    np.testing.assert_array_equal(f(_t([20.0, 1.0])).asnumpy(), [18.0, -1.0])  # `and`: max() >= 10
    np.testing.assert_array_equal(f(_t(POS), 5.0).asnumpy(), POS - 2)  # the default replaced


def test_a_lambda_over_several_lines_and_in_a_comprehension():
    f = ms.jit(
        lambda xs: [
            x * 2
            if x.sum() > 0  # a tensor condition inside a list comprehension inside the lambda
            else -x
            for x in xs
        ]
    )
    out = f([_t(POS), _t(NEG)])
    np.testing.assert_array_equal(out[0].asnumpy(), POS * 2)
    np.testing.assert_array_equal(out[1].asnumpy(), -NEG)


class LeakyByLambda(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([0.5, -2.0], np.float32)), "w")
        self.act = lambda v: v if v.sum() > 0 else v * 0.1  # noqa: E731

    def construct(self, x):
        return self.act(x * self.w)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_a_lambda_held_by_a_cell_in_graph_mode(mode, caplog):
    net = LeakyByLambda()
    if mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    w = np.array([0.5, -2.0], np.float32)
    for a in (POS, NEG):
        z = a * w
        want = z if z.sum() > 0 else z * np.float32(0.1)
        np.testing.assert_allclose(net(_t(a)).asnumpy(), want, rtol=1e-6)
    # its gradient (compiled in PyNative too) takes the branch each input selects
    grad_fn = ms.grad(net, None, net.trainable_params())
    with caplog.at_level(logging.INFO, logger="sporax"):
        for a in (POS, NEG):
            (g,) = grad_fn(_t(a))
            scale = 1.0 if (a * w).sum() > 0 else 0.1
            np.testing.assert_allclose(g.asnumpy(), a * scale, rtol=1e-6)
    assert not [r for r in caplog.records if "eagerly" in r.getMessage()]  # compiled, no eager fallback


def test_grad_of_a_lambda_with_a_tensor_condition_compiles(caplog):
    loss = lambda x: (x * x).sum() if x.sum() > 0 else ops.abs(x).sum()  # noqa: E731
    grad_fn = ms.grad(loss)
    with caplog.at_level(logging.INFO, logger="sporax"):
        np.testing.assert_allclose(grad_fn(_t(POS)).asnumpy(), 2 * POS)
        np.testing.assert_allclose(grad_fn(_t(NEG)).asnumpy(), np.sign(NEG))
    assert not [r for r in caplog.records if "eagerly" in r.getMessage()]


def test_a_lambda_without_source_runs_eagerly_saying_why():
    f = ms.jit(eval("lambda x: x if x.sum() > 0 else -x"))
    with pytest.warns(RuntimeWarning, match="'<lambda>'.*source code is not available.*runs eagerly"):
        np.testing.assert_array_equal(f(_t(NEG)).asnumpy(), -NEG)
    np.testing.assert_array_equal(f(_t(POS)).asnumpy(), POS)  # eager from now on, no second warning


def test_the_lambda_runs_its_own_code_outside_the_trace():
    f = lambda x: x if x.sum() > 0 else -x  # noqa: E731
    code = f.__code__
    jf = ms.jit(f)
    jf(_t(NEG))
    assert f.__code__ is code  # the converted code is in place only while tracing
    np.testing.assert_array_equal(f(_t(NEG)).asnumpy(), -NEG)
