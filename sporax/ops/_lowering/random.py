"""Dropout's keep masks from half the hashing of ``jax.random.bernoulli``.

``jax.random.bernoulli(key, p, shape)`` hashes one 64-bit counter per element with Threefry-2x32 and, with
a float64 ``p`` (a Python float under x64), compares 52 bits of the two output words against ``p``; on CPU
JAX lowers the hash as a rolled loop. The hash dominates: the masks of the 4-layer d 256 Transformer step
(17 masks, 16.5 M elements) cost ~70 ms on one core, ~20 % of the step.

``keep_mask`` hashes one counter per *two* elements, unrolled (the lowering JAX uses on GPU and TPU), and
uses each of the two 32-bit output words for one element: ``keep = word < round(p * 2**32)``. Each element
still gets 32 independent uniform bits, so the keep probability is ``p`` to within ``2**-33`` (bernoulli's
float32 path has ``2**-23``), and the same key gives the same mask, under ``jit``, gradients and sink
loops alike; the masks differ from ``jax.random.bernoulli``'s. ~3x faster (22 ms against 70 ms for those
17 masks, one core).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..._engine import jax, jnp, lax

__all__ = ["keep_mask"]

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


def _rotl(x: Any, d: int) -> Any:
    return lax.shift_left(x, np.uint32(d)) | lax.shift_right_logical(x, np.uint32(32 - d))


def _threefry2x32(k1: Any, k2: Any, x1: Any, x2: Any) -> tuple[Any, Any]:
    """Threefry-2x32 (20 rounds), unrolled: JAX's ``_threefry2x32_lowering(use_rolled_loops=False)``."""
    ks = (k1, k2, k1 ^ k2 ^ np.uint32(0x1BD11BDA))
    x = [x1 + ks[0], x2 + ks[1]]
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            x[0] = x[0] + x[1]
            x[1] = x[0] ^ _rotl(x[1], r)
        x[0] = x[0] + ks[(i + 1) % 3]
        x[1] = x[1] + ks[(i + 2) % 3] + np.uint32(i + 1)
    return x[0], x[1]


def _uniform_words(key: Any, n: int) -> Any:
    """``n`` uniform uint32 words: counter ``i`` (of ``ceil(n / 2)``) gives words ``i`` and ``i + ceil(n / 2)``."""
    h = (n + 1) // 2
    if str(jax.random.key_impl(key)) != "threefry2x32" or h >= 2**32:
        return jax.random.bits(key, (n,), jnp.uint32)
    k1, k2 = (d for d in jax.random.key_data(key))
    w1, w2 = _threefry2x32(k1, k2, jnp.zeros((h,), np.uint32), lax.iota(np.uint32, h))
    return jnp.concatenate([w1, w2])[:n]


def keep_mask(key: Any, p: float, shape: tuple[int, ...]) -> Any:
    """A bool array of ``shape``, each element True with probability ``p`` (a number in [0, 1];
    an array goes to ``jax.random.bernoulli``) independently, drawn from the typed ``key``."""
    shape = tuple(int(d) for d in shape)
    if isinstance(p, bool) or not isinstance(p, (int, float, np.floating)):  # a traced probability
        return jax.random.bernoulli(key, p, shape)
    t = round(float(p) * 2.0**32)
    if t >= 2**32:
        return jnp.ones(shape, bool)
    if t <= 0:
        return jnp.zeros(shape, bool)
    return (_uniform_words(key, math.prod(shape)) < np.uint32(t)).reshape(shape)
