"""MindSpore's dtype objects (``ms.float32``, ``mstype.int32`` ...) and their NumPy counterparts.

A dtype object prints as MindSpore prints it (``Float32``) and maps one-to-one onto a NumPy dtype
(bfloat16 comes from ``ml_dtypes``, which jax depends on). Framework code converts with
:func:`to_np` / :func:`from_np` and never compares dtype names as strings.
"""

from __future__ import annotations

import enum

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
    "float8_e4m3fn",
    "float8_e5m2",
    "hifloat8",
    "qint4x2",
    "long",
    "cfloat",
    "cdouble",
    "list_",
    "tuple_",
    "type_none",
    "number",
    "_null",
    "TensorType",
    "QuantDtype",
    "List",
    "Tuple",
    "TypeNone",
    "String",
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

    __slots__ = ("_name", "_np", "_repr")

    def __init__(self, name: str, np_dtype: np.dtype | None, repr_name: str | None = None) -> None:
        self._name = name
        self._np = np_dtype
        self._repr = "mindspore." + (repr_name or name.lower())

    def __repr__(self) -> str:
        # MindSpore: repr(ms.int32) == 'mindspore.int32', str(ms.int32) == 'Int32' (Tensor prints use str)
        return self._repr

    def __str__(self) -> str:
        return self._name

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


class List(Type):
    __slots__ = ()


class Tuple(Type):
    __slots__ = ()


class TypeNone(Type):
    __slots__ = ()


class TypeNull(Type):
    __slots__ = ()


class String(Type):
    __slots__ = ()


class TensorType(Type):
    """The type of a Tensor; ``TensorType(ms.float32)`` is a Tensor of float32 elements."""

    __slots__ = ("_element",)

    def __init__(self, element: Type | None = None) -> None:
        self._element = element
        if element is None:
            super().__init__("Tensor", None, "tensor")
        else:
            super().__init__(f"Tensor[{element}]", None, f"tensor[{repr(element)[len('mindspore.') :]}]")

    def element_type(self) -> Type | None:
        return self._element

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TensorType):
            return self._element is other._element
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._name)

    def __reduce__(self):
        return (TensorType, (self._element,))


class QuantDtype(enum.Enum):
    """MindSpore's quantisation data types (``QuantDtype.INT8``...), used by quantisation configs."""

    INT1 = 0
    INT2 = 1
    INT3 = 2
    INT4 = 3
    INT5 = 4
    INT6 = 5
    INT7 = 6
    INT8 = 7
    INT9 = 8
    INT10 = 9
    INT11 = 10
    INT12 = 11
    INT13 = 12
    INT14 = 13
    INT15 = 14
    INT16 = 15
    UINT1 = 100
    UINT2 = 101
    UINT3 = 102
    UINT4 = 103
    UINT5 = 104
    UINT6 = 105
    UINT7 = 106
    UINT8 = 107
    UINT9 = 108
    UINT10 = 109
    UINT11 = 110
    UINT12 = 111
    UINT13 = 112
    UINT14 = 113
    UINT15 = 114
    UINT16 = 115

    def value(self) -> int:  # type: ignore[override]
        return self._value_

    def num_bits(self) -> int:
        return self._value_ % 100 + 1


bool_ = Bool("Bool", np.dtype(np.bool_), "bool")
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
# float8 and int4 are XLA types (from ml_dtypes); hifloat8 is an Ascend format XLA has no array type for.
float8_e4m3fn = Float("Float8E4M3FN", np.dtype(ml_dtypes.float8_e4m3fn), "float8_e4m3fn")
float8_e5m2 = Float("Float8E5M2", np.dtype(ml_dtypes.float8_e5m2), "float8_e5m2")
hifloat8 = Float("HiFloat8", None, "hifloat8")
qint4x2 = Int("Int4", np.dtype(ml_dtypes.int4), "int4")
string = String("String", None, "string_")
tensor_type = TensorType()
list_ = List("List", None, "list_")
tuple_ = Tuple("Tuple", None, "tuple_")
type_none = TypeNone("None", None, "type_none")
number = Number("Number", None, "number")
_null = TypeNull("Null", None, "Null")

# MindSpore's aliases
half, single, double, float_ = float16, float32, float64, float32
int_, short, intc, intp, byte, long = int64, int16, int32, int64, int8, int64
uint, ushort, uintc, uintp, ubyte = uint64, uint16, uint32, uint64, uint8
cfloat, cdouble = complex64, complex128

int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16, float8_e4m3fn, float8_e5m2, hifloat8)
complex_type = (complex64, complex128)
number_type = (*int_type, *uint_type, *float_type[:4], *complex_type, qint4x2, *float_type[4:])
all_types = (bool_, *number_type)

_NP_TO_MS: dict[np.dtype, Type] = {t._np: t for t in all_types if t._np is not None}
_NAME_TO_MS = {t._name: t for t in (*all_types, string, list_, tuple_, type_none, number, _null)}


def _by_name(name: str) -> Type:
    return _NAME_TO_MS[name]


def type_name(t: Type) -> str:
    return str(t)


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
