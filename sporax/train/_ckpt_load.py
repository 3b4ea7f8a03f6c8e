"""``load_checkpoint`` and ``load_checkpoint_async``: the whole file is read and verified before anything is
returned or loaded into a network (no pickle, no code)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .._checkparam import check_ckpt_file, check_ckpt_prefix, check_no_encryption
from ..common.parameter import Parameter
from ..nn.cell import Cell
from ._ckpt_format import _parse_ckpt, _to_tensor
from ._param_load import load_param_into_net
from ._safetensors_format import _parse_safetensors

_log = logging.getLogger("sporax")


# ============================================================================ loading
def _wanted(name: str, specify: tuple[str, ...] | None, filt: tuple[str, ...] | None) -> bool:
    if specify and not name.startswith(specify):
        return False
    return not (filt and name.startswith(filt))


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
    specify_prefix = check_ckpt_prefix(specify_prefix)
    filter_prefix = check_ckpt_prefix(filter_prefix)
    check_no_encryption("load_checkpoint", dec_key, "dec_key")
    for name, value in (("crc_check", crc_check), ("remove_redundancy", remove_redundancy)):
        if not isinstance(value, bool):
            raise TypeError(f"For 'load_checkpoint', the '{name}' must be bool, but got {type(value).__name__}.")
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"For 'load_checkpoint', the 'choice_func' must be callable, but got {type(choice_func)}.")
    path = check_ckpt_file(ckpt_file_name, format)

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
