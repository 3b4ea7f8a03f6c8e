"""The convolutions' and pools' argument forms: the primitives' ``pad`` tuples, the operands of a convolution
and of a transposed one, the 1-D adaptive pools' input and size. Messages are MindSpore's where it has one
(tests pin them). Operands are arrays (``ndim``, ``shape``, ``dtype``); ``dtype_name`` names a dtype as
MindSpore prints it (the caller's: this package imports no sporax types)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def check_conv_pad(pad: Any, n: int, pad_mode: str, name: str) -> tuple:
    """A primitive's ``pad``: an int or ``n`` non-negative ints, all zero unless ``pad_mode`` is 'pad'."""
    if isinstance(pad, bool) or not isinstance(pad, (int, tuple, list)):
        raise TypeError(f"For '{name}', the 'pad' must be an int or a tuple, but got {type(pad).__name__}.")
    pads = (pad,) * n if isinstance(pad, int) else tuple(pad)
    if len(pads) != n:
        raise ValueError(f"For '{name}', the 'pad' must be an int or a tuple of {n} ints, but got {pad}.")
    if pad_mode != "pad" and any(pads):
        raise ValueError(
            f"For '{name}', the 'pad' must be zero or {(0,) * n} when 'pad_mode' is not \"pad\", but got 'pad' is "
            f"{pad} and 'pad_mode' is {pad_mode}."
        )
    if any(p < 0 for p in pads):
        raise ValueError(f"For '{name}', each element of 'pad' must be >= 0, but got {pad}.")
    return pads


def _check_conv_ranks_dtypes(x: Any, w: Any, nsp: int, op: str, dtype_name: Callable[[Any], str]) -> None:
    if x.ndim != nsp + 2:
        raise ValueError(f"For '{op}', the dimension of 'input' must be {nsp + 2}, but got {x.ndim}.")
    if w.ndim != nsp + 2:
        raise ValueError(f"For '{op}', the dimension of 'weight' must be {nsp + 2}, but got {w.ndim}.")
    if x.dtype != w.dtype:
        raise TypeError(
            f"For '{op}', the dtype of 'input' and 'weight' must be the same, but got 'input': {dtype_name(x)} "
            f"and 'weight': {dtype_name(w)}."
        )


def check_conv_operands(x: Any, w: Any, groups: int, nsp: int, op: str, dtype_name: Callable[[Any], str]) -> None:
    """A convolution's NC... ``x`` and OI... ``w`` (float, same dtype, channels matching ``groups``)."""
    _check_conv_ranks_dtypes(x, w, nsp, op, dtype_name)
    if not np.dtype(x.dtype).name.startswith(("float", "bfloat")):  # ml_dtypes' floats included
        raise TypeError(f"For '{op}', the dtype of 'input' must be float, but got {dtype_name(x)}.")
    if x.shape[1] != w.shape[1] * groups:
        raise ValueError(
            f"For '{op}', the channel number of 'input' ({x.shape[1]}) must be equal to 'weight' shape[1] "
            f"({w.shape[1]}) * 'groups' ({groups}), but got input shape {tuple(x.shape)} and weight shape "
            f"{tuple(w.shape)}."
        )
    if w.shape[0] % groups:
        raise ValueError(f"For '{op}', the 'weight' shape[0] ({w.shape[0]}) must be divisible by 'groups' ({groups}).")


def check_conv_transpose_operands(
    x: Any, w: Any, groups: Any, nsp: int, op: str, dtype_name: Callable[[Any], str]
) -> None:
    """A transposed convolution's NC... ``x`` and [C_in, C_out / groups, k...] ``w``, and ``groups``."""
    _check_conv_ranks_dtypes(x, w, nsp, op, dtype_name)
    if not np.issubdtype(x.dtype, np.floating) and str(x.dtype) != "bfloat16":
        raise TypeError(f"For '{op}', the dtype of 'input' must be float, but got {dtype_name(x)}.")
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 1:
        raise ValueError(f"For '{op}', the 'groups' must be a positive int, but got {groups}.")
    if x.shape[1] != w.shape[0]:
        raise ValueError(
            f"For '{op}', the channel number of 'input' ({x.shape[1]}) must be equal to 'weight' shape[0] "
            f"({w.shape[0]}), but got input shape {tuple(x.shape)} and weight shape {tuple(w.shape)}."
        )
    if w.shape[0] % groups:
        raise ValueError(f"For '{op}', the 'weight' shape[0] ({w.shape[0]}) must be divisible by 'groups' ({groups}).")


def check_adaptive_pool1d(x: Any, output_size: Any, op: str, is_tensor: bool) -> None:
    """A 1-D adaptive pool's input (a Tensor, ``is_tensor``, of 3 dims) and ``output_size`` (an int >= 1
    dividing the last dimension)."""
    if not is_tensor:
        raise TypeError(f"For {op}, the input input must be tensor")
    if isinstance(output_size, bool) or not isinstance(output_size, int):
        raise TypeError(f"For {op}, output_size must be an int, but got {type(output_size).__name__}.")
    if output_size < 1:
        raise ValueError(f"For {op}, output_size must be greater than or equal to 1, but got {output_size}.")
    if x.ndim != 3:
        raise ValueError(f"For {op} input must have 3 dim, but got {x.ndim}.")
    if x.shape[2] < output_size:
        raise ValueError(
            f"For {op} input's last dimension must be greater or equal to output size {output_size}, "
            f"but got {x.shape[2]}."
        )
    if x.shape[2] % output_size:
        raise ValueError(
            f"For {op} input's last dimension must be divisible by output size {output_size}, but got {x.shape[2]}."
        )
