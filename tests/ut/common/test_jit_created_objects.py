"""Cells, Tensors and Parameters created while a function is compiled (inside ``@ms.jit``, or inside
``construct`` under GRAPH_MODE) are constants of that trace (issue 12). Values from MindSpore 2.10
(tools/make_top_reference.py -> fixtures/top_reference.json "jit_created")."""

import json
from pathlib import Path

import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn

REF = json.loads((Path(__file__).parent / "fixtures" / "top_reference.json").read_text())["jit_created"]
X = Tensor(np.ones((2, 3), np.float32))


@ms.jit
def dense_in_jit(a):
    return nn.Dense(3, 2, weight_init="ones", bias_init="zeros")(a)


def test_cell_created_inside_jit():
    assert dense_in_jit(X).asnumpy().tolist() == REF["dense"]
    assert dense_in_jit(X * 2).asnumpy().tolist() == REF["dense_again"]
    assert ms.grad(dense_in_jit)(X).asnumpy().tolist() == REF["grad"]


def test_tensor_created_inside_jit():
    @ms.jit
    def f(a):
        return a * Tensor(np.full((3,), 2.0, np.float32))

    assert f(X).asnumpy().tolist() == REF["tensor"]


def test_cell_created_in_construct_under_graph_mode():
    class ReluInConstruct(nn.Cell):
        def construct(self, a):
            return nn.ReLU()(a - 2)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = ReluInConstruct()(X * 3)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert out.asnumpy().tolist() == REF["cell_in_construct"]


def test_parameter_and_batchnorm_created_inside_jit():
    # MindSpore 2.10 refuses a Parameter created in @jit (REF["parameter_error"]); sporax makes it a constant
    assert REF["parameter_error"]["error"] == "ValueError"

    @ms.jit
    def g(a):
        p = Parameter(Tensor(np.zeros(3, np.float32)), name="acc")
        p.add_(1.0)  # a write to trace-local state stays in the trace
        return a + p

    np.testing.assert_array_equal(g(X).asnumpy(), np.full((2, 3), 2.0))
    np.testing.assert_array_equal(g(X).asnumpy(), np.full((2, 3), 2.0))

    x = Tensor(np.random.default_rng(0).random((2, 3, 4, 4)).astype(np.float32))

    @ms.jit
    def h(a):
        bn = nn.BatchNorm2d(3)
        bn.set_train(True)
        return bn(a)

    out = h(x).asnumpy()
    a = x.asnumpy()
    mean, var = a.mean((0, 2, 3), keepdims=True), a.var((0, 2, 3), keepdims=True)
    np.testing.assert_allclose(out, (a - mean) / np.sqrt(var + 1e-5), rtol=1e-4, atol=1e-5)
