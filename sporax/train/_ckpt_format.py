"""MindSpore's ``.ckpt`` format: one protobuf ``Checkpoint`` (see :mod:`._checkpoint_pb`), a
``Value{tag, TensorProto{dims, tensor_type, tensor_content}}`` per parameter, tensors over 512 MiB split into
several Values with the same tag, and with ``crc_check=True`` a trailer ``b"crc_num"`` + the CRC32 of the
content as 10 big-endian bytes. Files written here are byte-identical to MindSpore's for the same values;
parsing checks every length and raises ``ValueError`` naming the file for a truncated or corrupt one."""

from __future__ import annotations

import binascii
import logging
from collections.abc import Iterable
from typing import Any, BinaryIO

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import _checkpoint_pb as pb

_log = logging.getLogger("sporax")


# MindSpore splits a tensor whose data exceeds this many bytes into several Values with the same tag.
_SLICE_BYTES = 512 * 1024 * 1024


_CRC_MARK = b"crc_num"


_CRC_TRAILER_LEN = len(_CRC_MARK) + 10


_TYPE_BY_NAME: dict[str, mstype.Type] = {str(t): t for t in mstype.all_types if t._np is not None}


_STR_TYPE = "str"


# MapTensor pieces name their dtype the NumPy way (MindSpore's np_type_convert, plus the integer widths).
_MAP_NP_TYPES = ("int32", "int64", "float16", "float32", "float64")


_BF16 = mstype.to_np(mstype.bfloat16)


def _to_tensor(arr: np.ndarray) -> Tensor:
    """A Tensor holding exactly ``arr``'s bits (bfloat16 goes through a bitcast, NaN payloads included)."""
    if arr.dtype == _BF16:
        return Tensor(arr.view(np.uint16)).view(mstype.bfloat16)
    return Tensor(arr)


def _type_name(arr: np.ndarray, name: str) -> str:
    try:
        return str(mstype.from_np(arr.dtype))
    except TypeError:
        raise TypeError(f"For 'save_checkpoint', the dtype {arr.dtype} of '{name}' is not supported.") from None


def _ckpt_records(items: list[tuple[str, Any]]) -> Iterable[tuple[str, list[int], str, memoryview]]:
    """(tag, dims, tensor_type, content) per Value to write, large tensors split as MindSpore splits them."""
    for name, value in items:
        if isinstance(value, str):
            yield name, [0], _STR_TYPE, memoryview(np.array(value).tobytes())
            continue
        arr = np.asarray(value)
        arr = arr if arr.flags.c_contiguous else arr.copy(order="C")
        ttype = _type_name(arr, name)
        raw = arr.reshape(-1).view(np.uint8).data if arr.size else memoryview(b"")
        dims = [int(d) for d in arr.shape]
        if len(raw) <= _SLICE_BYTES:
            yield name, dims, ttype, raw
            continue
        for start in range(0, len(raw), _SLICE_BYTES):
            yield name, dims, ttype, raw[start : start + _SLICE_BYTES]


def _write_ckpt(f: BinaryIO, items: list[tuple[str, Any]], crc_check: bool) -> None:
    crc = 0
    for tag, dims, ttype, content in _ckpt_records(items):
        head = pb.encode_value(tag, dims, ttype, len(content))
        crc = binascii.crc32(head, crc)
        crc = binascii.crc32(content, crc)
        _write_chunk(f, head)
        _write_chunk(f, content)
    if crc_check:
        _write_chunk(f, _CRC_MARK + crc.to_bytes(10, byteorder="big"))


def _write_chunk(f: BinaryIO, data: bytes | memoryview) -> None:
    f.write(data)


def _corrupt(path: str, reason: str) -> ValueError:
    return ValueError(
        f"Failed to read the checkpoint file {path}. The file may be truncated or corrupted, and the content cannot "
        f"be parsed: {reason}."
    )


def _crc_failed(path: str, parse_error: str | None, records: list | None = None) -> ValueError:
    """The error for a file whose CRC32 trailer does not match its content: it names the file, and the
    parameter where decoding broke when it did (one CRC over the file cannot say which value changed)."""
    where = f" Decoding stopped at: {parse_error}." if parse_error else ""
    if records is not None:
        names = list(dict.fromkeys(r.tag for r in records))
        shown = ", ".join(repr(n) for n in names[:8]) + (", ..." if len(names) > 8 else "")
        where = f" The file decodes, so a value changed: one of its {len(names)} parameters ({shown}) is damaged."
    return ValueError(
        f"For 'load_checkpoint', the crc check is failed, please check whether the ckpt file is damaged: {path} "
        f"was saved with crc_check=True and its content no longer matches its CRC32.{where}"
    )


def _read_file(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as err:
        raise ValueError(
            f"Failed to read the checkpoint file {path}. May not have permission to read it, please check the "
            f"correct of the file: {err}"
        ) from err


def _tensor_array(path: str, tag: str, dims: tuple[int, ...], ttype: str, content: bytes | memoryview) -> np.ndarray:
    ms_type = _TYPE_BY_NAME.get(ttype)
    if ms_type is None:
        raise _corrupt(path, f"the parameter '{tag}' has the unknown tensor_type '{ttype}'")
    np_type = mstype.to_np(ms_type)
    shape = dims
    if dims == (0,) and len(content) == np_type.itemsize:
        shape = ()  # MindSpore's reader maps dims [0] to a scalar
    expected = int(np.prod(shape, dtype=np.int64)) * np_type.itemsize
    if expected != len(content):
        raise _corrupt(
            path,
            f"the parameter '{tag}' has {len(content)} bytes of data, but its shape {list(dims)} and dtype {ttype} "
            f"need {expected}",
        )
    return np.frombuffer(content, dtype=np_type).reshape(shape).copy()


def _map_arrays(path: str, tag: str, pieces: list[tuple[pb.TensorRecord, ...]]) -> list[np.ndarray]:
    out = []
    for idx in range(len(pieces[0])):
        parts = []
        for piece in pieces:
            if len(piece) != len(pieces[0]):
                raise _corrupt(path, f"the map parameter '{tag}' has pieces of different arity")
            rec = piece[idx]
            if rec.tensor_type not in _MAP_NP_TYPES:
                raise _corrupt(path, f"the map parameter '{tag}' has the unknown dtype '{rec.tensor_type}'")
            dt = np.dtype(rec.tensor_type)
            tail = rec.dims[1:] if rec.dims else ()
            row = int(np.prod(tail, dtype=np.int64)) * dt.itemsize
            if not rec.dims or len(rec.content) != rec.dims[0] * row:
                raise _corrupt(path, f"the map parameter '{tag}' has data that does not match its shape {rec.dims}")
            parts.append(np.frombuffer(rec.content, dt).reshape(rec.dims))
        out.append(np.concatenate(parts, axis=0))
    return out


def _parse_ckpt(path: str, crc_check: bool) -> list[tuple[str, Any]]:
    """Decode the whole file into (name, numpy array / str / map arrays), verifying everything first."""
    content: bytes | memoryview = _read_file(path)
    if not content:
        raise _corrupt(path, "the file is empty")
    has_crc = content[-_CRC_TRAILER_LEN : -_CRC_TRAILER_LEN + len(_CRC_MARK)] == _CRC_MARK
    if crc_check and not has_crc:
        _log.warning("For 'load_checkpoint', the ckpt file do not contain the crc code, please check the file.")
    whole = content
    crc_failed = False
    if has_crc:
        # A file that carries a checksum is always verified, whether or not the caller asked (crc_check).
        stored = int.from_bytes(content[-10:], byteorder="big")
        content = memoryview(content)[:-_CRC_TRAILER_LEN]
        crc_failed = binascii.crc32(content) != stored
    try:
        records = list(pb.iter_values(content))
    except pb.CheckpointFormatError as err:
        if not has_crc or crc_check:
            raise _crc_failed(path, str(err)) if crc_failed else _corrupt(path, str(err)) from None
        try:  # the bytes only looked like a CRC trailer
            records = list(pb.iter_values(whole))
            crc_failed = False
        except pb.CheckpointFormatError:
            raise _crc_failed(path, str(err)) if crc_failed else _corrupt(path, str(err)) from None
    if crc_failed:
        raise _crc_failed(path, None, records)
    if not records:
        raise _corrupt(path, "it holds no parameters")

    out: list[tuple[str, Any]] = []
    i = 0
    while i < len(records):
        rec = records[i]
        j = i + 1
        while j < len(records) and records[j].tag == rec.tag:
            j += 1
        group = records[i:j]
        i = j
        if rec.tensor is None:
            if any(r.map_tensors is None for r in group):
                raise _corrupt(path, f"the parameter '{rec.tag}' mixes tensor and map-tensor pieces")
            out.append((rec.tag, _map_arrays(path, rec.tag, [r.map_tensors for r in group])))  # type: ignore[misc]
            continue
        tensors = [r.tensor for r in group]
        if any(t is None or t.tensor_type != rec.tensor.tensor_type or t.dims != rec.tensor.dims for t in tensors):
            raise _corrupt(path, f"the pieces of parameter '{rec.tag}' disagree on dtype or shape")
        data: bytes | memoryview = (
            rec.tensor.content if len(tensors) == 1 else b"".join(t.content for t in tensors)  # type: ignore[union-attr]
        )
        if rec.tensor.tensor_type == _STR_TYPE:
            if len(data) % 4:
                raise _corrupt(path, f"the string '{rec.tag}' has {len(data)} bytes, not a multiple of 4")
            n = len(data) // 4
            out.append((rec.tag, str(np.frombuffer(data, f"<U{n}")[0]) if n else ""))
            continue
        out.append((rec.tag, _tensor_array(path, rec.tag, rec.tensor.dims, rec.tensor.tensor_type, data)))
    return out
