"""The Python-number ops of ``ops.functional`` (MindSpore's ScalarAdd()... instances) against Python's own
operators (MindSpore's results for (7, 2), (7.5, 2), (-7, 2) are Python's), and DtypeToEnum's TypeId numbers."""

import math
import operator

import pytest

import sporax as ms
from sporax import ops
from sporax.ops import functional as F

CASES = [
    ("scalar_add", F.scalar_add, operator.add),
    ("scalar_sub", F.scalar_sub, operator.sub),
    ("scalar_mul", F.scalar_mul, operator.mul),
    ("scalar_div", F.scalar_div, operator.truediv),
    ("scalar_floordiv", F.scalar_floordiv, operator.floordiv),
    ("scalar_mod", F.scalar_mod, operator.mod),
    ("scalar_pow", F.scalar_pow, operator.pow),
    ("scalar_max", F.scalar_max, max),
    ("scalar_min", F.scalar_min, min),
    ("scalar_eq", F.scalar_eq, operator.eq),
    ("scalar_ge", F.scalar_ge, operator.ge),
    ("scalar_gt", F.scalar_gt, operator.gt),
    ("scalar_le", F.scalar_le, operator.le),
    ("scalar_lt", F.scalar_lt, operator.lt),
]


@pytest.mark.parametrize("name,fn,ref", CASES, ids=[c[0] for c in CASES])
def test_binary_scalar_ops(name, fn, ref):
    assert getattr(ops, name) is fn
    for x, y in [(7, 2), (7.5, 2), (-7, 2)]:
        out = fn(x, y)
        assert out == ref(x, y) and type(out) is type(ref(x, y))
    assert fn(ms.Tensor(7), 2) == ref(7, 2)


def test_unary_scalar_ops_and_errors():
    assert F.scalar_log(8.0) == math.log(8.0) and F.scalar_log(1) == 0.0
    assert F.scalar_uadd(3) == 3 and F.scalar_usub(3) == -3
    for fn in (F.scalar_div, F.scalar_floordiv, F.scalar_mod):
        with pytest.raises(ValueError, match="The divisor could not be zero. But the divisor is zero now."):
            fn(1, 0)
    with pytest.raises(TypeError):
        F.scalar_add(1, "a")


def test_dtype_to_enum():
    d = ops.DtypeToEnum()
    assert F.DtypeToEnum is ops.DtypeToEnum
    assert [d("Cast", "dtype", t) for t in (ms.bool_, ms.int32, ms.int64, ms.float16, ms.float32, ms.bfloat16)] == [
        30,
        34,
        35,
        42,
        43,
        45,
    ]
    with pytest.raises(TypeError, match="For 'Cast', the input 'dtype' should be mindspore dtype, but got 3."):
        d("Cast", "dtype", 3)


def test_scalar_cast():
    assert F.scalar_cast is ops.function.scalar_cast
    assert F.scalar_cast(3.7, ms.int64) == 3 and type(F.scalar_cast(3.7, ms.int64)) is int
    assert F.scalar_cast(-3.7, ms.int64) == -3
    assert F.scalar_cast(3, ms.float64) == 3.0 and type(F.scalar_cast(3, ms.float64)) is float
    assert F.scalar_cast(1, ms.bool_) is True
    with pytest.raises(TypeError, match="For 'ScalarCast', the type of 'x' should be one of"):
        F.scalar_cast(ms.Tensor(2.5), ms.int64)
    with pytest.raises(ValueError, match="For 'ScalarCast', the supported type is in the list"):
        F.scalar_cast(2, "int")
