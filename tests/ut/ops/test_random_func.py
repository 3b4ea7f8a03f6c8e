"""ops random functions: shapes, dtypes, ranges, statistics, reproducibility, state under jit and grad."""

import numpy as np
import pytest

import sporax as ms
from sporax import ops


def T(a, dtype=None):
    return ms.Tensor(a, dtype)


def test_uniform_float_and_int():
    out = ops.uniform((2000,), T(1.0), T(3.0))
    a = out.asnumpy()
    assert out.dtype == ms.float32 and out.shape == (2000,)
    assert a.min() >= 1.0 and a.max() < 3.0 and abs(a.mean() - 2.0) < 0.1
    i = ops.uniform((500,), T(2, ms.int32), T(5, ms.int32), dtype=ms.int32)
    assert i.dtype == ms.int32 and set(np.unique(i.asnumpy())) == {2, 3, 4}
    assert ops.uniform((3, 1), T(np.zeros(4, np.float32)), T(1.0)).shape == (3, 4)
    assert ops.uniform((2,), T(0.0), T(1.0), dtype=ms.float16).dtype == ms.float16


def test_normal_family_statistics():
    a = ops.standard_normal((4000,)).asnumpy()
    assert abs(a.mean()) < 0.1 and abs(a.std() - 1) < 0.1
    b = ops.normal((4000,), T(3.0), T(0.5)).asnumpy()
    assert abs(b.mean() - 3) < 0.1 and abs(b.std() - 0.5) < 0.05
    assert ops.normal((2, 3), 0.0, 1.0).dtype == ms.float32
    assert ops.randn(2, 3).shape == (2, 3) and ops.randn((2, 3)).dtype == ms.float32
    assert ops.randn(4, dtype=ms.float64).dtype == ms.float64
    r = ops.rand(3000).asnumpy()
    assert r.min() >= 0 and r.max() < 1 and abs(r.mean() - 0.5) < 0.05
    assert ops.rand_like(T(np.zeros((2, 2), np.float16))).dtype == ms.float16
    assert ops.randn_like(T(np.zeros(3, np.int32))).dtype == ms.float32
    lp = ops.laplace((4000,), T(1.0), T(1.0)).asnumpy()
    assert abs(np.median(lp) - 1) < 0.15


def test_gamma_poisson():
    g = ops.gamma((3000,), T(np.array([2.0], np.float32)), T(np.array([4.0], np.float32)))
    assert g.shape == (3000,)  # MindSpore 2.10: shape broadcast with alpha/beta's shapes
    assert abs(g.asnumpy().mean() - 0.5) < 0.05
    rg = ops.random_gamma((10,), T(np.array([1.0, 3.0], np.float32)))
    assert rg.shape == (10, 2) and (rg.asnumpy() > 0).all()
    p = ops.poisson((3000,), T(4.0))
    assert p.dtype == ms.int32 and abs(p.asnumpy().mean() - 4) < 0.2
    rp = ops.random_poisson((5,), T(np.array([1.0, 2.0], np.float32)), dtype=ms.int32)
    assert rp.shape == (5, 2) and rp.dtype == ms.int32


def test_randint_randperm():
    r = ops.randint(3, 7, (1000,))
    assert r.dtype == ms.int64 and set(np.unique(r.asnumpy())) == {3, 4, 5, 6}
    assert ops.randint(0, 2, (4,), dtype=ms.int8).dtype == ms.int8
    assert ops.randint_like(T(np.zeros(3, np.int32)), 0, 4).dtype == ms.int32
    with pytest.raises(TypeError, match="For 'randint', the 'size' must be a tuple"):
        ops.randint(0, 2, [3])
    with pytest.raises(ValueError, match="For 'randint', the 'dtype' must be an int dtype"):
        ops.randint(0, 2, (3,), dtype=ms.float32)
    with pytest.raises(ValueError, match="For 'randint', the 'high' must be greater"):
        ops.randint(3, 3, (3,))
    p = ops.randperm(10)
    assert p.dtype == ms.int64 and sorted(p.asnumpy().tolist()) == list(range(10))
    assert ops.randperm(4, dtype=ms.float32).dtype == ms.float32


def test_multinomial_bernoulli_shuffle():
    probs = T(np.array([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5]], np.float32))
    m = ops.multinomial(probs, 50)
    assert m.shape == (2, 50) and m.dtype == ms.int32  # MindSpore 2.10: Int32
    assert (m.asnumpy()[0] == 1).all() and set(np.unique(m.asnumpy()[1])) <= {0, 2}
    w = ops.multinomial(T(np.array([1.0, 1.0, 1.0, 1.0], np.float32)), 4, replacement=False)
    assert sorted(w.asnumpy().tolist()) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="For 'multinomial', without replacement"):
        ops.multinomial(T(np.ones(3, np.float32)), 4, replacement=False)
    b = ops.bernoulli(T(np.zeros(4000, np.float32)), 0.3)
    assert b.dtype == ms.float32 and set(np.unique(b.asnumpy())) <= {0.0, 1.0}
    assert abs(b.asnumpy().mean() - 0.3) < 0.05
    x = np.arange(20).reshape(10, 2)
    s = ops.shuffle(T(x)).asnumpy()
    assert sorted(s[:, 0].tolist()) == list(range(0, 20, 2)) and (s[:, 1] == s[:, 0] + 1).all()
    idx, mask = ops.choice_with_mask(T(np.array([[True, False], [False, True]])), 3)
    assert idx.shape == (3, 2) and idx.dtype == ms.int32
    assert mask.asnumpy().tolist() == [True, True, False]
    assert sorted(map(tuple, idx.asnumpy()[:2].tolist())) == [(0, 0), (1, 1)]


def test_global_seed_reproducibility_and_state_advances():
    ms.set_seed(123)
    a1, a2 = ops.rand(5).asnumpy(), ops.rand(5).asnumpy()
    ms.set_seed(123)
    b1, b2 = ops.rand(5).asnumpy(), ops.rand(5).asnumpy()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(a1, a2)


def test_op_seed_is_deterministic():
    ms.set_seed(3)
    x = ops.standard_normal((4,), seed=7).asnumpy()
    y = ops.standard_normal((4,), seed=7).asnumpy()
    assert not np.array_equal(x, y)  # an op seed gives a sequence, as in MindSpore
    ms.set_seed(3)
    np.testing.assert_array_equal(ops.standard_normal((4,), seed=7).asnumpy(), x)
    np.testing.assert_array_equal(ops.standard_normal((4,), seed=7).asnumpy(), y)
    other = ops.standard_normal((4,), seed=8).asnumpy()
    assert not np.array_equal(other, x)
    with pytest.raises(ValueError, match="For 'rand', the 'seed' must be >= 0"):
        ops.rand(2, seed=-1)
    with pytest.raises(TypeError, match="For 'uniform', the 'seed' must be an int"):
        ops.uniform((2,), T(0.0), T(1.0), seed=1.5)


def test_random_under_jit_advances_and_matches_eager_stream():
    f = ms.jit(lambda: ops.uniform((3,), T(0.0), T(1.0)))
    a, b = f().asnumpy(), f().asnumpy()
    assert not np.array_equal(a, b)
    ms.set_seed(5)
    eager = ops.randn(3).asnumpy()
    ms.set_seed(5)
    jitted = ms.jit(lambda: ops.randn(3))().asnumpy()
    np.testing.assert_allclose(eager, jitted)


def test_random_inside_grad():
    x = T(np.ones(3, np.float32))

    def loss(t):
        mask = ops.bernoulli(t, 0.5)
        return ops.sum(t * mask), mask

    g, (mask,) = ms.grad(loss, has_aux=True)(x)
    np.testing.assert_array_equal(g.asnumpy(), mask.asnumpy())


def test_shape_errors():
    with pytest.raises(TypeError, match="For 'standard_normal', the 'shape' must be a tuple of ints"):
        ops.standard_normal((2.0,))
    with pytest.raises(ValueError, match="For 'uniform', the 'shape' must hold non-negative ints"):
        ops.uniform((-1,), T(0.0), T(1.0))
    with pytest.raises(TypeError, match="For 'rand', the 'dtype' must be a float dtype"):
        ops.rand(2, dtype=ms.int32)
