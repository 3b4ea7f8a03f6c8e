"""Streams and events (``mindspore.runtime.Stream``/``Event``) on XLA.

XLA runs the work of one device in the order it was dispatched: each compiled program and eager op goes
to the device's one compute queue, and XLA inserts its own waits between its internal streams (copies,
collectives). So user streams cannot run work concurrently here, and every ordering a MindSpore program
expresses with streams (``wait_event``, ``wait_stream``, ``StreamCtx``) already holds: those are ordering
no-ops, as documented on each. What does have meaning is *waiting*: ``synchronize``, ``Stream.synchronize``,
``Event.synchronize`` and ``query`` wait for (or look at) the work queued before them, and an Event with
``enable_timing`` records when that work finished, so ``elapsed_time`` measures device time.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from .. import _checkparam as validator
from .._engine import _device

__all__ = [
    "Stream",
    "Event",
    "StreamCtx",
    "synchronize",
    "set_cur_stream",
    "current_stream",
    "default_stream",
    "communication_stream",
]

_ids = itertools.count(1)


class Stream:
    """A device stream. On XLA every stream of a device is its one ordered queue (see the module doc):
    work "on" any stream runs in dispatch order, :meth:`synchronize` waits for all queued work and
    :meth:`query` says whether it has finished.

    Args:
        priority (int, optional): Accepted (XLA schedules its queue itself). Default: ``0``.
    """

    def __init__(self, priority: int = 0, **kwargs: Any) -> None:
        validator.check_is_type(priority, int, "priority", "Stream")
        if "stream_id" in kwargs:
            validator.check_is_type(kwargs["stream_id"], int, "stream_id", "Stream")
        self.priority = priority
        self.id = kwargs.get("stream_id", next(_ids)) if not kwargs.get("_default") else 0
        self.device_id = 0

    def stream_id(self) -> int:
        return int(self.id)

    def record_event(self, event: Event | None = None) -> Event:
        """Record `event` (a new Event when None) after the work queued so far; returns it."""
        if event is None:
            event = Event()
        validator.check_arg_instance(event, Event, "event", "record_event")
        event.record(self)
        return event

    def wait_event(self, event: Event) -> None:
        """Work queued after this call runs after the event's work: always true on XLA's ordered queue."""
        validator.check_arg_instance(event, Event, "event", "wait_event")
        event.wait(self)

    def wait_stream(self, stream: Stream) -> None:
        """Work queued after this call runs after `stream`'s queued work: always true on XLA (one queue)."""
        validator.check_arg_instance(stream, Stream, "stream", "wait_stream")

    def synchronize(self) -> None:
        """Wait until the work queued on the device has finished."""
        _device.synchronize()

    def query(self) -> bool:
        """Whether the work queued on the device has finished (without waiting)."""
        return not _device.pending_arrays()

    def __eq__(self, other: object) -> bool:
        stream: Stream = validator.check_arg_instance(other, Stream, "other", "__eq__")
        return self.id == stream.id and self.device_id == stream.device_id

    def __hash__(self) -> int:
        return hash((self.id, self.device_id))

    def __repr__(self) -> str:
        return f"Stream(device_name={_device.backend_target()}, device_id:{self.device_id}, stream id:{self.id})"


class Event:
    """A marker in the device's queue. :meth:`record` marks the work queued so far; :meth:`query` and
    :meth:`synchronize` look at / wait for that work. With `enable_timing`, ``record`` waits for that work
    and takes the time it finished, so :meth:`elapsed_time` between two events is the device time between
    them (in ms). `blocking` is accepted (``synchronize`` always blocks the calling thread).
    """

    def __init__(self, enable_timing: bool = False, blocking: bool = False) -> None:
        validator.check_bool(enable_timing, "enable_timing", "Event")
        validator.check_bool(blocking, "blocking", "Event")
        self.enable_timing = enable_timing
        self.blocking = blocking
        self._pending: list[Any] = []
        self._time: float | None = None
        self._recorded = False

    def record(self, stream: Stream | None = None) -> None:
        """Mark the work queued so far (on `stream`, default the current stream: the device's queue)."""
        if stream is not None:
            validator.check_arg_instance(stream, Stream, "stream", "record")
        self._recorded = True
        if self.enable_timing:
            _device.synchronize()
            self._pending, self._time = [], time.perf_counter()
        else:
            self._pending = _device.pending_arrays()

    def wait(self, stream: Stream | None = None) -> None:
        """Make `stream`'s later work wait for this event: always true on XLA's ordered queue."""
        if stream is not None:
            validator.check_arg_instance(stream, Stream, "stream", "wait")

    def synchronize(self) -> None:
        """Wait until the work marked by :meth:`record` has finished."""
        _device.wait_for(self._pending)
        self._pending = []

    def query(self) -> bool:
        """Whether the work marked by :meth:`record` has finished (True if never recorded)."""
        done = _device.all_ready(self._pending)
        if done:
            self._pending = []
        return done

    def elapsed_time(self, end_event: Event) -> float:
        """Milliseconds between this event and `end_event` (both recorded with ``enable_timing=True``).

        Raises:
            TypeError: If `end_event` is not an Event.
            RuntimeError: If either event was not created with timing or not recorded.
        """
        validator.check_arg_instance(end_event, Event, "end_event", "elapsed_time")
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("For 'elapsed_time', both events must be created with enable_timing=True.")
        if self._time is None or end_event._time is None:
            raise RuntimeError("For 'elapsed_time', both events must be recorded before calling elapsed_time.")
        return (end_event._time - self._time) * 1000.0


_default = Stream(_default=True)
_current: list[Stream] = [_default]


def synchronize() -> None:
    """Wait until all work queued on the device has finished (XLA dispatches asynchronously)."""
    _device.synchronize()


def set_cur_stream(stream: Stream | None) -> None:
    """Make `stream` the current stream (None: unchanged). Work still runs in XLA's one ordered queue."""
    if stream is None:
        return
    validator.check_arg_instance(stream, Stream, "stream", "set_cur_stream")
    _current[0] = stream


def current_stream() -> Stream:
    """The current stream (the default stream unless :func:`set_cur_stream` or :class:`StreamCtx` changed it)."""
    return _current[0]


def default_stream() -> Stream:
    """The default stream (id 0)."""
    return _default


def communication_stream() -> Stream:
    """The stream collectives run on: XLA schedules collectives inside its programs, in the same order."""
    return _default


class StreamCtx:
    """Make `ctx_stream` the current stream inside a ``with`` block (None: no change)."""

    def __init__(self, ctx_stream: Stream | None) -> None:
        if ctx_stream is not None:
            validator.check_arg_instance(ctx_stream, Stream, "ctx_stream", "StreamCtx")
        self.stream = ctx_stream
        self.prev_stream: Stream | None = None

    def __enter__(self) -> None:
        if self.stream is None:
            return
        self.prev_stream = current_stream()
        set_cur_stream(self.stream)

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        if self.stream is None:
            return
        set_cur_stream(self.prev_stream)
