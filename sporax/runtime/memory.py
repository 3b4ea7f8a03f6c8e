"""Device memory statistics and the memory pool's settings (``mindspore.runtime`` memory functions).

The numbers are the device's own counters, from XLA's PJRT client: on GPU the BFC allocator's bytes in
use, reserved (pool) bytes and their peaks. XLA:CPU keeps no counters: on CPU every statistic is 0 and
``memory_stats()`` returns MindSpore's CPU form (the keys with zeros), as MindSpore's CPU build does.
XLA's peak counter cannot be reset; after ``reset_peak_memory_stats`` the peak is the largest value
sampled since (each statistic read samples the counters).
"""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Iterator
from typing import Any

from .._checkparam import check_memory_size
from .._engine import _device

__all__ = [
    "set_memory",
    "memory_stats",
    "memory_reserved",
    "max_memory_reserved",
    "empty_cache",
    "memory_replay",
    "reset_peak_memory_stats",
    "memory_summary",
    "memory_allocated",
    "max_memory_allocated",
    "reset_max_memory_reserved",
    "reset_max_memory_allocated",
    "PluggableAllocator",
    "MemPool",
    "use_mem_pool",
]

_memory_conf: dict[str, Any] = {}


def _stats_for(device: Any = None) -> dict[str, Any]:
    c = _device.memory_counters(device)
    return {
        "total_reserved_memory": c["reserved"],
        "total_allocated_memory": c["allocated"],
        "total_idle_memory": max(c["reserved"] - c["allocated"], 0),
        "total_eager_free_memory": 0,
        "max_reserved_memory": c["max_reserved"],
        "max_allocated_memory": c["max_allocated"],
        "common_mem_pool_stats": {"block_unit_size": 0, "block_counts": 0, "blocks_info": {}},
        "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0, "blocks_info": {}},
    }


def set_memory(
    init_size: str = "2GB",
    increase_size: str = "2GB",
    max_size: str = "1024GB",
    optimize_level: str = "O0",
    huge_page_reserve_size: str = "0GB",
) -> None:
    """Set the memory pool's sizes (``"xxGB"`` strings) and optimize level (``"O0"``/``"O1"``), once.

    The values are checked as MindSpore checks them and recorded. XLA owns the pool: on GPU its BFC
    allocator takes a fraction of the device at start (``XLA_PYTHON_CLIENT_MEM_FRACTION``, or grows on demand
    with ``XLA_PYTHON_CLIENT_PREALLOCATE=false``), set through the environment before the first computation;
    XLA:CPU allocates buffers directly. The sizes given here do not resize it.

    Raises:
        RuntimeError: If called a second time.
        TypeError: If a size is not a str.
        ValueError: If a size is not ``"<number>GB"`` (or is 0 for the pool sizes) or `optimize_level` is
            not ``"O0"``/``"O1"``.
    """
    if _memory_conf:
        raise RuntimeError("The 'set_memory' can not be set repeatedly.")
    sizes = {
        "init_size": check_memory_size(init_size, "init_size"),
        "increase_size": check_memory_size(increase_size, "increase_size"),
        "max_size": check_memory_size(max_size, "max_size"),
        "huge_page_reserve_size": check_memory_size(huge_page_reserve_size, "huge_page_reserve_size", allow_zero=True),
    }
    if not isinstance(optimize_level, str):
        raise TypeError(f"The argument 'optimize_level' must be type of str, but got {type(optimize_level).__name__}.")
    if optimize_level not in ("O0", "O1"):
        raise ValueError(f"The optimize_level must be one of ['O0', 'O1'], but got {optimize_level}.")
    _memory_conf.update(sizes, optimize_level=optimize_level)


def memory_stats() -> dict[str, Any]:
    """The memory pool's statistics in bytes: ``total_reserved_memory``, ``total_allocated_memory``,
    ``total_idle_memory``, ``total_eager_free_memory``, ``max_reserved_memory``, ``max_allocated_memory``
    and the pools' block statistics (empty: XLA's allocator does not expose its blocks). All 0 on CPU."""
    return _stats_for()


def memory_reserved() -> int:
    """Bytes held by the device's memory pool now (0 on CPU)."""
    return int(_stats_for()["total_reserved_memory"])


def max_memory_reserved() -> int:
    """The largest :func:`memory_reserved` since the start or the last reset (0 on CPU)."""
    return int(_stats_for()["max_reserved_memory"])


def memory_allocated() -> int:
    """Bytes held by live arrays on the device now (0 on CPU)."""
    return int(_stats_for()["total_allocated_memory"])


def max_memory_allocated() -> int:
    """The largest :func:`memory_allocated` since the start or the last reset (0 on CPU)."""
    return int(_stats_for()["max_allocated_memory"])


def reset_peak_memory_stats() -> None:
    """Count both peaks (allocated and reserved) from the current values."""
    _device.reset_peaks()


def reset_max_memory_reserved() -> None:
    """Count the reserved-memory peak from the current value."""
    _device.reset_peaks(which=("reserved",))


def reset_max_memory_allocated() -> None:
    """Count the allocated-memory peak from the current value."""
    _device.reset_peaks(which=("allocated",))


def empty_cache() -> None:
    """Release cached pool memory. On XLA there is nothing to release from Python: an array's buffer is
    freed as soon as no Tensor holds it, and the GPU pool is not returned to the driver. Waits for queued
    work (so buffers freed by it are counted) and returns."""
    _device.synchronize()


def _format_size(sz: int, pref_sz: float) -> str:
    prefix = "B  "
    for new_prefix in ("KB", "MB", "GB", "TB", "PB"):
        if pref_sz < 768 * 1024:
            break
        prefix = new_prefix
        sz //= 1024
        pref_sz /= 1024
    return f"{sz:6d} {prefix}"


def _summary(stats: dict[str, Any]) -> str:
    rows = [
        ("total_reserved_memory", "Reserved memory"),
        ("total_allocated_memory", "Allocated memory"),
        ("total_idle_memory", "Idle memory"),
        ("total_eager_free_memory", "Eager free memory"),
        ("max_reserved_memory", "Max reserved memory"),
        ("max_allocated_memory", "Max allocated memory"),
    ]
    lines = ["=" * 45, " {:^43} ".format("Memory summary"), "=" * 45, " {:<20} | {:<20} ".format("Metric", "Data")]
    for key, name in rows:
        lines.append("-" * 45)
        data = int(stats.get(key, 0))
        lines.append(f" {name:<20} | {_format_size(data, data):<20} ")
    lines.append("=" * 45)
    return "|" + "|\n|".join(lines) + "|\n"


def memory_summary() -> str:
    """The statistics of :func:`memory_stats` as MindSpore's text table."""
    return _summary(_stats_for())


def memory_replay(file_path: str) -> None:
    """Not supported: replays an Ascend memory pool's ``memory_block.csv``; XLA plans buffer memory when it
    compiles a program, and its allocator cannot replay a recorded sequence.

    Raises:
        RuntimeError: Always.
    """
    raise RuntimeError(
        "For 'memory_replay', replaying memory_block.csv is only supported on Ascend: XLA plans buffer memory "
        "when it compiles a program. Use memory_stats()/max_memory_allocated() to observe memory use."
    )


class PluggableAllocator:
    """An allocator's ``alloc``/``free`` functions loaded from a shared library with ctypes (their
    addresses are :attr:`alloc_fn_ptr` and :attr:`free_fn_ptr`). XLA's allocator cannot be replaced from
    Python, so :func:`use_mem_pool` refuses to route allocations to it.

    Raises:
        OSError: If the library cannot be loaded.
        AttributeError: If it has no function of that name.
    """

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str) -> None:
        lib = ctypes.CDLL(path_to_so_file)
        alloc_fn = ctypes.cast(getattr(lib, alloc_fn_name), ctypes.c_void_p).value
        free_fn = ctypes.cast(getattr(lib, free_fn_name), ctypes.c_void_p).value
        if alloc_fn is None:
            raise ValueError(f"Cannot find allocator function {alloc_fn_name} in {path_to_so_file}")
        if free_fn is None:
            raise ValueError(f"Cannot find free function {free_fn_name} in {path_to_so_file}")
        self._alloc_fn = alloc_fn
        self._free_fn = free_fn

    @property
    def alloc_fn_ptr(self) -> int:
        return int(self._alloc_fn)

    @property
    def free_fn_ptr(self) -> int:
        return int(self._free_fn)


class MemPool:
    """A memory pool over a :class:`PluggableAllocator` (its :attr:`allocator`)."""

    def __init__(self, allocator: PluggableAllocator) -> None:
        self._allocator = allocator

    @property
    def allocator(self) -> PluggableAllocator:
        return self._allocator


@contextlib.contextmanager
def use_mem_pool(pool: MemPool) -> Iterator[None]:
    """Not supported: XLA's device allocator (BFC on GPU) cannot be replaced from Python.

    Raises:
        TypeError: If `pool` is not a :class:`MemPool`.
        RuntimeError: Otherwise.
    """
    if not isinstance(pool, MemPool):
        raise TypeError(f"For 'use_mem_pool', the argument 'pool' should be MemPool, but got {type(pool)}.")
    raise RuntimeError(
        "For 'use_mem_pool', routing allocations to a pluggable allocator is only supported on Ascend: XLA's "
        "device allocator cannot be replaced from Python."
    )
    yield  # pragma: no cover
