"""Multi-head attention with MindSpore's semantics (``nn.MultiheadAttention`` and the Transformer layers call
:func:`multi_head_attention_forward`, as MindSpore's ``ops.function.nn_func`` one). The attention product itself
is ``ops/_lowering/attention.py``: one fused path per backend.

Masks: a bool ``attn_mask``/``key_padding_mask`` marks with True the positions that may NOT be attended
(they become ``-inf``); a float mask is added to the scores; a uint8 ``attn_mask`` counts as bool.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._engine import jax, jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._lowering.attention import attention
from .._utils import as_tensor_array, compiled_op, wrap

__all__ = [
    "flash_attention_score",
    "speed_fusion_attention",
    "prompt_flash_attention",
    "incre_flash_attention",
    "fused_infer_attention_score",
    "ring_attention_update",
]


def _linear(x: Any, w: Any, b: Any) -> Any:
    y = jnp.matmul(x, w.T)
    return y if b is None else y + b


def _mask_dtype_ok(m: Any) -> bool:
    return m.dtype == jnp.bool_ or jnp.issubdtype(m.dtype, jnp.floating)


@compiled_op
def multi_head_attention_forward(
    query: Any,
    key: Any,
    value: Any,
    embed_dim_to_check: int,
    num_heads: int,
    in_proj_weight: Any,
    in_proj_bias: Any,
    bias_k: Any,
    bias_v: Any,
    add_zero_attn: bool,
    dropout_p: float,
    out_proj_weight: Any,
    out_proj_bias: Any,
    training: bool = True,
    key_padding_mask: Any = None,
    attn_mask: Any = None,
    use_separate_proj_weight: bool = False,
    q_proj_weight: Any = None,
    k_proj_weight: Any = None,
    v_proj_weight: Any = None,
    static_k: Any = None,
    static_v: Any = None,
    average_attn_weights: bool = True,
    is_causal: bool = False,
    k_is_v: bool = False,
    q_is_k: bool = False,
    dtype: Any = mstype.float32,
    need_weights: bool = True,
) -> tuple[Tensor, Tensor | None]:
    """Multi-head attention over ``(L, N, E)`` queries and ``(S, N, E)`` keys/values (or unbatched 2-D);
    returns ``(output (L, N, E), weights (N, L, S))`` (weights per head ``(N, num_heads, L, S)`` when
    ``average_attn_weights`` is False). ``is_causal`` masks the positions above the diagonal. With
    ``need_weights=False`` (sporax's addition) the weights are not formed (None) and, without dropout, the
    product takes the backend's fused attention."""
    del dtype  # MindSpore's scaling constant dtype: the scores are scaled in the inputs' dtype
    q_in, k_in, v_in = (as_tensor_array(t) for t in (query, key, value))
    kpm = None if key_padding_mask is None else as_tensor_array(key_padding_mask)
    am = None if attn_mask is None else as_tensor_array(attn_mask)
    is_batched = validator.check_mha_shapes(q_in, k_in, v_in, kpm, am, num_heads)
    if not is_batched:
        q_in, k_in, v_in = q_in[:, None], k_in[:, None], v_in[:, None]
        if kpm is not None:
            kpm = kpm[None]
    tgt_len, bsz, embed_dim = q_in.shape
    src_len = k_in.shape[0]
    if kpm is not None and not _mask_dtype_ok(kpm):
        raise ValueError("The `key_padding_mask` only supports bool and floating dtypes.")
    if embed_dim != embed_dim_to_check:
        raise ValueError(f"The `embed_dim` should be {embed_dim_to_check}, but got {embed_dim}.")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(f"The `embed_dim` {embed_dim} can not be divisible by `num_heads` {num_heads}.")
    if use_separate_proj_weight:
        if k_in.shape[:2] != v_in.shape[:2]:
            raise ValueError(
                f"The sequence length and batch dims of `key`: {k_in.shape[:2]} do not match `value`: {v_in.shape[:2]}."
            )
    elif k_in.shape != v_in.shape:
        raise ValueError(f"The shape of `key` {k_in.shape} does not match `value` {v_in.shape}.")

    arr = as_tensor_array
    b_in = None if in_proj_bias is None else arr(in_proj_bias)
    b_q = b_k = b_v = None
    if b_in is not None:
        b_q, b_k, b_v = b_in[:embed_dim], b_in[embed_dim : 2 * embed_dim], b_in[2 * embed_dim :]
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise ValueError("`use_separate_proj_weight` is ``False`` but `in_proj_weight` got ``None``.")
        w = arr(in_proj_weight)
        if q_is_k and k_is_v:  # self-attention: one GEMM
            q, k, v = jnp.split(_linear(q_in, w, b_in), 3, axis=-1)
        else:
            w_q, w_k, w_v = w[:embed_dim], w[embed_dim : 2 * embed_dim], w[2 * embed_dim :]
            q, k, v = _linear(q_in, w_q, b_q), _linear(k_in, w_k, b_k), _linear(v_in, w_v, b_v)
    else:
        for name, t in (("q_proj_weight", q_proj_weight), ("k_proj_weight", k_proj_weight),
                        ("v_proj_weight", v_proj_weight)):  # fmt: skip
            if t is None:
                raise ValueError(f"`use_separate_proj_weight` is ``True`` but `{name}` got ``None``.")
        q = _linear(q_in, arr(q_proj_weight), b_q)
        k = _linear(k_in, arr(k_proj_weight), b_k)
        v = _linear(v_in, arr(v_proj_weight), b_v)

    if am is not None:
        if am.dtype == jnp.uint8:
            am = am.astype(jnp.bool_)
        elif not _mask_dtype_ok(am):
            raise ValueError(
                f"`attn_mask` only support float, byte, and bool types, but got not {mstype.from_np(am.dtype)}."
            )
        if am.ndim == 2:
            if am.shape != (tgt_len, src_len):
                raise ValueError(
                    f"The shape of the `attn_mask` should be {(tgt_len, src_len)}, but got {tuple(am.shape)}."
                )
            am = am[None]
        else:
            want = (bsz * num_heads, tgt_len, src_len)
            if am.shape != want:
                raise ValueError(f"The shape of the `attn_mask` should be {want}, but got {tuple(am.shape)}.")

    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise ValueError("The bias_k cannot be added to static_k.")
        if static_v is not None:
            raise ValueError("The bias_v cannot be added to static_v.")
        k = jnp.concatenate([k, jnp.tile(arr(bias_k).astype(k.dtype), (1, bsz, 1))])
        v = jnp.concatenate([v, jnp.tile(arr(bias_v).astype(v.dtype), (1, bsz, 1))])
        if am is not None:
            am = jnp.pad(am, ((0, 0), (0, 0), (0, 1)))
        if kpm is not None:
            kpm = jnp.pad(kpm, ((0, 0), (0, 1)))
    elif bias_k is not None or bias_v is not None:
        raise ValueError("The bias_k and bias_v should be ``None``at the same time.")

    def heads(t: Any, static: Any, name: str) -> Any:
        if static is None:
            return jnp.swapaxes(t.reshape(t.shape[0], bsz * num_heads, head_dim), 0, 1)
        s = arr(static)
        if s.shape[0] != bsz * num_heads:
            raise ValueError(f"The shape[0] of `{name}` should be {bsz * num_heads}, but got {s.shape[0]}")
        if s.shape[2] != head_dim:
            raise ValueError(f"The shape[2] of `{name}` should be {head_dim}, but got {s.shape[2]}")
        return s

    q = jnp.swapaxes(q.reshape(tgt_len, bsz * num_heads, head_dim), 0, 1)
    k = heads(k, static_k, "static_k")
    v = heads(v, static_v, "static_v")
    if add_zero_attn:
        k = jnp.concatenate([k, jnp.zeros((bsz * num_heads, 1, head_dim), k.dtype)], axis=1)
        v = jnp.concatenate([v, jnp.zeros((bsz * num_heads, 1, head_dim), v.dtype)], axis=1)
        if am is not None:
            am = jnp.pad(am, ((0, 0), (0, 0), (0, 1)))
        if kpm is not None:
            kpm = jnp.pad(kpm, ((0, 0), (0, 1)))
    src_len = k.shape[1]

    bias = None
    if kpm is not None:
        if kpm.shape != (bsz, src_len):
            raise ValueError(f"The shape of `key_padding_mask` should be {(bsz, src_len)}, but got {tuple(kpm.shape)}.")
        kpm4 = kpm[:, None, None, :]  # [B, 1, 1, S]
        bias = _additive(kpm4, q.dtype)
    if am is not None:
        am4 = am[None] if am.shape[0] == 1 else am.reshape(bsz, num_heads, tgt_len, src_len)
        if bias is not None and kpm is not None and am.dtype == jnp.bool_ and kpm.dtype == jnp.bool_:
            bias = _additive(jnp.logical_or(am4, kpm4), q.dtype)
        else:
            a = _additive(am4, q.dtype)
            bias = a if bias is None else a + bias
    if is_causal:
        causal = jnp.where(jnp.tril(jnp.ones((tgt_len, src_len), bool)), 0.0, -jnp.inf).astype(q.dtype)
        bias = causal if bias is None else bias + causal

    from ...common.seed import next_key

    use_dropout = training and 0.0 < dropout_p <= 1.0
    out, w = attention(
        q.reshape(bsz, num_heads, tgt_len, head_dim),
        k.reshape(bsz, num_heads, src_len, head_dim),
        v.reshape(bsz, num_heads, src_len, head_dim),
        bias=bias,
        dropout_p=dropout_p if use_dropout else 0.0,
        dropout_key=next_key() if use_dropout else None,
        need_weights=need_weights,
    )
    out = jnp.transpose(out, (2, 0, 1, 3)).reshape(bsz * tgt_len, embed_dim)
    out = _linear(out, arr(out_proj_weight), None if out_proj_bias is None else arr(out_proj_bias))
    out = out.reshape(tgt_len, bsz, out.shape[1])
    if w is not None and average_attn_weights:
        w = jnp.sum(w, axis=1) / num_heads
    if not is_batched:
        out, w = out[:, 0], (None if w is None else w[0])
    return wrap(out), (None if w is None else wrap(w))


def _additive(mask: Any, dtype: Any) -> Any:
    """A bool mask as ``-inf`` where True (0 elsewhere); a float mask as is."""
    if mask.dtype == jnp.bool_:
        return jnp.where(mask, -jnp.inf, 0.0).astype(dtype)
    return mask.astype(dtype)


# --------------------------------------------------------------------------------------------------------------
# MindSpore's fused attention entry points (Ascend kernels there; one XLA path here)
_INT_MAX = 2147483647
_LAYOUTS = ("BSH", "BNSD", "SBH", "BSND")


def _to_bnsd(t: Any, layout: str, heads: int, op: str) -> Any:
    if layout == "BNSD":
        return t
    if layout == "BSND":
        return jnp.swapaxes(t, 1, 2)
    if layout == "SBH":
        t = jnp.swapaxes(t, 0, 1)
    b, s, h = t.shape
    if h % heads:
        raise RuntimeError(f"For '{op}', the hidden size {h} is not divisible by the head number {heads}.")
    return jnp.swapaxes(t.reshape(b, s, heads, h // heads), 1, 2)


def _from_bnsd(t: Any, layout: str) -> Any:
    if layout == "BNSD":
        return t
    if layout == "BSND":
        return jnp.swapaxes(t, 1, 2)
    b, n, s, d = t.shape
    out = jnp.swapaxes(t, 1, 2).reshape(b, s, n * d)
    return jnp.swapaxes(out, 0, 1) if layout == "SBH" else out


def _lengths(v: Any, b: int) -> Any:
    if v is None:
        return None
    a = as_tensor_array(v) if isinstance(v, Tensor) else jnp.asarray(list(v))
    return jnp.broadcast_to(a.reshape(-1).astype(jnp.int32), (b,))


@compiled_op
def fused_attention(
    query: Any,
    key: Any,
    value: Any,
    num_heads: int,
    num_kv_heads: int,
    layout: str,
    scale: float,
    pse: Any = None,
    attn_mask: Any = None,
    keep_prob: float = 1.0,
    pre_tokens: int = _INT_MAX,
    next_tokens: int = _INT_MAX,
    sparse_mode: int = 0,
    actual_seq_q: Any = None,
    actual_seq_kv: Any = None,
    want_lse: bool = False,
    op: str = "FlashAttentionScore",
) -> tuple[Tensor, Any]:
    """``softmax(scale * q k^T + pse, masked) v`` in MindSpore's layouts, with grouped-query heads, bool/uint8
    ``attn_mask`` (True = not attended), ``sparse_mode`` 0-4 (2: causal from the top left, 3: from the bottom
    right, 4: the band of ``pre_tokens``/``next_tokens``), per-batch valid lengths, and dropout ``keep_prob``.
    Query rows with nothing to attend give zeros. Returns ``(out in the query's layout, log-sum-exp or None)``."""
    if layout not in _LAYOUTS:
        raise ValueError(f"For '{op}', the 'input_layout' must be one of {list(_LAYOUTS)}, but got '{layout}'.")
    q0 = as_tensor_array(query)
    if not jnp.issubdtype(q0.dtype, jnp.floating):
        raise TypeError(f"For '{op}', the dtype of 'query' must be float, but got {mstype.from_np(q0.dtype)}.")
    if num_heads <= 0:
        raise RuntimeError(f"For '{op}', the head number must be greater than 0, but got {num_heads}.")
    q = _to_bnsd(q0, layout, num_heads, op)
    k0, v0 = as_tensor_array(key), as_tensor_array(value)
    if layout in ("BNSD", "BSND"):
        kv_heads = k0.shape[1] if layout == "BNSD" else k0.shape[2]
    else:
        kv_heads = num_kv_heads or k0.shape[-1] // q.shape[-1]
    k = _to_bnsd(k0, layout, kv_heads, op).astype(q.dtype)
    v = _to_bnsd(v0, layout, kv_heads, op).astype(q.dtype)
    if k.shape[-1] != q.shape[-1]:
        raise RuntimeError(f"For '{op}', the D-axis of 'query' and 'key' must be the same.")
    if num_heads % kv_heads:
        raise RuntimeError(
            f"For '{op}', the head number {num_heads} is not divisible by the key/value heads {kv_heads}."
        )
    if kv_heads != num_heads:
        k = jnp.repeat(k, num_heads // kv_heads, axis=1)
        v = jnp.repeat(v, num_heads // kv_heads, axis=1)
    b, _, s1, _ = q.shape
    s2 = k.shape[2]
    i = jnp.arange(s1)[:, None]
    j = jnp.arange(s2)[None, :]
    masked = jnp.zeros((1, 1, s1, s2), bool)
    if sparse_mode in (0, 1):
        if attn_mask is not None:
            m = as_tensor_array(attn_mask).astype(bool)
            masked = masked | m.reshape((1,) * (4 - m.ndim) + m.shape)
            if sparse_mode == 0 and (pre_tokens != _INT_MAX or next_tokens != _INT_MAX):
                masked = masked | (j > i + next_tokens) | (j < i - pre_tokens)
    elif sparse_mode == 2:
        masked = masked | (j > i)
    elif sparse_mode == 3:
        masked = masked | (j > i + (s2 - s1))
    elif sparse_mode == 4:
        masked = masked | (j > i + next_tokens) | (j < i - pre_tokens)
    else:
        raise RuntimeError(f"For '{op}', the 'sparse_mode' {sparse_mode} is not supported (0-4 are).")
    lq, lkv = _lengths(actual_seq_q, b), _lengths(actual_seq_kv, b)
    if lkv is not None:
        masked = masked | (j[None, None] >= lkv[:, None, None, None])
    row_ok = jnp.logical_not(jnp.all(masked, axis=-1, keepdims=True))
    if lq is not None:
        row_ok = row_ok & (i[None, None] < lq[:, None, None, None])
    cdt = jnp.float32 if q.dtype in (jnp.float16, jnp.bfloat16) else q.dtype
    bias = jnp.where(masked, jnp.asarray(jnp.finfo(cdt).min / 2, cdt), jnp.zeros((), cdt))
    if pse is not None:
        p = as_tensor_array(pse).astype(cdt)
        bias = bias + p.reshape((1,) * (4 - p.ndim) + p.shape)
    from ...common.seed import next_key

    use_dropout = keep_prob < 1.0
    out, _ = attention(
        q,
        k,
        v,
        bias=bias,
        scale=scale,
        dropout_p=1.0 - keep_prob if use_dropout else 0.0,
        dropout_key=next_key() if use_dropout else None,
        need_weights=False,
    )
    out = jnp.where(row_ok, out, jnp.zeros((), out.dtype))
    lse = None
    if want_lse:
        scores = jnp.einsum("bnld,bnsd->bnls", q, k, preferred_element_type=cdt) * jnp.asarray(scale, cdt) + bias
        lse = jax.nn.logsumexp(scores, axis=-1, keepdims=True)
    return wrap(_from_bnsd(out, layout)), lse


def _unsupported(op: str, **given: Any) -> None:
    for name, v in given.items():
        if v is not None:
            raise ValueError(
                f"For '{op}', '{name}' (quantisation, paged KV cache or prefix sharing of Ascend kernels) is not "
                "supported by sporax; pass None."
            )


def flash_attention_score(
    query: Any,
    key: Any,
    value: Any,
    head_num: int,
    real_shift: Any = None,
    drop_mask: Any = None,
    padding_mask: Any = None,
    attn_mask: Any = None,
    prefix: Any = None,
    actual_seq_qlen: Any = None,
    actual_seq_kvlen: Any = None,
    keep_prob: float = 1.0,
    scalar_value: float = 1.0,
    pre_tokens: int = 2147483647,
    next_tokens: int = 2147483647,
    inner_precise: int = 0,
    input_layout: str = "BSH",
    sparse_mode: int = 0,
) -> Tensor:
    r"""``Dropout(Softmax(Mask(scalar_value * query key^T + real_shift, attn_mask)), keep_prob) value`` in the
    layouts BSH, BNSD, SBH or BSND, with grouped-query attention (key/value heads dividing ``head_num``);
    ``attn_mask`` bool/uint8 with 1 = not attended; ``sparse_mode`` 0-4 as MindSpore's (2/3: causal from the top
    left/bottom right, 4: the band of ``pre_tokens``/``next_tokens``; the 2048x2048 compressed mask of modes 2-4
    is not needed). MindSpore runs it on Ascend only; sporax on every backend through one fused attention path.
    ``drop_mask``/``padding_mask``/``prefix`` and the TND layout are not supported (pass None); dropout uses the
    framework RNG.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> q = ms.Tensor(np.ones([2, 4, 64], np.float16))
        >>> ms.ops.flash_attention_score(q, q, q, 4).shape
        (2, 4, 64)
    """
    _unsupported("FlashAttentionScore", drop_mask=drop_mask, padding_mask=padding_mask, prefix=prefix)
    validator.check_value_type("head_num", head_num, [int], "FlashAttentionScore")
    validator.check_value_type("keep_prob", keep_prob, [float], "FlashAttentionScore")
    validator.check_value_type("scalar_value", scalar_value, [float], "FlashAttentionScore")
    validator.check_value_type("input_layout", input_layout, [str], "FlashAttentionScore")
    validator.check_value_type("sparse_mode", sparse_mode, [int], "FlashAttentionScore")
    if not 0 < keep_prob <= 1:
        raise ValueError(
            f"For 'FlashAttentionScore', the 'keep_prob' must be in range (0.0, 1.0], but got {keep_prob}."
        )
    out, _ = fused_attention(
        query, key, value, head_num, 0, input_layout, scalar_value, real_shift, attn_mask, keep_prob, pre_tokens,
        next_tokens, sparse_mode, actual_seq_qlen, actual_seq_kvlen,
    )  # fmt: skip
    return out


def speed_fusion_attention(
    query: Any,
    key: Any,
    value: Any,
    head_num: int,
    input_layout: str,
    *,
    pse: Any = None,
    padding_mask: Any = None,
    atten_mask: Any = None,
    scale: float = 1.0,
    keep_prob: float = 1.0,
    pre_tokens: int = 2147483647,
    next_tokens: int = 2147483647,
    inner_precise: int = 0,
    prefix: Any = None,
    actual_seq_qlen: Any = None,
    actual_seq_kvlen: Any = None,
    sparse_mode: int = 0,
    gen_mask_parallel: bool = True,
    sync: bool = False,
    pse_type: int = 1,
    q_start_idx: Any = None,
    kv_start_idx: Any = None,
) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
    """:func:`flash_attention_score` with MindSpore's ``speed_fusion_attention`` arguments (``pse`` added after
    scaling). Returns ``(attention_out, softmax_max, softmax_sum, softmax_out, seed, offset)``; the softmax
    statistics are ``(B, N, S1, 1)`` float32 given as the log-sum-exp of the scores and 1 (the same softmax as
    MindSpore's max and sum); ``softmax_out``, ``seed`` and ``offset`` are empty placeholders.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> q = ms.Tensor(np.ones([2, 4, 64], np.float16))
        >>> ms.ops.speed_fusion_attention(q, q, q, 4, "BSH")[0].shape
        (2, 4, 64)
    """
    _unsupported("SpeedFusionAttention", padding_mask=padding_mask, prefix=prefix, q_start_idx=q_start_idx,
                 kv_start_idx=kv_start_idx)  # fmt: skip
    if pse_type != 1 and pse is not None:
        raise ValueError("For 'SpeedFusionAttention', only 'pse_type' 1 (pse added after scaling) is supported.")
    out, lse = fused_attention(
        query, key, value, head_num, 0, input_layout, scale, pse, atten_mask, keep_prob, pre_tokens, next_tokens,
        sparse_mode, actual_seq_qlen, actual_seq_kvlen, want_lse=True, op="SpeedFusionAttention",
    )  # fmt: skip
    zero = wrap(jnp.zeros((0,), jnp.float32))
    return out, wrap(lse.astype(jnp.float32)), wrap(jnp.ones_like(lse, jnp.float32)), zero, zero, zero


def prompt_flash_attention(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    actual_seq_lengths: Any = None,
    actual_seq_lengths_kv: Any = None,
    pse_shift: Any = None,
    deq_scale1: Any = None,
    quant_scale1: Any = None,
    deq_scale2: Any = None,
    quant_scale2: Any = None,
    quant_offset2: Any = None,
    num_heads: int = 1,
    scale_value: float = 1.0,
    pre_tokens: int = 2147483647,
    next_tokens: int = 0,
    input_layout: str = "BSH",
    num_key_value_heads: int = 0,
    sparse_mode: int = 0,
    inner_precise: int = 1,
) -> Tensor:
    """Full-sequence inference attention (MindSpore's ``prompt_flash_attention``): :func:`flash_attention_score`
    with per-batch valid lengths of queries and keys (rows past a query length give zeros) and grouped-query heads
    ``num_key_value_heads``. Quantisation arguments are not supported (None).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> q = ms.Tensor(np.ones([1, 2, 16], np.float16))
        >>> ms.ops.prompt_flash_attention(q, q, q, num_heads=2).shape
        (1, 2, 16)
    """
    _unsupported("PromptFlashAttention", deq_scale1=deq_scale1, quant_scale1=quant_scale1, deq_scale2=deq_scale2,
                 quant_scale2=quant_scale2, quant_offset2=quant_offset2)  # fmt: skip
    out, _ = fused_attention(
        query, key, value, num_heads, num_key_value_heads, input_layout, scale_value, pse_shift, attn_mask, 1.0,
        pre_tokens, next_tokens, sparse_mode, actual_seq_lengths, actual_seq_lengths_kv, op="PromptFlashAttention",
    )  # fmt: skip
    return out


def incre_flash_attention(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    actual_seq_lengths: Any = None,
    pse_shift: Any = None,
    dequant_scale1: Any = None,
    quant_scale1: Any = None,
    dequant_scale2: Any = None,
    quant_scale2: Any = None,
    quant_offset2: Any = None,
    antiquant_scale: Any = None,
    antiquant_offset: Any = None,
    block_table: Any = None,
    num_heads: int = 1,
    input_layout: str = "BSH",
    scale_value: float = 1.0,
    num_key_value_heads: int = 0,
    block_size: int = 0,
    inner_precise: int = 1,
    kv_padding_size: Any = None,
) -> Tensor:
    """Incremental (one query step) inference attention (MindSpore's ``incre_flash_attention``): ``query``
    ``(B, 1, H)`` or ``(B, N, 1, D)`` against the cached ``key``/``value`` (a Tensor, or a one-element list), with
    per-batch valid key lengths ``actual_seq_lengths``. Quantisation and paged caches are not supported.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> q = ms.Tensor(np.ones([1, 1, 16], np.float16))
        >>> kv = ms.Tensor(np.ones([1, 5, 16], np.float16))
        >>> ms.ops.incre_flash_attention(q, [kv], [kv], num_heads=2).shape
        (1, 1, 16)
    """
    _unsupported("IncreFlashAttention", dequant_scale1=dequant_scale1, quant_scale1=quant_scale1,
                 dequant_scale2=dequant_scale2, quant_scale2=quant_scale2, quant_offset2=quant_offset2,
                 antiquant_scale=antiquant_scale, antiquant_offset=antiquant_offset, block_table=block_table,
                 kv_padding_size=kv_padding_size)  # fmt: skip
    key = key[0] if isinstance(key, (list, tuple)) else key
    value = value[0] if isinstance(value, (list, tuple)) else value
    out, _ = fused_attention(
        query, key, value, num_heads, num_key_value_heads, input_layout, scale_value, pse_shift, attn_mask, 1.0,
        _INT_MAX, _INT_MAX, 0, None, actual_seq_lengths, op="IncreFlashAttention",
    )  # fmt: skip
    return out


def fused_infer_attention_score(
    query: Any,
    key: Any,
    value: Any,
    *,
    pse_shift: Any = None,
    atten_mask: Any = None,
    actual_seq_lengths: Any = None,
    actual_seq_lengths_kv: Any = None,
    dequant_scale1: Any = None,
    quant_scale1: Any = None,
    dequant_scale2: Any = None,
    quant_scale2: Any = None,
    quant_offset2: Any = None,
    antiquant_scale: Any = None,
    antiquant_offset: Any = None,
    key_antiquant_scale: Any = None,
    key_antiquant_offset: Any = None,
    value_antiquant_scale: Any = None,
    value_antiquant_offset: Any = None,
    block_table: Any = None,
    query_padding_size: Any = None,
    kv_padding_size: Any = None,
    key_shared_prefix: Any = None,
    value_shared_prefix: Any = None,
    actual_shared_prefix_len: Any = None,
    num_heads: int = 1,
    scale: float = 1.0,
    pre_tokens: int = 2147483647,
    next_tokens: int = 2147483647,
    input_layout: str = "BSH",
    num_key_value_heads: int = 0,
    sparse_mode: int = 0,
    inner_precise: int = 1,
    block_size: int = 0,
    antiquant_mode: int = 0,
    key_antiquant_mode: int = 0,
    value_antiquant_mode: int = 0,
    softmax_lse_flag: bool = False,
) -> tuple[Tensor, Tensor]:
    """Inference attention for prompts and single steps (MindSpore's ``fused_infer_attention_score``): returns
    ``(attention_out, softmax_lse)``; ``softmax_lse`` ``(B, N, S1, 1)`` float32 with ``softmax_lse_flag``, else a
    ``(1,)`` zero. Quantisation, paged caches and shared prefixes are not supported (None).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> q = ms.Tensor(np.ones([1, 2, 16], np.float16))
        >>> out, lse = ms.ops.fused_infer_attention_score(q, [q], [q], num_heads=2, softmax_lse_flag=True)
        >>> out.shape, lse.shape
        ((1, 2, 16), (1, 2, 2, 1))
    """
    _unsupported(
        "FusedInferAttentionScore", dequant_scale1=dequant_scale1, quant_scale1=quant_scale1,
        dequant_scale2=dequant_scale2, quant_scale2=quant_scale2, quant_offset2=quant_offset2,
        antiquant_scale=antiquant_scale, antiquant_offset=antiquant_offset, key_antiquant_scale=key_antiquant_scale,
        key_antiquant_offset=key_antiquant_offset, value_antiquant_scale=value_antiquant_scale,
        value_antiquant_offset=value_antiquant_offset, block_table=block_table, query_padding_size=query_padding_size,
        kv_padding_size=kv_padding_size, key_shared_prefix=key_shared_prefix, value_shared_prefix=value_shared_prefix,
        actual_shared_prefix_len=actual_shared_prefix_len,
    )  # fmt: skip
    key = key[0] if isinstance(key, (list, tuple)) else key
    value = value[0] if isinstance(value, (list, tuple)) else value
    out, lse = fused_attention(
        query, key, value, num_heads, num_key_value_heads, input_layout, scale, pse_shift, atten_mask, 1.0,
        pre_tokens, next_tokens, sparse_mode, actual_seq_lengths, actual_seq_lengths_kv, want_lse=softmax_lse_flag,
        op="FusedInferAttentionScore",
    )  # fmt: skip
    lse_t = wrap(lse.astype(jnp.float32)) if lse is not None else wrap(jnp.zeros((1,), jnp.float32))
    return out, lse_t


def ring_attention_update(
    prev_attn_out: Any,
    prev_softmax_max: Any,
    prev_softmax_sum: Any,
    cur_attn_out: Any,
    cur_softmax_max: Any,
    cur_softmax_sum: Any,
    actual_seq_qlen: Any = None,
    layout: str = "SBH",
) -> tuple[Tensor, Tensor, Tensor]:
    """Merge two partial attention results computed over different key blocks (ring attention): with
    ``m = max(m1, m2)``, ``s_k = exp(m_k - m) * sum_k``, the output is ``(out1 * s1 + out2 * s2) / (s1 + s2)``
    per query and head; returns ``(attn_out, softmax_max m, softmax_sum s1 + s2)``. Layouts: ``'SBH'`` (outputs
    ``(S, B, H)``, statistics ``(B, N, S, 8)``) and ``'TND'`` (``(T, N, D)``, ``(T, N, 8)``; ``actual_seq_qlen``
    only delimits the sequences, which the merge does not need).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> o = ms.Tensor(np.ones([4, 1, 16], np.float32))
        >>> st = ms.Tensor(np.ones([1, 2, 4, 8], np.float32))
        >>> ms.ops.ring_attention_update(o, st, st, o, st, st)[2].asnumpy()[0, 0, 0, 0]
        2.0
    """
    validator.check_string(layout, ["SBH", "TND"], "layout", "RingAttentionUpdate")
    if layout == "TND" and actual_seq_qlen is None:
        raise RuntimeError("For 'RingAttentionUpdate', 'actual_seq_qlen' is required when 'layout' is 'TND'.")
    o1, o2 = as_tensor_array(prev_attn_out), as_tensor_array(cur_attn_out)
    m1, s1 = as_tensor_array(prev_softmax_max), as_tensor_array(prev_softmax_sum)
    m2, s2 = as_tensor_array(cur_softmax_max), as_tensor_array(cur_softmax_sum)
    m = jnp.maximum(m1, m2)
    w1 = jnp.exp(m1 - m) * s1
    w2 = jnp.exp(m2 - m) * s2
    total = w1 + w2
    f1, f2 = (w1 / total)[..., :1], (w2 / total)[..., :1]  # (B, N, S, 1) or (T, N, 1)
    if layout == "SBH":
        s_len, b, h = o1.shape
        n = m.shape[1]
        f1 = jnp.transpose(f1, (2, 0, 1, 3))  # (S, B, N, 1)
        f2 = jnp.transpose(f2, (2, 0, 1, 3))
        shape4 = (s_len, b, n, h // n)
        out = o1.reshape(shape4) * f1 + o2.reshape(shape4) * f2
        out = out.reshape(o1.shape)
    else:
        out = o1 * f1 + o2 * f2
    return wrap(out.astype(o1.dtype)), wrap(m), wrap(total)
