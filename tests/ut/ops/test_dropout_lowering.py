"""Dropout's keep masks (sporax/ops/_lowering/random.py, two elements per Threefry hash): keep rate, scaling by
1 / (1 - p), reproducibility under set_seed (eagerly and compiled alike), eval-mode identity, edge rates."""

import jax
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.ops._lowering.random import _threefry2x32, keep_mask


def test_unrolled_hash_is_jax_threefry():
    """The unrolled hash gives the bits of jax.random.bits (threefry, partitionable: words xor-ed)."""
    key = jax.random.key(7)
    k1, k2 = jax.random.key_data(key)
    idx = np.arange(10, dtype=np.uint32)
    w1, w2 = _threefry2x32(k1, k2, np.zeros(10, np.uint32), idx)
    np.testing.assert_array_equal(np.asarray(w1 ^ w2), np.asarray(jax.random.bits(key, (10,), np.uint32)))


@pytest.mark.parametrize("p", [0.1, 0.5, 0.9])
def test_keep_rate_and_independence(p):
    m = np.asarray(keep_mask(jax.random.key(0), p, (200, 501)))  # odd size: the two halves of the words
    n = m.size
    assert abs(m.mean() - p) < 5 * np.sqrt(p * (1 - p) / n)
    # neighbours and the two words of one hash (elements i and i + ceil(n / 2)) are uncorrelated
    flat = m.ravel().astype(np.float64)
    h = (n + 1) // 2
    for a, b in ((flat[:-1], flat[1:]), (flat[: n - h], flat[h:])):
        assert abs(np.corrcoef(a, b)[0, 1]) < 5 / np.sqrt(n)


def test_edge_rates_and_compiled_equals_eager():
    key = jax.random.key(3)
    assert not np.asarray(keep_mask(key, 0.0, (5, 3))).any()
    assert np.asarray(keep_mask(key, 1.0, (5, 3))).all()
    eager = np.asarray(keep_mask(key, 0.7, (4, 9)))
    np.testing.assert_array_equal(eager, np.asarray(jax.jit(lambda k: keep_mask(k, 0.7, (4, 9)))(key)))
    assert not np.array_equal(eager, np.asarray(keep_mask(jax.random.key(4), 0.7, (4, 9))))


def test_dropout_scaling_seed_and_eval():
    x = Tensor(np.full((64, 64), 2.0, np.float32))
    ms.set_seed(11)
    a = ops.dropout(x, p=0.25).asnumpy()
    b = ops.dropout(x, p=0.25).asnumpy()
    ms.set_seed(11)
    np.testing.assert_array_equal(a, ops.dropout(x, p=0.25).asnumpy())  # the same seed, the same masks
    assert not np.array_equal(a, b)  # the stream advances
    assert set(np.unique(a)) == {0.0, np.float32(2.0 / 0.75)}
    assert abs((a == 0).mean() - 0.25) < 0.03
    np.testing.assert_array_equal(ops.dropout(x, p=0.25, training=False).asnumpy(), x.asnumpy())
    drop = nn.Dropout(p=0.25)
    drop.set_train(False)
    np.testing.assert_array_equal(drop(x).asnumpy(), x.asnumpy())
    out, mask = ops.Dropout(keep_prob=0.75)(x)
    np.testing.assert_array_equal(out.asnumpy(), mask.asnumpy() * np.float32(2.0 / 0.75))


def test_dropout_in_a_compiled_gradient_uses_its_forward_mask():
    ms.set_seed(5)
    x = Tensor(np.ones((32, 32), np.float32))
    y, g = ms.value_and_grad(lambda t: ops.dropout(t, p=0.5).sum())(x)
    np.testing.assert_allclose(float(y.asnumpy()), g.asnumpy().sum())
    assert set(np.unique(g.asnumpy())) == {0.0, 2.0}


def test_default_keys_take_the_unrolled_path(monkeypatch):
    """sporax's keys are Threefry keys: the masks come from the unrolled hash, not jax.random.bits."""
    monkeypatch.setattr(jax.random, "bits", lambda *a, **k: pytest.fail("jax.random.bits used"))
    assert keep_mask(jax.random.key(0), 0.5, (6, 5)).shape == (6, 5)
