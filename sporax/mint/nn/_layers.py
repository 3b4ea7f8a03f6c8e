"""``mindspore.mint.nn`` layers whose constructors follow PyTorch: thin Cells over ``sporax.nn`` layers and
``mint.nn.functional``."""

from __future__ import annotations

import math
from typing import Any

from ... import _checkparam as validator
from ... import nn as _nn
from ... import ops
from ...common import dtype as mstype
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from . import functional as F


def _tuple(v, n):
    return tuple(v) if isinstance(v, tuple | list) else (v,) * n


class _Fn(_nn.Cell):
    """A parameter-free layer: ``construct(x)`` calls one functional op with the stored arguments."""

    _fn = None

    def __init__(self, **kwargs):
        super().__init__()
        self._kw = kwargs
        for k, v in kwargs.items():
            setattr(self, k, v)

    def construct(self, *inputs):
        return type(self)._fn(*inputs, **self._kw)


def _fn_cell(fn):
    return staticmethod(fn)


class AdaptiveMaxPool1d(_Fn):
    """1-D adaptive max pooling."""

    _fn = _fn_cell(F.adaptive_max_pool1d)

    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size=output_size, return_indices=return_indices)


class AvgPool1d(_Fn):
    """1-D average pooling."""

    _fn = _fn_cell(F.avg_pool1d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__(
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            ceil_mode=ceil_mode,
            count_include_pad=count_include_pad,
        )


class _AvgPoolNd(_Fn):
    """AvgPool2d/3d: PyTorch's constructor."""

    def __init__(
        self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None
    ):
        super().__init__(
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            ceil_mode=ceil_mode,
            count_include_pad=count_include_pad,
            divisor_override=divisor_override,
        )


class AvgPool2d(_AvgPoolNd):
    """2-D average pooling."""

    _fn = _fn_cell(F.avg_pool2d)


class AvgPool3d(_AvgPoolNd):
    """3-D average pooling."""

    _fn = _fn_cell(F.avg_pool3d)


class BCEWithLogitsLoss(_Fn):
    """BCE on logits."""

    _fn = _fn_cell(F.binary_cross_entropy_with_logits)

    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(weight=weight, reduction=reduction, pos_weight=pos_weight)


class ELU(_Fn):
    """ELU."""

    _fn = _fn_cell(F.elu)

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__(alpha=alpha, inplace=inplace)


class GELU(_Fn):
    """GELU (exact by default, ``'tanh'`` approximation on request)."""

    _fn = _fn_cell(F.gelu)

    def __init__(self, approximate="none"):
        super().__init__(approximate=approximate)


class Hardshrink(_Fn):
    """x where |x| > lambd, else 0."""

    _fn = _fn_cell(ops.hardshrink)

    def __init__(self, lambd=0.5):
        super().__init__(lambd=lambd)


class Hardsigmoid(_Fn):
    """relu6(x + 3) / 6."""

    _fn = _fn_cell(ops.hardsigmoid)

    def __init__(self):
        super().__init__()


class Hardswish(_Fn):
    """x * relu6(x + 3) / 6."""

    _fn = _fn_cell(ops.hardswish)

    def __init__(self):
        super().__init__()


class Hardtanh(_Fn):
    """Clamp to [min_val, max_val]."""

    _fn = _fn_cell(F.hardtanh)

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__(min_val=min_val, max_val=max_val, inplace=inplace)


class KLDivLoss(_Fn):
    """KL divergence loss."""

    _fn = _fn_cell(F.kl_div)

    def __init__(self, reduction="mean", log_target=False):
        super().__init__(reduction=reduction, log_target=log_target)


class LogSoftmax(_Fn):
    """Log-softmax along ``dim``."""

    _fn = _fn_cell(F.log_softmax)

    def __init__(self, dim=None):
        super().__init__(dim=dim)


class Softmax(_Fn):
    """Softmax along ``dim``."""

    _fn = _fn_cell(F.softmax)

    def __init__(self, dim=None):
        super().__init__(dim=dim)


class Mish(_Fn):
    """x * tanh(softplus(x))."""

    _fn = _fn_cell(ops.mish)

    def __init__(self, *args, **kwargs):
        super().__init__()


class SELU(_Fn):
    """Scaled ELU."""

    _fn = _fn_cell(ops.selu)

    def __init__(self, *args, **kwargs):
        super().__init__()


class ReLU6(_Fn):
    """min(max(x, 0), 6)."""

    _fn = _fn_cell(F.relu6)

    def __init__(self, inplace=False):
        super().__init__(inplace=inplace)


class SiLU(_Fn):
    """x * sigmoid(x)."""

    _fn = _fn_cell(F.silu)

    def __init__(self, inplace=False):
        super().__init__(inplace=inplace)


class SmoothL1Loss(_Fn):
    """Smooth L1 (Huber-like) loss, mean-reduced by default."""

    _fn = _fn_cell(ops.smooth_l1_loss)

    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(beta=beta, reduction=reduction)


class Threshold(_Fn):
    """x where x > threshold, else value."""

    _fn = _fn_cell(F.threshold)

    def __init__(self, threshold, value, inplace=False):
        super().__init__(threshold=threshold, value=value, inplace=inplace)


class Unfold(_Fn):
    """Sliding local blocks as columns (torch.nn.Unfold)."""

    _fn = _fn_cell(ops.unfold)

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride)


class Fold(_Fn):
    """Columns back into an image, summing overlaps (torch.nn.Fold)."""

    _fn = _fn_cell(ops.fold)

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(
            output_size=output_size, kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride
        )


class UpsamplingNearest2d(_Fn):
    """Nearest-neighbour 2-D upsampling."""

    _fn = _fn_cell(F.upsample)

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size=size, scale_factor=scale_factor, mode="nearest")


class UpsamplingBilinear2d(_Fn):
    """Bilinear 2-D upsampling with ``align_corners=True``."""

    _fn = _fn_cell(F.upsample)

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size=size, scale_factor=scale_factor, mode="bilinear", align_corners=True)


class _ZeroPad(_nn.Cell):
    _n = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _tuple(padding, 2 * self._n)

    def construct(self, x):
        return ops.pad(x, self.padding, "constant", 0.0)


class ZeroPad1d(_ZeroPad):
    """Zero padding of the last dim: int or (left, right)."""

    _n = 1

    def __init__(self, padding):
        super().__init__(padding)


class ZeroPad3d(_ZeroPad):
    """Zero padding of the last three dims."""

    _n = 3

    def __init__(self, padding):
        super().__init__(padding)


def _bn_kwargs(eps, momentum, affine, track_running_stats, dtype):
    return {
        "eps": eps,
        "momentum": 1.0 - momentum,
        "affine": affine,
        "use_batch_statistics": None if track_running_stats else True,
        "dtype": dtype or mstype.float32,
    }


class BatchNorm1d(_nn.BatchNorm1d):
    """Batch norm over (N, C) or (N, C, L); ``momentum`` is PyTorch's (weight of the new statistic)."""

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, dtype=None):
        super().__init__(num_features, **_bn_kwargs(eps, momentum, affine, track_running_stats, dtype))


class BatchNorm2d(_nn.BatchNorm2d):
    """Batch norm over (N, C, H, W) with PyTorch's ``momentum``."""

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, dtype=None):
        super().__init__(num_features, **_bn_kwargs(eps, momentum, affine, track_running_stats, dtype))


class BatchNorm3d(_nn.BatchNorm3d):
    """Batch norm over (N, C, D, H, W) with PyTorch's ``momentum``."""

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, dtype=None):
        super().__init__(num_features, **_bn_kwargs(eps, momentum, affine, track_running_stats, dtype))


class SyncBatchNorm(_nn.SyncBatchNorm):
    """Cross-device batch norm with PyTorch's ``momentum``."""

    def __init__(
        self,
        num_features,
        eps=1e-05,
        momentum=0.1,
        affine=True,
        track_running_stats=True,
        process_group=None,
        dtype=None,
    ):
        super().__init__(
            num_features, process_groups=process_group, **_bn_kwargs(eps, momentum, affine, track_running_stats, dtype)
        )


class GroupNorm(_nn.GroupNorm):
    """Group norm."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, dtype=None):
        super().__init__(num_groups, num_channels, eps, affine, dtype=dtype or mstype.float32)


class PReLU(_nn.Cell):
    """max(0, x) + weight * min(0, x) with ``num_parameters`` learnable slopes."""

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        self.weight = Parameter(initializer(init, (num_parameters,), dtype or mstype.float32), name="weight")

    def construct(self, x):
        return ops.prelu(x, self.weight)


class _ConvNd(_nn.Cell):
    _nd = 2
    _fn: Any = None  # each subclass's functional op

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride,
        padding,
        dilation,
        groups,
        bias,
        padding_mode,
        dtype,
        transposed=False,
        output_padding=0,
    ):
        super().__init__()
        nd = self._nd
        name = type(self).__name__
        if in_channels % groups or out_channels % groups:
            raise ValueError(
                f"For '{name}', 'in_channels' and 'out_channels' must be divisible by 'groups', but got "
                f"{in_channels}, {out_channels} and {groups}."
            )
        validator.check_string(padding_mode, ["zeros", "reflect", "replicate", "circular"], "padding_mode", name)
        self.kernel_size, self.stride, self.dilation = _tuple(kernel_size, nd), _tuple(stride, nd), _tuple(dilation, nd)
        self.padding, self.groups, self.padding_mode = padding, groups, padding_mode
        self.output_padding, self.transposed = output_padding, transposed
        dt = dtype or mstype.float32
        shape = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        shape += self.kernel_size
        fan_in = shape[1] * math.prod(self.kernel_size)
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dt), name="weight")
        self.bias = None
        if bias:
            bound = 1 / math.sqrt(fan_in) if fan_in else 0
            self.bias = Parameter(initializer(Uniform(bound), (out_channels,), dt), name="bias")

    def construct(self, x):
        padding = self.padding
        if self.padding_mode != "zeros" and not isinstance(padding, str):
            p = _tuple(padding, self._nd)
            pads = tuple(v for q in reversed(p) for v in (q, q))
            x = ops.pad(x, pads, self.padding_mode)
            padding = 0
        if self.transposed:
            return ops.conv_transpose2d(
                x, self.weight, self.bias, self.stride, padding, self.output_padding, self.groups, self.dilation
            )
        return type(self)._fn(x, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)


class _Conv(_ConvNd):
    """Conv1d/2d/3d: PyTorch's constructor (bias on, ``padding`` int/tuple/'same'/'valid')."""

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        padding_mode="zeros",
        dtype=None,
    ):
        super().__init__(
            in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias, padding_mode, dtype
        )


class Conv1d(_Conv):
    """1-D convolution with PyTorch's constructor (bias on, ``padding`` int/tuple/'same'/'valid')."""

    _nd = 1
    _fn = staticmethod(F.conv1d)


class Conv2d(_Conv):
    """2-D convolution with PyTorch's constructor."""

    _nd = 2
    _fn = staticmethod(F.conv2d)


class Conv3d(_Conv):
    """3-D convolution with PyTorch's constructor."""

    _nd = 3
    _fn = staticmethod(F.conv3d)


class ConvTranspose2d(_ConvNd):
    """2-D transposed convolution with PyTorch's constructor (weight (in, out/groups, kH, kW))."""

    _nd = 2

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups=1,
        bias=True,
        dilation=1,
        padding_mode="zeros",
        dtype=None,
    ):
        if padding_mode != "zeros":
            raise ValueError(f"For 'ConvTranspose2d', only 'zeros' padding_mode is supported, but got {padding_mode}.")
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            bias,
            padding_mode,
            dtype,
            transposed=True,
            output_padding=output_padding,
        )
