"""The protobuf layer: MindSpore's checkpoint.proto / mind_ir.proto compiled by tools/gen_protos.py, and the
.ckpt wire codec on top of checkpoint_pb2 (its writer byte-identical to protobuf's serialization, its reader
agreeing with protobuf's parse)."""

from __future__ import annotations

import numpy as np
import pytest

from sporax.common._proto import checkpoint_pb2, mind_ir_pb2
from sporax.train import _checkpoint_pb as pb


def _message(tag, dims, ttype, content):
    msg = checkpoint_pb2.Checkpoint()
    value = msg.value.add()
    value.tag = tag
    value.tensor.dims.extend(dims)
    value.tensor.tensor_type = ttype
    value.tensor.tensor_content = content
    return msg


@pytest.mark.parametrize(
    "tag, dims, n",
    [("w", [2, 3], 24), ("scalar", [], 4), ("empty", [0], 0), ("x" * 200, [300, 1000], 1_200_000), ("neg", [-1], 3)],
)
def test_encode_value_is_protobufs_serialization(tag, dims, n):
    content = np.random.default_rng(0).integers(0, 256, n, dtype=np.uint8).tobytes()
    expected = _message(tag, dims, "Float32", content).SerializeToString()
    assert pb.encode_value(tag, dims, "Float32", n) + content == expected


def test_reader_agrees_with_protobuf_parse():
    rng = np.random.default_rng(1)
    data = b""
    for i in range(5):
        arr = rng.standard_normal((i + 1, 3)).astype(np.float32)
        data += _message(f"p{i}", list(arr.shape), "Float32", arr.tobytes()).SerializeToString()
    parsed = checkpoint_pb2.Checkpoint.FromString(data)
    ours = list(pb.iter_values(data))
    assert [v.tag for v in parsed.value] == [r.tag for r in ours]
    for v, r in zip(parsed.value, ours, strict=True):
        assert tuple(v.tensor.dims) == r.tensor.dims
        assert v.tensor.tensor_type == r.tensor.tensor_type
        assert v.tensor.tensor_content == bytes(r.tensor.content)


def test_truncated_bytes_raise_format_error():
    data = _message("w", [4], "Float32", b"\0" * 16).SerializeToString()
    with pytest.raises(pb.CheckpointFormatError, match="truncated"):
        list(pb.iter_values(data[:-3]))


def test_mind_ir_schema_is_mindspores():
    model = mind_ir_pb2.ModelProto(ir_version="1.1", producer_name="MindSpore", mind_ir_version=3)
    node = model.graph.node.add(op_type="REF::ReLU:1", name="n")
    node.input.append("x")
    prim = model.primitives.add(name="ReLU:1", op_type="ReLU")
    prim.prim_type = mind_ir_pb2.PrimitiveProto.PRIMITIVE_FUNCTION
    again = mind_ir_pb2.ModelProto.FromString(model.SerializeToString())
    assert again.graph.node[0].op_type == "REF::ReLU:1"
    assert mind_ir_pb2.TensorProto.FLOAT == 1 and mind_ir_pb2.AttributeProto.TENSORS == 19
    # a private descriptor pool: MindSpore's own generated modules may load in the same process
    from google.protobuf import descriptor_pool

    assert model.DESCRIPTOR.file.pool is not descriptor_pool.Default()
