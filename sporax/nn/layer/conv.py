"""Convolution layers: Conv1d/2d/3d and their transposed forms (NCL / NCHW / NCDHW), Conv2dBnAct."""

from __future__ import annotations

import math
from typing import Any, cast

from ... import _checkparam as validator
from ... import ops
from ..._checkparam import ValueRuntimeError
from ..._engine import state
from ...common import dtype as mstype
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.function._conv_pool import tuple_n
from ...ops.function._conv_transpose import conv_transpose, conv_transpose_white
from ..cell import Cell

__all__ = ["Conv2d", "Conv1d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose"]


class _Conv(Cell):
    """Shared argument handling and parameters of the convolution layers."""

    _nsp = 2
    _transposed = False

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
        """Conv2d's arguments (MindSpore's names and defaults); the other layers pass theirs on."""
        super().__init__()
        op = type(self).__name__
        n = self._nsp
        self.in_channels = validator.check_int_arg(in_channels, "in_channels", op, 1)
        self.out_channels = validator.check_int_arg(out_channels, "out_channels", op, 1)
        self.kernel_size = tuple_n(kernel_size, n, "kernel_size", op)
        self.stride = tuple_n(stride, n, "stride", op)
        self.dilation = tuple_n(dilation, n, "dilation", op)
        validator.check_one_of(pad_mode, ("same", "valid", "pad"), "pad_mode", op, ignore_case=True)
        self.pad_mode = pad_mode
        self.padding = validator.check_conv_padding(padding, n, pad_mode, op)
        self.group = validator.check_int_arg(group, "group", op, 1)
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
            raise ValueError(
                f"For '{op}', the 'format' must be str and must be in ['NCHW', 'NHWC', 'NCDHW'], "
                f"but got '{data_format}'."
            )
        if data_format == "NHWC":
            raise ValueError(
                f"For '{op}', the \"NHWC\" format only support in GPU target, but got the 'format' is NHWC and "
                "the platform is CPU."
            )
        self.data_format = data_format
        self.has_bias = validator.check_bool(has_bias, "has_bias", op)
        self.weight_init, self.bias_init = weight_init, bias_init
        shape = self._weight_shape()
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, shape, dtype), name="weight")
        self.bias = None
        if has_bias:
            if bias_init is None:
                fan_in = shape[1] * math.prod(shape[2:])
                bias_init = Uniform(1 / math.sqrt(fan_in))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype), name="bias")

    def _weight_shape(self) -> list[int]:
        if self._transposed:
            return [self.in_channels, self.out_channels // self.group, *self.kernel_size]
        return [self.out_channels, self.in_channels // self.group, *self.kernel_size]

    def _validate_input(self, x: Tensor) -> None:
        op = type(self).__name__
        validator.check_instance(x, Tensor, "x", op)
        validator.check_ndim(x.ndim, self._nsp + 2, "x", op)
        # MindSpore checks the channels in C++ and raises RuntimeError (ValueError for Conv3D): both classes here
        validator.check_shape_dim(
            x.shape, 1, self.in_channels, "in_channels", "x", op, " (channels)", ValueRuntimeError
        )
        if state.amp_dtype() is None:  # amp 'auto' casts in the op
            validator.check_same_dtype(x.dtype, self.weight.dtype, "x", "weight", op)

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

    def construct(self, x: Tensor) -> Tensor:
        self._validate_input(x)
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
        self._validate_input(x)
        w = ops.squeeze(self.weight, 2)
        return ops.conv1d(x, w, self.bias, self.stride, self.pad_mode.lower(), self.padding, self.dilation, self.group)

    def extend_repr(self) -> str:
        return (
            f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
            f"kernel_size={self.kernel_size[0]}, stride={self.stride[0]}, pad_mode={self.pad_mode}, "
            f"padding={self.padding}, dilation={self.dilation[0]}, group={self.group}, has_bias={self.has_bias}, "
            f"weight_init={self.weight_init}, bias_init={self.bias_init}"
        )


class Conv3d(_Conv):
    """3-D convolution over an NCDHW input. ``weight``: [out, in / group, kd, kh, kw]; ``padding``: an int or
    (head, tail, top, bottom, left, right) with 'pad'. Defaults as ``Conv2d``."""

    _nsp = 3

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
        data_format: str = "NCDHW",
        dtype: Any = mstype.float32,
    ) -> None:
        if isinstance(padding, tuple) and len(padding) != 6:
            raise ValueError(f"For 'Conv3d', the 'padding size' must be equal to 6, but got {len(padding)}.")
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
            "NCHW" if data_format == "NCDHW" else data_format,
            dtype,
        )
        self.data_format = data_format

    def construct(self, x: Tensor) -> Tensor:
        self._validate_input(x)
        return ops.conv3d(
            x, self.weight, self.bias, self.stride, self.pad_mode.lower(), self.padding, self.dilation, self.group
        )


def _deconv_length(pad_mode: str, size: int, k: int, s: int, d: int, pad_sum: int) -> int:
    """MindSpore's transposed-convolution output length (Conv1dTranspose / Conv2dTranspose)."""
    span = k + (k - 1) * (d - 1)
    if pad_mode == "valid":
        return size * s + max(span - s, 0)
    if pad_mode == "same":
        return size * s
    return size * s - pad_sum + span - s


class _ConvTranspose(_Conv):
    _transposed = True

    def _transpose(self, x: Tensor, out_sp: tuple[int, ...] | None, output_padding: Any = 0) -> Any:
        self._validate_input(x)
        return conv_transpose_white(
            x,
            self.weight,
            self.bias,
            self.stride,
            self.pad_mode.lower(),
            self.padding,
            self.dilation,
            self.group,
            output_padding,
            self._nsp,
            type(self).__name__,
            out_sp,
        )


class Conv1dTranspose(_ConvTranspose):
    """1-D transposed convolution over an NCL input. ``weight``: [in, out / group, 1, kernel_size] (as
    MindSpore's, checkpoints interchange); output length: 'same' ``L * stride``, 'valid'
    ``L * stride + max(dilation * (k - 1) + 1 - stride, 0)``, 'pad' ``(L - 1) * stride - 2 * padding +
    dilation * (k - 1) + 1``."""

    _nsp = 1

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int,
        stride: int = 1,
        pad_mode: str = "same",
        padding: int = 0,
        dilation: int = 1,
        group: int = 1,
        has_bias: bool = False,
        weight_init: Any = None,
        bias_init: Any = None,
        dtype: Any = mstype.float32,
    ) -> None:
        for name, v in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding), ("dilation", dilation)):
            validator.check_int_size(v, name, "Conv1dTranspose", minimum=None)
        if isinstance(weight_init, Tensor) and weight_init.ndim == 3:
            weight_init = ops.expand_dims(weight_init, 2)
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
        return [self.in_channels, self.out_channels // self.group, 1, self.kernel_size[0]]

    def construct(self, x: Tensor) -> Tensor:
        self._validate_input(x)
        k, s, d = self.kernel_size[0], self.stride[0], self.dilation[0]
        p = cast(int, self.padding)  # an int: __init__ checked it
        out = _deconv_length(self.pad_mode.lower(), x.shape[2], k, s, d, 2 * p)
        return conv_transpose(
            x,
            ops.squeeze(self.weight, 2),
            self.bias,
            s,
            self.pad_mode.lower(),
            p,
            d,
            self.group,
            0,
            1,
            "Conv1dTranspose",
            (out,),
        )

    extend_repr = Conv1d.extend_repr


class Conv2dTranspose(_ConvTranspose):
    """2-D transposed convolution over an NCHW input. ``weight``: [in, out / group, kh, kw]. Output size as
    ``Conv1dTranspose`` per dimension (``padding``: an int or (top, bottom, left, right)); as in MindSpore,
    ``output_padding`` (only with 'pad') appends zeros at the bottom/right after the bias."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        pad_mode: str = "same",
        padding: Any = 0,
        output_padding: Any = 0,
        dilation: Any = 1,
        group: int = 1,
        has_bias: bool = False,
        weight_init: Any = None,
        bias_init: Any = None,
        dtype: Any = mstype.float32,
    ) -> None:
        if isinstance(padding, tuple) and len(padding) != 4:
            raise ValueError(f"For 'Conv2dTranspose', the 'padding size' must be equal to 4, but got {len(padding)}.")
        if isinstance(output_padding, bool) or not isinstance(output_padding, (int, tuple)):
            raise TypeError(
                "For 'Conv2dTranspose', the type of 'output_padding' should be one of '['int', 'tuple']', "
                f"but got type '{type(output_padding).__name__}'."
            )
        if isinstance(output_padding, tuple) and len(output_padding) != 2:
            raise ValueError(
                f"For 'Conv2dTranspose', the 'output_padding size' must be equal to 2, but got {len(output_padding)}."
            )
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
        self.output_padding = output_padding

    def construct(self, x: Tensor) -> Tensor:
        self._validate_input(x)
        p = (self.padding,) * 4 if isinstance(self.padding, int) else self.padding
        mode = self.pad_mode.lower()
        out = tuple(
            _deconv_length(mode, x.shape[2 + i], self.kernel_size[i], self.stride[i], self.dilation[i], p[2 * i] + p[2 * i + 1])
            for i in range(2)
        )  # fmt: skip
        y = self._transpose(x, out)
        op = (self.output_padding,) * 2 if isinstance(self.output_padding, int) else self.output_padding
        for i in range(2):
            if op[i] < 0 or op[i] >= max(self.dilation[i], self.stride[i]):
                raise ValueError(f"output_padding[{i}] must be in range of [0, max(stride, dilation)).")
        if any(op) and mode != "pad":
            raise ValueError("when output_padding is not zero, pad_mode must be 'pad'")
        if any(op):
            y = ops.pad(y, (0, op[1], 0, op[0]))
        return y


class Conv3dTranspose(_ConvTranspose):
    """3-D transposed convolution over an NCDHW input. ``weight``: [in, out / group, kd, kh, kw]; output
    per dimension: 'same' ``D * stride``, 'valid' ``(D - 1) * stride + dilation * (k - 1) + 1``, 'pad' that
    minus (head + tail) plus ``output_padding``."""

    _nsp = 3

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
        output_padding: Any = 0,
        has_bias: bool = False,
        weight_init: Any = None,
        bias_init: Any = None,
        data_format: str = "NCDHW",
        dtype: Any = mstype.float32,
    ) -> None:
        if isinstance(padding, tuple) and len(padding) != 6:
            raise ValueError(f"For 'Conv3dTranspose', the 'padding size' must be equal to 6, but got {len(padding)}.")
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
            "NCHW" if data_format == "NCDHW" else data_format,
            dtype,
        )
        self.data_format = data_format
        self.output_padding = tuple_n(output_padding, 3, "output_padding", "Conv3dTranspose", minimum=0)

    def construct(self, x: Tensor) -> Tensor:
        return self._transpose(x, None, self.output_padding)
