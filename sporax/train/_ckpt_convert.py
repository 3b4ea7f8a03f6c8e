"""Converting checkpoint files between MindSpore's ``.ckpt`` and safetensors (``ckpt_to_safetensors``,
``safetensors_to_ckpt``), and ``async_ckpt_thread_status``."""

from __future__ import annotations

import logging
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .serialization import load_checkpoint, save_checkpoint

__all__ = ["ckpt_to_safetensors", "safetensors_to_ckpt", "async_ckpt_thread_status"]

_log = logging.getLogger("sporax")
_SUFFIX = {"ckpt": ".ckpt", "safetensors": ".safetensors"}


def async_ckpt_thread_status() -> bool:
    """Whether an asynchronous checkpoint save (``save_checkpoint(..., async_save=True)``) is still running.

    Deprecated in MindSpore since 2.5 (it logs so)."""
    _log.warning(
        "The interface 'mindspore.async_ckpt_thread_status' is deprecated from version 2.5 "
        "and will be removed in a future version."
    )
    return any(t.name == "asyn_save_ckpt" and t.is_alive() for t in threading.enumerate())


def _load_renamed(path: str, name_map: dict | None, src_format: str) -> dict[str, Any]:
    params = load_checkpoint(path, format=src_format)
    if name_map is None:
        return params
    return {name_map.get(k, k): v for k, v in params.items()}


def _convert_one(task: tuple[str, dict | None, str, str, str, str]) -> str:
    src, name_map, dst_dir, file, src_format, dst_format = task
    dst = os.path.join(dst_dir, file.replace(_SUFFIX[src_format], _SUFFIX[dst_format]))
    save_checkpoint(_load_renamed(src, name_map, src_format), dst, format=dst_format)
    return dst


def _rank_tasks(
    file_path: str, save_path: str | None, regex: str | None, name_map: dict | None, src: str, dst: str, func: str
) -> list[tuple]:
    rank_dirs = sorted(
        d for d in os.listdir(file_path) if d.startswith("rank") and os.path.isdir(os.path.join(file_path, d))
    )
    if not rank_dirs:
        raise ValueError(f"For '{func}', no directories starting with 'rank' found in {file_path}.")
    tasks = []
    for rank_dir in rank_dirs:
        rank_path = os.path.join(file_path, rank_dir)
        dst_root = os.path.join(save_path, rank_dir) if save_path is not None else rank_path
        os.makedirs(dst_root, exist_ok=True)
        for file in sorted(os.listdir(rank_path)):
            if file.endswith(_SUFFIX[src]) and (regex is None or re.search(regex, file)):
                tasks.append((os.path.join(rank_path, file), name_map, dst_root, file, src, dst))
    return tasks


def _convert(
    file_path: str, save_path: str | None, name_map: dict | None, regex: str | None, processes_num: int, dst: str
) -> None:
    src = "ckpt" if dst == "safetensors" else "safetensors"
    func = f"{src}_to_{dst}"
    is_dir, is_file = os.path.isdir(file_path), os.path.isfile(file_path)
    if not is_dir and not is_file:
        raise ValueError(f"For {func}, the input path must be a valid path or file, but got {file_path}")
    if save_path and os.path.splitext(save_path)[1]:
        raise ValueError(f"For {func}, the save_path must be a directory, but got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"For {func}, the type of 'name_map' must be a directory, but got '{type(name_map)}'")
    if is_dir:
        tasks = _rank_tasks(file_path, save_path, regex, name_map, src, dst, func)
        # Threads, not processes: the work is file I/O and NumPy copies, and a forked process would inherit
        # XLA's runtime threads.
        with ThreadPoolExecutor(max_workers=max(1, int(processes_num))) as pool:
            list(pool.map(_convert_one, tasks))
        return
    if not file_path.endswith(_SUFFIX[src]):
        raise ValueError(f"For {func}, the input file must be a {_SUFFIX[src]} file, but got {file_path}")
    if regex is not None and not re.findall(regex, file_path):
        raise ValueError(f"For {func}, the input file does not match the regular expression.")
    if save_path and not os.path.exists(save_path):
        os.makedirs(save_path, exist_ok=True)
    dst_dir = save_path if save_path else os.path.dirname(file_path)
    _convert_one((file_path, name_map, dst_dir, os.path.basename(file_path), src, dst))


def ckpt_to_safetensors(
    file_path: str,
    save_path: str | None = None,
    name_map: dict | None = None,
    file_name_regex: str | None = None,
    processes_num: int = 1,
) -> None:
    """Convert a ``.ckpt`` file, or the ``.ckpt`` files in the ``rank*`` folders of a directory, to safetensors
    files in `save_path` (default: next to each source; a directory keeps its ``rank*`` layout).

    Args:
        file_path (str): A ``.ckpt`` file, or a directory of ``rank*`` folders holding them.
        save_path (str, optional): The output directory. Default: ``None``.
        name_map (dict, optional): Renames parameters (old name -> new name). Default: ``None``.
        file_name_regex (str, optional): Only convert files whose name matches. Default: ``None``.
        processes_num (int, optional): How many files are converted at once. Default: ``1``.

    Raises:
        ValueError: The path is invalid, `save_path` is not a directory, the file is not a ``.ckpt`` file, or a
            directory has no ``rank*`` folder.
    """
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "safetensors")


def safetensors_to_ckpt(
    file_path: str,
    save_path: str | None = None,
    name_map: dict | None = None,
    file_name_regex: str | None = None,
    processes_num: int = 1,
) -> None:
    """Convert a ``.safetensors`` file, or those in the ``rank*`` folders of a directory, to MindSpore
    ``.ckpt`` files (arguments as :func:`ckpt_to_safetensors`)."""
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "ckpt")
