"""The protobuf wire format of MindSpore's ``.ckpt`` files, encoded and decoded by hand.

MindSpore's ``checkpoint.proto`` (proto2)::

    message Checkpoint {
        message Value {
            required string tag = 1;
            oneof value {
                TensorProto tensor = 2;
                MapTensorProto maptensor = 3;
            }
        }
        repeated Value value = 1;
    }
    message TensorProto {
        repeated int64 dims = 1;          // not packed (proto2)
        required string tensor_type = 2;  // "Float32", "Int64", "BFloat16", "Bool", "str" ...
        required bytes tensor_content = 3;
    }
    message MapTensorProto { repeated TensorProto tensor = 1; }

MindSpore writes one serialized ``Checkpoint`` holding a single ``Value`` per parameter (or per slice of a
large parameter) and concatenates them; concatenated messages parse as one ``Checkpoint``. The decoder
works on a ``memoryview`` (tensor contents are zero-copy slices), skips unknown fields of every wire type,
and raises :class:`CheckpointFormatError` for anything malformed: it only reads bytes, never runs code.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

__all__ = ["CheckpointFormatError", "TensorRecord", "ValueRecord", "encode_value", "iter_values"]

_VARINT, _I64, _LEN, _SGROUP, _EGROUP, _I32 = 0, 1, 2, 3, 4, 5
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
    if n < 0:
        n &= (1 << 64) - 1  # int64 negatives: ten-byte two's complement, as protobuf writes them
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint((field << 3) | wire)


def _len_field(field: int, length: int) -> bytes:
    return _key(field, _LEN) + _varint(length)


def encode_value(tag: str, dims: Sequence[int], tensor_type: str, content_len: int) -> bytes:
    """The bytes of ``Checkpoint{value: [Value{tag, tensor: TensorProto{dims, tensor_type, content}}]}`` up to
    (not including) the ``content_len`` bytes of tensor content, which the caller writes right after.

    The output is byte-identical to MindSpore's ``Checkpoint.SerializeToString()`` for the same value.
    """
    tensor_head = b"".join(_key(1, _VARINT) + _varint(int(d)) for d in dims)
    ttype = tensor_type.encode("utf-8")
    tensor_head += _len_field(2, len(ttype)) + ttype + _len_field(3, content_len)
    tensor_len = len(tensor_head) + content_len
    tag_b = tag.encode("utf-8")
    value_head = _len_field(1, len(tag_b)) + tag_b + _len_field(2, tensor_len)
    value_len = len(value_head) + tensor_len
    return _len_field(1, value_len) + value_head + tensor_head


# ------------------------------------------------------------------ decoding
def _read_varint(buf: memoryview, pos: int, end: int) -> tuple[int, int]:
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


def _fields(buf: memoryview, pos: int, end: int, depth: int = 0) -> Iterator[tuple[int, int, object]]:
    """Yield (field number, wire type, value) for the message in ``buf[pos:end]``; length-delimited values
    are ``(start, stop)`` offsets, varints ints; groups and fixed-width fields are skipped after checks."""
    if depth > _MAX_DEPTH:
        raise CheckpointFormatError("message nesting is too deep")
    while pos < end:
        key, pos = _read_varint(buf, pos, end)
        field, wire = key >> 3, key & 7
        if field == 0:
            raise CheckpointFormatError(f"invalid field number 0 at byte {pos}")
        if wire == _VARINT:
            v, pos = _read_varint(buf, pos, end)
            yield field, wire, v
        elif wire == _LEN:
            n, pos = _read_varint(buf, pos, end)
            if n > end - pos:
                raise CheckpointFormatError(
                    f"field {field} at byte {pos} claims {n} bytes but only {end - pos} remain (truncated file?)"
                )
            yield field, wire, (pos, pos + n)
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
    for field, wire, v in _fields(buf, start, stop, 2):
        if field == 1 and wire == _VARINT:
            dims.append(_as_int64(v))  # type: ignore[arg-type]
        elif field == 1 and wire == _LEN:  # packed dims: legal for a reader to accept
            s, e = v  # type: ignore[misc]
            while s < e:
                d, s = _read_varint(buf, s, e)
                dims.append(_as_int64(d))
        elif field == 2 and wire == _LEN:
            ttype = _str(buf, v, "tensor_type")  # type: ignore[arg-type]
        elif field == 3 and wire == _LEN:
            s, e = v  # type: ignore[misc]
            content = buf[s:e]
    if ttype is None or content is None:
        raise CheckpointFormatError(f"the TensorProto at byte {start} lacks its required tensor_type or content")
    if any(d < 0 for d in dims):
        raise CheckpointFormatError(f"the TensorProto at byte {start} has a negative dimension {dims}")
    return TensorRecord(tuple(dims), ttype, content)


def _value(buf: memoryview, start: int, stop: int) -> ValueRecord:
    tag: str | None = None
    tensor: TensorRecord | None = None
    maps: list[TensorRecord] | None = None
    for field, wire, v in _fields(buf, start, stop, 1):
        if wire != _LEN:
            continue
        s, e = v  # type: ignore[misc]
        if field == 1:
            tag = _str(buf, v, "tag")  # type: ignore[arg-type]
        elif field == 2:
            tensor, maps = _tensor(buf, s, e), None  # oneof: the last one set wins
        elif field == 3:
            maps = [_tensor(buf, fs, fe) for f, w, (fs, fe) in _fields(buf, s, e, 2) if f == 1 and w == _LEN]  # type: ignore[misc]
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
    for field, wire, v in _fields(buf, 0, len(buf)):
        if field == 1 and wire == _LEN:
            s, e = v  # type: ignore[misc]
            yield _value(buf, s, e)
