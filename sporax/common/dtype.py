"""MindSpore's dtype objects (``ms.float32``, ``mstype.int32`` ...) and their NumPy counterparts.

A dtype object prints as MindSpore prints it (``Float32``) and maps one-to-one onto a NumPy dtype
(bfloat16 comes from ``ml_dtypes``, which jax depends on). Framework code converts with
:func:`to_np` / :func:`from_np` and never compares dtype names as strings.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

__all__ = [
    "Type",
    "Number",
    "Bool",
    "Int",
    "UInt",
    "Float",
    "BFloat",
    "Complex",
    "bool_",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "bfloat16",
    "complex64",
    "complex128",
    "half",
    "single",
    "double",
    "float_",
    "int_",
    "uint",
    "short",
    "intc",
    "intp",
    "ushort",
    "uintc",
    "uintp",
    "byte",
    "ubyte",
    "number_type",
    "int_type",
    "uint_type",
    "float_type",
    "complex_type",
    "all_types",
    "dtype_to_nptype",
    "dtype_to_pytype",
    "pytype_to_dtype",
    "get_py_obj_dtype",
    "is_float",
    "is_int",
    "to_np",
    "from_np",
    "type_name",
    "string",
    "tensor_type",
]


class Type:
    """A MindSpore data type. Instances are singletons: compare with ``==`` or ``is``."""

    __slots__ = ("_name", "_np")

    def __init__(self, name: str, np_dtype: np.dtype | None) -> None:
        self._name = name
        self._np = np_dtype

    def __repr__(self) -> str:
        return self._name

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Type):
            return self is other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._name)

    def __reduce__(self):  # pickling keeps the singleton
        return (_by_name, (self._name,))

    @property
    def name(self) -> str:
        return self._name.lower() if self._name != "Bool" else "bool"


class Number(Type):
    __slots__ = ()


class Bool(Number):
    __slots__ = ()


class Int(Number):
    __slots__ = ()


class UInt(Number):
    __slots__ = ()


class Float(Number):
    __slots__ = ()


class BFloat(Float):
    __slots__ = ()


class Complex(Number):
    __slots__ = ()


bool_ = Bool("Bool", np.dtype(np.bool_))
int8 = Int("Int8", np.dtype(np.int8))
int16 = Int("Int16", np.dtype(np.int16))
int32 = Int("Int32", np.dtype(np.int32))
int64 = Int("Int64", np.dtype(np.int64))
uint8 = UInt("UInt8", np.dtype(np.uint8))
uint16 = UInt("UInt16", np.dtype(np.uint16))
uint32 = UInt("UInt32", np.dtype(np.uint32))
uint64 = UInt("UInt64", np.dtype(np.uint64))
float16 = Float("Float16", np.dtype(np.float16))
float32 = Float("Float32", np.dtype(np.float32))
float64 = Float("Float64", np.dtype(np.float64))
bfloat16 = BFloat("BFloat16", np.dtype(ml_dtypes.bfloat16))
complex64 = Complex("Complex64", np.dtype(np.complex64))
complex128 = Complex("Complex128", np.dtype(np.complex128))
string = Type("String", None)
tensor_type = Type("TensorType", None)

# MindSpore's aliases
half, single, double, float_ = float16, float32, float64, float32
int_, short, intc, intp, byte = int64, int16, int32, int64, int8
uint, ushort, uintc, uintp, ubyte = uint64, uint16, uint32, uint64, uint8

int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)
complex_type = (complex64, complex128)
number_type = (*int_type, *uint_type, *float_type, *complex_type)
all_types = (bool_, *number_type)

_NP_TO_MS: dict[np.dtype, Type] = {t._np: t for t in all_types if t._np is not None}
_NAME_TO_MS = {t._name: t for t in (*all_types, string, tensor_type)}


def _by_name(name: str) -> Type:
    return _NAME_TO_MS[name]


def type_name(t: Type) -> str:
    return repr(t)


def to_np(t) -> np.dtype:
    """MindSpore dtype (or anything NumPy understands) -> NumPy dtype."""
    if isinstance(t, Type):
        if t._np is None:
            raise TypeError(f"The dtype {t} has no array representation.")
        return t._np
    if t is float:
        return np.dtype(np.float32)
    if t is int:
        return np.dtype(np.int64)
    if t is bool:
        return np.dtype(np.bool_)
    return np.dtype(t)


def from_np(d) -> Type:
    """NumPy/jax dtype -> MindSpore dtype object."""
    try:
        return _NP_TO_MS[np.dtype(d)]
    except (KeyError, TypeError):
        raise TypeError(f"The dtype {d} is not supported by sporax.") from None


def dtype_to_nptype(type_: Type):
    """MindSpore: ``dtype_to_nptype(mstype.float32)`` -> ``numpy.float32``."""
    return to_np(type_).type


def dtype_to_pytype(type_: Type) -> type:
    if type_ is bool_:
        return bool
    if isinstance(type_, (Int, UInt)):
        return int
    if isinstance(type_, Float):
        return float
    if isinstance(type_, Complex):
        return complex
    raise TypeError(f"The dtype {type_} has no Python type.")


def pytype_to_dtype(obj) -> Type:
    if isinstance(obj, Type):
        return obj
    if obj is bool:
        return bool_
    if obj is int:
        return int64
    if obj is float:
        return float32
    if obj is complex:
        return complex64
    return from_np(obj)


def get_py_obj_dtype(obj) -> Type:
    if hasattr(obj, "dtype") and isinstance(obj.dtype, Type):
        return obj.dtype
    return pytype_to_dtype(type(obj))


def is_float(t: Type) -> bool:
    return isinstance(t, Float)


def is_int(t: Type) -> bool:
    return isinstance(t, (Int, UInt))
