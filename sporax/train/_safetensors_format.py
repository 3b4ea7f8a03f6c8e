"""The safetensors format of ``save_checkpoint(format="safetensors")`` / ``load_checkpoint``: an 8-byte
header length, a JSON header (name -> dtype, shape, offsets; ``__metadata__`` for MindSpore's string
entries and CRC), then the tensors' bytes."""

from __future__ import annotations

import binascii
import json
import logging
import struct
from typing import Any

import numpy as np

from ..common import dtype as mstype
from ._ckpt_format import _corrupt, _read_file, _type_name

_log = logging.getLogger("sporax")


# safetensors dtype codes <-> sporax dtypes
_ST_CODES = {
    "F64": mstype.float64,
    "F32": mstype.float32,
    "F16": mstype.float16,
    "BF16": mstype.bfloat16,
    "I64": mstype.int64,
    "I32": mstype.int32,
    "I16": mstype.int16,
    "I8": mstype.int8,
    "U64": mstype.uint64,
    "U32": mstype.uint32,
    "U16": mstype.uint16,
    "U8": mstype.uint8,
    "BOOL": mstype.bool_,
    "C64": mstype.complex64,
}


def _safetensors_bytes(items: list[tuple[str, Any]], crc_check: bool, remove_redundancy: bool | None) -> bytes:
    from safetensors.numpy import save as st_save

    tensors: dict[str, np.ndarray] = {}
    meta = {"format": "ms"}
    if isinstance(remove_redundancy, bool):
        meta["remove_redundancy"] = str(remove_redundancy)
    crc = 0
    for name, value in sorted(items, key=lambda kv: kv[0]):
        if isinstance(value, str):
            raise TypeError(
                f"For 'save_checkpoint', the string value '{name}' cannot be saved with format='safetensors' "
                "(safetensors holds tensors only); use format='ckpt'."
            )
        arr = np.asarray(value)
        arr = arr if arr.flags.c_contiguous else arr.copy(order="C")
        _type_name(arr, name)
        tensors[name] = arr
        if crc_check:
            crc = binascii.crc32(name.encode("utf-8"), crc)
            crc = binascii.crc32(arr.tobytes(), crc)
    if crc_check:
        meta["crc_num"] = str(crc)
    return st_save(tensors, metadata=meta if tensors else None)


def _safetensors_header(path: str, raw: bytes) -> dict:
    if len(raw) < 8:
        raise _corrupt(path, "the file is shorter than a safetensors header")
    (n,) = struct.unpack("<Q", raw[:8])
    if n > len(raw) - 8:
        raise _corrupt(path, f"the safetensors header claims {n} bytes but the file has {len(raw) - 8}")
    try:
        header = json.loads(raw[8 : 8 + n].decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise _corrupt(path, f"the safetensors header is not valid JSON ({err})") from None
    if not isinstance(header, dict):
        raise _corrupt(path, "the safetensors header is not a JSON object")
    return header


def _parse_safetensors(path: str, crc_check: bool) -> tuple[list[tuple[str, Any]], dict]:
    from safetensors import SafetensorError, deserialize

    raw = _read_file(path)
    header = _safetensors_header(path, raw)
    meta = header.get("__metadata__") or {}
    try:
        tensors = deserialize(raw)
    except (SafetensorError, ValueError, OSError) as err:
        raise _corrupt(path, str(err)) from None
    out: dict[str, np.ndarray] = {}
    for name, info in tensors:
        ms_type = _ST_CODES.get(info["dtype"])
        if ms_type is None:
            raise _corrupt(path, f"the tensor '{name}' has the unsupported dtype {info['dtype']}")
        arr = np.frombuffer(info["data"], mstype.to_np(ms_type))
        out[name] = arr.reshape(tuple(info["shape"])).copy()
    names = sorted(out)
    if crc_check and "crc_num" not in meta:
        _log.warning("For 'load_checkpoint', the safetensors file do not contain the crc code, please check the file.")
    if "crc_num" in meta:  # a file that carries a checksum is always verified, asked (crc_check) or not
        crc = 0
        for k in names:
            crc = binascii.crc32(k.encode("utf-8"), crc)
            crc = binascii.crc32(out[k].tobytes(), crc)
        if str(crc) != str(meta["crc_num"]):
            shown = ", ".join(repr(n) for n in names[:8]) + (", ..." if len(names) > 8 else "")
            raise ValueError(
                "For 'load_checkpoint', the crc check has failed. Please check whether the ckpt file is damaged: "
                f"{path} was saved with crc_check=True and one of its {len(names)} tensors ({shown}) no longer "
                "matches its CRC32."
            )
    return [(k, out[k]) for k in names], meta
