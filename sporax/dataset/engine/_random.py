"""Random state of random transforms.

Inside a pipeline, each block of rows gets a generator derived from (seed, epoch, op, first row), so random
transforms draw the same numbers whatever the number of workers. Outside a pipeline (eager calls), they
draw from a global generator seeded by ``ds.config.set_seed``.
"""

from __future__ import annotations

import threading

import numpy as np

_local = threading.local()
_global = [np.random.default_rng()]


def reseed_global(seed: int) -> None:
    _global[0] = np.random.default_rng(seed)


def rng() -> np.random.Generator:
    """The generator random transforms draw from in this thread."""
    g = getattr(_local, "rng", None)
    return g if g is not None else _global[0]


class use:
    """Context manager: make ``gen`` the generator of this thread."""

    __slots__ = ("gen", "prev")

    def __init__(self, gen: np.random.Generator | None) -> None:
        self.gen = gen

    def __enter__(self):
        self.prev = getattr(_local, "rng", None)
        _local.rng = self.gen
        return self.gen

    def __exit__(self, *exc) -> None:
        _local.rng = self.prev


def make(*key: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([int(k) & 0xFFFFFFFF for k in key])))
