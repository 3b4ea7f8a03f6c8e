"""MindSpore's random generators (``mindspore.Generator``, ``default_generator``, ``manual_seed``, ``seed``,
``initial_seed``, ``get_rng_state``, ``set_rng_state``).

A :class:`Generator` holds a seed and a JAX key kept as implicit state, so a compiled step reads and advances
it like any Parameter. ``default_generator`` is the framework's generator: its key is the one every random op
without its own seed draws from (``ops.rand``, dropout...), so ``manual_seed(5)`` makes them reproducible, and
``set_rng_state(get_rng_state())`` replays the same draws. A state is a uint8 Tensor of 16 bytes, as in
MindSpore: the seed (int64, little-endian) then the position in the stream (here: the key's two uint32 words;
MindSpore stores an int64 offset, so states do not travel between the two frameworks).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _checkparam as validator
from .._checkparam import check_instance
from .._engine import jax, jnp, state
from . import dtype as mstype
from . import seed as _seed_mod

__all__ = ["Generator", "default_generator", "seed", "manual_seed", "initial_seed", "set_rng_state", "get_rng_state"]


def _key_data(seed_value: int) -> Any:
    return jax.random.key_data(jax.random.key(seed_value & 0xFFFFFFFFFFFFFFFF))


class Generator:
    """A random number generator with its own seed and stream (MindSpore's ``mindspore.Generator``)."""

    def __init__(self) -> None:
        self._seed = 0
        self._holder = _seed_mod._KeyHolder(0)

    def _next_key(self) -> Any:
        """A fresh JAX key from this generator's stream (advancing it; works under jit and grad)."""
        data = state.read(self._holder)
        k1, k2 = jax.random.split(jax.random.wrap_key_data(data))
        state.write(self._holder, jax.random.key_data(k1))
        return k2

    def _reseed(self, value: int) -> None:
        self._seed = value
        self._holder._stored = _key_data(value)

    def manual_seed(self, seed: int) -> Generator:  # noqa: F811
        """Set the seed (and restart the stream); returns the generator."""
        self._reseed(validator.check_seed(seed))
        return self

    def seed(self) -> int:  # noqa: F811
        """Seed the generator with a random number and return it."""
        value = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))
        self._reseed(value)
        return value

    def initial_seed(self) -> int:
        """The seed the generator was last seeded with."""
        return self._seed

    def get_state(self) -> Any:
        """The generator's state: a uint8 Tensor of 16 bytes (seed, then the stream position)."""
        from .tensor import Tensor

        key = np.asarray(self._holder._stored, dtype=np.uint32)
        raw = np.concatenate([np.array([self._seed], "<i8").view(np.uint8), key.astype("<u4").view(np.uint8)])
        return Tensor(raw, mstype.uint8)

    def set_state(self, state: Any) -> None:  # noqa: F811
        """Restore a state from :meth:`get_state`."""
        from .tensor import Tensor

        check_instance(state, Tensor, "state", "set_state")
        raw = np.ascontiguousarray(state.asnumpy()).reshape(-1)
        if raw.dtype != np.uint8 or raw.size != 16:
            raise ValueError(
                f"For 'set_state', the 'state' must be a uint8 Tensor of 16 bytes, but got {state.dtype} of "
                f"{raw.size} element(s)."
            )
        self._seed = int(raw[:8].view("<i8")[0])
        self._holder._stored = jnp.asarray(raw[8:].view("<u4").astype(np.uint32))


class _DefaultGenerator(Generator):
    """The framework generator: its stream is the global key random ops draw from."""

    def __init__(self) -> None:
        self._seed = 0
        self._holder = _seed_mod._key

    def _reseed(self, value: int) -> None:
        self._seed = value
        _seed_mod._key._stored = _key_data(value)
        _seed_mod._op_keys.clear()
        _seed_mod._host[0] = np.random.default_rng(value & 0xFFFFFFFFFFFFFFFF)


default_generator: Generator = _DefaultGenerator()


def seed() -> int:
    """Seed the default generator with a random number and return it."""
    return default_generator.seed()


def manual_seed(seed: int) -> Generator:  # noqa: F811
    """Seed the default generator (random ops and parameter initialisation follow it); returns it."""
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    """The default generator's seed."""
    return default_generator.initial_seed()


def get_rng_state() -> Any:
    """The default generator's state (a uint8 Tensor)."""
    return default_generator.get_state()


def set_rng_state(state: Any) -> None:  # noqa: F811
    """Restore the default generator's state."""
    default_generator.set_state(state)
