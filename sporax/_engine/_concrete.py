"""Python values of tensors while a function is being traced: record and replay.

JAX cannot differentiate Python control flow on a tensor's value (``if loss > 0:``, ``float(x)``): every
tracer is abstract. PyNative users write such code, so the eager gradient fallback runs the function
twice:

1. forward, concretely, under :func:`recording`: every conversion of a tensor to a Python value
   (``bool``, ``float``, ``int``, ``item``, ``asnumpy``) is remembered in order;
2. under ``jax.vjp`` with :func:`replaying`: the same conversions, now of tracers, return the remembered
   values, so the trace takes the same branches as the concrete run.

The gradient is exact for the inputs given (the function is piecewise the traced program), which is
what PyNative promises.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

import jax
import numpy as np

from . import _checks


class _Local(threading.local):
    def __init__(self) -> None:
        self.record: list[Any] | None = None
        self.replay: Iterator[Any] | None = None


_local = _Local()


@contextlib.contextmanager
def recording() -> Iterator[list[Any]]:
    prev = _local.record
    values: list[Any] = []
    _local.record = values
    try:
        yield values
    finally:
        _local.record = prev


@contextlib.contextmanager
def replaying(values: list[Any]) -> Iterator[None]:
    prev = _local.replay
    _local.replay = iter(values)
    try:
        yield
    finally:
        _local.replay = prev


def is_recording() -> bool:
    return _local.record is not None


def to_python(data: Any, convert: Callable[[Any], Any]) -> Any:
    """``convert(np.asarray(data))``, recorded or replayed as described above. A host read first reads the
    index-check records of the compiled programs called since (``_checks``): a failure raises here."""
    if isinstance(data, jax.core.Tracer):
        if _local.replay is not None:
            try:
                return next(_local.replay)
            except StopIteration:
                raise RuntimeError(
                    "sporax: the function converted tensors to Python values differently on its second run; "
                    "its Python control flow must depend only on its inputs."
                ) from None
        raise jax.errors.ConcretizationTypeError(data, "converting a traced tensor to a Python value")
    if _checks.UNREAD:
        _checks.surface_pending()
    value = convert(np.asarray(data))
    if _local.record is not None:
        _local.record.append(value)
    return value
