"""Pooling layers: MaxPool2d, AvgPool2d, AdaptiveAvgPool2d, AdaptiveMaxPool2d (NCHW or CHW input)."""

from __future__ import annotations

from typing import Any

from ... import ops
from ...common.tensor import Tensor
from ...ops.function._conv_pool import pool2d, tuple_n
from ..cell import Cell

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d"]


class _PoolNd(Cell):
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
        tuple_n(kernel_size, 2, "kernel_size", op)
        tuple_n(stride, 2, "stride", op)
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
