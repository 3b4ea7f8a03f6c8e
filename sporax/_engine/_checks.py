"""Value checks inside compiled programs: an index out of range is an error flag carried out of the program.

Eagerly, an op checks its index values on the host and raises at the call. Inside a compiled program
(``jit``, GRAPH_MODE, a train step sporax compiles, sink mode) the values are unknown while tracing and XLA
would clamp a gather or drop a scatter without a word. There the op records a check instead
(:func:`check_in_range`): the predicate and the first offending value become an extra output of the program
(JAX's ``checkify``, which threads it through ``scan``, gradients and custom VJPs). After the step
:class:`StatefulJit <._jit.StatefulJit>` reads the flag and raises :class:`IndexOutOfRangeError` naming the op,
the index and the bound.

A check is recorded only while a :class:`StatefulJit` traces its program (:func:`tracing_checked` around it),
so plain ``jax.jit`` kernels never contain one.

The switch: environment variable ``SPORAX_INDEX_CHECKS=0`` (or ``false``/``off``) compiles programs without
the checks (read when a program is built). See docs/reliability.md for the cost (under 2 % of a LeNet step).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import jax.numpy as jnp
from jax.experimental import checkify

ENV_SWITCH = "SPORAX_INDEX_CHECKS"

_local = threading.local()  # .on: a checked StatefulJit program is being traced on this thread
_MARK = "\x00bad\x00"
_FAILED_SUFFIX = " (`check` failed)"


class IndexOutOfRangeError(RuntimeError, IndexError, ValueError):
    """An index outside its dimension. MindSpore raises RuntimeError (Gather, ScatterAdd...), ValueError
    (TensorScatterUpdate) or IndexError (``x[5]``) for it; this one is all three, so code catching any works."""


def enabled() -> bool:
    """Whether compiled programs carry value checks (``SPORAX_INDEX_CHECKS`` is not 0/false/off)."""
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "false", "off", "no")


def active() -> bool:
    """Whether a check recorded now ends up in a program that reports it."""
    return getattr(_local, "on", False)


@contextmanager
def tracing_checked(on: bool = True) -> Iterator[None]:
    """Around the trace of a program that :func:`functionalize` wraps: checks are recorded into it."""
    prev = getattr(_local, "on", False)
    _local.on = on
    try:
        yield
    finally:
        _local.on = prev


def _template(message: Callable[[Any], str]) -> str:
    """``message(bad)`` as a checkify format string with ``{b}`` where the bad value goes."""
    text = message(_MARK).replace("{", "{{").replace("}", "}}")
    return text.replace(_MARK, "{b}")


def check_in_range(idx: Any, lo: Any, hi: Any, message: Callable[[Any], str], allowed: Any = None) -> None:
    """Record, inside a checked trace, that every value of the traced integer array ``idx`` is in
    ``[lo, hi)`` (values equal to ``allowed`` excepted); ``message(bad)`` is the error's text. A no-op
    outside a checked trace (eagerly, the op checks concrete values itself)."""
    if not active():
        return
    v = jnp.asarray(idx)
    if v.size == 0:
        return
    flat = v.reshape(-1)
    bad = (flat < lo) | (flat >= hi)
    if allowed is not None:
        bad = bad & (flat != allowed)
    first = flat[jnp.argmax(bad)].astype(jnp.int64)
    checkify.check(~jnp.any(bad), _template(message), b=first)


def check_nd_in_range(idx: Any, shape: tuple[int, ...], message: Callable[[Any], str]) -> None:
    """Like :func:`check_in_range` for N-d coordinates ``idx[..., :k]`` into ``shape[:k]``; ``message`` gets
    the flat position of the first offending row."""
    if not active():
        return
    v = jnp.asarray(idx)
    if v.size == 0:
        return
    rows = v.reshape(-1, v.shape[-1])
    bound = jnp.asarray(shape[: rows.shape[1]], rows.dtype)
    bad = jnp.any((rows < 0) | (rows >= bound), axis=1)
    checkify.check(~jnp.any(bad), _template(message), b=jnp.argmax(bad).astype(jnp.int64))


def functionalize(program: Callable[..., Any]) -> Callable[..., Any]:
    """``program`` returning ``(error, outputs)``: the checks recorded while it is traced become outputs."""
    checked = checkify.checkify(program, errors=checkify.user_checks)

    def run(*args: Any) -> Any:
        with tracing_checked(True):
            return checked(*args)

    return run


def raise_if_failed(error: Any, where: str) -> None:
    """Raise :class:`IndexOutOfRangeError` for a failed check of a program's ``error`` output (this waits
    for the program when it has checks; a program without any returns at once)."""
    if not getattr(error, "_pred", None):
        return
    text = error.get()
    if text is None:
        return
    if text.endswith(_FAILED_SUFFIX):
        text = text[: -len(_FAILED_SUFFIX)]
    raise IndexOutOfRangeError(
        f"{text} (found after running the compiled '{where}'; set {ENV_SWITCH}=0 to compile without index checks)"
    )


__all__ = [
    "ENV_SWITCH",
    "IndexOutOfRangeError",
    "active",
    "check_in_range",
    "check_nd_in_range",
    "enabled",
    "functionalize",
    "raise_if_failed",
    "tracing_checked",
]
