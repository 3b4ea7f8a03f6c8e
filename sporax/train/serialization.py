"""Saving and loading checkpoints: MindSpore's ``.ckpt`` format (read and written by real MindSpore too) and
safetensors.

A ``.ckpt`` file is MindSpore's protobuf ``Checkpoint`` (see :mod:`sporax.train._checkpoint_pb`): one
``Value{tag, TensorProto{dims, tensor_type, tensor_content}}`` per parameter, tensors over 512 MiB split into
several Values with the same tag, and with ``crc_check=True`` a trailer ``b"crc_num"`` + the CRC32 of the
content as 10 big-endian bytes. Files written here are byte-identical to MindSpore's for the same values.

Writes are atomic: the data goes to a temporary file in the target's directory, is fsynced, then renamed
over the target, so a reader (or a crash) never sees half a file. Loading only parses bytes (no pickle, no
code), checks every length, and raises ``ValueError`` naming the file for a truncated or corrupt one, before
anything is returned or loaded into a network.
"""

from __future__ import annotations

import binascii
import json
import logging
import os
import stat
import struct
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO

import numpy as np

from .. import _checkparam as validator
from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..nn.cell import Cell
from . import _checkpoint_pb as pb

__all__ = [
    "save_checkpoint",
    "load_checkpoint",
    "load_checkpoint_async",
    "load_param_into_net",
    "ParamDictFuture",
]

_log = logging.getLogger("sporax")

# MindSpore splits a tensor whose data exceeds this many bytes into several Values with the same tag.
_SLICE_BYTES = 512 * 1024 * 1024
_CRC_MARK = b"crc_num"
_CRC_TRAILER_LEN = len(_CRC_MARK) + 10

_TYPE_BY_NAME: dict[str, mstype.Type] = {str(t): t for t in mstype.all_types if t._np is not None}
_STR_TYPE = "str"
# MapTensor pieces name their dtype the NumPy way (MindSpore's np_type_convert, plus the integer widths).
_MAP_NP_TYPES = ("int32", "int64", "float16", "float32", "float64")

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

_async_lock = threading.Lock()
_async_thread: threading.Thread | None = None
_async_error: BaseException | None = None


_BF16 = mstype.to_np(mstype.bfloat16)


def _to_tensor(arr: np.ndarray) -> Tensor:
    """A Tensor holding exactly ``arr``'s bits (bfloat16 goes through a bitcast, NaN payloads included)."""
    if arr.dtype == _BF16:
        return Tensor(arr.view(np.uint16)).view(mstype.bfloat16)
    return Tensor(arr)


class _CheckpointNotFoundError(FileNotFoundError, ValueError):
    """A missing checkpoint file: MindSpore raises ValueError; this is also a FileNotFoundError."""


# ============================================================================ saving
def _check_save_obj_and_ckpt_file_name(save_obj: Any, ckpt_file_name: Any, format: str) -> str:
    if format not in ("safetensors", "ckpt"):
        raise ValueError(f"For 'save_checkpoint', the format must be 'safetensors' or 'ckpt', but got {format}.")
    if not isinstance(save_obj, (Cell, list, dict)):
        raise TypeError(
            f"For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, but got {type(save_obj)}."
        )
    if isinstance(ckpt_file_name, os.PathLike):
        ckpt_file_name = os.fspath(ckpt_file_name)
    if not isinstance(ckpt_file_name, str):
        raise TypeError(
            f"For 'save_checkpoint', the parameter {ckpt_file_name} for checkpoint file name is invalid, "
            f"'ckpt_file_name' must be string, but got {type(ckpt_file_name)}."
        )
    ckpt_file_name = os.path.realpath(ckpt_file_name)
    if os.path.isdir(ckpt_file_name):
        raise IsADirectoryError(
            f"For 'save_checkpoint', the parameter `ckpt_file_name`: {ckpt_file_name} is a directory, "
            "it must be a file name."
        )
    if not ckpt_file_name.endswith(format):
        ckpt_file_name += f".{format}"
    return ckpt_file_name


def _check_async_save(async_save: Any) -> bool | str:
    if not isinstance(async_save, (bool, str)):
        raise TypeError(
            f"For 'save_checkpoint', the parameter 'async_save' must be bool or str, but got {type(async_save)}."
        )
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError(
            f"For 'save_checkpoint', the argument 'async_save' can only be 'process' or 'thread', but got {async_save}."
        )
    return async_save


def _check_append_dict(append_dict: Any) -> dict | None:
    if append_dict is None:
        return None
    if not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', the argument 'append_dict' must be dict, but got {type(append_dict)}.")
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Tensor)):
            raise TypeError(
                "For 'save_checkpoint', the type of dict 'append_info' must be key: string, value: int, float, "
                f"bool, str, Parameter or Tensor, but got key: {type(key)}, value: {type(value)}"
            )
    return append_dict


def _no_encryption(api: str, key: Any, key_name: str) -> None:
    if key is not None and not isinstance(key, bytes):
        raise TypeError(f"For '{api}', the '{key_name}' must be bytes or None, but got {type(key).__name__}.")
    if key is not None:
        raise NotImplementedError(
            f"For '{api}', checkpoint encryption ('{key_name}') is not supported by sporax: save without "
            f"'{key_name}', or decrypt the file with MindSpore first."
        )


def _host(value: Any, name: str) -> np.ndarray:
    """A NumPy snapshot (a copy) of a Tensor/Parameter/array."""
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "OUSV" and value.dtype != mstype.to_np(mstype.bfloat16):
            raise TypeError(
                f"For 'save_checkpoint', the array '{name}' has dtype {value.dtype}, which cannot be saved."
            )
        return np.array(value, copy=True)
    raise TypeError(
        f"For 'save_checkpoint', the data of '{name}' must be a Parameter or Tensor, but got {type(value)}."
    )


def _list_items(save_obj: list, choice_func: Callable | None) -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    if not save_obj:
        return items
    if isinstance(save_obj[0], dict):
        for param in save_obj:
            if not (isinstance(param, dict) and "name" in param and "data" in param):
                raise TypeError(
                    "For save_checkpoint, save_obj should be a list of dict items, and the dict should have key "
                    f"values 'name' and 'data', but got {type(param)} and {param}."
                )
            if not isinstance(param["name"], str):
                raise TypeError(
                    "For save_checkpoint, when save_obj is a list of dict items, the name in dict should be string, "
                    f"but got {type(param['name'])}."
                )
            if not isinstance(param["data"], Tensor):
                raise TypeError(
                    "For save_checkpoint, when save_obj is a list of dict items, the data in dict should be "
                    f"parameter, but got {type(param['data'])}."
                )
            if choice_func is not None and not choice_func(param["name"]):
                continue
            items.append((param["name"], param["data"]))
        return items
    for param in save_obj:
        if not isinstance(param, Parameter):
            raise TypeError(
                "For save_checkpoint, when save_obj is made up by list of Parameter, the param should be parameter, "
                f"but got {type(param)}"
            )
        if choice_func is not None and not choice_func(param.name):
            continue
        items.append((param.name, param))
    return items


def _dict_items(save_obj: dict, choice_func: Callable | None) -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    for key, value in save_obj.items():
        if not isinstance(key, str) or not isinstance(value, (Tensor, np.ndarray, str)):
            raise TypeError(
                "For save_checkpoint, when save_obj is made up by dict, the key should be str and value should be "
                f"Parameter, but got the type of key is {type(key)} and the type of value is {type(value)}"
            )
        if choice_func is not None and not choice_func(key):
            continue
        items.append((key, value))
    return items


def _cell_items(net: Cell, choice_func: Callable | None) -> list[tuple[str, Any]]:
    params: OrderedDict[str, Parameter] = OrderedDict()
    for _, param in net.parameters_and_names():
        if choice_func is not None and not choice_func(param.name):
            continue
        params[param.name] = param
    return list(params.items())


def _snapshot(save_obj: Any, append_dict: dict | None, choice_func: Callable | None) -> list[tuple[str, Any]]:
    """(name, numpy array or str) pairs, in MindSpore's order: the object's entries, then append_dict's."""
    if isinstance(save_obj, Cell):
        items = _cell_items(save_obj, choice_func)
    elif isinstance(save_obj, list):
        items = _list_items(save_obj, choice_func)
    else:
        items = _dict_items(save_obj, choice_func)
    if append_dict:
        for key, value in append_dict.items():
            items.append((key, value if isinstance(value, (str, Tensor)) else Tensor(value)))
    out: OrderedDict[str, Any] = OrderedDict()
    for name, value in items:
        out[name] = value if isinstance(value, str) else _host(value, name)
    return list(out.items())


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
        raw = memoryview(arr.reshape(-1).view(np.uint8)) if arr.size else memoryview(b"")
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


def _fsync_dir(dirname: str) -> None:
    try:
        fd = os.open(dirname, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _atomic_write(path: str, write: Callable[[BinaryIO], None]) -> None:
    """Write through ``write(f)`` to a temporary file next to ``path``, fsync it, and rename it over ``path``:
    ``path`` holds either its old content or the complete new one, never a partial file."""
    dirname, base = os.path.split(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp", dir=dirname)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, stat.S_IRUSR)  # MindSpore leaves checkpoint files read-only for the owner
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(dirname)


def _exec_save(
    path: str, items: list[tuple[str, Any]], crc_check: bool, format: str, remove_redundancy: bool | None
) -> None:
    try:
        if format == "ckpt":
            _atomic_write(path, lambda f: _write_ckpt(f, items, crc_check))
        else:
            data = _safetensors_bytes(items, crc_check, remove_redundancy)
            _atomic_write(path, lambda f: _write_chunk(f, data))
    except BaseException:
        _log.critical(
            "Failed to save the checkpoint file %s. Maybe don't have the permission to write files, "
            "or the disk space is insufficient and so on.",
            path,
        )
        raise


def _async_save_worker(*args: Any) -> None:
    global _async_error
    try:
        _exec_save(*args)
    except BaseException as err:  # reported by _wait_async_thread_save_ckpt
        _async_error = err


def _wait_async_thread_save_ckpt() -> None:
    """Wait for the running asynchronous save, if any; re-raise the error it failed with."""
    global _async_thread, _async_error
    with _async_lock:
        thread, _async_thread = _async_thread, None
    if thread is not None:
        thread.join()
    err, _async_error = _async_error, None
    if err is not None:
        raise err


def save_checkpoint(
    save_obj: Any,
    ckpt_file_name: str,
    integrated_save: bool = True,
    async_save: bool | str = False,
    append_dict: dict | None = None,
    enc_key: bytes | None = None,
    enc_mode: str = "AES-GCM",
    choice_func: Callable[[str], bool] | None = None,
    crc_check: bool = False,
    format: str = "ckpt",
    **kwargs: Any,
) -> None:
    """Save a checkpoint file.

    Args:
        save_obj (Union[Cell, list, dict]): a Cell (its parameters are saved); a list of Parameters or of dicts
            ``{"name": str, "data": Parameter or Tensor}``; or a dict name -> Parameter/Tensor/numpy.ndarray/str
            (e.g. what :func:`load_checkpoint` returns).
        ckpt_file_name (str): the file; ``.ckpt`` (or ``.safetensors``) is appended when missing. An existing
            file is replaced atomically.
        integrated_save (bool): kept for MindSpore compatibility (parameters are never split across devices
            here). Default: ``True``.
        async_save (Union[bool, str]): save in a background thread (``True``, ``"thread"`` or ``"process"``,
            which uses a thread too). The values are snapshotted before this returns; the file appears
            atomically when done. Default: ``False``.
        append_dict (dict): extra entries saved after the parameters: str -> int, float, bool, str, Parameter or
            Tensor. Default: ``None``.
        enc_key (Union[None, bytes]): encryption is not supported; must be ``None``.
        enc_mode (str): unused (encryption mode). Default: ``"AES-GCM"``.
        choice_func (function): ``choice_func(name) -> bool`` selects the parameters to save. Default: ``None``.
        crc_check (bool): append the CRC32 of the content (MindSpore's trailer). Default: ``False``.
        format (str): ``"ckpt"`` or ``"safetensors"``. Default: ``"ckpt"``.

    Raises:
        TypeError: `save_obj`, `ckpt_file_name`, `append_dict`, `integrated_save` or `async_save` has a wrong type.
        ValueError: `format` or `async_save` has a wrong value.
        NotImplementedError: `enc_key` is given.
    """
    path = _check_save_obj_and_ckpt_file_name(save_obj, ckpt_file_name, format)
    validator.check_arg_type("integrated_save", integrated_save, bool, "save_checkpoint")
    async_save = _check_async_save(async_save)
    append_dict = _check_append_dict(append_dict)
    _no_encryption("save_checkpoint", enc_key, "enc_key")
    if not isinstance(enc_mode, str):
        raise TypeError(f"For 'save_checkpoint', the 'enc_mode' must be str, but got {type(enc_mode).__name__}.")
    crc_check = validator.check_arg_type("crc_check", crc_check, bool, "save_checkpoint")
    remove_redundancy = kwargs.get("remove_redundancy")
    if remove_redundancy is not None and not isinstance(remove_redundancy, bool):
        raise TypeError("For 'save_checkpoint', the 'remove_redundancy' must be bool or None.")
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"For 'save_checkpoint', the 'choice_func' must be callable, but got {type(choice_func)}.")

    items = _snapshot(save_obj, append_dict, choice_func)
    if not async_save:
        _exec_save(path, items, crc_check, format, remove_redundancy)
        return
    global _async_thread
    try:
        _wait_async_thread_save_ckpt()
    except BaseException as err:  # the previous asynchronous save failed: already logged, keep going
        _log.error("The previous asynchronous checkpoint save failed: %s", err)
    thread = threading.Thread(
        target=_async_save_worker, args=(path, items, crc_check, format, remove_redundancy), name="asyn_save_ckpt"
    )
    with _async_lock:
        _async_thread = thread
    thread.start()


# ============================================================================ loading
def _check_prefix(prefix: Any) -> tuple[str, ...] | None:
    if prefix is None:
        return None
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError(
            "For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must be string, "
            f"list[string] or tuple[string], but got {type(prefix)}."
        )
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not prefix:
        raise ValueError(
            "For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' can't be empty when "
            "'specify_prefix' or 'filter_prefix' is list or tuple."
        )
    for index, pre in enumerate(prefix):
        if not isinstance(pre, str):
            raise TypeError(
                "For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is list or tuple, the element in "
                f"it must be string, but got {type(pre)} at index {index}."
            )
        if pre == "":
            raise ValueError(
                "For 'load_checkpoint', the value of 'specify_prefix' or 'filter_prefix' can't include ''."
            )
    return tuple(prefix)


def _check_file(file: Any, format: str) -> str:
    if format not in ("ckpt", "safetensors"):
        raise ValueError(
            "For 'load_checkpoint', the checkpoint file should end with '.ckpt' or '.safetensors', please input the "
            "correct 'format'."
        )
    if isinstance(file, os.PathLike):
        file = os.fspath(file)
    if not isinstance(file, str):
        raise TypeError(f"For 'load_checkpoint', the argument 'ckpt_file_name' must be string, but got {type(file)}.")
    if not file.endswith(format):
        raise ValueError(
            f"For 'load_checkpoint', the checkpoint file format must same with 'format', but got file_name:'{file}', "
            f"format:'{format}'"
        )
    file = os.path.realpath(file)
    if not os.path.exists(file):
        raise _CheckpointNotFoundError(
            f"For 'load_checkpoint', the checkpoint file: {file} does not exist, please check whether the "
            "'ckpt_file_name' is correct."
        )
    if os.path.isdir(file):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {file} is a directory, not a file.")
    return file


def _wanted(name: str, specify: tuple[str, ...] | None, filt: tuple[str, ...] | None) -> bool:
    if specify and not name.startswith(specify):
        return False
    return not (filt and name.startswith(filt))


def _corrupt(path: str, reason: str) -> ValueError:
    return ValueError(
        f"Failed to read the checkpoint file {path}. The file may be truncated or corrupted, and the content cannot "
        f"be parsed: {reason}."
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
    if has_crc:
        stored = int.from_bytes(content[-10:], byteorder="big")
        content = memoryview(content)[:-_CRC_TRAILER_LEN]
        if crc_check and binascii.crc32(content) != stored:
            raise ValueError(
                "For 'load_checkpoint', the crc check is failed, please check whether the ckpt file is damaged."
            )
    try:
        records = list(pb.iter_values(content))
    except pb.CheckpointFormatError as err:
        if not has_crc or crc_check:
            raise _corrupt(path, str(err)) from None
        try:  # the bytes only looked like a CRC trailer
            records = list(pb.iter_values(whole))
        except pb.CheckpointFormatError:
            raise _corrupt(path, str(err)) from None
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
    if crc_check:
        if "crc_num" not in meta:
            _log.warning(
                "For 'load_checkpoint', the safetensors file do not contain the crc code, please check the file."
            )
        else:
            crc = 0
            for k in names:
                crc = binascii.crc32(k.encode("utf-8"), crc)
                crc = binascii.crc32(out[k].tobytes(), crc)
            if str(crc) != str(meta["crc_num"]):
                raise ValueError(
                    "For 'load_checkpoint', the crc check has failed. Please check whether the ckpt file is damaged."
                )
    return [(k, out[k]) for k in names], meta


def load_checkpoint(
    ckpt_file_name: str,
    net: Cell | None = None,
    strict_load: bool = False,
    filter_prefix: str | list | tuple | None = None,
    dec_key: bytes | None = None,
    dec_mode: str = "AES-GCM",
    specify_prefix: str | list | tuple | None = None,
    choice_func: Callable[[str], bool] | None = None,
    crc_check: bool = False,
    remove_redundancy: bool = False,
    format: str = "ckpt",
) -> dict[str, Any]:
    """Load a checkpoint file into a dict of name -> Parameter (string entries stay ``str``).

    The whole file is read and verified before anything is returned or loaded into `net`.

    Args:
        ckpt_file_name (str): the file; its extension must match `format`.
        net (Cell): when given, the parameters are loaded into it with :func:`load_param_into_net`.
            Default: ``None``.
        strict_load (bool): passed to :func:`load_param_into_net`. Default: ``False``.
        filter_prefix (Union[str, list[str], tuple[str]]): parameters whose names start with one of these are
            skipped. Default: ``None``.
        dec_key (Union[None, bytes]): decryption is not supported; must be ``None``.
        dec_mode (str): unused. Default: ``"AES-GCM"``.
        specify_prefix (Union[str, list[str], tuple[str]]): only parameters whose names start with one of these
            are loaded. Default: ``None``.
        choice_func (function): ``choice_func(name) -> bool`` selects parameters; ignored when `filter_prefix`
            or `specify_prefix` is given (as in MindSpore). Default: ``None``.
        crc_check (bool): verify the CRC32 trailer when the file has one. Default: ``False``.
        remove_redundancy (bool): passed to :func:`load_param_into_net`. Default: ``False``.
        format (str): ``"ckpt"`` or ``"safetensors"``. Default: ``"ckpt"``.

    Returns:
        dict, name -> Parameter.

    Raises:
        ValueError: the file does not exist (also a ``FileNotFoundError``), is truncated or corrupt, fails the
            CRC check, or nothing is left after filtering.
        TypeError: an argument has a wrong type.
        NotImplementedError: `dec_key` is given.
    """
    specify_prefix = _check_prefix(specify_prefix)
    filter_prefix = _check_prefix(filter_prefix)
    _no_encryption("load_checkpoint", dec_key, "dec_key")
    for name, value in (("crc_check", crc_check), ("remove_redundancy", remove_redundancy)):
        if not isinstance(value, bool):
            raise TypeError(f"For 'load_checkpoint', the '{name}' must be bool, but got {type(value).__name__}.")
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"For 'load_checkpoint', the 'choice_func' must be callable, but got {type(choice_func)}.")
    path = _check_file(ckpt_file_name, format)

    if format == "safetensors":
        entries, meta = _parse_safetensors(path, crc_check)
        flag = meta.get("remove_redundancy")
        if flag == "True" and not remove_redundancy:
            _log.warning(
                "For 'load_checkpoint', the safetensors file is deduplicated, but remove_redundancy is set to False."
            )
            remove_redundancy = True
        elif flag == "False" and remove_redundancy:
            _log.warning(
                "For 'load_checkpoint', the safetensors file is non-deduplicated, but remove_redundancy is set to True."
            )
            remove_redundancy = False
    else:
        entries = _parse_ckpt(path, crc_check)

    use_choice_func = specify_prefix is None and filter_prefix is None and choice_func is not None
    parameter_dict: dict[str, Any] = {}
    for name, value in entries:
        if not _wanted(name, specify_prefix, filter_prefix):
            continue
        if use_choice_func and not choice_func(name):  # type: ignore[misc]
            continue
        if isinstance(value, np.ndarray):
            parameter_dict[name] = Parameter(_to_tensor(value), name=name)
        else:
            parameter_dict[name] = value
    if not parameter_dict:
        raise ValueError(
            "The loaded parameter dict is empty after filter or specify, please check whether 'filter_prefix' or "
            "'specify_prefix' are set correctly."
        )
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return parameter_dict


class ParamDictFuture:
    """What :func:`load_checkpoint_async` returns: ``result()`` waits and gives the parameter dict."""

    def __init__(self, executor: ThreadPoolExecutor, param_dict_future: Any) -> None:
        self.executor = executor
        self.param_dict_future = param_dict_future

    def result(self) -> dict[str, Any]:
        try:
            return self.param_dict_future.result()
        finally:
            self.executor.shutdown()


def load_checkpoint_async(
    ckpt_file_name: str,
    net: Cell | None = None,
    strict_load: bool = False,
    filter_prefix: str | list | tuple | None = None,
    dec_key: bytes | None = None,
    dec_mode: str = "AES-GCM",
    specify_prefix: str | list | tuple | None = None,
    choice_func: Callable[[str], bool] | None = None,
) -> ParamDictFuture:
    """Load a checkpoint in a background thread; ``.result()`` of the returned object gives what
    :func:`load_checkpoint` returns (and raises what it raises). The format follows the file's extension."""
    format = "safetensors" if os.fspath(ckpt_file_name).endswith(".safetensors") else "ckpt"
    executor = ThreadPoolExecutor(max_workers=1)
    future = executor.submit(
        load_checkpoint,
        ckpt_file_name,
        net,
        strict_load,
        filter_prefix,
        dec_key,
        dec_mode,
        specify_prefix,
        choice_func,
        format=format,
    )
    return ParamDictFuture(executor, future)


# ============================================================================ into a network
_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)
_INT_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64)


def _special_process_par(param: Parameter, new_param: Parameter) -> bool:
    """(12, 2048, 1, 1) -> (12, 2048): trailing unit dimensions in the checkpoint are dropped (MindSpore)."""
    n, m = len(param.shape), len(new_param.shape)
    if m <= n or any(d != 1 for d in new_param.shape[n:]) or new_param.shape[:n] != param.shape:
        return False
    value = _to_tensor(new_param.asnumpy().reshape(param.shape))
    param.set_data(value if value.dtype == param.dtype else value.astype(param.dtype))
    return True


def _update_param(param: Parameter, new_param: Parameter, strict_load: bool) -> None:
    if param.shape != new_param.shape:
        if not _special_process_par(param, new_param):
            _log.critical("Failed to combine the net and the parameters for param %s.", param.name)
            raise RuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same shape as "
                f"{param.name} in the argument 'parameter_dict'. But got its shape {param.shape} in the argument 'net' "
                f"and shape {new_param.shape} in the argument 'parameter_dict'. May you need to check whether the "
                "checkpoint you loaded is correct or the batch size and so on in the 'net' and 'parameter_dict' are same."
            )
        return
    if param.dtype != new_param.dtype:
        pair = {param.dtype, new_param.dtype}
        if not strict_load and (pair.issubset(_FLOAT_TYPES) or pair.issubset(_INT_TYPES)):
            _log.warning(
                "The type of %s:%s in 'parameter_dict' is different from the type of it in 'net':%s, then the type "
                "convert from %s to %s in the network.",
                new_param.name,
                new_param.dtype,
                param.dtype,
                new_param.dtype,
                param.dtype,
            )
            param.set_data(new_param.astype(param.dtype))
            return
        _log.critical("Failed to combine the net and the parameters for param %s.", param.name)
        raise RuntimeError(
            f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same type as "
            f"{param.name} in the argument 'parameter_dict'. but got its type {param.dtype} in the argument 'net' "
            f"and type {new_param.dtype} in the argument 'parameter_dict'. May you need to check whether the "
            "checkpoint you loaded is correct."
        )
    param.set_data(new_param)


def _load_dismatch_prefix_params(net: Cell, parameter_dict: dict, param_not_load: list[str], strict_load: bool) -> None:
    """Parameters still missing: find a prefix that the checkpoint's names carry over the net's, and retry."""
    prefix_name = ""
    longest_name = param_not_load[0]
    while prefix_name != longest_name and param_not_load:
        prefix_name = longest_name
        for net_param_name in param_not_load:
            for dict_name in parameter_dict:
                if dict_name.endswith(net_param_name):
                    prefix_name = dict_name[: -len(net_param_name)]
                    break
            if prefix_name != longest_name:
                break
        if prefix_name != longest_name:
            _log.warning("For 'load_param_into_net', remove parameter prefix name: %s, continue to load.", prefix_name)
            for _, param in net.parameters_and_names():
                new_param_name = prefix_name + param.name
                if param.name in param_not_load and new_param_name in parameter_dict:
                    new_param = parameter_dict[new_param_name]
                    if isinstance(new_param, Parameter):
                        _update_param(param, new_param, strict_load)
                        param_not_load.remove(param.name)


def load_param_into_net(
    net: Cell, parameter_dict: dict, strict_load: bool = False, remove_redundancy: bool = False
) -> tuple[list[str], list[str]]:
    """Load parameters into a network.

    Args:
        net (Cell): the network.
        parameter_dict (dict): name -> Parameter, as :func:`load_checkpoint` returns.
        strict_load (bool): if ``False``, a parameter whose name in the checkpoint carries an extra prefix is
            still matched, and float (or int) values of another width are converted to the network's dtype.
            Default: ``False``.
        remove_redundancy (bool): kept for MindSpore compatibility (single device). Default: ``False``.

    Returns:
        - param_not_load (list): names of the network's parameters that were not loaded.
        - ckpt_not_load (list): names in `parameter_dict` that were not loaded into the network.

    Raises:
        TypeError: `net` is not a Cell, or `parameter_dict` is not a dict of str -> Parameter.
        RuntimeError: a parameter's shape (or, beyond the conversions above, dtype) differs from the network's.
    """
    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(
            f"For 'load_param_into_net', the argument 'parameter_dict' should be a dict, but got {type(parameter_dict)}."
        )
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError(
                "For 'parameter_dict', the element in the argument 'parameter_dict' should be a 'str' and "
                f"'Parameter' , but got {type(key)} and {type(value)}."
            )
    for name, value in (("strict_load", strict_load), ("remove_redundancy", remove_redundancy)):
        if not isinstance(value, bool):
            raise TypeError(f"For 'load_param_into_net', the '{name}' must be bool, but got {type(value).__name__}.")

    param_not_load: list[str] = []
    ckpt_not_load = list(parameter_dict.keys())
    for _, param in net.parameters_and_names():
        if param.name in parameter_dict:
            new_param = parameter_dict[param.name]
            if not isinstance(new_param, Parameter):  # strings and map tensors do not load into Parameters
                continue
            _update_param(param, new_param, strict_load)
            ckpt_not_load.remove(param.name)
        else:
            if param.name.startswith("accu_grads"):
                continue
            param_not_load.append(param.name)
    if param_not_load and not strict_load:
        _load_dismatch_prefix_params(net, parameter_dict, param_not_load, strict_load)
    if param_not_load:
        _log.warning(
            "For 'load_param_into_net', %d parameters in the 'net' are not loaded, because they are not in the "
            "'parameter_dict', please check whether the network structure is consistent when training and loading "
            "checkpoint.",
            len(param_not_load),
        )
        _log.warning("%s are not loaded.", param_not_load)
    return param_not_load, ckpt_not_load
