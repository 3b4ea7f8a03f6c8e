"""Math operator classes (``ops.Add()``, ``ops.ReduceMean(keep_dims=True)``, ``ops.MatMul()``...).

Each class keeps its construction arguments as attributes and delegates to the functional op.
"""

from __future__ import annotations

from typing import Any

from ..._checkparam import check_bool
from ...common import dtype as mstype
from .. import function as F
from ._primitive import Primitive

__all__ = [
    "MatMul",
    "BatchMatMul",
    "ReduceMean",
    "ReduceSum",
    "ReduceMax",
    "ReduceMin",
    "ReduceProd",
    "ReduceAll",
    "ReduceAny",
    "Argmax",
    "Argmin",
    "ArgMaxWithValue",
    "ArgMinWithValue",
    "AddN",
    "AccumulateNV2",
    "Cumsum",
    "CumProd",
    "CumSum",
    "ClipByValue",
    "IsClose",
    "Lerp",
    "Einsum",
    "MatrixInverse",
    "MatrixDeterminant",
    "LpNorm",
    "SquareSumAll",
    "Cross",
    "ApproximateEqual",
    "NotEqual",
]


def _set_attrs(prim: Primitive, **kwargs: Any) -> None:
    """Keep construction arguments as attributes (``prim.axis``) and in ``prim.attrs``."""
    for k, v in kwargs.items():
        setattr(prim, k, v)
        prim.attrs[k] = v


def _check_bool(prim: Primitive, name: str, value: Any) -> bool:
    """``_checkparam.check_bool`` naming the primitive."""
    return check_bool(value, name, prim.name)


class _Unary(Primitive):
    _fn: Any = None

    def __call__(self, x: Any) -> Any:
        return type(self)._fn(x)


class _Binary(Primitive):
    _fn: Any = None

    def __call__(self, x: Any, y: Any) -> Any:
        return type(self)._fn(x, y)


def _make(base: type, name: str, fn: Any, doc: str) -> type:
    cls = type(name, (base,), {"_fn": staticmethod(fn), "__doc__": doc, "__module__": __name__})
    return cls


_BINARY = {
    "Add": (F.add, "x + y, with MindSpore's type promotion."),
    "Sub": (F.sub, "x - y."),
    "Mul": (F.mul, "x * y."),
    "Div": (F.div, "x / y (integers divide as float32)."),
    "RealDiv": (F.div, "x / y."),
    "FloorDiv": (F.floor_divide, "floor(x / y)."),
    "FloorMod": (F.floor_mod, "x - floor(x / y) * y."),
    "Mod": (F.fmod, "Remainder with the sign of the dividend."),
    "TruncateDiv": (F.truncate_div, "Division rounded towards zero."),
    "TruncateMod": (F.truncate_mod, "Remainder of truncated division."),
    "Pow": (F.pow, "x ** y."),
    "Maximum": (F.maximum, "Element-wise maximum."),
    "Minimum": (F.minimum, "Element-wise minimum."),
    "SquaredDifference": (F.square_difference, "(x - y) ** 2."),
    "Atan2": (F.atan2, "arctan(x / y) in the right quadrant."),
    "Xlogy": (F.xlogy, "x * log(y), 0 where x == 0."),
    "DivNoNan": (F.div_no_nan, "x / y, 0 where y == 0."),
    "MulNoNan": (F.mul_no_nan, "x * y, 0 where y == 0."),
    "Equal": (F.equal, "x == y."),
    "Greater": (F.greater, "x > y."),
    "GreaterEqual": (F.greater_equal, "x >= y."),
    "Less": (F.less, "x < y."),
    "LessEqual": (F.less_equal, "x <= y."),
    "LogicalAnd": (F.logical_and, "x and y."),
    "LogicalOr": (F.logical_or, "x or y."),
    "LogicalXor": (F.logical_xor, "x xor y."),
    "BitwiseAnd": (F.bitwise_and, "x & y."),
    "BitwiseOr": (F.bitwise_or, "x | y."),
    "BitwiseXor": (F.bitwise_xor, "x ^ y."),
    "Gcd": (F.gcd, "Greatest common divisor."),
    "Lcm": (F.lcm, "Least common multiple."),
    "Heaviside": (F.heaviside, "Heaviside step function."),
}

_UNARY = {
    "Sqrt": F.sqrt,
    "Rsqrt": F.rsqrt,
    "Square": F.square,
    "Exp": F.exp,
    "Expm1": F.expm1,
    "Log": F.log,
    "Log1p": F.log1p,
    "Abs": F.abs,
    "Neg": F.neg,
    "Sign": F.sign,
    "Floor": F.floor,
    "Ceil": F.ceil,
    "Round": F.round,
    "Rint": F.round,
    "Trunc": F.trunc,
    "Reciprocal": F.reciprocal,
    "Inv": F.reciprocal,
    "Sin": F.sin,
    "Cos": F.cos,
    "Tan": F.tan,
    "Asin": F.asin,
    "ACos": F.acos,
    "Atan": F.atan,
    "Sinh": F.sinh,
    "Cosh": F.cosh,
    "Asinh": F.asinh,
    "Acosh": F.acosh,
    "Atanh": F.atanh,
    "Erf": F.erf,
    "Erfc": F.erfc,
    "Erfinv": F.erfinv,
    "Lgamma": F.lgamma,
    "Digamma": F.digamma,
    "Sinc": F.sinc,
    "LogicalNot": F.logical_not,
    "Invert": F.bitwise_not,
    "IsFinite": F.isfinite,
    "IsNan": F.isnan,
    "IsInf": F.isinf,
    "Log2": F.log2,
    "Log10": F.log10,
}

for _name, (_fn, _doc) in _BINARY.items():
    globals()[_name] = _make(_Binary, _name, _fn, f"``{_name}()(x, y)``: {_doc}")
for _name, _fn in _UNARY.items():
    globals()[_name] = _make(_Unary, _name, _fn, f"``{_name}()(x)``: element-wise ``{_fn.__name__}``.")
__all__ += [*_BINARY, *_UNARY]


class NotEqual(_Binary):
    """``NotEqual()(x, y)``: x != y."""

    _fn = staticmethod(F.not_equal)


class ApproximateEqual(Primitive):
    """``ApproximateEqual(tolerance=1e-5)(x, y)``: ``|x - y| < tolerance``."""

    def __init__(self, tolerance: float = 1e-05) -> None:
        super().__init__()
        _set_attrs(self, tolerance=tolerance)

    def __call__(self, x: Any, y: Any) -> Any:
        return F.less(F.abs(F.sub(x, y)), self.tolerance)


class MatMul(Primitive):
    """``MatMul(transpose_a=False, transpose_b=False)(x, y)``: the product of two 2-D matrices."""

    def __init__(self, transpose_a: bool = False, transpose_b: bool = False) -> None:
        super().__init__()
        _check_bool(self, "transpose_a", transpose_a)
        _check_bool(self, "transpose_b", transpose_b)
        _set_attrs(self, transpose_a=transpose_a, transpose_b=transpose_b)

    def __call__(self, x: Any, y: Any) -> Any:
        if self.transpose_a:
            x = F.swapaxes(x, -1, -2)
        if self.transpose_b:
            y = F.swapaxes(y, -1, -2)
        return F.matmul(x, y)


class BatchMatMul(MatMul):
    """``BatchMatMul(transpose_a=False, transpose_b=False)(x, y)``: batched matrix product."""


class _Reduce(Primitive):
    _fn: Any = None

    def __init__(self, keep_dims: bool = False) -> None:
        super().__init__()
        _check_bool(self, "keep_dims", keep_dims)
        _set_attrs(self, keep_dims=keep_dims)

    def __call__(self, x: Any, axis: Any = ()) -> Any:
        if isinstance(axis, (list, tuple)) and len(axis) == 0:
            axis = None
        return type(self)._fn(x, axis, self.keep_dims)


def _reduce(name: str, fn: Any, doc: str) -> type:
    return type(name, (_Reduce,), {"_fn": staticmethod(fn), "__doc__": doc, "__module__": __name__})


class ReduceSum(_Reduce):
    """``ReduceSum(keep_dims=False, skip_mode=False)(x, axis=())``: sum over ``axis`` (all when empty)."""

    def __init__(self, keep_dims: bool = False, skip_mode: bool = False) -> None:
        super().__init__(keep_dims)
        _set_attrs(self, skip_mode=_check_bool(self, "skip_mode", skip_mode))

    def __call__(self, x: Any, axis: Any = ()) -> Any:
        if self.skip_mode and isinstance(axis, (list, tuple)) and len(axis) == 0:
            return x
        return super().__call__(x, axis)

    # not SumExt: amp_level='auto' leaves MindSpore's ReduceSum in its input's type (ops.sum is black-listed)
    _fn = staticmethod(lambda x, axis, keep: F.sum.__wrapped__(x, axis, keep))


ReduceMean = _reduce("ReduceMean", F.mean, "``ReduceMean(keep_dims=False)(x, axis=())``: mean over ``axis``.")
ReduceMax = _reduce("ReduceMax", F.amax, "``ReduceMax(keep_dims=False)(x, axis=())``: maximum over ``axis``.")
ReduceMin = _reduce("ReduceMin", F.amin, "``ReduceMin(keep_dims=False)(x, axis=())``: minimum over ``axis``.")
ReduceProd = _reduce("ReduceProd", F.prod, "``ReduceProd(keep_dims=False)(x, axis=())``: product over ``axis``.")
ReduceAll = _reduce("ReduceAll", F.all, "``ReduceAll(keep_dims=False)(x, axis=())``: logical and over ``axis``.")
ReduceAny = _reduce("ReduceAny", F.any, "``ReduceAny(keep_dims=False)(x, axis=())``: logical or over ``axis``.")


class Argmax(Primitive):
    """``Argmax(axis=-1, output_type=mstype.int32)(x)``: index of the maximum along ``axis``."""

    _fn: Any = staticmethod(F.argmax)

    def __init__(self, axis: int = -1, output_type: Any = mstype.int32) -> None:
        super().__init__()
        if output_type not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{self.name}', the 'output_type' must be int32 or int64, but got {output_type}.")
        _set_attrs(self, axis=axis, output_type=output_type)

    def __call__(self, x: Any) -> Any:
        return F.cast(type(self)._fn(x, self.axis, False), self.output_type)


class Argmin(Argmax):
    """``Argmin(axis=-1, output_type=mstype.int32)(x)``: index of the minimum along ``axis``."""

    _fn = staticmethod(F.argmin)


class ArgMaxWithValue(Primitive):
    """``ArgMaxWithValue(axis=0, keep_dims=False)(x)`` -> ``(index, values)`` (index first, Int32)."""

    _largest = True

    def __init__(self, axis: int = 0, keep_dims: bool = False) -> None:
        super().__init__()
        _set_attrs(self, axis=axis, keep_dims=_check_bool(self, "keep_dims", keep_dims))

    def __call__(self, x: Any) -> Any:
        fn = F.max if self._largest else F.min
        values, index = fn(x, self.axis, self.keep_dims)
        return F.cast(index, mstype.int32), values


class ArgMinWithValue(ArgMaxWithValue):
    """``ArgMinWithValue(axis=0, keep_dims=False)(x)`` -> ``(index, values)``."""

    _largest = False


class AddN(Primitive):
    """``AddN()(inputs)``: the sum of a tuple of same-shaped Tensors."""

    def __call__(self, inputs: Any) -> Any:
        return F.add_n(inputs)


AccumulateNV2 = type("AccumulateNV2", (AddN,), {"__doc__": "Same as AddN.", "__module__": __name__})


class Cumsum(Primitive):
    """``CumSum(exclusive=False, reverse=False)(x, axis)``: cumulative sum along ``axis``."""

    _fn: Any = staticmethod(F.cumsum)
    _identity = 0

    def __init__(self, exclusive: bool = False, reverse: bool = False) -> None:
        super().__init__()
        _set_attrs(
            self, exclusive=_check_bool(self, "exclusive", exclusive), reverse=_check_bool(self, "reverse", reverse)
        )

    def __call__(self, x: Any, axis: Any) -> Any:
        ax = int(axis.item()) if hasattr(axis, "item") else int(axis)
        if self.reverse:
            x = F.flip(x, (ax,))
        out = type(self)._fn(x, ax)
        if self.exclusive:
            n = out.shape[ax]
            if n == 0:
                return out
            head = F.full_like(F.narrow(out, ax, 0, 1), self._identity)
            out = F.concat((head, F.narrow(out, ax, 0, n - 1)), ax) if n > 1 else head
        if self.reverse:
            out = F.flip(out, (ax,))
        return out


CumSum = Cumsum


class CumProd(Cumsum):
    """``CumProd(exclusive=False, reverse=False)(x, axis)``: cumulative product along ``axis``."""

    _fn = staticmethod(F.cumprod)
    _identity = 1


class ClipByValue(Primitive):
    """``ClipByValue()(x, clip_value_min, clip_value_max)``."""

    def __call__(self, x: Any, clip_value_min: Any, clip_value_max: Any) -> Any:
        return F.clip_by_value(x, clip_value_min, clip_value_max)


class IsClose(Primitive):
    """``IsClose(rtol=1e-05, atol=1e-08, equal_nan=True)(input, other)``."""

    def __init__(self, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = True) -> None:
        super().__init__()
        _set_attrs(self, rtol=rtol, atol=atol, equal_nan=equal_nan)

    def __call__(self, input: Any, other: Any) -> Any:
        return F.isclose(input, other, self.rtol, self.atol, self.equal_nan)


class Lerp(Primitive):
    """``Lerp()(start, end, weight)``: ``start + weight * (end - start)``."""

    def __call__(self, start: Any, end: Any, weight: Any) -> Any:
        return F.lerp(start, end, weight)


class Einsum(Primitive):
    """``Einsum(equation)(operands)``."""

    def __init__(self, equation: str) -> None:
        super().__init__()
        if not isinstance(equation, str):
            raise TypeError(f"For 'Einsum', the 'equation' must be a str, but got {type(equation).__name__}.")
        _set_attrs(self, equation=equation)

    def __call__(self, operands: Any) -> Any:
        return F.einsum(self.equation, *operands)


class MatrixInverse(Primitive):
    """``MatrixInverse(adjoint=False)(x)``."""

    def __init__(self, adjoint: bool = False) -> None:
        super().__init__()
        _set_attrs(self, adjoint=_check_bool(self, "adjoint", adjoint))

    def __call__(self, x: Any) -> Any:
        out = F.inverse(x)
        return F.swapaxes(out, -1, -2) if self.adjoint else out


class MatrixDeterminant(_Unary):
    """``MatrixDeterminant()(x)``."""

    _fn = staticmethod(F.det)


class LpNorm(Primitive):
    """``LpNorm(axis, p=2, keep_dims=False, epsilon=1e-12)(input)``."""

    def __init__(self, axis: Any, p: int = 2, keep_dims: bool = False, epsilon: float = 1e-12) -> None:
        super().__init__()
        _set_attrs(self, axis=axis, p=p, keep_dims=keep_dims, epsilon=epsilon)

    def __call__(self, input: Any) -> Any:
        axis = tuple(self.axis) if isinstance(self.axis, (list, tuple)) else (self.axis,)
        a = F.abs(input)
        if self.p == 0:
            return F.sum(F.cast(F.not_equal(a, 0), a.dtype), axis, self.keep_dims)
        out = F.pow(F.sum(F.pow(a, self.p), axis, self.keep_dims), 1.0 / self.p)
        return F.maximum(out, self.epsilon)


class SquareSumAll(Primitive):
    """``SquareSumAll()(x, y)`` -> ``(sum(x**2), sum(y**2))``."""

    def __call__(self, x: Any, y: Any) -> Any:
        return F.square_sum(x), F.square_sum(y)


class Cross(Primitive):
    """``Cross(dim=-65530)(x1, x2)``: the cross product (the first dim of size 3 by default)."""

    def __init__(self, dim: int = -65530) -> None:
        super().__init__()
        _set_attrs(self, dim=dim)

    def __call__(self, x1: Any, x2: Any) -> Any:
        return F.cross(x1, x2, None if self.dim == -65530 else self.dim)
