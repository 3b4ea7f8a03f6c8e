"""``jit``: compile a function (or Cell method) with its implicit state."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .._engine import StatefulJit, warn_user

__all__ = ["jit", "ms_function"]


def jit(
    function: Callable[..., Any] | None = None,
    *,
    capture_mode: str = "ast",
    jit_level: str = "O0",
    dynamic: int = 0,
    fullgraph: bool = False,
    backend: str = "",
    **options: Any,
) -> Any:
    """Compile ``function`` per input signature (MindSpore's ``@jit``).

    The compiled function reads and writes the Parameters it uses (weights, optimizer state, the RNG)
    as implicit state; Tensor arguments are inputs, other arguments are constants of the compilation.
    Usable bare (``@jit``), with arguments (``@jit(jit_level="O1")``), and on Cell methods.
    ``fullgraph=True`` raises instead of falling back to eager for code that cannot be compiled.
    """
    if capture_mode not in ("ast", "bytecode", "trace"):
        raise ValueError(
            f"For 'jit', the 'capture_mode' must be 'ast', 'bytecode' or 'trace', but got '{capture_mode}'."
        )

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(fn):
            raise TypeError(f"For 'jit', the decorated object must be callable, but got {type(fn).__name__}.")
        compiled = StatefulJit(
            fn, fallback="raise" if fullgraph else "eager", name=getattr(fn, "__qualname__", None), warn=warn_user
        )

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return compiled(*args, **kwargs)

        wrapper.__sporax_jit__ = compiled  # type: ignore[attr-defined]
        return wrapper

    if function is None:
        return decorate
    return decorate(function)


def ms_function(
    fn: Callable[..., Any] | None = None, input_signature: Any = None, hash_args: Any = None, jit_config: Any = None
) -> Any:
    """MindSpore 1.x name of :func:`jit`."""
    return jit(fn)
