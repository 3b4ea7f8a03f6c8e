"""Intercepting the operators called through ``sporax.ops`` (Tensor operators and methods included): the one
mechanism behind ``utils.MsDispatchMode`` and the ``with`` form of ``saved_tensors_hooks``.

While an interceptor is open, each ``sporax.ops`` function is replaced by a dispatcher; a call goes to the
innermost open interceptor's ``__ms_dispatch__(func, args, kwargs)``, and what that handler runs (``func(*args)``
included) goes to the interceptors outside it. An operator's own inner operators are not intercepted.
"""

from __future__ import annotations

import inspect
import threading
from typing import Any

from ._op_registry import ops as _ops

__all__ = ["OpFunc", "push", "pop"]

_stack: list[Any] = []  # the open interceptors, innermost last (process-wide, as MindSpore's guard stack)
_lock = threading.Lock()
_local = threading.local()  # .level: how many of the interceptors the operators called now go through
_originals: dict[str, Any] = {}


class OpFunc:
    """The intercepted operator: ``name`` (``"Add"``, ``"Matmul"``...) and ``func(*args)`` running it (with the
    keyword arguments of the call unless others are given); that call goes to the next outer interceptor."""

    def __init__(self, name: str, fn: Any, kwargs: dict, level: int) -> None:
        self.name = name
        self._fn = fn
        self._kwargs = kwargs
        self._level = level

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _run(self._fn, self.name, args, kwargs or self._kwargs, self._level)

    def __repr__(self) -> str:
        return f"OpFunc({self.name})"


def _op_name(fn_name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in fn_name.split("_") if part)


def _run(fn: Any, name: str, args: tuple, kwargs: dict, level: int) -> Any:
    previous = getattr(_local, "level", None)
    if level > 0:
        _local.level = level - 1
        try:
            return _stack[level - 1].__ms_dispatch__(OpFunc(name, fn, kwargs, level - 1), args, kwargs)
        finally:
            _local.level = previous
    _local.level = 0
    try:
        return fn(*args, **kwargs)
    finally:
        _local.level = previous


def _intercepting(name: str, fn: Any) -> Any:
    op_name = _op_name(name)

    def dispatch(*args: Any, **kwargs: Any) -> Any:
        if not _stack:
            return fn(*args, **kwargs)
        level = getattr(_local, "level", None)
        level = len(_stack) if level is None else min(level, len(_stack))
        return _run(fn, op_name, args, kwargs, level)

    dispatch.__wrapped__ = fn  # type: ignore[attr-defined]
    dispatch.__name__ = name
    return dispatch


def push(interceptor: Any) -> None:
    """Open ``interceptor`` (an object with ``__ms_dispatch__``); the first one installs the dispatchers."""
    with _lock:
        if not _stack:
            ops = _ops()
            for name in getattr(ops, "__all__", ()):
                fn = getattr(ops, name, None)
                if inspect.isfunction(fn):
                    _originals[name] = fn
                    setattr(ops, name, _intercepting(name, fn))
        _stack.append(interceptor)


def pop(interceptor: Any) -> None:
    """Close ``interceptor``; the last one puts the operators back."""
    with _lock:
        if interceptor in _stack:
            del _stack[len(_stack) - 1 - _stack[::-1].index(interceptor)]
        if not _stack:
            ops = _ops()
            for name, fn in _originals.items():
                setattr(ops, name, fn)
            _originals.clear()
