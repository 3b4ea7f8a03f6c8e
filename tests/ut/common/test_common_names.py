"""Names of the top level / ``common`` / ``common.dtype`` / ``common.initializer`` / ``context`` checked by
value: dtype aliases, initializers, ``mutable``, the parallel and parameter-server contexts, ``run_check``.
Expected values are MindSpore 2.10's (quoted at each check, or in fixtures/top_reference.json)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax.common import dtype as mstype
from sporax.common import initializer as init

REF = json.loads((Path(__file__).parent / "fixtures" / "top_reference.json").read_text())["dtype"]


def test_dtype_aliases():
    # MindSpore 2.10: cfloat/cdouble are complex64/complex128, long/intp int64, ushort/uintc/uintp uint16/32/64
    assert ms.cfloat is ms.complex64 and ms.cdouble is ms.complex128 and ms.common.cfloat is mstype.cfloat
    assert ms.long is ms.int64 and ms.intp is ms.int64 and ms.common.long is ms.common.intp
    assert (ms.ushort, ms.uintc, ms.uintp) == (ms.uint16, ms.uint32, ms.uint64)
    assert (ms.common.ushort, ms.common.uintc, ms.common.uintp) == (mstype.ushort, mstype.uintc, mstype.uintp)
    for name in ("cfloat", "cdouble", "long", "intp", "ushort", "uintc", "uintp"):
        assert repr(getattr(mstype, name)) == REF[name][0]
    # sporax keeps uint as uint64 (MindSpore's is the generic UInt type, which no tensor can have)
    assert ms.uint is ms.common.uint is mstype.uint is ms.uint64
    # the non-tensor types
    for name in ("list_", "tuple_", "type_none", "_null", "number"):
        t = getattr(mstype, name)
        assert [repr(t), str(t)] == REF[name] and getattr(ms.common, name) is t
        with pytest.raises(TypeError, match="no array representation"):
            mstype.to_np(t)
    assert ms.list_ is mstype.list_ and ms.tuple_ is mstype.tuple_ and ms.type_none is mstype.type_none
    # MindSpore 2.10: isinstance(ms.float32, ms.Type) and ms.common.Type is ms.Type
    assert isinstance(ms.float32, ms.Type) and ms.common.Type is ms.Type and mstype.Type is ms.Type


def _fill(initr, shape):
    return init.initializer(initr, shape, ms.float32).asnumpy()


def test_initializers():
    ms.set_seed(1)
    assert not _fill(init.Zero(), (3, 4)).any()
    # MindSpore 2.10: Dirac on (2, 2, 3, 3) puts the identity at the kernel centre
    d = _fill(init.Dirac(groups=1), (2, 2, 3, 3))
    np.testing.assert_array_equal(d[:, :, 1, 1], np.eye(2))
    assert d.sum() == 2
    he = _fill(init.HeNormal(), (256, 128))  # std = sqrt(2 / fan_in), fan_in 128 (leaky_relu, slope 0)
    assert abs(he.std() - math.sqrt(2 / 128)) < 0.01 * math.sqrt(2 / 128) * 10
    xu = _fill(init.XavierUniform(), (100, 50))  # bound sqrt(6 / (fan_in + fan_out))
    assert np.abs(xu).max() <= math.sqrt(6 / 150) and np.abs(xu).max() > 0.9 * math.sqrt(6 / 150)
    vs = _fill(init.VarianceScaling(scale=2.0, mode="fan_out", distribution="untruncated_normal"), (200, 100))
    assert abs(vs.std() - math.sqrt(2.0 / 200)) < 0.1 * math.sqrt(2.0 / 200)
    sp = _fill(init.Sparse(sparsity=0.5, sigma=0.01), (10, 6))
    assert ((sp == 0).sum(0) == 5).all()  # ceil(0.5 * 10) zeros in every column

    class Halves(init.Initializer):
        def _initialize(self, arr):
            arr.fill(0.5)

    np.testing.assert_array_equal(_fill(Halves(), (2, 2)), np.full((2, 2), 0.5))
    assert isinstance(init.Zero(), init.Initializer)


def test_mutable():
    t = ms.Tensor([1.0, 2.0])
    assert ms.mutable(t) is t and ms.common.mutable is ms.mutable
    pair = ms.mutable((t, t), True)
    assert isinstance(pair, tuple) and len(pair) == 2

    @ms.jit
    def f(xs):
        return xs[0] + xs[1]

    np.testing.assert_array_equal(f(ms.mutable([t, t])).asnumpy(), [2.0, 4.0])
    with pytest.raises(TypeError, match="For 'mutable', the 'dynamic_len' must be a bool"):
        ms.mutable(t, 1)


def test_context_helpers():
    # MindSpore 2.10: get_auto_parallel_context('device_num') 1, 'parallel_mode' stand_alone; enable_ps False
    assert ms.context.get_auto_parallel_context("device_num") == 1
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    ms.context.set_auto_parallel_context(device_num=4)
    assert ms.context.get_auto_parallel_context("device_num") == 4
    ms.context.reset_auto_parallel_context()
    assert ms.reset_auto_parallel_context is ms.context.reset_auto_parallel_context
    assert ms.context.get_auto_parallel_context("device_num") == 1
    assert ms.context.get_ps_context("enable_ps") is False
    ms.context.set_ps_context(enable_ps=False)
    assert ms.context.get_ps_context("enable_ps") is False


def test_run_check(capsys):
    ms.run_check()
    out = capsys.readouterr().out
    assert "The result of multiplication calculation is correct" in out and "installed on platform [CPU]" in out


def test_symbol():
    # MindSpore 2.10: str(Symbol(max=8, min=1, divisor=2)) == "{'max': 8, 'divisor': 2}"
    s = ms.Symbol(max=8, min=1, divisor=2)
    assert str(s) == "{'max': 8, 'divisor': 2}" and ms.common.Symbol is ms.Symbol
    assert list(ms.Symbol(min=4, divisor=2, remainder=1, unique=True).to_dict()) == [
        "min",
        "divisor",
        "remainder",
        "id",
    ]
    assert s.accepts(4) and not s.accepts(5) and not s.accepts(10)
    for bad, cls, msg in [
        ({"min": 0}, ValueError, "For 'Symbol', the 'min' value should be positive, but got 0"),
        ({"divisor": 0}, ValueError, "For 'Symbol', the 'divisor' value should be positive, but got 0"),
        (
            {"remainder": 3, "divisor": 2},
            ValueError,
            "the 'remainder' value should be in the range '[0, 2)', but got 3",
        ),
        ({"max": 1.5}, TypeError, "For 'Symbol', the argument 'max' must be int, but got <class 'float'>"),
        ({"unique": 1}, TypeError, "For 'Symbol', the argument 'unique' must be bool, but got <class 'int'>"),
    ]:
        with pytest.raises(cls) as info:
            ms.Symbol(**bad)
        assert msg in str(info.value)


def test_swap_tensors():
    # MindSpore 2.10: after swap_tensors(a, b) of two Parameters, a is named 'b' and holds b's value
    a = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="a")
    b = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="b")
    ms.swap_tensors(a, b)
    assert a.name == "b" and b.name == "a"
    np.testing.assert_array_equal(a.asnumpy(), np.zeros(3))
    np.testing.assert_array_equal(b.asnumpy(), np.ones(2))
    x, y = ms.Tensor([1, 2]), ms.Tensor([3.0])
    ms.common.swap_tensors(x, y)
    assert x.dtype is ms.float32 and y.asnumpy().tolist() == [1, 2]
    with pytest.raises(RuntimeError, match="same class"):
        ms.swap_tensors(x, a)


def test_set_recursion_limit():
    import sys

    before = ms.get_context("max_call_depth")
    ms.set_recursion_limit(5000)
    try:
        assert ms.get_context("max_call_depth") == 5000 and sys.getrecursionlimit() >= 5000
    finally:
        ms.common.set_recursion_limit(before)
    # MindSpore 2.10's message
    with pytest.raises(ValueError, match=r"^The input value must be int and must > 0, but got '0' with type 'int'\.$"):
        ms.set_recursion_limit(0)


def test_parallel_mode_is_a_class_of_strings():
    # MindSpore 2.10: plain str attributes, MODE_LIST, and this message for a bad mode
    assert ms.ParallelMode.DATA_PARALLEL == "data_parallel" and type(ms.ParallelMode.DATA_PARALLEL) is str
    assert ms.context.ParallelMode is ms.ParallelMode
    assert ms.ParallelMode.MODE_LIST == [
        "stand_alone",
        "data_parallel",
        "hybrid_parallel",
        "semi_auto_parallel",
        "auto_parallel",
    ]
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    try:
        assert ms.get_auto_parallel_context("parallel_mode") == "semi_auto_parallel"
    finally:
        ms.reset_auto_parallel_context()
    msg = (
        "The context configuration parameter 'parallel_mode' only support 'stand_alone', 'data_parallel', "
        "'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', but got the value : xx."
    )
    with pytest.raises(ValueError) as info:
        ms.set_auto_parallel_context(parallel_mode="xx")
    assert str(info.value) == msg
