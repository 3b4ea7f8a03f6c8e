"""glibc's malloc, set for XLA:CPU's scratch memory.

Each call of a compiled program takes its temporary buffers (tens to hundreds of MB for a train step) from
malloc and frees them at the end. By default glibc serves blocks that large with a fresh ``mmap`` and gives
them back with ``munmap``, so every step the kernel zero-fills every page again: measured on one core, 17 ms
of system time in a 60 ms LSTM step and 50 ms in a 260 ms Transformer step. Three settings make the freed
blocks stay in the heap for the next call:

- ``M_MMAP_THRESHOLD`` and ``M_TRIM_THRESHOLD`` at their maximum: large blocks come from the heap and freed
  memory is kept;
- ``M_ARENA_MAX`` 1: XLA runs programs on its own threads, whose arenas are capped at 64 MB and would
  ``mmap`` anything larger anyway.

The cost: the process keeps its peak heap instead of returning it to the system between steps (its RSS
stays at the high-water mark). ``SPORAX_MALLOC_TUNING=0`` leaves malloc as it is; elsewhere than Linux with
glibc nothing is done. ``bench/bench_malloc.py`` measures both sides.
"""

from __future__ import annotations

import ctypes
import os
import sys

ENV_SWITCH = "SPORAX_MALLOC_TUNING"
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
_LARGEST = 2**31 - 1


def enabled() -> bool:
    """Whether sporax sets malloc up at import (``SPORAX_MALLOC_TUNING`` is not 0/false/off/no)."""
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "false", "off", "no")


def tune() -> bool:
    """Apply the settings above; True when they took effect."""
    if not enabled() or not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl and other C libraries: no mallopt
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return all(
        mallopt(param, value) == 1
        for param, value in ((_M_ARENA_MAX, 1), (_M_MMAP_THRESHOLD, _LARGEST), (_M_TRIM_THRESHOLD, _LARGEST))
    )
