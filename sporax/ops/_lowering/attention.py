"""Scaled dot-product attention, one path per backend.

``softmax(q k^T * scale + bias) v`` over ``[B, N, L, D]`` queries and ``[B, N, S, D]`` keys/values. When the
caller needs neither the attention weights nor dropout on them, the product goes through
``jax.nn.dot_product_attention`` (XLA's fused attention: on GPU it can select cuDNN's flash kernel, on CPU
it is the same three ops XLA fuses); otherwise the weights are formed explicitly (softmax in float32 for
half-precision inputs) and returned.
"""

from __future__ import annotations

from typing import Any

from ..._engine import jax, jnp
from .random import keep_mask

__all__ = ["attention"]


def attention(
    q: Any,
    k: Any,
    v: Any,
    bias: Any = None,
    scale: float | None = None,
    dropout_p: float = 0.0,
    dropout_key: Any = None,
    need_weights: bool = False,
) -> tuple[Any, Any]:
    """Returns ``(out [B, N, L, Dv], weights [B, N, L, S] or None)``.

    Args:
        q, k, v: ``[B, N, L, D]``, ``[B, N, S, D]``, ``[B, N, S, Dv]`` arrays of one dtype.
        bias: additive, broadcastable to ``[B, N, L, S]`` (``-inf`` masks a position), or None.
        scale: multiplies ``q k^T``; None: ``1 / sqrt(D)``.
        dropout_p, dropout_key: dropout on the weights (with a key) before they multiply ``v``.
        need_weights: return the (post-dropout) weights.
    """
    d = q.shape[-1]
    scale = 1.0 / float(d) ** 0.5 if scale is None else float(scale)
    use_dropout = dropout_key is not None and dropout_p > 0
    if not need_weights and not use_dropout and k.shape[-1] == v.shape[-1]:
        b = None if bias is None else bias.astype(q.dtype)
        if b is not None and b.ndim < 4:
            b = b.reshape((1,) * (4 - b.ndim) + b.shape)
        out = jax.nn.dot_product_attention(
            jnp.swapaxes(q, 1, 2), jnp.swapaxes(k, 1, 2), jnp.swapaxes(v, 1, 2), bias=b, scale=scale
        )
        return jnp.swapaxes(out, 1, 2), None
    cdt = jnp.float32 if q.dtype in (jnp.float16, jnp.bfloat16) else q.dtype
    s = jnp.einsum("bnld,bnsd->bnls", q, k, preferred_element_type=cdt) * jnp.asarray(scale, cdt)
    if bias is not None:
        s = s + bias.astype(cdt)
    w = jax.nn.softmax(s, axis=-1)
    if use_dropout:
        keep = keep_mask(dropout_key, 1.0 - dropout_p, w.shape)
        w = jnp.where(keep, w / jnp.asarray(1.0 - dropout_p, cdt), jnp.zeros((), cdt))
    w = w.astype(q.dtype)
    out = jnp.einsum("bnls,bnsd->bnld", w, v)
    return out, (w if need_weights else None)
