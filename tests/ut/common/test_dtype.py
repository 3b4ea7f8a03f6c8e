"""dtype objects: names, NumPy mapping, Python types, aliases, pickling, use in ops."""

import pickle

import ml_dtypes
import numpy as np
import pytest

import sporax as ms
from sporax.common import dtype as mstype

PAIRS = [
    (ms.bool_, np.bool_, "Bool"),
    (ms.int8, np.int8, "Int8"),
    (ms.int16, np.int16, "Int16"),
    (ms.int32, np.int32, "Int32"),
    (ms.int64, np.int64, "Int64"),
    (ms.uint8, np.uint8, "UInt8"),
    (ms.uint16, np.uint16, "UInt16"),
    (ms.uint32, np.uint32, "UInt32"),
    (ms.uint64, np.uint64, "UInt64"),
    (ms.float16, np.float16, "Float16"),
    (ms.float32, np.float32, "Float32"),
    (ms.float64, np.float64, "Float64"),
    (ms.bfloat16, ml_dtypes.bfloat16, "BFloat16"),
    (ms.complex64, np.complex64, "Complex64"),
    (ms.complex128, np.complex128, "Complex128"),
]


@pytest.mark.parametrize("t,np_t,name", PAIRS, ids=[p[2] for p in PAIRS])
def test_numpy_mapping_and_names(t, np_t, name):
    # MindSpore 2.10: str(ms.int32) == 'Int32', repr(ms.int32) == 'mindspore.int32' (repr(ms.bool_) 'mindspore.bool')
    assert str(t) == name
    assert repr(t) == "mindspore." + ("bool" if name == "Bool" else name.lower())
    assert mstype.to_np(t) == np.dtype(np_t)
    assert mstype.from_np(np.dtype(np_t)) is t
    assert mstype.dtype_to_nptype(t) is np.dtype(np_t).type
    assert pickle.loads(pickle.dumps(t)) is t
    x = ms.Tensor(np.zeros(2, np_t))
    assert x.dtype is t
    assert ms.Tensor([1, 0], t).dtype is t


def test_name_property_and_equality():
    assert ms.float32.name == "float32" and ms.bool_.name == "bool"
    assert ms.float32 == ms.float32 and ms.float32 != ms.float16
    assert ms.float32 != "float32"
    assert len({ms.float32, ms.float32, ms.int32}) == 2


def test_aliases():
    assert ms.float_ is ms.float32 and ms.single is ms.float32 and ms.half is ms.float16 and ms.double is ms.float64
    assert ms.int_ is ms.int64 and ms.short is ms.int16 and ms.intc is ms.int32
    assert ms.ubyte is ms.uint8 and ms.byte is ms.int8
    assert ms.dtype is mstype and ms.mstype is mstype


def test_categories():
    assert isinstance(ms.bfloat16, mstype.Float) and mstype.is_float(ms.float16)
    assert mstype.is_int(ms.uint8) and mstype.is_int(ms.int64) and not mstype.is_int(ms.bool_)
    assert ms.int32 in mstype.int_type and ms.uint8 in mstype.uint_type and ms.float64 in mstype.float_type
    # MindSpore 2.10 lists int4 (qint4x2), float8_e4m3fn, float8_e5m2 and hifloat8 too
    extra = {mstype.qint4x2, mstype.float8_e4m3fn, mstype.float8_e5m2, mstype.hifloat8}
    assert set(mstype.all_types) == {p[0] for p in PAIRS} | extra


def test_python_types():
    assert mstype.pytype_to_dtype(int) is ms.int64
    assert mstype.pytype_to_dtype(float) is ms.float32
    assert mstype.pytype_to_dtype(bool) is ms.bool_
    assert mstype.pytype_to_dtype(complex) is ms.complex64
    assert mstype.pytype_to_dtype(np.float16) is ms.float16
    assert mstype.dtype_to_pytype(ms.int8) is int and mstype.dtype_to_pytype(ms.float16) is float
    assert mstype.dtype_to_pytype(ms.bool_) is bool
    assert mstype.get_py_obj_dtype(1.0) is ms.float32 and mstype.get_py_obj_dtype(ms.Tensor([1])) is ms.int64
    assert mstype.to_np(float) == np.float32 and mstype.to_np(int) == np.int64


def test_errors():
    with pytest.raises(TypeError, match="not supported by sporax"):
        mstype.from_np(np.dtype("U3"))
    with pytest.raises(TypeError, match="has no array representation"):
        mstype.to_np(mstype.string)
    with pytest.raises(TypeError, match="has no Python type"):
        mstype.dtype_to_pytype(mstype.string)


def test_dtype_in_ops():
    x = ms.Tensor([1.5, 2.5])
    assert ms.ops.cast(x, ms.int32).dtype is ms.int32
    assert ms.ops.zeros((2,), ms.bfloat16).dtype is ms.bfloat16
    assert ms.ops.DType()(x) is ms.float32
    assert ms.ops.ones((1,), ms.complex64).dtype is ms.complex64
