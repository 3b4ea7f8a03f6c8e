"""Value checks inside compiled programs: an index out of range is an error flag carried out of the program.

Eagerly, an op checks its index values on the host and raises at the call. Inside a compiled program
(``jit``, GRAPH_MODE, a train step sporax compiles, sink mode) the values are unknown while tracing and XLA
would clamp a gather or drop a scatter without a word. There the op records a check instead
(:func:`check_in_range`): the predicate and the first offending value become an extra output of the program
(JAX's ``checkify``, which threads it through ``scan``, gradients and custom VJPs), with one boolean flag
that says whether any check failed.

The flag is never read at the call (that would wait for the step and keep the host from dispatching the
next one while the device runs this one): :class:`StatefulJit <._jit.StatefulJit>` hands it to
:func:`dispatched`. Pending flags are read whenever a tensor is read on the host (``_concrete.to_python``:
``asnumpy``, ``float``, ``item``, printing), at the end of ``Model.train``/``eval``, at exit (a failed check
still pending then fails the process: exit status 1), and, in a loop that reads nothing, 128 at a time once
256 calls are pending (so within 256 calls). A failed check raises :class:`IndexOutOfRangeError` naming the op, the
index, the bound, the program and its call number.

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

    def bad(x: Any) -> Any:
        out = (x < lo) | (x >= hi)
        return out if allowed is None else out & (x != allowed)

    # One pass over the indices (an argmax; the comparison fuses into it) finds the first bad one, or the first
    # index when none is bad: the check is that one index, a scalar. ``any(bad)`` besides would be a second
    # reduction over the indices, which XLA:CPU runs as two more kernels (a tree reduction) at batch 256.
    first = flat[jnp.argmax(bad(flat))]
    checkify.check(~bad(first), _template(message), b=first.astype(jnp.int64))


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

    def bad(r: Any) -> Any:
        return jnp.any((r < 0) | (r >= bound), axis=-1)

    i = jnp.argmax(bad(rows))  # the first bad row, or row 0: one pass (see check_in_range)
    checkify.check(~bad(rows[i]), _template(message), b=i.astype(jnp.int64))


ACC_SIZE = 16  # a program's error record: [failed, call of the first failure, calls, its trace, checkify's state...]


def new_record() -> Any:
    """A program's empty error record (see :func:`functionalize`)."""
    return jnp.zeros(ACC_SIZE, jnp.int64)


def functionalize(program: Callable[..., Any], tag: int, arity: int) -> tuple[Callable[..., Any], list[Any]]:
    """``program`` (of ``arity`` arguments) taking its error record as an extra last argument (an empty one when
    left out, as a cost analysis lowering it does) and returning ``(record, outputs)``, and a one-item list that
    holds what :func:`message` needs to read the record once the program is traced.

    The record is one int64 vector of ``ACC_SIZE``: whether a check failed, the call (counted by the record
    itself) of the first failure, the calls so far, ``tag`` of the trace that failed (one record serves every
    input signature of a function), and checkify's error state of that first failure (which check, its
    values). A failure sticks until the host reads it, so reading the last call's record tells about every
    call before it: the host reads one small vector per function now and then, not a flag a call.
    """
    checked = checkify.checkify(program, errors=checkify.user_checks)
    layout: list[Any] = [None]

    def run(*args: Any) -> Any:
        record = args[arity] if len(args) > arity else new_record()
        with tracing_checked(True):
            error, out = checked(*args[:arity])
        calls = record[2] + 1
        counted = record.at[2].set(calls)
        preds = list(error._pred.values())
        if not preds:
            return counted, out
        leaves, tree = jax.tree_util.tree_flatten(error)
        for x in leaves:
            if not (jnp.issubdtype(x.dtype, jnp.integer) or x.dtype == jnp.bool_):
                raise TypeError(f"sporax: an index check's values must be integers, not {x.dtype}.")
        state = [x.reshape(-1).astype(jnp.int64) for x in leaves]
        size = sum(int(x.size) for x in state)
        if size > ACC_SIZE - 4:
            raise ValueError(f"sporax: a program's index checks need {size} values; the record holds {ACC_SIZE - 4}.")
        layout[0] = (tree, [(x.shape, x.dtype) for x in leaves])
        failed = jnp.any(jnp.stack([jnp.any(p) for p in preds]))
        one, at, traced = jnp.ones(1, jnp.int64), calls.reshape(1), jnp.full(1, tag, jnp.int64)
        first = jnp.concatenate([one, at, at, traced, *state, jnp.zeros(ACC_SIZE - 4 - size, jnp.int64)])
        return jnp.where((record[0] == 0) & failed, first, counted), out

    return run, layout


# ---- reading the records: never waiting for a step at its call ---------------------------------------------
# Reading a record waits for its call. Right after the call that stops the host from dispatching the next step
# while the device runs this one; on XLA:CPU every wait is also a thread hand-off, and one a step cost an MLP b1
# step (~40 us) a third of its time, even reading the previous step's flag after dispatching the next; reading
# one fresh array also costs ~1.5 us of host time. A record keeps the first failure, so it is read only when a
# tensor is read on the host, at the end of Model.train/eval, at exit, and in a loop that reads nothing after
# ``MAX_UNREAD`` calls of a program (one wait per that many steps).
UNREAD: list[Any] = []  # the functions (StatefulJit: .record, .unread, .layouts, .name) called since last read
MAX_UNREAD = 256


def message(record: Any, layout: Any, where: str) -> str:
    """The error of a failed record: the op's text (op, index, bound) and the program and call it came from."""
    tree, specs = layout
    leaves, at = [], 4
    for shape, dtype in specs:
        n = int(np.prod(shape, dtype=np.int64))
        leaves.append(record[at : at + n].astype(dtype).reshape(shape))
        at += n
    text = jax.tree_util.tree_unflatten(tree, leaves).get() or "an index check failed"
    if text.endswith(_FAILED_SUFFIX):
        text = text[: -len(_FAILED_SUFFIX)]
    return (
        f"{text} (found after running the compiled '{where}', call {int(record[1])}; "
        f"set {ENV_SWITCH}=0 to compile without index checks)"
    )


def _take(owner: Any) -> str | None:
    """Read ``owner``'s record (waiting for its last call); the error text of a failure, which is cleared."""
    owner.unread = 0
    if all(box[0] is None for box in owner.layouts):  # no trace of it has a check
        return None
    record = np.asarray(owner.record)
    if not record[0]:
        return None
    record = record.copy()
    record[0] = 0
    owner.record = jnp.asarray(record)
    return message(record, owner.layouts[int(record[3])][0], owner.name)


def read(owner: Any) -> None:
    """Read one function's record now (a loop that read nothing for ``MAX_UNREAD`` calls)."""
    UNREAD[:] = [u for u in UNREAD if u is not owner]
    text = _take(owner)
    if text:
        raise IndexOutOfRangeError(text)


def surface_pending() -> None:
    """Read the record of every function called since it was last read (waiting for their last calls) and
    raise :class:`IndexOutOfRangeError` for a failure (at a host read, at the end of a train/eval loop, at
    exit)."""
    failures = []
    while UNREAD:
        text = _take(UNREAD.pop(0))
        if text:
            failures.append(text)
    if failures:
        more = f" ({len(failures) - 1} other program(s) failed their checks too.)" if len(failures) > 1 else ""
        raise IndexOutOfRangeError(failures[0] + more)


def _at_exit() -> None:
    """A failed check still pending when the process ends fails the process: the error is printed as an
    uncaught exception would be, and the exit status is 1."""
    if not UNREAD:
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
    "ACC_SIZE",
    "MAX_UNREAD",
    "UNREAD",
    "active",
    "check_in_range",
    "check_nd_in_range",
    "enabled",
    "functionalize",
    "message",
    "new_record",
    "read",
    "surface_pending",
    "tracing_checked",
]
