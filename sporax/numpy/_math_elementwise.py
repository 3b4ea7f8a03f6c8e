"""Element-wise math of ``mindspore.numpy``: each name calls the one ``sporax.ops`` kernel, then casts to ``dtype``."""

from __future__ import annotations

from .. import ops
from ._utils import _float, _out, _t


def abs(x, dtype=None):
    """``numpy.abs`` on Tensors (``ops.abs``)."""
    return _out(ops.abs(_t(x)), dtype)


def absolute(x, dtype=None):
    """``numpy.absolute`` on Tensors (``ops.abs``)."""
    return _out(ops.abs(_t(x)), dtype)


def arccos(input, dtype=None):
    """``numpy.arccos`` on Tensors (``ops.acos``)."""
    return _out(ops.acos(_float(_t(input))), dtype)


def arccosh(x, dtype=None):
    """``numpy.arccosh`` on Tensors (``ops.acosh``)."""
    return _out(ops.acosh(_float(_t(x))), dtype)


def arcsin(x, dtype=None):
    """``numpy.arcsin`` on Tensors (``ops.asin``)."""
    return _out(ops.asin(_float(_t(x))), dtype)


def arcsinh(x, dtype=None):
    """``numpy.arcsinh`` on Tensors (``ops.asinh``)."""
    return _out(ops.asinh(_float(_t(x))), dtype)


def arctan(x, dtype=None):
    """``numpy.arctan`` on Tensors (``ops.atan``)."""
    return _out(ops.atan(_float(_t(x))), dtype)


def arctanh(x, dtype=None):
    """``numpy.arctanh`` on Tensors (``ops.atanh``)."""
    return _out(ops.atanh(_float(_t(x))), dtype)


def bitwise_not(x, dtype=None):
    """``numpy.bitwise_not`` on Tensors (``ops.invert``)."""
    return _out(ops.invert(_t(x)), dtype)


def cbrt(x, dtype=None):
    """``numpy.cbrt`` on Tensors (``ops.pow``)."""
    x = _float(_t(x))
    return _out(ops.sign(x) * ops.pow(ops.abs(x), 1.0 / 3.0), dtype)


def ceil(x, dtype=None):
    """``numpy.ceil`` on Tensors (``ops.ceil``)."""
    return _out(ops.ceil(_t(x)), dtype)


def cos(x, dtype=None):
    """``numpy.cos`` on Tensors (``ops.cos``)."""
    return _out(ops.cos(_float(_t(x))), dtype)


def cosh(x, dtype=None):
    """``numpy.cosh`` on Tensors (``ops.cosh``)."""
    return _out(ops.cosh(_float(_t(x))), dtype)


def deg2rad(x, dtype=None):
    """``numpy.deg2rad`` on Tensors (``ops.deg2rad``)."""
    return _out(ops.deg2rad(_float(_t(x))), dtype)


def exp(x, dtype=None):
    """``numpy.exp`` on Tensors (``ops.exp``)."""
    return _out(ops.exp(_float(_t(x))), dtype)


def exp2(x, dtype=None):
    """``numpy.exp2`` on Tensors (``ops.exp2``)."""
    return _out(ops.exp2(_float(_t(x))), dtype)


def expm1(x, dtype=None):
    """``numpy.expm1`` on Tensors (``ops.expm1``)."""
    return _out(ops.expm1(_float(_t(x))), dtype)


def fabs(x, dtype=None):
    """``numpy.fabs`` on Tensors (``ops.abs``)."""
    return _out(ops.abs(_float(_t(x))), dtype)


def floor(x, dtype=None):
    """``numpy.floor`` on Tensors (``ops.floor``)."""
    return _out(ops.floor(_t(x)), dtype)


def invert(x, dtype=None):
    """``numpy.invert`` on Tensors (``ops.invert``)."""
    return _out(ops.invert(_t(x)), dtype)


def isfinite(x, dtype=None):
    """``numpy.isfinite`` on Tensors (``ops.isfinite``)."""
    return _out(ops.isfinite(_t(x)), dtype)


def isinf(x, dtype=None):
    """``numpy.isinf`` on Tensors (``ops.isinf``)."""
    return _out(ops.isinf(_t(x)), dtype)


def isnan(x, dtype=None):
    """``numpy.isnan`` on Tensors (``ops.isnan``)."""
    return _out(ops.isnan(_t(x)), dtype)


def log(x, dtype=None):
    """``numpy.log`` on Tensors (``ops.log``)."""
    return _out(ops.log(_float(_t(x))), dtype)


def log10(x, dtype=None):
    """``numpy.log10`` on Tensors (``ops.log10``)."""
    return _out(ops.log10(_float(_t(x))), dtype)


def log1p(x, dtype=None):
    """``numpy.log1p`` on Tensors (``ops.log1p``)."""
    return _out(ops.log1p(_float(_t(x))), dtype)


def log2(x, dtype=None):
    """``numpy.log2`` on Tensors (``ops.log2``)."""
    return _out(ops.log2(_float(_t(x))), dtype)


def logical_not(a, dtype=None):
    """``numpy.logical_not`` on Tensors (``ops.logical_not``)."""
    return _out(ops.logical_not(_t(a)), dtype)


def negative(a, dtype=None):
    """``numpy.negative`` on Tensors (``ops.neg``)."""
    return _out(ops.neg(_t(a)), dtype)


def positive(a, dtype=None):
    """``numpy.positive`` on Tensors (``ops.positive``)."""
    return _out(ops.positive(_t(a)), dtype)


def rad2deg(x, dtype=None):
    """``numpy.rad2deg`` on Tensors (``ops.rad2deg``)."""
    return _out(ops.rad2deg(_float(_t(x))), dtype)


def radians(x, dtype=None):
    """``numpy.radians`` on Tensors (``ops.deg2rad``)."""
    return _out(ops.deg2rad(_float(_t(x))), dtype)


def reciprocal(x, dtype=None):
    """``numpy.reciprocal`` on Tensors (``ops.reciprocal``)."""
    return _out(ops.reciprocal(_float(_t(x))), dtype)


def rint(x, dtype=None):
    """``numpy.rint`` on Tensors (``ops.round``)."""
    return _out(ops.round(_t(x)), dtype)


def sign(x, dtype=None):
    """``numpy.sign`` on Tensors (``ops.sign``)."""
    return _out(ops.sign(_t(x)), dtype)


def signbit(x, dtype=None):
    """``numpy.signbit`` on Tensors (``ops.signbit``)."""
    return _out(ops.signbit(_t(x)), dtype)


def sin(x, dtype=None):
    """``numpy.sin`` on Tensors (``ops.sin``)."""
    return _out(ops.sin(_float(_t(x))), dtype)


def sinh(x, dtype=None):
    """``numpy.sinh`` on Tensors (``ops.sinh``)."""
    return _out(ops.sinh(_float(_t(x))), dtype)


def sqrt(x, dtype=None):
    """``numpy.sqrt`` on Tensors (``ops.sqrt``)."""
    return _out(ops.sqrt(_float(_t(x))), dtype)


def square(x, dtype=None):
    """``numpy.square`` on Tensors (``ops.square``)."""
    return _out(ops.square(_t(x)), dtype)


def tan(x, dtype=None):
    """``numpy.tan`` on Tensors (``ops.tan``)."""
    return _out(ops.tan(_float(_t(x))), dtype)


def tanh(x, dtype=None):
    """``numpy.tanh`` on Tensors (``ops.tanh``)."""
    return _out(ops.tanh(_float(_t(x))), dtype)


def trunc(x, dtype=None):
    """``numpy.trunc`` on Tensors (``ops.trunc``)."""
    return _out(ops.trunc(_t(x)), dtype)


def add(x1, x2, dtype=None):
    """``numpy.add`` on Tensors (``ops.add``)."""
    return _out(ops.add(*_pair(x1, x2)), dtype)


def arctan2(x1, x2, dtype=None):
    """``numpy.arctan2`` on Tensors (``ops.atan2``)."""
    return _out(ops.atan2(_float(_t(x1)), _float(_t(x2))), dtype)


def bitwise_and(x1, x2, dtype=None):
    """``numpy.bitwise_and`` on Tensors (``ops.bitwise_and``)."""
    return _out(ops.bitwise_and(*_pair(x1, x2)), dtype)


def bitwise_or(x1, x2, dtype=None):
    """``numpy.bitwise_or`` on Tensors (``ops.bitwise_or``)."""
    return _out(ops.bitwise_or(*_pair(x1, x2)), dtype)


def bitwise_xor(x1, x2, dtype=None):
    """``numpy.bitwise_xor`` on Tensors (``ops.bitwise_xor``)."""
    return _out(ops.bitwise_xor(*_pair(x1, x2)), dtype)


def copysign(x1, x2, dtype=None):
    """``numpy.copysign`` on Tensors (``ops.copysign``)."""
    return _out(ops.copysign(_float(_t(x1)), _float(_t(x2))), dtype)


def divide(x1, x2, dtype=None):
    """``numpy.divide`` on Tensors (``ops.div``)."""
    return _out(ops.div(_float(_t(x1)), _float(_t(x2))), dtype)


def equal(x1, x2, dtype=None):
    """``numpy.equal`` on Tensors (``ops.equal``)."""
    return _out(ops.equal(*_pair(x1, x2)), dtype)


def float_power(x1, x2, dtype=None):
    """``numpy.float_power`` on Tensors (``ops.float_power``)."""
    return _out(ops.float_power(_float(_t(x1)), _float(_t(x2))), dtype)


def floor_divide(x1, x2, dtype=None):
    """``numpy.floor_divide`` on Tensors (``ops.floor_divide``)."""
    return _out(ops.floor_divide(*_pair(x1, x2)), dtype)


def fmod(x1, x2, dtype=None):
    """``numpy.fmod`` on Tensors (``ops.fmod``)."""
    return _out(ops.fmod(*_pair(x1, x2)), dtype)


def gcd(x1, x2, dtype=None):
    """``numpy.gcd`` on Tensors (``ops.gcd``)."""
    return _out(ops.gcd(*_pair(x1, x2)), dtype)


def greater(x1, x2, dtype=None):
    """``numpy.greater`` on Tensors (``ops.greater``)."""
    return _out(ops.greater(*_pair(x1, x2)), dtype)


def greater_equal(x1, x2, dtype=None):
    """``numpy.greater_equal`` on Tensors (``ops.greater_equal``)."""
    return _out(ops.greater_equal(*_pair(x1, x2)), dtype)


def heaviside(x1, x2, dtype=None):
    """``numpy.heaviside`` on Tensors (``ops.heaviside``)."""
    return _out(ops.heaviside(*_pair(x1, x2)), dtype)


def hypot(x1, x2, dtype=None):
    """``numpy.hypot`` on Tensors (``ops.hypot``)."""
    return _out(ops.hypot(_float(_t(x1)), _float(_t(x2))), dtype)


def lcm(x1, x2, dtype=None):
    """``numpy.lcm`` on Tensors (``ops.lcm``)."""
    return _out(ops.lcm(*_pair(x1, x2)), dtype)


def less(x1, x2, dtype=None):
    """``numpy.less`` on Tensors (``ops.less``)."""
    return _out(ops.less(*_pair(x1, x2)), dtype)


def less_equal(x1, x2, dtype=None):
    """``numpy.less_equal`` on Tensors (``ops.less_equal``)."""
    return _out(ops.less_equal(*_pair(x1, x2)), dtype)


def logaddexp(x1, x2, dtype=None):
    """``numpy.logaddexp`` on Tensors (``ops.logaddexp``)."""
    return _out(ops.logaddexp(_float(_t(x1)), _float(_t(x2))), dtype)


def logaddexp2(x1, x2, dtype=None):
    """``numpy.logaddexp2`` on Tensors (``ops.logaddexp2``)."""
    return _out(ops.logaddexp2(_float(_t(x1)), _float(_t(x2))), dtype)


def logical_and(x1, x2, dtype=None):
    """``numpy.logical_and`` on Tensors (``ops.logical_and``)."""
    return _out(ops.logical_and(*_pair(x1, x2)), dtype)


def logical_or(x1, x2, dtype=None):
    """``numpy.logical_or`` on Tensors (``ops.logical_or``)."""
    return _out(ops.logical_or(*_pair(x1, x2)), dtype)


def logical_xor(x1, x2, dtype=None):
    """``numpy.logical_xor`` on Tensors (``ops.logical_xor``)."""
    return _out(ops.logical_xor(*_pair(x1, x2)), dtype)


def maximum(x1, x2, dtype=None):
    """``numpy.maximum`` on Tensors (``ops.maximum``)."""
    return _out(ops.maximum(*_pair(x1, x2)), dtype)


def minimum(x1, x2, dtype=None):
    """``numpy.minimum`` on Tensors (``ops.minimum``)."""
    return _out(ops.minimum(*_pair(x1, x2)), dtype)


def mod(x1, x2, dtype=None):
    """``numpy.mod`` on Tensors (``ops.remainder``)."""
    return _out(ops.remainder(*_pair(x1, x2)), dtype)


def multiply(x1, x2, dtype=None):
    """``numpy.multiply`` on Tensors (``ops.mul``)."""
    return _out(ops.mul(*_pair(x1, x2)), dtype)


def not_equal(x1, x2, dtype=None):
    """``numpy.not_equal`` on Tensors (``ops.not_equal``)."""
    return _out(ops.not_equal(*_pair(x1, x2)), dtype)


def power(x1, x2, dtype=None):
    """``numpy.power`` on Tensors (``ops.pow``)."""
    return _out(ops.pow(*_pair(x1, x2)), dtype)


def remainder(x1, x2, dtype=None):
    """``numpy.remainder`` on Tensors (``ops.remainder``)."""
    return _out(ops.remainder(*_pair(x1, x2)), dtype)


def subtract(x1, x2, dtype=None):
    """``numpy.subtract`` on Tensors (``ops.sub``)."""
    return _out(ops.sub(*_pair(x1, x2)), dtype)


def true_divide(x1, x2, dtype=None):
    """``numpy.true_divide`` on Tensors (``ops.div``)."""
    return _out(ops.div(_float(_t(x1)), _float(_t(x2))), dtype)


def matmul(x1, x2, dtype=None):
    """``numpy.matmul`` on Tensors (``ops.matmul``)."""
    return _out(ops.matmul(*_pair(x1, x2)), dtype)


def _pair(a, b):
    """Two operands; a Python scalar takes the other operand's dtype (as in MindSpore)."""
    from ..common.tensor import Tensor

    if isinstance(a, Tensor) and isinstance(b, int | float | bool):
        return a, b
    if isinstance(b, Tensor) and isinstance(a, int | float | bool):
        return a, b
    return _t(a), _t(b)


def divmod(x1, x2, dtype=None):  # noqa: A001
    """``numpy.divmod``: (floor_divide, remainder)."""
    return floor_divide(x1, x2, dtype), remainder(x1, x2, dtype)


def clip(x, xmin, xmax, dtype=None):
    """``numpy.clip`` (``ops.clamp``); ``xmin``/``xmax`` may be None."""
    return _out(ops.clamp(_t(x), xmin, xmax), dtype)


def fix(x):
    """Round toward zero; integers unchanged, floats stay float."""
    return ops.trunc(_float(_t(x)))
