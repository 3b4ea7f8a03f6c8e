"""The engine's compiled programs: kept per execution mode, record-free where no op checks, their cost analysis
exact, and the host's fast path for tuple arguments."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax._engine import _checks
from sporax.common._runtime_api import flops_of


@pytest.fixture(autouse=True)
def _pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


class _Counting(nn.Cell):
    """A Dense whose ``construct`` counts its traces (its Python runs once per trace, never per compiled call)."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.traces = 0

    def construct(self, x):
        self.traces += 1
        return self.dense(x)


def test_switching_modes_reuses_the_graph_program():
    net = _Counting()
    x = Tensor(np.ones((2, 4), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    first = net(x).asnumpy()
    compiled = net.__dict__["_compiled"]
    traces, programs = net.traces, len(compiled._cache)
    assert traces >= 1 and programs == 1
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE, ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        np.testing.assert_array_equal(net(x).asnumpy(), first)
    # PyNative runs construct op by op (one Python run per call); GRAPH_MODE found its program again
    assert net.traces == traces + 2
    assert len(compiled._cache) == programs


def test_a_jit_step_is_compiled_once_per_mode():
    """PYNATIVE -> GRAPH -> PYNATIVE -> GRAPH: the step is traced once in each mode, then never again."""
    net = _Counting()
    opt = nn.SGD(net.trainable_params(), 0.1)
    grad_fn = ms.value_and_grad(lambda x: net(x).sum(), None, opt.parameters)

    @ms.jit
    def step(x):
        loss, grads = grad_fn(x)
        opt(grads)
        return loss

    x = Tensor(np.ones((2, 4), np.float32))
    traces = []
    losses = []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE) * 3:
        ms.set_context(mode=mode)
        losses.append(float(step(x).asnumpy()))
        traces.append(net.traces)
    assert traces[2:] == [traces[1]] * 4
    assert losses == sorted(losses, reverse=True)  # every call trained: the state went through each program


def test_configuration_changes_still_recompile():
    net = _Counting()
    x = Tensor(np.ones((2, 4), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    net(x)
    traces = net.traces
    ms.set_auto_parallel_context(gradients_mean=False)  # a change of the parallel context: a new program
    try:
        net(x)
        assert net.traces > traces
    finally:
        ms.reset_auto_parallel_context()


def test_backward_hooks_follow_the_mode_a_program_was_built_in():
    """A Cell's backward hook runs on the host in PyNative and is traced in GRAPH_MODE: a program built in
    one mode is not reused in the other."""
    seen = []

    def hook(cell, grad_in, grad_out):
        seen.append(type(grad_out[0]).__name__)

    net = nn.Dense(3, 2)
    net.register_backward_hook(hook)
    grad_fn = ms.grad(lambda x: net(x).sum(), 0)
    x = Tensor(np.ones((1, 3), np.float32))
    ref = grad_fn(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_allclose(grad_fn(x).asnumpy(), ref)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    n = len(seen)
    np.testing.assert_allclose(grad_fn(x).asnumpy(), ref)
    assert len(seen) == n + 1  # the hook ran again, on this call's gradient


def test_a_program_without_checks_carries_no_record():
    net = nn.Dense(4, 3)
    opt = nn.SGD(net.trainable_params(), 0.1)
    grads = tuple(ops.ones_like(p) for p in net.trainable_params())
    before = [p.asnumpy() for p in net.trainable_params()]
    opt(grads)
    opt(list(grads))  # a list: another signature, learned too
    opt(grads)
    compiled = opt.__dict__["_compiled"]
    assert all(not entry.checked for entry in compiled._cache.values())
    assert compiled._fast is not None
    for b, p in zip(before, net.trainable_params()):
        np.testing.assert_allclose(p.asnumpy(), b - 0.3, rtol=1e-6, atol=1e-6)


def test_call_numbers_count_the_calls_of_a_signature_without_checks():
    table = Tensor(np.arange(5, dtype=np.float32))

    @ms.jit
    def f(t, i, gather):
        return ops.gather(t, i, 0) if gather else t * 2

    f(table, Tensor(np.array([0], np.int32)), False)  # call 1: no check in it, no record
    f(table, Tensor(np.array([0], np.int32)), False)  # call 2
    out = f(table, Tensor(np.array([7], np.int32)), True)  # call 3: out of range
    with pytest.raises(IndexError, match=r"but got 7\. \(found after running the compiled '.*f', call 3;"):
        out.asnumpy()
    assert not _checks.UNREAD


class _EmbedDropout(nn.Cell):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)  # a gather: the program carries an index check
        self.dense = nn.Dense(4, 4, has_bias=False)
        self.drop = nn.Dropout(p=0.5)

    def construct(self, ids):
        return self.drop(self.dense(self.embed(ids)))


def _eval_forward_flops(checked: bool, monkeypatch) -> float:
    monkeypatch.setenv(_checks.ENV_SWITCH, "1" if checked else "0")
    net = _EmbedDropout()
    net.set_train(False)
    ms.set_context(mode=ms.GRAPH_MODE)
    net(Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.int32)))
    assert any(e.checked for e in net.__dict__["_compiled"]._cache.values()) == checked
    net.set_train(True)
    return flops_of(net)


def test_flops_of_a_checked_program_built_before_its_cell_switched_to_training(monkeypatch):
    """The cost analysis replays the program as built, without its error record: an eval-mode forward compiled
    before set_train(True) (whose trace now would read the dropout's seed, state the program never bound)
    counts what the same program compiled without index checks counts: not one FLOP of the checks."""
    with_checks = _eval_forward_flops(True, monkeypatch)
    assert with_checks == _eval_forward_flops(False, monkeypatch)
    assert with_checks >= 2 * 6 * 4 * 4  # the matmul (and the gather's index arithmetic)


def test_flops_of_an_unchecked_program():
    net = nn.SequentialCell([nn.Dense(4, 4, has_bias=False), nn.Dropout(p=0.5)])
    net.set_train(False)
    ms.set_context(mode=ms.GRAPH_MODE)
    net(Tensor(np.ones((2, 4), np.float32)))
    assert not any(e.checked for e in net.__dict__["_compiled"]._cache.values())
    net.set_train(True)
    assert flops_of(net) == 2 * 2 * 4 * 4
