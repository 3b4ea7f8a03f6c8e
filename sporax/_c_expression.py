"""``mindspore._c_expression``: the few names of MindSpore's C++ module that programs import directly.

``Tensor``/``TensorPy`` (the Tensor class), ``typing`` (the dtype classes and objects: ``typing.Float``,
``typing.kFloat32``, ``str_to_type``, ``type_size_in_bytes``), and ``MSContext`` (the context, read through
``get_param``; no Ascend SoC here). The rest of that module is MindSpore's compiler and runtime, which sporax
does not have.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from .common import dtype as _mstype
from .common.tensor import Tensor

__all__ = ["Tensor", "TensorPy", "typing", "MSContext"]

TensorPy = Tensor


def _str_to_type(name: str) -> _mstype.Type:
    """The dtype object named ``name`` ('Float32', 'Int64' ...)."""
    hit = _mstype._NAME_TO_MS.get(name)
    if hit is None:
        raise ValueError(f"For 'str_to_type', the type name '{name}' is not supported.")
    return hit


def _type_size_in_bytes(t: _mstype.Type) -> int:
    return _mstype.to_np(t).itemsize


def _is_subclass(t: Any, base: Any) -> bool:
    """Whether dtype ``t`` belongs to ``base`` (a class such as typing.Float, or a generic dtype object)."""
    if isinstance(base, type):
        return isinstance(t, base)
    if base is t:
        return True
    return type(t) is type(base) and base in (_mstype.float_, _mstype.int_, _mstype.uint, _mstype.number)


typing = SimpleNamespace(
    Type=_mstype.Type,
    Number=_mstype.Number,
    Bool=_mstype.Bool,
    Int=_mstype.Int,
    UInt=_mstype.UInt,
    Float=_mstype.Float,
    BFloat=_mstype.BFloat,
    Complex=_mstype.Complex,
    List=_mstype.List,
    Tuple=_mstype.Tuple,
    String=_mstype.String,
    TypeNone=_mstype.TypeNone,
    TypeNull=_mstype.TypeNull,
    TensorType=_mstype.TensorType,
    kBool=_mstype.bool_,
    kInt8=_mstype.int8,
    kInt16=_mstype.int16,
    kInt32=_mstype.int32,
    kInt64=_mstype.int64,
    kInt4=_mstype.qint4x2,
    kUInt8=_mstype.uint8,
    kUInt16=_mstype.uint16,
    kUInt32=_mstype.uint32,
    kUInt64=_mstype.uint64,
    kFloat16=_mstype.float16,
    kFloat32=_mstype.float32,
    kFloat64=_mstype.float64,
    kBFloat16=_mstype.bfloat16,
    kFloat8E4M3FN=_mstype.float8_e4m3fn,
    kFloat8E5M2=_mstype.float8_e5m2,
    kHiFloat8=_mstype.hifloat8,
    kComplex64=_mstype.complex64,
    kComplex128=_mstype.complex128,
    kNumber=_mstype.number,
    kString=_mstype.string,
    kList=_mstype.list_,
    kTuple=_mstype.tuple_,
    kTypeNone=_mstype.type_none,
    kTypeNull=_mstype._null,
    kTensorType=_mstype.tensor_type,
    str_to_type=_str_to_type,
    type_size_in_bytes=_type_size_in_bytes,
    is_subclass=_is_subclass,
)


class MSContext:
    """MindSpore's C++ context singleton, answering from :mod:`sporax.context`."""

    _instance: MSContext | None = None

    @classmethod
    def get_instance(cls) -> MSContext:
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def get_param(self, param: Any) -> Any:
        from . import context

        return context.get_context(getattr(param, "name", param))

    def set_param(self, param: Any, value: Any) -> None:
        from . import context

        context.set_context(**{getattr(param, "name", param): value})

    def get_ascend_soc_version(self) -> str:
        return ""  # no Ascend device under XLA

    def is_pkg_support_device(self) -> bool:
        return True

    def ascend_soc_supports_feature(self, feature: Any = None) -> bool:
        return False
