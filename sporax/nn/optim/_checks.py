"""Argument checks with MindSpore's message style (``For 'Momentum', the 'momentum' must be ...``)."""

from __future__ import annotations

import math
from typing import Any

__all__ = [
    "check_bool",
    "check_float_range",
    "check_is_float",
    "check_non_negative_float",
    "check_positive_float",
    "check_positive_int",
    "check_value_type",
]


def _prefix(arg_name: str, prim_name: str | None) -> str:
    head = f"For '{prim_name}', the" if prim_name else "The"
    return f"{head} '{arg_name}'"


def _type_names(types: Any) -> str:
    types = types if isinstance(types, (list, tuple)) else (types,)
    names = [t.__name__ for t in types]
    return names[0] if len(names) == 1 else "[" + ", ".join(names) + "]"


def check_value_type(arg_name: str, value: Any, types: Any, prim_name: str | None = None) -> Any:
    """``value`` must be an instance of ``types`` (a bool is not accepted as an int or float)."""
    types_t = tuple(types) if isinstance(types, (list, tuple)) else (types,)
    ok = isinstance(value, types_t)
    if ok and isinstance(value, bool) and bool not in types_t:
        ok = False
    if not ok:
        raise TypeError(
            f"{_prefix(arg_name, prim_name)} must be {_type_names(types_t)}, but got '{value}' with type "
            f"'{type(value).__name__}'."
        )
    return value


def check_bool(value: Any, arg_name: str, prim_name: str | None = None) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{_prefix(arg_name, prim_name)} must be a bool, but got {type(value).__name__}.")
    return value


def _check_number(value: Any, bound: float, rel: str, arg_type: type, arg_name: str, prim_name: str | None) -> Any:
    info = _prefix(arg_name, prim_name)
    if not isinstance(value, arg_type) or isinstance(value, bool):
        raise TypeError(f"{info} must be {arg_type.__name__}, but got '{type(value).__name__}'.")
    if math.isinf(value) or math.isnan(value):
        raise ValueError(f"{info} must be a legal value, but got '{value}'.")
    ok = value > bound if rel == ">" else value >= bound
    if not ok:
        raise ValueError(
            f"{info} must be {arg_type.__name__} and must {rel} {bound}, but got '{value}' with type "
            f"'{type(value).__name__}'."
        )
    return value


def check_positive_int(value: Any, arg_name: str, prim_name: str | None = None) -> int:
    return _check_number(value, 0, ">", int, arg_name, prim_name)


def check_positive_float(value: Any, arg_name: str, prim_name: str | None = None) -> float:
    return _check_number(value, 0, ">", float, arg_name, prim_name)


def check_non_negative_float(value: Any, arg_name: str, prim_name: str | None = None) -> float:
    return _check_number(value, 0, ">=", float, arg_name, prim_name)


def check_is_float(value: Any, arg_name: str, prim_name: str | None = None) -> float:
    if not isinstance(value, float):
        raise TypeError(f"{_prefix(arg_name, prim_name)} must be float, but got '{type(value).__name__}'.")
    return value


def check_float_range(value: Any, lower: float, upper: float, arg_name: str, prim_name: str | None = None) -> float:
    """``lower < value < upper``."""
    info = _prefix(arg_name, prim_name)
    if not isinstance(value, float):
        raise TypeError(f"{info} must be float, but got '{type(value).__name__}'.")
    if not lower < value < upper:
        raise ValueError(f"{info} must be in range of ({lower}, {upper}), but got {value}.")
    return value
