"""``MsDispatchMode``: intercept the operators called inside a context (MindSpore's dispatch guard)."""

from __future__ import annotations

import contextlib
from typing import Any, Literal

from ..common import _op_intercept
from ..common._op_intercept import OpFunc

__all__ = ["MsDispatchMode", "OpFunc"]


class MsDispatchMode(contextlib.ContextDecorator):
    """
    Intercept operators: inside the context, each operator called through ``sporax.ops`` (directly, or by a
    Tensor's operators and methods: ``x + y`` is ``ops.add``) first goes to ``self.__ms_dispatch__(func, args,
    kwargs)``, which may log, change the arguments or the result, and calls ``func(*args)`` to run it.
    Modes nest: the innermost handles a call, and the operators its handler runs (``func(*args)`` included) go to
    the modes outside it; an operator's own inner operators are not intercepted. Modes also work as decorators.

    ``func.name`` is the operator's name in CamelCase (``ops.add`` -> ``"Add"``; MindSpore reports its kernel
    names, such as ``"AddExt"``). Inside a compiled function the interception happens while it is traced.
    """

    def __enter__(self) -> MsDispatchMode:
        _op_intercept.push(self)
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> Literal[False]:
        _op_intercept.pop(self)
        return False

    def __ms_dispatch__(self, func: Any, args: tuple, kwargs: dict | None = None) -> Any:
        """Called for each operator inside the context; runs it unchanged by default."""
        return func(*args)
