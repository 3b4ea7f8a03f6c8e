"""Padding layers: Pad, ConstantPad1d/2d/3d, ZeroPad2d, ReflectionPad1d/2d/3d, ReplicationPad1d/2d/3d.

``padding`` tuples start from the last dimension: (left, right[, top, bottom[, front, back]]).
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ...common.tensor import Tensor
from ...ops._utils import as_tensor_array, wrap
from ...ops.function import _resize_func as RF
from ...ops.function.nn_func import pad as _pad
from ...ops.operations.nn_ops import Pad as _PadPrim
from ..cell import Cell

__all__ = [
    "Pad",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ZeroPad2d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
]


class Pad(Cell):
    """Pad by ``paddings`` ((before, after) per dimension, up to 4 dimensions); ``mode`` 'CONSTANT' (zeros),
    'REFLECT' (mirror without the edge) or 'SYMMETRIC' (mirror with the edge)."""

    def __init__(self, paddings: Any, mode: str = "CONSTANT") -> None:
        super().__init__()
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(
                f"For 'Pad', the 'mode' must be str and must be in ['CONSTANT', 'REFLECT', 'SYMMETRIC'], but got {mode}."
            )
        if not isinstance(paddings, tuple):
            raise TypeError(f"For 'Pad', the type of 'paddings' must be tuple, but got {type(paddings).__name__}.")
        for item in paddings:
            if len(item) != 2:
                raise ValueError(f"For 'Pad', the dimension of 'paddings' must be (n, 2), but got {paddings}.")
        if len(paddings) > 4:
            raise ValueError(f"For 'Pad', only 'paddings' up to 4 dims is supported, but got {len(paddings)}.")
        self.mode, self.paddings = mode, paddings
        self._pad = _PadPrim(paddings) if mode == "CONSTANT" else None

    def construct(self, x: Tensor) -> Tensor:
        if self._pad is not None:
            return self._pad(x)
        return wrap(RF.mirror_pad_array(as_tensor_array(x), self.paddings, self.mode, "Pad"))


class _ConstantPadNd(Cell):
    _n = 1

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__()
        name = type(self).__name__
        n = self._n
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
            raise TypeError(
                f"For '{name}', the type of parameter 'padding' must be in [int, tuple], but got {type(padding)}"
            )
        if isinstance(padding, int):
            padding = (padding,) * (2 * n)
        else:
            if len(padding) % 2:
                raise ValueError(
                    f"For '{name}', the length of parameter 'padding' with tuple type must be a multiple of 2, "
                    f"but got {len(padding)}"
                )
            if n == 1 and len(padding) != 2:
                raise ValueError(
                    f"For '{name}', the length of parameter 'padding' with tuple type must equal to 2.but got "
                    f"{len(padding)}"
                )
            if len(padding) > 2 * n:
                raise ValueError(
                    f"For '{name}', the length of parameter 'padding' with tuple type must no more than {2 * n}."
                    f"but got {len(padding)}"
                )
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(
                f"For '{name}', the type of parameter 'value' must be in [int, float], but got {type(value)}"
            )
        self.padding, self.value = padding, value

    def construct(self, x: Tensor) -> Tensor:
        name = type(self).__name__
        shape = x.shape
        pairs = len(self.padding) // 2
        if len(shape) < pairs:
            raise ValueError(
                f"For '{name}', the dimension of input must more than or equal to len(padding)/2, but got {len(shape)}"
            )
        for i in range(pairs):
            lo, hi = self.padding[2 * i], self.padding[2 * i + 1]
            size = shape[len(shape) - 1 - i]
            if size + lo + hi <= 0:
                raise ValueError(
                    f"For '{name}', the shape of input after padding must be positive, the input shape is {shape}, "
                    f"but the padding {lo} and {hi} of dimension {len(shape) - 1 - i} resulted in a non-positive "
                    "output shape."
                )
        return _pad(x, self.padding, "constant", self.value)


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dimension with ``value``: ``padding`` an int or (left, right); negative values crop."""

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__(padding, value)


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dimensions with ``value``: ``padding`` an int or (left, right, top, bottom)."""

    _n = 2

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__(padding, value)


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dimensions with ``value``: an int or (left, right, top, bottom, front, back)."""

    _n = 3

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__(padding, value)


class ZeroPad2d(_ConstantPadNd):
    """Pad the last two dimensions with zeros: ``padding`` an int or (left, right, top, bottom)."""

    _n = 2

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0)


class _ReflectionPadNd(Cell):
    _n = 1

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = validator.check_mirror_padding(padding, self._n, type(self).__name__)

    def construct(self, x: Tensor) -> Tensor:
        name = type(self).__name__
        pairs = len(self.padding) // 2
        if x.ndim < pairs:
            raise ValueError(
                f"For padding with length {len(self.padding)}, the dimension of the tensor should be at least "
                f"{pairs}, but got {x.ndim}"
            )
        if x.ndim not in (self._n + 1, self._n + 2):
            raise ValueError(
                f"For '{name}', the in_shape must have {self._n + 1} or {self._n + 2} dims, but got {x.ndim}."
            )
        full = [(0, 0)] * (x.ndim - pairs) + [
            (self.padding[2 * i], self.padding[2 * i + 1]) for i in reversed(range(pairs))
        ]
        return wrap(RF.mirror_pad_array(as_tensor_array(x), full, "REFLECT", name))


class ReflectionPad1d(_ReflectionPadNd):
    """Reflect-pad the last dimension of a 2-D or 3-D input: ``padding`` an int or (left, right)."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding)


class ReflectionPad2d(_ReflectionPadNd):
    """Reflect-pad the last two dimensions of a 3-D or 4-D input: an int or (left, right, top, bottom)."""

    _n = 2

    def __init__(self, padding: Any) -> None:
        super().__init__(padding)


class ReflectionPad3d(_ReflectionPadNd):
    """Reflect-pad the last three dimensions of a 4-D or 5-D input (6 values, last dimension first)."""

    _n = 3

    def __init__(self, padding: Any) -> None:
        super().__init__(padding)


class _ReplicationPadNd(Cell):
    _n = 1

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = validator.check_mirror_padding(padding, self._n, type(self).__name__, non_negative=False)

    def construct(self, x: Tensor) -> Tensor:
        name = type(self).__name__
        if x.ndim not in (self._n + 1, self._n + 2):
            raise ValueError(
                f"For '{name}', the in_shape must have {self._n + 1} or {self._n + 2} dims, but got {x.ndim}."
            )
        return _pad(x, self.padding, "replicate")


class ReplicationPad1d(_ReplicationPadNd):
    """Edge-pad the last dimension of a 2-D or 3-D input: ``padding`` an int or (left, right)."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding)


class ReplicationPad2d(_ReplicationPadNd):
    """Edge-pad the last two dimensions of a 3-D or 4-D input: an int or (left, right, top, bottom)."""

    _n = 2

    def __init__(self, padding: Any) -> None:
        super().__init__(padding)


class ReplicationPad3d(_ReplicationPadNd):
    """Edge-pad the last three dimensions of a 4-D or 5-D input (6 values, last dimension first)."""

    _n = 3

    def __init__(self, padding: Any) -> None:
        super().__init__(padding)
