"""Writing MindIR: a network traced and mapped to MindSpore operators (``ops/_lowering/mindir.py``),
serialized as MindSpore's ``mind_ir.ModelProto`` (``common/_proto/mind_ir_pb2``) in the form MindSpore 2.10's
``export`` writes and its ``load`` reads: one graph, the weights as graph parameters (``ref_key`` = the
Parameter's name, raw little-endian data), ``REF::<Op>:<n>`` nodes referring to ``PrimitiveProto`` entries,
scalar arguments as ``Constant`` nodes, an output ``shape`` attribute on every node."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._engine._export import Var
from ..common._proto import mind_ir_pb2
from ..ops._lowering.mindir import MsGraph, MsNode, TypeId

pb: Any = mind_ir_pb2  # protoc's module builds its classes at run time (mypy sees none)
AttributeProto = Any  # pb.AttributeProto (for annotations)
ModelProto = Any  # pb.ModelProto (for annotations)
TensorProto = Any  # pb.TensorProto (for annotations)

__all__ = ["graph_to_model", "DATA_TYPES", "NP_TYPES"]

_A = pb.AttributeProto
_T = pb.TensorProto

DATA_TYPES: dict[np.dtype, int] = {
    np.dtype(np.float32): _T.FLOAT,
    np.dtype(np.uint8): _T.UINT8,
    np.dtype(np.int8): _T.INT8,
    np.dtype(np.uint16): _T.UINT16,
    np.dtype(np.int16): _T.INT16,
    np.dtype(np.int32): _T.INT32,
    np.dtype(np.int64): _T.INT64,
    np.dtype(np.bool_): _T.BOOL,
    np.dtype(np.float16): _T.FLOAT16,
    np.dtype(np.float64): _T.DOUBLE,
    np.dtype(np.uint32): _T.UINT32,
    np.dtype(np.uint64): _T.UINT64,
}
NP_TYPES: dict[int, np.dtype] = {v: k for k, v in DATA_TYPES.items()} | {_T.FLOAT64: np.dtype(np.float64)}

MINDIR_VERSION = 3  # MindSpore 2.10 writes mind_ir_version 3 (IR_VERSION_WITH_SCALAR_GRAPH_HOLDER)


def _data_type(dtype: Any) -> int:
    try:
        return DATA_TYPES[np.dtype(dtype)]
    except KeyError:
        raise TypeError(f"export to MINDIR: the dtype {np.dtype(dtype)} has no MindIR data type.") from None


def _tensor_meta(t: TensorProto, shape: tuple[int, ...], dtype: Any) -> None:
    t.dims.extend(int(d) for d in shape)
    t.data_type = _data_type(dtype)


def _set_value(a: AttributeProto, v: Any) -> None:
    """An attribute or a Constant's value, typed as MindSpore writes it."""
    if isinstance(v, TypeId):
        a.type, a.i = _A.INT64, v.number
    elif isinstance(v, (bool, np.bool_)):
        a.type, a.i = _A.BOOL, int(v)
    elif isinstance(v, (int, np.integer)):
        a.type, a.i = _A.INT64, int(v)
    elif isinstance(v, (float, np.floating)):
        a.type, a.f = _A.FLOAT, float(v)
    elif isinstance(v, str):
        a.type, a.s = _A.STRING, v.encode()
    elif isinstance(v, list):  # MindSpore's input_names / output_names: a LIST of STRING
        a.type = _A.LIST
        for item in v:
            a.values.add(type=_A.STRING, strings=[item.encode()])
    elif isinstance(v, tuple):
        a.type = _A.TUPLE
        for item in v:
            if isinstance(item, tuple):
                _set_value(a.values.add(), item)
            else:
                a.values.add(type=_A.INT64, ints=[int(item)])
    elif isinstance(v, np.ndarray):
        a.type = _A.TENSORS
        t = a.tensors.add(name="value0")
        _tensor_meta(t, v.shape, v.dtype)
        t.raw_data = np.ascontiguousarray(v).astype(v.dtype.newbyteorder("<"), copy=False).tobytes()
    else:
        raise TypeError(f"export to MINDIR: cannot write the constant {v!r}.")


def _shape_attr(a: AttributeProto, out: Any) -> None:
    a.name = "shape"
    if out.shape and isinstance(out.shape[0], tuple):  # a MakeTuple
        a.type = _A.TUPLE
        for shape in out.shape:
            item = a.values.add(type=_A.TENSORS)
            _tensor_meta(item.tensors.add(), shape, out.dtype)
        a.seq_info.is_dyn_len = False
        return
    a.type = _A.TENSORS
    _tensor_meta(a.tensors.add(), out.shape, out.dtype)


class _Writer:
    def __init__(self, model: ModelProto, graph_name: str) -> None:
        self.model = model
        self.g = model.graph
        self.g.name = graph_name
        self.names: dict[int, str] = {}
        self.n_const = 0
        self.n_prim = 0

    def name_of(self, x: Any) -> str:
        if isinstance(x, MsNode):
            x = x.out
        if hasattr(x, "id") and x.id in self.names:
            return self.names[x.id]
        return self.constant(x)

    def constant(self, v: Any) -> str:
        self.n_const += 1
        name = f"ValueNode_{self.n_const}"
        node = self.g.node.add(name=name, op_type="Constant")
        node.output.append(name)
        a = node.attribute.add(name="value")
        _set_value(a, v)
        return name

    def primitive(self, node: MsNode) -> str:
        self.n_prim += 1
        name = f"{node.op}:{self.n_prim}"
        prim = self.model.primitives.add(name=name, op_type=node.op, instance_name="")
        if node.attrs is None:
            prim.prim_type = pb.PrimitiveProto.PRIMITIVE_FUNCTION
        else:
            prim.prim_type = pb.PrimitiveProto.PRIMITIVE
            for key, value in node.attrs.items():
                _set_value(prim.attribute.add(name=key), value)
        return name

    def node(self, node: MsNode) -> None:
        inputs = [self.name_of(x) for x in node.inputs]
        out_name = f"{self.g.name}:CNode_{node.out.id}"
        proto = self.g.node.add(name=out_name, op_type=f"REF::{self.primitive(node)}")
        proto.input.extend(inputs)
        proto.output.append(out_name)
        _shape_attr(proto.attribute.add(), node.out)
        self.names[node.out.id] = out_name


def graph_to_model(
    graph: MsGraph, param_names: list[str], param_values: list[np.ndarray], graph_name: str
) -> ModelProto:
    """The ModelProto of ``graph``; ``param_names`` / ``param_values`` are the weights, in ``graph.params``
    order."""
    model = pb.ModelProto(ir_version="1.1", producer_name="MindSpore", model_version="2.10.0", little_endian=True)
    model.mind_ir_version = MINDIR_VERSION
    w = _Writer(model, graph_name)
    for var, name, value in zip(graph.params, param_names, param_values, strict=True):
        full = f"{graph_name}:{name}"
        t = w.g.parameter.add(name=full, ref_key=name, compression_type=_T.NO_COMPRESSION)
        arr = np.ascontiguousarray(value)
        _tensor_meta(t, arr.shape, arr.dtype)
        t.raw_data = arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()
        w.names[var.id] = full
    for i, var in enumerate(graph.inputs):
        name = f"{graph_name}:x{i}" if len(graph.inputs) > 1 else f"{graph_name}:x"
        info = w.g.input.add(name=name)
        _tensor_meta(info.tensor.add(), var.shape, var.dtype)
        w.names[var.id] = name
    for node in graph.nodes:
        w.node(node)
    outputs = graph.outputs
    if len(outputs) == 1:
        out = outputs[0]
        info = w.g.output.add(name=w.name_of(out))
        _tensor_meta(info.tensor.add(), np.shape(out), out.dtype)
        return model
    shapes = tuple(tuple(np.shape(o)) for o in outputs)
    tup = MsNode("MakeTuple", list(outputs), Var(-1, shapes, outputs[0].dtype))
    w.node(tup)
    info = w.g.output.add(name=w.names[tup.out.id], denotation="Tuple")
    info.attr_info.type = _A.TUPLE
    for o in outputs:
        item = info.attr_info.values.add(type=_A.TENSORS)
        _tensor_meta(item.tensors.add(), np.shape(o), o.dtype)
    return model


# MindSpore saves the weights apart from the graph once they pass 1 GiB (its TOTAL_SAVE, in KiB).
SPLIT_BYTES = 1024 * 1024 * 1024
_DATA_HEADER = 64  # the data file starts with 64 bytes: byte 0 = 1 on a little-endian writer


def move_weights_out(model: ModelProto, folder: str, prefix: str) -> str:
    """MindSpore's split form for large models: every parameter's bytes go to ``<prefix>_variables/data_0``
    (64-byte header, each tensor padded to 64 bytes, in name order) and the parameter refers to them with
    ``external_data`` (location relative to the graph file's folder, offset, length). Returns the data
    file's path; the caller writes the graph as ``<prefix>_graph.mindir``."""
    import os
    import sys

    location = os.path.join(f"{prefix}_variables", "data_0")
    path = os.path.join(folder, location)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    if os.path.exists(path):
        os.chmod(path, 0o600)
    with open(path, "wb") as f:
        f.write((sys.byteorder == "little").to_bytes(1, "little") + bytes(_DATA_HEADER - 1))
        offset = _DATA_HEADER
        for param in sorted(model.graph.parameter, key=lambda p: p.name.split(":", 1)[-1]):
            raw = param.raw_data
            pad = -len(raw) % 64
            f.write(raw + bytes(pad))
            param.ClearField("raw_data")
            param.external_data.location = location
            param.external_data.offset = offset
            param.external_data.length = len(raw)
            offset += len(raw) + pad
    os.chmod(path, 0o400)
    return path
