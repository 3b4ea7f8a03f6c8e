"""``mindspore.profiler.schedule``: which steps a profiler skips, warms up on and records."""

from __future__ import annotations

import logging

from .._checkparam import check_schedule_int
from ._enums import ProfilerAction

__all__ = ["Schedule", "ProfilerAction"]

_log = logging.getLogger("sporax")


class Schedule:
    """The action of each step: after `skip_first` steps, cycles of `wait` idle steps, `warmup` steps
    (collection set up, nothing kept) and `active` recorded steps, the last of which saves the trace and
    calls ``on_trace_ready``; `repeat` cycles (0: until the profiler stops).

    Args:
        wait (int): Idle steps at the start of each cycle.
        active (int): Recorded steps per cycle (at least 1).
        warmup (int, optional): Warm-up steps per cycle. Default: ``0``.
        repeat (int, optional): Number of cycles; ``0`` repeats until the profiler stops. Default: ``0``.
        skip_first (int, optional): Steps skipped before the first cycle. Default: ``0``.

    Invalid values are logged and replaced by their defaults (``active`` by 1), as in MindSpore.

    Examples:
        >>> from sporax.profiler import schedule
        >>> s = schedule(wait=1, warmup=1, active=2)
        >>> [s(i).name for i in range(4)]
        ['NONE', 'WARM_UP', 'RECORD', 'RECORD_AND_SAVE']
    """

    def __init__(self, *, wait: int, active: int, warmup: int = 0, repeat: int = 0, skip_first: int = 0) -> None:
        self.wait = wait
        self.active = active
        self.warmup = warmup
        self.repeat = repeat
        self.skip_first = skip_first
        self._apply_defaults()

    def __call__(self, step: int) -> ProfilerAction:
        if step < 0:
            raise ValueError("Invalid parameter step, which must be not less than 0.")
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        cycle = self.wait + self.warmup + self.active
        if 0 < self.repeat <= step / cycle:
            return ProfilerAction.NONE
        mod = step % cycle
        if mod < self.wait:
            return ProfilerAction.NONE
        if mod < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD if mod < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    def __repr__(self) -> str:
        return (
            f"Schedule(wait={self.wait!r}, active={self.active!r}, warmup={self.warmup!r}, "
            f"repeat={self.repeat!r}, skip_first={self.skip_first!r})"
        )

    def _apply_defaults(self) -> None:
        """MindSpore's lenient rule: a count that is not an int >= its minimum is reset to its default."""
        for name, minimum, default in (
            ("wait", 0, 0),
            ("warmup", 0, 0),
            ("active", 1, 1),
            ("repeat", 0, 0),
            ("skip_first", 0, 0),
        ):
            setattr(self, name, check_schedule_int(getattr(self, name), name, minimum, default))
        if self.warmup == 0:
            _log.warning("Profiler won't be using warmup, this can skew profiler results")

    def to_dict(self) -> dict[str, int]:
        return {
            "wait": self.wait,
            "active": self.active,
            "warmup": self.warmup,
            "repeat": self.repeat,
            "skip_first": self.skip_first,
        }


def _default_schedule_fn(_: int) -> ProfilerAction:
    """Without a schedule every step is recorded."""
    return ProfilerAction.RECORD
