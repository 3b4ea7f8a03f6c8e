"""The dataset pipeline's argument checks, with the messages of MindSpore's dataset validators."""

from __future__ import annotations

import glob
import math
import numbers
import os
from typing import Any

import numpy as np


def check_pipeline_int(arg_value: Any, arg_name: str, lower: int, upper: int) -> int:
    """An int in ``[lower, upper]`` with the dataset pipeline's messages (MindSpore's dataset validators):
    ``Input seed is not within the required interval of [0, 4294967295].``"""
    check_pipeline_type(arg_value, (int, np.integer), arg_name, "[<class 'int'>]", quote=True)
    if not lower <= int(arg_value) <= upper:
        raise ValueError(f"Input {arg_name} is not within the required interval of [{lower}, {upper}].")
    return int(arg_value)


def check_pipeline_float(
    arg_value: Any, arg_name: str, lower: float, upper: float | None = None, left_open: bool = False
) -> float:
    """A real number in ``[lower, upper]`` (``(lower, upper]`` when ``left_open``; no upper bound when None) with
    the dataset pipeline's messages, as a float: ``Input prob is not within the required interval of [0.0, 1.0].``"""
    check_pipeline_type(arg_value, numbers.Real, arg_name, "[<class 'float'>, <class 'int'>]")
    value = float(arg_value)
    if value < lower or (left_open and value == lower) or (upper is not None and value > upper):
        raise ValueError(
            f"Input {arg_name} is not within the required interval of {'(' if left_open else '['}{lower}, "
            f"{16777216 if upper is None else upper}]."
        )
    return value


def _num_samples_in_range(num_samples: Any) -> int:
    if not 0 <= int(num_samples) <= 2**63 - 1:
        raise ValueError(f"num_samples exceeds the boundary between 0 and {2**63 - 1}(INT64_MAX)!")
    return int(num_samples)


def check_num_samples(num_samples: Any) -> int | None:
    """A sampler's ``num_samples``: None or an int in [0, INT64_MAX], with MindSpore's sampler messages; 0 and
    None (all rows) both come back as None."""
    if num_samples is None:
        return None
    if isinstance(num_samples, bool) or not isinstance(num_samples, (int, np.integer)):
        raise TypeError(f"num_samples must be integer but was: {num_samples}.")
    return _num_samples_in_range(num_samples) or None


def check_source_num_samples(num_samples: Any) -> int | None:
    """A source's ``num_samples``: None or an int in [0, INT64_MAX], with MindSpore's source messages."""
    if num_samples is None:
        return None
    check_pipeline_type(num_samples, (int, np.integer), "num_samples", "[<class 'int'>]")
    return _num_samples_in_range(num_samples)


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


def check_dataset_file(path: Any) -> str:
    """A file a source reads: a path (str or path-like) to a readable file, returned as a str."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str) or not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise ValueError(f"The file {path} does not exist or permission denied!")
    return path


def check_pipeline_choice(arg_value: Any, allowed: Any, arg_name: str) -> Any:
    """An optional str among ``allowed`` with the dataset pipeline's messages (None passes)."""
    if arg_value is not None:
        check_pipeline_type(arg_value, str, arg_name, quote=True)
    if arg_value is not None and arg_value not in allowed:
        raise ValueError(f"Input {arg_name} is not within the valid set of {list(allowed)}.")
    return arg_value


def check_pipeline_bool(arg_value: Any, arg_name: str) -> Any:
    """An optional bool with the dataset pipeline's message (None passes: the source's default applies)."""
    if arg_value is not None:
        check_pipeline_type(arg_value, bool, arg_name, quote=True)
    return arg_value


def pipeline_type_error(arg_value: Any, type_text: str, arg_name: str, *, quote: bool = False, got: bool = True):
    """The TypeError of MindSpore's dataset ``type_check``: ``Argument x with value 1.5 is not of type
    [<class 'int'>], but got <class 'float'>.`` (``quote``: the value's repr; ``got=False``: without the tail)."""
    value = repr(arg_value) if quote else arg_value
    tail = f", but got {type(arg_value)}" if got else ""
    return TypeError(f"Argument {arg_name} with value {value} is not of type {type_text}{tail}.")


def check_pipeline_type(
    arg_value: Any, types: Any, arg_name: str, type_text: str | None = None, *, quote: bool = False, got: bool = True
) -> Any:
    """``arg_value`` is an instance of ``types`` (a class or a tuple; a bool is not an int unless ``bool`` is
    listed), with the message of :func:`pipeline_type_error`; ``type_text`` names the types in it (default: the
    list of ``types``, as MindSpore prints it)."""
    types = types if isinstance(types, tuple) else (types,)
    if (isinstance(arg_value, bool) and bool not in types) or not isinstance(arg_value, types):
        raise pipeline_type_error(arg_value, type_text or str(list(types)), arg_name, quote=quote, got=got)
    return arg_value


def check_pipeline_range(
    value: Any, arg_name: str, lower: Any, upper: Any, left_open: bool = False, right_open: bool = False
) -> Any:
    """``value`` within ``[lower, upper]`` (either end open), with MindSpore's dataset message:
    ``Input Q is not within the required interval of (0, 1].``"""
    low_ok = value > lower if left_open else value >= lower
    high_ok = value < upper if right_open else value <= upper
    if not (low_ok and high_ok):
        left, right = "(" if left_open else "[", ")" if right_open else "]"
        raise ValueError(f"Input {arg_name} is not within the required interval of {left}{lower}, {upper}{right}.")
    return value


def check_pipeline_flag(value: Any, message: str) -> bool:
    """A bool setting (``ds.config.set_debug_mode``...): anything else raises TypeError(``message``)."""
    if not isinstance(value, bool):
        raise TypeError(message)
    return value


def check_shards(num_shards: Any, shard_id: Any) -> None:
    """A source's ``num_shards`` and ``shard_id``: both None, or an int >= 1 and an int in [0, num_shards)."""
    if num_shards is None and shard_id is None:
        return
    if num_shards is None:
        raise RuntimeError("shard_id is specified but num_shards is not.")
    if shard_id is None:
        raise RuntimeError("num_shards is specified and currently requires shard_id as well.")
    check_pipeline_int(num_shards, "num_shards", 1, 2**31 - 1)
    check_pipeline_type(shard_id, numbers.Integral, "shard_id", "[<class 'int'>]", got=False)
    if not 0 <= shard_id < num_shards:
        raise ValueError(f"Input shard_id is not within the required interval of [0, {num_shards - 1}].")


def check_dataset_files(dataset_files: Any) -> list[str]:
    """A file source's ``dataset_files``: a path, a glob pattern, or a non-empty list of existing files; the
    files it names (a pattern's matches sorted)."""
    if isinstance(dataset_files, (str, os.PathLike)):
        pattern = os.fspath(dataset_files)
        files = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        files = [f for f in files if os.path.isfile(f)]
        if not files:
            raise ValueError(f"The following patterns did not match any files: {[pattern]}.")
        return files
    if not isinstance(dataset_files, (list, tuple)):
        raise TypeError(f"dataset_files should be a str or a list of str, but got {type(dataset_files).__name__}.")
    for f in dataset_files:
        if not isinstance(f, (str, os.PathLike)):
            raise TypeError(f"Argument dataset_files[{f!r}] is not of type [<class 'str'>].")
        if not os.path.isfile(f):
            raise ValueError(f"The file {f} does not exist or permission denied!")
    if not dataset_files:
        raise ValueError("dataset_files should not be empty.")
    return [os.fspath(f) for f in dataset_files]


def check_language_pair(language_pair: Any, pairs: Any) -> list[str]:
    """A translation corpus's ``language_pair`` among ``pairs`` (None means ``["de", "en"]``), as a list."""
    if language_pair is None:
        return ["de", "en"]
    if not isinstance(language_pair, (list, tuple)):
        raise TypeError("language_pair should be a type list or tuple of length 2.")
    for k, v in enumerate(language_pair):
        check_pipeline_type(v, str, f"language_pair[{k}]", quote=True)
    if len(language_pair) != 2:
        raise ValueError("Input language_pair is a list or tuple of length 2.")
    valid = [list(p) for p in pairs] if isinstance(language_pair, list) else tuple(pairs)
    if (list(language_pair) if isinstance(language_pair, list) else tuple(language_pair)) not in valid:
        raise ValueError(f"Input language_pair{language_pair} is not within the valid set of {valid}.")
    return list(language_pair)


def check_class_indexing(class_indexing: Any) -> Any:
    """A source's ``class_indexing``: None or a dict keyed by class name."""
    if class_indexing is not None and (
        not isinstance(class_indexing, dict) or not all(isinstance(k, str) for k in class_indexing)
    ):
        raise TypeError("class_indexing should be a dictionary.")
    return class_indexing


def check_ds_callbacks(callbacks: Any, callback_cls: Any) -> list:
    """``map``'s ``callbacks``: one or a list of ``callback_cls`` (the dataset's ``DSCallback``), each overriding
    one of its methods; returned as a list."""
    cbs = list(callbacks) if isinstance(callbacks, (list, tuple)) else [callbacks]
    for cb in cbs:
        if not isinstance(cb, callback_cls):
            raise pipeline_type_error(callbacks, "[<class 'DSCallback'>]", "callbacks", quote=True, got=False)
        if not cb._overridden():
            raise AttributeError(
                "Inheriting Callback class without overriding any methods, check the usage of user defined Callback."
            )
    return cbs


def check_sampler_indices(indices: Any) -> np.ndarray:
    """A subset sampler's ``indices``: a sequence of ints, as a 1-D int64 array."""
    if isinstance(indices, (str, bytes)) or not hasattr(indices, "__iter__"):
        raise TypeError(f"indices must be a sequence of integers, but got {type(indices).__name__}.")
    idx = np.asarray(list(indices))
    if idx.size and idx.dtype.kind not in "iu":
        raise TypeError("indices must be a sequence of integers.")
    return idx.astype(np.int64).reshape(-1)


def check_pipeline_interval(arg_value: Any, arg_name: str, lower: int, upper: int, except_zero: bool = False) -> int:
    """An int in ``[lower, upper]`` (not 0 when ``except_zero``); anything else, a wrong type too, raises
    ValueError: ``Input count is not within the required interval of [-1, 2147483647] (and not 0), got 0.``"""
    ok = not isinstance(arg_value, bool) and isinstance(arg_value, numbers.Integral)
    if not ok or not lower <= int(arg_value) <= upper or (except_zero and arg_value == 0):
        zero = " (and not 0)" if except_zero else ""
        raise ValueError(
            f"Input {arg_name} is not within the required interval of [{lower}, {upper}]{zero}, got {arg_value!r}."
        )
    return int(arg_value)


def check_positive_integer(arg_value: Any, arg_name: str) -> int:
    """An int >= 1; anything else raises ValueError: ``num_batch should be a positive integer, but got 0.``"""
    if isinstance(arg_value, bool) or not isinstance(arg_value, numbers.Integral) or int(arg_value) < 1:
        raise ValueError(f"{arg_name} should be a positive integer, but got {arg_value!r}.")
    return int(arg_value)


def check_column_names(columns: Any, arg_name: str) -> list[str] | None:
    """An operation's column argument (``input_columns``, ``columns``...): None, a str or a list of distinct
    str, as a list."""
    if columns is None:
        return None
    if isinstance(columns, str):
        return [columns]
    if isinstance(columns, (list, tuple)) and all(isinstance(c, str) for c in columns):
        if len(set(columns)) != len(columns):
            raise ValueError(f"{arg_name} has duplicate column names: {list(columns)}.")
        return list(columns)
    raise TypeError(f"{arg_name} must be a str or a list of str, but got {columns!r}.")


def check_num_parallel_workers(num_parallel_workers: Any) -> int | None:
    """A node's ``num_parallel_workers``: None (the configured default) or an int in [1, 2147483647]."""
    if num_parallel_workers is None:
        return None
    if (
        isinstance(num_parallel_workers, bool)
        or not isinstance(num_parallel_workers, numbers.Integral)
        or int(num_parallel_workers) < 1
    ):
        raise ValueError("Input num_parallel_workers is not within the required interval of [1, 2147483647].")
    return int(num_parallel_workers)


def check_image_file(filename: Any) -> str:
    """``vision.read_file``/``read_image``'s ``filename``: a str or path-like naming an existing file, as a str."""
    if not isinstance(filename, (str, os.PathLike)):
        raise TypeError(f"Input filename is not of type [<class 'str'>], but got: {type(filename)}.")
    f = os.fspath(filename)
    if not os.path.isfile(f):
        raise ValueError(f"Invalid file path, {f} does not exist.")
    return f


def check_transforms_list(transforms: Any, arg_name: str) -> list:
    """A vision augmentation's list of transforms (``UniformAugment``): a non-empty list or tuple of callables."""
    if not isinstance(transforms, (list, tuple)) or not transforms:
        raise TypeError(f"{arg_name} should be a non-empty list of transforms.")
    for t in transforms:
        if not callable(t):
            raise TypeError(f"{arg_name}: {t!r} is not a callable transform.")
    return list(transforms)


def check_ignore_levels(ignore: Any) -> list[int]:
    """``AutoContrast``'s ``ignore``: None, one int or a sequence of ints in [0, 255], as a list."""
    if ignore is None:
        return []
    ignore = [ignore] if isinstance(ignore, numbers.Integral) else list(ignore)
    for v in ignore:
        check_pipeline_int(v, "ignore", 0, 255)
    return ignore


def check_image_size(size: Any, arg_name: str = "size") -> Any:
    """A vision transform's ``size``: a positive int (the shorter side, or a square) or a (height, width)
    pair of positive ints; returned as an int or a tuple."""
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        if size <= 0:
            raise ValueError(f"Input {arg_name} is not within the required interval of [1, 16777216].")
        return int(size)
    if (
        isinstance(size, (list, tuple))
        and len(size) == 2
        and all(isinstance(s, numbers.Integral) and int(s) > 0 for s in size)
    ):
        return (int(size[0]), int(size[1]))
    raise TypeError(f"{arg_name} should be a positive int or a (height, width) pair, but got {size!r}.")


def check_fill_value(fill_value: Any) -> tuple:
    """A vision transform's ``fill_value``: one number, or three ints in [0, 255]; returned as an RGB triple."""
    if isinstance(fill_value, numbers.Real):
        return (math.trunc(fill_value),) * 3
    if not isinstance(fill_value, (tuple, list)) or len(fill_value) != 3:
        raise TypeError("fill_value should be a single integer or a 3-tuple.")
    for v in fill_value:
        check_pipeline_int(v, "fill_value", 0, 255)
    return tuple(int(v) for v in fill_value)


def check_shear_pair(shear: Any) -> tuple[float, float]:
    """``Affine``'s ``shear``: one number (x shear) or an (x, y) pair, as floats."""
    if isinstance(shear, numbers.Real):
        return (float(shear), 0.0)
    s = list(shear)
    if len(s) != 2:
        raise TypeError("shear should be a number or a sequence of 2 numbers.")
    return (float(s[0]), float(s[1]))


def check_corner_points(pts: Any, arg_name: str) -> list:
    """``Perspective``'s ``start_points``/``end_points``: four (x, y) points, as lists of ints."""
    if not isinstance(pts, (list, tuple)) or len(pts) != 4:
        raise TypeError(f"{arg_name} should be a list or tuple of length 4.")
    for p in pts:
        if not isinstance(p, (list, tuple)) or len(p) != 2:
            raise TypeError(f"each point of {arg_name} should be a list or tuple of length 2.")
    return [list(map(int, p)) for p in pts]


def check_threshold_pair(threshold: Any, arg_name: str = "threshold") -> tuple[float, float]:
    """``Solarize``'s ``threshold``: one number in [0, 255] (up to 255) or an ordered (min, max) pair."""
    t = [threshold] if isinstance(threshold, numbers.Real) and not isinstance(threshold, bool) else list(threshold)
    if len(t) not in (1, 2):
        raise TypeError(f"{arg_name} must be a single number or sequence of two numbers.")
    for v in t:
        check_pipeline_float(v, arg_name, 0, 255)
    lo, hi = (float(t[0]), 255.0) if len(t) == 1 else (float(t[0]), float(t[1]))
    if lo > hi:
        raise ValueError(f"{arg_name} must be in order of (min, max).")
    return lo, hi


def check_degree_range(degrees: Any, arg_name: str = "degrees") -> tuple[float, float]:
    """``RandomColor``/``RandomSharpness``'s ``degrees``: an ordered (min, max) pair of numbers >= 0."""
    if not isinstance(degrees, (list, tuple)) or len(degrees) != 2:
        raise TypeError(f"Argument {arg_name} with value {degrees} is not of type [<class 'list'>, <class 'tuple'>].")
    for d in degrees:
        check_pipeline_float(d, arg_name, 0)
    if degrees[0] > degrees[1]:
        raise ValueError(f"{arg_name} should be in (min,max) format. Got (max,min).")
    return float(degrees[0]), float(degrees[1])


def check_padding(padding: Any) -> tuple:
    """``Pad``/``RandomCrop``'s ``padding``: an int (all sides), a (left/right, top/bottom) pair or four
    values; returned as (left, top, right, bottom)."""
    if isinstance(padding, numbers.Integral):
        return (padding,) * 4
    p = list(padding)
    if len(p) == 2:
        return (p[0], p[1], p[0], p[1])  # left, top, right, bottom
    if len(p) == 4:
        return tuple(p)
    raise ValueError(f"padding should be an int or a sequence of 2 or 4 ints, but got {padding!r}.")


def check_split_sizes(sizes: Any, n: int) -> list[int]:
    """``Dataset.split``'s ``sizes`` for a dataset of ``n`` rows: positive ints summing to ``n``, or fractions in
    (0, 1] summing to 1 (rounded, the rounding error given to the first split that can take it); the row counts."""
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise TypeError("sizes must be a non-empty list of int or float.")
    if all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError("sizes must be positive integers.")
        if sum(sizes) != n:
            raise RuntimeError(f"Sum of split sizes {sum(sizes)} is not equal to dataset size {n}.")
        return [int(s) for s in sizes]
    if all(isinstance(s, float) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
            raise ValueError("split fractions must be in (0, 1] and sum to 1.")
        out = [int(round(s * n)) for s in sizes]
        diff = n - sum(out)
        if diff > 0:
            out[0] += diff
        elif diff < 0:
            for i, s in enumerate(out):
                if s + diff >= 1:
                    out[i] += diff
                    break
        if any(s <= 0 for s in out):
            raise RuntimeError(f"A split of size 0 from {sizes} on a dataset of {n} rows.")
        return out
    raise TypeError("sizes must be all int or all float.")


def check_ngram_pad(pad: Any, arg_name: str) -> tuple:
    """``Ngram``'s ``left_pad`` / ``right_pad``: a ``(token, width)`` tuple, width in [0, 2147483647]."""
    if not isinstance(pad, tuple) or len(pad) != 2 or not isinstance(pad[0], str):
        raise TypeError(f"{arg_name} should be a tuple of (str, int).")
    check_pipeline_int(pad[1], f"padding width of {arg_name}", 0, 2**31 - 1)
    return pad
