"""Global seed and the framework's random state.

``set_seed(s)`` makes everything random reproducible:

* parameter initialisation draws from a NumPy generator seeded from the global seed (host side, once);
* random ops (dropout, ``ops.uniform``...) split a JAX key held in a state holder, so a compiled step
  reads and advances it like any other implicit state: dropout is the same in PyNative, jit, gradients
  and sink mode.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    "traced_call",
    "replaying_draws",
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
    journal = _traced.journal
    if journal is not None:
        journal.append((holder, data))
    k1, k2 = jax.random.split(jax.random.wrap_key_data(data))
    state.write(holder, jax.random.key_data(k1))
    return k2


# A traced Cell call's draws, for the gradient of that same call to draw them again. In a compiled step (GRAPH
# mode), MindSpore's ``loss = net(x); grads = grad(net, weights)(x, sens)`` differentiates the forward the
# step ran: its gradient sees the dropout masks its loss saw (checked on MindSpore 2.10 with a train-step
# Cell of this form; in PyNative mode its gradient draws new masks, as here, where nothing is traced).
class _Traced(threading.local):
    def __init__(self) -> None:
        self.journal: list[tuple[Any, Any]] | None = None  # (holder, key before a draw) while a call is open
        self.depth = 0  # open traced Cell calls
        # id(trace frame) -> (frame, {id(cell): (cell, args, {holder: key before the call's first draw})})
        self.calls: dict[int, tuple[Any, dict[int, tuple[Any, tuple[Any, ...], dict[Any, Any]]]]] = {}


_traced = _Traced()


def _open_frames() -> list[Any]:
    return state.thread_state().stack


def traced_call(cell: Any, run: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``run(*args, **kwargs)``, a Cell's call inside a trace, remembering the draws it made (see above)."""
    t = _traced
    if t.journal is None:
        t.journal = []
    mark = len(t.journal)
    t.depth += 1
    try:
        out = run(*args, **kwargs)
    finally:
        t.depth -= 1
        journal = t.journal
        if len(journal) > mark and not kwargs:
            draws: dict[Any, Any] = {}
            for holder, data in journal[mark:]:
                draws.setdefault(holder, data)
            frames = _open_frames()
            live = {id(f) for f in frames}
            for k in [k for k in t.calls if k not in live]:  # records of finished traces go
                del t.calls[k]
            frame = frames[-1]
            t.calls.setdefault(id(frame), (frame, {}))[1][id(cell)] = (cell, args, draws)
        if not t.depth:
            t.journal = None
    return out


@contextmanager
def replaying_draws(fn: Any, args: tuple[Any, ...]) -> Iterator[None]:
    """Inside a trace, while the gradient of ``fn`` on ``args`` runs its forward: if ``fn`` was called on
    these very inputs earlier in the trace, its random ops draw what that call drew; the random state
    after is as before (the step advances it once, by its forward)."""
    rec = None
    for frame in reversed(_open_frames()):
        entry = _traced.calls.get(id(frame))
        if entry is not None and entry[0] is frame and id(fn) in entry[1]:
            rec = entry[1][id(fn)]
            break
    if rec is None or rec[0] is not fn or len(rec[1]) != len(args) or any(a is not b for a, b in zip(rec[1], args)):
        yield
        return
    now = {holder: state.read(holder) for holder in rec[2]}
    for holder, data in rec[2].items():
        state.write(holder, data)
    try:
        yield
    finally:
        for holder, data in now.items():
            state.write(holder, data)


def get_rng_state() -> dict[str, Any]:
    """The random state, for checkpoints and resume."""
    return {"seed": _seed[0], "key": np.asarray(_key._stored), "host": _host[0].bit_generator.state}


def set_rng_state(st: dict[str, Any]) -> None:
    _seed[0] = st["seed"]
    _key._stored = jnp.asarray(st["key"])
    g = np.random.default_rng()
    g.bit_generator.state = st["host"]
    _host[0] = g
