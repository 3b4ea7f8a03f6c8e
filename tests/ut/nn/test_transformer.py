"""nn.MultiheadAttention and the Transformer layers against MindSpore 2.10 (outputs, attention weights and
gradients), parameter names, masks, the fused attention path, dropout and errors."""

import numpy as np
import pytest
from _seq_ref import check_case

from sporax import Tensor, nn, ops

CASES = [
    ("mha_self", lambda: nn.MultiheadAttention(8, 2)),
    ("mha_masks", lambda: nn.MultiheadAttention(8, 2, batch_first=True)),
    ("mha_float_masks", lambda: nn.MultiheadAttention(8, 2)),
    ("mha_kvdim_biaskv", lambda: nn.MultiheadAttention(8, 4, add_bias_kv=True, add_zero_attn=True, kdim=6, vdim=3)),
    ("enc_layer_post", lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)),
    (
        "enc_layer_pre_gelu",
        lambda: nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", norm_first=True, batch_first=True),
    ),
    ("dec_layer", lambda: nn.TransformerDecoderLayer(8, 2, 16)),
    ("transformer", lambda: nn.Transformer(8, 2, 1, 1, 16)),
]


@pytest.mark.parametrize("name,factory", CASES, ids=[c[0] for c in CASES])
def test_against_mindspore(name, factory):
    net = factory()
    net.set_train(False)
    # gradients where they cover distinct code (separate projections with bias_kv/zero_attn, the encoder and the
    # decoder layer); outputs for all (each gradient is one more XLA compilation)
    check_case(name, net, rtol=1e-4, atol=1e-5, grads=name in ("mha_kvdim_biaskv", "enc_layer_post", "dec_layer"))


def test_parameter_names_and_inits():
    mha = nn.MultiheadAttention(8, 2, add_bias_kv=True)
    assert [p.name for p in mha.get_parameters()] == [
        "in_proj_weight",
        "in_proj_bias",
        "bias_k",
        "bias_v",
        "out_proj.weight",
        "out_proj.bias",
    ]
    assert np.all(mha.in_proj_bias.asnumpy() == 0)
    bound = np.sqrt(6 / (8 + 24))  # XavierUniform of (24, 8)
    assert np.abs(mha.in_proj_weight.asnumpy()).max() <= bound
    sep = nn.MultiheadAttention(8, 2, kdim=4, vdim=4, has_bias=False)
    assert [p.name for p in sep.get_parameters()] == [
        "q_proj_weight",
        "k_proj_weight",
        "v_proj_weight",
        "out_proj.weight",
    ]
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2)
    names = [p.name for p in enc.get_parameters()]
    assert names[0] == "layers.0.self_attn.in_proj_weight" and names[-1] == "layers.1.norm2.beta"
    assert len(names) == 2 * 12
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 2, nn.LayerNorm((8,)))
    dnames = [p.name for p in dec.get_parameters()]
    assert dnames[0] == "layers.0.self_attn.in_proj_weight" and dnames[-1] == "norm.beta"
    assert "layers.1.multihead_attn.out_proj.weight" in dnames and len(dnames) == 2 * 18 + 2


def test_fused_path_equals_weights_path_and_dropout():
    import jax

    from sporax.ops.function.attention_func import multi_head_attention_forward

    mha = nn.MultiheadAttention(8, 2, dropout=0.5)
    mha.set_train(False)
    x = Tensor(np.random.RandomState(0).randn(4, 3, 8).astype(np.float32))
    mask = Tensor(np.triu(np.ones((4, 4), bool), 1))
    (fused,) = mha(x, x, x, need_weights=False, attn_mask=mask)
    full, w = mha(x, x, x, attn_mask=mask)
    np.testing.assert_allclose(fused.asnumpy(), full.asnumpy(), rtol=1e-5, atol=1e-6)
    assert np.all(w.asnumpy()[:, 0, 1:] == 0)  # causal: the first query sees only the first key
    np.testing.assert_allclose(w.asnumpy().sum(-1), 1, rtol=1e-5)

    calls = []
    real = jax.nn.dot_product_attention
    jax.nn.dot_product_attention = lambda *a, **k: calls.append(1) or real(*a, **k)
    try:
        t = Tensor(np.random.RandomState(1).randn(4, 3, 8).astype(np.float32))
        o, none = multi_head_attention_forward(
            t,
            t,
            t,
            8,
            2,
            mha.in_proj_weight,
            mha.in_proj_bias,
            None,
            None,
            False,
            0.0,
            mha.out_proj.weight,
            mha.out_proj.bias,
            need_weights=False,
            q_is_k=True,
            k_is_v=True,
        )
    finally:
        jax.nn.dot_product_attention = real
    assert calls and none is None and o.shape == (4, 3, 8)  # the fused path
    mha.set_train(True)
    a, wa = mha(x, x, x)
    b, wb = mha(x, x, x)
    assert not np.allclose(wa.asnumpy(), wb.asnumpy())
    # the returned weights are after dropout, averaged over the 2 heads: zero where both heads dropped
    assert np.isclose((wa.asnumpy() == 0).mean(), 0.25, atol=0.15)
    _, heads = mha(x, x, x, average_attn_weights=False)
    h = heads.asnumpy()
    assert h.shape == (3, 2, 4, 4) and np.isclose((h == 0).mean(), 0.5, atol=0.15)
    mha.set_train(False)
    _, plain = mha(x, x, x, average_attn_weights=False)
    kept = h != 0
    np.testing.assert_allclose(h[kept], 2 * plain.asnumpy()[kept], rtol=1e-5)  # scaled by 1 / (1 - p)


def test_unbatched_and_encoder_decoder_shapes():
    mha = nn.MultiheadAttention(8, 2)
    q = Tensor(np.ones((4, 8), np.float32))
    out, w = mha(q, q, q)
    assert out.shape == (4, 8) and w.shape == (4, 4)
    _, wh = mha(q, q, q, average_attn_weights=False)
    assert wh.shape == (2, 4, 4)
    net = nn.Transformer(8, 2, 2, 2, 16, batch_first=True)
    assert len(net.encoder.layers) == 2 and len(net.decoder.layers) == 2
    for p in net.trainable_params():  # re-initialised with xavier_uniform
        if p.ndim > 1:
            assert np.abs(p.asnumpy()).max() <= np.sqrt(6 / sum(p.shape[:2]))


X = Tensor(np.ones((4, 2, 8), np.float32))
ERRORS = [
    (
        lambda: nn.MultiheadAttention(8, 3),
        ValueError,
        "The init argument 'embed_dim' must be divisible by 'num_heads'.",
    ),
    (lambda: nn.MultiheadAttention(8, 2)(X, X[:, :, :4], X), ValueError, "does not match `value`"),
    (
        lambda: nn.MultiheadAttention(8, 2)(X, X, X, attn_mask=Tensor(np.ones((3, 4), np.float32))),
        ValueError,
        "The shape of the `attn_mask` should be (4, 4), but got (3, 4).",
    ),
    (
        lambda: nn.MultiheadAttention(8, 2)(X, X, X, key_padding_mask=Tensor(np.ones((2, 4), np.int32))),
        ValueError,
        "only bool and floating types of key_padding_mask are supported",
    ),
    (lambda: nn.MultiheadAttention(8, 2)(X[0, 0], X, X), ValueError, "The `query` should be unbatched 2D or batched"),
    (lambda: nn.TransformerEncoderLayer(8, 2, activation=nn.Tanh()), ValueError, "must be nn.ReLU or nn.GELU"),
    (lambda: nn.TransformerEncoderLayer(8, 2, activation=ops.tanh), ValueError, "must be ops.relu or ops.gelu"),
    (lambda: nn.TransformerEncoderLayer(8, 2, activation="tanh"), ValueError, "The activation must be relu/gelu"),
    (lambda: nn.Transformer(8, 2, 1, 1, 16)(X, X[:, :, :4]), ValueError, "must be equal to `d_model`"),
]


@pytest.mark.parametrize("fn,err,msg", ERRORS)
def test_errors(fn, err, msg):
    with pytest.raises(err) as info:
        fn()
    assert msg in str(info.value)
