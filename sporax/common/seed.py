"""Global seed and the framework's random state.

``set_seed(s)`` makes everything random reproducible:

* parameter initialisation draws from a NumPy generator seeded from the global seed (host side, once);
* random ops (dropout, ``ops.uniform``...) split a JAX key held in a state holder, so a compiled step
  reads and advances it like any other implicit state: dropout is the same in PyNative, jit, gradients
  and sink mode.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from .._engine import jax, jnp, state

__all__ = [
    "set_seed",
    "get_seed",
    "next_key",
    "host_rng",
    "get_rng_state",
    "set_rng_state",
]

_seed: list[int | None] = [None]
_host: list[np.random.Generator] = [np.random.default_rng()]


class _KeyHolder:
    """The RNG key, as implicit state (read and written through the state frames)."""

    __slots__ = ("_stored", "__weakref__")

    def __init__(self, seed: int) -> None:
        self._stored = jax.random.key_data(jax.random.key(seed))


_key = _KeyHolder(int(np.random.SeedSequence().generate_state(1)[0]))


def set_seed(seed: int) -> None:
    """Set the global seed (MindSpore: ``mindspore.set_seed``)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"For 'set_seed', the 'seed' must be an int, but got {type(seed).__name__}.")
    if not 0 <= seed <= 2**32 - 1:
        raise ValueError(f"For 'set_seed', the 'seed' must be between 0 and 2**32 - 1, but got {seed}.")
    _seed[0] = int(seed)
    _op_keys.clear()
    _host[0] = np.random.default_rng(int(seed))
    _key._stored = jax.random.key_data(jax.random.key(int(seed)))
    # As MindSpore's set_seed: the dataset pipeline, NumPy's and Python's global generators follow too.
    np.random.seed(int(seed))
    random.seed(int(seed))
    for listener in _listeners:
        listener(int(seed))


_listeners: list[Callable[[int], None]] = []


def on_set_seed(listener: Callable[[int], None]) -> int | None:
    """Have every later :func:`set_seed` call ``listener(seed)``: a package that follows the global seed
    registers itself when it is imported (the dataset pipeline does), so this module never imports it.
    Returns the seed set so far, or None."""
    _listeners.append(listener)
    return _seed[0]


def get_seed() -> int | None:
    """The global seed, or None if never set."""
    return _seed[0]


def host_rng() -> np.random.Generator:
    """The NumPy generator used for parameter initialisation."""
    return _host[0]


_op_keys: dict[int, _KeyHolder] = {}


def next_key(seed: int | None = None) -> Any:
    """A fresh JAX key for one random op, advancing a key held as state.

    Without ``seed`` the global key advances. With an op's own ``seed`` (``ops.rand(3, seed=7)``,
    ``UniformReal(seed=1)``), that seed (combined with the global one) has its own key: the op draws a new
    but reproducible sequence on each call, as in MindSpore."""
    holder = _key
    if seed:
        k = (int(seed) ^ ((_seed[0] or 0) << 32)) & 0xFFFFFFFFFFFFFFFF
        holder = _op_keys.get(k) or _op_keys.setdefault(k, _KeyHolder(k))
    data = state.read(holder)
    k1, k2 = jax.random.split(jax.random.wrap_key_data(data))
    state.write(holder, jax.random.key_data(k1))
    return k2


def get_rng_state() -> dict[str, Any]:
    """The random state, for checkpoints and resume."""
    return {"seed": _seed[0], "key": np.asarray(_key._stored), "host": _host[0].bit_generator.state}


def set_rng_state(st: dict[str, Any]) -> None:
    _seed[0] = st["seed"]
    _key._stored = jnp.asarray(st["key"])
    g = np.random.default_rng()
    g.bit_generator.state = st["host"]
    _host[0] = g
