"""Reading MindIR: a ``mind_ir.ModelProto`` (MindSpore 2.10's ``export``, or sporax's) parsed with
``common/_proto/mind_ir_pb2`` into a :class:`MindIRGraph` that runs on sporax's operators (``_mindir_ops``).

Only data is read: protobuf messages, and tensors as NumPy arrays of the declared dtype and shape (their
sizes checked). A truncated or corrupt file, an unknown operator, control flow (sub-graphs), encryption and
compression raise ``ValueError`` / ``RuntimeError`` naming the file and the reason.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np
from google.protobuf.message import DecodeError

from ..common._proto import mind_ir_pb2
from ..nn.graph_cell import FuncGraph
from ._mindir_write import NP_TYPES

pb: Any = mind_ir_pb2  # protoc's module builds its classes at run time (mypy sees none)
AttributeProto = Any  # pb.AttributeProto (for annotations)
ModelProto = Any  # pb.ModelProto (for annotations)
TensorProto = Any  # pb.TensorProto (for annotations)

__all__ = ["MindIRGraph", "parse_model", "read_mindir", "MONAD"]

_A = pb.AttributeProto


class _Monad:
    """MindSpore's UMonad / IOMonad (side-effect ordering tokens): no value here."""

    def __repr__(self) -> str:
        return "Monad"


MONAD = _Monad()


class MindIRError(ValueError):
    """The MindIR file cannot be read."""


def parse_model(data: bytes, where: str) -> ModelProto:
    model = pb.ModelProto()
    try:
        model.ParseFromString(data)
    except DecodeError as err:
        raise MindIRError(
            f"For 'load', the MindIR file {where} is truncated or corrupted and cannot be parsed ({err}). If it was "
            "exported with 'enc_key', it is encrypted, which sporax does not support."
        ) from None
    if not model.HasField("graph") or not model.graph.node:
        raise MindIRError(f"For 'load', the file {where} holds no MindIR graph (is it a MindIR file?).")
    return model


def _tensor(t: TensorProto, where: str, folder: str | None = None) -> np.ndarray:
    dtype = NP_TYPES.get(int(t.data_type))
    if dtype is None:
        raise MindIRError(f"For 'load', the tensor '{t.name}' in {where} has the unsupported data type {t.data_type}.")
    if t.compression_type not in (pb.TensorProto.NO_COMPRESSION,) and t.HasField("compression_type"):
        raise MindIRError(f"For 'load', the tensor '{t.name}' in {where} is compressed, which sporax does not support.")
    shape = tuple(int(d) for d in t.dims)
    if any(d < 0 for d in shape):
        raise MindIRError(f"For 'load', the tensor '{t.name}' in {where} has a dynamic shape {shape}.")
    if t.HasField("external_data"):
        raw = _external(t, where, folder)
    else:
        raw = t.raw_data
    need = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) != need:
        raise MindIRError(
            f"For 'load', the tensor '{t.name}' in {where} has {len(raw)} bytes of data, but its shape {list(shape)} "
            f"and dtype {dtype} need {need} (truncated or corrupted file?)."
        )
    return np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype).reshape(shape)


def _external(t: TensorProto, where: str, folder: str | None) -> bytes:
    ext = t.external_data
    if folder is None:
        raise MindIRError(f"For 'load', the tensor '{t.name}' in {where} refers to external data.")
    path = os.path.realpath(os.path.join(folder, ext.location))
    if not path.startswith(os.path.realpath(folder) + os.sep):
        raise MindIRError(f"For 'load', the external data '{ext.location}' of {where} lies outside its folder.")
    try:
        with open(path, "rb") as f:
            f.seek(int(ext.offset))
            return f.read(int(ext.length))
    except OSError as err:
        raise MindIRError(f"For 'load', the external data of '{t.name}' cannot be read: {err}") from None


def attr_value(a: AttributeProto, where: str = "the file") -> Any:
    """An attribute or Constant value as Python data."""
    kind = a.type
    if kind in (_A.INT64, _A.INT32, _A.INT16, _A.INT8, _A.UINT8, _A.UINT16, _A.UINT32, _A.UINT64):
        return int(a.i) if a.HasField("i") or not a.ints else int(a.ints[0])
    if kind == _A.BOOL:
        return bool(a.i) if a.HasField("i") or not a.ints else bool(a.ints[0])
    if kind in (_A.FLOAT, _A.FLOAT16, _A.BFLOAT16):
        return float(a.f) if a.HasField("f") or not a.floats else float(a.floats[0])
    if kind == _A.DOUBLE:
        return float(a.d) if a.HasField("d") or not a.doubles else float(a.doubles[0])
    if kind == _A.STRING:
        return (a.s if a.HasField("s") or not a.strings else a.strings[0]).decode("utf-8", "replace")
    if kind in (_A.TUPLE, _A.LIST):
        return tuple(attr_value(v, where) for v in a.values)
    if kind == _A.TENSORS:
        return _tensor(a.tensors[0], where)
    if kind == _A.TENSOR:
        return _tensor(a.t, where)
    if kind in (_A.UMONAD, _A.IOMONAD):
        return MONAD
    if kind == _A.NONE:
        return None
    raise MindIRError(
        f"For 'load', the value '{a.name}' in {where} has the attribute type "
        f"{_A.AttributeType.Name(kind) if kind in _A.AttributeType.values() else kind}, which sporax does not read."
    )


@dataclass
class _Node:
    op: str
    inputs: list[str]
    output: str
    attrs: dict[str, Any]
    function: bool  # a primitive function (scalar arguments are inputs) rather than a primitive with attributes


class MindIRGraph(FuncGraph):
    """The main graph of a MindIR file, run with sporax's operators."""

    def __init__(self, model: ModelProto, where: str, folder: str | None = None) -> None:
        g = model.graph
        self.where = where
        prims = {p.name: p for p in model.primitives}
        graphs = {f.name for f in model.functions}
        self._params = [
            (t.ref_key or t.name.rsplit(":", 1)[-1], t.name, _tensor(t, where, folder)) for t in g.parameter
        ]
        self.input_names = [i.name for i in g.input]
        self.input_specs = [
            (tuple(int(d) for d in i.tensor[0].dims), NP_TYPES.get(int(i.tensor[0].data_type))) if i.tensor else None
            for i in g.input
        ]
        self.consts: dict[str, Any] = {}
        self.nodes: list[_Node] = []
        for n in g.node:
            if n.op_type == "Constant":
                self.consts[n.output[0]] = attr_value(n.attribute[0], where)
                continue
            self.nodes.append(self._node(n, prims, graphs))
        if not g.output:
            raise MindIRError(f"For 'load', the MindIR graph in {where} has no output.")
        self.output_name = g.output[0].name

    def _node(self, n: Any, prims: dict[str, Any], graphs: set[str]) -> _Node:
        op_type = n.op_type
        if op_type.startswith("REF::"):
            ref = op_type[5:]
            prim = prims.get(ref)
            if prim is None:
                what = "a sub-graph (control flow)" if ref in graphs else "an unknown primitive"
                raise MindIRError(
                    f"For 'load', the node '{n.name}' in {self.where} calls {what} '{ref}'; sporax loads MindIR "
                    "graphs without control flow."
                )
            attrs = {a.name: attr_value(a, self.where) for a in prim.attribute}
            function = prim.prim_type == pb.PrimitiveProto.PRIMITIVE_FUNCTION
            op = prim.op_type
        else:
            attrs = {a.name: attr_value(a, self.where) for a in n.attribute if a.name != "shape"}
            function, op = False, op_type
        return _Node(op, list(n.input), n.output[0] if n.output else n.name, attrs, function)

    def parameters(self) -> list[tuple[str, np.ndarray]]:
        return [(key, value) for key, _, value in self._params]

    def run(self, params: dict[str, Any], *inputs: Any) -> Any:
        from ._mindir_ops import run_node

        if len(inputs) != len(self.input_names):
            raise ValueError(
                f"For 'GraphCell', the graph loaded from {self.where} takes {len(self.input_names)} inputs, "
                f"but got {len(inputs)}."
            )
        env: dict[str, Any] = dict(self.consts)
        for key, full, _ in self._params:
            env[full] = params[key]
        env.update(zip(self.input_names, inputs, strict=True))
        for node in self.nodes:
            try:
                args = [env[name] for name in node.inputs]
            except KeyError as err:
                raise MindIRError(
                    f"For 'load', the node '{node.output}' in {self.where} uses '{err.args[0]}', which is not defined "
                    "before it (corrupted file?)."
                ) from None
            env[node.output] = run_node(node.op, args, node.attrs, node.function)
        return env[self.output_name]


def read_mindir(file_name: str) -> MindIRGraph:
    """Parse the MindIR file ``file_name``."""
    try:
        with open(file_name, "rb") as f:
            data = f.read()
    except OSError as err:
        raise ValueError(f"For 'load', the MindIR file {file_name} cannot be read: {err}") from None
    model = parse_model(data, file_name)
    try:
        return MindIRGraph(model, file_name, os.path.dirname(os.path.realpath(file_name)))
    except MindIRError:
        raise
    except (TypeError, KeyError, IndexError, AttributeError, UnicodeError) as err:  # e.g. a name that is not UTF-8
        raise MindIRError(
            f"For 'load', the MindIR file {file_name} is truncated or corrupted: its graph is malformed ({err!r})."
        ) from None
