"""TFRecord files without TensorFlow: the record framing (length, masked CRC-32C of the length, data, masked
CRC-32C of the data) and the ``tf.train.Example`` message (``tensorflow/core/example/example.proto``:
``Example{Features features = 1}``, ``Features{map<string, Feature> feature = 1}``, ``Feature{oneof
BytesList bytes_list = 1; FloatList float_list = 2; Int64List int64_list = 3}``), decoded and encoded from
its wire format. CRC-32C comes from ``google-crc32c`` (C); TFRecordDataset, TFRecordToMR and the summary writer share these functions."""

from __future__ import annotations

import gzip
import struct
import zlib

import numpy as np

__all__ = ["crc32c", "masked_crc", "read_records", "write_record", "parse_example", "encode_example"]


def crc32c(data) -> int:
    """CRC-32C (Castagnoli) of ``data``."""
    import google_crc32c  # imported when a TFRecord or summary file is read or written, not with sporax

    return google_crc32c.value(bytes(data))


def masked_crc(data) -> int:
    """TFRecord's masked CRC-32C."""
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def write_record(f, data: bytes) -> None:
    """Append one record to the binary file ``f``."""
    head = struct.pack("<Q", len(data))
    f.write(head + struct.pack("<I", masked_crc(head)) + data + struct.pack("<I", masked_crc(data)))


def _open_bytes(path: str, compression_type) -> bytes:
    with open(path, "rb") as f:
        raw = f.read()
    if compression_type == "GZIP":
        return gzip.decompress(raw)
    if compression_type == "ZLIB":
        return zlib.decompress(raw)
    return raw


def read_records(path: str, compression_type=None) -> list[bytes]:
    """Every record of a TFRecord file, CRCs checked.

    Raises:
        RuntimeError: a truncated record or a CRC mismatch.
    """
    raw = _open_bytes(path, compression_type)
    out, pos, n = [], 0, len(raw)
    while pos < n:
        if pos + 12 > n:
            raise RuntimeError(f"Invalid TFRecord file: {path}, the record header at byte {pos} is truncated.")
        head = raw[pos : pos + 8]
        (length,) = struct.unpack("<Q", head)
        (hcrc,) = struct.unpack("<I", raw[pos + 8 : pos + 12])
        if hcrc != masked_crc(head):
            raise RuntimeError(f"Invalid TFRecord file: {path}, the length CRC of the record at byte {pos} mismatches.")
        start, end = pos + 12, pos + 12 + length
        if end + 4 > n:
            raise RuntimeError(f"Invalid TFRecord file: {path}, the record at byte {pos} is truncated.")
        data = raw[start:end]
        (dcrc,) = struct.unpack("<I", raw[end : end + 4])
        if dcrc != masked_crc(data):
            raise RuntimeError(f"Invalid TFRecord file: {path}, the data CRC of the record at byte {pos} mismatches.")
        out.append(data)
        pos = end + 4
    return out


# ------------------------------------------------------------------ protobuf wire format
def _varint(buf, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _fields(buf):
    """(field number, wire type, value) of a message: ints for varints, memoryviews for length-delimited."""
    pos, n = 0, len(buf)
    while pos < n:
        key, pos = _varint(buf, pos)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, pos = _varint(buf, pos)
        elif wt == 2:
            ln, pos = _varint(buf, pos)
            v = buf[pos : pos + ln]
            pos += ln
        elif wt == 5:
            v = buf[pos : pos + 4]
            pos += 4
        elif wt == 1:
            v = buf[pos : pos + 8]
            pos += 8
        else:
            raise RuntimeError(f"Invalid tf.train.Example: unsupported wire type {wt}.")
        yield num, wt, v


def _feature(buf):
    for num, _, v in _fields(buf):
        if num == 1:  # BytesList{repeated bytes value = 1}
            return "bytes", [bytes(x) for n2, _, x in _fields(v) if n2 == 1]
        if num == 2:  # FloatList{repeated float value = 1 [packed]}
            vals: list = []
            for n2, _, x in _fields(v):
                if n2 == 1:
                    vals.extend(np.frombuffer(bytes(x), "<f4").tolist())
            return "float", vals
        if num == 3:  # Int64List{repeated int64 value = 1 [packed]}
            vals = []
            for n2, wt, x in _fields(v):
                if n2 != 1:
                    continue
                if wt == 0:
                    vals.append(x - (1 << 64) if x >= 1 << 63 else x)
                else:
                    p = 0
                    while p < len(x):
                        u, p = _varint(x, p)
                        vals.append(u - (1 << 64) if u >= 1 << 63 else u)
            return "int64", vals
    return "bytes", []


def parse_example(data: bytes) -> dict:
    """``{feature name: (kind, values)}`` of a serialized ``tf.train.Example`` (kind: bytes, float, int64)."""
    out = {}
    mv = memoryview(data)
    for num, _, features in _fields(mv):
        if num != 1:
            continue
        for n2, _, entry in _fields(features):
            if n2 != 1:
                continue
            key, val = None, b""
            for n3, _, x in _fields(entry):
                if n3 == 1:
                    key = bytes(x).decode("utf-8")
                elif n3 == 2:
                    val = x
            out[key] = _feature(val)
    return out


def _enc_varint(v: int) -> bytes:
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _ld(num: int, payload: bytes) -> bytes:
    return _enc_varint(num << 3 | 2) + _enc_varint(len(payload)) + payload


def encode_example(features: dict) -> bytes:
    """A serialized ``tf.train.Example`` from ``{name: list of bytes | list of float | list of int | ndarray}``."""
    entries = b""
    for name, vals in features.items():
        arr = np.asarray(vals)
        if arr.dtype.kind in "SUO" or isinstance(vals, (bytes, str)):
            items = [vals] if isinstance(vals, (bytes, str)) else list(vals)
            body = b"".join(_ld(1, x.encode() if isinstance(x, str) else bytes(x)) for x in items)
            feat = _ld(1, body)
        elif arr.dtype.kind == "f":
            feat = _ld(2, _ld(1, arr.astype("<f4").ravel().tobytes()))
        else:
            feat = _ld(3, _ld(1, b"".join(_enc_varint(int(x)) for x in arr.ravel())))
        entries += _ld(1, _ld(1, name.encode()) + _ld(2, feat))
    return _ld(1, entries)
