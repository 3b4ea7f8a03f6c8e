"""``sporax.hal`` (``mindspore.hal``): the devices XLA runs on, their memory counters, streams and events.

Device targets are MindSpore's names: ``"CPU"``, ``"GPU"`` (``"Ascend"`` is never available: XLA has no
Ascend backend). ``device_target=None`` means the context's target. Memory statistics are the device's own
counters (XLA:CPU keeps none: ``memory_stats`` returns ``{}`` there and the others 0, as on MindSpore's
CPU build). Streams and events are those of :mod:`sporax.runtime`.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any

from .._checkparam import check_device_id, check_device_target
from .._engine import _device
from ..runtime import memory as _memory
from ..runtime.stream import (
    Event,
    Stream,
    StreamCtx,
    communication_stream,
    current_stream,
    default_stream,
    set_cur_stream,
    synchronize,
)

__all__ = [
    "is_initialized",
    "is_available",
    "device_count",
    "get_device_capability",
    "get_device_properties",
    "get_device_name",
    "get_arch_list",
    "Stream",
    "synchronize",
    "set_cur_stream",
    "current_stream",
    "default_stream",
    "communication_stream",
    "StreamCtx",
    "Event",
    "memory_stats",
    "memory_reserved",
    "max_memory_reserved",
    "empty_cache",
    "reset_peak_memory_stats",
    "memory_summary",
    "memory_allocated",
    "max_memory_allocated",
    "reset_max_memory_reserved",
    "reset_max_memory_allocated",
]

_log = logging.getLogger("sporax")
_VALID = ["CPU", "GPU", "Ascend"]


def _context_target() -> str:
    from .. import context

    target = context.get_context("device_target")
    return target if isinstance(target, str) and target in _VALID else _device.backend_target()


def _resolve(device_target: Any) -> str:
    """MindSpore's checks of a ``device_target`` argument; None is the context's target."""
    if device_target is None:
        device_target = _context_target()
    check_device_target(device_target, _VALID)
    if not _device.target_available(device_target):
        raise ValueError(
            f"{device_target} backend is not available for this MindSpore package."
            "You can call hal.is_available to check the reason."
        )
    return device_target


def _resolves_target(fn: Callable[..., Any]) -> Callable[..., Any]:
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def deco(*args: Any, **kwargs: Any) -> Any:
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        bound.arguments["device_target"] = _resolve(bound.arguments["device_target"])
        if "device_id" in bound.arguments:
            check_device_id(bound.arguments["device_id"], device_count(bound.arguments["device_target"]))
        return fn(*bound.args, **bound.kwargs)

    return deco


def is_initialized(device_target: str) -> bool:
    """Whether `device_target`'s backend has been created (XLA creates it at the first computation).

    Raises:
        ValueError: If `device_target` is not one of ``"CPU"``, ``"GPU"``, ``"Ascend"``.
    """
    if device_target not in _VALID:
        raise ValueError(
            f"For 'hal.is_initialized', the argument 'device_target' must be one of {_VALID}, but got {device_target}."
        )
    return _device.target_available(device_target) and _device.backends_initialized()


def is_available(device_target: str) -> bool:
    """Whether XLA has a backend for `device_target` in this installation.

    Raises:
        ValueError: If `device_target` is not one of ``"CPU"``, ``"GPU"``, ``"Ascend"``.
    """
    if device_target not in _VALID:
        raise ValueError(
            f"For 'hal.is_available', the argument 'device_target' must be one of {_VALID}, but got {device_target}."
        )
    ok = _device.target_available(device_target)
    if not ok:
        _log.warning(f"Backend {device_target} is not available.")
    return ok


@_resolves_target
def device_count(device_target: str | None = None) -> int:
    """The number of devices of `device_target` this process can use (1 for CPU, as in MindSpore)."""
    if device_target == "CPU":
        return 1
    return len(_device.devices(device_target))


class _DeviceProperties:
    """A GPU's properties, as MindSpore's ``cudaDeviceProp``."""

    def __init__(self, props: dict[str, Any]) -> None:
        self.name = props["name"]
        self.major = props.get("major", 0)
        self.minor = props.get("minor", 0)
        self.is_multi_gpu_board = 0
        self.is_integrated = 0
        self.multi_processor_count = props.get("multi_processor_count", 0)
        self.total_memory = props.get("total_memory", 0)
        self.warp_size = 32

    def __repr__(self) -> str:
        return (
            f"_DeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
            f"is_multi_gpu_board={self.is_multi_gpu_board}, is_integrated={self.is_integrated}, "
            f"multi_processor_count={self.multi_processor_count}, total_memory={self.total_memory // (1024 * 1024)}MB, "
            f"warp_size={self.warp_size})"
        )


@_resolves_target
def get_device_capability(device_id: int, device_target: str | None = None) -> tuple[int, int] | None:
    """A GPU's compute capability ``(major, minor)``; None for CPU (as in MindSpore)."""
    if device_target == "CPU":
        return None
    props = _device.device_properties(_device.devices(device_target)[device_id])
    return (props.get("major", 0), props.get("minor", 0))


@_resolves_target
def get_device_properties(device_id: int, device_target: str | None = None) -> Any:
    """A GPU's properties (name, major, minor, multi_processor_count, total_memory, ...); None for CPU."""
    if device_target == "CPU":
        return None
    return _DeviceProperties(_device.device_properties(_device.devices(device_target)[device_id]))


@_resolves_target
def get_device_name(device_id: int, device_target: str | None = None) -> str:
    """The device's name: ``"CPU"`` for CPU (as in MindSpore), the GPU's model name for a GPU."""
    if device_target == "CPU":
        return "CPU"
    return _device.device_name(_device.devices(device_target)[device_id])


@_resolves_target
def get_arch_list(device_target: str | None = None) -> list[str] | None:
    """The architectures programs are compiled for: XLA compiles for the GPUs present (``sm_<major><minor>``);
    None for CPU."""
    if device_target == "CPU":
        return None
    arch = []
    for d in _device.devices(device_target):
        p = _device.device_properties(d)
        name = f"sm_{p.get('major', 0)}{p.get('minor', 0)}"
        if name not in arch:
            arch.append(name)
    return arch


def _device_of(device_target: Any) -> Any:
    return _device.devices(device_target)[0]


@_resolves_target
def memory_stats(device_target: str | None = None) -> dict[str, Any]:
    """The device's memory statistics in MindSpore's form; ``{}`` on CPU (XLA:CPU keeps no counters)."""
    if device_target == "CPU":
        return {}
    return _memory._stats_for(_device_of(device_target))


@_resolves_target
def memory_reserved(device_target: str | None = None) -> int:
    """Bytes held by the device's memory pool (0 on CPU)."""
    return 0 if device_target == "CPU" else int(memory_stats(device_target)["total_reserved_memory"])


@_resolves_target
def max_memory_reserved(device_target: str | None = None) -> int:
    """The peak of :func:`memory_reserved` since the start or the last reset (0 on CPU)."""
    return 0 if device_target == "CPU" else int(memory_stats(device_target)["max_reserved_memory"])


@_resolves_target
def memory_allocated(device_target: str | None = None) -> int:
    """Bytes held by live arrays on the device (0 on CPU)."""
    return 0 if device_target == "CPU" else int(memory_stats(device_target)["total_allocated_memory"])


@_resolves_target
def max_memory_allocated(device_target: str | None = None) -> int:
    """The peak of :func:`memory_allocated` since the start or the last reset (0 on CPU)."""
    return 0 if device_target == "CPU" else int(memory_stats(device_target)["max_allocated_memory"])


@_resolves_target
def reset_peak_memory_stats(device_target: str | None = None) -> None:
    """Count both memory peaks from the current values."""
    _device.reset_peaks(_device_of(device_target))


@_resolves_target
def reset_max_memory_reserved(device_target: str | None = None) -> None:
    """Count the reserved-memory peak from the current value."""
    _device.reset_peaks(_device_of(device_target), ("reserved",))


@_resolves_target
def reset_max_memory_allocated(device_target: str | None = None) -> None:
    """Count the allocated-memory peak from the current value."""
    _device.reset_peaks(_device_of(device_target), ("allocated",))


@_resolves_target
def memory_summary(device_target: str | None = None) -> str:
    """:func:`memory_stats` as MindSpore's text table (zeros on CPU)."""
    return _memory._summary(_memory._stats_for(_device_of(device_target)))


def empty_cache() -> None:
    """See :func:`sporax.runtime.empty_cache`: XLA frees an array's buffer when no Tensor holds it; this
    waits for queued work and returns."""
    _memory.empty_cache()
