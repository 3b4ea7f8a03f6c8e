"""MindSpore's validator forms: relations, numbers, types and values, axes (its ``mindspore/_checkparam.py``:
``prim_name`` last, ``arg_name`` before it, relations given by the constants below)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

import numpy as np

# relations between a value and one bound
EQ = 1  # ==
NE = 2  # !=
LT = 3  # <
LE = 4  # <=
GT = 5  # >
GE = 6  # >=
# ranges: which ends are included
INC_NEITHER = 7  # (lower, upper)
INC_LEFT = 8  # [lower, upper)
INC_RIGHT = 9  # (lower, upper]
INC_BOTH = 10  # [lower, upper]
# membership
IN = 11
NOT_IN = 12

_REL_TEXT = {EQ: "=", NE: "!=", LT: "<", LE: "<=", GT: ">", GE: ">=", IN: "in", NOT_IN: "not in"}
_RANGE_TEXT = {INC_NEITHER: "({}, {})", INC_LEFT: "[{}, {})", INC_RIGHT: "({}, {}]", INC_BOTH: "[{}, {}]"}


# Error classes for checks MindSpore makes in C++. MindSpore raises RuntimeError there (a Conv2d given the wrong
# number of input channels, an optimizer given fewer gradients than parameters, a MatMul of mismatched shapes)
# for what is a bad value or type; Python code catches either MindSpore's class or the natural one, so these
# are both.
class ValueRuntimeError(ValueError, RuntimeError):
    """A bad value or shape that MindSpore reports as RuntimeError: an instance of ValueError and RuntimeError."""


class TypeRuntimeError(TypeError, RuntimeError):
    """A bad type that MindSpore reports as RuntimeError: an instance of TypeError and RuntimeError."""


def _holds(value: Any, bound: Any, rel: int) -> bool:
    """Whether ``value <rel> bound``."""
    if rel == EQ:
        return value == bound
    if rel == NE:
        return value != bound
    if rel == LT:
        return value < bound
    if rel == LE:
        return value <= bound
    if rel == GT:
        return value > bound
    if rel == GE:
        return value >= bound
    if rel == IN:
        return value in bound
    if rel == NOT_IN:
        return value not in bound
    return False


def _in_range(value: Any, lower: Any, upper: Any, rel: int) -> bool:
    """Whether ``value`` lies in the range of ``lower``/``upper`` whose included ends ``rel`` names."""
    low_ok = value >= lower if rel in (INC_LEFT, INC_BOTH) else value > lower
    high_ok = value <= upper if rel in (INC_RIGHT, INC_BOTH) else value < upper
    return rel in _RANGE_TEXT and bool(low_ok and high_ok)


def rel_text(bound: Any, rel: int) -> str:
    """``"> 0"``, ``"in [...]"``: a relation as MindSpore's messages print it."""
    return f"{_REL_TEXT[rel]} {bound}" if rel in _REL_TEXT else ""


def range_text(lower: Any, upper: Any, rel: int) -> str:
    """``"(0.0, 1.0]"``: a range as MindSpore's messages print it."""
    return _RANGE_TEXT[rel].format(lower, upper) if rel in _RANGE_TEXT else ""


def _the(prim_name: str | None) -> str:
    return f"For '{prim_name}', the" if prim_name else "The"


def _subject(arg_name: str | None, prim_name: str | None) -> str:
    """``For 'Dense', the 'x'`` / ``The 'x'`` / ``The input value``."""
    return f"{_the(prim_name)} '{arg_name}'" if arg_name else f"{_the(prim_name)} input value"


def _names(types: Iterable[Any]) -> list[Any]:
    return [t.__name__ if hasattr(t, "__name__") else str(t) for t in types]


def _one_or_list(names: list[Any]) -> str:
    return f"one of '{names}'" if len(names) > 1 else f"'{names[0]}'"


# ---------------------------------------------------------------------------------------------- numbers


def _check_number(arg_value: Any, value: Any, rel: int, arg_type: type, arg_name: str | None, prim_name: str | None):
    """``arg_value`` is an ``arg_type`` (a bool is not an int here) with ``arg_value <rel> value``."""
    subject = _subject(arg_name, prim_name)
    if not isinstance(arg_value, arg_type):
        raise TypeError(f"{subject} must be {arg_type.__name__}, but got '{type(arg_value).__name__}'")
    if isinstance(arg_value, float) and not math.isfinite(arg_value):
        raise ValueError(f"{subject} must be a legal value, but got '{arg_value}'.")
    is_bool = isinstance(arg_value, bool)
    if is_bool or not _holds(arg_value, value, rel):
        msg = (
            f"{subject} must be {arg_type.__name__} and must {rel_text(value, rel)}, "
            f"but got '{arg_value}' with type '{type(arg_value).__name__}'."
        )
        raise TypeError(msg) if is_bool else ValueError(msg)
    return arg_value


def check_int(arg_value: Any, value: int, rel: int, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """An int (not a bool) with ``arg_value <rel> value``: ``check_int(n, 0, GE, "n", "Op")``."""
    return _check_number(arg_value, value, rel, int, arg_name, prim_name)


def check_equal_int(arg_value: Any, value: int, arg_name: str | None = None, prim_name: str | None = None) -> int:
    return _check_number(arg_value, value, EQ, int, arg_name, prim_name)


def check_positive_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """An int > 0."""
    return _check_number(arg_value, 0, GT, int, arg_name, prim_name)


def check_negative_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    return _check_number(arg_value, 0, LT, int, arg_name, prim_name)


def check_non_positive_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    return _check_number(arg_value, 0, LE, int, arg_name, prim_name)


def check_non_negative_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """An int >= 0."""
    return _check_number(arg_value, 0, GE, int, arg_name, prim_name)


def check_float(arg_value: Any, value: float, rel: int, arg_name: str | None = None, prim_name: str | None = None):
    """A float with ``arg_value <rel> value``."""
    return _check_number(arg_value, value, rel, float, arg_name, prim_name)


def check_positive_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    """A finite float > 0."""
    return _check_number(arg_value, 0, GT, float, arg_name, prim_name)


def check_negative_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    return _check_number(arg_value, 0, LT, float, arg_name, prim_name)


def check_non_positive_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    return _check_number(arg_value, 0, LE, float, arg_name, prim_name)


def check_non_negative_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    """A finite float >= 0."""
    return _check_number(arg_value, 0, GE, float, arg_name, prim_name)


def _check_sequence(sequence: Any, bound: Any, rel: int, arg_type: type, arg_name: str | None, prim_name: str | None):
    for i, element in enumerate(sequence):
        _check_number(element, bound, rel, arg_type, f"{arg_name or 'arg_name'}[{i}]", prim_name)
    return sequence


def check_positive_int_sequence(sequence: Any, arg_name: str | None = None, prim_name: str | None = None):
    """Every element an int > 0 (the message names ``arg_name[i]``)."""
    return _check_sequence(sequence, 0, GT, int, arg_name, prim_name)


def check_non_negative_int_sequence(sequence: Any, arg_name: str | None = None, prim_name: str | None = None):
    return _check_sequence(sequence, 0, GE, int, arg_name, prim_name)


def check_positive_float_sequence(sequence: Any, arg_name: str | None = None, prim_name: str | None = None):
    return _check_sequence(sequence, 0, GT, float, arg_name, prim_name)


def check_is_number(arg_value: Any, arg_type: type, arg_name: str | None = None, prim_name: str | None = None):
    """An ``arg_type`` (not a bool) that is neither inf nor nan."""
    name = f"'{arg_name}'" if arg_name else "input value"
    if isinstance(arg_value, bool) or not isinstance(arg_value, arg_type):
        raise TypeError(
            f"{_the(prim_name)} type of {name} must be '{arg_type.__name__}', but got '{type(arg_value).__name__}'."
        )
    if isinstance(arg_value, float) and not math.isfinite(arg_value):
        raise ValueError(f"{_the(prim_name)} {name} must be a legal float, but got '{arg_value}'.")
    return arg_value


def check_is_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    return check_is_number(arg_value, int, arg_name, prim_name)


def check_is_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    return check_is_number(arg_value, float, arg_name, prim_name)


def check_number_range(
    arg_value: Any,
    lower_limit: Any,
    upper_limit: Any,
    rel: int,
    value_type: type,
    arg_name: str | None = None,
    prim_name: str | None = None,
):
    """A ``value_type`` (NumPy scalars accepted) in the range ``rel`` names: ``INC_LEFT`` is ``[lower, upper)``."""
    name = f"'{arg_name}'" if arg_name else "input value"
    if isinstance(arg_value, bool) or not isinstance(arg_value, (np.ndarray, np.generic, value_type)):
        raise TypeError(
            f"{_the(prim_name)} {name} must be '{value_type.__name__}',  but got '{type(arg_value).__name__}'."
        )
    if not _in_range(arg_value, lower_limit, upper_limit, rel):
        raise ValueError(
            f"{_the(prim_name)} {name} must be in range of {range_text(lower_limit, upper_limit, rel)}, "
            f"but got {arg_value} with type '{type(arg_value).__name__}'."
        )
    return arg_value


def check_int_range(
    arg_value: Any,
    lower_limit: int,
    upper_limit: int,
    rel: int,
    arg_name: str | None = None,
    prim_name: str | None = None,
) -> int:
    """An int in a range: ``check_int_range(k, 1, 8, INC_BOTH, "k", "Op")``."""
    return check_number_range(arg_value, lower_limit, upper_limit, rel, int, arg_name, prim_name)


def check_float_range(
    arg_value: Any,
    lower_limit: float,
    upper_limit: float,
    rel: int,
    arg_name: str | None = None,
    prim_name: str | None = None,
) -> float:
    """A float in a range: ``check_float_range(beta1, 0.0, 1.0, INC_NEITHER, "beta1", "Adam")``."""
    return check_number_range(arg_value, lower_limit, upper_limit, rel, float, arg_name, prim_name)


def check(
    arg_name: str,
    arg_value: Any,
    value_name: str,
    value: Any,
    rel: int = EQ,
    prim_name: str | None = None,
    excp_cls: type[Exception] = ValueError,
) -> Any:
    """``arg_value <rel> value`` for ints or sequences of ints (a name with a space is printed unquoted)."""
    if not _holds(arg_value, value, rel):
        subject = f"{_the(prim_name)} '{arg_name}'" if " " not in arg_name else f"{_the(prim_name)} {arg_name}"
        raise excp_cls(f"{subject} should be {rel_text(f'{value_name}: {value}', rel)}, but got {arg_value}.")
    return arg_value


def check_number(arg_name: str, arg_value: Any, value: Any, rel: int, prim_name: str | None) -> Any:
    """``arg_value <rel> value`` for any numbers (no type check)."""
    if not _holds(arg_value, value, rel):
        raise ValueError(
            f"For '{prim_name}', the argument '{arg_name}' must {rel_text(value, rel)}, but got {arg_value}."
        )
    return arg_value


# ----------------------------------------------------------------------------------- types and values


def check_bool(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> bool:
    """A bool (``1`` is not)."""
    if not isinstance(arg_value, bool):
        raise TypeError(f"{_subject(arg_name, prim_name)} must be a bool, but got {type(arg_value).__name__}.")
    return arg_value


def check_value_type(arg_name: str, arg_value: Any, valid_types: Any, prim_name: str | None = None) -> Any:
    """An instance of ``valid_types`` (a type or a list of types); a bool is accepted only when ``bool`` is listed."""
    types = tuple(valid_types) if isinstance(valid_types, Iterable) else (valid_types,)
    rejected = (isinstance(arg_value, bool) and bool not in types) or not isinstance(arg_value, types)
    if rejected:
        raise TypeError(
            f"{_the(prim_name)} type of '{arg_name}' should be {_one_or_list(_names(types))}, "
            f"but got type '{type(arg_value).__name__}'."
        )
    return arg_value


def check_element_type_of_iterable(
    arg_name: str, arg_value: Any, valid_types: Any, prim_name: str | None = None
) -> Any:
    """A list or tuple whose every element is an instance of ``valid_types``."""
    check_value_type(arg_name, arg_value, [list, tuple], prim_name)
    types = tuple(valid_types)
    names = _names(types)
    for element in arg_value:
        if not isinstance(element, types):
            raise TypeError(
                f"{_the(prim_name)} type of '{arg_name}' should be "
                f"{'one of ' if len(names) > 1 else ''}{names if len(names) > 1 else names[0]}, "
                f"but got '{element}' with type '{type(element).__name__}'."
            )
    return arg_value


def check_isinstance(arg_name: str, arg_value: Any, classes: Any) -> Any:
    """An instance of ``classes`` (MindSpore raises ValueError here)."""
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got {arg_value}.")
    return arg_value


def check_string(arg_value: Any, valid_values: Any, arg_name: str | None = None, prim_name: str | None = None) -> str:
    """A str among ``valid_values``."""
    if not (isinstance(arg_value, str) and arg_value in valid_values):
        raise ValueError(
            f"{_the(prim_name)} '{arg_name or 'parameter'}' must be str and must be in '{valid_values}', "
            f"but got '{arg_value}'."
        )
    return arg_value


def check_one_of(
    arg_value: Any,
    valid_values: Any,
    arg_name: str,
    prim_name: str,
    valid_text: str | None = None,
    str_only: bool = False,
    ignore_case: bool = False,
) -> Any:
    """A value among ``valid_values`` (returned lower-cased with ``ignore_case``): ``For 'Model', the 'amp_level'
    must be one of ['O0', 'O1', 'O2', 'O3', 'auto'], but got 'O4'.`` ``str_only`` first asks for a str
    (TypeError); ``valid_text`` words the choices."""
    if str_only and not isinstance(arg_value, str):
        raise TypeError(f"For '{prim_name}', the '{arg_name}' must be str, but got {type(arg_value).__name__}.")
    value = arg_value.lower() if ignore_case and isinstance(arg_value, str) else arg_value
    if value not in valid_values:
        shown = valid_text or str(list(valid_values))
        raise ValueError(f"For '{prim_name}', the '{arg_name}' must be one of {shown}, but got {arg_value!r}.")
    return value


def check_value_in(arg_value: Any, valid_values: Any, arg_name: str, prim_name: str) -> Any:
    """A value among ``valid_values``, with the losses' message: ``For 'LossBase', the 'reduction' must be in
    ['mean', 'sum', 'none'], but got avg.``"""
    if arg_value not in valid_values:
        raise ValueError(f"For '{prim_name}', the '{arg_name}' must be in {list(valid_values)}, but got {arg_value}.")
    return arg_value


def check_str_by_regular(target: Any, reg: str | None = None, flag: Any = re.ASCII, prim_name: str | None = None):
    """A name matching ``reg`` (by default a word: letters, digits, ``_`` and ``.``)."""
    reg = r"^\w+[0-9a-zA-Z\_\.]*$" if reg is None else reg
    if re.match(reg, target, flag) is None:
        raise ValueError(f"{_the(prim_name)} '{target}' is illegal, it must be match regular'{reg}' by flags'{flag}.'")
    return True


def check_file_name_by_regular(target: Any, reg: str | None = None, prim_name: str | None = None) -> bool:
    """A file name: a str, not a directory path, of letters, digits and ``@_-.:/\\`` by default."""
    if not isinstance(target, str):
        raise TypeError(f"{_the(prim_name)} '{target}' must be string, but got {type(target)}.")
    if target.endswith(("\\", "/")):
        raise ValueError(f"{_the(prim_name)} '{target}' cannot be a directory path.")
    reg = r"^[0-9a-zA-Z@\_\-\.\:\/\\]+$" if reg is None else reg
    if re.match(reg, target) is None:
        raise ValueError(f"{_the(prim_name)} '{target}' is illegal, it must be match regular '{reg}'.")
    return True


def check_valid_input(arg_name: str, arg_value: Any, prim_name: str | None) -> Any:
    """Anything but None."""
    if arg_value is None:
        raise ValueError(f"For '{prim_name}', the argument '{arg_name}'can not be None, but got {arg_value}.")
    return arg_value


def check_type_name(arg_name: str, arg_type: Any, valid_types: Any, prim_name: str | None) -> Any:
    """A dtype (or type) among ``valid_types``: ``check_type_name("dtype", dtype, [float16, float32], "Cast")``."""
    types = tuple(valid_types) if isinstance(valid_types, Iterable) else (valid_types,)
    if arg_type not in types:
        names = [t.__name__ if hasattr(t, "__name__") else t for t in types]
        got = arg_type.__name__ if hasattr(arg_type, "__name__") else repr(arg_type)
        raise TypeError(
            f"{_the(prim_name)} '{arg_name}' should be {'one of ' if len(types) > 1 else ''}"
            f"{names if len(types) > 1 else names[0]}, but got '{got}'."
        )
    return arg_type


def check_tensor_dtype_valid(arg_name: str, arg_type: Any, valid_dtypes: Any, prim_name: str | None) -> Any:
    """A Tensor's dtype among ``valid_dtypes`` (MindSpore's message, which names the hardware-dependent support)."""
    dtypes = tuple(valid_dtypes) if isinstance(valid_dtypes, Iterable) else (valid_dtypes,)
    if arg_type not in dtypes:
        raise TypeError(
            f"For '{prim_name}', the element of '{arg_name}' must be {'one of ' if len(dtypes) > 1 else ''}"
            f"{', '.join(str(d) for d in dtypes)}, but got {arg_type}.The supported data types depend on the "
            "hardware that executes the operator, for more details, please refer to the MindSpore official "
            "website to get more information about the data type."
        )
    return arg_type


def check_primitive_input_dtype(arg_name: str, dtype_name: str, valid_names: Any, prim_name: str) -> str:
    """A kernel input's dtype (by MindSpore name: ``"Float32"``) among ``valid_names``, with the message of
    MindSpore's C++ primitive checks: ``For primitive[Invert], the input argument[x] must be a type of
    {Tensor[Int16], Tensor[Int32]}, but got Tensor[Float32].``"""
    if dtype_name not in valid_names:
        allowed = ", ".join(f"Tensor[{n}]" for n in sorted(valid_names))
        raise TypeError(
            f"For primitive[{prim_name}], the input argument[{arg_name}] must be a type of {{{allowed}}}, "
            f"but got Tensor[{dtype_name}]."
        )
    return dtype_name


def check_ndim(ndim: int, valid: Any, arg_name: str, prim_name: str, unit: str = "") -> int:
    """A tensor's rank among ``valid`` (an int or several): ``For 'SSIM', the dimension of 'img1' must be 4d, but
    got 3.`` (``unit="d"``)."""
    ranks = (valid,) if isinstance(valid, int) else tuple(valid)
    if ndim not in ranks:
        want = " or ".join(f"{r}{unit}" for r in ranks)
        raise ValueError(f"For '{prim_name}', the dimension of '{arg_name}' must be {want}, but got {ndim}.")
    return ndim


def check_dtype_kind(arg_name: str, dtype: Any, kind: Any, kind_text: str, prim_name: str) -> Any:
    """A dtype of one kind (``mstype.Float``, ``mstype.Int``): ``For 'BCELoss', the dtype of 'logits' must be
    float16, float32 or float64, but got Int32.``"""
    if not isinstance(dtype, kind):
        raise TypeError(f"For '{prim_name}', the dtype of '{arg_name}' must be {kind_text}, but got {dtype}.")
    return dtype


def check_tensors_dtypes_same_and_valid(args: dict[str, Any], valid_dtypes: Any, prim_name: str | None) -> None:
    """Every dtype in ``{name: dtype}`` valid, and all the same (the message names the first that differs)."""
    items = list(args.items())
    for name, dtype in items:
        check_tensor_dtype_valid(name, dtype, valid_dtypes, prim_name)
    first_name, first = items[0]
    for name, dtype in items[1:]:
        if dtype != first:
            raise TypeError(
                f"For '{prim_name}', the type of '{name}' should be same as '{first_name}', but got "
                f"'{first_name}' with type {first} and '{name}' with type {dtype}."
            )


# ---------------------------------------------------------------------------------------------- axes


def check_axis_in_range(axis: Any, ndim: int) -> int:
    """An int axis in ``[-ndim, ndim)``, returned non-negative."""
    if not isinstance(axis, int):
        raise TypeError(f"The axes must be integers, but got {type(axis)}")
    if axis >= ndim or axis < -ndim:
        raise ValueError(f"The 'axis' must be in the range of [-{ndim}, {ndim}), but got {axis}.")
    return (axis + ndim) % ndim


def check_axis_valid(axes: Any, ndim: int) -> tuple[int, ...]:
    """None (every axis), an int or a sequence of distinct ints, as a tuple of non-negative axes."""
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, (tuple, list)):
        out = tuple(check_axis_in_range(a, ndim) for a in axes)
        if len(set(out)) != len(out):
            raise ValueError(f"The element of parameter 'axis' can not be duplicate, but got {out}.")
        return out
    return (check_axis_in_range(axes, ndim),)
