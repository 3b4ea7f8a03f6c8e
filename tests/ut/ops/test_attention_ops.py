"""flash_attention_score, speed_fusion_attention, prompt_flash_attention, incre_flash_attention and
fused_infer_attention_score (Ascend-only kernels in MindSpore 2.10, one XLA path in sporax) against a NumPy
softmax attention: layouts BSH/BNSD/SBH/BSND, grouped-query heads, bool masks, sparse modes, valid lengths,
log-sum-exp, gradients."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops

RNG = np.random.RandomState(0)
B, N, S1, S2, D = 2, 4, 3, 5, 8


def _ref(q, k, v, scale, masked=None, pse=None):
    """q (B, N, S1, D), k/v (B, Nkv, S2, D) -> (out, lse)."""
    rep = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, rep, 1), np.repeat(v, rep, 1)
    s = np.einsum("bnld,bnsd->bnls", q, k) * scale
    if pse is not None:
        s = s + pse
    if masked is not None:
        s = np.where(masked, -np.inf, s)
    m = s.max(-1, keepdims=True)
    e = np.exp(s - m)
    lse = np.log(e.sum(-1, keepdims=True)) + m
    return np.einsum("bnls,bnsd->bnld", e / e.sum(-1, keepdims=True), v), lse


def _bnsd(n_kv=N, s1=S1, s2=S2):
    q = RNG.randn(B, N, s1, D).astype(np.float32)
    k = RNG.randn(B, n_kv, s2, D).astype(np.float32)
    v = RNG.randn(B, n_kv, s2, D).astype(np.float32)
    return q, k, v


def _to(layout, t):
    b, n, s, d = t.shape
    if layout == "BNSD":
        return t
    if layout == "BSND":
        return t.transpose(0, 2, 1, 3)
    bsh = t.transpose(0, 2, 1, 3).reshape(b, s, n * d)
    return bsh.transpose(1, 0, 2) if layout == "SBH" else bsh


@pytest.mark.parametrize("layout", ["BSH", "BNSD", "SBH", "BSND"])
@pytest.mark.parametrize("n_kv", [4, 2])
def test_flash_attention_layouts_and_gqa(layout, n_kv):
    q, k, v = _bnsd(n_kv)
    mask = RNG.rand(S1, S2) < 0.3
    mask[:, 0] = False
    pse = RNG.randn(1, N, S1, S2).astype(np.float32)
    out = ops.flash_attention_score(
        Tensor(_to(layout, q)), Tensor(_to(layout, k)), Tensor(_to(layout, v)), N, real_shift=Tensor(pse),
        attn_mask=Tensor(mask.astype(np.uint8)), scalar_value=0.3, input_layout=layout,
    )  # fmt: skip
    want, _ = _ref(q, k, v, 0.3, mask[None, None], pse)
    np.testing.assert_allclose(out.asnumpy(), _to(layout, want), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("mode", [2, 3, 4])
def test_sparse_modes(mode):
    q, k, v = _bnsd()
    i, j = np.arange(S1)[:, None], np.arange(S2)[None]
    masked = {2: j > i, 3: j > i + (S2 - S1), 4: (j > i + 1) | (j < i - 1)}[mode]
    out = ops.flash_attention_score(
        Tensor(q), Tensor(k), Tensor(v), N, attn_mask=Tensor(np.ones((2048, 2048), np.uint8)), scalar_value=0.5,
        pre_tokens=1, next_tokens=1, input_layout="BNSD", sparse_mode=mode,
    )  # fmt: skip
    np.testing.assert_allclose(out.asnumpy(), _ref(q, k, v, 0.5, masked)[0], rtol=1e-4, atol=1e-5)


def test_gradients_and_dropout():
    q, k, v = _bnsd()
    probe = RNG.randn(*q.shape).astype(np.float32)

    def loss(a, b, c):
        return (ops.flash_attention_score(a, b, c, N, scalar_value=0.4, input_layout="BNSD") * Tensor(probe)).sum()

    g = ms.grad(loss, grad_position=0)(Tensor(q), Tensor(k), Tensor(v)).asnumpy()
    eps, idx = 1e-3, (1, 2, 0, 3)
    qp, qm = q.copy(), q.copy()
    qp[idx] += eps
    qm[idx] -= eps
    num = ((_ref(qp, k, v, 0.4)[0] - _ref(qm, k, v, 0.4)[0]) * probe).sum() / (2 * eps)
    np.testing.assert_allclose(g[idx], num, rtol=2e-2, atol=1e-3)
    ms.set_seed(2)
    a = ops.flash_attention_score(Tensor(q), Tensor(k), Tensor(v), N, keep_prob=0.5, input_layout="BNSD")
    assert not np.allclose(a.asnumpy(), _ref(q, k, v, 1.0)[0], atol=1e-3)


def test_inference_entry_points():
    q, k, v = _bnsd(2)
    lens_kv = np.array([3, 5])
    masked = np.arange(S2)[None, None, None] >= lens_kv[:, None, None, None]
    want, lse = _ref(q, k, v, 0.35, masked)
    out = ops.prompt_flash_attention(
        Tensor(_to("BSH", q)), Tensor(_to("BSH", k)), Tensor(_to("BSH", v)), actual_seq_lengths_kv=[3, 5],
        num_heads=N, scale_value=0.35, next_tokens=2147483647, num_key_value_heads=2,
    )  # fmt: skip
    np.testing.assert_allclose(out.asnumpy(), _to("BSH", want), rtol=1e-4, atol=1e-5)
    out, got_lse = ops.fused_infer_attention_score(
        Tensor(q), [Tensor(k)], [Tensor(v)], actual_seq_lengths_kv=Tensor(lens_kv), num_heads=N, scale=0.35,
        input_layout="BNSD", softmax_lse_flag=True,
    )  # fmt: skip
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_lse.asnumpy(), lse, rtol=1e-4, atol=1e-5)
    q1 = q[:, :, :1]
    out = ops.incre_flash_attention(
        Tensor(q1), [Tensor(k)], [Tensor(v)], actual_seq_lengths=[3, 5], num_heads=N, input_layout="BNSD",
        scale_value=0.35, num_key_value_heads=2,
    )  # fmt: skip
    np.testing.assert_allclose(out.asnumpy(), _ref(q1, k, v, 0.35, masked)[0], rtol=1e-4, atol=1e-5)
    # rows past a query's valid length give zeros
    out = ops.prompt_flash_attention(
        Tensor(q),
        Tensor(k),
        Tensor(v),
        actual_seq_lengths=[1, 3],
        num_heads=N,
        input_layout="BNSD",
        next_tokens=2147483647,
        num_key_value_heads=2,
    )
    assert np.all(out.asnumpy()[0, :, 1:] == 0) and np.any(out.asnumpy()[1] != 0)
    sfa = ops.speed_fusion_attention(Tensor(q), Tensor(k), Tensor(v), N, "BNSD", scale=0.35)
    np.testing.assert_allclose(sfa[0].asnumpy(), _ref(q, k, v, 0.35)[0], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(sfa[1].asnumpy(), _ref(q, k, v, 0.35)[1], rtol=1e-4, atol=1e-5)


ERRORS = [
    (
        lambda: ops.flash_attention_score(
            Tensor(np.ones((1, 2, 8), np.float32)),
            Tensor(np.ones((1, 2, 8), np.float32)),
            Tensor(np.ones((1, 2, 8), np.float32)),
            2,
            input_layout="TND",
        ),
        ValueError,
        "'input_layout' must be one of",
    ),
    (
        lambda: ops.prompt_flash_attention(
            Tensor(np.ones((1, 2, 8), np.float32)),
            Tensor(np.ones((1, 2, 8), np.float32)),
            Tensor(np.ones((1, 2, 8), np.float32)),
            quant_scale1=Tensor([1.0]),
        ),
        ValueError,
        "'quant_scale1'",
    ),
    (
        lambda: ops.flash_attention_score(
            Tensor(np.ones((1, 2, 8), np.float32)),
            Tensor(np.ones((1, 2, 8), np.float32)),
            Tensor(np.ones((1, 2, 8), np.float32)),
            2,
            keep_prob=0.0,
        ),
        ValueError,
        "'keep_prob' must be in range (0.0, 1.0]",
    ),
]


@pytest.mark.parametrize("fn,err,msg", ERRORS)
def test_errors(fn, err, msg):
    with pytest.raises(err) as info:
        fn()
    assert msg in str(info.value)
