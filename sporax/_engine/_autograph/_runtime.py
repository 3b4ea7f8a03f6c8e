"""What converted code calls (it sees this module as ``__sporax_ag__``).

Every helper first asks whether its condition is a traced tensor. If not, it does exactly what the
original Python statement did, so converted code gives the same results as the original everywhere;
if so, it builds the traced conditional, loop, logical operation or runtime print.
"""

from __future__ import annotations

import builtins
import functools
import sys
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .. import _state
from ._cond import run_cond
from ._values import UNDEF, ControlFlowValueError, tensor_type, to_pred, traced, wrap
from ._while import Counter, mark_print, run_while

__all__ = [
    "UNDEF",
    "and_",
    "call",
    "for_stmt",
    "fstr",
    "if_exp",
    "if_stmt",
    "ld",
    "not_",
    "or_",
    "print_",
    "range_",
    "retval",
    "while_stmt",
]

_print = builtins.print
_range = builtins.range
_prepare: list[Callable[[Any], None] | None] = [None]  # set by ._convert: on-demand conversion


def _where(fn: Callable[..., Any], line: int) -> str:
    code = getattr(fn, "__code__", None)
    return f"{code.co_filename}, line {line}" if code is not None else f"line {line}"


def ld(thunk: Callable[[], Any]) -> Any:
    """The value of a name, or UNDEF if it is not bound."""
    try:
        return thunk()
    except NameError:
        return UNDEF


# ------------------------------------------------------------------------------ statements
def if_stmt(
    cond: Any,
    true_fn: Callable[[], None],
    false_fn: Callable[[], None] | None,
    get: Callable[[], tuple] | None,
    set_: Callable[[Sequence[Any]], None] | None,
    names: tuple[str, ...],
    live: tuple[str, ...],
    line: int,
    outer: tuple[str, ...] = (),
) -> None:
    if not traced(cond):
        if cond:
            true_fn()
        elif false_fn is not None:
            false_fn()
        return
    _if_traced(cond, true_fn, false_fn, get, set_, names, live, _where(true_fn, line), outer)


def _if_traced(
    cond: Any,
    true_fn: Callable[[], None],
    false_fn: Callable[[], None] | None,
    get: Callable[[], tuple] | None,
    set_: Callable[[Sequence[Any]], None] | None,
    names: tuple[str, ...],
    live: tuple[str, ...],
    where: str,
    outer: tuple[str, ...] = (),
) -> None:
    before = tuple(get()) if get is not None else ()
    # Tensors, lists and dicts updated in place (``x[i] = v``) get their contents back before each branch
    # and afterwards: the merged values are new objects.
    saved = _snapshot(before)

    def restore() -> None:
        if set_ is not None:
            set_(before)
        for obj, contents in saved:
            if isinstance(obj, list):
                obj[:] = contents
            elif isinstance(obj, dict):
                obj.clear()
                obj.update(contents)
            else:
                obj._data = contents

    def branch(fn: Callable[[], None] | None) -> Callable[[], Sequence[Any]]:
        def run() -> Sequence[Any]:
            restore()
            if fn is not None:
                fn()
            return tuple(get()) if get is not None else ()

        return run

    try:
        merged = run_cond(cond, [branch(true_fn), branch(false_fn)], names, live, where, outer)
    finally:
        restore()
    if set_ is not None:
        set_(merged)


def _snapshot(values: Sequence[Any]) -> list[tuple[Any, Any]]:
    """(object, contents) of the Tensors (not Parameters: their writes go through state frames), lists
    and dicts in ``values``."""
    t = tensor_type()
    out: list[tuple[Any, Any]] = []
    seen: set[int] = set()

    def walk(v: Any) -> None:
        if id(v) in seen:
            return
        seen.add(id(v))
        if isinstance(v, list):
            out.append((v, list(v)))
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            out.append((v, dict(v)))
            for x in v.values():
                walk(x)
        elif isinstance(v, tuple):
            for x in v:
                walk(x)
        elif t is not None and isinstance(v, t) and not hasattr(v, "_stored"):
            out.append((v, v._data))

    for v in values:
        walk(v)
    return out


def while_stmt(
    test: Callable[[], Any],
    body: Callable[[], None],
    get: Callable[[], tuple] | None,
    set_: Callable[[Sequence[Any]], None] | None,
    names: tuple[str, ...],
    live: tuple[str, ...],
    line: int,
    outer: tuple[str, ...] = (),
) -> None:
    while True:
        c = test()
        if traced(c):
            # From here on the loop is a compiled while loop, starting from the current values.
            _guarded(lambda: run_while(test, body, get, set_, names, live, _where(body, line), None, outer), get, set_)
            return
        if not c:
            return
        body()


def _guarded(run: Callable[[], None], get: Any, set_: Any) -> None:
    before = tuple(get()) if get is not None else ()
    try:
        run()
    except BaseException:
        if set_ is not None:
            set_(before)
        raise


def range_(rng: Any, *args: Any) -> Any:
    """``range(*args)``, or a tensor range when a bound is a traced tensor."""
    if rng is not _range or not any(traced(a) for a in args):
        return rng(*args)
    if not 1 <= len(args) <= 3:
        raise TypeError(f"range expected at most 3 arguments, got {len(args)}")
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
    return Counter(start, stop, step)


def for_stmt(
    iterable: Any,
    body: Callable[[Any], None],
    test: Callable[[], Any] | None,
    get: Callable[[], tuple] | None,
    set_: Callable[[Sequence[Any]], None] | None,
    names: tuple[str, ...],
    live: tuple[str, ...],
    line: int,
    outer: tuple[str, ...] = (),
) -> None:
    if type(iterable) is Counter:
        where = _where(body, line)
        _guarded(lambda: run_while(test, body, get, set_, names, live, where, iterable, outer), get, set_)
        return
    if test is None:
        for item in iterable:
            body(item)
        return
    for item in iterable:
        c = test()
        if traced(c):
            # a tensor `break`/`return` happened: the remaining iterations run under that condition
            _if_traced(c, functools.partial(body, item), None, get, set_, names, live, _where(body, line), outer)
            continue
        if not c:
            return
        body(item)


def retval(do_ret: Any, ret: Any, always: bool, name: str) -> Any:
    """The value a converted function returns (``return`` inside converted blocks sets flags)."""
    if always:
        return None if ret is UNDEF else ret
    if traced(do_ret):
        raise ControlFlowValueError(
            f"'{name}' returns a value on some paths and reaches its end (returning None) on others, decided by a "
            "tensor condition. Under GRAPH_MODE/jit every path must return a value of the same type."
        )
    if do_ret:
        return ret
    return None


# ----------------------------------------------------------------------------- expressions
def if_exp(cond: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any], line: int) -> Any:
    if not traced(cond):
        return true_fn() if cond else false_fn()
    name = "the value of 'a if cond else b'"
    (value,) = run_cond(cond, [lambda: (true_fn(),), lambda: (false_fn(),)], (name,), (name,), _where(true_fn, line))
    return value


def _logical(op: Callable[[Any, Any], Any], acc: Any, rest: Sequence[Callable[[], Any]]) -> Any:
    acc = to_pred(acc, "a boolean operation")
    for f in rest:
        acc = op(acc, to_pred(f(), "a boolean operation"))
    return wrap(acc)


def and_(a: Any, *rest: Callable[[], Any]) -> Any:
    for i, f in enumerate(rest):
        if traced(a):
            return _logical(jnp.logical_and, a, rest[i:])
        if not a:
            return a
        a = f()
    return a


def or_(a: Any, *rest: Callable[[], Any]) -> Any:
    for i, f in enumerate(rest):
        if traced(a):
            return _logical(jnp.logical_or, a, rest[i:])
        if a:
            return a
        a = f()
    return a


def not_(x: Any) -> Any:
    if traced(x):
        return wrap(jnp.logical_not(to_pred(x, "'not'")))
    return not x


# ----------------------------------------------------------------------------------- calls
def call(f: Any, *args: Any, **kwargs: Any) -> Any:
    """``f(*args, **kwargs)``; user functions are converted first, ``print`` of tensors runs at run time."""
    if f is _print:
        return print_(*args, **kwargs)
    prepare = _prepare[0]
    if prepare is not None:
        prepare(f)
    return f(*args, **kwargs)


class _LazyStr:
    """An f-string with traced values, formatted when the program runs."""

    __slots__ = ("parts",)

    def __init__(self, parts: tuple) -> None:
        self.parts = parts

    def __str__(self) -> str:
        return "".join(p if type(p) is str else _format_value(*p) for p in self.parts)


def fstr(parts: tuple) -> Any:
    """An f-string argument of ``print``: formatted now, or at run time if it holds traced values."""
    if any(type(p) is tuple and _has_traced(p[0]) for p in parts):
        return _LazyStr(parts)
    return "".join(p if type(p) is str else _format_value(*p) for p in parts)


_CONVERSIONS: dict[int, Callable[[Any], str]] = {115: str, 114: repr, 97: ascii}


def _format_value(value: Any, conversion: int, spec: Any) -> str:
    conv = _CONVERSIONS.get(conversion)
    if conv is not None:
        value = conv(value)
    return format(value, spec or "")


def _has_traced(x: Any) -> bool:
    if traced(x):
        return True
    if isinstance(x, (list, tuple, dict)):
        return any(traced(leaf) for leaf in jax.tree_util.tree_leaves(x))
    return False


def print_(*args: Any, sep: str | None = " ", end: str | None = "\n", file: Any = None, flush: bool = False) -> None:
    """``print``; while a function is being compiled it prints each time the compiled program runs (in a
    traced branch: when that branch runs), with tensors formatted as PyNative prints them."""
    if not _state.active():
        _print(*(str(a) if isinstance(a, _LazyStr) else a for a in args), sep=sep, end=end, file=file, flush=flush)
        return
    arrays: list[Any] = []
    items: list[Any] = []

    def hold(x: Any) -> Any:
        # Parameters print their name, not their value: they stay Python objects.
        leaves, tree = jax.tree_util.tree_flatten(x, is_leaf=lambda v: hasattr(v, "_stored"))
        idx: list[Any] = []  # per leaf: its index in arrays, or ("py", value)
        for leaf in leaves:
            if isinstance(leaf, (jax.core.Tracer, jax.Array)):
                idx.append(len(arrays))
                arrays.append(leaf)
            else:
                idx.append(("py", leaf))
        return (tree, idx)

    for a in args:
        if isinstance(a, _LazyStr):
            items.append(("lazy", [p if type(p) is str else (hold(p[0]), p[1], p[2]) for p in a.parts]))
        else:
            items.append(("value", hold(a)))

    def rebuild(held: Any, vals: Sequence[Any]) -> Any:
        tree, idx = held
        leaves = [i[1] if type(i) is tuple else np.asarray(vals[i]) for i in idx]
        return jax.tree_util.tree_unflatten(tree, leaves)

    @mark_print  # so that a recomputation in a loop's backward pass can leave it out
    def emit(*vals: Any) -> None:
        out = []
        for kind, x in items:
            if kind == "value":
                out.append(str(rebuild(x, vals)))
            else:
                out.append("".join(p if type(p) is str else _format_value(rebuild(p[0], vals), p[1], p[2]) for p in x))
        _print(*out, sep=sep, end=end, file=file if file is not None else sys.stdout, flush=flush)

    jax.debug.callback(emit, *arrays, ordered=True)
