"""``mindspore.utils.dryrun``: simulate a run (``set_simulation``) and stand-in values for host decisions
(``mock``).

On XLA a simulated run still executes (there is no device-less executor); what the simulation changes is
that every fetch of a tensor's value to the host logs, once per call site, where it happened, as MindSpore
does (its values are not meant to be used), and :func:`mock` returns the stand-in value. A program's memory
and FLOPs without running it come from XLA's compile-time analyses (``flops_collection``).
"""

from __future__ import annotations

import functools
import logging
import os
import traceback
from typing import Any

from ..common.tensor import Tensor

__all__ = ["set_simulation", "mock"]

_log = logging.getLogger("sporax")
_FETCHES = ("asnumpy", "__getitem__", "is_contiguous", "tolist", "__int__", "__float__")


class TraceBack:
    """Logs the call stack of each value fetch once per distinct stack (MindSpore's dryrun warning)."""

    def __init__(self) -> None:
        self.stack_str_set: set[str] = set()

    def inject(self, method: Any) -> Any:
        @functools.wraps(method)
        def fetch(*args: Any, **kwargs: Any) -> Any:
            stack = traceback.format_list(traceback.extract_stack())
            text = "".join(stack)
            if "Parameter" not in text and text not in self.stack_str_set:
                self.stack_str_set.add(text)
                _log.warning("In dryrun mode, you cannot obtain real tensor value, and the traceback is {%s}", stack)
            return method(*args, **kwargs)

        fetch.__sporax_dryrun__ = True  # type: ignore[attr-defined]
        return fetch


def set_simulation() -> None:
    """Turn the dry run on: ``MS_SIMULATION_LEVEL=1`` and value fetches (``asnumpy``, indexing, ``tolist``,
    ``int()``, ``float()``) log their call stack."""
    os.environ["MS_SIMULATION_LEVEL"] = "1"
    tb = TraceBack()
    for name in _FETCHES:
        method = getattr(Tensor, name, None)
        if method is not None and not getattr(method, "__sporax_dryrun__", False):
            setattr(Tensor, name, tb.inject(method))


def mock(mock_val: Any, *args: Any) -> Any:
    """``mock_val`` in a dry run; otherwise the real value: ``args[0]`` (called when it is callable), or
    ``args[0](*args[1:])``."""
    if os.environ.get("MS_SIMULATION_LEVEL"):
        return mock_val
    if len(args) == 1:
        return args[0]() if callable(args[0]) else args[0]
    return args[0](*args[1:])
