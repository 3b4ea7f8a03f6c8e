"""Initializers: shapes, dtypes, statistics, every weight_init form."""

import math

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor
from sporax.common import initializer as init


@pytest.mark.parametrize(
    "name",
    [
        "zeros",
        "ones",
        "normal",
        "uniform",
        "truncatedNormal",
        "xavier_uniform",
        "he_uniform",
        "he_normal",
        "XavierNormal",
    ],
)
def test_names_give_tensors_of_shape_and_dtype(name):
    t = init.initializer(name, (8, 4), ms.float16)
    assert isinstance(t, Tensor) and t.shape == (8, 4) and t.dtype == ms.float16


def test_constant_number_tensor_and_array_forms():
    assert init.initializer(0.5, [2]).asnumpy().tolist() == [0.5, 0.5]
    assert init.initializer(init.Constant(3), (2,), ms.int32).asnumpy().tolist() == [3, 3]
    t = init.initializer(Tensor(np.arange(4.0).reshape(2, 2)), (2, 2), ms.float32)
    assert t.dtype == ms.float32 and t.asnumpy()[1, 1] == 3.0
    with pytest.raises(ValueError, match="shape of the init tensor"):
        init.initializer(Tensor(np.zeros(3)), (2,))
    with pytest.raises(ValueError, match="not supported"):
        init.initializer("nope", (2,))
    with pytest.raises(TypeError):
        init.initializer(object(), (2,))


def test_statistics():
    ms.set_seed(1)
    n = init.initializer(init.Normal(sigma=0.5, mean=1.0), (200, 200)).asnumpy()
    assert abs(n.mean() - 1.0) < 0.01 and abs(n.std() - 0.5) < 0.01
    u = init.initializer(init.Uniform(scale=0.3), (100, 100)).asnumpy()
    assert u.min() >= -0.3 and u.max() <= 0.3 and abs(u.mean()) < 0.01
    t = init.initializer(init.TruncatedNormal(sigma=1.0), (100, 100)).asnumpy()
    assert t.min() >= -2.0 and t.max() <= 2.0
    fan_in, fan_out = 30, 20
    he = init.initializer(init.HeUniform(negative_slope=math.sqrt(5)), (fan_out, fan_in)).asnumpy()
    bound = math.sqrt(3) * math.sqrt(2 / (1 + 5)) / math.sqrt(fan_in)
    assert he.max() <= bound and he.max() > 0.9 * bound
    xu = init.initializer("xavier_uniform", (fan_out, fan_in)).asnumpy()
    assert xu.max() <= math.sqrt(6 / (fan_in + fan_out))
    q = init.initializer(init.Orthogonal(), (4, 4)).asnumpy()
    np.testing.assert_allclose(q @ q.T, np.eye(4), atol=1e-5)
    np.testing.assert_array_equal(init.initializer(init.Identity(), (2, 3)).asnumpy(), np.eye(2, 3))


def test_seed_makes_initialisation_reproducible():
    ms.set_seed(3)
    a = init.initializer("normal", (5,)).asnumpy()
    ms.set_seed(3)
    np.testing.assert_array_equal(init.initializer("normal", (5,)).asnumpy(), a)


def test_tensor_with_init_and_shape():
    t = Tensor(shape=(2, 3), dtype=ms.float32, init=init.One())
    assert t.init_data().asnumpy().sum() == 6.0
