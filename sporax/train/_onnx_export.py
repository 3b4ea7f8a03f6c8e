"""``export(..., file_format="ONNX")``: the traced network's MindSpore-operator graph (the one MINDIR
writes, ``ops/_lowering/mindir.py``) written as an ONNX model (opset 17) with the ``onnx`` package, an
optional extra (``pip install sporax[onnx]``), imported only here. Shapes are static, as MindSpore's ONNX
export writes them. An operator with no ONNX counterpart mapped raises ``TypeError`` naming it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..ops._lowering.mindir import MsGraph, MsNode, TypeId

__all__ = ["onnx_bytes", "OPSET"]

OPSET = 17

_SAME = {
    "Add": "Add",
    "Sub": "Sub",
    "Mul": "Mul",
    "Div": "Div",
    "Maximum": "Max",
    "Minimum": "Min",
    "Pow": "Pow",
    "Equal": "Equal",
    "Less": "Less",
    "LessEqual": "LessOrEqual",
    "Greater": "Greater",
    "GreaterEqual": "GreaterOrEqual",
    "LogicalAnd": "And",
    "LogicalOr": "Or",
    "LogicalNot": "Not",
    "Exp": "Exp",
    "Log": "Log",
    "Tanh": "Tanh",
    "Sigmoid": "Sigmoid",
    "Sqrt": "Sqrt",
    "Neg": "Neg",
    "Abs": "Abs",
    "Erf": "Erf",
    "Sin": "Sin",
    "Cos": "Cos",
    "Tan": "Tan",
    "Asin": "Asin",
    "ACos": "Acos",
    "Atan": "Atan",
    "Sinh": "Sinh",
    "Cosh": "Cosh",
    "Asinh": "Asinh",
    "Acosh": "Acosh",
    "Atanh": "Atanh",
    "Floor": "Floor",
    "Ceil": "Ceil",
    "Sign": "Sign",
    "Round": "Round",
    "Select": "Where",
}
_REDUCE_ATTR = {"ReduceMax": "ReduceMax", "ReduceMin": "ReduceMin", "ReduceProd": "ReduceProd"}


def _onnx():
    try:
        import onnx
    except ImportError:
        raise ImportError("export(file_format='ONNX') needs the 'onnx' package: pip install sporax[onnx]") from None
    return onnx


class _Onnx:
    def __init__(self, onnx: Any) -> None:
        self.onnx = onnx
        self.h = onnx.helper
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self.names: dict[int, str] = {}
        self.tuples: dict[int, list[Any]] = {}  # MakeTuple outputs: their items (ONNX ops take them directly)
        self.n = 0

    def fresh(self, hint: str) -> str:
        self.n += 1
        return f"{hint}_{self.n}"

    def const(self, value: Any, dtype: Any = None) -> str:
        arr = np.asarray(value, dtype=dtype)
        name = self.fresh("const")
        self.inits.append(self.onnx.numpy_helper.from_array(arr, name))
        return name

    def ints(self, values: Any) -> str:
        return self.const(np.asarray(values, dtype=np.int64).reshape(-1))

    def ref(self, x: Any) -> str:
        if isinstance(x, np.ndarray):
            return self.const(x)
        return self.names[x.id]

    def op(self, op_type: str, inputs: list[str], out: str | None = None, **attrs: Any) -> str:
        out = out or self.fresh(op_type.lower())
        self.nodes.append(self.h.make_node(op_type, inputs, [out], **attrs))
        return out


def _elem_type(dtype: Any) -> int:
    from ._mindir_write import DATA_TYPES  # ONNX's TensorProto data types have MindIR's numbers

    return DATA_TYPES[np.dtype(dtype)]


def _conv(g: _Onnx, n: MsNode, x: str, w: str) -> str:
    a = n.attrs or {}
    t, b, left, right = a["pad"]
    return g.op(
        "Conv",
        [x, w],
        kernel_shape=list(a["kernel_size"]),
        pads=[t, left, b, right],
        strides=list(a["stride"][2:]),
        dilations=list(a["dilation"][2:]),
        group=int(a["group"]),
    )


def _conv_transpose(g: _Onnx, n: MsNode) -> str:
    a = n.attrs or {}
    t, b, left, right = a["pad"]
    return g.op(
        "ConvTranspose",
        [g.ref(n.inputs[0]), g.ref(n.inputs[1])],
        kernel_shape=list(a["kernel_size"]),
        pads=[t, left, b, right],
        strides=list(a["stride"][2:]),
        dilations=list(a["dilation"][2:]),
        output_shape=list(n.inputs[2][2:]),
    )


def _max_pool(g: _Onnx, n: MsNode, x: str) -> str:
    a = n.attrs or {}
    kw: dict[str, Any] = {"kernel_shape": list(a["kernel_size"][2:]), "strides": list(a["strides"][2:])}
    if a["pad_mode"] == "SAME":
        kw["auto_pad"] = "SAME_UPPER"
    return g.op("MaxPool", [x], **kw)


def _lower(g: _Onnx, n: MsNode) -> str:
    op, ins = n.op, n.inputs
    if op in _SAME:
        arity = 3 if op == "Select" else 1 if op in _UNARY_SAME else 2
        return g.op(_SAME[op], [g.ref(v) for v in ins[:arity]])
    handler = _HANDLERS.get(op)
    if handler is None:
        raise TypeError(f"export to ONNX: the MindSpore operator '{op}' has no ONNX operator mapped.")
    return handler(g, n)


_UNARY_SAME = {k for k in _SAME if k not in ("Add", "Sub", "Mul", "Div", "Maximum", "Minimum", "Pow", "Equal",
                                               "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd",
                                               "LogicalOr", "Select")}  # fmt: skip


def _h_matmul(g: _Onnx, n: MsNode) -> str:
    """MatMul / BatchMatMul with MindSpore's transpose flags (a Transpose of the last two axes first)."""
    operands = []
    for v, flag in zip(n.inputs[:2], n.inputs[2:4], strict=True):
        ref = g.ref(v)
        if flag:
            rank = len(np.shape(v))
            ref = g.op("Transpose", [ref], perm=[*range(rank - 2), rank - 1, rank - 2])
        operands.append(ref)
    return g.op("MatMul", operands)


def _h_reshape(g: _Onnx, n: MsNode) -> str:
    return g.op("Reshape", [g.ref(n.inputs[0]), g.ints(n.out.shape)])


def _h_transpose(g: _Onnx, n: MsNode) -> str:
    return g.op("Transpose", [g.ref(n.inputs[0])], perm=list(n.inputs[1]))


def _h_broadcast(g: _Onnx, n: MsNode) -> str:
    return g.op("Expand", [g.ref(n.inputs[0]), g.ints(n.inputs[1])])


def _h_reduce(g: _Onnx, n: MsNode) -> str:
    x, axes = g.ref(n.inputs[0]), list(n.inputs[1])
    if n.op == "ReduceSum":
        return g.op("ReduceSum", [x, g.ints(axes)], keepdims=0)
    if n.op in ("ReduceAll", "ReduceAny"):
        xi = g.op("Cast", [x], to=_elem_type(np.int32))
        r = g.op("ReduceMin" if n.op == "ReduceAll" else "ReduceMax", [xi], axes=axes, keepdims=0)
        return g.op("Cast", [r], to=_elem_type(np.bool_))
    return g.op(_REDUCE_ATTR[n.op], [x], axes=axes, keepdims=0)


def _h_argmax(g: _Onnx, n: MsNode) -> str:
    r = g.op("ArgMax" if n.op == "Argmax" else "ArgMin", [g.ref(n.inputs[0])], axis=int(n.inputs[1]), keepdims=0)
    return g.op("Cast", [r], to=_elem_type(n.out.dtype))


def _h_cast(g: _Onnx, n: MsNode) -> str:
    dtype = n.inputs[1].dtype if isinstance(n.inputs[1], TypeId) else n.out.dtype
    return g.op("Cast", [g.ref(n.inputs[0])], to=_elem_type(dtype))


def _h_concat(g: _Onnx, n: MsNode) -> str:
    items = g.tuples[n.inputs[0].id]
    return g.op("Concat", [g.ref(v) for v in items], axis=int(n.inputs[1]))


def _h_slice(g: _Onnx, n: MsNode) -> str:
    x, begin = g.ref(n.inputs[0]), list(n.inputs[1])
    if n.op == "Slice":
        end = [b + s for b, s in zip(begin, n.inputs[2], strict=True)]
        steps = [1] * len(begin)
    else:
        end, steps = list(n.inputs[2]), list(n.inputs[3])
    axes = list(range(len(begin)))
    return g.op("Slice", [x, g.ints(begin), g.ints(end), g.ints(axes), g.ints(steps)])


def _h_reverse(g: _Onnx, n: MsNode) -> str:
    dims = list(n.inputs[1])
    big = np.iinfo(np.int64).max
    return g.op(
        "Slice",
        [
            g.ref(n.inputs[0]),
            g.ints([-1] * len(dims)),
            g.ints([-big] * len(dims)),
            g.ints(dims),
            g.ints([-1] * len(dims)),
        ],
    )


def _h_pad(g: _Onnx, n: MsNode) -> str:
    pads = (n.attrs or {})["paddings"]
    return g.op("Pad", [g.ref(n.inputs[0]), g.ints([p[0] for p in pads] + [p[1] for p in pads])])


def _h_avg_pool(g: _Onnx, n: MsNode) -> str:
    return g.op("AveragePool", [g.ref(n.inputs[0])], kernel_shape=list(n.inputs[1]), strides=list(n.inputs[2]))


def _h_gather(g: _Onnx, n: MsNode) -> str:
    return g.op("Gather", [g.ref(n.inputs[0]), g.ref(n.inputs[1])], axis=int(n.inputs[2]))


def _h_gather_d(g: _Onnx, n: MsNode) -> str:
    return g.op("GatherElements", [g.ref(n.inputs[0]), g.ref(n.inputs[2])], axis=int(n.inputs[1]))


def _h_cumsum(g: _Onnx, n: MsNode) -> str:
    axis = g.const(np.asarray(n.inputs[1], np.int64))
    return g.op("CumSum", [g.ref(n.inputs[0]), axis], exclusive=int(n.inputs[2]), reverse=int(n.inputs[3]))


def _h_rsqrt(g: _Onnx, n: MsNode) -> str:
    return g.op("Reciprocal", [g.op("Sqrt", [g.ref(n.inputs[0])])])


def _h_square(g: _Onnx, n: MsNode) -> str:
    x = g.ref(n.inputs[0])
    return g.op("Mul", [x, x])


def _h_not_equal(g: _Onnx, n: MsNode) -> str:
    return g.op("Not", [g.op("Equal", [g.ref(n.inputs[0]), g.ref(n.inputs[1])])])


def _one(g: _Onnx, n: MsNode) -> str:
    return g.const(np.ones((), n.out.dtype))


def _h_erfc(g: _Onnx, n: MsNode) -> str:
    return g.op("Sub", [_one(g, n), g.op("Erf", [g.ref(n.inputs[0])])])


def _h_log1p(g: _Onnx, n: MsNode) -> str:
    return g.op("Log", [g.op("Add", [g.ref(n.inputs[0]), _one(g, n)])])


def _h_expm1(g: _Onnx, n: MsNode) -> str:
    return g.op("Sub", [g.op("Exp", [g.ref(n.inputs[0])]), _one(g, n)])


def _h_mod(g: _Onnx, n: MsNode) -> str:
    fmod = int(np.issubdtype(n.out.dtype, np.floating))
    return g.op("Mod", [g.ref(n.inputs[0]), g.ref(n.inputs[1])], fmod=fmod)


def _h_is_finite(g: _Onnx, n: MsNode) -> str:
    x = g.ref(n.inputs[0])
    return g.op("Not", [g.op("Or", [g.op("IsInf", [x]), g.op("IsNaN", [x])])])


_HANDLERS: dict[str, Callable[[_Onnx, MsNode], str]] = {
    "Conv2D": lambda g, n: _conv(g, n, g.ref(n.inputs[0]), g.ref(n.inputs[1])),
    "MaxPool": lambda g, n: _max_pool(g, n, g.ref(n.inputs[0])),
    "Conv2DTranspose": _conv_transpose,
    "MatMul": _h_matmul,
    "BatchMatMul": _h_matmul,
    "Reshape": _h_reshape,
    "Transpose": _h_transpose,
    "BroadcastTo": _h_broadcast,
    "ReduceSum": _h_reduce,
    "ReduceMax": _h_reduce,
    "ReduceMin": _h_reduce,
    "ReduceProd": _h_reduce,
    "ReduceAll": _h_reduce,
    "ReduceAny": _h_reduce,
    "Argmax": _h_argmax,
    "Argmin": _h_argmax,
    "Cast": _h_cast,
    "Concat": _h_concat,
    "Slice": _h_slice,
    "StridedSlice": _h_slice,
    "ReverseV2": _h_reverse,
    "Pad": _h_pad,
    "AvgPool": _h_avg_pool,
    "Gather": _h_gather,
    "GatherD": _h_gather_d,
    "CumSum": _h_cumsum,
    "Rsqrt": _h_rsqrt,
    "Square": _h_square,
    "NotEqual": _h_not_equal,
    "Erfc": _h_erfc,
    "Log1p": _h_log1p,
    "Expm1": _h_expm1,
    "Mod": _h_mod,
    "IsFinite": _h_is_finite,
}


def graph_to_onnx(graph: MsGraph, param_names: list[str], param_values: list[np.ndarray], name: str) -> Any:
    onnx = _onnx()
    g = _Onnx(onnx)
    for var, pname, value in zip(graph.params, param_names, param_values, strict=True):
        g.inits.append(onnx.numpy_helper.from_array(np.ascontiguousarray(value), pname))
        g.names[var.id] = pname
    inputs = []
    for i, var in enumerate(graph.inputs):
        iname = f"x{i}" if len(graph.inputs) > 1 else "x"
        inputs.append(onnx.helper.make_tensor_value_info(iname, _elem_type(var.dtype), list(var.shape)))
        g.names[var.id] = iname
    for node in graph.nodes:
        if node.op == "MakeTuple":
            g.tuples[node.out.id] = node.inputs
            continue
        g.names[node.out.id] = _lower(g, node)
    outputs = []
    for i, out in enumerate(graph.outputs):
        oname = f"out{i}"
        src = g.ref(out)
        g.op("Identity", [src], out=oname)
        outputs.append(onnx.helper.make_tensor_value_info(oname, _elem_type(out.dtype), list(np.shape(out))))
    model = onnx.helper.make_model(
        onnx.helper.make_graph(g.nodes, name, inputs, outputs, initializer=g.inits),
        opset_imports=[onnx.helper.make_opsetid("", OPSET)],
        producer_name="sporax",
    )
    onnx.checker.check_model(model)
    return model


def onnx_bytes(net: Any, inputs: tuple[Any, ...]) -> bytes:
    """The serialized ONNX model of ``net`` traced on ``inputs``."""
    from ..ops._lowering.mindir import to_mindspore
    from ._export import _graph_name, trace_network

    _onnx()  # fail before tracing when the extra is missing
    prog, names, values = trace_network(net, inputs)
    return graph_to_onnx(to_mindspore(prog), names, values, _graph_name(net)).SerializeToString()
