"""Pickling of a stage's function for ``spawn``-started worker processes.

A spawned worker is a fresh interpreter: the function it runs (a ``map``'s chain of operations, a
``GeneratorDataset``'s reader, a ``per_batch_map``) reaches it pickled. Standard pickling refuses the pipeline's
own closures and the user's lambdas and nested functions, so this pickler sends those by value: their code
(``marshal``), their module's name (the worker imports it for the globals), defaults and closure cells, pickled
the same way. Locks and events are sent as new ones. Everything else must pickle as usual (MindSpore's rule for
``spawn``: the user's data and functions must be picklable).
"""

from __future__ import annotations

import importlib
import io
import marshal
import pickle
import threading
import types
from typing import Any

__all__ = ["dumps", "loads"]

_LOCKS = (type(threading.Lock()), type(threading.RLock()))


def _by_value(fn: types.FunctionType) -> bool:
    if fn.__closure__ or "<lambda>" in fn.__qualname__ or "<locals>" in fn.__qualname__:
        return True
    try:
        obj: Any = importlib.import_module(fn.__module__)
    except Exception:  # noqa: BLE001  (not importable: by value)
        return True
    for part in fn.__qualname__.split("."):
        obj = getattr(obj, part, None)
    return obj is not fn


def _make(code: bytes, module: str, name: str, n_cells: int | None):
    """A function of ``code`` with empty cells (filled by :func:`_fill` once the values exist: a closure may refer
    to the function itself)."""
    try:
        glb = importlib.import_module(module).__dict__ if module else {"__builtins__": __builtins__}
    except ImportError:
        glb = {"__builtins__": __builtins__, "__name__": module}
    closure = None if n_cells is None else tuple(types.CellType() for _ in range(n_cells))
    return types.FunctionType(marshal.loads(code), glb, name, None, closure)


def _fill(fn, state) -> None:
    qualname, defaults, kwdefaults, cells, fdict = state
    fn.__qualname__ = qualname
    fn.__defaults__ = defaults
    fn.__kwdefaults__ = kwdefaults
    fn.__dict__.update(fdict)
    for cell, value in zip(fn.__closure__ or (), cells or ()):
        if value is not _EMPTY:
            cell.cell_contents = value


class _Empty:
    def __reduce__(self):
        return "_EMPTY"


_EMPTY = _Empty()


def _cell_value(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return _EMPTY


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj):
        if isinstance(obj, types.FunctionType) and _by_value(obj):
            cells = None if obj.__closure__ is None else [_cell_value(c) for c in obj.__closure__]
            args = (marshal.dumps(obj.__code__), obj.__module__, obj.__name__, None if cells is None else len(cells))
            state = (obj.__qualname__, obj.__defaults__, obj.__kwdefaults__, cells, dict(obj.__dict__))
            return _make, args, state, None, None, _fill
        if isinstance(obj, _LOCKS[0]):
            return threading.Lock, ()
        if isinstance(obj, _LOCKS[1]):
            return threading.RLock, ()
        if isinstance(obj, threading.Event):
            return threading.Event, ()
        return NotImplemented


def dumps(obj) -> bytes:
    """``obj`` pickled, its local functions, lambdas and closures by value."""
    buf = io.BytesIO()
    _Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buf.getvalue()


def loads(data: bytes):
    """The object of :func:`dumps`."""
    return pickle.loads(data)
