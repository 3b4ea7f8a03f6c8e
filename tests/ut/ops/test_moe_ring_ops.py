"""moe_token_permute / moe_token_unpermute (MindSpore's documented examples, top-k routing with probabilities,
dropped tokens, gradients) and ring_attention_update (two key blocks merged equal attention over all keys);
Ascend-only kernels in MindSpore 2.10, checked against NumPy."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops


def test_moe_permute_unpermute_examples_and_topk():
    tokens = np.array([[1, 1, 1], [7, 7, 7], [2, 2, 2], [1, 1, 1], [2, 2, 2], [3, 3, 3]], np.float32)
    out, idx = ops.moe_token_permute(Tensor(tokens), Tensor(np.array([5, 0, 3, 1, 2, 4], np.int32)))
    assert out.asnumpy()[:, 0].tolist() == [7, 1, 2, 2, 3, 1] and idx.asnumpy().tolist() == [5, 0, 3, 1, 2, 4]
    assert idx.dtype == ms.int32
    rng = np.random.RandomState(0)
    tok = rng.randn(5, 4).astype(np.float32)
    experts = np.array([[2, 0], [1, 2], [0, 1], [2, 1], [0, 0]], np.int64)
    out, idx = ops.moe_token_permute(Tensor(tok), Tensor(experts))
    order = np.argsort(experts.reshape(-1), kind="stable")
    np.testing.assert_array_equal(out.asnumpy(), tok[order // 2])
    np.testing.assert_array_equal(idx.asnumpy()[order], np.arange(10))
    probs = rng.rand(5, 2).astype(np.float32)
    back = ops.moe_token_unpermute(out, idx, Tensor(probs)).asnumpy()
    np.testing.assert_allclose(back, tok * probs.sum(1, keepdims=True), rtol=1e-5)
    cut, idx6 = ops.moe_token_permute(Tensor(tok), Tensor(experts), num_out_tokens=6)
    assert cut.shape == (6, 4)
    partial = ops.moe_token_unpermute(cut, idx6).asnumpy()
    kept = idx6.asnumpy() < 6
    np.testing.assert_array_equal(partial[kept], np.repeat(tok, 2, 0)[kept])
    assert np.all(partial[~kept] == 0)
    g = ms.grad(lambda t: (ops.moe_token_permute(t, Tensor(experts))[0] * 2).sum())(Tensor(tok))
    np.testing.assert_allclose(g.asnumpy(), np.full((5, 4), 4.0), rtol=1e-6)  # each token used twice


def _block(q, k, v):
    s = np.einsum("bnld,bnsd->bnls", q, k)
    m = s.max(-1, keepdims=True)
    e = np.exp(s - m)
    return np.einsum("bnls,bnsd->bnld", e / e.sum(-1, keepdims=True), v), m, e.sum(-1, keepdims=True)


@pytest.mark.parametrize("layout", ["SBH", "TND"])
def test_ring_attention_update_merges_blocks(layout):
    rng = np.random.RandomState(1)
    b, n, s, d = 1 if layout == "TND" else 2, 2, 3, 4
    q, k, v = (rng.randn(b, n, s if i == 0 else 6, d).astype(np.float32) for i in range(3))
    full, _, _ = _block(q, k, v)
    (o1, m1, s1), (o2, m2, s2) = _block(q, k[:, :, :2], v[:, :, :2]), _block(q, k[:, :, 2:], v[:, :, 2:])

    def out_layout(o):  # (B, N, S, D) ->
        return o.transpose(2, 0, 1, 3).reshape(s, b, n * d) if layout == "SBH" else o[0].transpose(1, 0, 2)

    def stat_layout(t):  # (B, N, S, 1) -> 8 copies
        t8 = np.repeat(t, 8, -1)
        return t8 if layout == "SBH" else t8[0].transpose(1, 0, 2)

    args = [out_layout(o1), stat_layout(m1), stat_layout(s1), out_layout(o2), stat_layout(m2), stat_layout(s2)]
    extra = {"actual_seq_qlen": Tensor(np.array([0, s], np.int64))} if layout == "TND" else {}
    out, m, tot = ops.ring_attention_update(*(Tensor(a) for a in args), layout=layout, **extra)
    np.testing.assert_allclose(out.asnumpy(), out_layout(full), rtol=1e-5, atol=1e-6)
    mm = np.maximum(m1, m2)
    np.testing.assert_allclose(m.asnumpy(), stat_layout(mm), rtol=1e-6)
    want = np.exp(m1 - mm) * s1 + np.exp(m2 - mm) * s2
    np.testing.assert_allclose(tot.asnumpy(), stat_layout(want), rtol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match="'padded_mode' True is not supported"):
        ops.moe_token_permute(Tensor(np.ones((2, 2), np.float32)), Tensor(np.zeros(2, np.int32)), padded_mode=True)
    with pytest.raises(TypeError, match="the dtype of 'indices' must be int32 or int64"):
        ops.moe_token_permute(Tensor(np.ones((2, 2), np.float32)), Tensor(np.zeros(2, np.float32)))
    with pytest.raises(RuntimeError, match="'actual_seq_qlen' is required"):
        t = Tensor(np.ones((2, 1, 4), np.float32))
        st = Tensor(np.ones((2, 1, 8), np.float32))
        ops.ring_attention_update(t, st, st, t, st, st, layout="TND")
