"""Element-wise math, comparisons, logic, reductions and linear algebra (``mindspore.ops`` functional).

Every function takes Tensors (or Python numbers where MindSpore allows them), promotes with
MindSpore's rules (``ops._utils.promote``), calls one jax kernel and returns a Tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._engine import is_tracer, jax, jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black, amp_promote
from .._utils import (
    arr,
    as_tensor_array,
    check_axis,
    check_broadcast,
    compiled_op,
    float_result,
    np_dtype,
    promote,
    wrap,
)

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
    "logaddexp",
]


_logsumexp = jax.jit(lambda a, axis, keepdims: jax.nn.logsumexp(a, axis=axis, keepdims=keepdims), static_argnums=(1, 2))


# ----------------------------------------------------------------- arithmetic
def add(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "add")
    return wrap(a + b)


def sub(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "sub")
    return wrap(a - b)


def mul(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "mul")
    return wrap(a * b)


def div(input: Any, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    """True division (integers divide as float32), or ``'floor'`` / ``'trunc'`` rounding."""
    a, b = promote(input, other, "div")
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
    a, b = promote(input, other, "floor_divide")
    return wrap(jnp.floor_divide(a, b))


floor_div = floor_divide


def remainder(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "remainder")
    return wrap(jnp.remainder(a, b))


def fmod(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "fmod")
    return wrap(jnp.fmod(a, b))


@amp_black
def pow(input: Any, exponent: Any) -> Tensor:
    a, b = promote(input, exponent, "pow")
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


exp = amp_black(_float_unary(jnp.exp, "exp"))
exp2 = amp_black(_float_unary(jnp.exp2, "exp2"))
expm1 = amp_black(_float_unary(jnp.expm1, "expm1"))
log = amp_black(_float_unary(jnp.log, "log"))
log1p = amp_black(_float_unary(jnp.log1p, "log1p"))
log2 = amp_black(_float_unary(jnp.log2, "log2"))
log10 = amp_black(_float_unary(jnp.log10, "log10"))
sqrt = _float_unary(jnp.sqrt, "sqrt")
rsqrt = amp_black(_float_unary(lax.rsqrt, "rsqrt"))
sin = _float_unary(jnp.sin, "sin")
cos = _float_unary(jnp.cos, "cos")
tan = amp_black(_float_unary(jnp.tan, "tan"))
asin = amp_black(_float_unary(jnp.arcsin, "asin"))
acos = amp_black(_float_unary(jnp.arccos, "acos"))
atan = _float_unary(jnp.arctan, "atan")
sinh = amp_black(_float_unary(jnp.sinh, "sinh"))
cosh = amp_black(_float_unary(jnp.cosh, "cosh"))
tanh = _float_unary(jnp.tanh, "tanh")
asinh = _float_unary(jnp.arcsinh, "asinh")
acosh = _float_unary(jnp.arccosh, "acosh")
atanh = _float_unary(jnp.arctanh, "atanh")
erf = _float_unary(lax.erf, "erf")
erfc = _float_unary(lax.erfc, "erfc")
sigmoid = _float_unary(jax.jit(jax.nn.sigmoid), "sigmoid")
deg2rad = _float_unary(jnp.deg2rad, "deg2rad")
rad2deg = _float_unary(jnp.rad2deg, "rad2deg")


@amp_black
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
    a, b = promote(input, other, "atan2")
    return wrap(jnp.arctan2(float_result(a), float_result(b)))


def hypot(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "hypot")
    return wrap(jnp.hypot(float_result(a), float_result(b)))


@amp_black
def logaddexp(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "logaddexp")
    return wrap(jnp.logaddexp(float_result(a), float_result(b)))


def xlogy(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "xlogy")
    a, b = float_result(a), float_result(b)
    return wrap(jnp.where(a == 0, jnp.zeros_like(a), a * jnp.log(b)))


def maximum(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "maximum")
    return wrap(jnp.maximum(a, b))


def minimum(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "minimum")
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
    a, b = promote(input, end, "lerp")
    w = arr(weight)
    return wrap(a + jnp.asarray(w, a.dtype) * (b - a))


@amp_promote
def addcmul(input: Any, tensor1: Any, tensor2: Any, value: Any = 1) -> Tensor:
    return add(input, mul(value, mul(tensor1, tensor2)))


@amp_promote
def addcdiv(input: Any, tensor1: Any, tensor2: Any, value: Any = 1) -> Tensor:
    return add(input, mul(value, div(tensor1, tensor2)))


def square_difference(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "square_difference")
    return wrap((a - b) * (a - b))


def mul_no_nan(x: Any, y: Any) -> Tensor:
    a, b = promote(x, y, "mul_no_nan")
    return wrap(jnp.where(b == 0, jnp.zeros_like(a), a * b))


def div_no_nan(x1: Any, x2: Any) -> Tensor:
    a, b = promote(x1, x2, "div_no_nan")
    a, b = float_result(a), float_result(b)
    safe = jnp.where(b == 0, jnp.ones_like(b), b)
    return wrap(jnp.where(b == 0, jnp.zeros_like(a), a / safe))


@amp_promote
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
        a, b = promote(input, other, name)
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
    a, b = promote(input, other, "isclose")
    return wrap(jnp.isclose(a, b, rtol, atol, equal_nan))


def _logical(kernel: Any, name: str) -> Any:
    def op(input: Any, other: Any) -> Tensor:
        a, b = as_tensor_array(input), as_tensor_array(other)
        if a.shape != b.shape:
            check_broadcast(a.shape, b.shape, name)
        return wrap(kernel(a, b))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Element-wise ``{name}`` (non-bool inputs count as their truth values)."
    return op


logical_and = _logical(jnp.logical_and, "logical_and")
logical_or = _logical(jnp.logical_or, "logical_or")
logical_xor = _logical(jnp.logical_xor, "logical_xor")


def logical_not(input: Any) -> Tensor:
    return wrap(jnp.logical_not(as_tensor_array(input)))


def _bitwise(kernel: Any, name: str) -> Any:
    def op(input: Any, other: Any) -> Tensor:
        a, b = promote(input, other, name)
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


@amp_black
def sum(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Sum over ``dim`` (all dims when None)."""
    a = as_tensor_array(input)
    if dtype is not None:
        a = a.astype(np_dtype(dtype))
    elif a.dtype == np.bool_:
        a = a.astype(jnp.int64)
    return wrap(jnp.sum(a, axis=_axis(dim), keepdims=keepdim, dtype=a.dtype))


def tensor_sum(input: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:
    out = sum(input, axis, keepdims, dtype=dtype)
    return out if initial is None else add(out, initial)


def mean(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Mean over ``axis`` (all when None or ``()``); integer inputs give float32."""
    a = float_result(as_tensor_array(input))
    return wrap(jnp.mean(a, axis=_axis(axis), keepdims=keep_dims))


@amp_black
def prod(input: Any, axis: Any = None, keep_dims: bool = False, dtype: Any = None) -> Tensor:
    """Product over ``axis`` (all when None or ``()``), in the input's dtype (bool gives Int64)."""
    a = as_tensor_array(input)
    if dtype is not None:
        a = a.astype(np_dtype(dtype))
    elif a.dtype == np.bool_:
        a = a.astype(jnp.int64)
    return wrap(jnp.prod(a, axis=_axis(axis), keepdims=keep_dims, dtype=a.dtype))


def amax(input: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return wrap(jnp.max(as_tensor_array(input), axis=_axis(axis), keepdims=keepdims))


def amin(input: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return wrap(jnp.min(as_tensor_array(input), axis=_axis(axis), keepdims=keepdims))


def _max_min(input: Any, axis: Any, keepdims: bool, initial: Any, where: Any, largest: bool, op: str) -> Any:
    a = as_tensor_array(input)
    reduce, arg = (jnp.max, jnp.argmax) if largest else (jnp.min, jnp.argmin)
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, (int, np.integer))):
        raise TypeError(f"For '{op}', the 'axis' must be an int or None, but got {type(axis).__name__}.")
    if not isinstance(keepdims, bool):
        raise TypeError(f"For '{op}', the 'keepdims' must be a bool, but got {type(keepdims).__name__}.")
    if a.size == 0 and initial is None:
        raise ValueError(f"For '{op}', the 'input' is empty, so the keyword argument 'initial' must be given.")
    ax = None if axis is None or a.ndim == 0 else check_axis(axis, a.ndim, op)
    kw: dict[str, Any] = {}
    masked = a
    if initial is not None:
        kw["initial"] = initial
    if where is not None:
        if initial is None:
            raise ValueError(f"For '{op}', the keyword argument 'initial' must be given together with 'where'.")
        w = jnp.broadcast_to(as_tensor_array(where), a.shape)
        kw["where"] = w
        masked = jnp.where(w, a, jnp.asarray(initial, a.dtype))
    keep = keepdims and axis is not None
    values = reduce(a, axis=ax, keepdims=keep, **kw)
    index = arg(masked, axis=ax, keepdims=keep).astype(jnp.int64) if a.ndim else jnp.zeros((), jnp.int64)
    return wrap(values), wrap(index)


def max(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Any:
    """Maximum over ``axis`` and its index: ``(values, indices)`` (MindSpore 2.x).

    With ``axis`` None the maximum of all elements and its index in the flattened input.
    Returns:
        tuple(Tensor, Tensor): the values (input's dtype) and the indices (Int64).
    """
    return _max_min(input, axis, keepdims, initial, where, True, "max")


def min(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Any:
    """Minimum over ``axis`` and its index: ``(values, indices)`` (MindSpore 2.x)."""
    return _max_min(input, axis, keepdims, initial, where, False, "min")


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


@amp_black
def var(input: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    a = float_result(as_tensor_array(input))
    return wrap(jnp.var(a, axis=_axis(axis), ddof=ddof, keepdims=keepdims))


tensor_std = std
tensor_var = var


@amp_black
def logsumexp(input: Any, axis: Any, keep_dims: bool = False) -> Tensor:

    a = float_result(as_tensor_array(input))
    return wrap(_logsumexp(a, _axis(axis), keep_dims))


@amp_black
def cumsum(x: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    a = as_tensor_array(x)
    if axis is None:
        a, axis = a.reshape(-1), 0
    return wrap(jnp.cumsum(a, axis=int(axis), dtype=None if dtype is None else np_dtype(dtype)))


@amp_black
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


# ------------------------------------------------------------------- clipping
def _l2(a: Any, norm_type: Any = 2.0) -> Any:
    a = float_result(a)
    if norm_type in (float("inf"), "inf"):
        return jnp.max(jnp.abs(a))
    if norm_type in (float("-inf"), "-inf"):
        return jnp.min(jnp.abs(a))
    p = float(norm_type)
    if p == 2.0:
        return jnp.sqrt(jnp.sum(a * a))
    return jnp.sum(jnp.abs(a) ** p) ** (1.0 / p)


@compiled_op
def clip_by_global_norm(x: Any, clip_norm: Any = 1.0, use_norm: Any = None) -> tuple[Tensor, ...]:
    """Scale a tuple of Tensors so their global L2 norm is at most ``clip_norm``.

    ``scale = clip_norm / max(global_norm, clip_norm)``, with ``global_norm = sqrt(sum(l2(x_i)**2))``
    MindSpore's formula; a single Tensor is accepted too.

    Args:
        x (Union[tuple[Tensor], list[Tensor]]): the tensors to clip.
        clip_norm (Union[float, int, Tensor]): the clipping ratio, > 0. Default: ``1.0``.
        use_norm (None): must be None (as in MindSpore). Default: ``None``.

    Returns:
        tuple[Tensor], the clipped tensors, each in its input's dtype.
    """
    if isinstance(x, Tensor):  # MindSpore accepts one Tensor too
        return clip_by_global_norm((x,), clip_norm, use_norm)[0]
    if not isinstance(x, (list, tuple)):
        raise TypeError(
            f"For 'clip_by_global_norm', the 'x' must be a tuple or list of Tensors, but got {type(x).__name__}."
        )
    if use_norm is not None:
        raise ValueError(
            f"For 'clip_by_global_norm', the 'use_norm' only supports None currently, but got {use_norm!r}."
        )
    if _is_real_number(clip_norm) and float(clip_norm) <= 0:
        raise ValueError(f"For 'clip_by_global_norm', the 'clip_norm' must be > 0, but got {clip_norm}.")
    arrays = [as_tensor_array(t) for t in x]
    if use_norm is None:
        sq = [jnp.sum(jnp.square(float_result(a).astype(jnp.float32))) for a in arrays]
        gnorm = jnp.sqrt(jnp.sum(jnp.stack(sq))) if sq else jnp.zeros((), jnp.float32)
    else:
        gnorm = jnp.asarray(arr(use_norm), jnp.float32)
    cn = jnp.asarray(arr(clip_norm), jnp.float32)
    scale = cn / jnp.maximum(gnorm, cn)
    return tuple(wrap(a * scale.astype(a.dtype) if jnp.issubdtype(a.dtype, jnp.inexact) else a) for a in arrays)


def clip_by_norm(x: Any, max_norm: Any, norm_type: Any = 2.0, error_if_nonfinite: bool = False) -> Any:
    """Clip a Tensor (or a tuple/list of them) so that the total ``norm_type`` norm is at most ``max_norm``.

    ``coef = max_norm / (total_norm + 1e-6)``, applied when below 1.

    Returns:
        Tensor, or a tuple of Tensors when ``x`` is a tuple/list.
    """
    single = not isinstance(x, (list, tuple))
    arrays = [as_tensor_array(t) for t in ([x] if single else x)]
    if not arrays:
        return ()
    norms = jnp.stack([_l2(a, norm_type).astype(jnp.float32) for a in arrays])
    total = _l2(norms, norm_type)
    if error_if_nonfinite and not is_tracer(total) and not bool(jnp.isfinite(total)):
        raise RuntimeError(
            f"For 'clip_by_norm', the total norm of order {norm_type} is non-finite, so it cannot be clipped. "
            "Set 'error_if_nonfinite=False' to clip anyway."
        )
    coef = jnp.minimum(jnp.asarray(arr(max_norm), jnp.float32) / (total + 1e-6), 1.0)
    out = tuple(wrap(a * coef.astype(a.dtype)) for a in arrays)
    return out[0] if single else out


def _is_real_number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)


# ---------------------------------------------------------- more element-wise
def floor_mod(x: Any, y: Any) -> Tensor:
    """Remainder of floor division (the result has the sign of ``y``)."""
    return remainder(x, y)


def truncate_div(input_x: Any, input_y: Any) -> Tensor:
    """Division rounded towards zero."""
    return div(input_x, input_y, rounding_mode="trunc")


def truncate_mod(x: Any, y: Any) -> Tensor:
    """Remainder of truncated division (the result has the sign of ``x``)."""
    return fmod(x, y)


def float_power(input: Any, exponent: Any) -> Tensor:
    a, b = promote(input, exponent, "float_power")
    dt = jnp.complex128 if jnp.issubdtype(a.dtype, jnp.complexfloating) else jnp.float64
    return wrap(jnp.power(a.astype(dt), b.astype(dt)))


def frac(x: Any) -> Tensor:
    a = as_tensor_array(x)
    return wrap(a - jnp.trunc(a))


def logit(input: Any, eps: Any = None) -> Tensor:
    a = float_result(as_tensor_array(input))
    if eps is not None:
        a = jnp.clip(a, eps, 1 - eps)
    return wrap(jnp.log(a / (1 - a)))


def nan_to_num(input: Any, nan: float = 0.0, posinf: Any = None, neginf: Any = None) -> Tensor:
    a = as_tensor_array(input)
    return wrap(jnp.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf))


def heaviside(input: Any, values: Any) -> Tensor:
    a, b = promote(input, values, "heaviside")
    return wrap(jnp.heaviside(a, b))


def gcd(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "gcd")
    return wrap(jnp.gcd(a, b))


def lcm(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "lcm")
    return wrap(jnp.lcm(a, b))


sinc = _float_unary(jnp.sinc, "sinc")
erfinv = amp_black(_float_unary(lax.erf_inv, "erfinv"))
lgamma = _float_unary(lax.lgamma, "lgamma")
digamma = _float_unary(lax.digamma, "digamma")


def nansum(input: Any, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    a = as_tensor_array(input)
    if dtype is not None:
        a = a.astype(np_dtype(dtype))
    return wrap(jnp.nansum(a, axis=_axis(axis), keepdims=keepdims, dtype=a.dtype))


def std_mean(input: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    return std(input, axis, ddof, keepdims), mean(input, axis, keepdims)


def var_mean(input: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    return var(input, axis, ddof, keepdims), mean(input, axis, keepdims)


def median(input: Any, axis: int = -1, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """The lower median along ``axis`` and its index."""
    a = as_tensor_array(input)
    ax = check_axis(axis, a.ndim, "median") if a.ndim else None
    if ax is None:
        return wrap(a), wrap(jnp.zeros((), jnp.int64))
    order = jnp.argsort(a, axis=ax, stable=True)
    k = (a.shape[ax] - 1) // 2
    idx = lax.index_in_dim(order, k, axis=ax, keepdims=True)
    vals = jnp.take_along_axis(a, idx, axis=ax)
    if not keepdims:
        vals, idx = jnp.squeeze(vals, ax), jnp.squeeze(idx, ax)
    return wrap(vals), wrap(idx.astype(jnp.int64))


def _cum_extreme(input: Any, axis: int, largest: bool, op: str) -> tuple[Tensor, Tensor]:
    a = as_tensor_array(input)
    ax = check_axis(axis, a.ndim, op)
    vals = (lax.cummax if largest else lax.cummin)(a, axis=ax)
    pos = lax.broadcasted_iota(jnp.int64, a.shape, ax)
    idx = lax.cummax(jnp.where(a == vals, pos, -1), axis=ax)
    return wrap(vals), wrap(idx)


def cummax(input: Any, axis: int) -> tuple[Tensor, Tensor]:
    """Running maximum along ``axis`` and the index where it was reached."""
    return _cum_extreme(input, axis, True, "cummax")


def cummin(input: Any, axis: int) -> tuple[Tensor, Tensor]:
    """Running minimum along ``axis`` and the index where it was reached."""
    return _cum_extreme(input, axis, False, "cummin")


def logcumsumexp(input: Any, axis: int) -> Tensor:
    a = float_result(as_tensor_array(input))
    return wrap(lax.cumlogsumexp(a, axis=check_axis(axis, a.ndim, "logcumsumexp")))


def diff(x: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
    kw = {}
    if prepend is not None:
        kw["prepend"] = as_tensor_array(prepend)
    if append is not None:
        kw["append"] = as_tensor_array(append)
    return wrap(jnp.diff(as_tensor_array(x), n=n, axis=axis, **kw))


__all__ += [
    "clip_by_global_norm",
    "clip_by_norm",
    "floor_mod",
    "truncate_div",
    "truncate_mod",
    "float_power",
    "frac",
    "logit",
    "nan_to_num",
    "heaviside",
    "gcd",
    "lcm",
    "sinc",
    "erfinv",
    "lgamma",
    "digamma",
    "nansum",
    "std_mean",
    "var_mean",
    "median",
    "cummax",
    "cummin",
    "logcumsumexp",
    "diff",
]
