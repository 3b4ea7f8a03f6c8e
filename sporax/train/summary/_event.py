"""TensorBoard event files, written by hand: the TFRecord framing (with masked CRC-32C) and the few protobuf
messages of ``tensorflow/core/util/event.proto`` and ``summary.proto`` that summaries need. Also a small
reader, used by the tests and handy for checking a file without TensorFlow."""

from __future__ import annotations

import struct
import zlib

import numpy as np

# ----------------------------------------------------------------------------- CRC-32C (Castagnoli)
# one implementation (google-crc32c, in C), shared with the dataset's TFRecord reader
from ...mindrecord._tfrecord import crc32c  # noqa: E402,F401
from ...mindrecord._tfrecord import masked_crc as masked_crc32c  # noqa: E402
from .._checkpoint_pb import _read_varint  # noqa: E402  (one protobuf varint reader)


def tfrecord(data: bytes) -> bytes:
    """One TFRecord: length, masked CRC of the length, data, masked CRC of the data."""
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", masked_crc32c(data))


# ----------------------------------------------------------------------------- protobuf encoding
def _varint(value: int) -> bytes:
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while True:
        bits = value & 0x7F
        value >>= 7
        if value:
            out.append(bits | 0x80)
        else:
            out.append(bits)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint(field << 3 | wire)


def _f_varint(field: int, value: int) -> bytes:
    return _key(field, 0) + _varint(int(value))


def _f_double(field: int, value: float) -> bytes:
    return _key(field, 1) + struct.pack("<d", float(value))


def _f_float(field: int, value: float) -> bytes:
    return _key(field, 5) + struct.pack("<f", float(value))


def _f_bytes(field: int, value: bytes) -> bytes:
    return _key(field, 2) + _varint(len(value)) + value


def _f_packed_doubles(field: int, values) -> bytes:
    return _f_bytes(field, np.asarray(values, "<f8").tobytes())


def event(wall_time: float, step: int = 0, *, file_version: str | None = None, summary: bytes | None = None) -> bytes:
    """An ``Event`` message."""
    out = _f_double(1, wall_time) + _f_varint(2, step)
    if file_version is not None:
        out += _f_bytes(3, file_version.encode())
    if summary is not None:
        out += _f_bytes(5, summary)
    return out


def summary(values: list[bytes]) -> bytes:
    """A ``Summary`` message of ``Summary.Value`` messages."""
    return b"".join(_f_bytes(1, v) for v in values)


def _metadata(plugin_name: str) -> bytes:
    return _f_bytes(1, _f_bytes(1, plugin_name.encode()))  # SummaryMetadata{plugin_data{plugin_name}}


def scalar_value(tag: str, value: float) -> bytes:
    return _f_bytes(1, tag.encode()) + _f_float(2, value)


def image_value(tag: str, height: int, width: int, colorspace: int, png: bytes) -> bytes:
    image = _f_varint(1, height) + _f_varint(2, width) + _f_varint(3, colorspace) + _f_bytes(4, png)
    return _f_bytes(1, tag.encode()) + _f_bytes(4, image)


def histogram_value(tag: str, vmin, vmax, num, vsum, sum_squares, bucket_limit, bucket) -> bytes:
    histo = (
        _f_double(1, vmin)
        + _f_double(2, vmax)
        + _f_double(3, num)
        + _f_double(4, vsum)
        + _f_double(5, sum_squares)
        + _f_packed_doubles(6, bucket_limit)
        + _f_packed_doubles(7, bucket)
    )
    return _f_bytes(1, tag.encode()) + _f_bytes(5, histo)


# tensorflow DataType enum
_TF_DTYPES: dict[np.dtype, int] = {
    np.dtype("float32"): 1,
    np.dtype("float64"): 2,
    np.dtype("int32"): 3,
    np.dtype("uint8"): 4,
    np.dtype("int16"): 5,
    np.dtype("int8"): 6,
    np.dtype("int64"): 9,
    np.dtype("bool"): 10,
    np.dtype("uint16"): 17,
    np.dtype("float16"): 19,
    np.dtype("uint32"): 22,
    np.dtype("uint64"): 23,
}
_NP_DTYPES = {v: k for k, v in _TF_DTYPES.items()}


def tensor_value(tag: str, array: np.ndarray) -> bytes:
    """A ``Summary.Value`` holding a ``TensorProto`` (dtype, shape, little-endian content)."""
    array = np.asarray(array)
    if array.dtype not in _TF_DTYPES:
        array = array.astype(np.float32)
    shape = b"".join(_f_bytes(2, _f_varint(1, d)) for d in array.shape)  # TensorShapeProto{dim{size}}
    content = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()
    proto = _f_varint(1, _TF_DTYPES[array.dtype]) + _f_bytes(2, shape) + _f_bytes(4, content)
    return _f_bytes(1, tag.encode()) + _f_bytes(9, _metadata("tensor")) + _f_bytes(8, proto)


def png(image: np.ndarray) -> bytes:
    """PNG encoding of an (H, W, 3) or (H, W, 1) uint8 array."""
    height, width, channels = image.shape
    color_type = {1: 0, 3: 2, 4: 6}[channels]
    rows = np.ascontiguousarray(image, dtype=np.uint8).reshape(height, width * channels)
    raw = np.concatenate([np.zeros((height, 1), np.uint8), rows], axis=1).tobytes()  # filter type 0 per row

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


# ----------------------------------------------------------------------------- reading (tests, debugging)
def parse_message(buf: bytes) -> dict[int, list]:
    """Decode one protobuf message into {field: [raw values]} (varints as int, fixed64/32 as bytes)."""
    fields: dict[int, list] = {}
    pos = 0
    while pos < len(buf):
        key, pos = _read_varint(buf, pos, len(buf))
        field, wire = key >> 3, key & 7
        value: int | bytes
        if wire == 0:
            value, pos = _read_varint(buf, pos, len(buf))
        elif wire == 1:
            value, pos = buf[pos : pos + 8], pos + 8
        elif wire == 5:
            value, pos = buf[pos : pos + 4], pos + 4
        elif wire == 2:
            n, pos = _read_varint(buf, pos, len(buf))
            value, pos = buf[pos : pos + n], pos + n
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        fields.setdefault(field, []).append(value)
    return fields


def read_records(path: str) -> list[bytes]:
    """The records of a TFRecord file, every CRC checked."""
    with open(path, "rb") as f:
        data = f.read()
    out, pos = [], 0
    while pos < len(data):
        header = data[pos : pos + 8]
        (length,) = struct.unpack("<Q", header)
        (hcrc,) = struct.unpack("<I", data[pos + 8 : pos + 12])
        if hcrc != masked_crc32c(header):
            raise ValueError(f"corrupt record header at byte {pos} of {path}")
        body = data[pos + 12 : pos + 12 + length]
        (dcrc,) = struct.unpack("<I", data[pos + 12 + length : pos + 16 + length])
        if len(body) != length or dcrc != masked_crc32c(body):
            raise ValueError(f"corrupt record at byte {pos} of {path}")
        out.append(body)
        pos += 16 + length
    return out


def read_events(path: str) -> list[dict]:
    """The events of an event file as plain dicts: wall_time, step, file_version or values (tag, kind, data)."""
    events = []
    for rec in read_records(path):
        msg = parse_message(rec)
        ev: dict = {
            "wall_time": struct.unpack("<d", msg[1][0])[0] if 1 in msg else 0.0,
            "step": msg.get(2, [0])[0],
        }
        if 3 in msg:
            ev["file_version"] = msg[3][0].decode()
        if 5 in msg:
            ev["values"] = [_decode_value(v) for v in parse_message(msg[5][0]).get(1, [])]
        events.append(ev)
    return events


def _decode_value(raw: bytes) -> dict:
    msg = parse_message(raw)
    out: dict = {"tag": msg[1][0].decode()}
    if 2 in msg:
        out.update(kind="scalar", value=struct.unpack("<f", msg[2][0])[0])
    elif 4 in msg:
        img = parse_message(msg[4][0])
        out.update(kind="image", height=img[1][0], width=img[2][0], colorspace=img[3][0], png=img[4][0])
    elif 5 in msg:
        h = parse_message(msg[5][0])

        def d(i):
            return struct.unpack("<d", h[i][0])[0] if i in h else 0.0

        out.update(
            kind="histogram",
            min=d(1),
            max=d(2),
            num=d(3),
            sum=d(4),
            sum_squares=d(5),
            bucket_limit=np.frombuffer(h[6][0], "<f8") if 6 in h else np.zeros(0),
            bucket=np.frombuffer(h[7][0], "<f8") if 7 in h else np.zeros(0),
        )
    elif 8 in msg:
        t = parse_message(msg[8][0])
        dims = [parse_message(dim)[1][0] if 1 in parse_message(dim) else 0 for dim in parse_message(t[2][0]).get(2, [])]
        dtype = _NP_DTYPES[t[1][0]].newbyteorder("<")
        out.update(kind="tensor", value=np.frombuffer(t[4][0], dtype).reshape(dims))
    return out
