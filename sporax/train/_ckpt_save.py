"""``save_checkpoint``: MindSpore's argument rules, a host snapshot of what is saved (a Cell's parameters,
a list or a dict), then the file in the chosen format, now or in the background."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _checkparam as validator
from .._checkparam import check_append_dict, check_async_save, check_ckpt_save_target
from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..nn.cell import Cell
from ._ckpt_write import _exec_save, _start_async_save

_log = logging.getLogger("sporax")


# ============================================================================ saving
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
    path = check_ckpt_save_target(save_obj, ckpt_file_name, format, Cell)
    validator.check_arg_type("integrated_save", integrated_save, bool, "save_checkpoint")
    async_save = check_async_save(async_save)
    append_dict = check_append_dict(append_dict, Tensor)
    validator.check_no_encryption("save_checkpoint", enc_key, "enc_key")
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
    _start_async_save(path, items, crc_check, format, remove_redundancy)
