"""Multi-head attention with MindSpore's semantics (``nn.MultiheadAttention`` and the Transformer layers call
:func:`multi_head_attention_forward`, as MindSpore's ``ops.function.nn_func`` one). The attention product itself
is ``ops/_lowering/attention.py``: one fused path per backend.

Masks: a bool ``attn_mask``/``key_padding_mask`` marks with True the positions that may NOT be attended
(they become ``-inf``); a float mask is added to the scores; a uint8 ``attn_mask`` counts as bool.
"""

from __future__ import annotations

from typing import Any

from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._lowering.attention import attention
from .._utils import as_tensor_array, compiled_op, wrap

__all__: list[str] = []


def _linear(x: Any, w: Any, b: Any) -> Any:
    y = jnp.matmul(x, w.T)
    return y if b is None else y + b


def _check_shapes(query: Any, key: Any, value: Any, key_padding_mask: Any, attn_mask: Any, num_heads: int) -> bool:
    qn, kn, vn = query.ndim, key.ndim, value.ndim
    if qn == 3:
        if kn != 3 or vn != 3:
            raise ValueError(
                f"For batched `query`, the `key` and `value` must be 3D tensor, but got `key` with {kn}D and "
                f"`value` with {vn}D."
            )
    elif qn == 2:
        if kn != 2 or vn != 2:
            raise ValueError(
                f"For unbatched `query`, the `key` and `value` must be 2D tensor, but got `key` with {kn}D and "
                f"`value` with {vn}D."
            )
    else:
        raise ValueError(f"The `query` should be unbatched 2D or batched 3D tensor, but got `query` with {qn}D.")
    if key_padding_mask is not None:
        want = 2 if qn == 3 else 1
        if key_padding_mask.ndim != want:
            what = "batched" if qn == 3 else "unbatched"
            raise ValueError(
                f"For {what} `query`, the `key_padding_mask` must be `None` or {want}D, but got "
                f"`key_padding_mask` with {key_padding_mask.ndim}D."
            )
    if attn_mask is not None:
        what = "batched" if qn == 3 else "unbatched"
        if attn_mask.ndim not in (2, 3):
            raise ValueError(
                f"For {what} `query`, the `attn_mask` must be `None`, 2-D or 3-D, but got `attn_mask` "
                f"with{attn_mask.ndim}D."
            )
        if qn == 2 and attn_mask.ndim == 3:
            expected = (num_heads, query.shape[0], key.shape[0])
            if tuple(attn_mask.shape) != expected:
                raise ValueError(f"The shape of `attn_mask` must to be {expected}, but got {tuple(attn_mask.shape)}.")
    return qn == 3


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
    is_batched = _check_shapes(q_in, k_in, v_in, kpm, am, num_heads)
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
        if bias is not None and am.dtype == jnp.bool_ and kpm.dtype == jnp.bool_:
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
