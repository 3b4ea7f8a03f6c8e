"""Neural-network operator classes (``ops.ReLU()``, ``ops.Conv2D(...)``, ``ops.MaxPool(...)``...).

Each class keeps its construction arguments as attributes and calls the functional op.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from .. import function as F
from .._amp import amp_black
from .._utils import as_tensor_array, wrap
from ..function import _conv_pool as CP
from ..function import nn_func as NF
from ._primitive import Primitive

__all__ = [
    "ReLU",
    "ReLU6",
    "Sigmoid",
    "Tanh",
    "GeLU",
    "FastGeLU",
    "SiLU",
    "Elu",
    "LeakyReLU",
    "HSwish",
    "HSigmoid",
    "Mish",
    "Softplus",
    "PReLU",
    "Softmax",
    "LogSoftmax",
    "Dropout",
    "Conv2D",
    "MaxPool",
    "AvgPool",
    "AdaptiveAvgPool2D",
    "BiasAdd",
    "SoftmaxCrossEntropyWithLogits",
    "SparseSoftmaxCrossEntropyWithLogits",
    "BatchNorm",
    "LayerNorm",
    "Flatten",
    "L2Normalize",
    "Pad",
    "ResizeNearestNeighbor",
]


class _Unary(Primitive):
    _fn: Any = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> Any:
        return type(self)._fn(x)


class ReLU(_Unary):
    """``max(x, 0)``."""

    _fn = staticmethod(F.relu)


class ReLU6(_Unary):
    _fn = staticmethod(NF.relu6)


class Sigmoid(_Unary):
    _fn = staticmethod(F.sigmoid)


class Tanh(_Unary):
    _fn = staticmethod(F.tanh)


class FastGeLU(_Unary):
    _fn = staticmethod(NF.fast_gelu)


class SiLU(_Unary):
    _fn = staticmethod(NF.silu)


class HSwish(_Unary):
    _fn = staticmethod(NF.hardswish)


class HSigmoid(_Unary):
    _fn = staticmethod(NF.hardsigmoid)


class Mish(_Unary):
    _fn = staticmethod(NF.mish)


class Softplus(_Unary):
    _fn = staticmethod(NF.softplus)


class GeLU(Primitive):
    """GeLU with the tanh approximation (MindSpore's GeLU kernel; ``ops.gelu(x)`` is the exact erf form)."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> Any:
        return NF.gelu(x, "tanh")


class Elu(Primitive):
    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = alpha
        self.attrs["alpha"] = alpha

    def __call__(self, input_x: Any) -> Any:
        return NF.elu(input_x, self.alpha)


class LeakyReLU(Primitive):
    def __init__(self, alpha: float = 0.2) -> None:
        super().__init__()
        self.alpha = alpha
        self.attrs["alpha"] = alpha

    def __call__(self, x: Any) -> Any:
        return NF.leaky_relu(x, self.alpha)


class PReLU(Primitive):
    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, weight: Any) -> Any:
        return NF.prelu(x, weight)


class Softmax(Primitive):
    def __init__(self, axis: Any = -1) -> None:
        super().__init__()
        self.axis = axis
        self.attrs["axis"] = axis

    def __call__(self, x: Any) -> Any:
        return NF.softmax(x, self.axis)


class LogSoftmax(Primitive):
    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis
        self.attrs["axis"] = axis

    def __call__(self, logits: Any) -> Any:
        return NF.log_softmax(logits, self.axis)


class Dropout(Primitive):
    """Returns ``(output, mask)``; elements are kept with probability ``keep_prob``."""

    def __init__(self, keep_prob: float = 0.5, Seed0: int = 0, Seed1: int = 0) -> None:  # noqa: N803
        super().__init__()
        if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)):
            raise TypeError(f"For 'Dropout', the 'keep_prob' must be a float, but got {type(keep_prob).__name__}.")
        if not 0 < keep_prob <= 1:
            raise ValueError(f"For 'Dropout', the 'keep_prob' must be in range (0, 1], but got {keep_prob}.")
        self.keep_prob, self.seed0, self.seed1 = float(keep_prob), Seed0, Seed1
        self.attrs.update(keep_prob=keep_prob, Seed0=Seed0, Seed1=Seed1)

    def __call__(self, x: Any) -> Any:
        return NF.dropout_with_mask(x, self.keep_prob, (self.seed0 or self.seed1) or None)


class Conv2D(Primitive):
    """2-D convolution, NCHW input and OIHW weight; ``pad`` is an int or (top, bottom, left, right)."""

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
        data_format: str = "NCHW",
    ) -> None:
        super().__init__()
        if data_format != "NCHW":
            raise ValueError(f"For 'Conv2D', the 'data_format' must be 'NCHW', but got '{data_format}'.")
        self.out_channel = out_channel
        self.kernel_size = CP.tuple_n(kernel_size, 2, "kernel_size", "Conv2D")
        self.mode, self.pad_mode, self.pad = mode, pad_mode, pad
        self.stride, self.dilation, self.group, self.data_format = stride, dilation, group, data_format
        self.attrs.update(
            out_channel=out_channel,
            kernel_size=self.kernel_size,
            mode=mode,
            pad_mode=pad_mode,
            pad=pad,
            stride=stride,
            dilation=dilation,
            group=group,
            data_format=data_format,
        )

    def __call__(self, x: Any, weight: Any) -> Any:
        w_shape = tuple(weight.shape)
        if w_shape[0] != self.out_channel or w_shape[2:] != self.kernel_size:
            raise ValueError(
                f"For 'Conv2D', the 'weight' shape must be ({self.out_channel}, C_in / group, "
                f"{self.kernel_size[0]}, {self.kernel_size[1]}), but got {w_shape}."
            )
        return F.conv2d(x, weight, None, self.stride, self.pad_mode.lower(), self.pad, self.dilation, self.group)


class _Pool(Primitive):
    _kind = "max"

    def __init__(
        self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid", data_format: str = "NCHW"
    ) -> None:
        super().__init__()
        if data_format != "NCHW":
            raise ValueError(f"For '{self.name}', the 'data_format' must be 'NCHW', but got '{data_format}'.")
        self.kernel_size = CP.tuple_n(kernel_size, 2, "kernel_size", self.name, allow_long=True)
        self.strides = CP.tuple_n(strides, 2, "strides", self.name, allow_long=True)
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For '{self.name}', the 'pad_mode' must be 'VALID' or 'SAME', but got {pad_mode!r}.")
        self.pad_mode, self.data_format = pad_mode.upper(), data_format
        self.attrs.update(
            kernel_size=self.kernel_size, strides=self.strides, pad_mode=self.pad_mode, data_format=data_format
        )

    def __call__(self, x: Any) -> Any:
        validator.check_ndim(len(x.shape), 4, "x", self.name)
        return CP.pool2d(x, self._kind, self.kernel_size, self.strides, self.pad_mode.lower(), 0, op=self.name)


class MaxPool(_Pool):
    _kind = "max"


class AvgPool(_Pool):
    _kind = "avg"

    def __init__(
        self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "VALID", data_format: str = "NCHW"
    ) -> None:
        super().__init__(kernel_size, strides, pad_mode, data_format)


class AdaptiveAvgPool2D(Primitive):
    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size
        self.attrs["output_size"] = output_size

    def __call__(self, input_x: Any) -> Any:
        return F.adaptive_avg_pool2d(input_x, self.output_size)


class BiasAdd(Primitive):
    def __init__(self, data_format: str = "NCHW") -> None:
        super().__init__()
        self.data_format = data_format
        self.attrs["data_format"] = data_format

    def __call__(self, input_x: Any, bias: Any) -> Any:
        return NF.bias_add_format(input_x, bias, self.data_format)


class SoftmaxCrossEntropyWithLogits(Primitive):
    """``(loss, dlogits)`` of ``(N, C)`` logits against probability labels."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, logits: Any, labels: Any) -> Any:
        return NF.softmax_cross_entropy_with_logits(logits, labels)


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """Mean cross entropy at class indices (``is_grad=True``: its gradient w.r.t. the logits)."""

    def __init__(self, is_grad: bool = False) -> None:
        super().__init__()
        self.is_grad = is_grad
        self.attrs["is_grad"] = is_grad

    def __call__(self, logits: Any, labels: Any) -> Any:
        return NF.sparse_softmax_cross_entropy_with_logits(logits, labels, self.is_grad)


class BatchNorm(Primitive):
    """``(y, batch_mean, batch_variance, reserve_space_1, reserve_space_2)``. With ``is_training``,
    the ``mean`` and ``variance`` Parameters become ``(1 - momentum) * old + momentum * batch``."""

    def __init__(
        self, is_training: bool = False, epsilon: float = 1e-5, momentum: float = 0.1, data_format: str = "NCHW"
    ) -> None:
        super().__init__()
        if not 0 <= momentum <= 1:
            raise ValueError(f"For 'BatchNorm', the 'momentum' must be in range [0, 1], but got {momentum}.")
        self.is_training, self.epsilon, self.momentum, self.data_format = is_training, epsilon, momentum, data_format
        self.attrs.update(is_training=is_training, epsilon=epsilon, momentum=momentum, data_format=data_format)

    @amp_black(keep=("mean", "variance"))
    def __call__(self, input_x: Any, scale: Any, bias: Any, mean: Any, variance: Any) -> Any:
        y, m, v = NF._batch_norm(
            input_x, mean, variance, scale, bias, self.is_training, self.momentum, self.epsilon, "BatchNorm"
        )
        m, v = wrap(m), wrap(v)
        return y, m, v, m, v


class LayerNorm(Primitive):
    """``(y, mean, variance)``: normalise over axes ``begin_norm_axis:``; ``gamma``/``beta`` cover the
    axes from ``begin_params_axis``."""

    def __init__(self, begin_norm_axis: int = 1, begin_params_axis: int = 1, epsilon: float = 1e-7) -> None:
        super().__init__()
        self.begin_norm_axis, self.begin_params_axis, self.epsilon = begin_norm_axis, begin_params_axis, epsilon
        self.attrs.update(begin_norm_axis=begin_norm_axis, begin_params_axis=begin_params_axis, epsilon=epsilon)

    @amp_black
    def __call__(self, input_x: Any, gamma: Any, beta: Any) -> Any:
        x = as_tensor_array(input_x)
        axis = NF._axis(self.begin_norm_axis, x.ndim, "LayerNorm")
        paxis = NF._axis(self.begin_params_axis, x.ndim, "LayerNorm")
        want = tuple(x.shape[paxis:])
        for name, t in (("gamma", gamma), ("beta", beta)):
            if tuple(t.shape) != want:
                raise ValueError(f"For 'LayerNorm', the '{name}' shape must be {want}, but got {tuple(t.shape)}.")
        y, mean, var = NF.layer_norm_core(x, axis, gamma, beta, self.epsilon)
        return wrap(y), wrap(mean), wrap(var)


class Flatten(Primitive):
    """``(N, ...)`` -> ``(N, prod(...))``."""

    def __call__(self, input_x: Any) -> Any:
        shape = tuple(input_x.shape)
        if not shape:
            raise ValueError("For 'Flatten', the dimension of 'input_x' must be >= 1, but got 0.")
        return F.reshape(input_x, (shape[0], -1) if len(shape) > 1 else (shape[0], 1))


class L2Normalize(Primitive):
    def __init__(self, axis: Any = 0, epsilon: float = 1e-4) -> None:
        super().__init__()
        self.axis, self.epsilon = axis, epsilon
        self.attrs.update(axis=axis, epsilon=epsilon)

    def __call__(self, x: Any) -> Any:
        axis = self.axis[0] if isinstance(self.axis, (tuple, list)) and len(self.axis) == 1 else self.axis
        return NF.l2_normalize(x, axis, self.epsilon)


class Pad(Primitive):
    """Constant zero padding; ``paddings`` holds one ``(before, after)`` pair per dimension."""

    def __init__(self, paddings: Any) -> None:
        super().__init__()
        self.paddings = tuple(tuple(p) for p in paddings)
        for p in self.paddings:
            if len(p) != 2 or any(v < 0 for v in p):
                raise ValueError(
                    f"For 'Pad', each element of 'paddings' must be a pair of non-negative ints, but got {paddings}."
                )
        self.attrs["paddings"] = self.paddings

    def __call__(self, x: Any) -> Any:
        if len(self.paddings) != len(x.shape):
            raise ValueError(
                f"For 'Pad', the length of 'paddings' must be the dimension of 'x' ({len(x.shape)}), "
                f"but got {len(self.paddings)}."
            )
        flat = tuple(v for p in reversed(self.paddings) for v in p)
        return NF.pad(x, flat)


class ResizeNearestNeighbor(Primitive):
    """Nearest resize of the last two dimensions to ``size``: ``align_corners`` rounds
    ``i * (in - 1) / (out - 1)``, else floors ``i * in / out``. As MindSpore 2.10's kernel,
    ``half_pixel_centers`` is recorded but changes nothing (``ResizeNearestNeighborV2`` honours it)."""

    def __init__(self, size: Any, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        self.size, self.align_corners, self.half_pixel_centers = tuple(size), align_corners, half_pixel_centers
        self.attrs.update(size=self.size, align_corners=align_corners, half_pixel_centers=half_pixel_centers)

    def __call__(self, input_x: Any) -> Any:
        from ..function import _resize_func as RF

        coord = "align" if self.align_corners else "asym"
        return wrap(RF.resize_axes(as_tensor_array(input_x), tuple(int(v) for v in self.size), "nearest", coord))
