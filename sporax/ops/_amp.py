"""Per-operator casting of ``amp_level="auto"`` (MindSpore's ``AmpLevel.AmpAuto`` strategy).

While a network converted with ``auto_mixed_precision(net, "auto", dtype)`` runs (eagerly, or while it
is traced for ``jit`` / GRAPH_MODE), ``state.amp_dtype()`` holds the low precision type, and the op
entry points decorated here cast their floating Tensor inputs:

- :func:`amp_white` (MatMul, Conv, Dense, PReLU, Einsum ...): to the low precision type (float16 or
  bfloat16, also from float64, as MindSpore does); the result stays in it. A ``bias`` argument is added
  afterwards as MindSpore's Dense and Conv cells add theirs (a BiasAdd, which promotes): with a float32
  bias the result is float32.
- :func:`amp_black` (Exp, Log, Pow, Softmax, the norms, reductions, losses ...): to float32.
- :func:`amp_promote` (BiasAdd, Concat, AddN ...): to the widest float type among them.

Everything else runs in the type its inputs have. Inside a ``Cell.to_float`` cell its type wins (as
MindSpore documents) and nothing is cast here. Without amp the cost is one thread-local read per call.
"""

from __future__ import annotations

import functools
import inspect
import linecache
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from .._engine import jnp, state
from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = ["amp_white", "amp_black", "amp_promote", "WHITE_OPS", "BLACK_OPS", "PROMOTE_OPS"]

_local = state.thread_state()
_F32 = np.dtype(np.float32)
_FLOATS = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64, mstype.to_np(mstype.bfloat16)))

#: The names of the decorated entry points (for the docs and the tests).
WHITE_OPS: list[str] = []
BLACK_OPS: list[str] = []
PROMOTE_OPS: list[str] = []


def _cast(x: Any, dt: np.dtype) -> Any:
    """``x`` with its floating Tensors (also those directly inside a tuple or list) cast to ``dt``."""
    if isinstance(x, Tensor):
        a = x._data
        if a.dtype != dt and a.dtype in _FLOATS:
            return Tensor._from_data(a.astype(dt))
        return x
    if type(x) in (tuple, list) and any(isinstance(e, Tensor) for e in x):
        return type(x)(_cast(e, dt) for e in x)
    return x


def _positions(fn: Callable[..., Any], names: tuple[str, ...]) -> dict[str, int]:
    params = list(inspect.signature(fn).parameters)
    missing = [n for n in names if n not in params]
    if missing:
        raise TypeError(f"amp: {fn.__qualname__} has no parameter {missing[0]!r}")
    return {n: params.index(n) for n in names}


def _cast_args(
    args: tuple[Any, ...], kwargs: dict[str, Any], dt: np.dtype, keep: dict[str, int]
) -> tuple[list[Any], dict[str, Any]]:
    if keep:
        kept = set(keep.values())
        new_args = [a if i in kept else _cast(a, dt) for i, a in enumerate(args)]
        new_kwargs = {k: v if k in keep else _cast(v, dt) for k, v in kwargs.items()}
    else:
        new_args = [_cast(a, dt) for a in args]
        new_kwargs = {k: _cast(v, dt) for k, v in kwargs.items()}
    return new_args, new_kwargs


def _add_bias(out: Any, bias: Any, axis: int) -> Any:
    """``out + bias`` along ``axis`` (1: channels first, -1: last), as BiasAdd under amp: promoted."""
    from .function.math_func import add
    from .function.nn_func import bias_add_format

    if out.ndim < 2:
        return add(out, bias)
    return bias_add_format(out, bias, "NHWC" if axis == -1 else "NCHW")


_HERE = os.path.dirname(os.path.abspath(__file__))


def _fast(fn: Callable[..., Any], slow: Callable[..., Any]) -> Callable[..., Any]:
    """A function with ``fn``'s signature that calls ``fn`` while no amp strategy is set, ``slow`` (the
    casting path, taking ``*args, **kwargs``) otherwise. Generated with the exact parameter list, so
    the no-amp path costs one thread-local read and a plain call (no argument packing: that alone would
    cost a few hundred ns per eager op)."""
    params: list[str] = []
    call: list[str] = []
    ns: dict[str, Any] = {"_fn_": fn, "_slow_": slow, "_local_": _local}
    star = posonly = False
    for i, p in enumerate(inspect.signature(fn).parameters.values()):
        default = ""
        if p.default is not p.empty:
            ns[f"_d{i}_"] = p.default
            default = f"=_d{i}_"
        if p.kind is p.POSITIONAL_ONLY:
            posonly = True
            params.append(p.name + default)
            call.append(p.name)
            continue
        if posonly:
            params.append("/")
            posonly = False
        if p.kind is p.POSITIONAL_OR_KEYWORD:
            params.append(p.name + default)
            call.append(p.name)
        elif p.kind is p.VAR_POSITIONAL:
            star = True
            params.append("*" + p.name)
            call.append("*" + p.name)
        elif p.kind is p.KEYWORD_ONLY:
            if not star:
                star = True
                params.append("*")
            params.append(p.name + default)
            call.append(f"{p.name}={p.name}")
        else:
            params.append("**" + p.name)
            call.append("**" + p.name)
    if posonly:
        params.append("/")
    args, fwd = ", ".join(params), ", ".join(call)
    src = (
        f"def {fn.__name__}({args}):\n"
        f"    if _local_.amp is None:\n"
        f"        return _fn_({fwd})\n"
        f"    return _slow_({fwd})\n"
    )
    # a file name inside the package: tracebacks show this source, and frames count as framework code
    filename = os.path.join(_HERE, f"_amp_{fn.__qualname__}.py")
    exec(compile(src, filename, "exec"), ns)
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    op = ns[fn.__name__]
    functools.update_wrapper(op, fn)
    return op


def amp_white(fn: Callable[..., Any] | None = None, *, bias: tuple[str, int] | None = None) -> Any:
    """Decorate a white-list op: under ``amp_level="auto"`` its floating inputs compute in the low
    precision type. ``bias=(name, axis)`` names a bias argument added afterwards along ``axis``
    (promoted, as MindSpore's cells do with a BiasAdd after the MatMul or Conv)."""
    if fn is None:
        return functools.partial(amp_white, bias=bias)
    WHITE_OPS.append(fn.__qualname__)
    if bias is None:

        def slow(*args: Any, **kwargs: Any) -> Any:
            if _local.cast is not None:
                return fn(*args, **kwargs)
            new_args, new_kwargs = _cast_args(args, kwargs, _local.amp, {})
            return fn(*new_args, **new_kwargs)

        return _fast(fn, slow)

    name, axis = bias
    pos = _positions(fn, (name,))[name]

    def slow_bias(*args: Any, **kwargs: Any) -> Any:
        if _local.cast is not None:
            return fn(*args, **kwargs)
        args_l = list(args)
        if name in kwargs:
            b = kwargs[name]
            kwargs = dict(kwargs, **{name: None})
        elif pos < len(args_l):
            b = args_l[pos]
            args_l[pos] = None
        else:
            b = None
        new_args, new_kwargs = _cast_args(tuple(args_l), kwargs, _local.amp, {})
        out = fn(*new_args, **new_kwargs)
        return out if b is None else _add_bias(out, b, axis)

    return _fast(fn, slow_bias)


def amp_black(fn: Callable[..., Any] | None = None, *, keep: tuple[str, ...] = ()) -> Any:
    """Decorate a black-list op: under ``amp_level="auto"`` its floating inputs compute in float32.
    ``keep`` names arguments passed unchanged (state the op updates, such as BatchNorm's statistics)."""
    if fn is None:
        return functools.partial(amp_black, keep=keep)
    BLACK_OPS.append(fn.__qualname__)
    kept = _positions(fn, keep) if keep else {}

    def slow(*args: Any, **kwargs: Any) -> Any:
        if _local.cast is not None:
            return fn(*args, **kwargs)
        new_args, new_kwargs = _cast_args(args, kwargs, _F32, kept)
        return fn(*new_args, **new_kwargs)

    return _fast(fn, slow)


def _float_dtypes(x: Any, found: set[np.dtype]) -> None:
    if isinstance(x, Tensor):
        dt = x._data.dtype
        if dt in _FLOATS:
            found.add(dt)
    elif type(x) in (tuple, list):
        for e in x:
            if isinstance(e, Tensor):
                _float_dtypes(e, found)


def amp_promote(fn: Callable[..., Any]) -> Any:
    """Decorate a promote-list op: under ``amp_level="auto"`` floating inputs of different types compute
    in the widest of them."""
    PROMOTE_OPS.append(fn.__qualname__)

    def slow(*args: Any, **kwargs: Any) -> Any:
        if _local.cast is not None:
            return fn(*args, **kwargs)
        found: set[np.dtype] = set()
        for a in args:
            _float_dtypes(a, found)
        for v in kwargs.values():
            _float_dtypes(v, found)
        if len(found) < 2:
            return fn(*args, **kwargs)
        dt = functools.reduce(jnp.promote_types, found)
        new_args, new_kwargs = _cast_args(args, kwargs, np.dtype(dt), {})
        return fn(*new_args, **new_kwargs)

    return _fast(fn, slow)
