"""Argument checks with the messages of MindSpore's ``_checkparam`` (as the callbacks and metrics raise them)."""

from __future__ import annotations

import math
import os
from typing import Any


def check_int(value: Any, rel: str, bound: int) -> int:
    """An int (not a bool) with ``value <rel> bound`` (``rel`` is ``">"`` or ``">="``)."""
    if isinstance(value, bool):
        raise TypeError(f"The input value must be int and must {rel} {bound}, but got '{value}' with type 'bool'.")
    if not isinstance(value, int):
        raise TypeError(f"The input value must be int, but got '{type(value).__name__}'")
    if not (value > bound if rel == ">" else value >= bound):
        raise ValueError(f"The input value must be int and must {rel} {bound}, but got '{value}' with type 'int'.")
    return value


def check_positive_int(value: Any) -> int:
    return check_int(value, ">", 0)


def check_non_negative_int(value: Any) -> int:
    return check_int(value, ">=", 0)


def check_bool(value: Any, arg_name: str | None = None) -> bool:
    if not isinstance(value, bool):
        what = f"The '{arg_name}'" if arg_name else "The input value"
        raise TypeError(f"{what} must be a bool, but got {type(value).__name__}.")
    return value


def check_value_type(arg_name: str, value: Any, types: Any, prim_name: str | None = None) -> Any:
    types_t = tuple(types) if isinstance(types, (list, tuple)) else (types,)
    ok = isinstance(value, types_t) and not (isinstance(value, bool) and bool not in types_t)
    if not ok:
        head = f"For '{prim_name}', the" if prim_name else "The"
        if len(types_t) == 1:
            raise TypeError(
                f"{head} type of '{arg_name}' should be '{types_t[0].__name__}', but got type '{type(value).__name__}'."
            )
        names = [t.__name__ for t in types_t]
        raise TypeError(
            f"{head} type of '{arg_name}' should be one of '{names}', but got type '{type(value).__name__}'."
        )
    return value


def check_string(value: Any, valid: list, arg_name: str) -> str:
    if not isinstance(value, str) or value not in valid:
        raise ValueError(f"The '{arg_name}' must be str and must be in '{valid}', but got '{value}'.")
    return value


def check_isinstance(arg_name: str, value: Any, classes: Any) -> Any:
    if not isinstance(value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got {value}.")
    return value


def check_float_range_open(value: Any, low: float, high: float) -> float:
    """A float (or int) strictly between ``low`` and ``high``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"The input value must be float, but got '{type(value).__name__}'.")
    if math.isnan(value) or not low < value < high:
        raise ValueError(
            f"The input value must be in range of ({low}, {high}), but got {value} with type '{type(value).__name__}'."
        )
    return value


def make_directory(path: Any, arg_name: str = "path") -> str:
    """Create ``path`` (with its parents) if needed and return its real path (MindSpore's ``_make_directory``)."""
    if not isinstance(path, str):
        raise TypeError(f"The {arg_name} is invalid, the type should be string.")
    if path.strip() == "":
        raise ValueError(f"The {arg_name} is invalid, it should be non-blank.")
    real = os.path.realpath(path)
    if os.path.exists(real):
        if not os.path.isdir(real):
            raise NotADirectoryError(f"The path({real}) is a file path, it should be a directory path.")
        return real
    try:
        os.makedirs(real, mode=0o700, exist_ok=True)
    except PermissionError as e:
        raise TypeError("No write permission on the directory.") from e
    return real
