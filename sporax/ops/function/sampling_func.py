"""Sampling ops of the math family (``mindspore.ops`` functional): ``bernoulli_``/``bernoulli_ext``,
``gumbel_softmax``; they draw from the framework seed (or a ``Generator``), as every sporax random op."""

from __future__ import annotations

from typing import Any

from ..._engine import jax, jnp
from ...common.seed import next_key
from ...common.tensor import Tensor
from .._utils import as_tensor_array, check_axis, float_result, wrap

__all__ = ["bernoulli_", "bernoulli_ext", "gumbel_softmax"]


def _key(generator: Any) -> Any:
    return next_key() if generator is None else generator._next_key()


def bernoulli_(input: Any, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    """Fill ``input`` in place with 0/1 draws, 1 with probability ``p`` (a number or a broadcastable
    Tensor); returns ``input``."""
    a = as_tensor_array(input)
    prob = jnp.broadcast_to(jnp.asarray(as_tensor_array(p), jnp.float32), a.shape)
    input._data = jax.random.bernoulli(_key(generator), prob).astype(a.dtype)
    return input


def bernoulli_ext(input: Any, *, generator: Any = None) -> Tensor:
    """0/1 draws shaped like ``input``, each 1 with the probability held in ``input``."""
    a = as_tensor_array(input)
    return wrap(jax.random.bernoulli(_key(generator), float_result(a)).astype(a.dtype))


def gumbel_softmax(logits: Any, tau: float = 1.0, hard: bool = False, dim: int = -1) -> Tensor:
    """``softmax((logits + Gumbel noise) / tau)`` along ``dim``; with ``hard`` the one-hot of its argmax,
    whose gradient is the soft sample's (straight-through)."""
    a = as_tensor_array(logits)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For 'gumbel_softmax', the 'logits' must be a float Tensor, but got {a.dtype}.")
    if not isinstance(tau, (int, float)) or isinstance(tau, bool) or tau <= 0:
        raise ValueError(f"For 'gumbel_softmax', the 'tau' must be a positive float, but got {tau}.")
    ax = check_axis(dim, a.ndim, "gumbel_softmax", "dim")
    g = jax.random.gumbel(next_key(), a.shape, a.dtype)
    soft = jax.nn.softmax((a + g) / tau, axis=ax)
    if not hard:
        return wrap(soft)
    onehot = jax.nn.one_hot(jnp.argmax(soft, axis=ax), a.shape[ax], dtype=a.dtype, axis=ax)
    return wrap(onehot - jax.lax.stop_gradient(soft) + soft)
