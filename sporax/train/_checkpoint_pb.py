"""MindSpore's ``.ckpt`` wire format, through the protobuf modules generated from its ``checkpoint.proto``.

The schema (``common/_proto/checkpoint.proto``, proto2) is MindSpore's, compiled by ``tools/gen_protos.py``::

    message Checkpoint { message Value { required string tag = 1;
                                         oneof value { TensorProto tensor = 2; MapTensorProto maptensor = 3; } }
                         repeated Value value = 1; }
    message TensorProto { repeated int64 dims = 1; required string tensor_type = 2;
                          required bytes tensor_content = 3; }
    message MapTensorProto { repeated TensorProto tensor = 1; }

MindSpore writes one serialized ``Checkpoint`` holding a single ``Value`` per parameter (or per slice of a
large parameter) and concatenates them; concatenated messages parse as one ``Checkpoint``.

Writing serializes each ``Value`` with ``checkpoint_pb2`` except the tensor bytes themselves: the message is
built with an empty ``tensor_content`` and the content's length prefix is patched in, so the caller writes the
parameter's memory straight to the file instead of protobuf copying it twice (into the message, then into the
serialized string). ``bench/bench_ckpt_codec.py`` measures the difference (a 200 MB checkpoint); the output is
byte-identical to ``Checkpoint.SerializeToString()`` of the whole message, which the tests check.

Reading keeps a small wire-format walker of its own, the fast path for the raw tensor bytes: each tensor's
content is a zero-copy ``memoryview`` slice of the file's buffer. protobuf's Python runtime (upb) would parse
the file into its arena and hand every ``tensor_content`` out as a fresh ``bytes`` copy: on the 200 MB
benchmark that made ``load_checkpoint`` 1.58x slower (308 ms against 195 ms, same run, one core). The walker
checks every length, skips unknown fields of every wire type, and raises :class:`CheckpointFormatError` for
anything malformed: it only reads bytes, never runs code. The tests check it against ``checkpoint_pb2``'s
parse of the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..common._proto import checkpoint_pb2 as _checkpoint_pb2

__all__ = ["CheckpointFormatError", "TensorRecord", "ValueRecord", "encode_value", "iter_values"]

checkpoint_pb2: Any = _checkpoint_pb2  # protoc's module builds its classes at run time (mypy sees none)

_VARINT, _I64, _LEN, _SGROUP, _EGROUP, _I32 = 0, 1, 2, 3, 4, 5  # protobuf's wire types
_MAX_DEPTH = 32


class CheckpointFormatError(ValueError):
    """The bytes are not a well-formed MindSpore checkpoint."""


@dataclass(frozen=True)
class TensorRecord:
    """A decoded ``TensorProto``."""

    dims: tuple[int, ...]
    tensor_type: str
    content: memoryview


@dataclass(frozen=True)
class ValueRecord:
    """A decoded ``Checkpoint.Value``: ``tensor`` is set, or ``map_tensors`` (a MapTensorProto's tensors)."""

    tag: str
    tensor: TensorRecord | None
    map_tensors: tuple[TensorRecord, ...] | None


# ------------------------------------------------------------------ encoding
def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if not n:
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


def _key(field: int, wire: int) -> bytes:
    return _varint((field << 3) | wire)


def _len_field(field: int, length: int) -> bytes:
    """The key and length prefix of a length-delimited field of ``length`` bytes."""
    return _key(field, _LEN) + _varint(length)


def encode_value(tag: str, dims: Sequence[int], tensor_type: str, content_len: int) -> bytes:
    """The bytes of ``Checkpoint{value: [Value{tag, tensor: TensorProto{dims, tensor_type, content}}]}`` up to
    (not including) the ``content_len`` bytes of tensor content, which the caller writes right after.

    The message is serialized by ``checkpoint_pb2`` with an empty content; the three enclosing length prefixes
    (content, tensor, value) are then re-encoded for ``content_len`` bytes of content.
    """
    msg = checkpoint_pb2.Checkpoint()
    value = msg.value.add()
    value.tag = tag
    value.tensor.dims.extend(int(d) for d in dims)
    value.tensor.tensor_type = tensor_type
    value.tensor.tensor_content = b""
    empty_content = _len_field(3, 0)
    tensor_b = value.tensor.SerializeToString()  # fields in number order: the empty content comes last
    if not tensor_b.endswith(empty_content):
        raise AssertionError("protobuf did not serialize tensor_content last")
    tensor_head = tensor_b[: -len(empty_content)] + _len_field(3, content_len)
    value.ClearField("tensor")
    value_head = value.SerializeToString() + _len_field(2, len(tensor_head) + content_len)
    return _len_field(1, len(value_head) + len(tensor_head) + content_len) + value_head + tensor_head


# ------------------------------------------------------------------ decoding
def _read_varint(buf: bytes | memoryview, pos: int, end: int) -> tuple[int, int]:
    """The varint at ``buf[pos:end]`` and the position after it."""
    result = 0
    shift = 0
    while True:
        if pos >= end:
            raise CheckpointFormatError(f"truncated varint at byte {pos}")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise CheckpointFormatError(f"varint longer than 10 bytes at byte {pos}")


def _fields(buf: memoryview, pos: int, end: int, depth: int = 0) -> Iterator[tuple[int, int, int, int]]:
    """Yield (field number, wire type, a, b) for the message in ``buf[pos:end]``: a varint's value is ``a`` (and
    ``b``), a length-delimited value is ``buf[a:b]``; groups and fixed-width fields are skipped after checks."""
    if depth > _MAX_DEPTH:
        raise CheckpointFormatError("message nesting is too deep")
    while pos < end:
        key, pos = _read_varint(buf, pos, end)
        field, wire = key >> 3, key & 7
        if field == 0:
            raise CheckpointFormatError(f"invalid field number 0 at byte {pos}")
        if wire == _VARINT:
            v, pos = _read_varint(buf, pos, end)
            yield field, wire, v, v
        elif wire == _LEN:
            n, pos = _read_varint(buf, pos, end)
            if n > end - pos:
                raise CheckpointFormatError(
                    f"field {field} at byte {pos} claims {n} bytes but only {end - pos} remain (truncated file?)"
                )
            yield field, wire, pos, pos + n
            pos += n
        elif wire in (_I64, _I32):
            n = 8 if wire == _I64 else 4
            if n > end - pos:
                raise CheckpointFormatError(f"truncated fixed-width field at byte {pos}")
            pos += n
        elif wire == _SGROUP:
            pos = _skip_group(buf, pos, end, field, depth + 1)
        else:
            raise CheckpointFormatError(f"unexpected wire type {wire} at byte {pos}")


def _skip_group(buf: memoryview, pos: int, end: int, group_field: int, depth: int) -> int:
    if depth > _MAX_DEPTH:
        raise CheckpointFormatError("message nesting is too deep")
    while pos < end:
        key, pos = _read_varint(buf, pos, end)
        field, wire = key >> 3, key & 7
        if wire == _EGROUP:
            if field != group_field:
                raise CheckpointFormatError(f"mismatched end-group at byte {pos}")
            return pos
        if wire == _VARINT:
            _, pos = _read_varint(buf, pos, end)
        elif wire == _LEN:
            n, pos = _read_varint(buf, pos, end)
            if n > end - pos:
                raise CheckpointFormatError(f"truncated field at byte {pos}")
            pos += n
        elif wire in (_I64, _I32):
            pos += 8 if wire == _I64 else 4
            if pos > end:
                raise CheckpointFormatError(f"truncated fixed-width field at byte {pos}")
        elif wire == _SGROUP:
            pos = _skip_group(buf, pos, end, field, depth + 1)
        else:
            raise CheckpointFormatError(f"unexpected wire type {wire} at byte {pos}")
    raise CheckpointFormatError("unterminated group (truncated file?)")


def _str(buf: memoryview, span: tuple[int, int], what: str) -> str:
    try:
        return bytes(buf[span[0] : span[1]]).decode("utf-8")
    except UnicodeDecodeError:
        raise CheckpointFormatError(f"the {what} at byte {span[0]} is not valid UTF-8") from None


def _as_int64(v: int) -> int:
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


def _tensor(buf: memoryview, start: int, stop: int) -> TensorRecord:
    dims: list[int] = []
    ttype: str | None = None
    content: memoryview | None = None
    for field, wire, a, b in _fields(buf, start, stop, 2):
        if field == 1 and wire == _VARINT:
            dims.append(_as_int64(a))
        elif field == 1 and wire == _LEN:  # packed dims: legal for a reader to accept
            while a < b:
                d, a = _read_varint(buf, a, b)
                dims.append(_as_int64(d))
        elif field == 2 and wire == _LEN:
            ttype = _str(buf, (a, b), "tensor_type")
        elif field == 3 and wire == _LEN:
            content = buf[a:b]
    if ttype is None or content is None:
        raise CheckpointFormatError(f"the TensorProto at byte {start} lacks its required tensor_type or content")
    if any(d < 0 for d in dims):
        raise CheckpointFormatError(f"the TensorProto at byte {start} has a negative dimension {dims}")
    return TensorRecord(tuple(dims), ttype, content)


def _value(buf: memoryview, start: int, stop: int) -> ValueRecord:
    tag: str | None = None
    tensor: TensorRecord | None = None
    maps: list[TensorRecord] | None = None
    for field, wire, s, e in _fields(buf, start, stop, 1):
        if wire != _LEN:
            continue
        if field == 1:
            tag = _str(buf, (s, e), "tag")
        elif field == 2:
            tensor, maps = _tensor(buf, s, e), None  # oneof: the last one set wins
        elif field == 3:
            maps = [_tensor(buf, fs, fe) for f, w, fs, fe in _fields(buf, s, e, 2) if f == 1 and w == _LEN]
            tensor = None
    if tag is None:
        raise CheckpointFormatError(f"the Value at byte {start} has no tag")
    if tensor is None and maps is None:
        raise CheckpointFormatError(f"the Value '{tag}' at byte {start} holds no tensor")
    return ValueRecord(tag, tensor, tuple(maps) if maps is not None else None)


def iter_values(data: bytes | bytearray | memoryview) -> Iterator[ValueRecord]:
    """Decode a serialized ``Checkpoint`` (MindSpore's concatenated messages included), value by value.

    Raises:
        CheckpointFormatError: the bytes are truncated or malformed.
    """
    buf = memoryview(data).cast("B")
    for field, wire, s, e in _fields(buf, 0, len(buf)):
        if field == 1 and wire == _LEN:
            yield _value(buf, s, e)
