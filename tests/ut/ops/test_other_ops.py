"""Other/control ops: rotary_position_embedding (against NumPy, with gradients), ReshapeAndCache, the dropout
mask pair, SubAndFilter/MapUniform (MindSpore's documented examples), GeSwitch/Merge, Reusing, PyFunc, Morph
and the candidate samplers (statistics and expected counts)."""

import numpy as np
import pytest

import sporax as ms
from sporax import ops
from sporax.ops import functional as F

RNG = np.random.default_rng(5)


def T(a, dtype=None):
    return ms.Tensor(np.asarray(a), dtype)


def _rope_ref(x, c, s, mode):
    if mode == 0:
        h = x.shape[-1] // 2
        rot = np.concatenate([-x[..., h:], x[..., :h]], -1)
    else:
        rot = np.stack([-x[..., 1::2], x[..., 0::2]], -1).reshape(x.shape)
    return x * c + rot * s


@pytest.mark.parametrize("mode", [0, 1])
def test_rotary_position_embedding(mode):
    x = RNG.standard_normal((2, 3, 4, 8)).astype(np.float32)
    c = RNG.uniform(-1, 1, (1, 1, 4, 8)).astype(np.float32)
    s = RNG.uniform(-1, 1, (1, 1, 4, 8)).astype(np.float32)
    out = ops.rotary_position_embedding(T(x), T(c), T(s), mode)
    np.testing.assert_allclose(out.asnumpy(), _rope_ref(x, c, s, mode), rtol=1e-6, atol=1e-6)
    g = ms.grad(lambda t: ops.sum(ops.rotary_position_embedding(t, T(c), T(s), mode) ** 2))(T(x))
    eps = 1e-6
    x64, c64, s64 = x.astype(np.float64), c.astype(np.float64), s.astype(np.float64)
    d = np.zeros_like(x64)
    d[0, 1, 2, 3] = eps
    num = (np.sum(_rope_ref(x64 + d, c64, s64, mode) ** 2) - np.sum(_rope_ref(x64 - d, c64, s64, mode) ** 2)) / (
        2 * eps
    )
    np.testing.assert_allclose(g.asnumpy()[0, 1, 2, 3], num, rtol=1e-3)
    with pytest.raises(ValueError, match="For 'RotaryPositionEmbedding', the 'mode' must be 0 or 1"):
        ops.rotary_position_embedding(T(x), T(c), T(s), 2)


def test_reshape_and_cache_writes_slots():
    kc = ms.Parameter(T(np.zeros((2, 2, 1, 3), np.float32)), name="kc")
    vc = ms.Parameter(T(np.zeros((2, 2, 1, 3), np.float32)), name="vc")
    key = T(np.arange(6, dtype=np.float32).reshape(2, 3))
    ops.ReshapeAndCache()(key, key * 10, kc, vc, T(np.array([3, 0], np.int32)))
    ref = np.zeros((4, 3), np.float32)
    ref[3], ref[0] = [0, 1, 2], [3, 4, 5]
    np.testing.assert_array_equal(kc.asnumpy().reshape(4, 3), ref)
    np.testing.assert_array_equal(vc.asnumpy().reshape(4, 3), ref * 10)


def test_dropout_mask_pair():
    ms.set_seed(1)
    mask = ops.DropoutGenMask()((8, 100), T(0.75))
    assert mask.dtype == ms.uint8 and mask.shape == (-(-800 // 128) * 16,)
    out = ops.DropoutDoMask()(T(np.ones((8, 100), np.float32)), mask, T(0.75)).asnumpy()
    kept = out > 0
    assert abs(kept.mean() - 0.75) < 0.05 and np.allclose(out[kept], 1 / 0.75)
    again = ops.DropoutDoMask()(T(np.full((8, 100), 2.0, np.float32)), mask, T(0.75)).asnumpy()
    np.testing.assert_array_equal(again > 0, kept)


def test_embedding_cache_id_maps():
    res, idx = ops.SubAndFilter()(T(np.array([1, 3, 5, 8, 9, 16], np.int32)), 10, 5)
    assert res.asnumpy().tolist() == [0, 3, 4] and idx.asnumpy().tolist() == [2, 3, 4]
    out = ops.MapUniform()(T(np.arange(8)), 4, 2)
    assert out.asnumpy().tolist() == [0, 4, 1, 5, 2, 6, 3, 7]


def test_switch_merge_reusing():
    x = T([1.0, 2.0])
    f, t = ops.GeSwitch()(x, T(True))
    data, index = ops.Merge()((f, t))
    assert data is x and int(index.asnumpy()) == 1
    f, t = F.geswitch(x, T(False))
    assert F.merge((f, t))[0] is x and int(ops.merge((f, t))[1].asnumpy()) == 0
    with pytest.raises(TypeError, match="For 'GeSwitch', the 'pred' must be a Tensor"):
        ops.geswitch(x, True)

    def body(v):
        return v + 1

    assert ops.Reusing()(body) is body


def test_pyfunc_and_morph():
    pf = ops.PyFunc(lambda a, b: (a + b, a * b), [ms.float32] * 2, [[2], [2]], [ms.float32] * 2, [[2], [2]])
    s, p = pf(T(np.array([1.0, 2.0], np.float32)), T(np.array([3.0, 4.0], np.float32)))
    assert s.asnumpy().tolist() == [4, 6] and p.asnumpy().tolist() == [3, 8]
    (y,) = ms.jit(lambda a: ops.PyFunc(np.square, [ms.float32], [[2]], [ms.float32], [[2]])(a))(
        T(np.array([2.0, 3.0], np.float32))
    )
    assert y.asnumpy().tolist() == [4, 9]
    m = ops.Morph(lambda a: a * 3, None, None, bprop_fn=lambda a, out, dout: (dout * 100,))
    assert m(T([1.0])).asnumpy().tolist() == [3.0]
    g = ms.grad(lambda a: ops.sum(m(a)))(T([1.0, 2.0]))
    assert g.asnumpy().tolist() == [100, 100]


def test_candidate_samplers():
    tc = T(np.array([[1], [3]]))
    cand, true_exp, samp_exp = ops.UniformCandidateSampler(1, 3, False, 4, seed=1)(tc)
    assert cand.shape == (3,) and np.allclose(true_exp.asnumpy(), 0.75) and np.allclose(samp_exp.asnumpy(), 0.75)
    cand, _, _ = ops.uniform_candidate_sampler(tc, 1, 4, True, 4, seed=2)
    assert sorted(cand.asnumpy().tolist()) == [0, 1, 2, 3]
    cand, _, _ = ops.uniform_candidate_sampler(tc, 1, 2, True, 4, 3, True)
    assert sorted(cand.asnumpy().tolist()) == [0, 2]
    counts = np.zeros(5)
    for seed in range(1, 41):
        c, _, _ = ops.LogUniformCandidateSampler(1, 1, False, 5, seed)(T(np.array([[0]])))
        counts[int(c.asnumpy()[0])] += 1
    assert counts[0] > counts[4]
    c, t, s = ops.log_uniform_candidate_sampler(T(np.array([[0, 1]])), 2, 5, True, 5, 7)
    assert sorted(c.asnumpy().tolist()) == [0, 1, 2, 3, 4] and t.shape == (1, 2) and s.shape == (5,)
    with pytest.raises(ValueError, match="For 'UniformCandidateSampler', 'true_classes' must be in \\[0, 4\\)"):
        ops.uniform_candidate_sampler(T(np.array([[9]])), 1, 1, False, 4)


def test_edit_distance():
    hi = T(np.array([[0, 0, 0], [1, 0, 1], [1, 1, 1]], np.int64))
    hv = T(np.array([1, 2, 3], np.float32))
    ti = T(np.array([[0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1]], np.int64))
    tv = T(np.array([1, 3, 2, 1], np.float32))
    hs, ts = T(np.array([2, 2, 2], np.int64)), T(np.array([2, 2, 3], np.int64))
    out = ops.EditDistance()(hi, hv, hs, ti, tv, ts)  # MindSpore 2.10's documented example: all ones
    assert out.shape == (2, 2) and out.dtype == ms.float32 and (out.asnumpy() == 1).all()
    # "kitten" -> "sitting": 3 edits; normalized by the truth's 7
    h = [ord(c) for c in "kitten"]
    t = [ord(c) for c in "sitting"]
    args = (
        T(np.array([[0, i] for i in range(6)], np.int64)),
        T(np.array(h, np.int64)),
        T(np.array([1, 6], np.int64)),
        T(np.array([[0, i] for i in range(7)], np.int64)),
        T(np.array(t, np.int64)),
        T(np.array([1, 7], np.int64)),
    )
    assert ops.EditDistance(False)(*args).asnumpy().tolist() == [3.0]
    np.testing.assert_allclose(ops.EditDistance(True)(*args).asnumpy(), [3 / 7])
