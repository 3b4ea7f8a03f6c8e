"""Activation cells, get_activation and PReLU: forward against NumPy, gradients against finite
differences."""

import math

import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops

rng = np.random.default_rng(1)
X = (rng.standard_normal((3, 5)) * 3).astype(np.float32)


def T(a):
    return ms.Tensor(np.asarray(a))


def sig(x):
    return 1 / (1 + np.exp(-x))


CASES = [
    (nn.ReLU(), lambda x: np.maximum(x, 0)),
    (nn.ReLU6(), lambda x: np.clip(x, 0, 6)),
    (nn.Sigmoid(), sig),
    (nn.Tanh(), np.tanh),
    (nn.GELU(), lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))),
    (nn.GELU(approximate=False), lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / np.sqrt(2)))),
    (nn.SiLU(), lambda x: x * sig(x)),
    (nn.Softmax(), lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
    (nn.Softmax(axis=0), lambda x: np.exp(x) / np.exp(x).sum(0, keepdims=True)),
    (nn.LogSoftmax(), lambda x: x - np.log(np.exp(x).sum(-1, keepdims=True))),
    (nn.LeakyReLU(), lambda x: np.where(x > 0, x, 0.2 * x)),
    (nn.LeakyReLU(alpha=0.05), lambda x: np.where(x > 0, x, 0.05 * x)),
    (nn.ELU(), lambda x: np.where(x > 0, x, np.exp(x) - 1)),
    (nn.Softplus(), lambda x: np.log1p(np.exp(x))),
    (nn.HSwish(), lambda x: x * np.clip(x + 3, 0, 6) / 6),
    (nn.HSigmoid(), lambda x: np.clip(x + 3, 0, 6) / 6),
    (nn.Mish(), lambda x: x * np.tanh(np.log1p(np.exp(x)))),
    (nn.LogSigmoid(), lambda x: np.log(sig(x))),
    (nn.Softsign(), lambda x: x / (1 + np.abs(x))),
    (nn.Hardtanh(), lambda x: np.clip(x, -1, 1)),
    (nn.CELU(alpha=2.0), lambda x: np.where(x > 0, x, 2 * (np.exp(x / 2) - 1))),
    (nn.SeLU(), lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * (np.exp(x) - 1))),
    (nn.FastGelu(), lambda x: x / (1 + np.exp(-1.702 * np.abs(x))) * np.exp(0.851 * (x - np.abs(x)))),
]


@pytest.mark.parametrize("cell, ref", CASES, ids=[type(c).__name__ for c, _ in CASES])
def test_forward(cell, ref):
    np.testing.assert_allclose(cell(T(X)).asnumpy(), ref(X.astype(np.float64)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("cell", [c for c, _ in CASES], ids=[type(c).__name__ for c, _ in CASES])
def test_gradient_fd(cell):
    x = rng.standard_normal((2, 4)) * 2
    x[np.abs(x) < 0.05] = 0.3  # keep clear of kinks
    x[np.abs(np.abs(x) - 3) < 0.05] = 2.5
    x[np.abs(np.abs(x) - 1) < 0.05] = 0.7
    proj = rng.standard_normal((2, 4))
    f = lambda v: ops.sum(cell(v) * T(proj))
    g = ms.grad(f)(T(x)).asnumpy()
    eps = 1e-6
    num = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        a, b = x.copy(), x.copy()
        a[idx] += eps
        b[idx] -= eps
        num[idx] = (float(f(T(a)).asnumpy()) - float(f(T(b)).asnumpy())) / (2 * eps)
    np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-8)


def test_get_activation():
    assert isinstance(nn.get_activation("relu"), nn.ReLU)
    assert isinstance(nn.get_activation("gelu"), nn.GELU)
    assert isinstance(nn.get_activation("leakyrelu"), nn.LeakyReLU)
    assert nn.get_activation(None) is None
    with pytest.raises(KeyError, match="For 'Dense', the 'name' must be in"):
        nn.get_activation("swishy", "Dense")


def test_prelu():
    p = nn.PReLU(channel=3, w=0.1)
    assert p.w.name == "a" and p.w.shape == (3,)
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    np.testing.assert_allclose(p(T(x)).asnumpy(), np.where(x > 0, x, 0.1 * x), rtol=1e-6)
    (g,) = ms.grad(lambda v: ops.sum(p(v)), None, p.trainable_params())(T(x))
    np.testing.assert_allclose(g.asnumpy(), np.minimum(x, 0).sum((0, 2)), rtol=1e-5)
    with pytest.raises(ValueError, match="For 'PReLU', the 'w' shape"):
        nn.PReLU(channel=2, w=[0.1, 0.2, 0.3])


def test_activation_arg_errors():
    with pytest.raises(TypeError, match="For 'GELU'"):
        nn.GELU(approximate="tanh")
    with pytest.raises(TypeError, match="For 'LeakyReLU'"):
        nn.LeakyReLU(alpha="x")
    with pytest.raises(ValueError, match="For 'Hardtanh'"):
        nn.Hardtanh(1.0, -1.0)
