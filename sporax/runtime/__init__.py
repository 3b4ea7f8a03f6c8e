"""``sporax.runtime`` (``mindspore.runtime``): the device runtime on XLA.

Memory statistics come from the device's own counters (XLA:CPU keeps none: 0 there), ``synchronize``
waits for the work XLA queued, streams and events are ordering no-ops on XLA's one ordered queue per
device except where they wait or time (see ``stream``), and the executor settings take the meaning XLA
can give them (see each function). Ascend-only settings (AI Core limits, kernel launch groups/capture,
memory replay, pluggable pools) raise RuntimeError saying so.
"""

from ._limits import (
    StreamLimitCtx,
    get_device_limit,
    get_stream_limit,
    reset_stream_limit,
    set_device_limit,
    set_stream_limit,
)
from .executor import (
    dispatch_threads_num,
    launch_blocking,
    set_cpu_affinity,
    set_kernel_launch_capture,
    set_kernel_launch_group,
)
from .memory import (
    MemPool,
    PluggableAllocator,
    empty_cache,
    max_memory_allocated,
    max_memory_reserved,
    memory_allocated,
    memory_replay,
    memory_reserved,
    memory_stats,
    memory_summary,
    reset_max_memory_allocated,
    reset_max_memory_reserved,
    reset_peak_memory_stats,
    set_memory,
    use_mem_pool,
)
from .stream import (
    Event,
    Stream,
    StreamCtx,
    communication_stream,
    current_stream,
    default_stream,
    set_cur_stream,
    synchronize,
)

__all__ = sorted(
    [
        "launch_blocking",
        "dispatch_threads_num",
        "set_cpu_affinity",
        "set_kernel_launch_group",
        "set_kernel_launch_capture",
        "Stream",
        "communication_stream",
        "synchronize",
        "set_cur_stream",
        "current_stream",
        "default_stream",
        "StreamCtx",
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
        "Event",
        "PluggableAllocator",
        "MemPool",
        "use_mem_pool",
        "get_device_limit",
        "set_device_limit",
        "get_stream_limit",
        "set_stream_limit",
        "reset_stream_limit",
        "StreamLimitCtx",
    ]
)
