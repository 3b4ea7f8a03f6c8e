"""The forms of ``nn``: a layer's call inputs (shapes, dtypes), initializers, learning-rate decays and the
optimizers' parameters, groups and gradients.

The messages are the ones these layers already give (MindSpore's, tests pin them). ``Tensor``, ``Parameter``
and the dtypes live in upper layers: a check that needs one takes it as an argument."""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

from ._args import check_arg_type
from ._core import ValueRuntimeError, check_positive_float, check_positive_int, check_value_type

# --------------------------------------------------------------------------------------- call inputs


def check_shape_dim(
    shape: tuple[int, ...],
    index: int,
    expected: int,
    expected_name: str,
    arg_name: str,
    prim_name: str,
    note: str = "",
    excp_cls: type[Exception] = ValueError,
) -> tuple[int, ...]:
    """``shape[index] == expected``: ``For 'BatchNorm2d', the 'x' shape[1] must be equal to 'num_features': 3,
    but got 4 (x shape (2, 4, 5, 5)).`` (``note`` follows ``shape[i]``: ``" (channels)"``)."""
    if shape[index] != expected:
        raise excp_cls(
            f"For '{prim_name}', the '{arg_name}' shape[{index}]{note} must be equal to '{expected_name}': "
            f"{expected}, but got {shape[index]} ({arg_name} shape {shape})."
        )
    return shape


def check_same_shape(shape: Any, expected: Any, arg_name: str, expected_name: str, prim_name: str) -> Any:
    """Two inputs of one shape: ``For 'MSELoss', the 'labels' shape must be (2, 3) (the 'logits' shape), but got
    (3,).``"""
    if shape != expected:
        raise ValueError(
            f"For '{prim_name}', the '{arg_name}' shape must be {expected} (the '{expected_name}' shape), but got {shape}."
        )
    return shape


def check_same_dtype(dtype: Any, expected: Any, arg_name: str, expected_name: str, prim_name: str) -> Any:
    """An input of another input's (or a weight's) dtype: ``For 'Conv2d', the dtype of 'x' must be the same as the
    dtype of 'weight' (Float32), but got Float16.``"""
    if dtype != expected:
        raise TypeError(
            f"For '{prim_name}', the dtype of '{arg_name}' must be the same as the dtype of '{expected_name}' "
            f"({expected}), but got {dtype}."
        )
    return dtype


def check_tensor_io(value: Any, tensor_cls: type, prim_name: str) -> Any:
    """A wrapper's input or its inner layer's output: a Tensor (``TimeDistributed``)."""
    if not isinstance(value, tensor_cls):
        raise TypeError(f"For '{prim_name}', the inputs and outputs must be a Tensor.")
    return value


def check_conv_padding(padding: Any, n: int, pad_mode: str, prim_name: str) -> int | tuple[int, ...]:
    """A convolution's ``padding`` over ``n`` spatial axes: a non-negative int, or a tuple of ``n`` or ``2 * n``
    of them; 0 unless ``pad_mode`` is 'pad'."""
    if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
        raise TypeError(
            f"For '{prim_name}', the type of 'padding' must be int or tuple(int), but got {type(padding).__name__}."
        )
    pads = (padding,) if isinstance(padding, int) else padding
    if isinstance(padding, tuple) and len(padding) not in (n, 2 * n):
        raise ValueError(
            f"For '{prim_name}', the 'padding' must be an int or a tuple of {2 * n} ints, but got {padding}."
        )
    for p in pads:
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise ValueError(
                f"For '{prim_name}', each element of 'padding' must be a non-negative int, but got {padding}."
            )
    if pad_mode.lower() != "pad" and any(pads):
        raise ValueError(
            f"For '{prim_name}', the 'padding' must be 0 when 'pad_mode' is '{pad_mode}', but got {padding}."
        )
    return padding


def check_int_size(value: Any, name: str, prim_name: str, minimum: int | None = 1) -> int:
    """A size (kernel, stride...): an int (not a bool) of at least ``minimum`` (None: any int)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(
            f"For '{prim_name}', the type of '{name}' should be 'int', but got type '{type(value).__name__}'."
        )
    if minimum is not None and value < minimum:
        raise ValueError(f"For '{prim_name}', the '{name}' must be >= {minimum}, but got {value}.")
    return value


def check_pool_padding(padding: Any, nd: int, prim_name: str) -> tuple[int, ...]:
    """A pooling's ``padding``: an int, 1 int or ``nd`` non-negative ints (both sides of each dimension), as
    ``nd`` ints."""
    if isinstance(padding, bool) or not isinstance(padding, (int, tuple, list)):
        raise TypeError(
            f"For '{prim_name}', the type of 'padding' should be one of ['int', 'tuple', 'list'], but got type "
            f"'{type(padding).__name__}'."
        )
    pads = (padding,) * nd if isinstance(padding, int) else tuple(padding)
    if len(pads) == 1:
        pads = pads * nd
    if len(pads) != nd:
        raise ValueError(f"For {prim_name}, the length of padding must equal to {nd}, but got {len(pads)}.")
    if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in pads):
        raise ValueError(f"For '{prim_name}', the 'padding' must be non-negative ints, but got {padding}.")
    return pads


def check_positive_real(value: Any, name: str, prim_name: str) -> Any:
    """An int or float (not a bool) > 0: ``For 'PSNR', the 'max_val' must be > 0, but got 0.``"""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(
            f"For '{prim_name}', the type of '{name}' should be one of ['int', 'float'], but got {type(value).__name__}."
        )
    if value <= 0:
        raise ValueError(f"For '{prim_name}', the '{name}' must be > 0, but got {value}.")
    return value


def check_float_type(value: Any, name: str, prim_name: str) -> float:
    """A float: ``For 'SSIM', the type of 'k1' should be 'float', but got 'int'.``"""
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError(f"For '{prim_name}', the type of '{name}' should be 'float', but got '{type(value).__name__}'.")
    return value


def check_image_pair(dtype1: Any, shape1: Any, dtype2: Any, shape2: Any, prim_name: str) -> None:
    """``img2`` of ``img1``'s dtype and shape (SSIM, MSSSIM, PSNR)."""
    if dtype1 != dtype2:
        raise TypeError(
            f"For '{prim_name}', the dtype of 'img2' must be the same as 'img1' ({dtype1}), but got {dtype2}."
        )
    if shape1 != shape2:
        raise ValueError(
            f"For '{prim_name}', the shape of 'img2' must be the same as 'img1' {shape1}, but got {shape2}."
        )


def check_param_list(params: Any, param_cls: type) -> list:
    """An optimizer's parameters as boost rebuilds them: a non-empty list of ``param_cls`` or group dicts."""
    if params is not None and not isinstance(params, list):
        params = list(params)
    if not params:
        raise ValueError("Optimizer got an empty parameter list.")
    if not isinstance(params[0], (dict, param_cls)):
        raise TypeError("Only a list of Parameter or dict can be supported.")
    return params


def check_patch_arg(v: Any, name: str) -> tuple[int, int]:
    """``Unfold``'s ``ksizes``/``strides``/``rates``: ``[1, row, col, 1]`` of positive ints, as (row, col)."""
    if not isinstance(v, (tuple, list)):
        raise TypeError(f"For 'Unfold', the '{name}s' must be a tuple or a list, but got {type(v).__name__}.")
    if len(v) != 4 or v[0] != 1 or v[3] != 1:
        raise ValueError(f"For 'Unfold' the format of '{name}s' must be [1, {name}_row, {name}_col, 1], but got {v}.")
    if not all(isinstance(e, int) and e >= 1 for e in v):
        raise ValueError(
            f"For 'Unfold' the {name}_row and {name}_col in '{name}s' must be an positive integer, but got {v}."
        )
    return int(v[1]), int(v[2])


def check_mirror_padding(padding: Any, n: int, name: str, non_negative: bool = True) -> tuple[int, ...]:
    """A padding layer's ``padding``: an int (each side of ``n`` dimensions) or a tuple of an even number of
    ints (non-negative unless not ``non_negative``), as a tuple."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        padding = (padding,) * (2 * n)
    if not isinstance(padding, tuple):
        raise TypeError(
            f"For '{name}' the input 'padding' must be an integer or tuple, but got {type(padding).__name__}"
        )
    if len(padding) % 2:
        raise ValueError(
            f"For '{name}' the length of input 'padding' must be divisible by 2, but got padding of length "
            f"{len(padding)}. "
        )
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in padding):
        raise TypeError(f"For '{name}' every element in 'padding' must be integer, but got {padding}. ")
    if non_negative and not all(i >= 0 for i in padding):
        raise ValueError(f"For '{name}' every element in 'padding' must be >= 0. but got {padding}. ")
    return padding


# ------------------------------------------------------------------------------------------ containers


def check_member_index(index: Any, cell_num: int, op_name: str, inserting: bool = False) -> int:
    """A position in a container of ``cell_num`` members: an int in ``[-n, n)`` (``[-n, n]`` when
    ``inserting``), returned non-negative (an insert at ``n`` appends)."""
    if not isinstance(index, int):
        raise TypeError(f"For '{op_name}', the type of 'index' must be int, but got {type(index).__name__}.")
    if inserting:
        if not -cell_num <= index <= cell_num:
            raise IndexError(
                f"For '{op_name}', the value of 'index' must be a number in range [{-cell_num}, {cell_num}], "
                f"but got {index}."
            )
        return index % cell_num if (cell_num != 0 and index != cell_num) else index
    if not -cell_num <= index < cell_num:
        raise IndexError(
            f"For '{op_name}', the value of 'index' must be a number in range [{-cell_num}, {cell_num}), "
            f"but got {index}."
        )
    return index % cell_num


def check_member_cell(cell: Any, cell_cls: type, op_name: str) -> bool:
    """A member of a SequentialCell or CellList: a ``cell_cls`` (Cell)."""
    if isinstance(cell, cell_cls):
        return True
    raise TypeError(f"For '{op_name}', each cell must be subclass of Cell, but got {type(cell).__name__}.")


def check_cell_dict_key(key: Any, taken: bool, op_name: str) -> str:
    """A CellDict key: a non-empty str without '.', not a Cell attribute's name (``taken``)."""
    if not isinstance(key, str):
        raise TypeError(f"For '{op_name}', the type of key should be string but got {type(key).__name__}.")
    if taken:
        raise KeyError(f"For '{op_name}', the key can not be same with the attributes of Cell, but got key {key}.")
    if "." in key:
        raise KeyError(f"For '{op_name}', key can not contain \".\", but got key {key}")
    if key == "":
        raise KeyError(f"For '{op_name}', key can not be empty string \"\", but got key {key}")
    return key


def check_cell_dict_member(cell: Any, cell_cls: type, containers: tuple[type, ...], op_name: str) -> Any:
    """A CellDict member: a ``cell_cls`` that is none of the ``containers``."""
    if cell is None:
        raise TypeError(f"For '{op_name}', cell can not be None.")
    if not isinstance(cell, cell_cls):
        raise TypeError(f"For '{op_name}', the type of cell should be Cell, but got {type(cell).__name__}.")
    if isinstance(cell, containers):
        raise TypeError(
            f"For '{op_name}', the type of cell can not be CellDict, CellList or SequentialCell, "
            f"but got {type(cell).__name__}."
        )
    return cell


# ------------------------------------------------------------------------------------- initializers


def check_init_types(cls_name: str, inits: dict[str, Any], tensor_cls: type, init_cls: type, float32: Any) -> None:
    """Each of ``inits`` (``{"gamma_init": ...}``) a ``tensor_cls`` of ``float32``, a number, a str or an
    ``init_cls``."""
    for key, val in inits.items():
        if not isinstance(val, (tensor_cls, numbers.Number, str, init_cls)):
            raise TypeError(
                f"For '{cls_name}', the type of '{key}' must be in [Tensor, numbers.Number, str, Initializer], "
                f"but got type {type(val).__name__}."
            )
        dtype = getattr(val, "dtype", None) if isinstance(val, tensor_cls) else None
        if dtype is not None and dtype != float32:
            raise TypeError(f"For '{cls_name}', the type of '{key}' must be float32, but got {dtype}.")


# ------------------------------------------------------------------------------ learning-rate decays


def check_lr_decay(
    learning_rate: Any, decay_rate: Any, is_stair: Any, prim_name: str | None = None, **counts: Any
) -> None:
    """A decay's step counts (``decay_steps``, or ``total_step``/``step_per_epoch``/``decay_epoch``) positive ints,
    ``learning_rate`` and ``decay_rate`` positive floats, ``is_stair`` a bool (checked in that order)."""
    for name, value in counts.items():
        check_positive_int(value, name, prim_name)
    check_positive_float(learning_rate, "learning_rate", prim_name)
    check_positive_float(decay_rate, "decay_rate", prim_name)
    check_arg_type("is_stair", is_stair, [bool], prim_name)


# ----------------------------------------------------------------------------------------- optimizers

OPTIM_GROUP_KEYS = ["params", "lr", "weight_decay", "order_params", "grad_centralization"]


def check_optim_params(parameters: Any, param_info: str) -> list[Any]:
    """An optimizer's ``parameters`` (or a group's ``params``): a non-empty iterable, as a list."""
    if parameters is None:
        raise ValueError(f"For 'Optimizer', the argument {param_info} can not be None.")
    if not isinstance(parameters, Iterable):
        raise TypeError(
            f"For 'Optimizer', the argument {param_info} must be Iterable type, but got {type(parameters)}."
        )
    parameters = list(parameters)
    if not parameters:
        raise ValueError(f"For 'Optimizer', the argument {param_info} must not be empty.")
    return parameters


def check_group_params(parameters: list[Any], param_cls: type) -> list[Any]:
    """An optimizer's parameter groups: dicts of :data:`OPTIM_GROUP_KEYS`, an ``order_params`` dict alone and
    iterable, every other with ``params`` of ``param_cls``."""
    for group_param in parameters:
        invalid_key = [k for k in group_param if k not in OPTIM_GROUP_KEYS]
        if invalid_key:
            raise KeyError(
                f"For 'Optimizer', the key in group params must be one of in {OPTIM_GROUP_KEYS}, but got {invalid_key}."
            )
        if "order_params" in group_param:
            if len(group_param) > 1:
                raise ValueError(
                    "For 'Optimizer', the order params dict in group parameters should only include the "
                    f"'order_params' key, but got {group_param.keys()}."
                )
            if not isinstance(group_param["order_params"], Iterable):
                raise TypeError(
                    "For 'Optimizer', the value of 'order_params' in group parameters should be Iterable type, "
                    f"but got {type(group_param['order_params'])}."
                )
            continue
        if "params" not in group_param:
            raise KeyError("For 'Optimizer', every group of parameters must have the key 'params'.")
        params = check_optim_params(group_param["params"], "group `params`")
        for index, param in enumerate(params):
            if not isinstance(param, param_cls):
                raise TypeError(
                    "For 'Optimizer', the element in group parameters must be Parameter type, "
                    f"but got {type(param)} at index {index}."
                )
    return parameters


def check_grad_centralization(grad_centralization: Any) -> bool:
    """A group's ``grad_centralization``: a bool."""
    if not isinstance(grad_centralization, bool):
        raise TypeError(
            f"For 'Optimizer', the 'gradients_centralization' must be bool type, but got {type(grad_centralization)}."
        )
    return grad_centralization


def check_gradients(gradients: Any, parameters: Any, tensor_cls: type, prim_name: str) -> tuple[Any, ...]:
    """An optimizer's ``gradients``: a tuple or list (not a Tensor), one per parameter, each of its parameter's
    shape; as a tuple. A count mismatch is MindSpore's RuntimeError (from HyperMap): both classes here."""
    if isinstance(gradients, tensor_cls) or not isinstance(gradients, (tuple, list)):
        raise TypeError(
            f"For '{prim_name}', the 'gradients' must be a tuple of Tensors, but got {type(gradients).__name__}."
        )
    gradients = tuple(gradients)
    if len(gradients) != len(parameters):
        raise ValueRuntimeError(
            f"For '{prim_name}', the number of gradients must be equal to the number of parameters "
            f"{len(parameters)}, but got {len(gradients)}."
        )
    for i, (g, p) in enumerate(zip(gradients, parameters)):
        if tuple(g.shape) != p.shape:
            raise ValueError(
                f"For '{prim_name}', the shape of gradients[{i}] must be equal to the shape of parameter "
                f"'{p.name}' {p.shape}, but got {tuple(g.shape)}."
            )
    return gradients


def check_thor_args(momentum: Any, frequency: Any, lr: Any, tensor_cls: type, prim_name: str) -> None:
    """THOR's ``momentum`` (a float >= 0), ``frequency`` (an int >= 2) and learning rate (a Tensor)."""
    check_value_type("momentum", momentum, [float], prim_name)
    if momentum < 0.0:
        raise ValueError(f"For 'thor', the argument 'momentum' must be at least 0.0, but got 'momentum' {momentum}.")
    check_value_type("frequency", frequency, [int], prim_name)
    if frequency < 2:
        raise ValueError(f"For 'thor', the argument 'frequency' must be at least 2, but got 'frequency' {frequency}.")
    check_value_type("learning rate", lr, [tensor_cls], prim_name)
