"""``ops.kernel``: the decorator of MindSpore's Hybrid DSL functions (``ops.Custom(fn, ..., "hybrid")``).

MindSpore compiles the DSL with AKG; sporax runs it as Python on NumPy arrays (``Custom`` calls it on the
host, as a pyfunc), with the DSL's intrinsics (``output_tensor``, ``allocate``, ``grid``, the loop forms,
``block_realize``, the math functions and dtype casts) bound to their NumPy meaning. Called directly, a
decorated function runs the same way on NumPy arrays, as in MindSpore.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import types
import warnings
from typing import Any

import numpy as np

from ... import _checkparam as validator

__all__ = ["kernel", "ms_kernel", "_ms_pyfunc"]


def _allocate(shape: Any, dtype: Any = "float32", scope: str = "global") -> np.ndarray:
    return np.zeros(tuple(shape), np.dtype(dtype))


def _erf(x: Any) -> Any:
    return np.vectorize(math.erf)(x) if np.ndim(x) else math.erf(x)


class _Stub(contextlib.nullcontext):
    """``with block_realize(c):`` / ``with attr(...):``: scheduling hints, no effect when run in Python."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()


_INTRINSICS: dict[str, Any] = {
    "allocate": _allocate,
    "output_tensor": _allocate,
    "grid": lambda extents: np.ndindex(*tuple(extents)),
    "serial": range,
    "vectorize": range,
    "parallel": range,
    "reduce": range,
    "block_realize": _Stub,
    "attr": _Stub,
    "rsqrt": lambda x: 1.0 / np.sqrt(x),
    "erf": _erf,
    "ceil_div": lambda a, b: (a + b - 1) // b,
    "atan": np.arctan,
    **{n: getattr(np, n) for n in ("sqrt", "sign", "log", "tanh", "exp", "abs", "power", "isnan", "isinf")},
    **{n: getattr(np, n) for n in ("isfinite", "sin", "cos", "expm1", "floor", "ceil", "trunc", "round")},
    **{n: getattr(np, n) for n in ("int8", "int16", "int32", "int64", "float16", "float32", "float64")},
    "atan2": np.arctan2,
}


def kernel(fn: Any = None, reg_info: Any = None, compile_attrs: Any = None) -> Any:
    """Mark ``fn`` as a Hybrid DSL kernel (``ms_kernel_flag``), with its registration info and compile
    attributes (kept as MindSpore keeps them: ``compile_attrs`` as JSON)."""
    if compile_attrs is None:
        compile_attrs = {}
    if not isinstance(compile_attrs, dict):
        raise TypeError(f"The input 'compile_attrs' of @kernel must be a dict, but get a {type(compile_attrs)}")
    for key in compile_attrs:
        if not isinstance(key, str):
            raise TypeError(f"The key of 'compile_attrs' of @kernel must be a str, but get a {type(key)}")
    if reg_info is not None and not isinstance(reg_info, (str, dict, tuple)):
        raise TypeError(
            f"The input 'reg_info' of @kernel should be one of str, dict and tuple, but get a {type(reg_info)}"
        )

    def wrap(func: Any) -> Any:
        scope = {**func.__globals__, **_INTRINSICS}
        runnable = types.FunctionType(func.__code__, scope, func.__name__, func.__defaults__, func.__closure__)

        @functools.wraps(func)
        def run(*args: Any) -> Any:
            return runnable(*args)

        run.ms_kernel_flag = True  # type: ignore[attr-defined]
        run.compile_attrs = json.dumps(compile_attrs)  # type: ignore[attr-defined]
        if reg_info is not None:
            run.reg_info = reg_info  # type: ignore[attr-defined]
        return run

    return wrap if fn is None else wrap(fn)


def ms_kernel(fn: Any = None, reg_info: Any = None, compile_attrs: Any = None) -> Any:
    """MindSpore 1.8's name of :func:`kernel` (deprecated; warns)."""
    warnings.warn(
        "'ms_kernel' is deprecated from version 1.8 and will be removed in a future version, use 'kernel' instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    return kernel(fn, reg_info, compile_attrs)


def _ms_pyfunc(infer_func: Any) -> Any:
    """Decorator factory: ``@_ms_pyfunc(infer)`` turns a Python function into a primitive instance (class
    ``PyCallback_<name>``) that calls it; ``infer(*inputs)`` is kept as the primitive's shape/dtype inference
    (sporax infers by running the function)."""
    validator.check_callable(infer_func, "infer_func", "_ms_pyfunc")
    from ._primitive import Primitive

    def decorator(fn: Any) -> Any:
        def call(self: Any, *args: Any) -> Any:
            return fn(*args)

        cls = type(f"PyCallback_{fn.__name__}", (Primitive,), {"__call__": call, "__module__": __name__})
        prim = cls()
        prim.add_prim_attr("prim_py_func", True)
        prim.infer_func = infer_func
        return prim

    return decorator
