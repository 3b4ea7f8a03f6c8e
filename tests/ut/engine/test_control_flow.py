"""Python control flow on tensor values under jit / GRAPH_MODE (the AST rewrite in _engine._autograph).

Every form runs compiled with inputs that take each path and is compared with the same code run eagerly.
"""

import logging

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


def _t(a, dtype=np.float32):
    return Tensor(np.asarray(a, dtype))


def _np(x):
    if isinstance(x, (tuple, list)):
        return [_np(v) for v in x]
    return x.asnumpy() if isinstance(x, Tensor) else np.asarray(x)


def _same(fn, *inputs_list):
    """fn compiled with @ms.jit gives what fn gives eagerly, for each tuple of inputs."""
    jf = ms.jit(fn)
    for inputs in inputs_list:
        want = fn(*inputs)
        got = jf(*inputs)
        for w, g in zip(
            _np(want) if isinstance(want, tuple) else [_np(want)], _np(got) if isinstance(got, tuple) else [_np(got)]
        ):
            np.testing.assert_allclose(g, w, rtol=1e-6)
    return jf


POS, NEG = (_t([1.0, 2.0]),), (_t([-1.0, -2.0]),)


# ------------------------------------------------------------------------------ if / else
def test_if_else_on_a_tensor_both_branches():
    def f(x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        return y + 1

    _same(f, POS, NEG)


def test_elif_chain_and_if_without_else():
    def f(x):
        y = x
        s = x.sum()
        if s > 10:
            y = y * 10
        elif s > 0:
            y = y * 2
        elif s > -10:
            y = y - 5
        else:
            y = -y
        if s < 0:
            y = y + 100
        return y

    _same(f, (_t([5.0, 6.0]),), POS, NEG, (_t([-50.0, 0.0]),))


def test_nested_conditions():
    def f(x, z):
        if x.sum() > 0:
            if z.sum() > 0:
                out = x + z
            else:
                out = x - z
        else:
            out = x * z if z.sum() > 0 else x / z
        return out

    z_pos, z_neg = _t([3.0, 4.0]), _t([-3.0, -4.0])
    _same(f, (POS[0], z_pos), (POS[0], z_neg), (NEG[0], z_pos), (NEG[0], z_neg))


def test_early_return_in_both_branches_and_after_an_if():
    def f(x):
        if x.sum() > 0:
            return x * 2
        return x * 3

    def g(x):
        if x.sum() > 0:
            return x * 2, x.sum()
        else:
            return -x, x.sum() * 0

    _same(f, POS, NEG)
    _same(g, POS, NEG)


def test_python_conditions_stay_python():
    traced_branches = []

    def f(x, flag):
        if flag:
            traced_branches.append("flag")
            x = x + 1
        if isinstance(x, Tensor) and len(x.shape) == 1 and x.shape[0] == 2:
            x = x * 2
        if x.sum() > 0:  # a tensor condition, so the function is converted
            x = x - 1
        return x

    jf = _same(f, (POS[0], False), (NEG[0], False))
    assert traced_branches == []  # the untaken Python branch was never traced
    np.testing.assert_allclose(jf(POS[0], True).asnumpy(), [3.0, 5.0])


def test_variable_assigned_in_one_branch_only():
    def unused_after(x):
        if x.sum() > 0:
            tmp = x * 2
            x = tmp + 1
        return x

    def defined_before(x):
        y = x
        if x.sum() > 0:
            y = x * 5
        return y

    _same(unused_after, POS, NEG)
    _same(defined_before, POS, NEG)


def test_variable_undefined_in_one_branch_and_used_after_is_a_clear_error():
    @ms.jit
    def f(x):
        if x.sum() > 0:
            y = x * 2
        return y

    with pytest.raises(UnboundLocalError, match=r"'y'.*test_control_flow\.py, line \d+"):
        f(POS[0])


def test_mismatched_branch_shapes_and_dtypes_are_clear_errors():
    @ms.jit
    def shapes(x):
        if x.sum() > 0:
            y = x
        else:
            y = ops.concat((x, x))
        return y

    @ms.jit
    def dtypes(x):
        if x.sum() > 0:
            y = x
        else:
            y = x.astype(ms.int32)
        return y

    with pytest.raises(ValueError, match=r"'y' is float32\[2\].*float32\[4\]"):
        shapes(POS[0])
    with pytest.raises(TypeError, match=r"'y' is float32\[2\].*int32\[2\]"):
        dtypes(POS[0])


def test_python_number_and_tensor_in_branches_and_ternary():
    def f(x):
        scale = 2.0 if x.sum() > 0 else 0.5
        if x.max() > 1:
            bias = 1.0
        else:
            bias = x.sum()
        return x * scale + bias

    _same(f, POS, NEG)


def test_boolean_operators_on_tensors():
    def f(x, y):
        both = x.sum() > 0 and y.sum() > 0
        either = x.sum() > 0 or y.sum() > 0
        neither = not either
        out = x
        if both:
            out = out + 1
        if either and not both:
            out = out + 10
        if neither:
            out = out + 100
        return out, neither

    for a in (POS[0], NEG[0]):
        for b in (POS[0], NEG[0]):
            jf = ms.jit(f)
            want, got = f(a, b), jf(a, b)
            np.testing.assert_allclose(got[0].asnumpy(), want[0].asnumpy())
            assert bool(got[1]) == bool(want[1])


# ------------------------------------------------------------------------------------ loops
def test_while_on_a_tensor_carries_locals():
    def f(x):
        i = 0
        total = x * 0
        while x.sum() < 50:
            x = x * 2
            total = total + x
            i += 1
        return x, total, i

    _same(f, (_t([1.0, 2.0]),), (_t([30.0, 40.0]),))


def test_while_with_break_and_continue():
    def f(x):
        n = x.sum() * 0
        acc = x * 0
        while n < 10:
            n = n + 1
            if n % 2 == 0:
                continue
            acc = acc + x * n
            if acc.sum() > 40:
                break
        return acc, n

    _same(f, (_t([1.0, 2.0]),), (_t([0.1, 0.2]),))


def test_for_over_python_values_is_unrolled():
    cells = [nn.ReLU(), nn.Tanh(), nn.Sigmoid()]

    def f(x):
        for cell in cells:
            x = cell(x)
        for i in range(3):
            x = x + i
        for k, v in {"a": 1.0, "b": 2.0}.items():
            x = x * v
        for row in ops.stack((x, x * 2)):
            x = x + row
        if x.sum() > 0:
            x = x / 2
        return x

    _same(f, POS, NEG)


def test_for_over_a_tensor_range_is_a_loop():
    def f(x, n):
        acc = x * 0
        for i in range(n):
            acc = acc + x * i
        return acc

    jf = ms.jit(f)
    for n in (0, 1, 4):
        nt = Tensor(n, ms.int64)
        np.testing.assert_allclose(jf(POS[0], nt).asnumpy(), f(POS[0], n).asnumpy())
    assert len(jf.__sporax_jit__._cache) == 1  # one program for every trip count


def test_break_on_a_tensor_inside_a_python_loop():
    def f(x):
        for i in range(6):
            if x.sum() > 20:
                break
            x = x * 2
        return x

    _same(f, (_t([1.0, 1.0]),), (_t([8.0, 8.0]),), (_t([30.0, 0.0]),))


def test_return_inside_a_loop():
    def f(x):
        for i in range(5):
            if x.sum() > 10:
                return x, i
            x = x + 3
        return x * 0, -1

    _same(f, (_t([1.0, 1.0]),), (_t([9.0, 9.0]),), (_t([-100.0, 0.0]),))


def test_loop_variable_changing_shape_is_a_clear_error():
    @ms.jit
    def f(x):
        while x.sum() < 10:
            x = ops.concat((x, x))
        return x

    with pytest.raises(ValueError, match=r"'x' is float32\[2\].*float32\[4\]"):
        f(POS[0])


# ------------------------------------------------------------------------------------ state
class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return (self.dense(x) ** 2).mean()


class _SkipOnOverflow(nn.Cell):
    """The loss-scaling pattern: `if finite: optimizer(grads)` with a real optimizer."""

    def __init__(self, net, opt):
        super().__init__()
        self.net, self.opt = net, opt
        self.grad_fn = ms.value_and_grad(net, None, opt.parameters)

    def construct(self, x, scale):
        loss, grads = self.grad_fn(x)
        grads = tuple(g * scale for g in grads)
        finite = ops.isfinite(grads[0]).all()
        for g in grads[1:]:
            finite = ops.logical_and(finite, ops.isfinite(g).all())
        if finite:
            self.opt(grads)
        return loss, not finite


@pytest.mark.parametrize("opt_cls", [nn.SGD, nn.Momentum])
def test_optimizer_update_only_when_a_tensor_condition_holds(opt_cls):
    def run(mode):
        ms.set_context(mode=mode)
        net = _Net()
        kw = {"momentum": 0.9} if opt_cls is nn.Momentum else {}
        opt = opt_cls(net.trainable_params(), learning_rate=0.1, **kw)
        step = _SkipOnOverflow(net, opt)
        x = _t(np.arange(6).reshape(2, 3) / 6)
        out = []
        for scale in (1.0, float("inf"), 1.0, float("nan")):
            loss, overflow = step(x, Tensor(scale, ms.float32))
            out.append((float(loss), bool(overflow), net.dense.weight.asnumpy(), net.dense.bias.asnumpy()))
        return out, [p.asnumpy() for p in opt.get_parameters()]

    (eager, eager_state), (graph, graph_state) = run(ms.PYNATIVE_MODE), run(ms.GRAPH_MODE)
    assert [o[1] for o in graph] == [False, True, False, True]
    for e, g in zip(eager, graph):
        assert e[:2] == pytest.approx(g[:2])
        np.testing.assert_allclose(g[2], e[2], rtol=1e-6)
        np.testing.assert_allclose(g[3], e[3], rtol=1e-6)
    np.testing.assert_allclose(graph[1][2], graph[0][2])  # the overflow step left the weights alone
    for a, b in zip(eager_state, graph_state):  # moments and step counters too
        np.testing.assert_allclose(b, a, rtol=1e-6)


def test_parameter_written_in_one_branch_keeps_its_value_in_the_other():
    p = Parameter(_t([0.0, 0.0]), name="p")
    q = Parameter(_t([5.0]), name="q")

    @ms.jit
    def f(x):
        if x.sum() > 0:
            ops.assign_add(p, x)
        else:
            ops.assign(q, q * 2)
        return p.sum() + q.sum()

    out = f(POS[0])
    np.testing.assert_allclose(p.asnumpy(), [1.0, 2.0])
    assert float(out) == 8.0 and float(q.sum()) == 5.0
    f(NEG[0])
    np.testing.assert_allclose(p.asnumpy(), [1.0, 2.0])
    assert float(q.sum()) == 10.0


def test_loop_carrying_parameter_state():
    count = Parameter(Tensor(0, ms.int32), name="count", requires_grad=False)
    acc = Parameter(_t([1.0]), name="acc")

    def f(x):
        while acc.sum() < x.sum():
            ops.assign(acc, acc * 2)
            ops.assign_add(count, Tensor(1, ms.int32))
        return acc * 1

    out = ms.jit(f)(_t([20.0]))
    assert float(out.sum()) == 32.0 and int(count) == 5
    ms.jit(f)(_t([100.0]))
    assert float(acc.sum()) == 128.0 and int(count) == 7


class _Gate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.hits = Parameter(Tensor(0.0, ms.float32), name="hits", requires_grad=False)

    def construct(self, x):
        if x.mean() > 0:
            ops.assign_add(self.hits, Tensor(1.0, ms.float32))
            return x * 2
        return -x


class _Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gates = nn.CellList([_Gate(), _Gate()])

    def construct(self, x):
        for gate in self.gates:
            x = gate(x) - 1
        return x


def test_graph_mode_cells_with_tensor_conditions_in_sub_cells():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Outer()
    for x, want in ((_t([3.0, 4.0]), [9.0, 13.0]), (_t([-3.0, -4.0]), [3.0, 5.0]), (_t([1.0, 0.0]), [-2.0, 0.0])):
        np.testing.assert_allclose(net(x).asnumpy(), want)
    assert [float(g.hits) for g in net.gates] == [2.0, 2.0]
    # PyNative runs the user's own code again
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(net(_t([3.0, 4.0])).asnumpy(), [9.0, 13.0])
    assert "__sporax" not in " ".join(_Gate.construct.__code__.co_varnames)


# ------------------------------------------------------------------------------ gradients
def _fd(fn, x, eps=1e-3):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        a, b = x.copy(), x.copy()
        a[i] += eps
        b[i] -= eps
        g[i] = (fn(a) - fn(b)) / (2 * eps)
    return g


def test_gradient_through_a_converted_if(caplog):
    def loss(x):
        if x.sum() > 0:
            y = (x * x).sum()
        else:
            y = ops.sqrt(-x).sum()  # NaN for positive x: must not leak into the other branch's gradient
        return y

    grad_fn = ms.grad(loss)
    with caplog.at_level(logging.WARNING, logger="sporax"):
        for x in ([1.0, 2.0], [-1.0, -4.0]):
            x = np.asarray(x, np.float64)
            g = grad_fn(Tensor(x)).asnumpy()
            np.testing.assert_allclose(g, _fd(lambda a: float(loss(Tensor(a))), x), rtol=1e-5)
            assert np.isfinite(g).all()
    assert not caplog.records  # compiled, no eager fallback


def test_gradient_through_a_converted_while(caplog):
    w = Parameter(Tensor(np.asarray([1.5, 0.5])), name="w")

    def loss(x):
        y = x
        while y.sum() < 20.0:
            y = y * w + 1.0
        return (y * y).sum()

    x = np.asarray([1.0, 2.0])
    vg = ms.value_and_grad(loss, 0, [w])
    with caplog.at_level(logging.WARNING, logger="sporax"):
        value, (gx, (gw,)) = vg(Tensor(x))
    assert not caplog.records
    assert float(value) == pytest.approx(float(loss(Tensor(x))))
    np.testing.assert_allclose(gx.asnumpy(), _fd(lambda a: float(loss(Tensor(a))), x), rtol=1e-5)

    def loss_w(wv):
        w.set_data(Tensor(wv))
        return float(loss(Tensor(x)))

    w0 = w.asnumpy()
    want = _fd(loss_w, w0)
    w.set_data(Tensor(w0))
    np.testing.assert_allclose(gw.asnumpy(), want, rtol=1e-5)


def test_value_and_grad_of_a_cell_with_tensor_control_flow_compiles(caplog):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.asarray([2.0, -1.0])), name="w")

        def construct(self, x):
            h = x * self.w
            if h.sum() > 0:
                h = h * 3
            return (h * h).sum()

    net = Net()
    vg = ms.value_and_grad(net, None, net.trainable_params())
    with caplog.at_level(logging.WARNING, logger="sporax"):
        for x in ([1.0, 1.0], [-1.0, 1.0]):
            loss, (g,) = vg(Tensor(np.asarray(x)))
            xs = np.asarray(x)
            h = xs * net.w.asnumpy()
            k = 9.0 if h.sum() > 0 else 1.0
            np.testing.assert_allclose(g.asnumpy(), 2 * k * h * xs)
    assert not caplog.records  # compiled, no eager fallback


# ------------------------------------------------------------------------------------ print
def _flush_prints():
    from sporax._engine import jax

    jax.effects_barrier()


def test_print_of_tensors_happens_when_the_program_runs(capsys):
    def f(x):
        print("x:", x, "sum", x.sum())
        if x.sum() > 0:
            print(f"positive {x.sum():.2f} {x!r}")
            x = x * 2
        else:
            print("negative")
        return x

    f(POS[0])
    f(NEG[0])
    eager = capsys.readouterr().out
    jf = ms.jit(f)
    jf(POS[0]).asnumpy()
    jf(NEG[0]).asnumpy()
    _flush_prints()
    assert capsys.readouterr().out == eager
    assert "positive 3.00 Tensor(shape=[2], dtype=Float32, value=[1. 2.])" in eager


def test_print_in_a_function_without_control_flow(capsys):
    w = Parameter(_t([0.5, 0.5]), name="w")

    def f(x):
        print("value", x + 1, (x, 1), w, [w * x])
        return x

    jf = ms.jit(f)
    for x in (POS[0], NEG[0]):
        f(x)
        eager = capsys.readouterr().out
        jf(x)
        _flush_prints()
        assert capsys.readouterr().out == eager


# --------------------------------------------------------------------------------- fallback
def test_unconvertible_function_falls_back_to_eager_with_one_warning():
    @ms.jit
    def f(x):
        if x.sum() < 0:
            raise ValueError("negative input")  # a Python exception cannot be part of the program
        return x * 2

    with pytest.warns(RuntimeWarning, match=r"test_control_flow\.py, line \d+.*runs eagerly"):
        out = f(POS[0])
    np.testing.assert_allclose(out.asnumpy(), [2.0, 4.0])
    with pytest.raises(ValueError, match="negative input"):  # eager: the user's own error, no second warning
        f(NEG[0])


def test_function_without_source_falls_back_with_the_reason():
    ns = {}
    exec("def f(x):\n    if x.sum() > 0:\n        return x\n    return -x\n", ns)
    jf = ms.jit(ns["f"])
    with pytest.warns(RuntimeWarning, match="source code is not available.*runs eagerly"):
        np.testing.assert_allclose(jf(NEG[0]).asnumpy(), [1.0, 2.0])


# ---------------------------------------------------------------------- what gets converted
_SCALE = 3.0


class _Base(nn.Cell):
    def construct(self, x):
        return x + 1


class _Private(_Base):
    def __init__(self):
        super().__init__()
        self.__factor = 2.0

    def construct(self, x):
        if x.sum() > 0:
            x = super().construct(x) * self.__factor
        return x


def test_methods_with_super_and_private_names():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Private()
    np.testing.assert_allclose(net(POS[0]).asnumpy(), [4.0, 6.0])
    np.testing.assert_allclose(net(NEG[0]).asnumpy(), [-1.0, -2.0])


def test_closures_nonlocal_globals_and_helpers_called_from_converted_code():
    calls = []

    def helper(v):
        calls.append(1)
        return v * _SCALE if v.sum() > 0 else v

    def make():
        offset = 10.0
        count = 0

        def f(x):
            nonlocal count
            count += 1
            if x.sum() > 0:
                y = helper(x) + offset
            else:
                y = [helper(v) for v in (x, -x)][1]
            return y

        return f

    _same(make(), POS, NEG)
    assert calls


def test_nested_function_and_lambda_with_tensor_conditions():
    def f(x):
        def inner(v):
            if v.sum() > 0:
                return v * 2
            return v * 4

        pick = lambda v: v if v.max() > 1 else -v  # noqa: E731
        return pick(inner(x))

    _same(f, POS, NEG, (_t([0.1, 0.2]),))


def test_keyword_arguments_and_defaults():
    def f(x, *, scale=2.0, bias=None):
        if bias is not None and x.sum() > 0:
            x = x + bias
        return x * scale

    jf = ms.jit(f)
    np.testing.assert_allclose(jf(POS[0], bias=_t([1.0, 1.0])).asnumpy(), [4.0, 6.0])
    np.testing.assert_allclose(jf(NEG[0], scale=1.0, bias=_t([1.0, 1.0])).asnumpy(), [-1.0, -2.0])
    np.testing.assert_allclose(jf(POS[0]).asnumpy(), [2.0, 4.0])


def test_loop_else_clauses_and_nested_loops():
    def while_else(x):
        n = x.sum() * 0
        while n < 5:
            n = n + 1
            if x.sum() * n > 6:
                break
        else:
            x = x * 100
        return x, n

    def for_else(x):
        acc = x * 0
        for i in range(6):
            if (x * i).sum() > 4:
                continue
            acc = acc + i
        else:
            acc = acc - 1
        return acc

    def nested(x):
        total = x.sum() * 0
        i = x.sum() * 0
        while i < 3:
            j = x.sum() * 0
            while j < i:
                total = total + j
                j = j + 1
                if total > 2:
                    break
            i = i + 1
        return total

    def forever(x):
        while True:
            x = x * 2
            if x.sum() > 10:
                break
        return x

    _same(while_else, (_t([1.0, 1.0]),), (_t([0.1, 0.1]),))
    _same(for_else, (_t([1.0, 1.0]),), (_t([0.1, 0.1]),))
    _same(nested, (_t([1.0, 1.0]),))
    _same(forever, (_t([1.0, 1.0]),), (_t([20.0, 1.0]),))


def test_elif_chain_of_returns():
    def f(x):
        s = x.sum()
        if s > 10:
            return x * 0
        elif s > 0:
            return x * 1
        elif s > -10:
            return x * 2
        return x * 3

    _same(f, (_t([6.0, 6.0]),), POS, NEG, (_t([-10.0, -10.0]),))


def test_tensor_range_with_start_and_step():
    def f(x, a, b, step):
        acc = x * 0
        for i in range(a, b, step):
            acc = acc * 10 + i
        return acc

    jf = ms.jit(f)
    for a, b, step in ((1, 8, 2), (4, 0, -1), (3, 3, 1)):
        want = f(_t([0.0]), a, b, step).asnumpy()
        got = jf(_t([0.0]), Tensor(a, ms.int64), Tensor(b, ms.int64), step).asnumpy()
        np.testing.assert_allclose(got, want)


def test_jit_methods_and_static_methods():
    class M(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(_t([1.0, 2.0]), name="w")

        @ms.jit
        def step(self, x):
            if (x * self.w).sum() > 0:
                ops.assign_add(self.w, x)
            return self.w * 1

        @staticmethod
        def flip(x):
            return x if x.sum() > 0 else -x

    m = M()
    np.testing.assert_allclose(m.step(_t([1.0, 1.0])).asnumpy(), [2.0, 3.0])
    np.testing.assert_allclose(m.step(_t([-5.0, -5.0])).asnumpy(), [2.0, 3.0])
    _same(M.flip, POS, NEG)


def test_python_path_of_converted_code_matches_the_original():
    """Converted code with Python-valued conditions behaves as the original (here: all forms at once)."""

    def f(x, n, flags):
        out = []
        i = 0
        while i < n:
            if flags[i] and not (i == 2 or i > 4):
                out.append(i)
            elif i % 2:
                i += 1
                continue
            i += 1
        for j, v in enumerate(flags):
            if j > 3:
                break
            out.append(v if j else -1)
        y = x + sum(out)
        if y.sum() > 0:  # a tensor condition: the whole function runs converted
            y = y * 2
        return y

    flags = [True, False, True, True, False, True]
    _same(f, (POS[0], 6, flags), (NEG[0], 3, flags[::-1]))


def _log(tag, v):
    print(tag, v)


def test_print_in_a_helper_called_from_a_tensor_branch(capsys):
    def f(x):
        if x.sum() > 0:
            _log("pos", x)
        else:
            _log("neg", x.sum())
        return x

    jf = ms.jit(f)
    for x in (POS[0], NEG[0], POS[0]):
        f(x)
        eager = capsys.readouterr().out
        jf(x)
        _flush_prints()
        assert capsys.readouterr().out == eager


def test_print_in_code_without_source_prints_while_tracing(capsys):
    ns = {}
    exec("def f(x):\n    print('traced', x.shape)\n    print(x)\n    return x * 2\n", ns)
    jf = ms.jit(ns["f"])
    np.testing.assert_allclose(jf(POS[0]).asnumpy(), [2.0, 4.0])  # compiles: no warning (warnings are errors)
    out = capsys.readouterr().out
    assert out.count("traced (2,)") == 1 and "value=<traced>" in out


_HITS = 0


def test_global_assigned_under_a_tensor_condition_runs_eagerly():
    def f(x):
        global _HITS
        if x.sum() > 0:
            _HITS += 1
        return x

    jf = ms.jit(f)
    with pytest.warns(RuntimeWarning, match=r"test_control_flow\.py, line \d+.*runs eagerly"):
        jf(POS[0])
    jf(NEG[0])
    jf(POS[0])
    assert _HITS == 2  # PyNative semantics


def test_returning_on_some_tensor_paths_only_is_a_clear_error():
    @ms.jit
    def f(x):
        if x.sum() > 0:
            return x * 2
        x = x + 1  # falls off the end: returns None on this path

    with pytest.raises(ValueError, match="returns a value on some paths"):
        f(POS[0])


def test_item_assignment_inside_a_tensor_branch():
    def f(x):
        y = x * 1
        if x.sum() > 0:
            y[0] = 100.0
        else:
            y[1] = -100.0
        return y + 0

    _same(f, POS, NEG)


def test_list_item_assignment_inside_a_tensor_branch():
    def f(x):
        parts = [x, x * 2]
        if x.sum() > 0:
            parts[0] = x * 10
        return parts[0] + parts[1]

    _same(f, POS, NEG)


def test_appending_under_a_tensor_condition_is_a_clear_error():
    @ms.jit
    def f(x):
        outs = [x]
        if x.sum() > 0:
            outs.append(x * 2)
        return outs

    with pytest.raises(TypeError, match=r"'outs' is a list of 2 item\(s\).*list of 1 item"):
        f(POS[0])


class _ScaledStep(nn.Cell):
    """Seed s000's MyTrainStep with a dynamic loss scale: `if finite: self.optimizer(grads)`."""

    def __init__(self, net, opt, scaler):
        super().__init__(auto_prefix=False)
        self.net, self.optimizer, self.scaler = net, opt, scaler
        self.grad_fn = ops.GradOperation(get_by_list=True, sens_param=True)(net, opt.parameters)

    def construct(self, x):
        loss = self.net(x)
        sens = ops.fill(loss.dtype, loss.shape, self.scaler.scale_value)
        grads = self.scaler.unscale(self.grad_fn(x, sens))
        finite = ms.amp.all_finite(grads)
        self.scaler.adjust(finite)
        if finite:
            self.optimizer(grads)
        is_overflow = not finite
        return loss, is_overflow


def test_loss_scaling_step_skips_the_update_on_overflow_in_every_mode():
    def run(mode):
        ms.set_context(mode=mode)
        net = _Net()
        scaler = ms.amp.DynamicLossScaler(scale_value=2.0**10, scale_factor=2, scale_window=2)
        step = _ScaledStep(net, nn.SGD(net.trainable_params(), 0.1), scaler)
        good, bad = _t(np.ones((2, 3)) / 3), _t([[np.inf, 0.0, 0.0], [0.0, 0.0, 0.0]])
        trace = []
        for x in (good, bad, good, good, good):
            _, overflow = step(x)
            trace.append((bool(overflow), float(scaler.scale_value), net.dense.weight.asnumpy()))
        return trace

    eager, graph = run(ms.PYNATIVE_MODE), run(ms.GRAPH_MODE)
    assert [t[:2] for t in graph] == [(False, 1024.0), (True, 512.0), (False, 512.0), (False, 1024.0), (False, 1024.0)]
    assert [t[:2] for t in eager] == [t[:2] for t in graph]
    np.testing.assert_allclose(graph[1][2], graph[0][2])  # the overflow step did not touch the weights
    for e, g in zip(eager, graph):
        np.testing.assert_allclose(g[2], e[2], rtol=1e-6)
