"""jit with implicit state: discovery, write-back, donation safety, caching, fallback."""

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


def test_jit_reads_and_writes_global_parameter():
    p = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="p")

    @ms.jit
    def step(x):
        ops.assign(p, p * 2 + x)
        return p.sum()

    out = step(Tensor(np.array([1.0, 1.0], np.float32)))
    np.testing.assert_allclose(p.asnumpy(), [3.0, 5.0])
    assert float(out) == 8.0
    step(Tensor(np.array([0.0, 0.0], np.float32)))
    np.testing.assert_allclose(p.asnumpy(), [6.0, 10.0])


def test_jit_matches_eager_and_compiles_once_per_signature():
    calls = []
    w = Parameter(Tensor(np.ones((3,), np.float32)), name="w")

    def f(x):
        calls.append(1)
        return (x * w).sum()

    jf = ms.jit(f)
    x = Tensor(np.arange(3, dtype=np.float32))
    assert float(jf(x)) == float(f(x))
    n = len(calls)
    for _ in range(3):
        jf(x)
    assert len(calls) == n  # no retrace for the same signature
    jf(Tensor(np.arange(4, dtype=np.float32)[:3].copy()))
    assert len(calls) == n
    jf(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
    assert len(calls) > n  # new shape: traced again


def test_python_scalar_arguments_are_constants():
    @ms.jit
    def f(x, k):
        return x * k

    x = Tensor(np.ones(2, np.float32))
    assert f(x, 2.0).asnumpy().tolist() == [2.0, 2.0]
    assert f(x, 3.0).asnumpy().tolist() == [3.0, 3.0]


def test_output_structure_with_python_values():
    @ms.jit
    def f(x):
        return x + 1, (True, "tag"), {"y": x * 2}

    a, (flag, tag), d = f(Tensor(np.zeros(2, np.float32)))
    assert flag is True and tag == "tag"
    np.testing.assert_allclose(d["y"].asnumpy(), [0, 0])
    np.testing.assert_allclose(a.asnumpy(), [1, 1])


def test_copies_of_parameters_survive_donation():
    p = Parameter(Tensor(np.ones(4, np.float32)), name="p")
    snapshot = Tensor(p)
    copy2 = p.copy()
    np_copy = p.asnumpy()

    @ms.jit
    def step():
        ops.assign(p, p + 1)
        return p.sum()

    step()
    step()
    np.testing.assert_allclose(snapshot.asnumpy(), np.ones(4))
    np.testing.assert_allclose(copy2.asnumpy(), np.ones(4))
    np.testing.assert_allclose(np_copy, np.ones(4))
    np.testing.assert_allclose(p.asnumpy(), np.full(4, 3.0))


def test_state_written_from_an_input_does_not_delete_the_input():
    p = Parameter(Tensor(np.zeros(3, np.float32)), name="p")

    @ms.jit
    def set_p(x):
        ops.assign(p, x)
        return x

    x = Tensor(np.arange(3, dtype=np.float32))
    out = set_p(x)
    set_p(Tensor(np.ones(3, np.float32)))  # donates p's buffer: x and out must stay alive
    np.testing.assert_allclose(x.asnumpy(), [0, 1, 2])
    np.testing.assert_allclose(out.asnumpy(), [0, 1, 2])
    np.testing.assert_allclose(p.asnumpy(), [1, 1, 1])


def test_returning_written_parameter_value_survives_next_call():
    p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")

    @ms.jit
    def inc():
        ops.assign(p, p + 1)
        return p + 0

    a = inc()
    b = inc()
    np.testing.assert_allclose(a.asnumpy(), [1, 1])
    np.testing.assert_allclose(b.asnumpy(), [2, 2])


def test_untraceable_function_falls_back_to_eager_with_one_warning():
    @ms.jit
    def f(x):
        if float(x.sum()) > 0:  # a tensor's value as a Python number: only eager can do that
            return x * 2
        return x * 3

    with pytest.warns(RuntimeWarning, match="runs eagerly"):
        out = f(Tensor(np.ones(2, np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [2, 2])
    out = f(Tensor(-np.ones(2, np.float32)))  # no second warning (warnings are errors here)
    np.testing.assert_allclose(out.asnumpy(), [-3, -3])


def test_fullgraph_raises_instead_of_falling_back():
    @ms.jit(fullgraph=True)
    def f(x):
        if float(x.sum()) > 0:
            return x
        return -x

    with pytest.raises(Exception, match="[Tt]racer|concrete"):
        f(Tensor(np.ones(2, np.float32)))


def test_user_error_inside_jit_is_the_users_error():
    @ms.jit
    def f(x):
        raise ValueError("For 'Mine', the 'x' is bad.")

    with pytest.raises(ValueError, match="For 'Mine'") as info:
        f(Tensor(np.ones(1, np.float32)))
    assert not any("JAX has removed" in n for n in getattr(info.value, "__notes__", []))


class _Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(np.zeros((), np.float32)), name="count", requires_grad=False)
        self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w")

    def construct(self, x):
        if self.training:
            ops.assign_add(self.count, Tensor(1.0))
        return (x * self.w).sum()


def test_graph_mode_compiles_construct_with_state_and_training_flag():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Counter()
    x = Tensor(np.ones(2, np.float32))
    net.set_train(True)
    net(x)
    net(x)
    assert float(net.count) == 2.0
    net.set_train(False)
    net(x)
    assert float(net.count) == 2.0  # eval: the compiled program has no update
    net.set_train(True)
    net(x)
    assert float(net.count) == 3.0
    assert net._compiled is not None


def test_jit_on_a_cell_method():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([2.0], np.float32)), name="w")

        @ms.jit
        def construct(self, x):
            ops.assign(self.w, self.w + 1)
            return x * self.w

    a, b = Net(), Net()
    x = Tensor(np.array([1.0], np.float32))
    assert float(a(x)) == 3.0
    assert float(a(x)) == 4.0
    assert float(b(x)) == 3.0  # each instance has its own state


def test_nested_jit_is_inlined():
    p = Parameter(Tensor(np.zeros(1, np.float32)), name="p")

    @ms.jit
    def inner(x):
        ops.assign_add(p, x)
        return p * 1

    @ms.jit
    def outer(x):
        inner(x)
        return inner(x)

    out = outer(Tensor(np.ones(1, np.float32)))
    assert float(out) == 2.0 and float(p) == 2.0


def test_random_state_is_implicit_and_reproducible():
    import jax

    from sporax.common.seed import next_key

    @ms.jit
    def draw():
        return Tensor(jax.random.uniform(next_key(), (3,)))

    ms.set_seed(7)
    a1, a2 = draw().asnumpy(), draw().asnumpy()
    assert not np.array_equal(a1, a2)  # the key advances as state
    ms.set_seed(7)
    np.testing.assert_array_equal(draw().asnumpy(), a1)


def test_unchanged_writes_are_not_outputs():
    p = Parameter(Tensor(np.ones(2, np.float32)), name="p")
    q = Parameter(Tensor(np.ones(2, np.float32)), name="q")

    @ms.jit
    def f(x):
        ops.assign(p, p)  # a no-op write: no output, no donation
        ops.assign(q, q + x)
        return p.sum()

    f(Tensor(np.ones(2, np.float32)))
    entry = next(iter(f.__sporax_jit__._cache.values()))
    assert entry.writes == [q]
    assert float(q.sum()) == 4.0 and float(p.sum()) == 2.0


def test_scan_steps_carries_state_like_a_python_loop():
    from sporax._engine import scan_steps

    w = Parameter(Tensor(np.array([1.0], np.float32)), name="w")
    seen = Parameter(Tensor(np.zeros((), np.float32)), name="seen", requires_grad=False)
    c = Parameter(Tensor(np.array([2.0], np.float32)), name="c", requires_grad=False)  # read only

    def step(x):
        ops.assign(w, w * c + x)
        ops.assign_add(seen, Tensor(1.0))
        return w * 1

    xs = np.arange(4, dtype=np.float32).reshape(4, 1)
    outs = ms.jit(lambda s: scan_steps(step, s))(Tensor(xs))
    ref, ws = 1.0, []
    for x in xs[:, 0]:
        ref = ref * 2 + x
        ws.append(ref)
    np.testing.assert_allclose(outs.asnumpy()[:, 0], ws)
    assert float(w) == ws[-1] and float(seen) == 4.0 and float(c) == 2.0


def _two_written_parameters():
    """Parameters ``p`` (ones) and ``q`` (zeros) and a ``@jit`` step writing both: ``p += x; q += 1``, returning 2x."""
    p = Parameter(Tensor(np.ones(3, np.float32)), name="p")
    q = Parameter(Tensor(np.zeros(3, np.float32)), name="q")

    @ms.jit
    def step(x):
        ops.assign(p, p + x)
        ops.assign(q, q + 1)
        return x * 2

    return p, q, step


def test_parameter_passed_to_the_step_that_writes_it():
    # a written Parameter passed as the argument, a Tensor argument, then one array held by two written
    # Parameters: XLA refuses to donate it twice, the step copies it and runs; later calls check before calling
    p, q, step = _two_written_parameters()
    out = step(p)  # ``x`` is the Parameter: read after its assignment
    np.testing.assert_allclose(out.asnumpy(), [4, 4, 4])
    np.testing.assert_allclose(p.asnumpy(), [2, 2, 2])
    out = step(p)
    np.testing.assert_allclose(out.asnumpy(), [8, 8, 8])
    np.testing.assert_allclose(p.asnumpy(), [4, 4, 4])
    x = Tensor(np.ones(3, np.float32))
    step(x)
    np.testing.assert_allclose(x.asnumpy(), [1, 1, 1])
    np.testing.assert_allclose(p.asnumpy(), [5, 5, 5])
    q._stored = p._stored  # two written Parameters holding one array
    step(x)
    np.testing.assert_allclose(p.asnumpy(), [6, 6, 6])
    np.testing.assert_allclose(q.asnumpy(), [6, 6, 6])
    step(x)
    np.testing.assert_allclose(p.asnumpy(), [7, 7, 7])
    np.testing.assert_allclose(q.asnumpy(), [7, 7, 7])


def test_a_refused_aliased_donation_is_retried_whatever_the_runtime_says():
    # the retry with copies follows from the buffers (aliased, none deleted), not from the wording of XLA's
    # refusal: a runtime that words it differently is handled the same; an error of a call whose buffers do
    # not alias is raised as it is
    p, q, step = _two_written_parameters()
    x = Tensor(np.ones(3, np.float32))
    step(x)
    (entry,) = step.__sporax_jit__._cache.values()
    real = entry.compiled

    def refusing(donated, kept, dyn, *rest):
        if len({id(a) for a in donated}) != len(donated):
            raise RuntimeError("the runtime would not take this buffer twice")  # nothing ran
        return real(donated, kept, dyn, *rest)

    entry.compiled = refusing
    q._stored = p._stored  # two written Parameters holding one array
    np.testing.assert_allclose(step(x).asnumpy(), [2, 2, 2])
    np.testing.assert_allclose(p.asnumpy(), [3, 3, 3])
    np.testing.assert_allclose(q.asnumpy(), [3, 3, 3])
    assert entry.aliased

    def failing(*args):
        raise RuntimeError("something else failed")

    entry.compiled = failing
    entry.aliased = False
    with pytest.raises(RuntimeError, match="something else failed"):
        step(x)
    assert not entry.aliased
