"""Convolution layers: Conv2d, Conv1d (NCHW / NCL)."""

from __future__ import annotations

import math
from typing import Any

from ... import ops
from ..._engine import state
from ...common import dtype as mstype
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.function._conv_pool import tuple_n
from ..cell import Cell

__all__ = ["Conv2d", "Conv1d"]


def _int(value: Any, name: str, op: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{op}', the '{name}' must be an int, but got {type(value).__name__}.")
    if value < minimum:
        raise ValueError(f"For '{op}', the '{name}' must be >= {minimum}, but got {value}.")
    return value


class _Conv(Cell):
    """Shared argument handling and parameters of the convolution layers."""

    _nsp = 2

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any,
        pad_mode: str,
        padding: Any,
        dilation: Any,
        group: int,
        has_bias: bool,
        weight_init: Any,
        bias_init: Any,
        data_format: str,
        dtype: Any,
    ) -> None:
        super().__init__()
        op = type(self).__name__
        n = self._nsp
        self.in_channels = _int(in_channels, "in_channels", op)
        self.out_channels = _int(out_channels, "out_channels", op)
        self.kernel_size = tuple_n(kernel_size, n, "kernel_size", op)
        self.stride = tuple_n(stride, n, "stride", op)
        self.dilation = tuple_n(dilation, n, "dilation", op)
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
            raise ValueError(
                f"For '{op}', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but got {pad_mode!r}."
            )
        self.pad_mode = pad_mode
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
            raise TypeError(
                f"For '{op}', the type of 'padding' must be int or tuple(int), but got {type(padding).__name__}."
            )
        pads = (padding,) if isinstance(padding, int) else padding
        if isinstance(padding, tuple) and len(padding) not in (n, 2 * n):
            raise ValueError(f"For '{op}', the 'padding' must be an int or a tuple of {2 * n} ints, but got {padding}.")
        for p in pads:
            if isinstance(p, bool) or not isinstance(p, int) or p < 0:
                raise ValueError(
                    f"For '{op}', each element of 'padding' must be a non-negative int, but got {padding}."
                )
        if pad_mode.lower() != "pad" and any(pads):
            raise ValueError(f"For '{op}', the 'padding' must be 0 when 'pad_mode' is '{pad_mode}', but got {padding}.")
        self.padding = padding
        self.group = _int(group, "group", op)
        if in_channels % group:
            raise ValueError(
                f"For '{op}', the attr 'in_channels' must be divisible by attr 'group', but got 'in_channels': "
                f"{in_channels} and 'group': {group}."
            )
        if out_channels % group:
            raise ValueError(
                f"For '{op}', the 'out_channels' must be divisible by attr 'group', but got 'out_channels': "
                f"{out_channels} and 'group': {group}."
            )
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError(f"For '{op}', the 'format' must be 'NCHW' or 'NHWC', but got '{data_format}'.")
        if data_format != "NCHW":
            raise ValueError(f"For '{op}', the 'NHWC' format is not supported; use 'NCHW'.")
        self.data_format = data_format
        if not isinstance(has_bias, bool):
            raise TypeError(f"For '{op}', the 'has_bias' must be a bool, but got {type(has_bias).__name__}.")
        self.has_bias = has_bias
        self.weight_init, self.bias_init = weight_init, bias_init
        shape = self._weight_shape()
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, shape, dtype), name="weight")
        self.bias = None
        if has_bias:
            if bias_init is None:
                fan_in = in_channels // group * math.prod(self.kernel_size)
                bias_init = Uniform(1 / math.sqrt(fan_in))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype), name="bias")

    def _weight_shape(self) -> list[int]:
        return [self.out_channels, self.in_channels // self.group, *self.kernel_size]

    def _check_input(self, x: Tensor) -> None:
        op = type(self).__name__
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{op}', the 'x' must be a Tensor, but got {type(x).__name__}.")
        if x.ndim != self._nsp + 2:
            raise ValueError(f"For '{op}', the dimension of 'x' must be {self._nsp + 2}, but got {x.ndim}.")
        if x.shape[1] != self.in_channels:
            raise ValueError(
                f"For '{op}', the 'x' shape[1] (channels) must be equal to 'in_channels': {self.in_channels}, "
                f"but got {x.shape[1]} (x shape {x.shape})."
            )
        if x.dtype != self.weight.dtype and state.amp_dtype() is None:  # amp 'auto' casts in the op
            raise TypeError(
                f"For '{op}', the dtype of 'x' must be the same as the dtype of 'weight' ({self.weight.dtype}), "
                f"but got {x.dtype}."
            )

    def extend_repr(self) -> str:
        return (
            f"input_channels={self.in_channels}, output_channels={self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
            f"group={self.group}, has_bias={self.has_bias}, weight_init={self.weight_init}, "
            f"bias_init={self.bias_init}, format={self.data_format}"
        )


class Conv2d(_Conv):
    """2-D convolution over an NCHW input.

    Args:
        in_channels, out_channels: channel numbers.
        kernel_size: an int or (kh, kw).
        stride: an int or (sh, sw). Default 1.
        pad_mode: 'same' (default: output = ceil(input / stride)), 'valid' or 'pad'.
        padding: with 'pad': an int, (pad_h, pad_w) or (top, bottom, left, right). Default 0.
        dilation: an int or (dh, dw). Default 1.
        group: number of channel groups. Default 1.
        has_bias: Default False.
        weight_init: initializer of ``weight`` ``[out, in / group, kh, kw]``. Default None: HeUniform(sqrt(5)).
        bias_init: Default None: Uniform(1 / sqrt(in / group * kh * kw)).
        data_format: 'NCHW'.
        dtype: parameter dtype. Default float32.
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        pad_mode: str = "same",
        padding: Any = 0,
        dilation: Any = 1,
        group: int = 1,
        has_bias: bool = False,
        weight_init: Any = None,
        bias_init: Any = None,
        data_format: str = "NCHW",
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            pad_mode,
            padding,
            dilation,
            group,
            has_bias,
            weight_init,
            bias_init,
            data_format,
            dtype,
        )

    def construct(self, x: Tensor) -> Tensor:
        self._check_input(x)
        return ops.conv2d(
            x, self.weight, self.bias, self.stride, self.pad_mode.lower(), self.padding, self.dilation, self.group
        )


class Conv1d(_Conv):
    """1-D convolution over an NCL input. The ``weight`` is ``[out, in / group, 1, kernel_size]`` as in
    MindSpore (checkpoints interchange); ``padding`` is an int or (left, right)."""

    _nsp = 1

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int,
        stride: int = 1,
        pad_mode: str = "same",
        padding: Any = 0,
        dilation: int = 1,
        group: int = 1,
        has_bias: bool = False,
        weight_init: Any = None,
        bias_init: Any = None,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            pad_mode,
            padding,
            dilation,
            group,
            has_bias,
            weight_init,
            bias_init,
            "NCHW",
            dtype,
        )

    def _weight_shape(self) -> list[int]:
        return [self.out_channels, self.in_channels // self.group, 1, self.kernel_size[0]]

    def construct(self, x: Tensor) -> Tensor:
        self._check_input(x)
        w = ops.squeeze(self.weight, 2)
        return ops.conv1d(x, w, self.bias, self.stride, self.pad_mode.lower(), self.padding, self.dilation, self.group)

    def extend_repr(self) -> str:
        return (
            f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
            f"kernel_size={self.kernel_size[0]}, stride={self.stride[0]}, pad_mode={self.pad_mode}, "
            f"padding={self.padding}, dilation={self.dilation[0]}, group={self.group}, has_bias={self.has_bias}, "
            f"weight_init={self.weight_init}, bias_init={self.bias_init}"
        )
