"""GRAPH_MODE / jit control flow: an AST rewrite of user functions (DESIGN §3).

When tracing a function fails because Python control flow depends on a tensor's value, :mod:`._jit`
asks :func:`functions_for_error` which user function raised, and traces again inside
:func:`converting`, which swaps in a rewritten copy of that function's code (and, on demand, of the user
functions it calls) for the duration of the trace. Python-valued conditions stay Python; tensor-valued
ones become ``lax.cond`` / ``lax.while_loop`` with Parameter writes carried through state frames.
"""

from ._cond import run_if
from ._values import ControlFlowError, PrintTraced, Unconvertible
from ._convert import (
    allow_trace_time_print,
    building,
    check_roots,
    converting,
    functions_for_error,
    is_converted,
    retrying,
    traced_text,
)
from ._transform import ConversionError

__all__ = [
    "ConversionError",
    "ControlFlowError",
    "PrintTraced",
    "allow_trace_time_print",
    "building",
    "traced_text",
    "Unconvertible",
    "check_roots",
    "converting",
    "functions_for_error",
    "is_converted",
    "retrying",
    "run_if",
]
