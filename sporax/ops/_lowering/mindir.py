"""JAX primitives -> MindSpore 2.10 operators, for ``export(..., file_format="MINDIR")``.

:func:`to_mindspore` maps a flat program (``_engine._export.trace_flat``: nested calls inlined, scans
unrolled, constants folded) to MindSpore's operators, with MindSpore's input conventions: most operators
are *primitive functions* whose scalar arguments are graph inputs (``ReduceSum(x, axis, keep_dims,
skip_mode)``, ``MatMul(x, w, transpose_a, transpose_b)``, ``Cast(x, type_id)``), a few keep attributes on
the primitive (``Conv2D``, ``MaxPool``, ``Pad``): the forms MindSpore 2.10's own ``export`` writes, learned
from its files (``tools/make_mindir_fixtures.py``). Anything else raises ``TypeError`` naming the JAX
primitive and the sporax op it came from, when known.

Convolutions and max-pools are traced with the "plain" lowerings (``force_lowering``) so they reach
here as ``conv_general_dilated`` / ``reduce_window_max`` rather than CPU-specific im2col GEMMs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..._engine._export import Eqn, FlatProgram, Var

__all__ = ["MsNode", "MsGraph", "TypeId", "to_mindspore", "TYPE_IDS"]

# MindSpore's TypeId numbers (a Cast's / Argmax's dtype argument).
TYPE_IDS = {
    np.dtype(np.bool_): 30,
    np.dtype(np.int8): 32,
    np.dtype(np.int16): 33,
    np.dtype(np.int32): 34,
    np.dtype(np.int64): 35,
    np.dtype(np.uint8): 37,
    np.dtype(np.uint16): 38,
    np.dtype(np.uint32): 39,
    np.dtype(np.uint64): 40,
    np.dtype(np.float16): 42,
    np.dtype(np.float32): 43,
    np.dtype(np.float64): 44,
}


@dataclass(frozen=True)
class TypeId:
    """A dtype argument (written as MindSpore's TypeId number)."""

    dtype: np.dtype

    @property
    def number(self) -> int:
        try:
            return TYPE_IDS[np.dtype(self.dtype)]
        except KeyError:
            raise TypeError(f"export to MINDIR: the dtype {self.dtype} has no MindSpore type.") from None


@dataclass(eq=False)
class MsNode:
    """One MindSpore operator application. ``inputs``: :class:`Var`, ``np.ndarray`` (a tensor constant),
    ``bool``/``int``/``float``/``tuple``/:class:`TypeId` (scalar constants); ``attrs`` is None for a
    primitive function, else the primitive's attributes."""

    op: str
    inputs: list[Any]
    out: Var
    attrs: dict[str, Any] | None = None


@dataclass(eq=False)
class MsGraph:
    params: list[Var]
    inputs: list[Var]
    nodes: list[MsNode] = field(default_factory=list)
    outputs: list[Any] = field(default_factory=list)


class _Builder:
    def __init__(self, prog: FlatProgram) -> None:
        self.graph = MsGraph(prog.params, prog.inputs)
        self.alias: dict[int, Any] = {}
        self.reversed_from: dict[int, tuple[Any, tuple[int, ...]]] = {}  # a ReverseV2 output -> (input, dims)
        self.transposed_from: dict[int, tuple[Any, tuple[int, ...]]] = {}  # a Transpose output -> (input, perm)
        ids = [v.id for v in (*prog.params, *prog.inputs)] + [o.id for e in prog.eqns for o in e.outputs]
        self._next = max(ids, default=0)

    def fresh(self, shape: tuple[Any, ...], dtype: Any) -> Var:
        """A new value; a MakeTuple's ``shape`` is the tuple of its items' shapes."""
        self._next += 1
        dims: tuple[Any, ...] = tuple(d if isinstance(d, tuple) else int(d) for d in shape)
        return Var(self._next, dims, np.dtype(dtype))

    def node(self, op: str, inputs: list[Any], shape: tuple[Any, ...], dtype: Any, attrs: dict | None = None) -> Var:
        out = self.fresh(shape, dtype)
        self.graph.nodes.append(MsNode(op, inputs, out, attrs))
        return out

    def value(self, x: Any) -> Any:
        if isinstance(x, Var):
            return self.alias.get(x.id, x)
        return x

    # helpers used by several mappings
    def reshape(self, x: Any, shape: tuple[int, ...]) -> Any:
        shape = tuple(int(d) for d in shape)
        if isinstance(x, np.ndarray):
            return x.reshape(shape)
        if tuple(x.shape) == shape:
            return x
        return self.node("Reshape", [x, shape], shape, x.dtype)

    def transpose(self, x: Any, perm: tuple[int, ...]) -> Any:
        perm = tuple(int(p) for p in perm)
        if perm == tuple(range(len(perm))):
            return x
        if isinstance(x, np.ndarray):
            return np.ascontiguousarray(x.transpose(perm))
        out = self.node("Transpose", [x, perm], tuple(x.shape[p] for p in perm), x.dtype)
        self.transposed_from[out.id] = (x, perm)
        return out

    def untransposed(self, x: Any) -> tuple[Any, bool]:
        """``(source, True)`` when ``x`` is a Transpose of a matrix's last two axes (a MatMul flag absorbs it)."""
        src = self.transposed_from.get(getattr(x, "id", -1))
        if (
            src is not None
            and len(src[1]) >= 2
            and src[1] == (*range(len(src[1]) - 2), len(src[1]) - 1, len(src[1]) - 2)
        ):
            return src[0], True
        return x, False


_UNARY = {
    "exp": "Exp",
    "log": "Log",
    "tanh": "Tanh",
    "logistic": "Sigmoid",
    "sqrt": "Sqrt",
    "rsqrt": "Rsqrt",
    "neg": "Neg",
    "abs": "Abs",
    "erf": "Erf",
    "sin": "Sin",
    "cos": "Cos",
    "floor": "Floor",
    "ceil": "Ceil",
    "sign": "Sign",
    "square": "Square",
    "log1p": "Log1p",
    "expm1": "Expm1",
    "not": "LogicalNot",
    "round": "Round",
    "erfc": "Erfc",
    "erf_inv": "Erfinv",
    "tan": "Tan",
    "asin": "Asin",
    "acos": "ACos",
    "atan": "Atan",
    "sinh": "Sinh",
    "cosh": "Cosh",
    "asinh": "Asinh",
    "acosh": "Acosh",
    "atanh": "Atanh",
    "is_finite": "IsFinite",
    "lgamma": "Lgamma",
    "digamma": "Digamma",
}
_BINARY = {
    "add": "Add",
    "sub": "Sub",
    "mul": "Mul",
    "div": "Div",
    "max": "Maximum",
    "min": "Minimum",
    "pow": "Pow",
    "eq": "Equal",
    "ne": "NotEqual",
    "lt": "Less",
    "le": "LessEqual",
    "gt": "Greater",
    "ge": "GreaterEqual",
    "and": "LogicalAnd",
    "or": "LogicalOr",
    "atan2": "Atan2",
    "rem": "Mod",
}
_LOG_ATTRS = {"base": -1.0, "scale": 1.0, "shift": 0.0, "cust_aicpu": "Log"}
_IDENTITY = ("copy", "copy_p", "reduce_precision", "optimization_barrier", "stop_gradient", "sharding_constraint")


def _out(e: Eqn) -> Var:
    return e.outputs[0]


def _map_unary(b: _Builder, e: Eqn, x: Any) -> Any:
    op = _UNARY[e.prim]
    attrs = dict(_LOG_ATTRS) if op == "Log" else None
    if op == "LogicalNot" and _out(e).dtype != np.bool_:
        raise TypeError("export to MINDIR: bitwise 'not' of integers has no MindSpore operator mapped.")
    return b.node(op, [x], _out(e).shape, _out(e).dtype, attrs)


def _map_binary(b: _Builder, e: Eqn, x: Any, y: Any) -> Any:
    op = _BINARY[e.prim]
    if op in ("LogicalAnd", "LogicalOr") and _out(e).dtype != np.bool_:
        raise TypeError(f"export to MINDIR: bitwise '{e.prim}' of integers has no MindSpore operator mapped.")
    if op == "Div" and np.issubdtype(_out(e).dtype, np.integer):
        raise TypeError("export to MINDIR: integer division 'div' has no MindSpore operator mapped.")
    return b.node(op, [x, y], _out(e).shape, _out(e).dtype)


def _map_integer_pow(b: _Builder, e: Eqn, x: Any) -> Any:
    y = int(e.params["y"])
    if y == 2:
        return b.node("Square", [x], _out(e).shape, _out(e).dtype)
    return b.node("Pow", [x, np.asarray(y, dtype=_out(e).dtype)], _out(e).shape, _out(e).dtype)


def _map_convert(b: _Builder, e: Eqn, x: Any) -> Any:
    return b.node("Cast", [x, TypeId(_out(e).dtype)], _out(e).shape, _out(e).dtype)


def _map_reshape(b: _Builder, e: Eqn, x: Any) -> Any:
    if e.prim == "reshape" and e.params.get("dimensions") is not None:
        raise TypeError("export to MINDIR: 'reshape' with dimensions has no MindSpore operator mapped.")
    return b.reshape(x, _out(e).shape)


def _map_broadcast(b: _Builder, e: Eqn, x: Any) -> Any:
    shape = tuple(_out(e).shape)
    dims = tuple(e.params["broadcast_dimensions"])
    inter = [1] * len(shape)
    for i, d in enumerate(dims):
        inter[d] = x.shape[i]
    y = b.reshape(x, tuple(inter))
    if tuple(inter) == shape:
        return y
    return b.node("BroadcastTo", [y, shape], shape, _out(e).dtype)


def _map_transpose(b: _Builder, e: Eqn, x: Any) -> Any:
    return b.transpose(x, e.params["permutation"])


_REDUCE = {
    "reduce_sum": "ReduceSum",
    "reduce_max": "ReduceMax",
    "reduce_min": "ReduceMin",
    "reduce_prod": "ReduceProd",
    "reduce_and": "ReduceAll",
    "reduce_or": "ReduceAny",
}


def _map_reduce(b: _Builder, e: Eqn, x: Any) -> Any:
    op = _REDUCE[e.prim]
    axes = tuple(int(a) for a in e.params["axes"])
    args = [x, axes, False] + ([False] if op == "ReduceSum" else [])
    return b.node(op, args, _out(e).shape, _out(e).dtype)


def _map_argmax(b: _Builder, e: Eqn, x: Any) -> Any:
    (axis,) = e.params["axes"]
    op = "Argmax" if e.prim == "argmax" else "Argmin"
    return b.node(op, [x, int(axis), TypeId(_out(e).dtype)], _out(e).shape, _out(e).dtype)


def _map_select(b: _Builder, e: Eqn, pred: Any, *cases: Any) -> Any:
    if len(cases) != 2 or np.dtype(getattr(pred, "dtype", np.bool_)) != np.bool_:
        raise TypeError("export to MINDIR: 'select_n' with an integer selector has no MindSpore operator mapped.")
    return b.node("Select", [pred, cases[1], cases[0]], _out(e).shape, _out(e).dtype)


def _map_clamp(b: _Builder, e: Eqn, lo: Any, x: Any, hi: Any) -> Any:
    y = b.node("Maximum", [x, lo], _out(e).shape, _out(e).dtype)
    return b.node("Minimum", [y, hi], _out(e).shape, _out(e).dtype)


def _map_concat(b: _Builder, e: Eqn, *xs: Any) -> Any:
    shapes = [tuple(np.shape(x)) for x in xs]
    tup = b.node("MakeTuple", list(xs), tuple(shapes), _out(e).dtype)  # type: ignore[arg-type]
    return b.node("Concat", [tup, int(e.params["dimension"])], _out(e).shape, _out(e).dtype)


def _map_slice(b: _Builder, e: Eqn, x: Any) -> Any:
    start = tuple(int(s) for s in e.params["start_indices"])
    limit = tuple(int(s) for s in e.params["limit_indices"])
    strides = e.params.get("strides")
    if strides is None or all(int(s) == 1 for s in strides):
        size = tuple(hi - lo for lo, hi in zip(start, limit, strict=True))
        return b.node("Slice", [x, start, size], _out(e).shape, _out(e).dtype)
    strides = tuple(int(s) for s in strides)
    return b.node("StridedSlice", [x, start, limit, strides, 0, 0, 0, 0, 0], _out(e).shape, _out(e).dtype)


def _map_squeeze(b: _Builder, e: Eqn, x: Any) -> Any:
    return b.reshape(x, _out(e).shape)


def _map_pad(b: _Builder, e: Eqn, x: Any, value: Any) -> Any:
    config = [tuple(int(v) for v in c) for c in e.params["padding_config"]]
    if any(lo < 0 or hi < 0 or mid for lo, hi, mid in config):
        raise TypeError("export to MINDIR: 'pad' with negative or interior padding has no MindSpore operator mapped.")
    if not isinstance(value, np.ndarray) or np.any(value != 0):
        raise TypeError("export to MINDIR: 'pad' with a non-zero or computed value has no MindSpore operator mapped.")
    attrs = {"paddings": tuple((lo, hi) for lo, hi, _ in config), "input_names": ["x"], "output_names": ["y"]}
    return b.node("Pad", [x], _out(e).shape, _out(e).dtype, attrs)


def _map_dot(b: _Builder, e: Eqn, x: Any, y: Any) -> Any:
    (lc, rc), (lb, rb) = e.params["dimension_numbers"]
    lc, rc, lb, rb = (tuple(int(d) for d in t) for t in (lc, rc, lb, rb))
    xs, ys = tuple(np.shape(x)), tuple(np.shape(y))
    lf = tuple(d for d in range(len(xs)) if d not in lc and d not in lb)
    rf = tuple(d for d in range(len(ys)) if d not in rc and d not in rb)
    size = lambda shape, dims: int(np.prod([shape[d] for d in dims], dtype=np.int64))  # noqa: E731
    batch = tuple(xs[d] for d in lb)
    m, k, n = size(xs, lf), size(xs, lc), size(ys, rf)
    xt = b.reshape(b.transpose(x, lb + lf + lc), (*batch, m, k))
    yt = b.reshape(b.transpose(y, rb + rc + rf), (*batch, k, n))
    dtype = _out(e).dtype
    xt, ta = b.untransposed(xt)  # x @ w.T (a Dense layer) is MatMul(x, w, False, True), as MindSpore writes it
    yt, tb = b.untransposed(yt)
    op = "BatchMatMul" if batch else "MatMul"
    z = b.node(op, [xt, yt, ta, tb], (*batch, m, n), dtype)
    return b.reshape(z, _out(e).shape)


def _tuple4(v: tuple[int, ...]) -> tuple[int, ...]:
    return (1, 1, *(int(i) for i in v))


def _map_conv(b: _Builder, e: Eqn, x: Any, w: Any) -> Any:
    p = e.params
    dn = p["dimension_numbers"]
    specs = (tuple(dn.lhs_spec), tuple(dn.rhs_spec), tuple(dn.out_spec))
    if len(np.shape(x)) == 4 and specs == ((0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 2, 3)):
        return _map_conv_transpose(b, e, x, w)
    if len(np.shape(x)) != 4 or specs != ((0, 1, 2, 3),) * 3:
        raise TypeError("export to MINDIR: only 2-D NCHW convolutions ('conv_general_dilated') are mapped (Conv2D).")
    if any(int(d) != 1 for d in p["lhs_dilation"]):
        return _map_conv_transpose(b, e, x, w)
    if int(p["batch_group_count"]) != 1:
        raise TypeError("export to MINDIR: convolutions with batch groups have no MindSpore operator mapped.")
    (pt, pb), (pl, pr) = (tuple(int(v) for v in pair) for pair in p["padding"])
    pad = (pt, pb, pl, pr)
    if min(pad) < 0:
        raise TypeError("export to MINDIR: a convolution with negative padding has no MindSpore operator mapped.")
    group = int(p["feature_group_count"])
    kh, kw = (int(d) for d in np.shape(w)[2:])
    attrs = {
        "kernel_size": (kh, kw),
        "mode": 1,
        "out_channel": int(np.shape(w)[0]),
        "input_names": ["x", "w"],
        "pad": pad,
        "pad_mode": "pad",
        "format": "NCHW",
        "pad_list": pad,
        "groups": group,
        "stride": _tuple4(p["window_strides"]),
        "group": group,
        "dilation": _tuple4(p["rhs_dilation"]),
        "output_names": ["output"],
    }
    return b.node("Conv2D", [x, w], _out(e).shape, _out(e).dtype, attrs)


def _map_conv_transpose(b: _Builder, e: Eqn, x: Any, w_flipped: Any) -> Any:
    """A transposed convolution as XLA writes it (input dilated by the stride, the kernel flipped, [in, out]
    kernel layout) -> MindSpore's Conv2DTranspose on the unflipped [in, out, kh, kw] weight."""
    p = e.params
    dn = p["dimension_numbers"]
    if (tuple(dn.lhs_spec), tuple(dn.rhs_spec), tuple(dn.out_spec)) != ((0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 2, 3)):
        raise TypeError(
            "export to MINDIR: only NCHW transposed convolutions with [in, out, kh, kw] kernels are mapped."
        )
    if any(int(v) != 1 for v in p["window_strides"]) or int(p["feature_group_count"]) != 1:
        raise TypeError("export to MINDIR: grouped or strided-window transposed convolutions are not mapped.")
    src = b.reversed_from.get(getattr(w_flipped, "id", -1))
    if src is not None and src[1] == (2, 3):
        w = src[0]
    elif isinstance(w_flipped, np.ndarray):
        w = np.flip(w_flipped, (2, 3)).copy()
    else:
        w = b.node("ReverseV2", [w_flipped, (2, 3)], tuple(np.shape(w_flipped)), w_flipped.dtype)
    kh, kw = (int(d) for d in np.shape(w)[2:])
    dil = tuple(int(d) for d in p["rhs_dilation"])
    (lo_h, hi_h), (lo_w, hi_w) = (tuple(int(v) for v in pair) for pair in p["padding"])
    pad = (dil[0] * (kh - 1) - lo_h, dil[0] * (kh - 1) - hi_h, dil[1] * (kw - 1) - lo_w, dil[1] * (kw - 1) - hi_w)
    if min(pad) < 0:
        raise TypeError(
            "export to MINDIR: a transposed convolution with this padding has no MindSpore operator mapped."
        )
    attrs = {
        "kernel_size": (kh, kw),
        "mode": 1,
        "out_channel": int(np.shape(w)[0]),
        "input_names": ["out_backprop", "filter", "input_size"],
        "pad": pad,
        "pad_mode": "PAD",
        "format": "NCHW",
        "pad_list": pad,
        "groups": 1,
        "stride": _tuple4(p["lhs_dilation"]),
        "group": 1,
        "dilation": _tuple4(dil),
        "output_names": ["output"],
    }
    out_shape = tuple(int(d) for d in _out(e).shape)
    return b.node("Conv2DTranspose", [x, w, out_shape], out_shape, _out(e).dtype, attrs)


def _same_pads(size: int, k: int, s: int) -> tuple[int, int]:
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


def _pool_window(b: _Builder, e: Eqn, x: Any) -> tuple[tuple, tuple, str]:
    p = e.params
    win, strides = tuple(int(v) for v in p["window_dimensions"]), tuple(int(v) for v in p["window_strides"])
    pads = tuple(tuple(int(v) for v in pair) for pair in p["padding"])
    if (
        len(win) != 4
        or win[:2] != (1, 1)
        or strides[:2] != (1, 1)
        or any(int(d) != 1 for d in (*p["base_dilation"], *p["window_dilation"]))
    ):
        raise TypeError(f"export to MINDIR: only 2-D NCHW pooling windows are mapped ('{e.prim}').")
    if all(pair == (0, 0) for pair in pads):
        return win, strides, "VALID"
    shape = np.shape(x)
    if pads[:2] == ((0, 0), (0, 0)) and all(pads[i] == _same_pads(shape[i], win[i], strides[i]) for i in (2, 3)):
        return win, strides, "SAME"
    raise TypeError(f"export to MINDIR: '{e.prim}' with explicit padding {pads} has no MindSpore operator mapped.")


def _map_max_pool(b: _Builder, e: Eqn, x: Any, *init: Any) -> Any:
    win, strides, mode = _pool_window(b, e, x)
    attrs = {
        "pad_mode": mode,
        "output_names": ["output"],
        "kernel_size": win,
        "format": "NCHW",
        "strides": strides,
        "input_names": ["x"],
    }
    return b.node("MaxPool", [x], _out(e).shape, _out(e).dtype, attrs)


def _map_sum_pool(b: _Builder, e: Eqn, x: Any, *init: Any) -> Any:
    win, strides, mode = _pool_window(b, e, x)
    if mode != "VALID":
        raise TypeError("export to MINDIR: a padded 'reduce_window_sum' has no MindSpore operator mapped.")
    avg = b.node("AvgPool", [x, win[2:], strides[2:], 2, 0], _out(e).shape, _out(e).dtype)  # pad_mode VALID, NCHW
    return b.node("Mul", [avg, np.asarray(win[2] * win[3], dtype=_out(e).dtype)], _out(e).shape, _out(e).dtype)


def _map_gather(b: _Builder, e: Eqn, operand: Any, indices: Any) -> Any:
    """Row gathers (``take`` on axis 0: Gather) and ``take_along_axis`` (GatherD)."""
    dn = e.params["dimension_numbers"]
    oshape, ishape = tuple(np.shape(operand)), tuple(np.shape(indices))
    r, k = len(oshape), len(ishape) - 1
    ob = tuple(getattr(dn, "operand_batching_dims", ()))
    ib = tuple(getattr(dn, "start_indices_batching_dims", ()))
    sizes = tuple(int(v) for v in e.params["slice_sizes"])
    if (
        ishape[-1:] != (1,)
        or tuple(dn.collapsed_slice_dims) != tuple(dn.start_index_map)
        or len(dn.start_index_map) != 1
    ):
        raise TypeError("export to MINDIR: only row gathers and take_along_axis gathers ('gather') are mapped.")
    (a,) = dn.start_index_map
    idx = b.reshape(indices, ishape[:-1])
    if not ob and a == 0 and sizes == (1, *oshape[1:]) and tuple(dn.offset_dims) == tuple(range(k, k + r - 1)):
        return b.node("Gather", [operand, idx, 0, 0], _out(e).shape, _out(e).dtype)
    lead = tuple(sorted((a, *ob)))
    along = (
        lead == tuple(range(k))
        and ob == ib
        and tuple(dn.offset_dims) == tuple(range(k, r))
        and all(sizes[d] == 1 for d in lead)
        and all(sizes[d] == oshape[d] for d in range(k, r))
    )
    if not along:
        raise TypeError("export to MINDIR: only row gathers and take_along_axis gathers ('gather') are mapped.")
    full = b.reshape(idx, ishape[:-1] + (1,) * (r - k))
    if tuple(np.shape(full)) != tuple(_out(e).shape):
        full = b.node("BroadcastTo", [full, tuple(_out(e).shape)], _out(e).shape, idx.dtype)
    return b.node("GatherD", [operand, int(a), full], _out(e).shape, _out(e).dtype)


def _map_dynamic_slice(b: _Builder, e: Eqn, x: Any, *starts: Any) -> Any:
    if not all(isinstance(s, np.ndarray) for s in starts):
        raise TypeError("export to MINDIR: 'dynamic_slice' at computed positions has no MindSpore operator mapped.")
    sizes = tuple(int(v) for v in e.params["slice_sizes"])
    begin = tuple(int(min(max(int(s), 0), d - n)) for s, d, n in zip(starts, x.shape, sizes, strict=True))
    return b.node("Slice", [x, begin, sizes], _out(e).shape, _out(e).dtype)


def _map_stack(b: _Builder, e: Eqn, *xs: Any) -> Any:
    axis = int(e.params["axis"])
    parts = []
    for x in xs:
        shape = list(np.shape(x))
        shape.insert(axis, 1)
        parts.append(b.reshape(x, tuple(shape)))
    tup = b.node("MakeTuple", parts, tuple(tuple(np.shape(x)) for x in parts), _out(e).dtype)
    return b.node("Concat", [tup, axis], _out(e).shape, _out(e).dtype)


def _map_unstack(b: _Builder, e: Eqn, x: Any) -> list[Any]:
    axis = int(e.params["axis"])
    outs = []
    for i, o in enumerate(e.outputs):
        begin = [0] * len(x.shape)
        begin[axis] = i
        size = list(x.shape)
        size[axis] = 1
        part = b.node("Slice", [x, tuple(begin), tuple(size)], tuple(size), o.dtype)
        outs.append(b.reshape(part, o.shape))
    return outs


def _map_rev(b: _Builder, e: Eqn, x: Any) -> Any:
    dims = tuple(int(d) for d in e.params["dimensions"])
    if isinstance(x, np.ndarray):
        return np.flip(x, dims).copy()
    out = b.node("ReverseV2", [x, dims], _out(e).shape, _out(e).dtype)
    b.reversed_from[out.id] = (x, dims)
    return out


def _map_cumsum(b: _Builder, e: Eqn, x: Any) -> Any:
    return b.node("CumSum", [x, int(e.params["axis"]), False, bool(e.params["reverse"])], _out(e).shape, _out(e).dtype)


def _map_split(b: _Builder, e: Eqn, x: Any) -> list[Any]:
    axis = int(e.params["axis"])
    outs, start = [], 0
    for o in e.outputs:
        begin = [0] * len(x.shape)
        begin[axis] = start
        outs.append(b.node("Slice", [x, tuple(begin), tuple(o.shape)], o.shape, o.dtype))
        start += o.shape[axis]
    return outs


_MAPPINGS: dict[str, Callable[..., Any]] = {
    **{k: _map_unary for k in _UNARY},
    **{k: _map_binary for k in _BINARY},
    "integer_pow": _map_integer_pow,
    "convert_element_type": _map_convert,
    "reshape": _map_reshape,
    "squeeze": _map_squeeze,
    "expand_dims": _map_squeeze,
    "broadcast_in_dim": _map_broadcast,
    "transpose": _map_transpose,
    **{k: _map_reduce for k in _REDUCE},
    "argmax": _map_argmax,
    "argmin": _map_argmax,
    "select_n": _map_select,
    "clamp": _map_clamp,
    "concatenate": _map_concat,
    "slice": _map_slice,
    "pad": _map_pad,
    "dot_general": _map_dot,
    "conv_general_dilated": _map_conv,
    "reduce_window_max": _map_max_pool,
    "reduce_window_sum": _map_sum_pool,
    "gather": _map_gather,
    "dynamic_slice": _map_dynamic_slice,
    "cumsum": _map_cumsum,
    "split": _map_split,
    "stack": _map_stack,
    "rev": _map_rev,
    "unstack": _map_unstack,
}


def to_mindspore(prog: FlatProgram) -> MsGraph:
    """Map every equation of ``prog`` to MindSpore operators.

    Raises:
        TypeError: an equation's primitive (or its form) has no MindSpore operator mapped; the message names it.
    """
    b = _Builder(prog)
    for e in prog.eqns:
        ins = [b.value(x) for x in e.inputs]
        if e.prim in _IDENTITY:
            for o, i in zip(e.outputs, ins, strict=False):
                b.alias[o.id] = i
            continue
        fn = _MAPPINGS.get(e.prim)
        if fn is None:
            raise TypeError(
                f"export to MINDIR: the operation '{e.prim}' (JAX primitive) has no MindSpore operator mapped; "
                "export to 'STABLEHLO' keeps every operation."
            )
        res = fn(b, e, *ins)
        outs = res if isinstance(res, list) else [res]
        for o, r in zip(e.outputs, outs, strict=True):
            b.alias[o.id] = r
    b.graph.outputs = [b.value(o) for o in prog.outputs]
    _drop_unused(b.graph)
    return b.graph


def _drop_unused(graph: MsGraph) -> None:
    """Remove nodes no output depends on (a kernel flip a transposed convolution folded away)."""
    live = {o.id for o in graph.outputs if isinstance(o, Var)}
    kept = []
    for node in reversed(graph.nodes):
        if node.out.id in live:
            kept.append(node)
            live.update(x.id for x in node.inputs if isinstance(x, Var))
    graph.nodes = kept[::-1]
