"""Math operator classes (``ops.Add()``, ``ops.ReduceMean(keep_dims=True)``, ``ops.MatMul()``...).

Each class keeps its construction arguments as attributes and delegates to the functional op.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._checkparam import check_bool
from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .. import function as F
from ..function import reduce_func as _REDUCE
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


class _NoArgs(Primitive):
    """A primitive constructed without arguments (``ops.Add()``), as MindSpore's are."""

    def __init__(self) -> None:
        super().__init__()


class _Unary(_NoArgs):
    _fn: Any = None

    def __call__(self, x: Any) -> Any:
        return type(self)._fn(x)


class _Binary(_NoArgs):
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
    "TensorAdd": (F.add, "x + y (MindSpore 1.x's name of Add)."),
    "Hypot": (F.hypot, "sqrt(x ** 2 + y ** 2)."),
    "Xdivy": (F.xdivy, "x / y, 0 where x == 0."),
    "Fmax": (F.fmax, "Element-wise maximum ignoring NaN."),
    "Fmin": (F.fmin, "Element-wise minimum ignoring NaN."),
    "Igamma": (F.igamma, "The regularized lower incomplete gamma function P(a, x)."),
    "Igammac": (F.igammac, "The regularized upper incomplete gamma function Q(a, x)."),
    "Zeta": (F.zeta, "The Hurwitz zeta function of (x, q)."),
    "Polar": (F.polar, "abs * exp(i * angle)."),
    "Polygamma": (F.polygamma, "The a-th derivative of digamma at x."),
    "Ger": (F.outer, "The outer product of two 1-D tensors."),
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
    "Inv": F.inv,
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
    "Invert": F.invert,
    "IsFinite": F.isfinite,
    "IsNan": F.isnan,
    "IsInf": F.isinf,
    "Log2": F.log2,
    "Log10": F.log10,
    "Angle": F.angle,
    "Conj": F.conj,
    "Real": F.real,
    "Imag": F.imag,
    "ComplexAbs": F.abs,
    "Eps": F.eps,
    "BesselI0": F.bessel_i0,
    "BesselI0e": F.bessel_i0e,
    "BesselI1": F.bessel_i1,
    "BesselI1e": F.bessel_i1e,
    "BesselJ0": F.bessel_j0,
    "BesselJ1": F.bessel_j1,
    "BesselK0": F.bessel_k0,
    "BesselK0e": F.bessel_k0e,
    "BesselK1": F.bessel_k1,
    "BesselK1e": F.bessel_k1e,
    "BesselY0": F.bessel_y0,
    "BesselY1": F.bessel_y1,
    "MatrixExp": F.matrix_exp,
    "Trace": F.trace,
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
        check_bool(transpose_a, "transpose_a", self.name)
        check_bool(transpose_b, "transpose_b", self.name)
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
        check_bool(keep_dims, "keep_dims", self.name)
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
        _set_attrs(self, skip_mode=check_bool(skip_mode, "skip_mode", self.name))

    def __call__(self, x: Any, axis: Any = ()) -> Any:
        if self.skip_mode and isinstance(axis, (list, tuple)) and len(axis) == 0:
            return x
        return super().__call__(x, axis)

    # not SumExt: amp_level='auto' leaves MindSpore's ReduceSum in its input's type (ops.sum is black-listed)
    _fn = staticmethod(_REDUCE.reduce_sum_keep_dtype)


ReduceMean = _reduce("ReduceMean", F.mean, "``ReduceMean(keep_dims=False)(x, axis=())``: mean over ``axis``.")
ReduceMax = _reduce("ReduceMax", F.amax, "``ReduceMax(keep_dims=False)(x, axis=())``: maximum over ``axis``.")
ReduceMin = _reduce("ReduceMin", F.amin, "``ReduceMin(keep_dims=False)(x, axis=())``: minimum over ``axis``.")
ReduceProd = _reduce(
    "ReduceProd", _REDUCE.reduce_prod_keep_dtype, "``ReduceProd(keep_dims=False)(x, axis=())``: product over ``axis``."
)
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
        _set_attrs(self, axis=axis, keep_dims=check_bool(keep_dims, "keep_dims", self.name))

    def __call__(self, x: Any) -> Any:
        fn = F.max if self._largest else F.min
        values, index = fn(x, self.axis, self.keep_dims)
        return F.cast(index, mstype.int32), values


class ArgMinWithValue(ArgMaxWithValue):
    """``ArgMinWithValue(axis=0, keep_dims=False)(x)`` -> ``(index, values)``."""

    _largest = False


class AddN(_NoArgs):
    """``AddN()(inputs)``: the sum of a tuple of same-shaped Tensors."""

    def __call__(self, inputs: Any) -> Any:
        return F.add_n(inputs)


AccumulateNV2 = type("AccumulateNV2", (AddN,), {"__doc__": "Same as AddN.", "__module__": __name__})


class Cumsum(Primitive):
    """``CumSum(exclusive=False, reverse=False)(x, axis)``: cumulative sum along ``axis``."""

    _fn: Any = staticmethod(F.cumsum)
    _identity: float = 0

    def __init__(self, exclusive: bool = False, reverse: bool = False) -> None:
        super().__init__()
        _set_attrs(
            self,
            exclusive=check_bool(exclusive, "exclusive", self.name),
            reverse=check_bool(reverse, "reverse", self.name),
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


class ClipByValue(_NoArgs):
    """``ClipByValue()(x, clip_value_min, clip_value_max)``."""

    def __call__(self, x: Any, clip_value_min: Any, clip_value_max: Any) -> Any:
        return F.clip_by_value(x, clip_value_min, clip_value_max)


class IsClose(Primitive):
    """``IsClose(rtol=1e-05, atol=1e-08, equal_nan=False)(input, other)`` (:func:`ops.isclose`)."""

    def __init__(self, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> None:
        super().__init__()
        _set_attrs(self, rtol=rtol, atol=atol, equal_nan=equal_nan)

    def __call__(self, input: Any, other: Any) -> Any:
        return F.isclose(input, other, self.rtol, self.atol, self.equal_nan)


class Lerp(_NoArgs):
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
        _set_attrs(self, adjoint=check_bool(adjoint, "adjoint", self.name))

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


class SquareSumAll(_NoArgs):
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


class _Ternary(_NoArgs):
    _fn: Any = None

    def __call__(self, input_data: Any, x1: Any, x2: Any, value: Any) -> Any:
        return type(self)._fn(input_data, x1, x2, value)


class Addcdiv(_Ternary):
    """``Addcdiv()(input_data, x1, x2, value)``: ``input_data + value * x1 / x2``."""

    _fn = staticmethod(F.addcdiv)


class Addcmul(_Ternary):
    """``Addcmul()(input_data, x1, x2, value)``: ``input_data + value * x1 * x2``."""

    _fn = staticmethod(F.addcmul)


class EqualCount(_NoArgs):
    """``EqualCount()(x, y)``: the number of equal elements, shape ``(1,)`` in the inputs' dtype."""

    def __call__(self, x: Any, y: Any) -> Any:
        return F.reshape(F.cast(F.sum(F.cast(F.equal(x, y), mstype.int64)), F.dtype(x)), (1,))


class CompareAndBitpack(_NoArgs):
    """``CompareAndBitpack()(x, threshold)``: ``x > threshold`` packed 8 to a UInt8 along the last axis."""

    def __call__(self, x: Any, threshold: Any) -> Any:
        return _REDUCE._compare_and_bitpack(x, threshold)


class Bincount(_NoArgs):
    """``Bincount()(array, size, weights)``: the weighted count of each value in ``[0, size)``."""

    def __call__(self, array: Any, size: Any, weights: Any) -> Any:
        n = int(size.asnumpy()) if hasattr(size, "asnumpy") else int(size)
        return _REDUCE._bincount_with_size(array, n, weights)


class Bucketize(Primitive):
    """``Bucketize(boundaries)(input)``: the bucket index of each element (Int32)."""

    def __init__(self, boundaries: Any) -> None:
        super().__init__()
        if not isinstance(boundaries, (list, tuple)):
            raise TypeError(f"For 'Bucketize', 'boundaries' must be a list, but got {type(boundaries).__name__}.")
        _set_attrs(self, boundaries=list(boundaries))

    def __call__(self, input: Any) -> Any:
        return F.bucketize(input, self.boundaries)


class Cummax(Primitive):
    """``Cummax(axis)(input)`` -> ``(values, indices)``: the running maximum along ``axis``."""

    _fn: Any = staticmethod(F.cummax)

    def __init__(self, axis: int) -> None:
        super().__init__()
        _set_attrs(self, axis=axis)

    def __call__(self, input: Any) -> Any:
        return type(self)._fn(input, self.axis)


class Cummin(Cummax):
    """``Cummin(axis)(input)`` -> ``(values, indices)``: the running minimum along ``axis``."""

    _fn = staticmethod(F.cummin)


class CumulativeLogsumexp(Cumsum):
    """``CumulativeLogsumexp(exclusive=False, reverse=False)(x, axis)``: running ``log(sum(exp(x)))``."""

    _fn = staticmethod(F.logcumsumexp)
    _identity = float("-inf")


class EuclideanNorm(Primitive):
    """``EuclideanNorm(keep_dims=False)(x, axes)``: ``sqrt(sum(x ** 2, axes))`` in the input's dtype."""

    def __init__(self, keep_dims: bool = False) -> None:
        super().__init__()
        _set_attrs(self, keep_dims=check_bool(keep_dims, "keep_dims", self.name))

    def __call__(self, x: Any, axes: Any) -> Any:
        axes = tuple(int(v) for v in axes.asnumpy().reshape(-1)) if hasattr(axes, "asnumpy") else axes
        return F.cast(F.vector_norm(x, 2, axes, self.keep_dims), F.dtype(x))


class Histogram(Primitive):
    """``Histogram(bins=100, min=0.0, max=0.0)(x)``: ``histc`` (Int32 for Int32 input, else Float32)."""

    def __init__(self, bins: int = 100, min: float = 0.0, max: float = 0.0) -> None:
        super().__init__()
        _set_attrs(self, bins=bins, min=min, max=max)

    def __call__(self, x: Any) -> Any:
        out = F.histc(x, self.bins, self.min, self.max)
        return out if out.dtype == mstype.int32 else F.cast(out, mstype.float32)


class HistogramFixedWidth(Primitive):
    """``HistogramFixedWidth(nbins, dtype='int32')(x, range)``: counts in ``nbins`` equal bins over ``range``;
    values below or above it count in the first or last bin."""

    def __init__(self, nbins: int, dtype: str = "int32") -> None:
        super().__init__()
        validator.check_int_at_least(nbins, 1, "nbins", "HistogramFixedWidth")
        if dtype != "int32":
            raise ValueError(f"For 'HistogramFixedWidth', the 'dtype' must be 'int32', but got '{dtype}'.")
        _set_attrs(self, nbins=nbins, dtype=dtype)

    def __call__(self, x: Any, range: Any) -> Any:
        return _REDUCE._histogram_fixed_width(x, range, self.nbins)


class Logit(Primitive):
    """``Logit(eps=-1.0)(x)``: ``log(x / (1 - x))``, ``x`` clamped to ``[eps, 1 - eps]`` when ``eps >= 0``."""

    def __init__(self, eps: float = -1.0) -> None:
        super().__init__()
        _set_attrs(self, eps=eps)

    def __call__(self, x: Any) -> Any:
        return F.logit(x, None if self.eps < 0 else self.eps)


class Median(Primitive):
    """``Median(global_median=False, axis=0, keep_dims=False, ignore_nan=False)(x)`` -> ``(y, indices)``."""

    def __init__(self, global_median: bool = False, axis: int = 0, keep_dims: bool = False, ignore_nan: bool = False):
        super().__init__()
        _set_attrs(
            self,
            global_median=check_bool(global_median, "global_median", self.name),
            axis=axis,
            keep_dims=check_bool(keep_dims, "keep_dims", self.name),
            ignore_nan=check_bool(ignore_nan, "ignore_nan", self.name),
        )

    def __call__(self, x: Any) -> Any:
        fn = F.nanmedian if self.ignore_nan else F.median
        if self.global_median:
            return fn(F.reshape(x, (-1,)), 0, False)
        return fn(x, self.axis, self.keep_dims)


class NanToNum(Primitive):
    """``NanToNum(nan=None, posinf=None, neginf=None)(x)``."""

    def __init__(self, nan: Any = None, posinf: Any = None, neginf: Any = None) -> None:
        super().__init__()
        _set_attrs(self, nan=nan, posinf=posinf, neginf=neginf)

    def __call__(self, x: Any) -> Any:
        return F.nan_to_num(x, self.nan, self.posinf, self.neginf)


class Quantile(Primitive):
    """``Quantile(dim=None, keep_dims=False, ignore_nan=False)(input, q)``."""

    def __init__(self, dim: Any = None, keep_dims: bool = False, ignore_nan: bool = False) -> None:
        super().__init__()
        _set_attrs(self, dim=dim, keep_dims=keep_dims, ignore_nan=ignore_nan)

    def __call__(self, input: Any, q: Any) -> Any:
        fn = F.nanquantile if self.ignore_nan else F.quantile
        return fn(input, q, self.dim, self.keep_dims)


class Renorm(Primitive):
    """``Renorm(p, dim, maxnorm)(x)``: sub-tensors along ``dim`` with ``p``-norm above ``maxnorm`` rescaled."""

    def __init__(self, p: int, dim: int, maxnorm: float) -> None:
        super().__init__()
        _set_attrs(self, p=p, dim=dim, maxnorm=maxnorm)

    def __call__(self, x: Any) -> Any:
        return F.renorm(x, self.p, self.dim, self.maxnorm)


class TrilIndices(Primitive):
    """``TrilIndices(row, col, offset=0, dtype=mstype.int32)()``: the ``(2, N)`` lower-triangle indices."""

    _upper = False

    def __init__(self, row: int, col: int, offset: int = 0, dtype: Any = mstype.int32) -> None:
        super().__init__()
        if dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{self.name}', the 'dtype' must be int32 or int64, but got {dtype}.")
        _set_attrs(self, row=row, col=col, offset=offset, dtype=dtype)

    def __call__(self) -> Any:
        fn = F.triu_indices if self._upper else F.tril_indices
        return fn(self.row, self.col, self.offset, dtype=self.dtype)


class TriuIndices(TrilIndices):
    """``TriuIndices(row, col, offset=0, dtype=mstype.int32)()``: the ``(2, N)`` upper-triangle indices."""

    _upper = True


class Cdist(Primitive):
    """``Cdist(p=2.0)(input_x, input_y)``: pairwise ``p``-norm distances of the rows."""

    def __init__(self, p: float = 2.0) -> None:
        super().__init__()
        _set_attrs(self, p=p)

    def __call__(self, input_x: Any, input_y: Any) -> Any:
        return F.cdist(input_x, input_y, self.p)


class MatrixPower(Primitive):
    """``MatrixPower(n)(x)``: the ``n``-th power of each square matrix."""

    def __init__(self, n: int) -> None:
        super().__init__()
        _set_attrs(self, n=n)

    def __call__(self, x: Any) -> Any:
        return F.matrix_power(x, self.n)


__all__ += [
    "Addcdiv",
    "Addcmul",
    "EqualCount",
    "CompareAndBitpack",
    "Bincount",
    "Bucketize",
    "Cummax",
    "Cummin",
    "CumulativeLogsumexp",
    "EuclideanNorm",
    "Histogram",
    "HistogramFixedWidth",
    "Logit",
    "Median",
    "NanToNum",
    "Quantile",
    "Renorm",
    "TrilIndices",
    "TriuIndices",
    "Cdist",
    "MatrixPower",
]


class Cauchy(Primitive):
    """``Cauchy(size, median=0.0, sigma=1.0)()``: Float32 draws from the Cauchy distribution (framework seed)."""

    def __init__(self, size: Any, median: float = 0.0, sigma: float = 1.0) -> None:
        super().__init__()
        if not isinstance(size, (list, tuple)) or not size:
            raise TypeError(f"For 'Cauchy', the 'size' must be a non-empty list of ints, but got {size!r}.")
        if sigma <= 0:
            raise ValueError(f"For 'Cauchy', the 'sigma' must be > 0, but got {sigma}.")
        _set_attrs(self, size=list(size), median=float(median), sigma=float(sigma))

    def __call__(self) -> Any:
        from ..._engine import jax
        from ...common.seed import next_key

        draws = jax.random.cauchy(next_key(), tuple(self.size), jnp.float32)
        return Tensor._from_data(self.median + self.sigma * draws)


__all__ += ["Cauchy"]


class NMSWithMask(Primitive):
    """``NMSWithMask(iou_threshold=0.5)(bboxes)`` -> ``(output_boxes, output_idx, selected_mask)``: the boxes
    sorted by score, their indices in ``bboxes``, and which survive non-maximum suppression."""

    def __init__(self, iou_threshold: float = 0.5) -> None:
        super().__init__()
        if isinstance(iou_threshold, bool) or not isinstance(iou_threshold, (int, float)):
            raise TypeError(f"For 'NMSWithMask', the 'iou_threshold' must be a float, but got {iou_threshold!r}.")
        _set_attrs(self, iou_threshold=float(iou_threshold))

    def __call__(self, bboxes: Any) -> Any:
        from ..function.box_func import _nms_with_mask

        return _nms_with_mask(bboxes, self.iou_threshold)


__all__ += ["NMSWithMask"]
