"""The dataset pipeline's argument checks, with the messages of MindSpore's dataset validators."""

from __future__ import annotations

import numbers
import os
from typing import Any

import numpy as np


def check_pipeline_int(arg_value: Any, arg_name: str, lower: int, upper: int) -> int:
    """An int in ``[lower, upper]`` with the dataset pipeline's messages (MindSpore's dataset validators):
    ``Input seed is not within the required interval of [0, 4294967295].``"""
    if isinstance(arg_value, bool) or not isinstance(arg_value, (int, np.integer)):
        raise TypeError(
            f"Argument {arg_name} with value {arg_value!r} is not of type [<class 'int'>], but got {type(arg_value)}."
        )
    if not lower <= int(arg_value) <= upper:
        raise ValueError(f"Input {arg_name} is not within the required interval of [{lower}, {upper}].")
    return int(arg_value)


def check_pipeline_float(arg_value: Any, arg_name: str, lower: float, upper: float | None = None) -> float:
    """A real number in ``[lower, upper]`` (no upper bound when None) with the dataset pipeline's messages, as a
    float: ``Input prob is not within the required interval of [0.0, 1.0].``"""
    if isinstance(arg_value, bool) or not isinstance(arg_value, numbers.Real):
        raise TypeError(
            f"Argument {arg_name} with value {arg_value} is not of type [<class 'float'>, <class 'int'>], "
            f"but got {type(arg_value)}."
        )
    value = float(arg_value)
    if value < lower or (upper is not None and value > upper):
        raise ValueError(
            f"Input {arg_name} is not within the required interval of [{lower}, {16777216 if upper is None else upper}]."
        )
    return value


def check_num_samples(num_samples: Any) -> int | None:
    """A sampler's ``num_samples``: None or an int >= 0, returned as an int (0 and None mean all rows: None)."""
    if num_samples is None:
        return None
    if isinstance(num_samples, bool) or not isinstance(num_samples, (int, np.integer)):
        raise TypeError(f"num_samples must be an integer, but got {type(num_samples).__name__}.")
    if num_samples < 0:
        raise ValueError(f"num_samples should be a non-negative integer, but got {num_samples}.")
    return int(num_samples) or None


def check_dataset_dir(dataset_dir: Any) -> str:
    """A source's ``dataset_dir``: a readable directory (a str or path-like), returned as a str."""
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"dataset_dir must be a str, but got {type(dataset_dir).__name__}.")
    d = os.fspath(dataset_dir)
    if not os.path.isdir(d) or not os.access(d, os.R_OK):
        raise ValueError(f"The folder {d} does not exist or is not a directory or permission denied!")
    return d


def check_dataset_usage(usage: Any, allowed: Any) -> str:
    """A source's ``usage`` among ``allowed`` (None means ``"all"``)."""
    usage = "all" if usage is None else usage
    if usage not in allowed:
        raise ValueError(f"Input usage is not within the valid set of {list(allowed)}.")
    return usage


def check_dataset_file(path: str) -> str:
    """A file a source reads: it exists and is readable."""
    if not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise ValueError(f"The file {path} does not exist or permission denied!")
    return path


def check_pipeline_choice(arg_value: Any, allowed: Any, arg_name: str) -> Any:
    """An optional str among ``allowed`` with the dataset pipeline's messages (None passes)."""
    if arg_value is not None and not isinstance(arg_value, str):
        raise TypeError(
            f"Argument {arg_name} with value {arg_value!r} is not of type [<class 'str'>], but got {type(arg_value)}."
        )
    if arg_value is not None and arg_value not in allowed:
        raise ValueError(f"Input {arg_name} is not within the valid set of {list(allowed)}.")
    return arg_value


def check_pipeline_bool(arg_value: Any, arg_name: str) -> Any:
    """An optional bool with the dataset pipeline's message (None passes: the source's default applies)."""
    if arg_value is not None and not isinstance(arg_value, bool):
        raise TypeError(
            f"Argument {arg_name} with value {arg_value!r} is not of type [<class 'bool'>], but got {type(arg_value)}."
        )
    return arg_value
