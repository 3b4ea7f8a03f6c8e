"""Comparison, logical and bitwise ops (``mindspore.ops`` functional): ``equal``, ``isclose``, ``logical_and``,
``bitwise_xor``... Comparisons promote with MindSpore's rules and give Bool tensors."""

from __future__ import annotations

from typing import Any

from ..._engine import jnp
from ...common.tensor import Tensor
from .._utils import as_tensor_array, check_broadcast, promote, wrap
from ._math_common import INT_NAMES, require_dtypes

__all__ = [
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
    "tensor_gt",
    "tensor_ge",
    "tensor_lt",
    "tensor_le",
    "tensor_eq",
    "tensor_ne",
    "approximate_equal",
    "isnan",
    "isnan_ext",
    "isinf",
    "isneginf",
    "isposinf",
    "isfinite",
    "isclose",
    "isreal",
    "is_complex",
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
    "invert",
]


# ---------------------------------------------------------------- comparison
def _cmp(kernel: Any, name: str) -> Any:
    def op(input: Any, other: Any) -> Tensor:
        a, b = promote(input, other, name)
        return wrap(kernel(a, b))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Element-wise ``{name}`` with broadcasting; a Bool tensor."
    return op


equal = eq = tensor_eq = _cmp(jnp.equal, "equal")
not_equal = ne = tensor_ne = _cmp(jnp.not_equal, "not_equal")
_less = _cmp(jnp.less, "less")


def less(*args: Any, **kwargs: Any) -> Tensor:
    """``input < other`` element-wise with broadcasting, a Bool tensor (``less(input, other)``; MindSpore 2.10
    dispatches its arguments, hence the ``*args, **kwargs`` signature)."""
    return _less(*args, **kwargs)


lt = less
less_equal = le = tensor_le = _cmp(jnp.less_equal, "less_equal")
greater = gt = tensor_gt = _cmp(jnp.greater, "greater")
greater_equal = ge = tensor_ge = _cmp(jnp.greater_equal, "greater_equal")


def tensor_lt(*args: Any, **kwargs: Any) -> Tensor:
    """``input < other`` (MindSpore's ``tensor_lt`` takes its arguments as given)."""
    return less(*args, **kwargs)


def approximate_equal(x: Any, y: Any, tolerance: float = 1e-05) -> Tensor:
    """``|x - y| < tolerance`` element-wise."""
    a, b = promote(x, y, "approximate_equal")
    return wrap(jnp.abs(a - b) < tolerance)


def isnan(input: Any) -> Tensor:
    return wrap(jnp.isnan(as_tensor_array(input)))


def isnan_ext(tensor: Any) -> Tensor:
    """``isnan`` (the ``tensor`` argument name of MindSpore's ``isnan_ext``)."""
    return isnan(tensor)


def isinf(input: Any) -> Tensor:
    return wrap(jnp.isinf(as_tensor_array(input)))


def isneginf(input: Any) -> Tensor:
    """Whether each element is -inf (never for integer tensors)."""
    a = as_tensor_array(input)
    return wrap(jnp.isneginf(a) if jnp.issubdtype(a.dtype, jnp.inexact) else jnp.zeros(a.shape, bool))


def isposinf(input: Any) -> Tensor:
    """Whether each element is +inf (never for integer tensors)."""
    a = as_tensor_array(input)
    return wrap(jnp.isposinf(a) if jnp.issubdtype(a.dtype, jnp.inexact) else jnp.zeros(a.shape, bool))


def isfinite(input: Any) -> Tensor:
    return wrap(jnp.isfinite(as_tensor_array(input)))


def isclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    a, b = promote(input, other, "isclose")
    return wrap(jnp.isclose(a, b, rtol, atol, equal_nan))


def isreal(input: Any) -> Tensor:
    """Whether each element is real (a complex one with a zero imaginary part counts)."""
    a = as_tensor_array(input)
    return wrap(jnp.isreal(a))


def is_complex(input: Any) -> bool:
    """Whether the tensor's dtype is complex (a Python bool)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'is_complex', the input must be a Tensor, but got {type(input).__name__}.")
    return bool(jnp.issubdtype(input._data.dtype, jnp.complexfloating))


# ------------------------------------------------------------------- logical
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


# ------------------------------------------------------------------- bitwise
def _bitwise(kernel: Any, name: str) -> Any:
    def op(input: Any, other: Any) -> Tensor:
        a, b = promote(input, other, name)
        if jnp.issubdtype(a.dtype, jnp.inexact):
            from ...common import dtype as mstype

            raise TypeError(
                f"For '{name}', the inputs must be integer or bool tensors, but got {mstype.from_np(a.dtype)}."
            )
        return wrap(kernel(a, b))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Element-wise ``{name}`` of integer or bool tensors."
    return op


bitwise_and = _bitwise(jnp.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(jnp.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(jnp.bitwise_xor, "bitwise_xor")
bitwise_left_shift = _bitwise(jnp.left_shift, "bitwise_left_shift")
bitwise_right_shift = _bitwise(jnp.right_shift, "bitwise_right_shift")


def bitwise_not(input: Any) -> Tensor:
    return wrap(jnp.invert(as_tensor_array(input)))


def invert(x: Any) -> Tensor:
    """Bit-wise not of an integer tensor (``~x``); float and bool tensors are refused as in MindSpore."""
    a = as_tensor_array(x)
    if not jnp.issubdtype(a.dtype, jnp.integer):
        require_dtypes(a, INT_NAMES, "x", "Invert")
    return wrap(jnp.invert(a))
