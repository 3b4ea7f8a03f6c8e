"""Debug and control ops: Print/print_, Assert, CheckNumerics, TensorDump/tensordump, the gradient hooks
(HookBackward, InsertGradientOf, DumpGradient), the summary ops, UpdateState/Partial/partial and the
functional loops (WhileLoop, ForiLoop, Scan), eagerly and inside compiled code."""

import numpy as np
import pytest

import sporax as ms
from sporax import ops
from sporax.ops.function import debug_func


def T(a, dtype=None):
    return ms.Tensor(np.asarray(a), dtype)


def test_print_eager_and_compiled(capsys):
    x = T(np.array([1.0, 2.0], np.float32))
    ops.Print()("hello", x)
    ops.print_("a", 3)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hello" and out[1].startswith("Tensor(shape=[2], dtype=Float32") and out[2:] == ["a", "3"]

    @ms.jit
    def f(t):
        ops.print_("inside", t * 2)
        return t

    f(x)
    out = capsys.readouterr().out
    assert "inside" in out and "[2. 4.]" in out


def test_assert_and_check_numerics():
    ops.Assert()(T(True), [T([1.0])])
    with pytest.raises(RuntimeError, match="For 'Assert' condition is false.\ninput data: \\[1. 2. 3.\\]"):
        ops.Assert(summarize=3)(T(False), [T(np.array([1.0, 2.0, 3.0, 4.0]))])
    eq = ops.CheckNumerics()(T([1.0, 2.0]))
    assert eq.shape == (2,)
    with pytest.raises(RuntimeError, match="For 'CheckNumerics', Tensor had NaN values."):
        ops.CheckNumerics()(T([1.0, np.nan]))
    with pytest.raises(RuntimeError, match="Tensor had Inf values"):
        ops.CheckNumerics()(T([np.inf]))


def test_tensordump(tmp_path):
    x = T(np.arange(3, dtype=np.float32))
    ops.tensordump(str(tmp_path / "a"), x)
    np.testing.assert_array_equal(np.load(tmp_path / "a_float32_0.npy"), [0, 1, 2])
    ops.TensorDump()(str(tmp_path / "sub" / "b"), x)
    assert (tmp_path / "sub" / "b_float32_0.npy").exists()
    ms.jit(lambda t: ops.tensordump(str(tmp_path / "c"), t * 2) or t)(x)
    np.testing.assert_array_equal(np.load(tmp_path / "c_float32_0.npy"), [0, 2, 4])
    with pytest.raises(ValueError, match="For 'TensorDump', the 'mode' must be 'out', 'in' or 'all'"):
        ops.tensordump(str(tmp_path / "d"), x, "bad")


def test_gradient_hooks(tmp_path):
    x = T(np.array([1.0, 2.0]))
    g = ms.grad(lambda t: ops.sum(ops.InsertGradientOf(lambda d: d * 3)(t) ** 2))(x)
    np.testing.assert_allclose(g.asnumpy(), 6 * x.asnumpy())
    seen = []
    g = ms.grad(lambda t: ops.sum(ops.HookBackward(seen.append)(t) * 5))(x)
    np.testing.assert_allclose(g.asnumpy(), [5, 5])
    np.testing.assert_allclose(seen[0].asnumpy(), [5, 5])
    g = ms.grad(lambda t: ops.sum(ops.HookBackward(lambda d: d * 0)(t) * 5))(x)
    np.testing.assert_allclose(g.asnumpy(), [0, 0])
    g = ms.grad(lambda t: ops.sum(ops.DumpGradient()(str(tmp_path / "g"), t, "in") * 4))(x)
    np.testing.assert_allclose(np.load(tmp_path / "g_float64_0.npy"), [4, 4])
    with pytest.raises(TypeError, match="For 'HookBackward', the 'hook_fn' must be callable"):
        ops.HookBackward(3)


def test_summary_ops_record_values():
    ops.ScalarSummary()("loss", T(1.5))
    ops.TensorSummary()("w", T([1.0, 2.0]))
    ops.HistogramSummary()("h", T([1.0, 2.0]))
    ops.ImageSummary()("img", T(np.zeros((1, 3, 2, 2), np.float32)))
    cache = debug_func._SUMMARY_CACHE
    assert float(cache["loss[:Scalar]"].asnumpy()) == 1.5
    assert {"w[:Tensor]", "h[:Histogram]", "img[:Image]"} <= set(cache)
    with pytest.raises(ValueError, match="For 'ScalarSummary', the 'value' must hold one element"):
        ops.ScalarSummary()("bad", T([1.0, 2.0]))
    with pytest.raises(ValueError, match="For 'ImageSummary', the 'value' must be 4-D"):
        ops.ImageSummary()("bad", T([1.0]))


def test_update_state_and_partial():
    x = T([1.0])
    assert ops.UpdateState()(x, T([2.0])) is x
    add3 = ops.Partial()(lambda a, b: a + b, 3)
    assert add3(4) == 7
    assert ops.function.partial(lambda a, b: a * b, 3)(4) == 12


def test_functional_loops_eager_and_compiled():
    assert int(ops.WhileLoop()(lambda v: v < 10, lambda v: v + 3, T(0)).asnumpy()) == 12
    assert int(ops.ForiLoop()(0, 4, lambda i, v: v + i, T(0)).asnumpy()) == 6
    carry, ys = ops.Scan()(lambda c, x: (c + x, c * x), T(0.0), [T(1.0), T(2.0), T(3.0)])
    assert float(carry.asnumpy()) == 6.0 and [float(y.asnumpy()) for y in ys] == [0.0, 2.0, 9.0]
    carry, ys = ops.Scan()(lambda c, x: (c + 1, c), T(0), None, 2)
    assert int(carry.asnumpy()) == 2 and len(ys) == 2
    f = ms.jit(lambda t: ops.WhileLoop()(lambda v: v < 10, lambda v: v + 3, t))
    assert int(f(T(0)).asnumpy()) == 12
    g = ms.jit(lambda t, n: ops.ForiLoop()(0, n, lambda i, v: v + i, t))
    assert int(g(T(0), T(5)).asnumpy()) == 10
    with pytest.raises(TypeError, match="For 'Scan', the 'length' must be an int"):
        ops.Scan()(lambda c, x: (c, x), T(0), None)
