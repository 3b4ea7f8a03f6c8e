"""State frames: where a Parameter's value lives while a function is being traced or differentiated.

A *holder* is any object with a ``_stored`` attribute (a :class:`sporax.Parameter`, the RNG key).
Reads and writes of holders go through :func:`read` / :func:`write`:

* with no frame active, they touch ``holder._stored`` directly (PyNative, eager);
* inside frames (a jit trace, a gradient), the innermost frame that *binds* the holder answers, and a
  write lands in the innermost frame, so tracers never leak into ``_stored``.

A frame created with ``discover=True`` records which holders were read without being bound and which
were written: that is how :mod:`._jit` finds a function's implicit state, and how it notices a trace
that touched state its discovery pass did not see.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any


class _Local(threading.local):
    def __init__(self) -> None:
        self.stack: list[Frame] = []
        self.cast: Any = None  # the float dtype Parameters read as inside a to_float cell, or None
        self.amp: Any = None  # the low float dtype of amp_level="auto" while such a network runs, or None


_local = _Local()
_epoch: list[Any] = [0, 0, None]  # [configuration epoch, training cells' hash, execution mode]
_training: set[int] = set()


def thread_state() -> _Local:
    """This thread's state object (``.cast``, ``.amp``), for hot paths that read a field on every call (an
    eager op's amp check, a Parameter read) without a function call each time. Read its fields; change
    them only through :func:`set_cast_dtype` / :func:`set_amp_dtype`."""
    return _local


def bump_epoch() -> None:
    """Invalidate compiled functions whose behaviour depends on Python-side configuration
    (``to_float``, hooks, the auto-parallel context ...). Part of every jit cache key."""
    _epoch[0] += 1


def set_mode_key(mode: Any) -> None:
    """Record the execution mode (``set_context(mode=...)``) as a part of every jit cache key.

    A trace may read the mode (a Cell's backward hooks run on the host in PyNative and are traced in
    GRAPH_MODE), so a program is kept per mode; switching back finds the program compiled in that mode
    again, as MindSpore keeps its graphs (a bump of the epoch would compile every program anew)."""
    _epoch[2] = mode


def set_training(obj: Any, flag: bool) -> None:
    """Record a Cell's training flag. The key part it feeds is computed from the *set* of training
    cells, so switching train -> eval -> train finds the first compilation again."""
    key = id(obj)
    if flag == (key in _training):
        return
    if flag:
        _training.add(key)
    else:
        _training.discard(key)
    _epoch[1] = hash(frozenset(_training))


def epoch() -> tuple[Any, ...]:
    """The configuration part of jit cache keys: the epoch, the training cells, the execution mode, and the
    per-operator casting (``amp_level="auto"``, ``to_float``) a function is called under, which changes its
    program."""
    local = _local
    return (_epoch[0], _epoch[1], _epoch[2], local.amp, local.cast)


class Frame:
    """One scope of holder values. Use as a context manager."""

    __slots__ = ("_vals", "_written", "_read", "_first", "discover")

    def __init__(self, bound: Iterable[tuple[Any, Any]] = (), discover: bool = False) -> None:
        self._vals: dict[int, tuple[Any, Any]] = {id(h): (h, v) for h, v in bound}
        self._written: dict[int, Any] = {}
        self._read: dict[int, Any] = {}
        self._first: dict[int, Any] = {}
        self.discover = discover

    def __enter__(self) -> Frame:
        _local.stack.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        popped = _local.stack.pop()
        assert popped is self, "state frames must be closed in order"

    def value(self, holder: Any) -> Any:
        return self._vals[id(holder)][1]

    @property
    def reads(self) -> list[Any]:
        """Holders read while unbound here (``discover`` frames only), in first-read order."""
        return list(self._read.values())

    @property
    def writes(self) -> list[Any]:
        """Holders written in this frame, in first-write order."""
        return list(self._written.values())

    def written_items(self) -> list[tuple[Any, Any]]:
        return [(h, self._vals[k][1]) for k, h in self._written.items()]

    @property
    def changed_writes(self) -> list[Any]:
        """Written holders whose final value is not the very value first read here (``discover``
        frames): a write of an unchanged value (``assign(p, p)``) needs no output and no donation."""
        return [h for k, h in self._written.items() if self._first.get(k, _MISSING) is not self._vals[k][1]]


def bind_in_open_frames(holder: Any, value: Any) -> None:
    """Bind ``holder`` to ``value`` in every open frame (a holder created while a function is traced is a
    constant of that trace: every frame answers its reads, none records it as implicit state)."""
    for frame in _local.stack:
        frame._vals[id(holder)] = (holder, value)


def write_unrecorded(holder: Any, value: Any) -> bool:
    """Put ``value`` in the innermost open frame without recording a write (not state of the function being
    traced); False when no frame is open."""
    stack = _local.stack
    if not stack:
        return False
    stack[-1]._vals[id(holder)] = (holder, value)
    return True


def cast_dtype() -> Any:
    return _local.cast


def set_cast_dtype(dtype: Any) -> Any:
    """Make float holder values read as ``dtype`` (inside a ``Cell.to_float`` cell); returns the previous
    setting, to restore afterwards."""
    prev = _local.cast
    _local.cast = dtype
    return prev


def amp_dtype() -> Any:
    return _local.amp


def set_amp_dtype(dtype: Any) -> Any:
    """Make the white-list ops compute in ``dtype`` (a NumPy float dtype) and the black-list ops in float32
    (``amp_level="auto"``, see :mod:`sporax.ops._amp`); None switches it off. Returns the previous
    setting, to restore afterwards."""
    prev = _local.amp
    _local.amp = dtype
    return prev


def active() -> bool:
    """True while any frame is open: a trace or a gradient is running."""
    return bool(_local.stack)


def read(holder: Any) -> Any:
    stack = _local.stack
    key = id(holder)
    for i in range(len(stack) - 1, -1, -1):
        fr = stack[i]
        hit = fr._vals.get(key)
        if hit is not None:
            return hit[1]
        if fr.discover:
            # Serve from the enclosing scope and remember it, so later reads in this frame agree.
            value = _read_outer(holder, stack, i)
            fr._read[key] = holder
            fr._first[key] = value
            fr._vals[key] = (holder, value)
            return value
    return holder._stored


_MISSING = object()


def _read_outer(holder: Any, stack: list[Frame], below: int) -> Any:
    key = id(holder)
    for j in range(below - 1, -1, -1):
        fr = stack[j]
        hit = fr._vals.get(key)
        if hit is not None:
            return hit[1]
        if fr.discover:
            value = _read_outer(holder, stack, j)
            fr._read[key] = holder
            fr._first[key] = value
            fr._vals[key] = (holder, value)
            return value
    return holder._stored


def write(holder: Any, value: Any) -> None:
    stack = _local.stack
    if not stack:
        holder._stored = value
        return
    fr = stack[-1]
    key = id(holder)
    fr._vals[key] = (holder, value)
    fr._written[key] = holder
