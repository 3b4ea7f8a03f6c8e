"""Value checks inside compiled programs: an index out of range is an error flag carried out of the program.

Eagerly, an op checks its index values on the host and raises at the call. Inside a compiled program
(``jit``, GRAPH_MODE, a train step sporax compiles, sink mode) the values are unknown while tracing and XLA
would clamp a gather or drop a scatter without a word. There the op records a check instead
(:func:`check_in_range`): the predicate and the first offending value become an extra output of the program
(JAX's ``checkify``, which threads it through ``scan``, gradients and custom VJPs), with one boolean flag
that says whether any check failed.

The flag is not read right after the call (that would wait for the step and keep the next step's dispatch
from overlapping it): :class:`StatefulJit <._jit.StatefulJit>` hands it to :func:`dispatched`, and it is
read when it is ready anyway, at the same program's next call (after that call is dispatched), whenever a
tensor is read on the host (``_concrete.to_python``: ``asnumpy``, ``float``, ``item``, printing), at the end
of ``Model.train``/``eval`` and of a sink run, and at exit (a failed check still pending then fails the
process: exit status 1). A failed check raises :class:`IndexOutOfRangeError` naming the op, the index, the
bound, the program and its call number.

A check is recorded only while a :class:`StatefulJit` traces its program (:func:`tracing_checked` around it),
so plain ``jax.jit`` kernels never contain one.

The switch: environment variable ``SPORAX_INDEX_CHECKS=0`` (or ``false``/``off``) compiles programs without
the checks (read when a program is built). See docs/reliability.md for the cost.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
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


def functionalize(program: Callable[..., Any]) -> tuple[Callable[..., Any], list[Any]]:
    """``program`` returning ``(error, outputs)``, and a one-item list that holds the error's tree once the
    program is traced. ``error`` is ``(flag, leaves)``: ``flag`` a boolean scalar, true when a check recorded
    while ``program`` was traced failed, ``leaves`` what :func:`message` needs to say which; ``None`` when the
    trace recorded no check (the program then has no extra output)."""
    checked = checkify.checkify(program, errors=checkify.user_checks)
    tree: list[Any] = [None]

    def run(*args: Any) -> Any:
        with tracing_checked(True):
            error, out = checked(*args)
        preds = list(error._pred.values())
        if not preds:
            return None, out
        leaves, tree[0] = jax.tree_util.tree_flatten(error)
        flag = preds[0] if len(preds) == 1 else jnp.any(jnp.stack([jnp.any(p) for p in preds]))
        return (flag, leaves), out

    return run, tree


# ---- reading the flags: never right after the call (that would wait for the step) --------------------------
# A program's flag is read when it is ready anyway, at the program's next call (after that call is dispatched,
# so the device goes on with it), when any tensor is read on the host (:func:`surface_pending` from
# ``_concrete.to_python``), at the end of Model.train/eval and of sink runs, and at exit (:func:`_at_exit`).
class _Pending:
    __slots__ = ("owner", "flag", "leaves", "tree", "where", "call")

    def __init__(self, owner: Any, flag: Any, leaves: list[Any], tree: Any, where: str, call: int) -> None:
        self.owner = owner
        self.flag = flag
        self.leaves = leaves
        self.tree = tree
        self.where = where
        self.call = call


PENDING: list[_Pending] = []  # dispatched checked calls whose flag was not read yet, oldest first
_MAX_PENDING = 32  # more (many programs, no host read): the oldest is waited for


def message(rec: _Pending) -> str:
    """The error of a failed check: the op's text (op, index, bound) and the program and call it came from."""
    text = jax.tree_util.tree_unflatten(rec.tree, rec.leaves).get() or "an index check failed"
    if text.endswith(_FAILED_SUFFIX):
        text = text[: -len(_FAILED_SUFFIX)]
    return (
        f"{text} (found after running the compiled '{rec.where}', call {rec.call}; "
        f"set {ENV_SWITCH}=0 to compile without index checks)"
    )


def _ready(flag: Any) -> bool:
    """Whether the call that computes ``flag`` is done (tests replace it to act out a step still running)."""
    return flag.is_ready()


def _failed(rec: _Pending) -> bool:
    return bool(np.asarray(rec.flag).any())


def _raise_for(first: _Pending) -> None:
    """Raise for ``first`` (failed), after waiting for every pending call: none stays pending after an error."""
    others = [r for r in PENDING if r is not first]
    PENDING.clear()
    later = sum(1 for r in others if _failed(r))
    more = f" ({later} more pending checked call(s) failed too.)" if later else ""
    raise IndexOutOfRangeError(message(first) + more)


def dispatched(owner: Any, error: tuple[Any, list[Any]], tree: Any, where: str, call: int) -> None:
    """After call ``call`` of the checked program ``owner`` was dispatched: its flag is kept pending (read now
    only if it is ready), and the flags of earlier calls that are done (the same program's previous call
    always: this call runs after it) are read; a failed one raises :class:`IndexOutOfRangeError`."""
    flag, leaves = error
    rec = _Pending(owner, flag, leaves, tree, where, call)
    pending = PENDING
    pending.append(rec)
    if len(pending) > 1:
        keep = []
        for r in pending[:-1]:
            if r.owner is owner or _ready(r.flag):
                if _failed(r):
                    _raise_for(r)
            else:
                keep.append(r)
        while len(keep) >= _MAX_PENDING:  # many programs and no host read: wait for the oldest
            r = keep.pop(0)
            if _failed(r):
                _raise_for(r)
        keep.append(rec)
        pending[:] = keep
    if _ready(flag):
        if _failed(rec):
            _raise_for(rec)
        pending.remove(rec)


def surface_pending() -> None:
    """Wait for every dispatched checked call and raise :class:`IndexOutOfRangeError` for the first that
    failed (at a host read, at the end of a train/eval/sink loop, at exit)."""
    while PENDING:
        rec = PENDING[0]
        if _failed(rec):
            _raise_for(rec)
        PENDING.remove(rec)


def _at_exit() -> None:
    """A failed check still pending when the process ends fails the process: the error is printed as an
    uncaught exception would be, and the exit status is 1."""
    if not PENDING:
        return
    try:
        surface_pending()
    except IndexOutOfRangeError as err:
        sys.stdout.flush()
        text = "".join(traceback.format_exception_only(type(err), err))
        sys.stderr.write(
            "Traceback (most recent call last):\n  (a compiled program's index check, read at exit: no tensor of "
            "the failed call was read before)\n" + text
        )
        sys.stderr.flush()
        os._exit(1)


atexit.register(_at_exit)


__all__ = [
    "ENV_SWITCH",
    "IndexOutOfRangeError",
    "PENDING",
    "active",
    "check_in_range",
    "check_nd_in_range",
    "dispatched",
    "enabled",
    "functionalize",
    "message",
    "surface_pending",
    "tracing_checked",
]
