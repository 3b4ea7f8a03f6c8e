"""Neural-network ops (``mindspore.ops`` functional): activations, softmax, losses, conv, pooling,
dropout, normalisation."""

from __future__ import annotations

from typing import Any

from ..._engine import jax, jnp
from ...common.tensor import Tensor
from .._utils import as_tensor_array, float_result, wrap

__all__ = ["relu", "softmax", "log_softmax", "cross_entropy"]


def relu(input: Any) -> Tensor:
    return wrap(jax.nn.relu(as_tensor_array(input)))


def softmax(input: Any, axis: int = -1, *, dtype: Any = None) -> Tensor:
    a = float_result(as_tensor_array(input))
    return wrap(jax.nn.softmax(a, axis=axis))


def log_softmax(logits: Any, axis: int = -1) -> Tensor:
    a = float_result(as_tensor_array(logits))
    return wrap(jax.nn.log_softmax(a, axis=axis))


def cross_entropy(
    input: Any,
    target: Any,
    weight: Any = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    logits = as_tensor_array(input)
    labels = as_tensor_array(target)
    logp = jax.nn.log_softmax(logits, axis=1)
    if jnp.issubdtype(labels.dtype, jnp.integer):
        picked = jnp.take_along_axis(logp, jnp.expand_dims(labels, 1), axis=1).squeeze(1)
        loss = -picked
    else:
        loss = -jnp.sum(logp * labels, axis=1)
    if reduction == "mean":
        return wrap(jnp.mean(loss))
    if reduction == "sum":
        return wrap(jnp.sum(loss))
    return wrap(loss)
