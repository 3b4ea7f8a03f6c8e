"""``mindspore.ops.composite``'s helpers: the augmented-assignment graphs, hyper_add, nested ones_like /
zeros_like, the sequence helpers of graph syntax, add_flags, matmul, _Grad, recompute_block, and the
functional ops composite re-exports (one implementation: ops.function). Values against NumPy / Python."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.ops import composite as C
from sporax.ops import function as F

A = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
B = np.array([[0.5, -1.0], [2.0, 1.5]], np.float32)


def test_augassign_graphs():
    a, b = Tensor(A), Tensor(B)
    for graph, op in (
        (C.augassign_add, np.add),
        (C.augassign_sub, np.subtract),
        (C.augassign_mul, np.multiply),
        (C.augassign_div, np.true_divide),
        (C.augassign_floordiv, np.floor_divide),
        (C.augassign_mod, np.mod),
    ):
        np.testing.assert_allclose(graph(a, b).asnumpy(), op(A, B), rtol=1e-6)
        np.testing.assert_allclose(graph(a, 2.0).asnumpy(), op(A, 2.0), rtol=1e-6)
        assert graph(7, 2) == op(7, 2)
    assert C.augassign_add((1,), (2, 3)) == (1, 2, 3) and C.augassign_add([1], [2]) == [1, 2]
    assert C.augassign_mul((1,), 2) == (1, 1)


def test_hyper_add_ones_zeros_like():
    a, b = Tensor(A), Tensor(B)
    out = C.hyper_add((a, (b, 1)), (b, (a, 2)))
    np.testing.assert_allclose(out[0].asnumpy(), A + B)
    np.testing.assert_allclose(out[1][0].asnumpy(), A + B)
    assert out[1][1] == 3
    ones = C.ones_like((a, (b,)))
    np.testing.assert_array_equal(ones[1][0].asnumpy(), np.ones((2, 2)))
    np.testing.assert_array_equal(C._ones_like_for_grad(a).asnumpy(), np.ones((2, 2)))
    zeros = C.zeros_like([a, (b, 2.5)])
    assert isinstance(zeros, list) and zeros[1][1] == 0.0
    np.testing.assert_array_equal(zeros[0].asnumpy(), np.zeros((2, 2)))
    with pytest.raises(TypeError, match="For 'zeros_like'"):
        C.zeros_like("x")


def test_sequence_helpers():
    assert C.tail((1, 2, 3)) == (2, 3) and C.tail([1]) == []
    assert C.zip_operation((1, 2), (3, 4)) == ((1, 3), (2, 4))
    assert C.ms_next((5, 6)) == (5, (6,)) and C.ms_hasnext((1,)) and not C.ms_hasnext(())
    rows = C.iter_converter(Tensor(A))
    assert len(rows) == 2 and rows[1].asnumpy().tolist() == [3.0, 4.0]
    assert C.iter_converter({"a": 1}) == ("a",)
    assert C.env_get({"k": 1}, "k", 0) == 1 and C.env_get({}, "k", 0) == 0


def test_add_flags_matmul_grad_recompute_block():
    def f(x):
        return x

    assert C.add_flags(f, has_effect=True) is f and f._ms_flags == {"has_effect": True}
    out = C.matmul(Tensor(np.ones((3, 2, 4), np.float32)), Tensor(np.ones((4, 5), np.float32)), ms.float64)
    assert out.shape == (3, 2, 5) and out.dtype is ms.float64 and float(out.asnumpy()[0, 0, 0]) == 4.0

    x = Tensor(np.array([1.0, 2.0], np.float32))
    g = C._Grad(get_by_position=True)(lambda a, b: (a * b).sum(), None, 1)
    np.testing.assert_array_equal(g(x, x * 3).asnumpy(), [1.0, 2.0])
    vg = C._Grad(get_by_position=True, get_value=True)(lambda a: (a * a).sum(), None, 0)
    value, grad = vg(x)
    assert float(value.asnumpy()) == 5.0 and grad.asnumpy().tolist() == [2.0, 4.0]

    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    remat = C.recompute_block(net)
    gw = ms.grad(lambda a: remat(a).sum(), None, net.trainable_params())(Tensor(np.ones((1, 2), np.float32)))
    np.testing.assert_array_equal(gw[0].asnumpy(), [[1.0, 1.0]])


@pytest.mark.parametrize(
    "name",
    [
        "batch_dot", "count_nonzero", "cummin", "dot", "gamma", "laplace", "mm", "multinomial", "normal",
        "poisson", "repeat_elements", "repeat_interleave", "sequence_mask", "tensor_dot", "uniform", "vecdot",
    ],
)  # fmt: skip
def test_reexported_functions_are_the_functional_ops(name):
    assert getattr(C, name) is getattr(F, name)


def test_a_few_reexported_values():
    np.testing.assert_allclose(C.dot(Tensor(A), Tensor(B)).asnumpy(), A @ B, rtol=1e-6)
    np.testing.assert_allclose(C.mm(Tensor(A), Tensor(B)).asnumpy(), A @ B, rtol=1e-6)
    np.testing.assert_array_equal(C.count_nonzero(Tensor(np.array([[0, 1], [2, 0]], np.float32))).asnumpy(), 2)
    np.testing.assert_array_equal(
        C.sequence_mask(Tensor(np.array([1, 3], np.int32)), 4).asnumpy(),
        [[True, False, False, False], [True, True, True, False]],
    )
    np.testing.assert_array_equal(C.repeat_elements(Tensor(A), 2, 1).asnumpy(), np.repeat(A, 2, 1))
    np.testing.assert_allclose(C.tensor_dot(Tensor(A), Tensor(B), 1).asnumpy(), np.tensordot(A, B, 1), rtol=1e-6)
