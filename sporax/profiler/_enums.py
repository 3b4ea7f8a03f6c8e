"""The profiler's option enums (MindSpore's ``mindspore.profiler.common.constant``) and the schedule's actions."""

from __future__ import annotations

from enum import Enum

__all__ = ["ProfilerLevel", "ProfilerActivity", "AicoreMetrics", "ExportType", "HostSystem", "ProfilerAction"]


class ProfilerLevel(Enum):
    """How much is collected. On XLA every level records the framework's host events and every XLA
    operation's time; the levels above ``Level0`` add nothing more (they select CANN layers on Ascend)."""

    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(Enum):
    """Where events are collected: ``CPU`` (the framework, host side), ``NPU``/``GPU`` (the device's
    operations). sporax's trace always holds both the host events and the device's XLA operations."""

    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class AicoreMetrics(Enum):
    """Ascend AI Core hardware counters. Accepted and recorded; there are no AI Cores on XLA's devices."""

    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"


class ExportType(Enum):
    """The result formats: ``Text`` (the CSV/JSON files sporax writes); ``Db`` is accepted and writes the
    same text files (there is no msprof database on XLA)."""

    Db = "db"
    Text = "text"


class HostSystem(Enum):
    """Host system data (CPU, memory, disk, network, OS runtime) collected by msprof on Ascend. Accepted;
    sporax's trace holds the host threads' events."""

    CPU = "cpu"
    MEM = "mem"
    DISK = "disk"
    NETWORK = "network"
    OSRT = "osrt"


class ProfilerAction(Enum):
    """What the profiler does at a step under a schedule."""

    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3

    @staticmethod
    def get_by_value(value: int) -> ProfilerAction | None:
        return {a.value: a for a in ProfilerAction}.get(value)
