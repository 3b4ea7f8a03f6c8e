"""``sporax.profiler`` (``mindspore.profiler``): profile training on ``jax.profiler``.

A session's trace opens in TensorBoard's profile plugin (xprof) and in Perfetto; ``analyse()`` writes
MindSpore's per-operator time table (``op_statistic.csv``: op type, count, total/avg time) and prints it.
See ``docs/profiler.md``.
"""

from ._enums import AicoreMetrics, ExportType, HostSystem, ProfilerActivity, ProfilerLevel
from ._extras import DynamicProfilerMonitor, EnvProfiler
from ._extras import Mstx as mstx
from .profiler import Profile as profile
from .profiler import Profiler, _ExperimentalConfig, tensorboard_trace_handler
from .schedule import Schedule as schedule

__all__ = [
    "tensorboard_trace_handler",
    "schedule",
    "Profiler",
    "EnvProfiler",
    "ProfilerLevel",
    "ProfilerActivity",
    "AicoreMetrics",
    "ExportType",
    "HostSystem",
    "DynamicProfilerMonitor",
    "mstx",
    "_ExperimentalConfig",
    "profile",
]
