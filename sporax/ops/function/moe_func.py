"""Mixture-of-experts token routing: ``moe_token_permute`` and ``moe_token_unpermute`` (MindSpore's Ascend ops,
here sorts and gathers every backend runs)."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import as_tensor_array, wrap

__all__ = ["moe_token_permute", "moe_token_unpermute"]


def moe_token_permute(
    tokens: Any, indices: Any, num_out_tokens: int | None = None, padded_mode: bool = False
) -> tuple[Tensor, Tensor]:
    """Group ``tokens`` ``(num_tokens, hidden)`` by their expert ``indices`` ``(num_tokens,)`` or
    ``(num_tokens, topk)``: each token is copied once per chosen expert, the copies ordered by expert (stable).
    Returns ``(permuted_tokens, sorted_indices)``: ``sorted_indices[k]`` (int32) is the row of
    ``permuted_tokens`` that holds flattened assignment ``k``. ``num_out_tokens`` keeps only that many rows.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> tok = ms.Tensor(np.array([[1.0], [7.0], [2.0]], np.float32))
        >>> out, idx = ms.ops.moe_token_permute(tok, ms.Tensor(np.array([2, 0, 1], np.int32)))
        >>> out.asnumpy().ravel().tolist(), idx.asnumpy().tolist()
        ([7.0, 2.0, 1.0], [2, 0, 1])
    """
    validator.check_bool(padded_mode, "padded_mode", "moe_token_permute")
    if padded_mode:
        raise ValueError("For 'moe_token_permute', 'padded_mode' True is not supported, as in MindSpore.")
    t = as_tensor_array(tokens)
    ix = as_tensor_array(indices)
    if t.ndim != 2 or ix.ndim not in (1, 2):
        raise ValueError(
            f"For 'moe_token_permute', 'tokens' must be 2-D and 'indices' 1-D or 2-D, but got {t.ndim}-D and "
            f"{ix.ndim}-D."
        )
    if ix.dtype not in (jnp.int32, jnp.int64):
        raise TypeError(
            f"For 'moe_token_permute', the dtype of 'indices' must be int32 or int64, but got {mstype.from_np(ix.dtype)}."
        )
    if ix.shape[0] != t.shape[0]:
        raise RuntimeError(
            f"For 'moe_token_permute', the first dimensions of 'tokens' and 'indices' must be equal, but got "
            f"{t.shape[0]} and {ix.shape[0]}."
        )
    topk = 1 if ix.ndim == 1 else ix.shape[1]
    if topk > 512:
        raise ValueError(f"For 'moe_token_permute', the second dim of 'indices' must be <= 512, but got {topk}.")
    flat = ix.reshape(-1)
    order = jnp.argsort(flat, stable=True)  # row r of the output holds assignment order[r]
    sorted_indices = jnp.argsort(order, stable=True).astype(jnp.int32)
    out = t[order // topk]
    if num_out_tokens is not None:
        validator.check_value_type("num_out_tokens", num_out_tokens, [int], "moe_token_permute")
        out = out[:num_out_tokens]
    return wrap(out), wrap(sorted_indices)


def moe_token_unpermute(
    permuted_tokens: Any,
    sorted_indices: Any,
    probs: Any = None,
    padded_mode: bool = False,
    restore_shape: Any = None,
) -> Tensor:
    """The inverse of :func:`moe_token_permute`: assignment ``k`` takes row ``sorted_indices[k]`` (rows past the
    permuted tokens, dropped by ``num_out_tokens``, give zeros); with ``probs`` ``(num_tokens, topk)`` each token's
    ``topk`` copies are weighted and summed, giving ``(num_tokens, hidden)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> out = ms.ops.moe_token_unpermute(ms.Tensor(np.array([[7.0], [2.0], [1.0]], np.float32)),
        ...                                  ms.Tensor(np.array([2, 0, 1], np.int32)))
        >>> out.asnumpy().ravel().tolist()
        [1.0, 7.0, 2.0]
    """
    validator.check_bool(padded_mode, "padded_mode", "moe_token_unpermute")
    if padded_mode:
        raise ValueError("For 'moe_token_unpermute', only 'padded_mode' False is supported, as in MindSpore.")
    p = as_tensor_array(permuted_tokens)
    si = as_tensor_array(sorted_indices).reshape(-1)
    rows = jnp.take(p, si, axis=0, mode="fill", fill_value=0)
    if probs is None:
        return wrap(rows)
    pr = as_tensor_array(probs)
    topk = pr.shape[-1]
    merged = jnp.sum(rows.reshape(-1, topk, p.shape[-1]) * pr.reshape(-1, topk, 1).astype(p.dtype), axis=1)
    return wrap(merged)
