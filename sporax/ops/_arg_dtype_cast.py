"""``mindspore.ops.arg_dtype_cast``: the argument type conversions of MindSpore's generated primitives
(scalar <-> tuple <-> Tensor, tuple <-> list) and the type-id tests on their dtype codes."""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = [
    "OpDtype",
    "int_to_float",
    "scalar_to_tuple",
    "tensor_to_tuple",
    "scalar_to_tensor",
    "tuple_to_tensor",
    "list_to_tensor",
    "tuple_to_list",
    "list_to_tuple",
    "is_tuple",
    "is_list",
    "is_integral_mstype",
    "is_floating_point_mstype",
]


class OpDtype(enum.IntEnum):
    """The argument type codes of MindSpore's op definitions (scalars, tuples and lists of each)."""

    DT_BEGIN = 0
    DT_BOOL = 1
    DT_INT = 2
    DT_FLOAT = 3
    DT_NUMBER = 4
    DT_TENSOR = 5
    DT_STR = 6
    DT_ANY = 7
    DT_TUPLE_BOOL = 8
    DT_TUPLE_INT = 9
    DT_TUPLE_FLOAT = 10
    DT_TUPLE_NUMBER = 11
    DT_TUPLE_TENSOR = 12
    DT_TUPLE_STR = 13
    DT_TUPLE_ANY = 14
    DT_LIST_BOOL = 15
    DT_LIST_INT = 16
    DT_LIST_FLOAT = 17
    DT_LIST_NUMBER = 18
    DT_LIST_TENSOR = 19
    DT_LIST_STR = 20
    DT_LIST_ANY = 21
    DT_TYPE = 22
    DT_NONE = 23
    DT_END = 25


# the codes as ints, MindSpore's DT_<NAME>_VAL constants
globals().update(
    {f"{m.name}_VAL": int(m) for m in OpDtype if m.name not in ("DT_BEGIN", "DT_STR", "DT_ANY", "DT_NONE", "DT_END")}
)


def int_to_float(data: Any) -> float:
    return float(data)


def scalar_to_tuple(data: Any) -> tuple:
    return (data,)


def tensor_to_tuple(data: Any) -> tuple:
    """A Tensor's values as a (flat) tuple of Python numbers."""
    return tuple(np.asarray(data.asnumpy()).reshape(-1).tolist())


def scalar_to_tensor(data: Any) -> Tensor:
    return Tensor(data)


def tuple_to_tensor(data: Any) -> Tensor:
    return Tensor(np.asarray(data))


def list_to_tensor(data: Any) -> Tensor:
    return Tensor(np.asarray(data))


def tuple_to_list(data: Any) -> list:
    return list(data)


def list_to_tuple(data: Any) -> tuple:
    return tuple(data)


def is_tuple(type_id: int) -> bool:
    """Whether the code is a tuple type."""
    return OpDtype.DT_TUPLE_BOOL <= type_id <= OpDtype.DT_TUPLE_ANY


def is_list(type_id: int) -> bool:
    """Whether the code is a list type."""
    return OpDtype.DT_LIST_BOOL <= type_id <= OpDtype.DT_LIST_ANY


def is_integral_mstype(dtype: Any) -> bool:
    return mstype.to_np(dtype).kind in "iu"


def is_floating_point_mstype(dtype: Any) -> bool:
    return dtype == mstype.bfloat16 or mstype.to_np(dtype).kind == "f"
