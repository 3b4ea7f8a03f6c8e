"""Debug and control ops (``mindspore.ops`` functional): ``print_``, ``tensordump``, the gradient hooks behind
``HookBackward``/``InsertGradientOf``/``DumpGradient``, checks (``Assert``, ``CheckNumerics``), the summary ops'
cache, and the functional loops behind ``WhileLoop``/``ForiLoop``/``Scan``.

Eagerly they act at once; inside a compiled program (jit, GRAPH_MODE, a gradient) the host side effects
(printing, files, checks) run through a host callback when the values exist, in program order.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._checkparam import check_instance
from ..._engine import custom_vjp_call, is_tracer, jax, jnp, lax
from ...common.tensor import Tensor
from .._utils import arr, wrap

__all__ = ["print_", "tensordump", "partial"]


def _traced(values: Any) -> bool:
    return any(is_tracer(arr(v)) for v in jax.tree_util.tree_leaves(values, is_leaf=lambda t: isinstance(t, Tensor)))


def _show(v: Any) -> str:
    if isinstance(v, Tensor):
        return repr(v)
    if isinstance(v, (np.ndarray, jax.Array)):
        return repr(Tensor(np.asarray(v)))
    return str(v)


def print_(*input_x: Any) -> None:
    """Print each argument (strings, numbers, Tensors, tuples of them) on its own line; inside a compiled
    program the Tensors are printed when the program runs."""
    if not _traced(input_x):
        for v in input_x:
            print(_show(v))
        sys.stdout.flush()
        return None
    leaves, tree = jax.tree_util.tree_flatten(input_x, is_leaf=lambda t: isinstance(t, Tensor))
    idx = [i for i, v in enumerate(leaves) if isinstance(v, Tensor)]

    def host(*vals: Any) -> None:
        items = list(leaves)
        for i, v in zip(idx, vals):
            items[i] = Tensor(np.asarray(v))
        for v in jax.tree_util.tree_unflatten(tree, items):
            print(_show(v))
        sys.stdout.flush()

    jax.debug.callback(host, *[arr(leaves[i]) for i in idx], ordered=True)
    return None


def _dump_path(file_name: str, a: Any) -> str:
    base = file_name[:-4] if file_name.endswith(".npy") else file_name
    return f"{base}_{np.dtype(a.dtype).name}_0.npy"


def tensordump(file_name: str, tensor: Any, mode: str = "out") -> None:
    """Save ``tensor`` as ``<file_name>_<dtype>_0.npy`` (MindSpore's naming; ``mode`` ``'out'``, ``'in'`` or
    ``'all'`` only labels the dump)."""
    if not isinstance(file_name, str) or not file_name:
        raise TypeError(f"For 'TensorDump', the 'file_name' must be a non-empty str, but got {file_name!r}.")
    validator.check_choice(mode, ("out", "in", "all"), "mode", "TensorDump")
    check_instance(tensor, Tensor, "tensor", "TensorDump")
    a = arr(tensor)

    def host(v: Any) -> None:
        d = os.path.dirname(file_name)
        if d:
            os.makedirs(d, exist_ok=True)
        np.save(_dump_path(file_name, a), np.asarray(v))

    if is_tracer(a):
        jax.debug.callback(host, a, ordered=True)
    else:
        host(a)
    return None


def partial(func: Any, *args: Any) -> Any:
    """``func`` with its leading arguments bound to ``args`` (MindSpore's ``ops.partial``; also ``F.partial``,
    ``ops.composite.partial`` and the ``ops.Partial()`` primitive).

    Examples:
        >>> add_one = ops.partial(ops.add, Tensor(1.0))
        >>> add_one(Tensor(2.0))
        Tensor(shape=[], dtype=Float32, value= 3)
    """
    validator.check_callable(func, "func", "partial")
    return functools.partial(func, *args)


# ------------------------------------------------------------------ checks
def assert_(condition: Any, input_data: Any, summarize: int = 3) -> None:
    """Raise MindSpore's error (printing the first ``summarize`` values of each input) when ``condition``
    is False; inside a compiled program the check runs when the program runs."""
    cond = arr(condition)
    data = list(input_data) if isinstance(input_data, (list, tuple)) else [input_data]

    def host(c: Any, *vals: Any) -> None:
        if not bool(np.all(np.asarray(c))):
            text = "\n".join(str(np.asarray(v).reshape(-1)[:summarize]) for v in vals)
            raise RuntimeError(f"For 'Assert' condition is false.\ninput data: {text}")

    vals = [arr(v) for v in data]
    if is_tracer(cond) or any(is_tracer(v) for v in vals):
        jax.debug.callback(host, cond, *vals, ordered=True)
    else:
        host(cond, *vals)
    return None


def check_numerics(x: Any) -> Tensor:
    """``x``, after checking it holds no NaN or Inf (MindSpore's RuntimeError otherwise)."""
    a = arr(x)

    def host(v: Any) -> None:
        v = np.asarray(v)
        if np.isnan(v).any():
            raise RuntimeError("For 'CheckNumerics', Tensor had NaN values.")
        if np.isinf(v).any():
            raise RuntimeError("For 'CheckNumerics', Tensor had Inf values.")

    if is_tracer(a):
        jax.debug.callback(host, a, ordered=True)
    else:
        host(a)
    return x


# ------------------------------------------------------------------ gradient hooks
def grad_hook(x: Any, hook: Any) -> Any:
    """``x`` unchanged; in the backward pass its gradient ``g`` becomes ``hook(g)`` (``None`` keeps ``g``)."""

    def backward(args: Any, out: Any, dout: Any) -> Any:
        new = hook(dout)
        return (dout if new is None else new,)

    return custom_vjp_call(lambda v: v, backward, (x,), [])


def host_grad_hook(x: Any, hook: Any) -> Any:
    """As :func:`grad_hook`, but ``hook`` runs on the host with the concrete gradient (a Tensor), as
    MindSpore's ``HookBackward`` in PyNative: it may print or record it, or return a replacement."""

    def on_host(g: Any) -> Any:
        new = hook(Tensor(np.asarray(g)))
        return np.asarray(g if new is None else arr(new), dtype=np.asarray(g).dtype)

    def backward(args: Any, out: Any, dout: Any) -> Any:
        d = arr(dout)
        return (wrap(jax.pure_callback(on_host, jax.ShapeDtypeStruct(d.shape, d.dtype), d)),)

    return custom_vjp_call(lambda v: v, backward, (x,), [])


def dump_gradient(path: str, x: Any, input_output: str = "in") -> Any:
    """``x`` unchanged; its gradient is saved with :func:`tensordump` under ``path`` in the backward pass."""
    validator.check_choice(input_output, ("in", "out"), "input_output", "DumpGradient")

    def save(g: Any) -> None:
        tensordump(path, g)

    return host_grad_hook(x, save)


# ------------------------------------------------------------------ summaries
_SUMMARY_CACHE: dict[str, Any] = {}
_summary_sinks: list[Any] = []


def _register_summary_sink(fn: Any) -> None:
    """Have ``fn([{'name': 'tag[:Type]', 'data': Tensor}])`` receive every summary value (SummaryRecord does)."""
    if fn not in _summary_sinks:
        _summary_sinks.append(fn)


def summary(kind: str, name: Any, value: Any) -> None:
    """Record ``value`` under ``'<name>[:<kind>]'`` for the next ``SummaryRecord.record`` (eager values; inside a
    compiled program when the program runs)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"For '{kind}Summary', the 'name' must be a non-empty str, but got {name!r}.")
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{kind}Summary', the 'value' must be a Tensor, but got {type(value).__name__}.")
    a = arr(value)
    if kind == "Scalar" and a.size != 1:
        raise ValueError(f"For 'ScalarSummary', the 'value' must hold one element, but got shape {tuple(a.shape)}.")
    if kind == "Image" and a.ndim != 4:
        raise ValueError(f"For 'ImageSummary', the 'value' must be 4-D (NCHW), but got shape {tuple(a.shape)}.")
    tag = f"{name}[:{kind}]"

    def host(v: Any) -> None:
        t = Tensor(np.asarray(v))
        _SUMMARY_CACHE[tag] = t
        for sink in _summary_sinks:
            sink([{"name": tag, "data": t}])

    if is_tracer(a):
        jax.debug.callback(host, a, ordered=True)
    else:
        host(a)
    return None


# ------------------------------------------------------------------ functional loops
def _bool(v: Any) -> Any:
    return jnp.asarray(arr(v)).reshape(()).astype(bool)


def while_loop(cond_func: Any, loop_func: Any, init_val: Any) -> Any:
    """``val = init_val; while cond_func(val): val = loop_func(val)``: a Python loop on concrete values, one
    compiled ``while`` loop inside a trace (then ``loop_func`` must keep the structure, shapes and dtypes)."""
    if not _traced(init_val):
        val = init_val
        while bool(np.asarray(arr(cond_func(val)))):
            val = loop_func(val)
        return val
    return lax.while_loop(lambda v: _bool(cond_func(v)), loop_func, init_val)


def fori_loop(lower: Any, upper: Any, loop_func: Any, init_val: Any, unroll: Any = True) -> Any:
    """``for i in range(lower, upper): init_val = loop_func(i, init_val)``."""
    if not _traced((lower, upper, init_val)):
        val = init_val
        for i in range(int(np.asarray(arr(lower))), int(np.asarray(arr(upper)))):
            val = loop_func(i, val)
        return val

    def body(i: Any, v: Any) -> Any:
        return loop_func(wrap(i), v)

    return lax.fori_loop(jnp.asarray(arr(lower)), jnp.asarray(arr(upper)), body, init_val)


def scan(loop_func: Any, init: Any, xs: Any, length: Any = None, unroll: Any = True) -> tuple[Any, list[Any]]:
    """``carry, y = loop_func(carry, x)`` over the list ``xs`` (or ``length`` times with ``x=None``);
    returns ``(carry, [y...])``."""
    if xs is None:
        if not isinstance(length, int):
            raise TypeError(f"For 'Scan', the 'length' must be an int when 'xs' is None, but got {length!r}.")
        xs = [None] * length
    if not isinstance(xs, (list, tuple)):
        raise TypeError(f"For 'Scan', the 'xs' must be a list or tuple, but got {type(xs).__name__}.")
    carry = init
    ys = []
    for x in xs:
        carry, y = loop_func(carry, x)
        ys.append(y)
    return carry, ys
