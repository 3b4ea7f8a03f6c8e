"""Tracing a network for export: a flat program of JAX primitives, and ``jax.export`` (StableHLO).

:func:`trace_flat` traces ``fn(param_values, *inputs)`` to a jaxpr and flattens it into a straight list of
:class:`Eqn`: nested calls (``jit``, ``custom_jvp_call``, ``custom_vjp_call``, ``remat``) are inlined,
fixed-length ``scan`` loops are unrolled (an exporter to a graph format without loops needs nothing else),
and every equation whose inputs are all constants is evaluated now (constant folding: ``iota``, masks,
broadcasts of literals). What remains are equations over the network's inputs and parameters, with the
primitive's name and parameters as JAX gives them; the op mapping of a file format reads those.

:func:`export_stablehlo` / :func:`load_stablehlo` wrap ``jax.export``: a serialized, versioned StableHLO
module, and the callable that runs one back without the Python code that produced it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.extend
import numpy as np

from . import _state

__all__ = ["Var", "Eqn", "FlatProgram", "trace_flat", "export_stablehlo", "load_stablehlo"]

_INLINED = {
    "pjit": "jaxpr",
    "jit": "jaxpr",
    "closed_call": "call_jaxpr",
    "core_call": "call_jaxpr",
    "custom_jvp_call": "call_jaxpr",
    "custom_vjp_call": "call_jaxpr",
    "custom_vjp_call_jaxpr": "fun_jaxpr",
    "remat": "jaxpr",
    "checkpoint": "jaxpr",
    "custom_lin": None,
}
_NOT_FOLDED = ("random", "rng", "threefry", "iota_2x32")
PLATFORMS = ("cpu", "cuda", "rocm", "tpu")  # what a STABLEHLO export is lowered for


@dataclass(eq=False)
class Var:
    """A value of the flat program: its shape and NumPy dtype (an exporter's tuple value: its items' shapes)."""

    id: int
    shape: tuple[Any, ...]
    dtype: np.dtype


@dataclass(eq=False)
class Eqn:
    """One primitive application: ``inputs`` are :class:`Var` or constant ``np.ndarray``."""

    prim: str
    params: dict[str, Any]
    inputs: list[Any]
    outputs: list[Var]


@dataclass(eq=False)
class FlatProgram:
    """``params`` and ``inputs`` are the program's arguments (weights first), ``outputs`` its results
    (:class:`Var` or constant arrays), ``out_tree`` the structure of ``fn``'s return value."""

    params: list[Var]
    inputs: list[Var]
    eqns: list[Eqn] = field(default_factory=list)
    outputs: list[Any] = field(default_factory=list)
    out_tree: Any = None


class _Flattener:
    def __init__(self) -> None:
        self.eqns: list[Eqn] = []
        self._next = 0

    def var(self, aval: Any) -> Var:
        self._next += 1
        return Var(self._next, tuple(int(d) for d in aval.shape), np.dtype(aval.dtype))

    def emit(self, prim: Any, params: dict[str, Any], inputs: list[Any], out_avals: list[Any]) -> list[Any]:
        """Record ``prim`` on ``inputs``; evaluate it now when every input is a constant."""
        name = prim.name
        if all(isinstance(x, np.ndarray) for x in inputs) and not any(s in name for s in _NOT_FOLDED):
            outs = prim.bind(*[jax.numpy.asarray(x) for x in inputs], **params)
            outs = outs if prim.multiple_results else [outs]
            return [np.asarray(o) for o in outs]
        outs = [self.var(a) for a in out_avals]
        self.eqns.append(Eqn(name, dict(params), list(inputs), outs))
        return outs

    def run(self, jaxpr: Any, consts: Sequence[Any], args: Sequence[Any]) -> list[Any]:
        env: dict[Any, Any] = {}

        def read(v: Any) -> Any:
            if isinstance(v, jax.extend.core.Literal):
                aval: Any = v.aval  # a ShapedArray (jax types it as the AbstractValue base)
                return np.asarray(v.val, dtype=aval.dtype)
            return env[v]

        for v, c in zip(jaxpr.constvars, consts, strict=True):
            env[v] = c if isinstance(c, Var) else np.asarray(c)
        for v, a in zip(jaxpr.invars, args, strict=True):
            env[v] = a
        for eqn in jaxpr.eqns:
            ins = [read(v) for v in eqn.invars]
            name = eqn.primitive.name
            if name in _INLINED and _INLINED[name] in eqn.params:
                outs = self.call(eqn.params[_INLINED[name]], ins)
            elif name == "scan":
                outs = self.unroll_scan(eqn.params, ins)
            else:
                outs = self.emit(eqn.primitive, eqn.params, ins, [v.aval for v in eqn.outvars])
            for v, o in zip(eqn.outvars, outs, strict=True):
                env[v] = o
        return [read(v) for v in jaxpr.outvars]

    def call(self, sub: Any, ins: list[Any]) -> list[Any]:
        if hasattr(sub, "jaxpr"):  # a ClosedJaxpr
            return self.run(sub.jaxpr, sub.consts, ins)
        return self.run(sub, [], ins)

    def unroll_scan(self, params: dict[str, Any], ins: list[Any]) -> list[Any]:
        n_consts, n_carry, length = params["num_consts"], params["num_carry"], params["length"]
        consts, carry, xs = ins[:n_consts], ins[n_consts : n_consts + n_carry], ins[n_consts + n_carry :]
        steps = range(length - 1, -1, -1) if params["reverse"] else range(length)
        ys_steps: dict[int, list[Any]] = {}
        for i in steps:
            x_i = [self.index(x, i) for x in xs]
            outs = self.call(params["jaxpr"], [*consts, *carry, *x_i])
            carry, ys_steps[i] = outs[:n_carry], outs[n_carry:]
        n_ys = len(params["jaxpr"].out_avals) - n_carry
        ys = [self.stack([ys_steps[i][k] for i in range(length)]) for k in range(n_ys)]
        return [*carry, *ys]

    def index(self, x: Any, i: int) -> Any:
        """``x[i]`` along axis 0, as slice + reshape equations."""
        if isinstance(x, np.ndarray):
            return x[i]
        start = (i,) + (0,) * (len(x.shape) - 1)
        limit = (i + 1, *x.shape[1:])
        aval1 = jax.core.ShapedArray((1, *x.shape[1:]), x.dtype)
        (s,) = self.emit(
            jax.lax.slice_p, {"start_indices": start, "limit_indices": limit, "strides": None}, [x], [aval1]
        )
        aval = jax.core.ShapedArray(x.shape[1:], x.dtype)
        (r,) = self.emit(
            jax.lax.reshape_p, {"new_sizes": x.shape[1:], "dimensions": None, "sharding": None}, [s], [aval]
        )
        return r

    def stack(self, items: list[Any]) -> Any:
        if all(isinstance(x, np.ndarray) for x in items):
            return np.stack(items)
        shape = tuple(items[0].shape)
        dtype = items[0].dtype
        aval1 = jax.core.ShapedArray((1, *shape), dtype)
        parts = []
        for x in items:
            (r,) = self.emit(
                jax.lax.reshape_p, {"new_sizes": (1, *shape), "dimensions": None, "sharding": None}, [x], [aval1]
            )
            parts.append(r)
        aval = jax.core.ShapedArray((len(items), *shape), dtype)
        (out,) = self.emit(jax.lax.concatenate_p, {"dimension": 0}, parts, [aval])
        return out


def _pure(fn: Callable[..., Any], holders: Sequence[Any], args: Sequence[Any]) -> tuple[list, list, Any, dict]:
    """``fn`` as a pure function of (parameter values, argument leaves) returning its output leaves; the
    output's structure lands in ``box["tree"]`` when it is traced."""
    values = [_state.read(h) for h in holders]
    flat_args, in_tree = jax.tree_util.tree_flatten(list(args))
    box: dict[str, Any] = {}

    def pure(param_vals: list[Any], arg_vals: list[Any]) -> Any:
        with _state.Frame(list(zip(holders, param_vals, strict=True))):
            out = fn(*jax.tree_util.tree_unflatten(in_tree, arg_vals))
        leaves, box["tree"] = jax.tree_util.tree_flatten(out)
        box["single"] = not isinstance(out, (tuple, list))
        return leaves

    return values, flat_args, pure, box


def trace_flat(fn: Callable[..., Any], holders: Sequence[Any], args: Sequence[Any]) -> FlatProgram:
    """Trace ``fn(*args)`` with ``holders`` (Parameters) as explicit inputs and flatten it.

    ``args`` are pytrees of arrays (sporax Tensors are pytrees); only their array leaves become inputs.
    """
    values, flat_args, pure, box = _pure(fn, holders, args)

    closed = jax.make_jaxpr(pure)(values, flat_args)
    fl = _Flattener()
    params = [fl.var(v.aval) for v in closed.jaxpr.invars[: len(values)]]
    inputs = [fl.var(v.aval) for v in closed.jaxpr.invars[len(values) :]]
    outputs = fl.run(closed.jaxpr, closed.consts, [*params, *inputs])
    return FlatProgram(params, inputs, fl.eqns, outputs, box["tree"])


# ------------------------------------------------------------------ StableHLO
def _symbolic_specs(shapes: Sequence[tuple[Sequence[int], Any]]) -> list[Any]:
    """ShapeDtypeStructs for argument shapes where -1 marks a dynamic dimension: every dynamic leading
    dimension is one symbol, ``batch``; other dynamic dimensions get a symbol each."""
    scope = jax.export.SymbolicScope()
    out, k = [], 0
    for shape, dtype in shapes:
        dims = []
        for axis, d in enumerate(shape):
            if int(d) >= 0:
                dims.append(str(int(d)))
            elif axis == 0:
                dims.append("batch")
            else:
                k += 1
                dims.append(f"d{k}")
        sym = jax.export.symbolic_shape(", ".join(dims), scope=scope) if dims else ()
        out.append(jax.ShapeDtypeStruct(sym, np.dtype(dtype)))
    return out


def export_stablehlo(
    fn: Callable[..., Any],
    holders: Sequence[Any],
    args: Sequence[Any],
    arg_shapes: Sequence[tuple[Sequence[int], Any]] | None = None,
) -> tuple[bytes, int, bool]:
    """Serialize ``fn`` as ``program(param_values, arg_leaves) -> out_leaves`` with ``jax.export``; returns
    the bytes, the number of output leaves, and whether ``fn`` returns one value (not a tuple or list).
    ``arg_shapes`` (shape, dtype) per argument leaf, -1 for a dynamic dimension, replaces the leaves' own."""
    values, flat_args, pure, box = _pure(fn, holders, args)

    specs = [jax.ShapeDtypeStruct(np.shape(v), v.dtype) for v in values]
    if arg_shapes is None:
        arg_specs = [jax.ShapeDtypeStruct(np.shape(a), a.dtype) for a in flat_args]
    else:
        arg_specs = _symbolic_specs(arg_shapes)
    try:  # one file for every XLA platform (each gets its own lowering inside the module)
        exported = jax.export.export(jax.jit(pure), platforms=PLATFORMS)(specs, arg_specs)
    except Exception:  # an operation without a lowering on some platform: this backend's only
        exported = jax.export.export(jax.jit(pure))(specs, arg_specs)
    return bytes(exported.serialize()), box["tree"].num_leaves, box["single"]


def load_stablehlo(data: bytes) -> tuple[Callable[..., Any], list[tuple[tuple[int, ...], np.dtype]]]:
    """The callable ``(param_values, arg_leaves) -> out_leaves`` of a serialized program, and its argument
    shapes and dtypes (parameters first).

    Raises:
        ValueError: the program was lowered for other platforms only.
    """
    exported = jax.export.deserialize(bytearray(data))
    here = jax.default_backend()
    if here not in exported.platforms and not (here == "gpu" and {"cuda", "rocm"} & set(exported.platforms)):
        raise ValueError(f"the program was exported for {list(exported.platforms)}, not for this backend ({here})")
    avals = [(tuple(d if isinstance(d, int) else -1 for d in a.shape), np.dtype(a.dtype)) for a in exported.in_avals]
    return exported.call, avals
