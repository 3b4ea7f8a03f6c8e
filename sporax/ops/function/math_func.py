"""Element-wise math, comparisons, logic, reductions and linear algebra (``mindspore.ops`` functional).

Every function takes Tensors (or Python numbers where MindSpore allows them), promotes with
MindSpore's rules (``ops._utils.promote``), calls one jax kernel and returns a Tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._engine import jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import arr, as_tensor_array, float_result, np_dtype, promote, wrap

__all__ = [
    "add",
    "sub",
    "mul",
    "div",
    "divide",
    "true_divide",
    "floor_divide",
    "floor_div",
    "remainder",
    "fmod",
    "pow",
    "neg",
    "negative",
    "abs",
    "absolute",
    "exp",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "sqrt",
    "rsqrt",
    "square",
    "reciprocal",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "floor",
    "ceil",
    "round",
    "trunc",
    "sign",
    "erf",
    "erfc",
    "maximum",
    "minimum",
    "clamp",
    "clip",
    "clip_by_value",
    "lerp",
    "addcmul",
    "addcdiv",
    "square_difference",
    "equal",
    "not_equal",
    "ne",
    "eq",
    "less",
    "lt",
    "less_equal",
    "le",
    "greater",
    "gt",
    "greater_equal",
    "ge",
    "isnan",
    "isinf",
    "isfinite",
    "isclose",
    "logical_and",
    "logical_or",
    "logical_not",
    "logical_xor",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_not",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "sum",
    "tensor_sum",
    "mean",
    "prod",
    "amax",
    "amin",
    "max",
    "min",
    "tensor_max",
    "tensor_min",
    "argmax",
    "argmin",
    "all",
    "any",
    "std",
    "var",
    "tensor_std",
    "tensor_var",
    "logsumexp",
    "cumsum",
    "cumprod",
    "norm",
    "count_nonzero",
    "matmul",
    "bmm",
    "batch_matmul",
    "mm",
    "dot",
    "inner",
    "outer",
    "tensor_dot",
    "tensordot",
    "xlogy",
    "sigmoid",
    "add_n",
    "addn",
    "mul_no_nan",
    "div_no_nan",
    "exp2",
    "deg2rad",
    "rad2deg",
    "hypot",
    "signbit",
    "square_sum",
    "mv",
    "baddbmm",
    "addmm",
    "logaddexp",
]


# ----------------------------------------------------------------- arithmetic
def add(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(a + b)


def sub(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(a - b)


def mul(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(a * b)


def div(input: Any, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    """True division (integers divide as float32), or ``'floor'`` / ``'trunc'`` rounding."""
    a, b = promote(input, other)
    if rounding_mode is None:
        a, b = float_result(a), float_result(b)
        return wrap(a / b)
    if rounding_mode == "floor":
        return wrap(jnp.floor_divide(a, b))
    if rounding_mode == "trunc":
        q = jnp.trunc(float_result(a) / float_result(b))
        return wrap(q.astype(a.dtype))
    raise ValueError(f"For 'div', the 'rounding_mode' must be None, 'floor' or 'trunc', but got '{rounding_mode}'.")


divide = div


def true_divide(dividend: Any, divisor: Any) -> Tensor:
    return div(dividend, divisor)


def floor_divide(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.floor_divide(a, b))


floor_div = floor_divide


def remainder(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.remainder(a, b))


def fmod(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.fmod(a, b))


def pow(input: Any, exponent: Any) -> Tensor:
    a, b = promote(input, exponent)
    return wrap(jnp.power(a, b))


def neg(input: Any) -> Tensor:
    return wrap(-as_tensor_array(input))


negative = neg


def abs(input: Any) -> Tensor:
    return wrap(jnp.abs(as_tensor_array(input)))


absolute = abs


def _float_unary(kernel: Any, name: str) -> Any:
    def op(input: Any) -> Tensor:
        return wrap(kernel(float_result(as_tensor_array(input))))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Element-wise ``{name}`` (integer inputs compute in float32)."
    return op


exp = _float_unary(jnp.exp, "exp")
exp2 = _float_unary(jnp.exp2, "exp2")
expm1 = _float_unary(jnp.expm1, "expm1")
log = _float_unary(jnp.log, "log")
log1p = _float_unary(jnp.log1p, "log1p")
log2 = _float_unary(jnp.log2, "log2")
log10 = _float_unary(jnp.log10, "log10")
sqrt = _float_unary(jnp.sqrt, "sqrt")
rsqrt = _float_unary(lax.rsqrt, "rsqrt")
sin = _float_unary(jnp.sin, "sin")
cos = _float_unary(jnp.cos, "cos")
tan = _float_unary(jnp.tan, "tan")
asin = _float_unary(jnp.arcsin, "asin")
acos = _float_unary(jnp.arccos, "acos")
atan = _float_unary(jnp.arctan, "atan")
sinh = _float_unary(jnp.sinh, "sinh")
cosh = _float_unary(jnp.cosh, "cosh")
tanh = _float_unary(jnp.tanh, "tanh")
asinh = _float_unary(jnp.arcsinh, "asinh")
acosh = _float_unary(jnp.arccosh, "acosh")
atanh = _float_unary(jnp.arctanh, "atanh")
erf = _float_unary(lax.erf, "erf")
erfc = _float_unary(lax.erfc, "erfc")
sigmoid = _float_unary(lambda x: 1 / (1 + jnp.exp(-x)), "sigmoid")
deg2rad = _float_unary(jnp.deg2rad, "deg2rad")
rad2deg = _float_unary(jnp.rad2deg, "rad2deg")


def reciprocal(input: Any) -> Tensor:
    return wrap(1 / float_result(as_tensor_array(input)))


def square(input: Any) -> Tensor:
    a = as_tensor_array(input)
    return wrap(a * a)


def floor(input: Any) -> Tensor:
    return wrap(jnp.floor(as_tensor_array(input)))


def ceil(input: Any) -> Tensor:
    return wrap(jnp.ceil(as_tensor_array(input)))


def round(input: Any, *, decimals: int = 0) -> Tensor:
    return wrap(jnp.round(as_tensor_array(input), decimals))


def trunc(input: Any) -> Tensor:
    return wrap(jnp.trunc(as_tensor_array(input)))


def sign(input: Any) -> Tensor:
    return wrap(jnp.sign(as_tensor_array(input)))


def signbit(input: Any) -> Tensor:
    return wrap(jnp.signbit(as_tensor_array(input)))


def atan2(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.arctan2(float_result(a), float_result(b)))


def hypot(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.hypot(float_result(a), float_result(b)))


def logaddexp(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.logaddexp(float_result(a), float_result(b)))


def xlogy(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    a, b = float_result(a), float_result(b)
    return wrap(jnp.where(a == 0, jnp.zeros_like(a), a * jnp.log(b)))


def maximum(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.maximum(a, b))


def minimum(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.minimum(a, b))


def clamp(input: Any, min: Any = None, max: Any = None) -> Tensor:
    """Clip to [min, max]; either bound may be None (not both)."""
    if min is None and max is None:
        raise ValueError("For 'clamp', at least one of 'min' and 'max' must be given.")
    a = as_tensor_array(input)
    if min is not None:
        a = jnp.maximum(a, jnp.asarray(arr(min), a.dtype))
    if max is not None:
        a = jnp.minimum(a, jnp.asarray(arr(max), a.dtype))
    return wrap(a)


clip = clamp


def clip_by_value(x: Any, clip_value_min: Any = None, clip_value_max: Any = None) -> Any:
    """Clip a Tensor, or each Tensor of a list/tuple, to [min, max]."""
    if isinstance(x, (list, tuple)):
        return type(x)(clamp(t, clip_value_min, clip_value_max) for t in x)
    return clamp(x, clip_value_min, clip_value_max)


def lerp(input: Any, end: Any, weight: Any) -> Tensor:
    a, b = promote(input, end)
    w = arr(weight)
    return wrap(a + jnp.asarray(w, a.dtype) * (b - a))


def addcmul(input: Any, tensor1: Any, tensor2: Any, value: Any = 1) -> Tensor:
    return add(input, mul(value, mul(tensor1, tensor2)))


def addcdiv(input: Any, tensor1: Any, tensor2: Any, value: Any = 1) -> Tensor:
    return add(input, mul(value, div(tensor1, tensor2)))


def square_difference(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap((a - b) * (a - b))


def mul_no_nan(x: Any, y: Any) -> Tensor:
    a, b = promote(x, y)
    return wrap(jnp.where(b == 0, jnp.zeros_like(a), a * b))


def div_no_nan(x1: Any, x2: Any) -> Tensor:
    a, b = promote(x1, x2)
    a, b = float_result(a), float_result(b)
    safe = jnp.where(b == 0, jnp.ones_like(b), b)
    return wrap(jnp.where(b == 0, jnp.zeros_like(a), a / safe))


def add_n(x: Any) -> Tensor:
    """Sum of a list of same-shaped Tensors."""
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError("For 'addn', the input must be a non-empty list or tuple of Tensors.")
    out = as_tensor_array(x[0])
    for t in x[1:]:
        out = out + as_tensor_array(t)
    return wrap(out)


addn = add_n


# ---------------------------------------------------------------- comparison
def _cmp(kernel: Any, name: str) -> Any:
    def op(input: Any, other: Any) -> Tensor:
        a, b = promote(input, other)
        return wrap(kernel(a, b))

    op.__name__ = op.__qualname__ = name
    return op


equal = eq = _cmp(jnp.equal, "equal")
not_equal = ne = _cmp(jnp.not_equal, "not_equal")
less = lt = _cmp(jnp.less, "less")
less_equal = le = _cmp(jnp.less_equal, "less_equal")
greater = gt = _cmp(jnp.greater, "greater")
greater_equal = ge = _cmp(jnp.greater_equal, "greater_equal")


def isnan(input: Any) -> Tensor:
    return wrap(jnp.isnan(as_tensor_array(input)))


def isinf(input: Any) -> Tensor:
    return wrap(jnp.isinf(as_tensor_array(input)))


def isfinite(input: Any) -> Tensor:
    return wrap(jnp.isfinite(as_tensor_array(input)))


def isclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.isclose(a, b, rtol, atol, equal_nan))


def logical_and(input: Any, other: Any) -> Tensor:
    return wrap(jnp.logical_and(as_tensor_array(input), as_tensor_array(other)))


def logical_or(input: Any, other: Any) -> Tensor:
    return wrap(jnp.logical_or(as_tensor_array(input), as_tensor_array(other)))


def logical_xor(input: Any, other: Any) -> Tensor:
    return wrap(jnp.logical_xor(as_tensor_array(input), as_tensor_array(other)))


def logical_not(input: Any) -> Tensor:
    return wrap(jnp.logical_not(as_tensor_array(input)))


def _bitwise(kernel: Any, name: str) -> Any:
    def op(input: Any, other: Any) -> Tensor:
        a, b = promote(input, other)
        if jnp.issubdtype(a.dtype, jnp.inexact):
            raise TypeError(
                f"For '{name}', the inputs must be integer or bool tensors, but got {mstype.from_np(a.dtype)}."
            )
        return wrap(kernel(a, b))

    op.__name__ = op.__qualname__ = name
    return op


bitwise_and = _bitwise(jnp.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(jnp.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(jnp.bitwise_xor, "bitwise_xor")
bitwise_left_shift = _bitwise(jnp.left_shift, "bitwise_left_shift")
bitwise_right_shift = _bitwise(jnp.right_shift, "bitwise_right_shift")


def bitwise_not(input: Any) -> Tensor:
    return wrap(jnp.invert(as_tensor_array(input)))


# ---------------------------------------------------------------- reductions
def _axis(axis: Any) -> Any:
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        return None if len(axis) == 0 else tuple(int(a) for a in axis)
    return int(axis)


def sum(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Sum over ``dim`` (all dims when None)."""
    a = as_tensor_array(input)
    if dtype is not None:
        a = a.astype(np_dtype(dtype))
    elif a.dtype == np.bool_:
        a = a.astype(jnp.int64)
    return wrap(jnp.sum(a, axis=_axis(dim), keepdims=keepdim))


def tensor_sum(input: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:
    out = sum(input, axis, keepdims, dtype=dtype)
    return out if initial is None else add(out, initial)


def mean(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Mean over ``axis`` (all when None or ``()``); integer inputs give float32."""
    a = float_result(as_tensor_array(input))
    return wrap(jnp.mean(a, axis=_axis(axis), keepdims=keep_dims))


def prod(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return wrap(jnp.prod(as_tensor_array(input), axis=_axis(axis), keepdims=keep_dims))


def amax(input: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return wrap(jnp.max(as_tensor_array(input), axis=_axis(axis), keepdims=keepdims))


def amin(input: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return wrap(jnp.min(as_tensor_array(input), axis=_axis(axis), keepdims=keepdims))


def max(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Any:
    """MindSpore 2.x ``ops.max``: with ``axis`` None the maximum value; with an axis, ``(values, indices)``."""
    a = as_tensor_array(input)
    if axis is None:
        return wrap(jnp.max(a, initial=initial, where=arr(where)) if initial is not None else jnp.max(a))
    ax = int(axis)
    return wrap(jnp.max(a, axis=ax, keepdims=keepdims)), wrap(
        jnp.argmax(a, axis=ax, keepdims=keepdims).astype(jnp.int64)
    )


def min(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Any:
    """MindSpore 2.x ``ops.min``: with ``axis`` None the minimum value; with an axis, ``(values, indices)``."""
    a = as_tensor_array(input)
    if axis is None:
        return wrap(jnp.min(a, initial=initial, where=arr(where)) if initial is not None else jnp.min(a))
    ax = int(axis)
    return wrap(jnp.min(a, axis=ax, keepdims=keepdims)), wrap(
        jnp.argmin(a, axis=ax, keepdims=keepdims).astype(jnp.int64)
    )


def tensor_max(
    input: Any,
    axis: Any = None,
    keepdims: bool = False,
    *,
    initial: Any = None,
    where: Any = None,
    return_indices: bool = False,
) -> Any:
    """``Tensor.max``: values only unless ``return_indices``."""
    a = as_tensor_array(input)
    kw: dict[str, Any] = {}
    if initial is not None:
        kw["initial"] = initial
    if where is not None:
        kw["where"] = arr(where)
    vals = wrap(jnp.max(a, axis=_axis(axis), keepdims=keepdims, **kw))
    if return_indices:
        return vals, wrap(jnp.argmax(a, axis=_axis(axis), keepdims=keepdims).astype(jnp.int64))
    return vals


def tensor_min(
    input: Any,
    axis: Any = None,
    keepdims: bool = False,
    *,
    initial: Any = None,
    where: Any = None,
    return_indices: bool = False,
) -> Any:
    a = as_tensor_array(input)
    kw: dict[str, Any] = {}
    if initial is not None:
        kw["initial"] = initial
    if where is not None:
        kw["where"] = arr(where)
    vals = wrap(jnp.min(a, axis=_axis(axis), keepdims=keepdims, **kw))
    if return_indices:
        return vals, wrap(jnp.argmin(a, axis=_axis(axis), keepdims=keepdims).astype(jnp.int64))
    return vals


def argmax(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Index of the maximum (Int64), over the flattened input when ``dim`` is None."""
    a = as_tensor_array(input)
    return wrap(jnp.argmax(a, axis=None if dim is None else int(dim), keepdims=keepdim).astype(jnp.int64))


def argmin(input: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    a = as_tensor_array(input)
    return wrap(jnp.argmin(a, axis=None if axis is None else int(axis), keepdims=keepdims).astype(jnp.int64))


def all(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return wrap(jnp.all(as_tensor_array(input), axis=_axis(axis), keepdims=keep_dims))


def any(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return wrap(jnp.any(as_tensor_array(input), axis=_axis(axis), keepdims=keep_dims))


def std(input: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    a = float_result(as_tensor_array(input))
    return wrap(jnp.std(a, axis=_axis(axis), ddof=ddof, keepdims=keepdims))


def var(input: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    a = float_result(as_tensor_array(input))
    return wrap(jnp.var(a, axis=_axis(axis), ddof=ddof, keepdims=keepdims))


tensor_std = std
tensor_var = var


def logsumexp(input: Any, axis: Any, keep_dims: bool = False) -> Tensor:
    from ..._engine import jax

    a = float_result(as_tensor_array(input))
    return wrap(jax.nn.logsumexp(a, axis=_axis(axis), keepdims=keep_dims))


def cumsum(x: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    a = as_tensor_array(x)
    if axis is None:
        a, axis = a.reshape(-1), 0
    return wrap(jnp.cumsum(a, axis=int(axis), dtype=None if dtype is None else np_dtype(dtype)))


def cumprod(input: Any, dim: int, dtype: Any = None) -> Tensor:
    a = as_tensor_array(input)
    return wrap(jnp.cumprod(a, axis=int(dim), dtype=None if dtype is None else np_dtype(dtype)))


def norm(A: Any, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    a = float_result(as_tensor_array(A))
    if dtype is not None:
        a = a.astype(np_dtype(dtype))
    return wrap(jnp.linalg.norm(a, ord=ord, axis=_axis(dim), keepdims=keepdim))


def square_sum(x: Any) -> Tensor:
    a = as_tensor_array(x)
    return wrap(jnp.sum(a * a))


def count_nonzero(x: Any, axis: Any = (), keep_dims: bool = False, dtype: Any = mstype.int32) -> Tensor:
    a = as_tensor_array(x)
    return wrap(jnp.count_nonzero(a, axis=_axis(axis), keepdims=keep_dims).astype(np_dtype(dtype)))


# -------------------------------------------------------------- linear algebra
def matmul(input: Any, other: Any) -> Tensor:
    """Matrix product with broadcasting (NumPy's matmul); dtypes must agree."""
    a, b = as_tensor_array(input), as_tensor_array(other)
    if a.dtype != b.dtype:
        raise TypeError(
            f"For 'MatMul', the dtypes of the inputs must be the same, but got {mstype.from_np(a.dtype)} and {mstype.from_np(b.dtype)}."
        )
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("For 'MatMul', the inputs cannot be scalars.")
    ka = a.shape[-1]
    kb = b.shape[-2] if b.ndim >= 2 else b.shape[0]
    if ka != kb:
        raise ValueError(
            f"For 'MatMul', the input dimensions must be equal, but got 'x1_col': {ka} and 'x2_row': {kb}. "
            f"And 'x' shape {tuple(a.shape)}(transpose_a=False), 'y' shape {tuple(b.shape)}(transpose_b=False)."
        )
    return wrap(jnp.matmul(a, b))


def mm(input: Any, mat2: Any) -> Tensor:
    return matmul(input, mat2)


def bmm(input_x: Any, mat2: Any) -> Tensor:
    return matmul(input_x, mat2)


batch_matmul = bmm


def mv(mat: Any, vec: Any) -> Tensor:
    return matmul(mat, vec)


def baddbmm(input: Any, batch1: Any, batch2: Any, beta: Any = 1, alpha: Any = 1) -> Tensor:
    return add(mul(input, beta), mul(bmm(batch1, batch2), alpha))


def addmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    return add(mul(input, beta), mul(matmul(mat1, mat2), alpha))


def dot(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.dot(a, b))


def inner(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.inner(a, b))


def outer(input: Any, vec2: Any) -> Tensor:
    a, b = promote(input, vec2)
    return wrap(jnp.outer(a, b))


def tensor_dot(x1: Any, x2: Any, axes: Any) -> Tensor:
    a, b = promote(x1, x2)
    return wrap(jnp.tensordot(a, b, axes=axes))


tensordot = tensor_dot
