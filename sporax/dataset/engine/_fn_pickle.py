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

__all__ = ["dumps", "loads"]

_LOCKS = (type(threading.Lock()), type(threading.RLock()))


def _by_value(fn: types.FunctionType) -> bool:
    if fn.__closure__ or "<lambda>" in fn.__qualname__ or "<locals>" in fn.__qualname__:
        return True
    mod = importlib.import_module(fn.__module__) if fn.__module__ else None
    obj = mod
    for part in fn.__qualname__.split("."):
        obj = getattr(obj, part, None)
    return obj is not fn


def _rebuild(code: bytes, module: str, name: str, qualname: str, defaults, kwdefaults, cells, fdict):
    try:
        glb = importlib.import_module(module).__dict__ if module else {"__builtins__": __builtins__}
    except ImportError:
        glb = {"__builtins__": __builtins__, "__name__": module}
    closure = None
    if cells is not None:
        closure = tuple(types.CellType() if c is _EMPTY else types.CellType(c) for c in cells)
    fn = types.FunctionType(marshal.loads(code), glb, name, defaults, closure)
    fn.__qualname__ = qualname
    fn.__kwdefaults__ = kwdefaults
    fn.__dict__.update(fdict)
    return fn


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
            return _rebuild, (
                marshal.dumps(obj.__code__),
                obj.__module__,
                obj.__name__,
                obj.__qualname__,
                obj.__defaults__,
                obj.__kwdefaults__,
                cells,
                dict(obj.__dict__),
            )
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
