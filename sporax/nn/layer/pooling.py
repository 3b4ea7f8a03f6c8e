"""Pooling layers: Max/Avg pooling in 1-D, 2-D and 3-D, adaptive pooling, LP pooling, max-unpooling."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common.tensor import Tensor
from ...ops.function import _image_func as IF
from ...ops.function import _pool_func as PF
from ...ops.function._conv_pool import pool2d, tuple_n
from ..cell import Cell

__all__ = [
    "MaxPool2d",
    "AvgPool2d",
    "AdaptiveAvgPool2d",
    "AdaptiveMaxPool2d",
    "MaxPool1d",
    "MaxPool3d",
    "AvgPool1d",
    "AvgPool3d",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool3d",
    "LPPool1d",
    "LPPool2d",
    "MaxUnpool1d",
    "MaxUnpool2d",
    "MaxUnpool3d",
    "MaxPool2dExt",
    "AvgPool1dExt",
    "AvgPool2dExt",
    "AvgPool3dExt",
    "FractionalMaxPool2d",
    "FractionalMaxPool3d",
]


class _PoolNd(Cell):
    _nsp = 2

    def __init__(
        self, kernel_size: Any, stride: Any, pad_mode: str, padding: Any, data_format: str, non_default: bool
    ) -> None:
        super().__init__()
        op = type(self).__name__
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{op}', the 'pad_mode' must be in ['VALID', 'SAME', 'PAD'], but got {pad_mode!r}.")
        self.pad_mode = pad_mode.upper()
        if data_format != "NCHW":
            raise ValueError(f"For '{op}', the 'data_format' must be 'NCHW', but got '{data_format}'.")
        self.format = data_format
        self.kernel_size = kernel_size
        self.stride = stride
        tuple_n(kernel_size, self._nsp, "kernel_size", op)
        tuple_n(stride, self._nsp, "stride", op)
        if self.pad_mode != "PAD" and non_default:
            raise ValueError(
                f"For '{op}', the 'padding', 'dilation', 'ceil_mode' and the like can only be set when 'pad_mode' "
                f"is 'pad', but got pad_mode '{pad_mode}'."
            )
        self.padding = padding

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_PoolNd):
    """2-D max pooling.

    Args:
        kernel_size: an int or (kh, kw). Default 1.
        stride: an int or (sh, sw). Default 1.
        pad_mode: 'valid' (default), 'same' or 'pad'.
        padding: with 'pad': an int, (pad_h, pad_w) or (top, bottom, left, right). Default 0.
        dilation: window dilation ('pad' only). Default 1.
        return_indices: also return the argmax positions ('pad' only). Default False.
        ceil_mode: round the output size up ('pad' only). Default False.
        data_format: 'NCHW'.
    """

    def __init__(
        self,
        kernel_size: Any = 1,
        stride: Any = 1,
        pad_mode: str = "valid",
        padding: Any = 0,
        dilation: Any = 1,
        return_indices: bool = False,
        ceil_mode: bool = False,
        data_format: str = "NCHW",
    ) -> None:
        non_default = (
            padding not in (0, (0, 0), (0, 0, 0, 0)) or dilation not in (1, (1, 1)) or return_indices or ceil_mode
        )
        super().__init__(kernel_size, stride, pad_mode, padding, data_format, bool(non_default))
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def construct(self, x: Tensor) -> Any:
        return pool2d(
            x,
            "max",
            self.kernel_size,
            self.stride,
            self.pad_mode.lower(),
            self.padding,
            self.dilation,
            self.ceil_mode,
            return_indices=self.return_indices,
            op="MaxPool2d",
        )


class AvgPool2d(_PoolNd):
    """2-D average pooling.

    Args:
        kernel_size: an int or (kh, kw). Default 1.
        stride: an int or (sh, sw). Default 1.
        pad_mode: 'valid' (default), 'same' (padding not counted) or 'pad'.
        padding: with 'pad': an int, (pad_h, pad_w) or (top, bottom, left, right). Default 0.
        ceil_mode: round the output size up ('pad' only). Default False.
        count_include_pad: count the padding in the divisor ('pad' only). Default True.
        divisor_override: a fixed divisor. Default None.
        data_format: 'NCHW'.
    """

    def __init__(
        self,
        kernel_size: Any = 1,
        stride: Any = 1,
        pad_mode: str = "valid",
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: Any = None,
        data_format: str = "NCHW",
    ) -> None:
        non_default = padding not in (0, (0, 0), (0, 0, 0, 0)) or ceil_mode or not count_include_pad or divisor_override
        super().__init__(kernel_size, stride, pad_mode, padding, data_format, bool(non_default))
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def construct(self, x: Tensor) -> Tensor:
        return pool2d(
            x,
            "avg",
            self.kernel_size,
            self.stride,
            self.pad_mode.lower(),
            self.padding,
            1,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
            op="AvgPool2d",
        )


class AdaptiveAvgPool2d(Cell):
    """Average pooling to a fixed ``output_size`` (an int, or (h, w) where None keeps the input size)."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def construct(self, input: Tensor) -> Tensor:
        return ops.adaptive_avg_pool2d(input, self.output_size)

    def extend_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool2d(Cell):
    """Max pooling to a fixed ``output_size``."""

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, input: Tensor) -> Any:
        return ops.adaptive_max_pool2d(input, self.output_size, self.return_indices)

    def extend_repr(self) -> str:
        return f"output_size={self.output_size}"


class MaxPool1d(_PoolNd):
    """1-D max pooling over an (N, C, L) or (C, L) input; 'pad' mode takes ``padding``, ``dilation``,
    ``return_indices`` (flat over L) and ``ceil_mode``."""

    _nsp = 1

    def __init__(
        self,
        kernel_size: int = 1,
        stride: int = 1,
        pad_mode: str = "valid",
        padding: Any = 0,
        dilation: Any = 1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ) -> None:
        validator.check_int_size(kernel_size, "kernel_size", "MaxPool1d")
        validator.check_int_size(stride, "stride", "MaxPool1d")
        non_default = padding != 0 or dilation != 1 or return_indices or ceil_mode
        if isinstance(pad_mode, str) and pad_mode.upper() != "PAD" and non_default:
            raise ValueError(
                "For MaxPool1d, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' can not be set to "
                f"non-default value when pad_mode is not 'pad', but got pad_mode:{pad_mode}."
            )
        super().__init__(kernel_size, stride, pad_mode, padding, "NCHW", False)
        self.padding = validator.check_pool_padding(padding, 1, "MaxPool1d")[0]
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def construct(self, x: Tensor) -> Any:
        if x.ndim not in (2, 3):
            raise ValueError(f"For 'MaxPool1d', the input must has 3 dim, but got {x.ndim}")
        return PF.pool_nd(
            x, "max", self.kernel_size, self.stride, self.pad_mode.lower(), (self.padding, self.padding),
            self.dilation, self.ceil_mode, return_indices=self.return_indices, nsp=1, op="MaxPool1d",
        )  # fmt: skip


class MaxPool3d(_PoolNd):
    """3-D max pooling over an (N, C, D, H, W) or (C, D, H, W) input; 'pad' mode takes ``padding`` (an int
    or 3 ints), ``dilation``, ``return_indices`` (flat over D*H*W) and ``ceil_mode``."""

    _nsp = 3

    def __init__(
        self,
        kernel_size: Any = 1,
        stride: Any = 1,
        pad_mode: str = "valid",
        padding: Any = 0,
        dilation: Any = 1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ) -> None:
        if (dilation != 1 or return_indices) and isinstance(pad_mode, str) and pad_mode.upper() != "PAD":
            raise ValueError(
                "For MaxPool3d, the pad_mode must be 'pad' when dilation is not 1 or return_indices is True, "
                f"but got pad_mode:{pad_mode}."
            )
        super().__init__(kernel_size, stride, pad_mode, 0, "NCHW", False)
        self.padding = validator.check_pool_padding(padding, 3, "MaxPool3d")
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def construct(self, x: Tensor) -> Any:
        return PF.pool_nd(
            x, "max", self.kernel_size, self.stride, self.pad_mode.lower(), self.padding,
            self.dilation, self.ceil_mode, return_indices=self.return_indices, nsp=3, op="MaxPool3d",
        )  # fmt: skip


class AvgPool1d(_PoolNd):
    """1-D average pooling over an (N, C, L) or (C, L) input; ``padding``, ``ceil_mode`` and
    ``count_include_pad`` as in ``AvgPool2d``."""

    _nsp = 1

    def __init__(
        self,
        kernel_size: int = 1,
        stride: int = 1,
        pad_mode: str = "valid",
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
    ) -> None:
        validator.check_int_size(kernel_size, "kernel_size", "AvgPool1d")
        validator.check_int_size(stride, "stride", "AvgPool1d")
        super().__init__(kernel_size, stride, pad_mode, padding, "NCHW", False)
        self.padding = validator.check_pool_padding(padding, 1, "AvgPool1d")[0]
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self._expand = self.pad_mode == "PAD" or self.padding != 0 or ceil_mode or not count_include_pad

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim not in (2, 3):
            raise ValueError(f"For 'AvgPool1d', the input must has 3 dim, but got {x.ndim}")
        mode = "pad" if self._expand and self.pad_mode != "SAME" else self.pad_mode.lower()
        return PF.pool_nd(
            x, "avg", self.kernel_size, self.stride, mode, (self.padding, self.padding) if mode == "pad" else 0,
            1, self.ceil_mode, self.count_include_pad, nsp=1, op="AvgPool1d",
        )  # fmt: skip


class AvgPool3d(_PoolNd):
    """3-D average pooling over an (N, C, D, H, W) or (C, D, H, W) input (``padding``: an int, 3 or 6
    ints; ``divisor_override``: a positive divisor or None)."""

    _nsp = 3

    def __init__(
        self,
        kernel_size: Any = 1,
        stride: Any = 1,
        pad_mode: str = "valid",
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: Any = None,
    ) -> None:
        super().__init__(kernel_size, stride, pad_mode, 0, "NCHW", False)
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For 'AvgPool3d', the 'divisor_override' must be > 0, but got {divisor_override}.")
        self.padding = (
            padding
            if isinstance(padding, tuple) and len(padding) == 6
            else validator.check_pool_padding(padding, 3, "AvgPool3d")
        )
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def construct(self, x: Tensor) -> Tensor:
        mode = self.pad_mode.lower()
        return PF.pool_nd(
            x, "avg", self.kernel_size, self.stride, mode, self.padding if mode == "pad" else 0, 1,
            self.ceil_mode, self.count_include_pad, self.divisor_override, nsp=3, op="AvgPool3d",
        )  # fmt: skip


class _Adaptive1d(Cell):
    _fn: Any = None

    def __init__(self, output_size: int) -> None:
        super().__init__()
        op = type(self).__name__
        if isinstance(output_size, bool) or not isinstance(output_size, int):
            raise TypeError(
                f"For '{op}', the type of 'output_size' should be 'int', but got type '{type(output_size).__name__}'."
            )
        if output_size < 1:
            raise ValueError(f"For '{op}', the 'output_size' must be >= 1, but got {output_size}.")
        self.output_size = output_size

    def construct(self, input: Tensor) -> Tensor:
        return type(self)._fn(input, self.output_size)

    def extend_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_Adaptive1d):
    """Average over ``output_size`` equal bins of the last axis of an (N, C, L) input (L divisible)."""

    _fn = staticmethod(PF.adaptive_avg_pool1d)

    def __init__(self, output_size: int) -> None:
        super().__init__(output_size)


class AdaptiveMaxPool1d(_Adaptive1d):
    """Maximum over ``output_size`` equal bins of the last axis of an (N, C, L) input (L divisible)."""

    _fn = staticmethod(PF.adaptive_max_pool1d)

    def __init__(self, output_size: int) -> None:
        super().__init__(output_size)


class AdaptiveAvgPool3d(Cell):
    """Average pooling to a fixed 3-D ``output_size`` (an int or 3 ints/None)."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def construct(self, input: Tensor) -> Tensor:
        return PF.adaptive_avg_pool3d(input, self.output_size)

    def extend_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool3d(Cell):
    """Max pooling to a fixed 3-D ``output_size`` (and the flat argmax positions with ``return_indices``)."""

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        if not isinstance(return_indices, bool):
            raise TypeError(
                f"For 'AdaptiveMaxPool3d', the 'return_indices' must be a bool, but got {type(return_indices).__name__}."
            )
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, input: Tensor) -> Any:
        return PF.adaptive_max_pool3d(input, self.output_size, self.return_indices)

    def extend_repr(self) -> str:
        return f"output_size={self.output_size}, return_indices={self.return_indices}"


class LPPool1d(Cell):
    """Power-average pooling ``(sum x ** p) ** (1 / p)`` over 1-D windows."""

    def __init__(self, norm_type: Any, kernel_size: int, stride: Any = None, ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def construct(self, x: Tensor) -> Tensor:
        return PF.lp_pool1d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(Cell):
    """Power-average pooling ``(sum x ** p) ** (1 / p)`` over 2-D windows."""

    def __init__(self, norm_type: Any, kernel_size: Any, stride: Any = None, ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def construct(self, x: Tensor) -> Tensor:
        return PF.lp_pool2d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class _MaxUnpool(Cell):
    _nsp = 2

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding

    def construct(self, x: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        op = type(self).__name__
        if output_size is not None:
            if not isinstance(output_size, tuple):
                raise ValueError(f"For {op}, output_size must be tuple, but type {type(output_size)}.")
            if not output_size:
                raise ValueError(f"For {op}, the length of output_size must be positive, but got 0.")
        return PF.max_unpool_nd(
            x, indices, self.kernel_size, self.stride, self.padding, output_size, self._nsp, op.lower()[:-2] + "d"
        )


class MaxUnpool1d(_MaxUnpool):
    """Inverse of ``MaxPool1d`` with indices: values scattered into zeros at their argmax positions."""

    _nsp = 1

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__(kernel_size, stride, padding)


class MaxUnpool2d(_MaxUnpool):
    """Inverse of ``MaxPool2d`` with indices (flat over H*W)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__(kernel_size, stride, padding)


class MaxUnpool3d(_MaxUnpool):
    """Inverse of ``MaxPool3d`` with indices (flat over D*H*W)."""

    _nsp = 3

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__(kernel_size, stride, padding)


class MaxPool2dExt(Cell):
    """2-D max pooling with PyTorch's arguments (``stride`` defaults to ``kernel_size``)."""

    def __init__(
        self,
        kernel_size: Any = 1,
        stride: Any = None,
        padding: Any = 0,
        dilation: Any = 1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding, self.dilation, self.return_indices, self.ceil_mode = padding, dilation, return_indices, ceil_mode

    def construct(self, input: Tensor) -> Any:
        return pool2d(
            input, "max", self.kernel_size, self.stride, "pad", self.padding, self.dilation, self.ceil_mode,
            return_indices=self.return_indices, op="MaxPool2dExt",
        )  # fmt: skip


class _AvgPoolExt(Cell):
    _nsp = 2

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: Any = None,
    ) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def construct(self, input: Tensor) -> Tensor:
        n = self._nsp
        return PF.pool_nd(
            input, "avg", self.kernel_size, self.kernel_size if self.stride is None else self.stride, "pad",
            validator.check_pool_padding(self.padding, n, type(self).__name__), 1, self.ceil_mode, self.count_include_pad,
            self.divisor_override, nsp=n, op=type(self).__name__,
        )  # fmt: skip


class AvgPool1dExt(_AvgPoolExt):
    """1-D average pooling with PyTorch's arguments."""

    _nsp = 1

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
    ) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)


class AvgPool2dExt(_AvgPoolExt):
    """2-D average pooling with PyTorch's arguments."""

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: Any = None,
    ) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


class AvgPool3dExt(_AvgPoolExt):
    """3-D average pooling with PyTorch's arguments."""

    _nsp = 3

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: Any = None,
    ) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


class _FractionalMaxPool(Cell):
    _fn: Any = None

    def __init__(
        self,
        kernel_size: Any,
        output_size: Any = None,
        output_ratio: Any = None,
        return_indices: bool = False,
        _random_samples: Any = None,
    ) -> None:
        super().__init__()
        self.kernel_size, self.output_size, self.output_ratio = kernel_size, output_size, output_ratio
        self.return_indices, self._random_samples = return_indices, _random_samples

    def construct(self, input: Tensor) -> Any:
        return type(self)._fn(
            input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices, self._random_samples
        )


class FractionalMaxPool2d(_FractionalMaxPool):
    """Fractional max-pooling (Graham's pseudo-random windows) to ``output_size`` or ``output_ratio``."""

    _fn = staticmethod(IF.fractional_max_pool2d)

    def __init__(
        self,
        kernel_size: Any,
        output_size: Any = None,
        output_ratio: Any = None,
        return_indices: bool = False,
        _random_samples: Any = None,
    ) -> None:
        super().__init__(kernel_size, output_size, output_ratio, return_indices, _random_samples)


class FractionalMaxPool3d(_FractionalMaxPool):
    """3-D fractional max-pooling to ``output_size`` or ``output_ratio``."""

    _fn = staticmethod(IF.fractional_max_pool3d)

    def __init__(
        self,
        kernel_size: Any,
        output_size: Any = None,
        output_ratio: Any = None,
        return_indices: bool = False,
        _random_samples: Any = None,
    ) -> None:
        super().__init__(kernel_size, output_size, output_ratio, return_indices, _random_samples)
