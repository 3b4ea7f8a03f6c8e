"""Random ops beyond the basic samplers: in-place fills (uniform_, normal_, exponential_, random_), Tensor.uniform,
standard_laplace, truncated normals, log-normal, candidate-free integer draws, RandpermV2,
multinomial_with_replacement, random_categorical and the primitive classes (Gamma, Poisson, RandomGamma,
RandomPoisson...): distributions checked statistically, reproducibility under set_seed, generators."""

import numpy as np
import pytest

import sporax as ms
from sporax import ops

N = 4000


def T(a, dtype=None):
    return ms.Tensor(np.asarray(a), dtype)


def test_in_place_fills_statistics():
    x = T(np.zeros(N, np.float32))
    assert ops.uniform_(x, 2.0, 4.0) is x
    a = x.asnumpy()
    assert a.min() >= 2 and a.max() < 4 and abs(a.mean() - 3) < 0.05
    assert ops.normal_(x, 1.0, 0.5) is x
    a = x.asnumpy()
    assert abs(a.mean() - 1) < 0.05 and abs(a.std() - 0.5) < 0.03
    assert ops.exponential_(x, 2.0) is x
    a = x.asnumpy()
    assert a.min() >= 0 and abs(a.mean() - 0.5) < 0.04
    assert ops.random_(x, 3, 7) is x
    assert set(np.unique(x.asnumpy())) == {3.0, 4.0, 5.0, 6.0}
    y = T(np.zeros(N, np.int32))
    y.random_(0, 2)
    assert set(np.unique(y.asnumpy())) == {0, 1} and y.dtype == ms.int32
    z = T(np.zeros(N, np.float16))
    z.uniform_()
    assert z.dtype == ms.float16 and 0.45 < float(z.asnumpy().astype(np.float32).mean()) < 0.55
    z.normal_(mean=2, std=0.1)
    z.exponential_()
    u = T(np.zeros(N, np.float32)).uniform(-1.0, 1.0)
    assert u.shape == (N,) and abs(u.asnumpy().mean()) < 0.05 and u.asnumpy().min() >= -1
    with pytest.raises(TypeError, match="For 'uniform_', the 'input' must be a float Tensor"):
        ops.uniform_(T([1, 2]))
    with pytest.raises(ValueError, match="For 'exponential_', the 'lambd' must be positive"):
        ops.exponential_(x, 0.0)
    with pytest.raises(ValueError, match="For 'random_', 'from_' must be less than 'to'"):
        ops.random_(x, 5, 5)


def test_parameter_fill_in_place_and_generator():
    p = ms.Parameter(T(np.zeros(N, np.float32)), name="p")
    assert p.uniform_() is p and abs(p.asnumpy().mean() - 0.5) < 0.05
    g1, g2 = ms.Generator(), ms.Generator()
    g1.manual_seed(5)
    g2.manual_seed(5)
    a = ops.normal_(T(np.zeros(8, np.float32)), generator=g1).asnumpy()
    b = ops.normal_(T(np.zeros(8, np.float32)), generator=g2).asnumpy()
    np.testing.assert_array_equal(a, b)
    with pytest.raises(TypeError, match="For 'normal_', the 'generator' must be a Generator"):
        ops.normal_(T(np.zeros(2, np.float32)), generator=3)


def test_reproducible_under_set_seed():
    def draw():
        return [
            ops.uniform_(T(np.zeros(5, np.float32))).asnumpy(),
            ops.standard_laplace((5,)).asnumpy(),
            ops.TruncatedNormal()((5,)).asnumpy(),
            ops.random_(T(np.zeros(5, np.int64)), 0, 100).asnumpy(),
        ]

    ms.set_seed(11)
    first = draw()
    ms.set_seed(11)
    second = draw()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(draw()[0], first[0])


def test_laplace_truncated_lognormal_statistics():
    lp = ops.standard_laplace((N,), seed=3)
    assert lp.dtype == ms.float32 and abs(float(np.median(lp.asnumpy()))) < 0.1
    assert abs(np.abs(lp.asnumpy()).mean() - 1) < 0.1
    tn = ops.TruncatedNormal(seed=1, seed2=2)((N,)).asnumpy()
    assert tn.min() >= -2 and tn.max() <= 2 and abs(tn.mean()) < 0.05 and abs(tn.std() - 0.88) < 0.05
    assert ops.TruncatedNormal(dtype=ms.float16)((3,)).dtype == ms.float16
    ptn = ops.ParameterizedTruncatedNormal()((2, N), T([0.0, 5.0]), T([1.0, 2.0]), T([-1.0, 5.0]), T([1.0, 9.0]))
    a = ptn.asnumpy()
    assert a.shape == (2, N) and a[0].min() >= -1 and a[0].max() <= 1 and a[1].min() >= 5 and a[1].max() <= 9
    ln = ops.LogNormalReverse(0.0, 0.5)(T(np.zeros(N, np.float32))).asnumpy()
    assert ln.min() > 0 and abs(np.log(ln).mean()) < 0.05 and abs(np.log(ln).std() - 0.5) < 0.03


def test_integer_draws_and_permutations():
    ints = ops.NonDeterministicInts()((N,))
    assert ints.dtype == ms.int64 and len(np.unique(ints.asnumpy())) > N - 5
    assert ops.NonDeterministicInts(dtype=ms.int32)((2, 2)).dtype == ms.int32
    with pytest.raises(TypeError, match="For 'NonDeterministicInts', the 'dtype' must be"):
        ops.NonDeterministicInts(dtype=ms.float32)((2,))
    perm = ops.RandpermV2(seed=1, offset=0)(T(10))
    assert perm.dtype == ms.int64 and sorted(perm.asnumpy().tolist()) == list(range(10))
    assert ops.randperm(5, dtype=ms.int32).dtype == ms.int32


def test_multinomial_with_replacement_and_categorical():
    p = T(np.array([[0.0, 1.0, 3.0]], np.float32))
    out = ops.multinomial_with_replacement(p, T(1), T(2), 2000, True)
    counts = np.bincount(out.asnumpy().reshape(-1), minlength=3)
    assert counts[0] == 0 and abs(counts[2] / 2000 - 0.75) < 0.04
    out2 = ops.MultinomialWithReplacement(2, False)(p, T(0), T(0))
    assert sorted(out2.asnumpy()[0].tolist()) == [1, 2]
    logits = T(np.log(np.array([[0.2, 0.8]], np.float32)))
    rc = ops.random_categorical(logits, N, seed=4)
    assert rc.shape == (1, N) and rc.dtype == ms.int64 and abs(rc.asnumpy().mean() - 0.8) < 0.03
    assert logits.random_categorical(3, 0, ms.int32).dtype == ms.int32
    idx, mask = ops.choice_with_mask(T(np.array([[True, False], [True, True]])), 3, seed=1)
    assert idx.shape == (3, 2) and mask.asnumpy().all()


def test_gamma_poisson_primitives():
    g = ops.Gamma(seed=1, seed2=1)((N,), T(2.0), T(4.0)).asnumpy()
    assert abs(g.mean() - 0.5) < 0.04
    rg = ops.RandomGamma(seed=2)((N,), T(np.float32(3.0))).asnumpy()  # the same compiled sampler as Gamma
    assert rg.shape == (N,) and abs(rg.mean() - 3) < 0.15
    po = ops.Poisson(seed=3)((N,), T(4.0))
    assert po.dtype == ms.int32 and abs(po.asnumpy().mean() - 4) < 0.15
    rp = ops.RandomPoisson(seed=4, dtype=ms.int32)((N,), T(np.float32(2.0)))
    assert rp.dtype == ms.int32 and abs(rp.asnumpy().mean() - 2) < 0.1
    un = ops.uniform((N,), T(0.0), T(2.0), seed=5)
    assert un.dtype == ms.float32 and abs(un.asnumpy().mean() - 1) < 0.05


def test_gamma_shape_broadcasts_and_multinomial_dtype():
    alpha = T(np.array([[3.0, 4.0], [5.0, 6.0]], np.float32))
    assert ops.gamma((3, 1, 2), alpha, T(np.array([1.0], np.float32)), seed=5).shape == (3, 2, 2)
    with pytest.raises(ValueError, match="For 'Gamma', broadcast_alpha_beta.shape and shape.shape need to broadcast"):
        ops.gamma((3,), T(np.ones(2, np.float32)), T(np.ones(2, np.float32)))
    assert ops.multinomial(T(np.array([[0.2, 0.8]], np.float32)), 3).dtype == ms.int32
