"""sporax._checkparam: MindSpore's validators and their exact messages (recorded under MindSpore 2.10's
``mindspore._checkparam``, which takes the same arguments)."""

import re

import numpy as np
import pytest

import sporax as ms
from sporax import _checkparam as v


def _raises(cls, msg, fn, *args):
    with pytest.raises(cls, match="^" + re.escape(msg) + "$"):
        fn(*args)


def test_numbers_messages():
    _raises(TypeError, "For 'P', the 'a' must be int and must > 0, but got 'True' with type 'bool'.",
            v.check_positive_int, True, "a", "P")  # fmt: skip
    _raises(TypeError, "For 'P', the 'a' must be int, but got 'int64'", v.check_positive_int, np.int64(3), "a", "P")
    _raises(TypeError, "The 'a' must be float, but got 'int'", v.check_positive_float, 3, "a")
    _raises(ValueError, "The 'f' must be a legal value, but got 'nan'.", v.check_positive_float, float("nan"), "f")
    _raises(ValueError, "For 'P', the 'e' must be int and must = 4, but got '3' with type 'int'.",
            v.check_equal_int, 3, 4, "e", "P")  # fmt: skip
    _raises(ValueError, "The input value must be int and must >= 0, but got '-1' with type 'int'.",
            v.check_non_negative_int, -1)  # fmt: skip
    _raises(ValueError, "For 'P', the 'dims[1]' must be int and must > 0, but got '0' with type 'int'.",
            v.check_positive_int_sequence, (1, 0), "dims", "P")  # fmt: skip
    _raises(TypeError, "For 'P', the type of 'i' must be 'int', but got 'float'.", v.check_is_int, 1.0, "i", "P")
    _raises(TypeError, "For 'P', the type of 'i' must be 'float', but got 'float32'.",
            v.check_is_float, np.float32(1.0), "i", "P")  # fmt: skip
    assert v.check_positive_int(3, "a") == 3
    assert v.check_non_negative_float(0.0, "a") == 0.0
    assert v.check_int(5, 5, v.GE, "n") == 5
    assert v.check_float(0.5, 1.0, v.LT, "x") == 0.5


def test_ranges():
    _raises(TypeError, "The 'f' must be 'float',  but got 'int'.", v.check_float_range, 1, 0.0, 1.0, v.INC_NEITHER, "f")
    _raises(ValueError, "The 'f' must be in range of (0.0, 1.0), but got 1.5 with type 'float32'.",
            v.check_float_range, np.float32(1.5), 0.0, 1.0, v.INC_NEITHER, "f")  # fmt: skip
    _raises(ValueError, "For 'P', the 'i' must be in range of [0, 3), but got 5 with type 'int'.",
            v.check_int_range, 5, 0, 3, v.INC_LEFT, "i", "P")  # fmt: skip
    for rel, lo_ok, hi_ok in [(v.INC_NEITHER, 0, 0), (v.INC_LEFT, 1, 0), (v.INC_RIGHT, 0, 1), (v.INC_BOTH, 1, 1)]:
        for value, ok in ((0, lo_ok), (3, hi_ok), (1, 1)):
            if ok:
                assert v.check_int_range(value, 0, 3, rel) == value
            else:
                with pytest.raises(ValueError):
                    v.check_int_range(value, 0, 3, rel)


def test_relations():
    _raises(ValueError, "For 'P', the 'x' should be = y: 4, but got 3.", v.check, "x", 3, "y", 4, v.EQ, "P")
    _raises(
        TypeError, "The x shape should be >= y: 4, but got 3.", v.check, "x shape", 3, "y", 4, v.GE, None, TypeError
    )
    _raises(ValueError, "For 'P', the argument 'n' must > 5, but got 3.", v.check_number, "n", 3, 5, v.GT, "P")
    assert v.check("x", (1, 2), "y", (1, 2)) == (1, 2)


def test_types_and_strings():
    _raises(TypeError, "For 'P', the type of 'a' should be one of '['int', 'bool']', but got type 'float'.",
            v.check_value_type, "a", 1.5, [int, bool], "P")  # fmt: skip
    _raises(TypeError, "The type of 'a' should be 'int', but got type 'float'.", v.check_value_type, "a", 1.5, int)
    _raises(TypeError, "The type of 'a' should be 'int', but got type 'bool'.", v.check_value_type, "a", True, [int])
    assert v.check_value_type("a", True, [bool, int]) is True
    _raises(TypeError, "For 'P', the 'b' must be a bool, but got int.", v.check_bool, 1, "b", "P")
    _raises(TypeError, "The input value must be a bool, but got str.", v.check_bool, "x")
    _raises(ValueError, "For 'P', the 'm' must be str and must be in '['a', 'b']', but got 'c'.",
            v.check_string, "c", ["a", "b"], "m", "P")  # fmt: skip
    _raises(ValueError, "The 'parameter' must be str and must be in '['a', 'b']', but got 'c'.",
            v.check_string, "c", ["a", "b"])  # fmt: skip
    _raises(TypeError, "For 'P', the type of 'e' should be int, but got 'a' with type 'str'.",
            v.check_element_type_of_iterable, "e", [1, "a"], [int], "P")  # fmt: skip
    _raises(ValueError, "For 'P', the argument 'x'can not be None, but got None.", v.check_valid_input, "x", None, "P")
    with pytest.raises(ValueError, match="is illegal, it must be match regular"):
        v.check_str_by_regular("a b")
    assert v.check_str_by_regular("conv1.weight")
    with pytest.raises(ValueError, match="must be isinstance of"):
        v.check_isinstance("p", 1, str)


def test_dtypes():
    # MindSpore prints the listed dtypes by repr ('mindspore.float32' in MindSpore 2.10)
    msg = f"For 'P', the 'dtype' should be one of [{ms.float32!r}, {ms.int32!r}], but got '{ms.float16!r}'."
    _raises(TypeError, msg, v.check_type_name, "dtype", ms.float16, [ms.float32, ms.int32], "P")
    assert v.check_type_name("dtype", ms.float32, [ms.float32], "P") is ms.float32
    with pytest.raises(
        TypeError, match="For 'P', the element of 'x' must be one of Float32, Float16, but got Int8.The"
    ):
        v.check_tensor_dtype_valid("x", ms.int8, [ms.float32, ms.float16], "P")
    with pytest.raises(TypeError, match="the type of 'y' should be same as 'x'"):
        v.check_tensors_dtypes_same_and_valid({"x": ms.float32, "y": ms.float16}, [ms.float32, ms.float16], "P")


def test_axes():
    _raises(ValueError, "The 'axis' must be in the range of [-2, 2), but got 3.", v.check_axis_in_range, 3, 2)
    _raises(TypeError, "The axes must be integers, but got <class 'float'>", v.check_axis_in_range, 1.0, 2)
    assert v.check_axis_in_range(-1, 3) == 2
    assert v.check_axis_valid(None, 2) == (0, 1)
    assert v.check_axis_valid([-1, 0], 2) == (1, 0)
    with pytest.raises(ValueError, match="can not be duplicate"):
        v.check_axis_valid([1, -1], 2)


def test_sporax_forms():
    _raises(TypeError, "For 'Momentum', the 'momentum' must be float, but got '1' with type 'int'.",
            v.check_arg_type, "momentum", 1, [float], "Momentum")  # fmt: skip
    _raises(TypeError, "The 'x' must be [int, float], but got 'True' with type 'bool'.",
            v.check_arg_type, "x", True, (int, float))  # fmt: skip
    _raises(ValueError, "For 'UniformReal', the 'seed' must be >= 0, but got -1.", v.check_int_arg, -1, "seed",
            "UniformReal", 0)  # fmt: skip
    assert v.check_int_arg(np.int64(3), "n", "Op", 1) == 3
    _raises(ValueError, "For 'Model.train', the 'epoch' must be a positive int, but got 0.",
            v.check_count, 0, "epoch", "Model.train")  # fmt: skip
    _raises(TypeError, "For 'Dense', the 'in_channels' must be an int, but got float.",
            v.check_count, 1.0, "in_channels", "Dense")  # fmt: skip
    _raises(ValueError, "For 'concat', the 'axis' must be in range [-2, 1], but got 2.", v.check_axis, 2, 2, "concat")
    assert v.check_axis(0, 0, "op") == 0
    _raises(ValueError, "Input seed is not within the required interval of [0, 10].", v.check_pipeline_int, 11, "seed",
            0, 10)  # fmt: skip
    with pytest.raises(TypeError, match=r"Argument num with value 'a' is not of type \[<class 'int'>\]"):
        v.check_pipeline_int("a", "num", 1, 4)


def test_check_instance_and_legal_floats():
    _raises(TypeError, "For 'WithLossCell', the 'backbone' must be a int, but got str.",
            v.check_instance, "x", int, "backbone", "WithLossCell")  # fmt: skip
    assert v.check_instance(3, int, "n", "Op") == 3
    _raises(ValueError, "The 'f' must be a legal value, but got 'inf'.", v.check_non_negative_float, float("inf"), "f")
    assert v.check_positive_int(10**400, "n") == 10**400  # a huge int is a legal int
