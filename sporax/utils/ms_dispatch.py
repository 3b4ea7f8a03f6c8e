"""``MsDispatchMode``: intercept the operators called inside a context (MindSpore's dispatch guard)."""

from __future__ import annotations

import contextlib
import inspect
import threading
from typing import Any, Literal

__all__ = ["MsDispatchMode"]

_stack: list[Any] = []  # the open modes, innermost last (process-wide, as MindSpore's guard stack)
_lock = threading.Lock()
_local = threading.local()  # .level: how many of the modes the operators called now go through
_originals: dict[str, Any] = {}


class OpFunc:
    """The intercepted operator: ``name`` (``"Add"``, ``"Matmul"``...) and ``func(*args)`` running it (with the
    keyword arguments of the call unless others are given); that call goes to the next outer mode, if any."""

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
    """Run operator ``fn`` through the modes ``_stack[:level]`` (the innermost of them handles it, and what its
    handler runs goes to the ones outside it); the operator's own inner operators are not intercepted."""
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


def _install() -> None:
    from .. import ops

    for name in getattr(ops, "__all__", ()):
        fn = getattr(ops, name, None)
        if inspect.isfunction(fn):
            _originals[name] = fn
            setattr(ops, name, _intercepting(name, fn))


def _uninstall() -> None:
    from .. import ops

    for name, fn in _originals.items():
        setattr(ops, name, fn)
    _originals.clear()


class MsDispatchMode(contextlib.ContextDecorator):
    """
    Intercept operators: inside the context, each operator called through ``sporax.ops`` (directly, or by a
    Tensor's operators and methods: ``x + y`` is ``ops.add``) first goes to ``self.__ms_dispatch__(func, args,
    kwargs)``, which may log, change the arguments or the result, and calls ``func(*args)`` to run it.
    Modes nest: the innermost handles a call, and the operators its handler runs (``func(*args)`` included) go to
    the modes outside it; an operator's own inner operators are not intercepted. Modes also work as decorators.

    ``func.name`` is the operator's name in CamelCase (``ops.add`` -> ``"Add"``; MindSpore reports its kernel
    names, such as ``"AddExt"``). Inside a compiled function the interception happens while it is traced.
    """

    def __enter__(self) -> MsDispatchMode:
        with _lock:
            if not _stack:
                _install()
            _stack.append(self)
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> Literal[False]:
        with _lock:
            if self in _stack:
                del _stack[len(_stack) - 1 - _stack[::-1].index(self)]
            if not _stack:
                _uninstall()
        return False

    def __ms_dispatch__(self, func: Any, args: tuple, kwargs: dict | None = None) -> Any:
        """Called for each operator inside the context; runs it unchanged by default."""
        return func(*args)
