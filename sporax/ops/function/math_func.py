"""Element-wise arithmetic (``mindspore.ops`` functional): ``add``, ``mul``, ``div``, ``pow``, ``exp``,
``sin``, ``atan2``, ``copysign``, the complex helpers... with MindSpore's type promotion (``ops._utils.promote``):
each function calls one jax kernel and returns a Tensor.

The comparisons, reductions, clipping and special functions live in ``compare_func``, ``reduce_func``,
``clip_func`` and ``special_func``; this module re-exports them, so ``ops.function.math_func`` still holds
every name it always did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import _checkparam as validator
from ..._engine import jax, jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black, amp_promote
from .._utils import arr, as_tensor_array, float_result, promote, wrap
from ._math_common import COMPLEX_NAMES, FLOAT_NAMES, float_unary, require_dtypes

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
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
        "maximum",
        "minimum",
        "lerp",
        "addcmul",
        "addcdiv",
        "square_difference",
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
        "logaddexp",
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
    ]


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


def floor_div(x: Any, y: Any) -> Tensor:
    """``floor_divide`` (MindSpore's ``x``/``y`` argument names)."""
    return floor_divide(x, y)


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


_float_unary = float_unary

exp = amp_black(_float_unary(jnp.exp, "exp"))
exp2 = amp_black(_float_unary(jnp.exp2, "exp2"))
expm1 = amp_black(_float_unary(jnp.expm1, "expm1"))
log = amp_black(_float_unary(jnp.log, "log"))
log1p = amp_black(_float_unary(jnp.log1p, "log1p"))
log2 = amp_black(_float_unary(jnp.log2, "log2"))
log10 = amp_black(_float_unary(jnp.log10, "log10"))
sqrt = _float_unary(jnp.sqrt, "sqrt", param="x")
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
sigmoid = _float_unary(jax.jit(jax.nn.sigmoid), "sigmoid")
deg2rad = _float_unary(jnp.deg2rad, "deg2rad", param="x")
rad2deg = _float_unary(jnp.rad2deg, "rad2deg", param="x")


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


# ---------------------------------------------------------- more element-wise
def floor_mod(x: Any, y: Any) -> Tensor:
    """Remainder of floor division (the result has the sign of ``y``)."""
    return remainder(x, y)


def truncate_div(x: Any, y: Any) -> Tensor:
    """Division rounded towards zero."""
    return div(x, y, rounding_mode="trunc")


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


def nan_to_num(input: Any, nan: Any = None, posinf: Any = None, neginf: Any = None) -> Tensor:
    """NaN, +inf and -inf replaced by ``nan`` (0.0 when None), ``posinf`` and ``neginf`` (the dtype's
    largest and lowest finite values when None)."""
    a = as_tensor_array(input)
    return wrap(jnp.nan_to_num(a, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf))


def heaviside(input: Any, values: Any) -> Tensor:
    a, b = promote(input, values, "heaviside")
    return wrap(jnp.heaviside(a, b))


def gcd(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "gcd")
    return wrap(jnp.gcd(a, b))


def lcm(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other, "lcm")
    return wrap(jnp.lcm(a, b))


# ------------------------------------------------------------- aliases and more
accumulate_n = add_n
multiply = tensor_muls = tensor_mul = mul
tensor_add = add
tensor_exp = exp
tensor_expm1 = expm1
tensor_floordiv = floordiv = floor_divide
pows = tensor_pow = pow
arccos = acos
arccosh = acosh
arcsinh = asinh
arctan = atan
arctanh = atanh


def arcsin(x: Any) -> Tensor:
    """``asin`` (MindSpore's ``x`` argument name)."""
    return asin(x)


def arctan2(input: Any, other: Any) -> Tensor:
    """``atan2``."""
    return atan2(input, other)


def tensor_div(x: Any, y: Any) -> Tensor:
    """``x / y`` as the ``/`` operator (Div: integers divide as float32)."""
    return div(x, y)


def tensor_mod(x: Any, y: Any) -> Tensor:
    """``x % y`` as the ``%`` operator (the remainder has the sign of ``y``)."""
    return remainder(x, y)


floormod = tensor_mod


def tensor_sub(*args: Any) -> Tensor:
    """``x - y`` (MindSpore's ``F.tensor_sub`` primitive instance takes its two inputs positionally)."""
    if len(args) != 2:
        raise TypeError(f"For 'Sub', the number of inputs must be 2, but got {len(args)}.")
    return sub(*args)


def subtract(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """``input - alpha * other``."""
    return sub(input, other if alpha == 1 else mul(other, alpha))


def float_power_ext(input: Any, exponent: Any) -> Tensor:
    """``float_power``: the power computed in float64 (complex128 for complex inputs)."""
    return float_power(input, exponent)


def positive(input: Any) -> Tensor:
    """``+input``: the input itself."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'positive', the input must be a Tensor, but got {type(input).__name__}.")
    return input


def inv(x: Any) -> Tensor:
    """``1 / x`` in the input's dtype (integers divide truncating, as MindSpore's Inv)."""
    a = as_tensor_array(x)
    if jnp.issubdtype(a.dtype, jnp.integer):
        return wrap(lax.div(jnp.ones_like(a), a))
    return wrap(1 / a)


def eps(x: Any) -> Tensor:
    """A tensor like ``x`` filled with its float dtype's machine epsilon."""
    a = as_tensor_array(x)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        require_dtypes(a, FLOAT_NAMES, "x", "Eps")
    return wrap(jnp.full(a.shape, jnp.finfo(a.dtype).eps, a.dtype))


def tanh_(input: Any) -> Tensor:
    """In-place ``tanh``: ``input`` holds the result and is returned."""
    input._data = tanh(input)._data
    return input


def tanhshrink(input: Any) -> Tensor:
    """``input - tanh(input)`` (integer inputs compute in float32)."""
    a = float_result(as_tensor_array(input))
    return wrap(a - jnp.tanh(a))


def copysign(x: Any, other: Any) -> Tensor:
    """``|x|`` with the sign of ``other`` (float results; integer inputs become float32)."""
    a, b = promote(x, other, "copysign")
    return wrap(jnp.copysign(float_result(a), float_result(b)))


def fmax(input: Any, other: Any) -> Tensor:
    """Element-wise maximum that ignores NaN (NaN only where both are NaN)."""
    a, b = promote(input, other, "fmax")
    return wrap(jnp.fmax(a, b))


def fmin(input: Any, other: Any) -> Tensor:
    """Element-wise minimum that ignores NaN (NaN only where both are NaN)."""
    a, b = promote(input, other, "fmin")
    return wrap(jnp.fmin(a, b))


def ldexp(x: Any, other: Any) -> Tensor:
    """``x * 2 ** other`` (float results)."""
    a, b = promote(x, other, "ldexp")
    a = float_result(a)
    return wrap(a * jnp.exp2(b.astype(a.dtype)))


@amp_black
def logaddexp2(input: Any, other: Any) -> Tensor:
    """``log2(2 ** input + 2 ** other)`` of float tensors."""
    a, b = promote(input, other, "logaddexp2")
    if not (jnp.issubdtype(a.dtype, jnp.floating) and jnp.issubdtype(b.dtype, jnp.floating)):
        raise TypeError(
            "For logaddexp2, the dtype of 'input' and 'other' must be float,"
            f"but got {mstype.from_np(as_tensor_array(input).dtype)} and {mstype.from_np(as_tensor_array(other).dtype)}."
        )
    return wrap(jnp.logaddexp2(a, b))


def nextafter(input: Any, other: Any) -> Tensor:
    """The next representable float after ``input`` towards ``other`` (Float32/Float64)."""
    a, b = promote(input, other, "nextafter")
    require_dtypes(a, {"Float32", "Float64"}, "x1", "NextAfter")
    return wrap(jnp.nextafter(a, b))


def xdivy(x: Any, y: Any) -> Tensor:
    """``x / y``, 0 where ``x`` is 0 (float and complex tensors)."""
    a, b = promote(x, y, "xdivy")
    if not jnp.issubdtype(a.dtype, jnp.inexact):
        require_dtypes(a, FLOAT_NAMES | COMPLEX_NAMES, "x", "Xdivy")
    safe = jnp.where(a == 0, jnp.ones_like(b), b)
    return wrap(jnp.where(a == 0, jnp.zeros_like(a), a / safe))


# ------------------------------------------------------------------- complex
def angle(input: Any) -> Tensor:
    """The argument (phase) of each element of a complex tensor."""
    a = as_tensor_array(input)
    if not jnp.issubdtype(a.dtype, jnp.complexfloating):
        raise TypeError(f"For 'angle', the input must be a complex Tensor, but got {mstype.from_np(a.dtype)}.")
    return wrap(jnp.angle(a))


def conj(input: Any) -> Tensor:
    """The complex conjugate (real tensors are returned as they are)."""
    return wrap(jnp.conj(as_tensor_array(input)))


def real(input: Any) -> Tensor:
    """The real part (a real tensor itself)."""
    return wrap(jnp.real(as_tensor_array(input)))


def imag(input: Any) -> Tensor:
    """The imaginary part (zeros for a real tensor)."""
    return wrap(jnp.imag(as_tensor_array(input)))


def view_as_real(input: Any) -> Tensor:
    """A complex tensor as real pairs on a new last axis of size 2."""
    a = as_tensor_array(input)
    if not jnp.issubdtype(a.dtype, jnp.complexfloating):
        raise TypeError(f"For 'view_as_real', the input must be a complex Tensor, but got {mstype.from_np(a.dtype)}.")
    return wrap(jnp.stack([jnp.real(a), jnp.imag(a)], axis=-1))


def polar(abs: Any, angle: Any) -> Tensor:
    """The complex tensor ``abs * (cos(angle) + i sin(angle))``."""
    r, t = promote(abs, angle, "polar")
    r, t = float_result(r), float_result(t)
    return wrap(lax.complex(r * jnp.cos(t), r * jnp.sin(t)))


def sgn(input: Any) -> Tensor:
    """``sign`` for real tensors; ``x / |x|`` (0 at 0) for complex ones."""
    a = as_tensor_array(input)
    if jnp.issubdtype(a.dtype, jnp.complexfloating):
        m = jnp.abs(a)
        return wrap(jnp.where(m == 0, jnp.zeros_like(a), a / jnp.where(m == 0, 1, m).astype(a.dtype)))
    return wrap(jnp.sign(a))


# ---------------------------------------------------------- the split modules
# ``sporax.ops.function.math_func`` keeps every name it always exported: the comparisons, reductions, clipping
# and special functions live in their own modules now and are re-exported here.
from . import clip_func, compare_func, reduce_func, special_func  # noqa: E402
from .clip_func import *  # noqa: E402, F403
from .compare_func import *  # noqa: E402, F403
from .reduce_func import *  # noqa: E402, F403
from .special_func import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [
        "accumulate_n",
        "multiply",
        "tensor_muls",
        "tensor_mul",
        "tensor_add",
        "tensor_sub",
        "tensor_div",
        "tensor_mod",
        "tensor_exp",
        "tensor_expm1",
        "tensor_floordiv",
        "tensor_pow",
        "floordiv",
        "floormod",
        "pows",
        "arccos",
        "arccosh",
        "arcsin",
        "arcsinh",
        "arctan",
        "arctan2",
        "arctanh",
        "subtract",
        "float_power_ext",
        "positive",
        "inv",
        "eps",
        "tanh_",
        "tanhshrink",
        "copysign",
        "fmax",
        "fmin",
        "ldexp",
        "logaddexp2",
        "nextafter",
        "xdivy",
        "angle",
        "conj",
        "real",
        "imag",
        "view_as_real",
        "polar",
        "sgn",
    ]
    __all__ += clip_func.__all__ + compare_func.__all__ + reduce_func.__all__ + special_func.__all__


# ----------------------------------------------------------- grids and boxes
def logspace(start: Any, end: Any, steps: int, base: int = 10, *, dtype: Any = mstype.float32) -> Tensor:
    """``steps`` numbers ``base ** t`` for ``t`` evenly spaced from ``start`` to ``end``."""
    if dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(
            "For 'LogSpace', the 'dtype' should be one of [mindspore.float16, mindspore.float32, "
            f"mindspore.float64], but got '{dtype!r}'."
        )
    validator.check_int_at_least(steps, 0, "steps", "logspace")
    lo = float(jnp.asarray(as_tensor_array(start)))
    hi = float(jnp.asarray(as_tensor_array(end)))
    return wrap(jnp.logspace(lo, hi, steps, base=float(base), dtype=mstype.to_np(dtype)))


def rot90(input: Any, k: int, dims: Any) -> Tensor:
    """``input`` rotated by 90 degrees ``k`` times in the plane of ``dims``, from the first towards the second."""
    a = as_tensor_array(input)
    if len(dims) != 2 or dims[0] % a.ndim == dims[1] % a.ndim:
        raise ValueError(f"For 'rot90', the 'dims' must be two different axes, but got {dims}.")
    return wrap(jnp.rot90(a, k, axes=tuple(dims)))


def row_stack(tensors: Any) -> Tensor:
    """The tensors stacked as rows (``vstack``: 1-D tensors become rows)."""
    arrays = [as_tensor_array(t) for t in tensors]
    dt = arrays[0].dtype
    for a in arrays[1:]:
        dt = jnp.promote_types(dt, a.dtype)
    return wrap(jnp.vstack([a.astype(dt) for a in arrays]))


if not TYPE_CHECKING:
    __all__ += ["logspace", "rot90", "row_stack"]

from . import box_func, inplace_func, sampling_func  # noqa: E402
from .box_func import *  # noqa: E402, F403
from .inplace_func import *  # noqa: E402, F403
from .sampling_func import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += box_func.__all__ + inplace_func.__all__ + sampling_func.__all__
