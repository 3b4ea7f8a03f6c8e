"""``mindspore.ops.arg_handler``: the converters MindSpore's generated primitives apply to their arguments
(an int or an NCHW 4-tuple becomes the (H, W) pair; a dtype or a string becomes its enum id)."""

from __future__ import annotations

from typing import Any

__all__ = [
    "arg_invalid_info",
    "to_pair",
    "to_kernel_size",
    "to_strides",
    "to_rates",
    "to_dilations",
    "to_output_padding",
    "to_2d_paddings",
]


def arg_invalid_info(op_name: str, arg_name: str, arg_val: Any) -> str:
    """The message of an argument no converter accepts."""
    return f"For '{op_name}', the value of '{arg_name}' is invalid: '{arg_val}'."


def to_pair(op_name: str, arg_name: str, arg_val: Any) -> Any:
    """A number as ``(v, v)``; a sequence unchanged."""
    if isinstance(arg_val, (int, float)):
        return (arg_val, arg_val)
    if isinstance(arg_val, (list, tuple)):
        return arg_val
    raise ValueError(arg_invalid_info(op_name, arg_name, arg_val))


def _hw_pair(op_name: str, arg_name: str, value: Any) -> Any:
    """An int as ``(v, v)``; an NCHW 4-sequence as its (H, W) entries; another sequence unchanged."""
    if isinstance(value, int):
        return (value, value)
    if isinstance(value, (tuple, list)):
        return (value[2], value[3]) if len(value) == 4 else value
    raise ValueError(arg_invalid_info(op_name, arg_name, value))


to_kernel_size = to_strides = to_rates = to_dilations = to_output_padding = _hw_pair


def to_2d_paddings(op_name: str, arg_name: str, pad: Any) -> Any:
    """An int padding as ``(p, p)``; a sequence unchanged."""
    if isinstance(pad, int):
        return (pad, pad)
    if isinstance(pad, (tuple, list)):
        return pad
    raise ValueError(arg_invalid_info(op_name, arg_name, pad))
