"""The one compile rule: how a Cell's call, ``Model``'s step, a sink's step or a ``@jit`` function becomes a
:class:`~sporax._engine.StatefulJit`, and what happens when it cannot be compiled.

* **When.** A Cell call compiles itself outside any trace, in GRAPH_MODE, or in PyNative for cells that
  compile themselves (the train-step cells: ``_auto_jit``); inside another trace it is simply inlined.
  ``Model``'s steps and sinks always compile (PyNative too), as do ``@jit`` and ``data_sink`` functions.
* **Name.** ``Net.construct`` for a Cell, the function's qualified name otherwise: it names the function
  in the fallback message and in profiles.
* **Fallback.** Code that cannot be traced runs eagerly. Where compiling was asked for (GRAPH_MODE,
  ``@jit``, ``data_sink``, a sink of ``Model``) that is a ``RuntimeWarning`` naming the line; where
  sporax compiles on its own in PyNative (a train-step cell, ``Model``'s step) it is a log line: the code
  runs as PyNative runs it.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from typing import Any

from .. import context
from .._engine import StatefulJit, state, warn_user

__all__ = ["call_name", "cell_compiles", "compile_call", "compiled_programs", "host_driven"]

_log = logging.getLogger("sporax")


def call_name(fn: Any) -> str:
    """``Net.construct`` for a Cell (an object whose class has ``construct``), else the qualified name."""
    if callable(getattr(type(fn), "construct", None)):
        return f"{type(fn).__name__}.construct"
    return getattr(fn, "__qualname__", None) or type(fn).__name__


def cell_compiles(auto_jit: bool) -> bool:
    """Whether a Cell call compiles itself now (``auto_jit``: the cell compiles itself in PyNative)."""
    return not state.active() and (auto_jit or context.is_graph_mode())


def host_driven(network: Any) -> bool:
    """Whether ``network`` decides on the host, call by call, which of its compiled programs runs (a boost
    train cell freezing layer groups, say): such a network is called as it is, never traced into one program
    around it (its parts compile themselves by the rule above)."""
    return bool(getattr(network, "host_driven", False))


def compile_call(
    fn: Callable[..., Any], name: str | None = None, *, asked: bool = False, fallback: str = "eager"
) -> StatefulJit:
    """``fn`` compiled per input signature, with the fallback notice of the rule above (``asked``: the user
    asked for compilation; GRAPH_MODE counts as asking). ``fallback="raise"`` raises instead of running
    eagerly (``sporax._engine.is_trace_error`` tells a trace failure from other errors)."""
    notice = warn_user if asked or context.is_graph_mode() else _log.info
    sjit = StatefulJit(fn, name=name or call_name(fn), warn=notice, fallback=fallback)
    _programs.append((weakref.ref(sjit), _owner_ref(fn)))
    del _programs[:-_KEEP]
    return sjit


# The compiled functions made here, newest last, with the Cell (or object) each belongs to: what
# `flops_collection` and `FlopsUtilizationCollector` read the cost of. Weak: a dropped network's program goes.
_KEEP = 64
_programs: list[tuple[weakref.ref, Callable[[], Any]]] = []


def _ref(obj: Any) -> Callable[[], Any]:
    if obj is None:
        return lambda: None
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: None


def _owner_ref(fn: Any) -> Callable[[], Any]:
    owner = getattr(fn, "__self__", None)
    if owner is not None and not callable(getattr(type(owner), "construct", None)):
        # Model's step and a sink run a network: `network` / `fn`
        owner = getattr(owner, "network", None) or getattr(owner, "fn", None) or owner
    return _ref(owner)


def compiled_programs() -> list[tuple[StatefulJit, Any]]:
    """``(program, owner)`` of the live compiled functions, newest first (owner: the Cell it runs, or None)."""
    out = []
    for ref, owner in reversed(_programs):
        sjit = ref()
        if sjit is not None:
            out.append((sjit, owner()))
    return out
