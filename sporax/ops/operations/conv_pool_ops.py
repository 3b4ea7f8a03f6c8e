"""Convolution and pooling operator classes beyond ``nn_ops`` (``ops.Conv3D``, ``ops.Conv2DTranspose``,
``ops.MaxPool3D``, ``ops.AdaptiveMaxPool2D``, ``ops.MaxUnpool2D``...).

Each class keeps its construction arguments as attributes and calls the functional op.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ...common import dtype as mstype
from .._utils import as_tensor_array, wrap
from ..function import _conv_pool as CP
from ..function import _conv_transpose as CT
from ..function import _pool_func as PF
from ._primitive import Primitive

__all__ = [
    "DeformableOffsets",
    "DepthwiseConv2dNative",
    "Conv3D",
    "Conv2DBackpropInput",
    "Conv2DTranspose",
    "Conv3DTranspose",
    "MaxPool3D",
    "AvgPool3D",
    "MaxPoolWithArgmax",
    "MaxPoolWithArgmaxV2",
    "MaxPool3DWithArgmax",
    "AdaptiveAvgPool3D",
    "AdaptiveMaxPool2D",
    "AdaptiveMaxPool3D",
    "MaxUnpool2D",
    "MaxUnpool3D",
]


def _prim_pad_mode(pad_mode: Any, name: str) -> str:
    if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
        raise ValueError(f"For '{name}', the 'pad_mode' must be in ['valid', 'same', 'pad'], but got {pad_mode!r}.")
    return pad_mode.lower()


class Conv3D(Primitive):
    """3-D convolution, NCDHW input and OIDHW weight; ``pad``: an int or 6 ints (head, tail, top, bottom,
    left, right)."""

    def __init__(
        self,
        out_channel: int,
        kernel_size: Any,
        mode: int = 1,
        pad_mode: str = "valid",
        pad: Any = 0,
        stride: Any = 1,
        dilation: Any = 1,
        group: int = 1,
        data_format: str = "NCDHW",
    ) -> None:
        super().__init__()
        if data_format != "NCDHW":
            raise ValueError(f"For 'Conv3D', the 'data_format' must be 'NCDHW', but got '{data_format}'.")
        self.out_channel = out_channel
        self.kernel_size = CP.tuple_n(kernel_size, 3, "kernel_size", "Conv3D", allow_long=True)
        self.mode = validator.check_equal_int(mode, 1, "mode", "Conv3D")
        self.pad_mode = _prim_pad_mode(pad_mode, "Conv3D")
        self.pad = validator.check_conv_pad(pad, 6, self.pad_mode, "Conv3D")
        self.stride, self.dilation, self.group, self.data_format = stride, dilation, group, data_format
        self.attrs.update(
            out_channel=out_channel,
            kernel_size=self.kernel_size,
            mode=mode,
            pad_mode=self.pad_mode,
            pad=self.pad,
            strides=stride,
            dilations=dilation,
            groups=group,
            data_format=data_format,
        )

    def __call__(self, x: Any, weight: Any, bias: Any = None) -> Any:
        w_shape = tuple(weight.shape)
        if w_shape[0] != self.out_channel or w_shape[2:] != self.kernel_size:
            raise ValueError(
                f"For 'Conv3D', the 'weight' shape must be ({self.out_channel}, C_in / group, "
                f"{', '.join(map(str, self.kernel_size))}), but got {w_shape}."
            )
        from ..function._conv_pool import conv3d  # on amp's white list

        return conv3d(x, weight, bias, self.stride, self.pad_mode, self.pad, self.dilation, self.group)


class Conv2DBackpropInput(Primitive):
    """The input gradient of ``Conv2D`` (a transposed convolution): called with ``(dout, weight,
    input_size)``; ``weight`` is the forward convolution's [out_channel, C / group, kh, kw]."""

    def __init__(
        self,
        out_channel: int,
        kernel_size: Any,
        pad_mode: str = "valid",
        pad: Any = 0,
        pad_list: Any = None,
        mode: int = 1,
        stride: Any = 1,
        dilation: Any = 1,
        group: int = 1,
        data_format: str = "NCHW",
    ) -> None:
        super().__init__()
        if data_format != "NCHW":
            raise ValueError(f"For '{self.name}', the 'data_format' must be 'NCHW', but got '{data_format}'.")
        self.out_channel = out_channel
        self.kernel_size = CP.tuple_n(kernel_size, 2, "kernel_size", self.name)
        self.pad_mode = _prim_pad_mode(pad_mode, self.name)
        self.pad = validator.check_conv_pad(pad, 4, self.pad_mode, self.name)
        self.pad_list = pad_list
        self.mode = validator.check_equal_int(mode, 1, "mode", self.name)
        self.stride, self.dilation, self.group, self.data_format = stride, dilation, group, data_format
        self.attrs.update(
            out_channel=out_channel,
            kernel_size=self.kernel_size,
            pad_mode=self.pad_mode.upper(),
            pad=self.pad,
            pad_list=pad_list,
            mode=mode,
            stride=stride,
            dilation=dilation,
            group=group,
            data_format=data_format,
        )

    def __call__(self, dout: Any, weight: Any, input_size: Any) -> Any:
        size = tuple(int(v) for v in (input_size.tolist() if hasattr(input_size, "tolist") else input_size))
        if len(size) != 4:
            raise ValueError(f"For '{self.name}', the 'input_size' must have 4 elements, but got {input_size}.")
        pad = self.pad_list if self.pad_list else self.pad
        mode = "pad" if self.pad_list else self.pad_mode
        fn = CT.conv_transpose_white if self.name == "Conv2DTranspose" else CT.conv_transpose  # amp's white list
        return fn(dout, weight, None, self.stride, mode, pad, self.dilation, self.group, 0, 2, self.name, size[2:])


class Conv2DTranspose(Conv2DBackpropInput):
    """``Conv2DBackpropInput`` under its transposed-convolution name."""


class Conv3DTranspose(Primitive):
    """3-D transposed convolution: called with ``(dout, weight)``, ``weight`` [in_channel, out_channel /
    group, kd, kh, kw]; 'pad' mode takes ``pad`` (an int or 6 ints) and ``output_padding``."""

    def __init__(
        self,
        in_channel: int,
        out_channel: int,
        kernel_size: Any,
        mode: int = 1,
        pad_mode: str = "valid",
        pad: Any = 0,
        stride: Any = 1,
        dilation: Any = 1,
        group: int = 1,
        output_padding: Any = 0,
        data_format: str = "NCDHW",
    ) -> None:
        super().__init__()
        if data_format != "NCDHW":
            raise ValueError(f"For 'Conv3DTranspose', the 'data_format' must be 'NCDHW', but got '{data_format}'.")
        self.in_channel, self.out_channel = in_channel, out_channel
        self.kernel_size = CP.tuple_n(kernel_size, 3, "kernel_size", "Conv3DTranspose")
        self.mode = validator.check_equal_int(mode, 1, "mode", "Conv3DTranspose")
        self.pad_mode = _prim_pad_mode(pad_mode, "Conv3DTranspose")
        self.pad = validator.check_conv_pad(pad, 6, self.pad_mode, "Conv3DTranspose")
        self.output_padding = CP.tuple_n(output_padding, 3, "output_padding", "Conv3DTranspose", 0, allow_long=True)
        if self.pad_mode != "pad" and any(self.output_padding):
            raise ValueError(
                "For 'Conv3DTranspose', the 'output_padding' must be zero or (0, 0, 0) when 'pad_mode' is not "
                f"\"pad\", but got 'output_padding' is {output_padding} and 'pad_mode' is {pad_mode}."
            )
        self.stride, self.dilation, self.group, self.data_format = stride, dilation, group, data_format
        self.attrs.update(
            in_channel=in_channel,
            out_channel=out_channel,
            kernel_size=self.kernel_size,
            mode=mode,
            pad_mode=self.pad_mode,
            pad_list=self.pad,
            strides=stride,
            dilations=dilation,
            groups=group,
            output_padding=self.output_padding,
            data_format=data_format,
        )

    def __call__(self, dout: Any, weight: Any) -> Any:
        return CT.conv_transpose_white(
            dout,
            weight,
            None,
            self.stride,
            self.pad_mode,
            self.pad,
            self.dilation,
            self.group,
            self.output_padding,
            3,
            "Conv3DTranspose",
        )


class DeformableOffsets(Primitive):
    """The sampling half of a deformable convolution: called with ``(x, offsets)``, returns the mask-scaled
    bilinear samples laid out as (N, C, H_out * kh, W_out * kw) (a stride-``ksize`` convolution of it is
    ``ops.deformable_conv2d``)."""

    def __init__(
        self,
        strides: Any,
        pads: Any,
        ksize: Any,
        dilations: Any = (1, 1, 1, 1),
        data_format: str = "NCHW",
        deformable_groups: int = 1,
        modulated: bool = True,
    ) -> None:
        super().__init__()
        name = "DeformableOffsets"
        if data_format != "NCHW":
            raise ValueError(f"For '{name}', the 'data_format' must be 'NCHW', but got '{data_format}'.")
        if not modulated:
            raise ValueError("For 'DeformableOffsets', The modulated must be set to True.")
        for arg, v, n in (("strides", strides, 4), ("pads", pads, 4), ("ksize", ksize, 2), ("dilations", dilations, 4)):
            if not isinstance(v, (tuple, list)) or len(v) != n:
                raise ValueError(f"For '{name}', the '{arg}' must be a tuple of {n} ints, but got {v}.")
        self.strides, self.pads, self.ksize, self.dilations = (
            tuple(strides),
            tuple(pads),
            tuple(ksize),
            tuple(dilations),
        )
        self.data_format, self.deformable_groups, self.modulated = data_format, deformable_groups, modulated
        self.attrs.update(
            strides=self.strides, pads=self.pads, ksize=self.ksize, dilations=self.dilations, data_format=data_format,
            deformable_groups=deformable_groups, modulated=modulated,
        )  # fmt: skip

    def __call__(self, x: Any, offsets: Any) -> Any:
        from ..function._image_func import deformable_columns

        a, off = as_tensor_array(x), as_tensor_array(offsets)
        cols = deformable_columns(
            a, off, self.ksize, self.strides[2:], self.pads, self.dilations[2:], int(self.deformable_groups), self.name
        )
        n, c, kh, kw, oh, ow = cols.shape
        return wrap(cols.transpose(0, 1, 4, 2, 5, 3).reshape(n, c, oh * kh, ow * kw))


class DepthwiseConv2dNative(Primitive):
    """Depthwise 2-D convolution (deprecated in MindSpore: use ``nn.Conv2d(group=C)``): NCHW ``x``, ``w``
    (1, C, kh, kw), one filter per channel. ``pad``: an int or (top, bottom, left, right) with 'pad'.
    Only ``channel_multiplier`` 1 has a defined weight layout (MindSpore requires ``w``'s batch to be 1)."""

    def __init__(
        self,
        channel_multiplier: int,
        kernel_size: Any,
        mode: int = 3,
        pad_mode: str = "valid",
        pad: Any = 0,
        stride: Any = 1,
        dilation: Any = 1,
        group: int = 1,
    ) -> None:
        super().__init__()
        name = "DepthwiseConv2dNative"
        if isinstance(channel_multiplier, bool) or not isinstance(channel_multiplier, int) or channel_multiplier < 1:
            raise ValueError(
                f"For '{name}', the 'channel_multiplier' must be a positive int, but got {channel_multiplier}."
            )
        self.channel_multiplier = channel_multiplier
        self.kernel_size = CP.tuple_n(kernel_size, 2, "kernel_size", name)
        self.stride = CP.tuple_n(stride, 2, "stride", name, allow_long=True)
        self.dilation = CP.tuple_n(dilation, 2, "dilation", name, allow_long=True)
        if self.stride[0] != self.stride[1]:
            raise ValueError(
                f"The height and width of 'stride' must be equal,but got height:{self.stride[0]},  width:{self.stride[1]}"
            )
        if self.dilation[0] != self.dilation[1]:
            raise ValueError(
                f"The height and width of 'dilation' must be equal,but got height:{self.dilation[0]},  "
                f"width:{self.dilation[1]}"
            )
        if mode != 3:
            raise ValueError(f"For '{name}', the 'mode' must be 3, but got {mode}.")
        self.mode = mode
        self.pad_mode = _prim_pad_mode(pad_mode, name)
        self.pad = validator.check_conv_pad(pad, 4, self.pad_mode, name)
        self.group = group
        self.attrs.update(
            channel_multiplier=channel_multiplier, kernel_size=self.kernel_size, mode=mode, pad_mode=self.pad_mode,
            pad=self.pad, stride=(1, 1, *self.stride), dilation=(1, 1, *self.dilation), group=group,
        )  # fmt: skip

    def __call__(self, x: Any, w: Any) -> Any:
        name = "DepthwiseConv2dNative"
        xs, ws = tuple(x.shape), tuple(w.shape)
        if len(ws) != 4 or len(xs) != 4:
            raise ValueError(f"For '{name}', 'x' and 'w' must be 4-D, but got {xs} and {ws}.")
        if xs[1] != ws[1]:
            raise ValueError(f"For '{name}', the 'x_shape[1]' should be = w_shape[1]: {ws[1]}, but got {xs[1]}.")
        if ws[0] != 1:
            raise ValueError(f"For '{name}', the batch of 'weight' must be 1, but got {ws[0]}")
        if ws[2:] != self.kernel_size:
            raise ValueError(f"For '{name}', the 'kernel_size' {self.kernel_size} must equal w_shape[2:4] {ws[2:]}.")
        if self.channel_multiplier != 1:
            raise ValueError(
                f"For '{name}', a 'channel_multiplier' of {self.channel_multiplier} needs {self.channel_multiplier} "
                "filters per channel, but 'w' (1, C, kh, kw) holds one; use nn.Conv2d(group=C) instead."
            )
        from ..function._conv_pool import conv2d

        wt = as_tensor_array(w).reshape(xs[1], 1, *ws[2:])
        return conv2d(x, wrap(wt), None, self.stride, self.pad_mode, self.pad, self.dilation, xs[1])


# ---------------------------------------------------------------------- pooling
class MaxPool3D(Primitive):
    """3-D max pooling; ``pad_mode`` 'VALID', 'SAME' or 'PAD' (``pad_list``: an int or 6 ints)."""

    def __init__(
        self,
        kernel_size: Any = 1,
        strides: Any = 1,
        pad_mode: str = "VALID",
        pad_list: Any = 0,
        ceil_mode: Any = None,
        data_format: str = "NCDHW",
    ) -> None:
        super().__init__()
        self.kernel_size = CP.tuple_n(kernel_size, 3, "kernel_size", "MaxPool3D", allow_long=True)
        self.strides = CP.tuple_n(strides, 3, "strides", "MaxPool3D", allow_long=True)
        self.pad_mode = _prim_pad_mode(pad_mode, "MaxPool3D").upper()
        self.pad_list = validator.check_conv_pad(pad_list, 6, self.pad_mode.lower(), "MaxPool3D")
        if ceil_mode is not None and self.pad_mode != "PAD":
            raise ValueError("For 'MaxPool3D', the 'ceil_mode' must be None when 'pad_mode' is not 'PAD'.")
        self.ceil_mode, self.data_format = ceil_mode, data_format
        self.attrs.update(
            kernel_size=self.kernel_size,
            strides=self.strides,
            pad_mode=self.pad_mode,
            pad_list=self.pad_list,
            ceil_mode=ceil_mode,
            data_format=data_format,
        )

    def __call__(self, x: Any) -> Any:
        if len(x.shape) != 5:
            raise ValueError(f"For 'MaxPool3D', the dimension of 'x' must be 5, but got {len(x.shape)}.")
        return PF.pool_nd(
            x, "max", self.kernel_size, self.strides, self.pad_mode.lower(), self.pad_list, 1,
            bool(self.ceil_mode), nsp=3, op="MaxPool3D",
        )  # fmt: skip


class AvgPool3D(Primitive):
    """3-D average pooling; ``pad`` an int or 6 ints with 'pad'; ``divisor_override`` 0: the window size."""

    def __init__(
        self,
        kernel_size: Any = 1,
        strides: Any = 1,
        pad_mode: str = "valid",
        pad: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int = 0,
        data_format: str = "NCDHW",
    ) -> None:
        super().__init__()
        self.kernel_size = CP.tuple_n(kernel_size, 3, "kernel_size", "AvgPool3D", allow_long=True)
        self.strides = CP.tuple_n(strides, 3, "strides", "AvgPool3D", allow_long=True)
        self.pad_mode = _prim_pad_mode(pad_mode, "AvgPool3D")
        self.pad = validator.check_conv_pad(pad, 6, self.pad_mode, "AvgPool3D")
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override, self.data_format = divisor_override, data_format
        self.attrs.update(
            kernel_size=self.kernel_size,
            strides=self.strides,
            pad_mode=self.pad_mode.upper(),
            pad_list=self.pad,
            ceil_mode=ceil_mode,
            count_include_pad=count_include_pad,
            divisor_override=divisor_override,
            data_format=data_format,
        )

    def __call__(self, x: Any) -> Any:
        if len(x.shape) != 5:
            raise ValueError(f"For 'AvgPool3D', the dimension of 'x' must be 5, but got {len(x.shape)}.")
        return PF.pool_nd(
            x, "avg", self.kernel_size, self.strides, self.pad_mode, self.pad, 1, self.ceil_mode,
            self.count_include_pad, self.divisor_override or None, nsp=3, op="AvgPool3D",
        )  # fmt: skip


def _argmax_type(argmax_type: Any, name: str) -> Any:
    if argmax_type not in (mstype.int32, mstype.int64):
        raise TypeError(
            f"For '{name}', the 'argmax_type' must be mindspore.int32 or mindspore.int64, but got {argmax_type}."
        )
    return argmax_type


class MaxPoolWithArgmax(Primitive):
    """2-D max pooling returning ``(output, argmax)`` (argmax flat over H*W, int32); 'valid' or 'same'."""

    def __init__(
        self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid", data_format: str = "NCHW"
    ) -> None:
        super().__init__()
        self.kernel_size = CP.tuple_n(kernel_size, 2, "kernel_size", self.name, allow_long=True)
        self.strides = CP.tuple_n(strides, 2, "strides", self.name, allow_long=True)
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For '{self.name}', the 'pad_mode' must be 'VALID' or 'SAME', but got {pad_mode!r}.")
        self.pad_mode, self.data_format = pad_mode.upper(), data_format
        self.attrs.update(kernel_size=self.kernel_size, strides=self.strides, pad_mode=self.pad_mode)

    def __call__(self, x: Any) -> Any:
        y, idx = CP.pool2d(
            x, "max", self.kernel_size, self.strides, self.pad_mode.lower(), 0, return_indices=True, op=self.name
        )
        return y, wrap(idx._data.astype(np.int32))


class MaxPoolWithArgmaxV2(Primitive):
    """2-D max pooling with explicit ``pads``, ``dilation`` and ``ceil_mode``, returning ``(output,
    argmax)`` (argmax flat over H*W, of ``argmax_type``)."""

    def __init__(
        self,
        kernel_size: Any,
        strides: Any = None,
        pads: Any = 0,
        dilation: Any = (1, 1),
        ceil_mode: bool = False,
        argmax_type: Any = mstype.int64,
    ) -> None:
        super().__init__()
        self.kernel_size = CP.tuple_n(kernel_size, 2, "kernel_size", self.name, allow_long=True)
        self.strides = (
            self.kernel_size if strides is None else CP.tuple_n(strides, 2, "strides", self.name, allow_long=True)
        )
        self.pads = CP.tuple_n(pads, 2, "pads", self.name, minimum=0, allow_long=True)
        self.dilation = CP.tuple_n(dilation, 2, "dilation", self.name, allow_long=True)
        self.ceil_mode = ceil_mode
        self.argmax_type = _argmax_type(argmax_type, self.name)
        self.attrs.update(
            kernel_size=self.kernel_size, strides=self.strides, pads=self.pads, dilation=self.dilation,
            ceil_mode=ceil_mode, argmax_type=self.argmax_type,
        )  # fmt: skip

    def __call__(self, x: Any) -> Any:
        y, idx = CP.pool2d(
            x, "max", self.kernel_size, self.strides, "pad", self.pads, self.dilation, self.ceil_mode,
            return_indices=True, op=self.name,
        )  # fmt: skip
        return y, wrap(idx._data.astype(mstype.to_np(self.argmax_type)))


class MaxPool3DWithArgmax(Primitive):
    """3-D max pooling with explicit ``pads`` (3 ints), ``dilation`` and ``ceil_mode``: ``(output, argmax)``."""

    def __init__(
        self,
        ksize: Any,
        strides: Any,
        pads: Any,
        dilation: Any = (1, 1, 1),
        ceil_mode: bool = False,
        data_format: str = "NCDHW",
        argmax_type: Any = mstype.int64,
    ) -> None:
        super().__init__()
        self.ksize = CP.tuple_n(ksize, 3, "ksize", self.name, allow_long=True)
        self.strides = CP.tuple_n(strides, 3, "strides", self.name, allow_long=True)
        self.pads = CP.tuple_n(pads, 3, "pads", self.name, minimum=0, allow_long=True)
        self.dilation = CP.tuple_n(dilation, 3, "dilation", self.name, allow_long=True)
        self.ceil_mode, self.data_format = ceil_mode, data_format
        self.argmax_type = _argmax_type(argmax_type, self.name)
        self.attrs.update(
            ksize=self.ksize, strides=self.strides, pads=self.pads, dilation=self.dilation, ceil_mode=ceil_mode,
            data_format=data_format, argmax_type=self.argmax_type,
        )  # fmt: skip

    def __call__(self, x: Any) -> Any:
        y, idx = PF.pool_nd(
            x, "max", self.ksize, self.strides, "pad", self.pads, self.dilation, self.ceil_mode,
            return_indices=True, nsp=3, op=self.name,
        )  # fmt: skip
        return y, wrap(idx._data.astype(mstype.to_np(self.argmax_type)))


class AdaptiveAvgPool3D(Primitive):
    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size
        self.attrs["output_size"] = output_size

    def __call__(self, x: Any) -> Any:
        return PF.adaptive_avg_pool3d(x, self.output_size)


class AdaptiveMaxPool2D(Primitive):
    """Adaptive 2-D max pooling returning ``(output, argmax)`` (argmax int64, flat over H*W)."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size
        self.attrs["output_size"] = output_size

    def __call__(self, input_x: Any) -> Any:
        from ..function import _conv_pool

        return _conv_pool.adaptive_max_pool2d(input_x, self.output_size, True)


class AdaptiveMaxPool3D(Primitive):
    """Adaptive 3-D max pooling, called with ``(x, output_size)``: ``(output, argmax)`` (argmax int32)."""

    def __call__(self, x: Any, output_size: Any) -> Any:
        size = tuple(int(v) for v in np.asarray(as_tensor_array(output_size)).reshape(-1))
        y, idx = PF.adaptive_max_pool3d(x, size, True)
        return y, wrap(idx._data.astype(np.int32))


class _MaxUnpool(Primitive):
    _nsp = 2

    def __init__(
        self, ksize: Any, strides: Any = 0, pads: Any = 0, output_shape: Any = (), data_format: str = "NCHW"
    ) -> None:
        super().__init__()
        n = self._nsp
        self.ksize = CP.tuple_n(ksize, n, "ksize", self.name, allow_long=True)
        self.strides = (
            self.ksize if strides in (0, None) else CP.tuple_n(strides, n, "strides", self.name, allow_long=True)
        )
        self.pads = CP.tuple_n(pads, n, "pads", self.name, minimum=0, allow_long=True)
        self.output_shape, self.data_format = tuple(output_shape), data_format
        self.attrs.update(
            ksize=self.ksize, strides=self.strides, pads=self.pads, output_shape=self.output_shape,
            data_format=data_format,
        )  # fmt: skip

    def __call__(self, x: Any, argmax: Any) -> Any:
        return PF.max_unpool_nd(
            x, argmax, self.ksize, self.strides, self.pads, self.output_shape or None, self._nsp, self.name
        )


class MaxUnpool2D(_MaxUnpool):
    """Inverse of a 2-D max-pool: ``x`` scattered into zeros at ``argmax`` (flat over H*W)."""

    def __init__(
        self, ksize: Any, strides: Any = 0, pads: Any = 0, output_shape: Any = (), data_format: str = "NCHW"
    ) -> None:
        super().__init__(ksize, strides, pads, output_shape, data_format)


class MaxUnpool3D(_MaxUnpool):
    """Inverse of a 3-D max-pool: ``x`` scattered into zeros at ``argmax`` (flat over D*H*W)."""

    _nsp = 3

    def __init__(
        self, ksize: Any, strides: Any = 0, pads: Any = 0, output_shape: Any = (), data_format: str = "NCDHW"
    ) -> None:
        super().__init__(ksize, strides, pads, output_shape, data_format)
