"""The dataset pipeline's argument checks, with the messages of MindSpore's dataset validators."""

from __future__ import annotations

import glob
import inspect
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
    check_sampler_arg(num_samples, "num_samples")
    return _num_samples_in_range(num_samples) or None


_SAMPLER_KINDS = {int: "integer", bool: "a boolean value", str: "a str value"}


def check_sampler_arg(value: Any, arg_name: str, kind: type = int, what: str | None = None) -> Any:
    """A sampler's argument of type ``kind`` (int, bool or str; an int is not a bool), with MindSpore's sampler
    message: ``start_index must be integer but was: 1.5.`` (``what`` replaces the kind's words)."""
    ok = (
        isinstance(value, (int, np.integer)) and not isinstance(value, bool) if kind is int else isinstance(value, kind)
    )
    if not ok:
        raise TypeError(f"{arg_name} must be {what or _SAMPLER_KINDS[kind]} but was: {value}.")
    return value


def check_source_num_samples(num_samples: Any) -> int | None:
    """A source's ``num_samples``: None or an int in [0, INT64_MAX], with MindSpore's source messages."""
    if num_samples is None:
        return None
    check_pipeline_type(num_samples, (int, np.integer), "num_samples", "[<class 'int'>]")
    return _num_samples_in_range(num_samples)


def check_dataset_dir(dataset_dir: Any) -> str:
    """A source's ``dataset_dir``: a readable directory (a str or path-like), returned as a str."""
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise pipeline_type_error(dataset_dir, "[<class 'str'>]", "dataset_dir")
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
    value = repr(arg_value) if quote else ('""' if arg_value == "" else arg_value)
    tail = f", but got {type(arg_value)}" if got else ""
    return TypeError(f"Argument {arg_name} with value {value} is not of type {type_text}{tail}.")


def check_pipeline_type(
    arg_value: Any, types: Any, arg_name: str, type_text: str | None = None, *, quote: bool = False, got: bool = True
) -> Any:
    """``arg_value`` is an instance of ``types`` (a class or a tuple; a bool is not an int unless ``bool`` is
    listed), with the message of :func:`pipeline_type_error`; ``type_text`` names the types in it (default: the
    list of ``types``, as MindSpore prints it)."""
    types = types if isinstance(types, tuple) else (types,)
    if isinstance(arg_value, bool) and bool not in types and int in types:  # MindSpore prints the tuple here
        inner = type_text[1:-1] if type_text else ", ".join(map(str, types))
        raise pipeline_type_error(arg_value, f"({inner}{'' if ', ' in inner else ','})", arg_name, quote=quote, got=got)
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
    check_pipeline_interval(num_shards, "num_shards", 1, 2**31 - 1)
    if shard_id is None:
        raise RuntimeError("num_shards is specified and currently requires shard_id as well.")
    check_pipeline_type(shard_id, numbers.Integral, "shard_id", "[<class 'int'>]")
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
    if class_indexing is not None and not isinstance(class_indexing, dict):
        raise pipeline_type_error(class_indexing, "[<class 'dict'>]", "class_indexing")
    if class_indexing is not None and not all(isinstance(k, str) for k in class_indexing):
        raise TypeError("class_indexing should be a dictionary.")
    return class_indexing


def check_ds_callbacks(callbacks: Any, callback_cls: Any) -> list:
    """``map``'s ``callbacks``: one or a list of ``callback_cls`` (the dataset's ``DSCallback``), each overriding
    one of its methods; returned as a list."""
    listed = isinstance(callbacks, (list, tuple))
    cbs = list(callbacks) if listed else [callbacks]
    for i, cb in enumerate(cbs):
        if not isinstance(cb, callback_cls):
            raise pipeline_type_error(cb, "[<class 'DSCallback'>]", f"callbacks[{i}]" if listed else "callbacks")
        if not cb._overridden():
            raise AttributeError(
                "Inheriting Callback class without overriding any methods, check the usage of user defined Callback."
            )
    return cbs


def check_sampler_indices(indices: Any) -> np.ndarray:
    """A subset sampler's ``indices``: one int or an iterable of ints, as a 1-D int64 array."""
    if isinstance(indices, (int, np.integer)) and not isinstance(indices, bool):
        indices = [indices]
    elif isinstance(indices, str) or not hasattr(indices, "__iter__"):
        raise TypeError(f"Unsupported sampler object of type ({type(indices)})")
    indices = list(indices)
    for i, item in enumerate(indices):
        if isinstance(item, bool) or not isinstance(item, (int, np.integer)):
            raise TypeError(
                f"SubsetSampler: Type of indices element must be int, but got list[{i}]: {item}, type: {type(item)}."
            )
    return np.asarray(indices, np.int64).reshape(-1)


_SEP = "------------------------------------------------------------------"


def pipeline_error(
    msg: str, head: str = "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. "
) -> RuntimeError:
    """The RuntimeError MindSpore's pipeline (its C++ layer) raises, ``[ERROR] msg`` under ``head`` (a node's
    parameter check: ``"Syntax error. "``)."""
    return RuntimeError(f"{head}\n\n{_SEP}\n- Dataset Pipeline Error Message: \n{_SEP}\n[ERROR] {msg}\n")


def check_start_index(start_index: Any) -> int:
    """``SequentialSampler``'s ``start_index``: None (0) or an int >= 0."""
    if start_index is None:
        return 0
    check_sampler_arg(start_index, "start_index")
    if start_index < 0:
        raise pipeline_error(
            f"SequentialSampler: start_index_ must be greater than or equal to 0, but got: {start_index}"
        )
    return int(start_index)


def check_distributed_args(num_shards: Any, shard_id: Any, shuffle: Any, offset: Any) -> tuple:
    """``DistributedSampler``'s ``num_shards`` (>= 1), ``shard_id`` (in [0, num_shards)), ``shuffle`` (a bool)
    and ``offset`` (-1 or at most num_shards), with MindSpore's messages (its C++ ones for the ranges)."""
    for name, v in (("num_shards", num_shards), ("shard_id", shard_id)):
        check_sampler_arg(v, name)
    check_sampler_arg(shuffle, "shuffle", bool, "a boolean value or valid shuffle mode")
    check_sampler_arg(offset, "offset")
    if num_shards <= 0:
        raise pipeline_error(f"DistributedSampler: num_shards must be greater than 0, but got: {num_shards}")
    if not 0 <= shard_id < num_shards:
        raise pipeline_error(f"DistributedSampler: shard_id must be in range [0, {num_shards}), but got: {shard_id}")
    if offset > num_shards:
        raise pipeline_error(
            f"DistributedSampler: offset must be no more than num_shards({num_shards}), but got: {offset}"
        )
    return int(num_shards), int(shard_id), shuffle, int(offset)


def check_sampler_weights(weights: Any) -> np.ndarray:
    """``WeightedRandomSampler``'s ``weights``: one number or a list of numbers >= 0, not empty nor all zero
    (MindSpore's messages, its C++ ones for the values), as a float64 array."""
    weights = weights if isinstance(weights, list) else [weights]
    for i, w in enumerate(weights):
        if not isinstance(w, numbers.Number):
            raise TypeError(f"type of weights element must be number, but got w[{i}]: {w}, type: {type(w)}.")
    w = np.asarray(weights, np.float64).reshape(-1)
    if w.size == 0:
        raise pipeline_error("WeightedRandomSampler: weights vector must not be empty")
    for i, v in enumerate(w):
        if v < 0:
            raise pipeline_error(
                f"WeightedRandomSampler: weights vector must not contain negative numbers, got: weights[{i}] = {v:f}"
            )
    if not w.sum() > 0:
        raise pipeline_error("WeightedRandomSampler: elements of weights vector must not be all zero")
    return w


def check_source_options(
    num_samples: Any, shuffle: Any, sampler: Any, num_shards: Any, shard_id: Any, generator: bool = False
) -> None:
    """A random-access source's ``num_samples``/``shuffle``/``sampler``/sharding combination, with the messages of
    MindSpore's folder sources or (``generator``) of ``GeneratorDataset``/``NumpySlicesDataset``."""
    if shuffle is not None:
        check_pipeline_type(shuffle, bool, "shuffle")
    if not generator:
        if sampler is not None and shuffle is not None:
            raise RuntimeError("sampler and shuffle cannot be specified at the same time.")
        if sampler is not None and (num_shards is not None or shard_id is not None):
            raise RuntimeError("sampler and sharding cannot be specified at the same time.")
        check_shards(num_shards, shard_id)
        return
    if (num_shards is None) != (shard_id is None):
        raise ValueError("num_shards and shard_id need to be passed in together.")
    if num_shards is not None:
        check_pipeline_interval(num_shards, "num_shards", 1, 2**31 - 1)
        check_pipeline_type(shard_id, (int, np.integer), "shard_id", "[<class 'int'>]")
        if shard_id >= num_shards:
            raise ValueError("shard_id should be less than num_shards.")
        if shard_id < 0:
            raise pipeline_error(
                f"DistributedSampler: shard_id must be in range [0, {num_shards}), but got: {shard_id}"
            )
    if sampler is not None and not hasattr(sampler, "__iter__") and not hasattr(sampler, "indices"):
        raise TypeError("sampler should be either iterable or from mindspore.dataset.samplers.")
    if hasattr(sampler, "indices") and any(a is not None for a in (num_shards, shard_id, shuffle, num_samples)):
        raise ValueError(
            f"Conflicting arguments during sampler assignments. num_samples: {num_samples}, num_shards: {num_shards}, "
            f"shard_id: {shard_id}, shuffle: {shuffle}."
        )


def check_pipeline_interval(
    arg_value: Any,
    arg_name: str,
    lower: int,
    upper: int,
    except_zero: bool = False,
    *,
    message: str | None = None,
    type_name: str | None = None,
    type_text: str = "[<class 'int'>]",
) -> int:
    """MindSpore's ``type_check`` (an int, not a bool; a numpy int passes) named ``type_name`` (default
    ``arg_name``), then ``[lower, upper]`` (not 0 when ``except_zero``); out of range raises ValueError(``message``, formatted with ``value``),
    by default ``Input count is not within the required interval of [0, 2147483647].``"""
    check_pipeline_type(arg_value, (int, np.integer), type_name or arg_name, type_text)
    if not lower <= int(arg_value) <= upper or (except_zero and int(arg_value) == 0):
        text = message or "Input {name} is not within the required interval of [{lower}, {upper}]."
        raise ValueError(text.format(name=arg_name, lower=lower, upper=upper, value=arg_value))
    return int(arg_value)


def check_max_rowsize(max_rowsize: Any) -> Any:
    """``max_rowsize`` of ``map``/``batch``: ``None``, an int in [-1, INT32_MAX] or a list ``[in, out]`` of two
    such ints, with MindSpore's messages (its ``max_rowsizei[k]`` range message included)."""
    if max_rowsize is None:
        return None
    check_pipeline_type(max_rowsize, (int, list), "max_rowsize")
    if isinstance(max_rowsize, int):
        return check_pipeline_interval(max_rowsize, "max_rowsize", -1, 2**31 - 1)
    if len(max_rowsize) != 2:
        raise TypeError("max_rowsize should be a single integer or a list[in_rowsize, out_rowsize] of length 2.")
    for k, v in enumerate(max_rowsize):
        check_pipeline_type(v, int, f"max_rowsize[{k}]")
        check_pipeline_interval(v, f"max_rowsizei[{k}]", -1, 2**31 - 1)
    return list(max_rowsize)


def check_num_epochs(num_epochs: Any) -> int:
    """An iterator's ``num_epochs``: -1 (unlimited) or an int in [1, INT32_MAX]; 0 is the pipeline's own error."""
    num_epochs = check_pipeline_interval(num_epochs, "num_epochs", -1, 2**31 - 1)
    if num_epochs == 0:
        raise pipeline_error(
            "RootNode: num_epochs should be either -1 or positive integer, num_epochs: 0", "Syntax error. "
        )
    return num_epochs


def check_batch_size(batch_size: Any) -> Any:
    """``batch``'s ``batch_size``: an int in [1, INT32_MAX] or a callable of one argument (the BatchInfo)."""
    if callable(batch_size):
        if len(inspect.signature(batch_size).parameters) != 1:
            raise ValueError("callable batch_size should take one parameter (BatchInfo).")
        return batch_size
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)):
        raise TypeError("batch_size should either be an int or a callable.")
    return check_pipeline_interval(batch_size, "batch_size", 1, 2**31 - 1)


def check_config_int(
    value: Any, arg_name: str, lower: int, upper: int, message: str, type_message: str | None = None
) -> int:
    """A ``ds.config`` setter's int in [lower, upper]: TypeError(``type_message``, by default
    ``seed isn't of type int.``), else ValueError(``message``)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(type_message or f"{arg_name} isn't of type int.")
    if not lower <= int(value) <= upper:
        raise ValueError(message)
    return int(value)


def check_datasets_arg(datasets: Any, dataset_cls: type, method: str) -> list:
    """The datasets of ``concat`` (one ``dataset_cls`` or a list of them), ``zip`` (one or a tuple) or
    ``ds.zip`` (a tuple of at least two), with MindSpore's messages; as a list."""
    cls_text = "<class 'mindspore.dataset.engine.datasets.Dataset'>"
    container = list if method == "concat" else tuple
    if isinstance(datasets, dataset_cls) and method != "ds.zip":
        return [datasets]
    if not isinstance(datasets, container):
        names = f"[<class '{container.__name__}'>{'' if method == 'ds.zip' else ', ' + cls_text}]"
        raise pipeline_type_error(datasets, names, "datasets")
    if method == "ds.zip" and len(datasets) <= 1:
        raise ValueError("Can't zip empty or just one dataset!")
    for i, d in enumerate(datasets):
        if not isinstance(d, dataset_cls):
            if method == "concat":
                raise pipeline_type_error(d, f"[{cls_text}]", f"dataset[{i}]")
            raise TypeError(f"Invalid dataset, expected Dataset object, but got {type(d)}!")
    return list(datasets)


def check_map_operations(operations: Any) -> list:
    """``map``'s ``operations``: one or a non-empty list of callables (an uninstantiated transform class is an
    error), as a list."""
    ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
    if not ops:
        raise pipeline_error("Map: No 'operations' are specified.", "Syntax error. ")
    for op in ops:
        if isinstance(op, type):
            raise ValueError(
                "Parameter operations's element of method map should be a dataset processing operation instance, "
                f"but got: {op}. It may be missing parentheses for instantiation."
            )
        if not callable(op):
            raise ValueError(
                "Parameter operations's element of method map should be a python function or class method which "
                f"should be callable, but got: {op}. It doesn't need parentheses for python function or class method."
            )
    return ops


def check_bucket_args(
    column_names: Any, boundaries: Any, batch_sizes: Any, length_fn: Any, pad_to_boundary: Any, drop_remainder: Any
) -> tuple:
    """``bucket_batch_by_length``'s columns (a non-empty list of str), ``bucket_boundaries`` (positive,
    strictly increasing ints), ``bucket_batch_sizes`` (one more positive int), ``element_length_function``
    (callable; needed unless there is one column) and its two bools, with MindSpore's messages; the three lists."""
    for name, v in (
        ("column_names", column_names),
        ("bucket_boundaries", boundaries),
        ("bucket_batch_sizes", batch_sizes),
    ):
        if not isinstance(v, list):
            raise pipeline_type_error(v, "[<class 'list'>]", name)
    check_pipeline_type(pad_to_boundary, bool, "pad_to_bucket_boundary")
    check_pipeline_type(drop_remainder, bool, "drop_remainder")
    columns = check_column_names(column_names, "column_names") or []
    if length_fn is None and len(columns) != 1:
        raise ValueError("If element_length_function is not specified, exactly one column name should be passed.")
    if length_fn is not None and not callable(length_fn):
        raise TypeError("element_length_function object is not callable.")
    if not boundaries:
        raise ValueError("bucket_boundaries cannot be empty.")
    if not all(isinstance(b, int) for b in boundaries):
        raise TypeError("bucket_boundaries should be a list of int.")
    if not all(b > 0 for b in boundaries):
        raise ValueError("bucket_boundaries must only contain positive numbers.")
    if any(b >= c for b, c in zip(boundaries, boundaries[1:])):
        raise ValueError("bucket_boundaries should be strictly increasing.")
    if len(batch_sizes) != len(boundaries) + 1:
        raise ValueError("bucket_batch_sizes must contain one element more than bucket_boundaries.")
    if not all(isinstance(b, int) for b in batch_sizes):
        raise TypeError("bucket_batch_sizes should be a list of int.")
    if not all(b > 0 for b in batch_sizes):
        raise ValueError("bucket_batch_sizes should be a list of positive numbers.")
    return columns, list(boundaries), list(batch_sizes)


def check_positive_integer(arg_value: Any, arg_name: str) -> int:
    """An int >= 1 (``sync_wait``'s ``num_batch``...): MindSpore's type_check, then
    ``num_batch need to be greater than 0.``"""
    check_pipeline_type(arg_value, (int, np.integer), arg_name, "[<class 'int'>]")
    if int(arg_value) < 1:
        raise ValueError(f"{arg_name} need to be greater than 0.")
    return int(arg_value)


def check_column_names(columns: Any, arg_name: str, types: tuple = (list, str)) -> list[str] | None:
    """An operation's column argument (``input_columns``, ``columns``...): None, a non-empty str or a non-empty
    list (a tuple too) of distinct non-empty str, as a list; MindSpore's ``check_columns`` messages
    (``types``: the types its message names)."""
    if columns is None:
        return None
    if not isinstance(columns, (list, tuple, str)) or (isinstance(columns, str) and str not in types):
        raise pipeline_type_error(columns, str(list(types)), arg_name)
    if isinstance(columns, str):
        if not columns:
            raise ValueError(f"{arg_name} should not be an empty str.")
        return [columns]
    if not columns:
        raise ValueError(f"{arg_name} should not be empty.")
    for i, c in enumerate(columns):
        check_pipeline_type(c, str, f"{arg_name}[{i}]")
        if not c:
            raise ValueError(f"{arg_name}[{i}] should not be empty.")
    if len(set(columns)) != len(columns):
        raise ValueError("Every column name should not be same with others in column_names.")
    return list(columns)


def check_num_parallel_workers(num_parallel_workers: Any) -> int | None:
    """A node's ``num_parallel_workers``: None (the configured default) or an int >= 1 (MindSpore's message)."""
    if num_parallel_workers is None:
        return None
    check_pipeline_type(num_parallel_workers, (int, np.integer), "num_parallel_workers", "[<class 'int'>]")
    if int(num_parallel_workers) < 1:  # MindSpore also rejects more workers than CPUs: sporax allows them
        raise ValueError(f"num_parallel_workers exceeds the boundary between 1 and {os.cpu_count() or 1}!")
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
    if not isinstance(sizes, (list, tuple)):
        raise pipeline_type_error(sizes, "[<class 'list'>]", "sizes")
    if not sizes:
        raise ValueError("sizes cannot be empty.")
    if all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError("sizes is a list of int, but there should be no negative or zero numbers.")
        if sum(sizes) != n:
            raise RuntimeError(f"Sum of split sizes {sum(sizes)} is not equal to dataset size {n}.")
        return [int(s) for s in sizes]
    if all(isinstance(s, float) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes):
            raise ValueError("sizes is a list of float, but there should be no numbers outside the range (0, 1].")
        if abs(sum(sizes) - 1) > 1e-6:
            raise ValueError("sizes is a list of float, but the percentages do not sum up to 1.")
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
    raise ValueError("sizes should be list of int or list of float.")


def check_ngram_pad(pad: Any, arg_name: str) -> tuple:
    """``Ngram``'s ``left_pad`` / ``right_pad``: a ``(token, width)`` tuple, width in [0, 2147483647]."""
    if not isinstance(pad, tuple) or len(pad) != 2 or not isinstance(pad[0], str):
        raise TypeError(f"{arg_name} should be a tuple of (str, int).")
    check_pipeline_int(pad[1], f"padding width of {arg_name}", 0, 2**31 - 1)
    return pad


def check_config_choice(value: Any, allowed: Any, arg_name: str) -> str:
    """A ``ds.config`` setter's str among ``allowed`` (MindSpore's ``check_valid_str``: None is refused too):
    TypeError ``Argument backend with value 1 is not of type [<class 'str'>], ...``, else ValueError
    ``Input backend is not within the valid set of ['CPU', 'Ascend'].``"""
    check_pipeline_type(value, str, arg_name)
    if value not in allowed:
        raise ValueError(f"Input {arg_name} is not within the valid set of {list(allowed)}.")
    return value


def check_debug_hooks(debug_hook_list: Any, hook_cls: type) -> list:
    """``set_debug_mode``'s ``debug_hook_list``: a list of ``DebugHook`` instances."""
    if not isinstance(debug_hook_list, list):
        raise TypeError("debug_hook_list is not a list.")
    if not all(isinstance(h, hook_cls) for h in debug_hook_list):
        raise TypeError("All items in debug_hook_list must be of type DebugHook.")
    return debug_hook_list


def check_autotune_path(enable: bool, filepath_prefix: Any) -> Any:
    """``set_enable_autotune``'s ``filepath_prefix``: None or a non-empty str (an empty one only with enable False)."""
    if filepath_prefix and not isinstance(filepath_prefix, str):
        raise TypeError(f"json_filepath must be a str value but was: {filepath_prefix}.")
    if enable and filepath_prefix == "":
        raise RuntimeError("The value of json_filepath cannot be the empty string.")
    return filepath_prefix
