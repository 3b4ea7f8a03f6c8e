"""The devices XLA runs on: their names, counts, memory counters, and waiting for queued work.

``runtime`` and ``hal`` are built on these. Memory counters come from the PJRT client
(``Device.memory_stats()``): GPUs report ``bytes_in_use``, ``peak_bytes_in_use``, ``pool_bytes``,
``peak_pool_bytes``, ``bytes_limit`` ... (the pool's bytes are MindSpore's "reserved" memory); XLA:CPU reports none (``memory_stats()`` is None), and then every counter is 0.
Peaks are reset by remembering an offset: XLA's own peak counter cannot be reset, so after a reset the
peak is the largest value seen since, sampled whenever a statistic is read.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np

_TARGETS = {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "rocm": "GPU", "tpu": "TPU"}
_peaks: dict[tuple[str, int], dict[str, int]] = {}  # per device: counter -> peak since the last reset


def backend_target() -> str:
    """MindSpore's device_target name of XLA's default backend (``"CPU"``, ``"GPU"``, ...)."""
    return _TARGETS.get(jax.default_backend(), jax.default_backend().upper())


def target_available(target: str) -> bool:
    platform = {"CPU": "cpu", "GPU": "gpu", "TPU": "tpu"}.get(target)
    if platform is None:
        return False
    try:
        return len(jax.devices(platform)) > 0
    except RuntimeError:
        return False


def devices(target: str | None = None) -> list[Any]:
    """The local devices of `target` (default: the default backend's)."""
    if target is None:
        return list(jax.local_devices())
    platform = {"CPU": "cpu", "GPU": "gpu", "TPU": "tpu"}.get(target)
    if platform is None:
        return []
    try:
        return list(jax.local_devices(backend=platform))
    except RuntimeError:
        return []


def device_name(d: Any) -> str:
    kind = getattr(d, "device_kind", "") or ""
    return str(kind) if kind else f"{d.platform.upper()}:{d.id}"


def device_properties(d: Any) -> dict[str, Any]:
    stats = d.memory_stats() or {}
    props: dict[str, Any] = {
        "name": device_name(d),
        "platform": d.platform,
        "id": d.id,
        "total_memory": int(stats.get("bytes_limit", 0)),
    }
    cc = getattr(d, "compute_capability", None)
    if cc is not None:
        major, _, minor = str(cc).partition(".")
        props["major"], props["minor"] = int(major or 0), int(minor or 0)
    cores = getattr(d, "core_count", None)
    if cores is not None:
        props["multi_processor_count"] = int(cores)
    return props


def raw_memory_stats(d: Any | None = None) -> dict[str, int]:
    """The device's PJRT memory counters (empty where the backend reports none, as XLA:CPU)."""
    d = d if d is not None else jax.local_devices()[0]
    try:
        stats = d.memory_stats()
    except (RuntimeError, AttributeError):
        stats = None
    return {k: int(v) for k, v in (stats or {}).items() if isinstance(v, int | float)}


def _key(d: Any) -> tuple[str, int]:
    return (d.platform, d.id)


def memory_counters(d: Any | None = None) -> dict[str, int]:
    """``allocated``, ``reserved`` (now), their peaks since the last reset, and ``limit``, in bytes."""
    d = d if d is not None else jax.local_devices()[0]
    s = raw_memory_stats(d)
    allocated = s.get("bytes_in_use", 0)
    # the BFC pool's size is what MindSpore calls reserved memory ("bytes_reserved" is a separate reserve)
    reserved = s.get("pool_bytes", s.get("bytes_reserved", allocated))
    peaks = _peaks.get(_key(d))
    if peaks is None:
        peak_alloc = s.get("peak_bytes_in_use", allocated)
        peak_res = s.get("peak_pool_bytes", s.get("peak_bytes_reserved", reserved))
    else:
        peaks["allocated"] = max(peaks["allocated"], allocated)
        peaks["reserved"] = max(peaks["reserved"], reserved)
        peak_alloc, peak_res = peaks["allocated"], peaks["reserved"]
    return {
        "allocated": allocated,
        "reserved": reserved,
        "max_allocated": max(peak_alloc, allocated),
        "max_reserved": max(peak_res, reserved),
        "limit": s.get("bytes_limit", 0),
        "num_allocs": s.get("num_allocs", 0),
        "largest_alloc_size": s.get("largest_alloc_size", 0),
    }


def reset_peaks(d: Any | None = None, which: tuple[str, ...] = ("allocated", "reserved")) -> None:
    """Peaks are counted from now on (from the current values)."""
    d = d if d is not None else jax.local_devices()[0]
    cur = memory_counters(d)
    peaks = _peaks.setdefault(_key(d), {"allocated": cur["max_allocated"], "reserved": cur["max_reserved"]})
    for w in which:
        peaks[w] = cur[w]


def synchronize() -> None:
    """Block until every computation queued on the devices has finished (XLA dispatches asynchronously):
    the live arrays, then a tiny computation on each local device, which runs after the work queued before
    it (also work whose results nobody holds any more)."""
    arrays = jax.live_arrays()
    if arrays:
        jax.block_until_ready(arrays)
    for d in jax.local_devices():
        _sporax_sync(jax.device_put(np.int32(0), d)).block_until_ready()
    jax.effects_barrier()


@jax.jit
def _sporax_sync(x: Any) -> Any:
    """The marker computation of :func:`synchronize` (its HLO module, ``jit__sporax_sync``, is left out of
    the profiler's tables)."""
    return x + 1


SYNC_MODULE = "jit__sporax_sync"


def set_launch_blocking() -> None:
    """Run XLA:CPU computations synchronously on the calling thread (its asynchronous dispatch off), so an
    error surfaces at the op that caused it. Other backends keep their device queues."""
    jax.config.update("jax_cpu_enable_async_dispatch", False)


def backends_initialized() -> bool:
    from jax._src import xla_bridge

    return bool(xla_bridge.backends_are_initialized())


def pending_arrays() -> list[Any]:
    """The live arrays whose computation has not finished (the work queued on the devices now)."""
    return [a for a in jax.live_arrays() if not a.is_ready()]


def all_ready(arrays: list[Any]) -> bool:
    return all(a.is_deleted() or a.is_ready() for a in arrays)


def wait_for(arrays: list[Any]) -> None:
    live = [a for a in arrays if not a.is_deleted()]
    if live:
        jax.block_until_ready(live)


# ---- host arrays onto the device ------------------------------------------------------------------------
# jnp.asarray runs a conversion program compiled per (shape, dtype): ~8 ms to compile on XLA:CPU the first time
# a shape is seen, then ~11 us a call (32x256 float32; jax 0.10.2, one core). jax.device_put compiles nothing
# (~0.03 ms for a new shape) but spends ~17 us a call in Python. A shape that keeps coming back (a training
# loop's batches) is worth the compile; one seen a few times (variable-length batches, evaluation, the last
# partial batch, scripts and tests building Tensors of many shapes) is not: the first _COMPILE_AFTER arrays of
# a (shape, dtype) go through device_put, later ones through the compiled conversion.
_COMPILE_AFTER = 32
_MAX_SEEN = 4096  # (shape, dtype) pairs counted; past that, new pairs always take device_put
_seen: dict[tuple[Any, ...], int] = {}


_SEVERAL: list[bool] = []


def _several_devices() -> bool:
    """Whether the process sees several devices (a mesh: data and semi-auto parallel). There jnp.asarray places
    a new array as the parallel context asks, where device_put would put it on the default device alone (the
    AUTO_PARALLEL step then found no batch to split and all-reduced nothing)."""
    if not _SEVERAL:
        _SEVERAL.append(jax.device_count() > 1)
    return _SEVERAL[0]


def to_device(arr: np.ndarray) -> Any:
    """A copy of the host array ``arr`` on the default device, which later writes to ``arr`` never reach.
    device_put is given a private copy: XLA:CPU may share the buffer it is given, and its transfer is
    asynchronous (with ``may_alias=False`` a write right after the call still showed in the result)."""
    key = (arr.shape, arr.dtype)
    n = _seen.get(key, 0)
    if n >= _COMPILE_AFTER or _several_devices():
        return jax.numpy.asarray(arr)
    if n or len(_seen) < _MAX_SEEN:
        _seen[key] = n + 1
    return jax.device_put(arr.copy())
