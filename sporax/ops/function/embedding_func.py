"""``ops.embedding`` and the per-field merge of ``nn.MultiFieldEmbeddingLookup``."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._engine import jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import as_tensor_array, compiled_op, wrap
from .gather_scatter_func import gather

__all__ = ["embedding"]


def embedding(
    input: Any,
    weight: Any,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
) -> Tensor:
    """Rows of ``weight`` at the integer ``input`` indices: the output shape is ``input.shape + (E,)``.

    Args:
        input (Tensor): int32/int64 indices in ``[-num_embeddings, num_embeddings)`` (eagerly an index out of
            range raises; negative ones count from the end).
        weight (Parameter): ``(num_embeddings, E)`` table.
        padding_idx (int, optional): that row gets no gradient. Default None.
        max_norm (float, optional): rows looked up whose ``norm_type``-norm exceeds it are rescaled to it, in
            ``weight`` itself when it is a Parameter. Default None.
        norm_type (float): the norm's ``p``. Default 2.0.
        scale_grad_by_freq (bool): the gradient of each row divided by how often its index occurs in
            ``input``. Default False.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> w = ms.Parameter(ms.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)), name="w")
        >>> ms.ops.embedding(ms.Tensor(np.array([[2, 0]], np.int32)), w).asnumpy().tolist()
        [[[4.0, 5.0], [0.0, 1.0]]]
    """
    from ...common.parameter import Parameter

    idx = as_tensor_array(input)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(
            f"For 'embedding', the dtype of 'input' must be int32 or int64, but got {mstype.from_np(idx.dtype)}."
        )
    w = as_tensor_array(weight)
    validator.check_ndim(w.ndim, 2, "weight", "embedding")
    n = w.shape[0]
    if padding_idx is not None:
        validator.check_int_range(padding_idx, -n, n, validator.INC_LEFT, "padding_idx", "embedding")
        padding_idx %= n
    validator.check_bool(scale_grad_by_freq, "scale_grad_by_freq", "embedding")
    rows = as_tensor_array(gather(weight, input, 0))
    if max_norm is not None:
        validator.check_value_type("max_norm", max_norm, [float, int], "embedding")
        validator.check_value_type("norm_type", norm_type, [float, int], "embedding")
        norms = jnp.sum(jnp.abs(rows) ** norm_type, axis=-1, keepdims=True) ** (1.0 / norm_type)
        scale = lax.stop_gradient(jnp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0).astype(w.dtype))
        rows = rows * scale
        if isinstance(weight, Parameter):  # MindSpore (and PyTorch) renormalise the table rows in place
            flat = jnp.where(idx < 0, idx + n, idx).reshape(-1)
            new = w.at[flat].set(lax.stop_gradient(rows.reshape(-1, w.shape[1])), mode="drop")
            weight._data = new
    if padding_idx is not None:
        at_pad = (jnp.where(idx < 0, idx + n, idx) == padding_idx)[..., None]
        rows = jnp.where(at_pad, lax.stop_gradient(rows), rows)
    if scale_grad_by_freq:
        flat = jnp.where(idx < 0, idx + n, idx)
        counts = jnp.zeros((n,), w.dtype).at[flat.reshape(-1)].add(1, mode="drop")
        freq = jnp.maximum(counts[jnp.clip(flat, 0, n - 1)], 1)[..., None]
        frozen = lax.stop_gradient(rows)
        rows = frozen + (rows - frozen) / freq  # same values, gradient divided by the frequency
    return wrap(rows)


@compiled_op
def field_merge(embedded: Any, input_values: Any, field_ids: Any, field_size: int, operator: str) -> Tensor:
    """``nn.MultiFieldEmbeddingLookup``'s merge: ``embedded`` ``(B, K, E)`` weighted by ``input_values``
    ``(B, K)`` and reduced per ``(sample, field)`` with SUM, MEAN (by the sum of ``|values|``) or MAX (zero
    weights excluded; fields without any value give zeros). Returns ``(B, field_size, E)``."""
    e = as_tensor_array(embedded)
    vals = as_tensor_array(input_values).astype(e.dtype)
    fid = as_tensor_array(field_ids).astype(jnp.int32)
    b = e.shape[0]
    num = b * field_size
    seg = (fid + (jnp.arange(b, dtype=jnp.int32) * field_size)[:, None]).reshape(-1)
    weighted = (vals[..., None] * e).reshape(-1, e.shape[-1])
    if operator == "MAX":
        masked = jnp.where((vals == 0).reshape(-1, 1), jnp.asarray(-3.402823466e38, e.dtype), weighted)
        merged = jnp.full((num, e.shape[-1]), -jnp.inf, e.dtype).at[seg].max(masked, mode="drop")
        count = jnp.zeros((num,), e.dtype).at[seg].add(jnp.abs(vals).reshape(-1), mode="drop")
        merged = jnp.where((count != 0)[:, None], merged, jnp.zeros((), e.dtype))
    else:
        merged = jnp.zeros((num, e.shape[-1]), e.dtype).at[seg].add(weighted, mode="drop")
        if operator == "MEAN":
            count = jnp.zeros((num,), e.dtype).at[seg].add(jnp.abs(vals).reshape(-1), mode="drop")[:, None]
            merged = jnp.where(count == 0, jnp.zeros((), e.dtype), merged / jnp.where(count == 0, 1, count))
    return wrap(merged.reshape(b, field_size, -1))
