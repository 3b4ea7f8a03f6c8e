"""Math operator classes outside the element-wise families (``ops.Betainc()``, ``ops.Complex()``,
``ops.LeftShift()``, ``ops.ReduceStd(...)``, ``ops.Lstsq()``, ``ops.Mvlgamma(p)``, ``ops.IOU()``...), each
delegating to its functional op."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._checkparam import check_bool
from .. import function as F
from ..function import misc_math_func as MM
from ._primitive import Primitive
from .math_ops import _set_attrs

__all__ = [
    "Betainc",
    "Complex",
    "LeftShift",
    "RightShift",
    "LerpScalar",
    "NextAfter",
    "ReduceStd",
    "Lstsq",
    "Mvlgamma",
    "IOU",
]


class Betainc(Primitive):
    """``Betainc()(a, b, x)``: the regularized incomplete beta function."""

    def __call__(self, a: Any, b: Any, x: Any) -> Any:
        return MM.betainc(a, b, x)


class Complex(Primitive):
    """``Complex()(real, imag)``."""

    def __call__(self, real: Any, imag: Any) -> Any:
        return MM.complex(real, imag)


class LeftShift(Primitive):
    """``LeftShift()(x1, x2)``: ``x1 << x2``."""

    def __call__(self, x1: Any, x2: Any) -> Any:
        return F.bitwise_left_shift(x1, x2)


class RightShift(Primitive):
    """``RightShift()(x1, x2)``: ``x1 >> x2``."""

    def __call__(self, x1: Any, x2: Any) -> Any:
        return F.bitwise_right_shift(x1, x2)


class LerpScalar(Primitive):
    """``LerpScalar()(input, end, weight)``: ``input + weight * (end - input)`` with a number ``weight``."""

    def __call__(self, input: Any, end: Any, weight: float) -> Any:
        return F.lerp(input, end, weight)


class NextAfter(Primitive):
    """``NextAfter()(x1, x2)``: the next representable value after ``x1`` towards ``x2``."""

    def __call__(self, x1: Any, x2: Any) -> Any:
        return F.nextafter(x1, x2)


class ReduceStd(Primitive):
    """``ReduceStd(axis=[], unbiased=True, keep_dims=False)(input_x)`` -> ``(std, mean)``."""

    def __init__(self, axis: Any = [], unbiased: bool = True, keep_dims: bool = False) -> None:  # noqa: B006
        super().__init__()
        axis = (axis,) if isinstance(axis, int) else tuple(axis)
        _set_attrs(
            self,
            axis=axis,
            unbiased=check_bool(unbiased, "unbiased", self.name),
            keep_dims=check_bool(keep_dims, "keep_dims", self.name),
        )

    def __call__(self, input_x: Any) -> Any:
        std, mean = F.std_mean(input_x, self.axis or None, int(self.unbiased), self.keep_dims)
        return std, mean


class Lstsq(Primitive):
    """``Lstsq(fast=True, l2_regularizer=0.0)()(matrix, rhs)``: the least-squares solution (MindSpore accepts
    only ``fast=True`` and ``l2_regularizer=0.0``)."""

    def __init__(self, fast: bool = True, l2_regularizer: float = 0.0) -> None:
        super().__init__()
        if fast is not True:
            raise TypeError(f"For 'Lstsq', the 'fast' should be True, but got '{fast}'.")
        if l2_regularizer != 0.0 or not isinstance(l2_regularizer, float):
            raise TypeError(f"For 'Lstsq', the 'l2_regularizer' should be 0.0, but got '{l2_regularizer}'.")
        _set_attrs(self, fast=fast, l2_regularizer=l2_regularizer)

    def __call__(self, matrix: Any, rhs: Any) -> Any:
        return F.lstsq(matrix, rhs)


class Mvlgamma(Primitive):
    """``Mvlgamma(p)(x)``: the multivariate log-gamma of dimension ``p``."""

    def __init__(self, p: int) -> None:
        super().__init__()
        validator.check_int_at_least(p, 1, "p", "Mvlgamma", quote=True)
        _set_attrs(self, p=p)

    def __call__(self, x: Any) -> Any:
        return F.mvlgamma(x, self.p)


class IOU(Primitive):
    """``IOU(mode='iou')(anchor_boxes, gt_boxes)``: ``'iou'`` or ``'iof'`` of every box pair."""

    def __init__(self, mode: str = "iou") -> None:
        super().__init__()
        if mode not in ("iou", "iof"):
            raise KeyError(f"For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
        _set_attrs(self, mode=mode)

    def __call__(self, anchor_boxes: Any, gt_boxes: Any) -> Any:
        return F.iou(anchor_boxes, gt_boxes, self.mode)
