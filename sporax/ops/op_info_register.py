"""Operator registration (``mindspore.ops.op_info_register``): ``CustomRegOp``, ``CpuRegOp``, ``TBERegOp``,
``AiCPURegOp``, ``AkgAscendRegOp``, ``AkgGpuRegOp``, ``DataType``, ``op_info_register``, ``custom_info_register``.

The helpers build MindSpore's operator-information dicts (``get_op_info()``) exactly. On XLA there is no kernel
library to register into: ``op_info_register`` records the information (:func:`registered_op_info`) and
returns the function unchanged in behaviour; ``custom_info_register`` attaches it to the function as
``reg_info`` (what ``ops.Custom`` reads), as MindSpore does.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from typing import Any

__all__ = [
    "CustomRegOp",
    "CpuRegOp",
    "TBERegOp",
    "AiCPURegOp",
    "AkgAscendRegOp",
    "AkgGpuRegOp",
    "DataType",
    "op_info_register",
    "custom_info_register",
]


# ------------------------------------------------------------------------------------- registration
class RegOp:
    """Operator information being built: inputs, outputs, attributes, dtype/format combinations."""

    def __init__(self, op_name: str = "") -> None:
        if not isinstance(op_name, str):
            raise ValueError("op name value must be string")
        if not op_name.strip():
            raise ValueError("op name is empty")
        self.op_name = op_name
        self.inputs: list[dict] = []
        self.outputs: list[dict] = []
        self.attr_: list[dict] = []
        self.fusion_type_ = ""
        self.dtype_format_: list[tuple] = []

    @staticmethod
    def _is_string(value: Any) -> bool:
        if not isinstance(value, str):
            raise TypeError(f"{value} value must be str")
        return True

    @staticmethod
    def _is_int(value: Any) -> bool:
        if not isinstance(value, int):
            raise TypeError(f"{value} value must be int")
        return True

    @staticmethod
    def _is_bool(value: Any) -> bool:
        if not isinstance(value, bool):
            raise TypeError(f"{value} value must be bool")
        return True

    @staticmethod
    def _entry(values: list, keys: list[str], checks: Sequence[Callable[[Any], bool]], extra: dict) -> dict:
        """The dict of the given (non-None) values under `keys`, each checked (one check: for all)."""
        out = {}
        for i, (v, k) in enumerate(zip(values, keys)):
            if v is not None:
                (checks[0] if len(checks) == 1 else checks[i])(v)
                out[k] = v
        out.update(extra)
        return out

    def fusion_type(self, fusion_type: str) -> RegOp:
        self._is_string(fusion_type)
        self.fusion_type_ = fusion_type
        return self

    def dtype_format(self, *args: Any) -> RegOp:
        if len(self.inputs) + len(self.outputs) != len(args):
            raise ValueError("input size add output size must be equal to dtype format size")
        combo = []
        for a in args:
            if not isinstance(a, tuple) or len(a) not in (2, 3):
                raise ValueError("dtype and format value must be tuple of two or three elements")
            for s in a:
                self._is_string(s)
            combo.append(a)
        self.dtype_format_.append(tuple(combo))
        return self

    _RENAMED = {
        "dynamic_shape_support": "dynamicShapeSupport",
        "dynamic_rank_support": "dynamicRankSupport",
        "dynamic_compile_static": "dynamicCompileStatic",
        "need_check_support": "needCheckSupport",
        "dynamic_format": "dynamicFormat",
    }

    def get_op_info(self) -> dict:
        """The operator information as MindSpore's dict (keys without the trailing ``_``)."""
        info = {}
        for k, v in self.__dict__.items():
            if k.endswith("_"):
                k = k.rstrip("_")
                k = self._RENAMED.get(k, k)
            info[k] = v
        return info


class CpuRegOp(RegOp):
    """Operator information of a CPU kernel."""

    def __init__(self, op_name: str) -> None:
        super().__init__(op_name)
        self.imply_type = "CPU"

    def input(self, index: Any = None, name: Any = None, param_type: Any = None, **kwargs: Any) -> CpuRegOp:
        checks = [self._is_int, self._is_string, self._is_string]
        self.inputs.append(self._entry([index, name, param_type], ["index", "name", "paramType"], checks, kwargs))
        return self

    def output(self, index: Any = None, name: Any = None, param_type: Any = None, **kwargs: Any) -> CpuRegOp:
        checks = [self._is_int, self._is_string, self._is_string]
        self.outputs.append(self._entry([index, name, param_type], ["index", "name", "paramType"], checks, kwargs))
        return self

    def attr(self, name: Any = None, value_type: Any = None, value: Any = None, **kwargs: Any) -> CpuRegOp:
        self.attr_.append(self._entry([name, value_type, value], ["name", "type", "value"], [self._is_string], kwargs))
        return self


class AiCPURegOp(CpuRegOp):
    """Operator information of an Ascend AI CPU kernel."""

    def __init__(self, op_name: str) -> None:
        super().__init__(op_name)
        self.imply_type = "AiCPU"


class AkgRegOp(RegOp):
    """Operator information of an AKG kernel for `processor`."""

    def __init__(self, op_name: str, processor: str) -> None:
        super().__init__(op_name)
        self.imply_type = "AKG"
        self.processor = processor

    def input(self, index: Any = None, name: Any = None, param_type: Any = None, **kwargs: Any) -> AkgRegOp:
        checks = [self._is_int, self._is_string, self._is_string]
        self.inputs.append(self._entry([index, name, param_type], ["index", "name", "paramType"], checks, kwargs))
        return self

    def output(self, index: Any = None, name: Any = None, **kwargs: Any) -> AkgRegOp:
        self.outputs.append(self._entry([index, name], ["index", "name"], [self._is_int, self._is_string], kwargs))
        return self

    def attr(self, name: Any = None, param_type: Any = None, value_type: Any = None, **kwargs: Any) -> AkgRegOp:
        keys = ["name", "paramType", "type"]
        self.attr_.append(self._entry([name, param_type, value_type], keys, [self._is_string], kwargs))
        return self


class AkgGpuRegOp(AkgRegOp):
    """Operator information of an AKG kernel for GPU (processor ``"CUDA"``)."""

    def __init__(self, op_name: str) -> None:
        super().__init__(op_name, "CUDA")


class AkgAscendRegOp(AkgRegOp):
    """Operator information of an AKG kernel for Ascend (processor ``"AiCore"``)."""

    def __init__(self, op_name: str) -> None:
        super().__init__(op_name, "AiCore")


class TBERegOp(RegOp):
    """Operator information of an Ascend TBE kernel (its build flags recorded as given)."""

    def __init__(self, op_name: str) -> None:
        super().__init__(op_name)
        self.imply_type = "TBE"
        self.async_flag_ = False
        self.binfile_ = ""
        self.compute_cost_ = 10
        self.kernel_ = ""
        self.partial_flag_ = False
        self.reshape_type_ = ""
        self.dynamic_rank_support_ = False
        self.dynamic_shape_support_ = False
        self.dynamic_compile_static_ = False
        self.need_check_support_ = False
        self.dynamic_format_ = False
        self.op_pattern_ = ""
        self.real_input_index_: list = []
        self.input_to_attr_index_: list = []
        self.unknown_shape_formats_: list = []

    def _set(self, field: str, value: Any, check: Callable[[Any], bool] | None) -> TBERegOp:
        if check is not None:
            check(value)
        setattr(self, field, value)
        return self

    def unknown_shape_formats(self, unknown_shape_formats: Any) -> TBERegOp:
        self.unknown_shape_formats_.append(unknown_shape_formats)
        return self

    def dynamic_rank_support(self, dynamic_rank_support: bool) -> TBERegOp:
        return self._set("dynamic_rank_support_", dynamic_rank_support, self._is_bool)

    def real_input_index(self, real_input_index: Any) -> TBERegOp:
        return self._set("real_input_index_", real_input_index, None)

    def input_to_attr_index(self, input_to_attr_index: Any) -> TBERegOp:
        return self._set("input_to_attr_index_", input_to_attr_index, None)

    def async_flag(self, async_flag: bool = False) -> TBERegOp:
        return self._set("async_flag_", async_flag, self._is_bool)

    def binfile_name(self, binfile_name: str) -> TBERegOp:
        return self._set("binfile_", binfile_name, self._is_string)

    def compute_cost(self, compute_cost: int = 10) -> TBERegOp:
        return self._set("compute_cost_", compute_cost, self._is_int)

    def kernel_name(self, kernel_name: str) -> TBERegOp:
        return self._set("kernel_", kernel_name, self._is_string)

    def partial_flag(self, partial_flag: bool = True) -> TBERegOp:
        return self._set("partial_flag_", partial_flag, self._is_bool)

    def reshape_type(self, reshape_type: str) -> TBERegOp:
        return self._set("reshape_type_", reshape_type, self._is_string)

    def dynamic_shape(self, dynamic_shape: bool = False) -> TBERegOp:
        return self._set("dynamic_shape_support_", dynamic_shape, self._is_bool)

    def dynamic_compile_static(self, dynamic_compile_static: bool = False) -> TBERegOp:
        return self._set("dynamic_compile_static_", dynamic_compile_static, self._is_bool)

    def need_check_supported(self, need_check_supported: bool = False) -> TBERegOp:
        return self._set("need_check_support_", need_check_supported, self._is_bool)

    def is_dynamic_format(self, is_dynamic_format: bool = False) -> TBERegOp:
        return self._set("dynamic_format_", is_dynamic_format, self._is_bool)

    def op_pattern(self, pattern: Any = None) -> TBERegOp:
        if pattern is not None:
            self._set("op_pattern_", pattern, self._is_string)
        return self

    def attr(
        self,
        name: Any = None,
        param_type: Any = None,
        value_type: Any = None,
        value: Any = None,
        default_value: Any = None,
        **kwargs: Any,
    ) -> TBERegOp:
        keys = ["name", "paramType", "type", "value", "defaultValue"]
        self.attr_.append(
            self._entry([name, param_type, value_type, value, default_value], keys, [self._is_string], kwargs)
        )
        return self

    def input(
        self,
        index: Any = None,
        name: Any = None,
        need_compile: Any = None,
        param_type: Any = None,
        shape: Any = None,
        value_depend: Any = None,
        **kwargs: Any,
    ) -> TBERegOp:
        keys = ["index", "name", "needCompile", "paramType", "shape", "valueDepend"]
        s = self._is_string
        checks = [self._is_int, s, self._is_bool, s, s, s]
        entry = self._entry([index, name, need_compile, param_type, shape, value_depend], keys, checks, kwargs)
        allowed = ("ignored", "optional", "required")
        if value_depend and value_depend.lower() not in allowed:
            raise ValueError(
                f"Operator {self.op_name} input{index}'s value_depend's value ({value_depend}) is not in {allowed}."
            )
        self.inputs.append(entry)
        return self

    def output(
        self,
        index: Any = None,
        name: Any = None,
        need_compile: Any = None,
        param_type: Any = None,
        shape: Any = None,
        **kwargs: Any,
    ) -> TBERegOp:
        keys = ["index", "name", "need_compile", "paramType", "shape"]
        s = self._is_string
        checks = [self._is_int, s, self._is_bool, s, s]
        self.outputs.append(self._entry([index, name, need_compile, param_type, shape], keys, checks, kwargs))
        return self


class CustomRegOp(RegOp):
    """Registration information of a ``Custom`` operator's `func`: its inputs, outputs, attributes, the
    dtype/format combinations it supports and its target."""

    def __init__(self, op_name: str = "Custom") -> None:
        super().__init__(op_name)
        self.target_: Any = "UnKnown"

    def input(self, index: Any = None, name: Any = None, param_type: Any = "required", **kwargs: Any) -> CustomRegOp:
        checks = [self._is_int, self._is_string, self._is_string]
        self.inputs.append(self._entry([index, name, param_type], ["index", "name", "paramType"], checks, kwargs))
        return self

    def output(self, index: Any = None, name: Any = None, param_type: Any = "required", **kwargs: Any) -> CustomRegOp:
        checks = [self._is_int, self._is_string, self._is_string]
        self.outputs.append(self._entry([index, name, param_type], ["index", "name", "paramType"], checks, kwargs))
        return self

    def dtype_format(self, *args: Any) -> CustomRegOp:
        n = len(self.inputs) + len(self.outputs)
        if len(args) != n:
            raise ValueError(
                "The size of 'args' must be equal to the sum of input tensors and output tensors, but got "
                f"{len(args)} vs {n}"
            )
        super().dtype_format(*args)
        return self

    def attr(
        self, name: Any = None, param_type: Any = None, value_type: Any = None, default_value: Any = None, **kwargs: Any
    ) -> CustomRegOp:
        keys = ["name", "paramType", "type", "defaultValue"]
        self.attr_.append(self._entry([name, param_type, value_type, default_value], keys, [self._is_string], kwargs))
        return self

    def target(self, target: Any = None) -> CustomRegOp:
        if target is not None:
            self._is_string(target)
        self.target_ = target
        return self

    def get_op_info(self) -> dict:
        return {(k.rstrip("_") if k.endswith("_") else k): v for k, v in self.__dict__.items()}


_FORMATS = {
    "None": ("",),
    "Default": ("DefaultFormat",),
    "5HD": ("NC1HWC0",),
    "NC1HWC0": ("NC1HWC0",),
    "FracZ": ("FRACTAL_Z",),
    "FracNZ": ("FRACTAL_NZ",),
    "C1HWNCoC0": ("C1HWNCoC0",),
    "NCHW": ("NCHW",),
    "NHWC": ("NHWC",),
    "HWCN": ("HWCN",),
    "NDHWC": ("NDHWC",),
    "NCDHW": ("NCDHW",),
    "DHWCN": ("DHWCN",),
    "NDC1HWC0": ("NDC1HWC0",),
    "FRACTAL_Z_3D": ("FRACTAL_Z_3D",),
    "FracZNLSTM": ("FRACTAL_ZN_LSTM",),
    "FracZNRNN": ("FRACTAL_ZN_RNN",),
    "ND_RNNBIAS": ("ND_RNN_BIAS",),
    "ChannelLast": ("ChannelLast",),
    "Default_Tuple": ("DefaultFormat", "tuple"),
    "Default_List": ("DefaultFormat", "list"),
}
_BASIC = ["None", "Default", "5HD", "FracZ", "FracNZ", "C1HWNCoC0", "NCHW", "NHWC", "HWCN", "NDHWC", "ChannelLast"]
_SEQ = ["Default_Tuple", "Default_List"]
_FLOATS = _BASIC + ["NCDHW", "DHWCN", "NDC1HWC0", "FRACTAL_Z_3D", "FracZNLSTM", "FracZNRNN", "ND_RNNBIAS"] + _SEQ
_DATA_TYPES = {
    "BOOL": ("bool", _BASIC + _SEQ),
    "I8": ("int8", _BASIC + ["NCDHW", "NDC1HWC0", "NC1HWC0"] + _SEQ),
    "U8": ("uint8", _BASIC + ["NCDHW", "NDC1HWC0", "NC1HWC0"] + _SEQ),
    "I16": ("int16", _BASIC + _SEQ),
    "U16": ("uint16", _BASIC + _SEQ),
    "I32": ("int32", _BASIC + ["NDC1HWC0", "NCDHW"] + _SEQ),
    "U32": ("uint32", _BASIC + _SEQ),
    "I64": ("int64", _BASIC + _SEQ),
    "U64": ("uint64", _BASIC + _SEQ),
    "F16": ("float16", _FLOATS),
    "F32": ("float32", _FLOATS),
    "F64": ("float64", _BASIC + _SEQ),
    "BF16": ("bfloat16", _FLOATS),
    "C64": ("complex64", ["Default", "Default_Tuple"]),
    "C128": ("complex128", ["Default", "Default_Tuple"]),
}


class DataType:
    """(dtype, format) combinations for ``dtype_format``: ``DataType.F32_Default == ("float32", "DefaultFormat")``,
    ``DataType.F16_5HD == ("float16", "NC1HWC0")``, ``DataType.I32_Default_Tuple == ("int32", "DefaultFormat",
    "tuple")``, ``DataType.None_None == ("", "")`` ..., MindSpore's full table."""

    None_None = ("", "")
    None_Default = ("", "DefaultFormat")


for _prefix, (_dtype, _suffixes) in _DATA_TYPES.items():
    for _suffix in _suffixes:
        setattr(DataType, f"{_prefix}_{_suffix}", (_dtype, *_FORMATS[_suffix]))
del _prefix, _dtype, _suffixes, _suffix

_REGISTERED: dict[str, list[dict]] = {}


def registered_op_info(op_name: str | None = None) -> Any:
    """What ``op_info_register`` recorded: the operator information dicts of `op_name` (all when None)."""
    return _REGISTERED if op_name is None else _REGISTERED.get(op_name, [])


def op_info_register(op_info: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A decorator recording an operator's information (a JSON string or dict, e.g. from
    ``CpuRegOp(...).get_op_info()``) and returning the function unchanged in behaviour. XLA has no kernel
    library to add it to; the record is readable with :func:`registered_op_info`.

    Raises:
        TypeError: If `op_info` is neither a str nor a dict.
        ValueError: If it is not valid JSON or has no ``op_name``.
    """

    def register_decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        text = json.dumps(op_info) if isinstance(op_info, dict) else op_info
        if not isinstance(text, str):
            raise TypeError(f"The 'op_info' must be str or dict, but got {type(op_info).__name__}.")
        try:
            info = json.loads(text)
        except json.JSONDecodeError:
            info = None
        if not isinstance(info, dict) or not info.get("op_name"):
            raise ValueError(f"Invalid op info {getattr(func, '__qualname__', func)}:\n{text}\n")
        _REGISTERED.setdefault(info["op_name"], []).append(info)

        @functools.wraps(func)
        def wrapped_function(*args: Any, **kwargs: Any) -> Any:
            return func(*args, **kwargs)

        return wrapped_function

    return register_decorator


def custom_info_register(*reg_info: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A decorator binding registration information (``CustomRegOp(...).get_op_info()`` dicts or JSON strings)
    to a ``Custom`` operator's `func`: the function gets a ``reg_info`` attribute (a tuple) and is returned
    wrapped, unchanged in behaviour."""

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        func.reg_info = reg_info  # type: ignore[attr-defined]

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return func(*args, **kwargs)

        return wrapper

    return decorator
