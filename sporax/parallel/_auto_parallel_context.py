"""``mindspore.parallel._auto_parallel_context``: the auto-parallel context object programs reach for
(``auto_parallel_context().get_parallel_mode()``, ``get_device_num_is_set()``...), over
:func:`sporax.context.set_auto_parallel_context`'s one store."""

from __future__ import annotations

from typing import Any

from .. import context as _context
from .._checkparam import check_auto_parallel_key

__all__ = [
    "auto_parallel_context",
    "_get_auto_parallel_context",
    "_set_auto_parallel_context",
    "_reset_auto_parallel_context",
]


class _AutoParallelContext:
    """``get_<key>()`` / ``set_<key>(value)`` for every auto-parallel key, ``get_<key>_is_set()`` for the
    ones a program set explicitly, and ``reset()``."""

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("get_") and attr.endswith("_is_set"):
            key = attr[4:-7]
            check_auto_parallel_key(key, _context.auto_parallel_keys())
            return lambda: _context.is_auto_parallel_set(key)
        if attr.startswith("get_"):
            key = attr[4:]
            check_auto_parallel_key(key, _context.auto_parallel_keys())
            return lambda: _context.get_auto_parallel_context(key)
        if attr.startswith("set_"):
            key = attr[4:]
            check_auto_parallel_key(key, _context.auto_parallel_keys())
            return lambda value: _context.set_auto_parallel_context(**{key: value})
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")

    def reset(self) -> None:
        _context.reset_auto_parallel_context()


_instance = _AutoParallelContext()


def auto_parallel_context() -> _AutoParallelContext:
    """The auto-parallel context object (one per process)."""
    return _instance


def _get_auto_parallel_context(attr_key: str) -> Any:
    return _context.get_auto_parallel_context(attr_key)


def _set_auto_parallel_context(**kwargs: Any) -> None:
    _context.set_auto_parallel_context(**kwargs)


def _reset_auto_parallel_context() -> None:
    _context.reset_auto_parallel_context()
