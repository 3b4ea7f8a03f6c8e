"""Array operator classes."""

from __future__ import annotations

from typing import Any

from .. import function as F
from ._primitive import Primitive

__all__ = ["Reshape", "Fill", "DType", "Shape", "Cast", "Transpose"]


class Reshape(Primitive):
    def __call__(self, input_x: Any, input_shape: Any) -> Any:
        return F.reshape(input_x, input_shape)


class Fill(Primitive):
    def __call__(self, type: Any, shape: Any, value: Any) -> Any:
        return F.fill(type, shape, value)


class DType(Primitive):
    def __call__(self, input_x: Any) -> Any:
        return F.dtype(input_x)


class Shape(Primitive):
    def __call__(self, input_x: Any) -> Any:
        return F.shape(input_x)


class Cast(Primitive):
    def __call__(self, input_x: Any, type: Any) -> Any:
        return F.cast(input_x, type)


class Transpose(Primitive):
    def __call__(self, input_x: Any, input_perm: Any) -> Any:
        return F.transpose(input_x, input_perm)
