"""Math operator classes."""

from __future__ import annotations

from typing import Any

from .. import function as F
from ._primitive import Primitive

__all__ = ["MatMul", "ReduceMean", "ReduceSum", "Reciprocal", "Add", "Sub", "Mul", "Div", "RealDiv"]


class MatMul(Primitive):
    """``MatMul(transpose_a=False, transpose_b=False)(x, y)``."""

    def __init__(self, transpose_a: bool = False, transpose_b: bool = False) -> None:
        super().__init__()
        self.transpose_a, self.transpose_b = transpose_a, transpose_b
        self.attrs.update(transpose_a=transpose_a, transpose_b=transpose_b)

    def __call__(self, x: Any, y: Any) -> Any:
        if self.transpose_a:
            x = F.swapaxes(x, -1, -2)
        if self.transpose_b:
            y = F.swapaxes(y, -1, -2)
        return F.matmul(x, y)


class _Reduce(Primitive):
    _fn: Any = None

    def __init__(self, keep_dims: bool = False) -> None:
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For '{self.name}', the 'keep_dims' must be a bool, but got {type(keep_dims).__name__}.")
        self.keep_dims = keep_dims
        self.attrs["keep_dims"] = keep_dims

    def __call__(self, x: Any, axis: Any = ()) -> Any:
        return type(self)._fn(x, axis, self.keep_dims)


class ReduceMean(_Reduce):
    _fn = staticmethod(F.mean)


class ReduceSum(_Reduce):
    _fn = staticmethod(lambda x, axis, keep: F.sum(x, axis if axis != () else None, keep))


class _Binary(Primitive):
    _fn: Any = None

    def __call__(self, x: Any, y: Any) -> Any:
        return type(self)._fn(x, y)


class Add(_Binary):
    _fn = staticmethod(F.add)


class Sub(_Binary):
    _fn = staticmethod(F.sub)


class Mul(_Binary):
    _fn = staticmethod(F.mul)


class Div(_Binary):
    _fn = staticmethod(F.div)


class RealDiv(_Binary):
    _fn = staticmethod(F.div)


class Reciprocal(Primitive):
    def __call__(self, x: Any) -> Any:
        return F.reciprocal(x)
