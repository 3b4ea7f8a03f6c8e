"""Python-number ops (``mindspore.ops.functional.scalar_add``... — MindSpore's ``ScalarAdd()`` & co. instances)
and ``DtypeToEnum``. They compute on Python ints/floats (Tensors with one element are read as numbers), so
inside a compiled program they fold into constants, as in MindSpore's graph mode."""

from __future__ import annotations

import math
import operator
from typing import Any

from ...common import dtype as mstype
from ...common.tensor import Tensor

__all__ = [
    "scalar_add",
    "scalar_sub",
    "scalar_mul",
    "scalar_div",
    "scalar_floordiv",
    "scalar_mod",
    "scalar_pow",
    "scalar_max",
    "scalar_min",
    "scalar_eq",
    "scalar_ge",
    "scalar_gt",
    "scalar_le",
    "scalar_lt",
    "scalar_log",
    "scalar_uadd",
    "scalar_usub",
    "scalar_cast",
    "DtypeToEnum",
]


def _num(v: Any) -> Any:
    return v.item() if isinstance(v, Tensor) else v


def _nonzero(y: Any) -> Any:
    if y == 0:
        raise ValueError("The divisor could not be zero. But the divisor is zero now.")
    return y


def scalar_add(x: Any, y: Any) -> Any:
    """``x + y``."""
    return _num(x) + _num(y)


def scalar_sub(x: Any, y: Any) -> Any:
    """``x - y``."""
    return _num(x) - _num(y)


def scalar_mul(x: Any, y: Any) -> Any:
    """``x * y``."""
    return _num(x) * _num(y)


def scalar_div(x: Any, y: Any) -> float:
    """``x / y`` (true division; a zero divisor raises ValueError)."""
    return _num(x) / _nonzero(_num(y))


def scalar_floordiv(x: Any, y: Any) -> Any:
    """``x // y`` (a zero divisor raises ValueError)."""
    return _num(x) // _nonzero(_num(y))


def scalar_mod(x: Any, y: Any) -> Any:
    """``x % y`` (Python's sign rule; a zero divisor raises ValueError)."""
    return _num(x) % _nonzero(_num(y))


def scalar_pow(x: Any, y: Any) -> Any:
    """``x ** y``."""
    return _num(x) ** _num(y)


def scalar_max(x: Any, y: Any) -> Any:
    """The larger of ``x`` and ``y``."""
    return max(_num(x), _num(y))


def scalar_min(x: Any, y: Any) -> Any:
    """The smaller of ``x`` and ``y``."""
    return min(_num(x), _num(y))


def _compare(op: Any, name: str) -> Any:
    def fn(x: Any, y: Any) -> bool:
        return bool(op(_num(x), _num(y)))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``x {op.__name__} y`` as a bool."
    return fn


scalar_eq = _compare(operator.eq, "scalar_eq")
scalar_ge = _compare(operator.ge, "scalar_ge")
scalar_gt = _compare(operator.gt, "scalar_gt")
scalar_le = _compare(operator.le, "scalar_le")
scalar_lt = _compare(operator.lt, "scalar_lt")


def scalar_log(x: Any) -> float:
    """The natural logarithm of ``x`` (a float)."""
    return math.log(_num(x))


def scalar_uadd(x: Any) -> Any:
    """``+x``."""
    return +_num(x)


def scalar_usub(x: Any) -> Any:
    """``-x``."""
    return -_num(x)


def scalar_cast(input_x: Any, input_y: Any) -> Any:
    """The Python number ``input_x`` converted to the Python type of the dtype ``input_y`` (``int`` for
    ``mstype.int64`` — truncating —, ``float`` for ``mstype.float64``, ``bool`` for ``mstype.bool_``; other
    int/float dtypes are accepted too)."""
    if isinstance(input_x, Tensor) or not isinstance(input_x, (bool, int, float)):
        raise TypeError(
            f"For 'ScalarCast', the type of 'x' should be one of '['bool', 'Number']', but got type "
            f"'{type(input_x).__name__}'."
        )
    if not isinstance(input_y, mstype.Type):
        raise ValueError(
            f"For 'ScalarCast', the supported type is in the list: [mindspore.int64, mindspore.float64, "
            f"mindspore.bool], but got {input_y}."
        )
    return mstype.dtype_to_pytype(input_y)(input_x)


# MindSpore's TypeId numbers of the dtypes (mindspore/core/ir/dtype/type_id.h)
_TYPE_IDS = {
    "bool": 30,
    "int8": 32,
    "int16": 33,
    "int32": 34,
    "int64": 35,
    "uint8": 37,
    "uint16": 38,
    "uint32": 39,
    "uint64": 40,
    "float16": 42,
    "float32": 43,
    "float64": 44,
    "bfloat16": 45,
    "complex64": 51,
    "complex128": 52,
}


class DtypeToEnum:
    """``DtypeToEnum()(op_name, arg_name, dtype)``: MindSpore's TypeId number of ``dtype`` (``float32`` -> 43)."""

    def __call__(self, op_name: str, arg_name: str, dtype: Any) -> int:
        if not isinstance(dtype, mstype.Type):
            raise TypeError(f"For '{op_name}', the input '{arg_name}' should be mindspore dtype, but got {dtype}.")
        name = dtype.name
        if name not in _TYPE_IDS:
            raise TypeError(f"For '{op_name}', the input '{arg_name}' has no TypeId number in sporax: {dtype}.")
        return _TYPE_IDS[name]
