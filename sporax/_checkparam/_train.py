"""The training APIs' argument forms: ``Model``, the amp levels, checkpoints (save and load), export, MindIR
files and weight obfuscation, the landscape callback.

The messages are MindSpore 2.10's for these APIs (tests pin them). This package sits below the layers that
define ``Cell``, ``Tensor``, the dtypes and ``LossScaleManager``: a check that needs one of them takes it as an
argument."""

from __future__ import annotations

import inspect
import os
import re
from typing import Any

from ._core import check_value_type


class CheckpointNotFoundError(FileNotFoundError, ValueError):
    """A missing checkpoint file: MindSpore raises ValueError; this is also a FileNotFoundError."""


# ------------------------------------------------------------------------------------------- Model

MODEL_KWARGS = ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level")
AMP_LEVELS = ["O0", "O1", "O2", "O3", "auto"]


def check_model_kwargs(kwargs: dict) -> dict:
    """``Model``'s keyword arguments: only those of :data:`MODEL_KWARGS`."""
    for arg in kwargs:
        if arg not in MODEL_KWARGS:
            raise ValueError(
                "The argument in 'kwargs' should be 'loss_scale_manager' or 'keep_batchnorm_fp32' or "
                f"'boost_config_dict' or 'acc_level', but got '{arg}'."
            )
    return kwargs


def check_model_amp_level(optimizer: Any, amp_level: Any) -> Any:
    """``Model``'s ``amp_level``: one of :data:`AMP_LEVELS`, and 'O0' when there is no optimizer."""
    if amp_level not in AMP_LEVELS:
        raise ValueError(f"For 'Model', the 'amp_level' must be one of {AMP_LEVELS}, but got {amp_level!r}.")
    if optimizer is None and amp_level != "O0":
        raise ValueError(
            "Auto mixed precision will not work because 'optimizer' is None.Please set amp_level='O0' "
            "to disable auto mixed precision or set 'optimizer' not be None to use auto mixed precision."
        )
    return amp_level


def check_epochs(epoch: int, initial_epoch: int, api: str) -> None:
    """``epoch`` > ``initial_epoch`` (both already checked as counts)."""
    if initial_epoch >= epoch:
        raise ValueError(
            f"For '{api}', the parameter 'epoch' must bigger than parameter 'initial_epoch', but got the "
            f"parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}."
        )


def check_build_epoch(warmup_epoch: int | None, epoch: int, api: str) -> None:
    """The ``epoch`` of a train equal to that of the ``Model.build`` that prepared its dataset (if one did)."""
    if warmup_epoch is not None and warmup_epoch != epoch:
        raise ValueError(
            "when use Model.build to initialize model, the value of parameter 'epoch' in Model.build should be "
            f"equal to value in {api}, but got the value of epoch in build {warmup_epoch} and "
            f"the value of epoch in train {epoch} separately."
        )


def check_dataset_size(dataset_size: int) -> int:
    """A train dataset's size: not 0."""
    if dataset_size == 0:
        raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
    return dataset_size


def check_model_sink_size(sink_size: int, api: str) -> int:
    """A train's ``sink_size``: -1 or > 0 (an int already), with ``Model``'s message."""
    if sink_size < -1 or sink_size == 0:
        raise ValueError(f"For '{api}', The argument 'sink_size' must be -1 or positive, but got {sink_size}.")
    return sink_size


def check_graph_cell_args(loss_fn: Any, optimizer: Any, kwargs: dict) -> None:
    """A ``Model`` of a ``GraphCell`` (a loaded graph) takes no loss function, optimizer or keyword arguments."""
    if loss_fn is not None or optimizer is not None:
        raise ValueError(
            "For 'Model', 'loss_fn' and 'optimizer' should be None when network is a GraphCell, "
            f"but got 'loss_fn': {loss_fn}, 'optimizer': {optimizer}."
        )
    if kwargs:
        raise ValueError("For 'Model', the '**kwargs' argument should be empty when network is a GraphCell.")


def check_dataset_arg(arg_name: str, dataset: Any, dataset_cls: type, api: str) -> Any:
    """A dataset argument: a ``dataset_cls``, or anything with ``get_dataset_size`` (duck-typed datasets);
    ``Model.train(1, None)`` is named in MindSpore's TypeError form, not left to fail inside the loop."""
    if not hasattr(dataset, "get_dataset_size"):
        check_value_type(arg_name, dataset, [dataset_cls], api)
    return dataset


# ---------------------------------------------------------------------------------------------- amp


def check_amp_level(level: Any, boost_level: Any) -> None:
    """``build_train_network``'s ``level`` (one of :data:`AMP_LEVELS`) and ``boost_level`` ('O0' to 'O2')."""
    if not isinstance(level, str):
        raise TypeError(
            f"The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', 'auto'],but got type {type(level)}."
        )
    if level not in AMP_LEVELS:
        raise ValueError(f"The 'level' should be in : {AMP_LEVELS}, but got {level}.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"The 'boost_level' should be in : ['O0', 'O1', 'O2'], but got {boost_level}.")


def check_amp_kwargs(key_words: dict[str, Any], cast_dtypes: tuple[Any, ...], manager_cls: type) -> None:
    """``build_train_network``'s keyword arguments: ``cast_model_type`` among ``cast_dtypes`` (float16,
    bfloat16, float32), ``keep_batchnorm_fp32`` a bool, ``loss_scale_manager`` a ``manager_cls``."""
    for arg in key_words:
        if arg not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"Unsupported arg '{arg}'")
    if "cast_model_type" in key_words:
        cast = key_words["cast_model_type"]
        if cast not in cast_dtypes:
            raise TypeError(
                "The 'cast_model_type' should be one of [mindspore.float16, mindspore.bfloat16, mindspore.float32], "
                f"but got '{cast}'."
            )
    if "keep_batchnorm_fp32" in key_words and not isinstance(key_words["keep_batchnorm_fp32"], bool):
        raise TypeError(
            "The type of 'keep_batchnorm_fp32' should be 'bool', but got type "
            f"'{type(key_words['keep_batchnorm_fp32']).__name__}'."
        )
    manager = key_words.get("loss_scale_manager")
    if manager and not isinstance(manager, manager_cls):
        raise TypeError(
            f"The type of 'loss_scale_manager' should be 'LossScaleManager', but got type '{type(manager).__name__}'."
        )


def check_amp_class_list(custom_list: Any, list_name: str, cell_cls: type, prim_cls: type) -> list:
    """A custom white list (classes of ``cell_cls`` or ``prim_cls``) or black list (classes of ``cell_cls``)."""
    if not isinstance(custom_list, list):
        raise TypeError(f"The type of {list_name} should be list, but got {type(custom_list)}")
    for elem in custom_list:
        if not isinstance(elem, type):
            raise TypeError(f"The element in {list_name} should be a class, but got {elem}")
        if list_name == "white_list" and not issubclass(elem, (cell_cls, prim_cls)):
            raise TypeError(
                f"The subclass of element in {list_name} should be one of 'Cell' and 'Primitive', but got {elem}"
            )
        if list_name == "black_list" and not issubclass(elem, cell_cls):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell', but got {elem}")
    return custom_list


def check_no_encryption(api: str, key: Any, key_name: str) -> None:
    """No checkpoint encryption key (a bytes key is refused as not supported, anything else is a TypeError)."""
    if key is not None and not isinstance(key, bytes):
        raise TypeError(f"For '{api}', the '{key_name}' must be bytes or None, but got {type(key).__name__}.")
    if key is not None:
        raise NotImplementedError(
            f"For '{api}', checkpoint encryption ('{key_name}') is not supported by sporax: save without "
            f"'{key_name}', or decrypt the file with MindSpore first."
        )


def check_amp_dtype(dtype: Any, low_dtypes: tuple[Any, ...]) -> Any:
    """A mixed-precision list's ``dtype``: one of ``low_dtypes`` (float16, bfloat16)."""
    if dtype not in low_dtypes:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got {dtype}.")
    return dtype


# --------------------------------------------------------------------------------------- checkpoints


def check_ckpt_save_target(save_obj: Any, ckpt_file_name: Any, format: str, cell_cls: type) -> str:
    """``save_checkpoint``'s ``format``, ``save_obj`` (a ``cell_cls``, list or dict) and file name (a str or
    path, not a directory), as the real path with the format's suffix."""
    if format not in ("safetensors", "ckpt"):
        raise ValueError(f"For 'save_checkpoint', the format must be 'safetensors' or 'ckpt', but got {format}.")
    if not isinstance(save_obj, (cell_cls, list, dict)):
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


def check_async_save(async_save: Any) -> bool | str:
    """``async_save``: a bool, 'process' or 'thread'."""
    if not isinstance(async_save, (bool, str)):
        raise TypeError(
            f"For 'save_checkpoint', the parameter 'async_save' must be bool or str, but got {type(async_save)}."
        )
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError(
            f"For 'save_checkpoint', the argument 'async_save' can only be 'process' or 'thread', but got {async_save}."
        )
    return async_save


def check_append_dict(append_dict: Any, tensor_cls: type) -> dict | None:
    """``append_dict``: None, or a dict of str keys to int, float, bool, str or ``tensor_cls`` values."""
    if append_dict is None:
        return None
    if not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', the argument 'append_dict' must be dict, but got {type(append_dict)}.")
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, tensor_cls)):
            raise TypeError(
                "For 'save_checkpoint', the type of dict 'append_info' must be key: string, value: int, float, "
                f"bool, str, Parameter or Tensor, but got key: {type(key)}, value: {type(value)}"
            )
    return append_dict


def check_ckpt_prefix(prefix: Any) -> tuple[str, ...] | None:
    """``load_checkpoint``'s ``specify_prefix``/``filter_prefix``: None, a str, or a non-empty list or tuple of
    non-empty strs, as a tuple."""
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


def check_ckpt_file(file: Any, format: str) -> str:
    """``load_checkpoint``'s file: a str or path of an existing file ending with ``format``, as its real path."""
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
        raise CheckpointNotFoundError(
            f"For 'load_checkpoint', the checkpoint file: {file} does not exist, please check whether the "
            "'ckpt_file_name' is correct."
        )
    if os.path.isdir(file):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {file} is a directory, not a file.")
    return file


# ------------------------------------------------------------------------------- export and MindIR


def check_model_file(file_name: Any, api: str, suffixes: tuple[str, ...]) -> str:
    """A MindIR (or sporax StableHLO) file to read: a str naming an existing file with one of ``suffixes``."""
    if not isinstance(file_name, str):
        raise ValueError(f"For '{api}', the argument 'file_name' must be string, but got {type(file_name)}.")
    if not file_name.endswith(suffixes):
        raise ValueError(
            f"For '{api}', the argument 'file_name'(MindIR file) should end with '.mindir', please input the correct "
            "'file_name'." + (" (sporax also loads its own '.stablehlo' files.)" if ".stablehlo" in suffixes else "")
        )
    if not os.path.exists(file_name):
        raise ValueError(
            f"For '{api}', the argument 'file_name'(MindIR file) does not exist, please check whether the 'file_name' "
            "is correct."
        )
    return os.path.realpath(file_name)


def check_export_inputs(inputs: tuple[Any, ...], tensor_cls: type) -> tuple[Any, ...]:
    """``export``'s inputs: at least one, each a ``tensor_cls`` (NumPy arrays already converted)."""
    if not inputs:
        raise ValueError("For 'export', the 'inputs' of the network must be given to trace it, but got none.")
    for x in inputs:
        if not isinstance(x, tensor_cls):
            raise TypeError(
                f"For 'export', the inputs must be Tensor (sporax traces the network with them), but got {type(x)}."
            )
    return inputs


def check_static_shapes(shapes: Any, file_format: str) -> None:
    """Input shapes without a dynamic (-1) dimension: the formats other than STABLEHLO export static shapes."""
    for shape in shapes:
        if any(int(d) < 0 for d in shape):
            raise ValueError(
                f"For 'export', the input shape {list(shape)} has a dynamic dimension (-1): sporax exports "
                f"{file_format} with static shapes; export 'STABLEHLO' for a dynamic batch, or give a concrete input."
            )


def check_sink_signature(signature: Any, types: list[Any], shapes: list[tuple[int, ...]]) -> None:
    """``data_sink``'s ``input_signature`` (a Tensor or several) matching the dataset's column ``types`` and
    ``shapes`` (-1 or None in the signature: any size)."""
    sig = list(signature) if isinstance(signature, (list, tuple)) else [signature]
    if len(sig) != len(types):
        raise ValueError(
            f"For 'data_sink', the 'input_signature' has {len(sig)} Tensors but the dataset has {len(types)} columns."
        )
    for i, (t, dt, sh) in enumerate(zip(sig, types, shapes, strict=True)):
        if t.dtype != dt:
            raise TypeError(
                f"The {i + 1}th input type of 'set_inputs' must be the same as network's input, but got "
                f"'set_inputs': {t.dtype} and network's input: {dt}."
            )
        want = tuple(t.shape)
        if len(want) != len(sh):
            raise ValueError(
                f"The {i + 1}th input dims of 'set_inputs' must be the same as network's input, but got "
                f"'set_inputs': {len(want)} and network's input: {len(sh)}."
            )
        for w, s in zip(want, sh, strict=True):
            if w not in (-1, None) and w != s:
                raise ValueError(
                    f"The {i + 1}th input shape of 'set_inputs' must be the same as network's input, but got "
                    f"'set_inputs': {w} and network's input: {s}."
                )


def check_obf_dir(name: str, path: Any) -> str:
    """An obfuscation directory argument: a str naming an existing directory."""
    if not isinstance(path, str):
        raise TypeError(f"{name} must be string, but got {type(path)}.")
    if not os.path.exists(path):
        raise ValueError(f"{path} is not exist, please check the input {name}.")
    if not os.path.isdir(path):
        raise TypeError(f"{name} must be a directory path, but got {path}.")
    return path


def check_obf_target_modules(target_modules: Any) -> list[str]:
    """The legacy ``target_modules``: ``['A/B/C', 'D1|D2']`` and optionally ``'obfuscate_layers:all'`` or
    ``'obfuscate_layers:<int>'`` (whether the paths exist in the network is the caller's check)."""
    if not isinstance(target_modules, list):
        raise TypeError(f"target_modules type should be list, but got {type(target_modules)}.")
    if len(target_modules) < 2:
        raise ValueError(
            "target_modules should contain at least two string values, in the form of ['A/B/C', 'D1|D2'],"
            f"but got {target_modules}."
        )
    path, targets = target_modules[0], target_modules[1]
    if not isinstance(path, str) or not isinstance(targets, str):
        raise TypeError(f"The values of target_modules should be string, but got {type(path)} and {type(targets)}.")
    if not targets:
        raise ValueError(f"{targets} should be a non-empty string value, in the form of 'D1|D2'")
    if not re.fullmatch(r"[A-Za-z0-9_/]*", path) or not re.fullmatch(r"[A-Za-z0-9_|]*", targets):
        raise ValueError(
            f"please check the input 'target_modules'{target_modules},it should be in the form of ['A/B/C', 'D1|D2']."
            "target_modules[0] can only contain uppercase and lowercase letters, numbers, '_' and '/',"
            "target_modules[1] can only contain uppercase and lowercase letters, numbers, '_' and '|'"
        )
    return target_modules


def check_obf_layers(target_modules: list[str]) -> None:
    """The optional third value of ``target_modules``: ``'obfuscate_layers:all'`` or ``'obfuscate_layers:<int>'``."""
    if len(target_modules) >= 3:
        layers = str(target_modules[2]).split(":")
        if len(layers) != 2 or layers[0] != "obfuscate_layers" or not (layers[1] == "all" or layers[1].isdigit()):
            raise ValueError(
                "The third value of target_modules should be in the format of 'obfuscate_layers:all' or"
                "'obfuscate_layers:int'"
            )


def check_obf_scale(obfuscate_scale: Any) -> float:
    """``obfuscate_scale``: an int or float (not a bool) > 1."""
    if isinstance(obfuscate_scale, bool) or not isinstance(obfuscate_scale, (float, int)) or obfuscate_scale <= 1:
        raise ValueError(f"obfuscate_scale must be float or int, and larger than 1, but got {obfuscate_scale}.")
    return obfuscate_scale


OBF_CONFIG_TYPES = ("obf_metadata_config", "weight_obf_config", "network_obf_config")
OBF_METADATA_TYPES = ("random", "rearrange")


def _check_obf_ops(ops_info: list[Any]) -> None:
    for op in ops_info:
        for key in ("name", "input_x", "input_y"):
            if not isinstance(op.get(key), str):
                what = "op_name" if key == "name" else f"{key}_name"
                raise TypeError(f"{what} type should be str, but got {type(op.get(key))}.")
        for key in ("transpose_a", "transpose_b"):
            if not isinstance(op.get(key, False), bool):
                raise TypeError(f"{key} type should be bool, but got {type(op.get(key))}.")


def _check_obf_list(config: dict[str, Any], key: str) -> list:
    value = config.get(key, [])
    if not isinstance(value, list):
        raise TypeError(f"obf_config[][]['{key}'] type should be list, but got {type(value)}.")
    return value


def _check_obf_entry(kind: str, config: dict[str, Any]) -> None:
    def need_str(key: str) -> None:
        if not config.get(key) or not isinstance(config.get(key), str):
            raise TypeError(f"obf_config[][]['{key}'] type should be str, but got {type(config.get(key))}.")

    if kind == "obf_metadata_config":
        need_str("name")
        shape = config.get("shape")
        if not shape or not isinstance(shape, list):
            raise TypeError(f"obf_config[][]['shape'] type should be list, but got {type(shape)}.")
        for item in shape:
            if not isinstance(item, int):
                raise TypeError(f"shape[] type should be int, but got {type(item)}.")
        if not isinstance(config.get("save_metadata", True), bool):
            raise TypeError(
                f"obf_config[][]['save_metadata'] type should be bool, but got {type(config.get('save_metadata'))}."
            )
        mtype = config.get("type")
        if mtype is not None and (not isinstance(mtype, str) or mtype not in OBF_METADATA_TYPES):
            raise TypeError(
                f"obf_config[][]['type'] should be str and must in {list(OBF_METADATA_TYPES)}, but got {type(mtype)}."
            )
    elif kind == "weight_obf_config":
        need_str("target")
        _check_obf_ops(_check_obf_list(config, "weight_obf_ops"))
    else:
        need_str("target")
        need_str("module")
        for item in _check_obf_list(config, "insert_new_input"):
            if not isinstance(item.get("name"), str):
                raise TypeError(
                    f"obf_config[][]['insert_new_input'][]['name'] type should be str, but got {type(item.get('name'))}."
                )
        _check_obf_ops(_check_obf_list(config, "insert_ops"))
    layers = config.get("layers")
    if layers is not None:
        if not isinstance(layers, list):
            raise TypeError(f"obf_config[][]['layers'] type should be list, but got {type(layers)}.")
        for layer in layers:
            if not isinstance(layer, int):
                raise TypeError(f"obf_config[][]['layers'][] type should be int, but got {type(layer)}.")


def check_obf_config(obf_config: Any, kind: str) -> dict:
    """An ``obf_config`` dict whose ``kind`` entries (one of :data:`OBF_CONFIG_TYPES`) are well formed."""
    if not isinstance(obf_config, dict):
        raise TypeError(f"obf_config type should be dict, but got {type(obf_config)}.")
    for key in obf_config:
        if not isinstance(key, str) or key not in OBF_CONFIG_TYPES:
            raise TypeError(f"config_type must be str, and in {list(OBF_CONFIG_TYPES)}, but got {key}.")
    entries = obf_config.get(kind)
    if not isinstance(entries, list):
        raise TypeError(f"obf_config[] type of should be list, but got {type(entries)}.")
    for entry in entries:
        if not isinstance(entry, dict):
            raise TypeError(f"obf_config[][] type should be dict, but got {type(entry)}.")
        _check_obf_entry(kind, entry)
    return obf_config


# ----------------------------------------------------------------------------------------- callbacks


def check_landscape_device_ids(device_ids: Any, prim_name: str) -> list[int]:
    """``SummaryLandscape.gen_landscapes_with_multi_process``'s ``device_ids``: a list of ints in [0, 7]."""
    check_value_type("device_ids", device_ids, list)
    for i in device_ids:
        if not isinstance(i, int):
            raise TypeError(
                f'For "{prim_name}.gen_landscapes_with_multi_process", the parameter "device_ids" type '
                f"should be int, but got the: {type(i)}."
            )
        if i < 0 or i > 7:
            raise ValueError(
                f'For "{prim_name}.gen_landscapes_with_multi_process", the parameter "device_ids" '
                f"should be between 0 and 7, but got {i}."
            )
    return device_ids


_LANDSCAPE_KEYS = ["landscape_size", "unit", "num_samples", "create_landscape", "intervals"]


def check_landscape_size(size: Any, owner: str) -> None:
    check_value_type("landscape_size", size, int)
    if size < 3 or size > 256:
        raise ValueError(
            f'For "{owner}", the "landscape_size" in collect_specified_data '
            f"should be less than 256 and more than 3, but got the: {size}"
        )


def check_landscape_unit(unit: Any, owner: str) -> None:
    check_value_type("unit", unit, str)
    if unit not in ("step", "epoch"):
        raise ValueError(f'For "{owner}", unit in collect_specified_data should be step or epoch, but got the: {unit}.')


def check_create_landscape(create_landscape: Any, owner: str) -> None:
    check_value_type("create_landscape", create_landscape, dict)
    for param, value in create_landscape.items():
        if param not in ("train", "result"):
            raise ValueError(
                f'For "{owner}", the key to create landscape should be in ["train", "result"], but got the: {param}.'
            )
        check_value_type(param, value, bool)


def check_landscape_intervals(intervals: Any, owner: str) -> None:
    check_value_type("intervals", intervals, list)
    for interval in intervals:
        check_value_type("each interval inintervals", interval, list)
        if len(interval) < 3:
            raise ValueError(
                f'For "{owner}", the length of each list in "intervals" should not be less than three, but got the: {interval}'
            )
        for j in interval:
            if not isinstance(j, int):
                raise TypeError(
                    f'For "{owner}", the value of each list in "intervals" should be int, but got the: {type(j)}'
                )


def check_collect_landscape(collect_landscape: Any, owner: str, defaults: dict | None = None) -> None:
    """SummaryCollector's checks (``defaults``: its default values, for the keys left out) or
    SummaryLandscape's (only the keys given)."""
    unexpected = set(collect_landscape) - set(_LANDSCAPE_KEYS)
    if unexpected and defaults is not None:
        raise ValueError(
            f'For "{owner}", the keys {unexpected} of `collect_landscape` are unsupported, expect the follow keys: '
            f"{list(defaults)}"
        )
    for key in collect_landscape:
        if key not in _LANDSCAPE_KEYS:
            raise ValueError(
                f'For "{owner}", the key of collect landscape should be landscape_size, unit, num_samples '
                f"create_landscape or intervals, but got the: {key}. "
            )
    values = dict(defaults or {}, **collect_landscape)
    if "landscape_size" in values:
        check_landscape_size(values["landscape_size"], owner)
    if "unit" in values:
        check_landscape_unit(values["unit"], owner)
    if "num_samples" in values:
        check_value_type("num_samples", values["num_samples"], int)
    if "create_landscape" in values:
        check_create_landscape(values["create_landscape"], owner)
    if "intervals" in values:
        check_landscape_intervals(values["intervals"], owner)


# ------------------------------------------------------------------------------- a dataset for a network
def check_dataset_columns(network: Any, n: int, names: list[str] | None, cell_cls: Any, what: str = "train") -> None:
    """``Model``'s dataset against its network: the ``n`` columns (``names``) a batch has must fit the network's
    ``construct`` (``cell_cls`` is ``nn.Cell``: a train-step cell taking ``*inputs`` is checked through its
    ``network``). Passes when the signature cannot be read."""
    fn = network.construct if isinstance(network, cell_cls) else network
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    params = [p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values()):
        # train-step cells (TrainOneStepCell...) pass `*inputs` on to their `network`
        inner = getattr(network, "network", None)
        if not params and isinstance(inner, cell_cls) and inner is not network:
            try:
                check_dataset_columns(inner, n, names, cell_cls, what)
            except ValueError as err:
                outer_name, inner_name = type(network).__name__, type(inner).__name__
                raise ValueError(str(err).replace(f"'{inner_name}'", f"'{outer_name}'", 1)) from None
        return
    required = sum(1 for p in params if p.default is p.empty)
    if required <= n <= len(params):
        return
    takes = f"{required}" if required == len(params) else f"{required} to {len(params)}"
    cols = f" {names}" if names else ""
    raise ValueError(
        f"For 'Model', the {what} network '{type(network).__name__}' takes {takes} inputs, but the {what} dataset "
        f"yields {n} columns{cols}. Make the dataset yield one column per input of the network's construct "
        "(with 'loss_fn', the dataset gives (data, label))."
    )


def check_loss_fn_columns(n: int) -> None:
    """With ``loss_fn``, ``Model``'s train dataset yields (data, label)."""
    if n != 2:
        raise ValueError(
            "When 'loss_fn' is not None, 'train_dataset' should return two elements, but got "
            f"{n}, please check the number of elements returned by 'train_dataset'"
        )
