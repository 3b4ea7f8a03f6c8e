"""Issue 13/17: a compiled program's index-check flag is never waited for at the call. It is read when it is
ready anyway, at the program's next call (after that call is dispatched), when a tensor is read on the host,
at the end of Model.train/eval, and at exit (a failed flag still pending fails the process). Each surfacing
point is pinned here; ``_checks._ready`` is replaced by "never ready" to act out a step still running when
its call returns (on a loaded CPU or any accelerator), so the tests do not depend on timing."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
from sporax import Tensor as T
from sporax import nn, ops
from sporax._engine import _checks
from sporax.train import Model

TABLE = T(np.arange(10, dtype=np.float32).reshape(5, 2))


@pytest.fixture
def running(monkeypatch):
    """Every call's flag is still being computed when the call returns."""
    monkeypatch.setattr(_checks, "_ready", lambda flag: False)
    yield
    assert not _checks.PENDING, "a test left a checked call pending"


def _gather():
    return ms.jit(lambda t, i: ops.gather(t, i, 0))


def test_the_call_does_not_wait_and_the_next_call_reads_it(running):
    f = _gather()
    f(TABLE, T([0])).asnumpy()  # call 1 (compiled, read)
    out = f(TABLE, T([1, 7]))  # call 2: bad, nothing raised yet
    assert len(_checks.PENDING) == 1
    with pytest.raises(
        IndexError,
        match=r"\[0, 5\), but got 7\. \(found after running the compiled '_gather.<locals>.<lambda>', call 2;",
    ):
        f(TABLE, T([1, 2]))  # call 3 is dispatched, then call 2's flag is read
    assert not _checks.PENDING  # nothing left behind after an error
    f(TABLE, T([1, 2]))  # good calls keep one flag pending: the last one
    f(TABLE, T([3, 4]))
    assert len(_checks.PENDING) == 1
    np.testing.assert_array_equal(out.shape, (2, 2))
    np.testing.assert_array_equal(f(TABLE, T([4])).asnumpy(), [[8, 9]])


def test_reading_any_tensor_on_the_host_reads_the_flags(running):
    f = _gather()
    out = f(TABLE, T([9]))
    with pytest.raises(
        RuntimeError, match=r"but got 9\. \(found after running the compiled '_gather.<locals>.<lambda>', call 1;"
    ):
        out.asnumpy()
    g = _gather()
    out = g(TABLE, T([-6]))
    with pytest.raises(ValueError, match="but got -6"):
        float(T(np.float32(1.5)))  # a tensor of another computation: pending flags are read first
    assert out.shape == (1, 2)


def test_a_program_without_checks_leaves_nothing_pending(running):
    f = ms.jit(lambda a: a * 2)
    f(TABLE)
    assert not _checks.PENDING


def test_several_failed_calls_are_all_reported(running):
    f, g = _gather(), _gather()
    f(TABLE, T([5]))
    g(TABLE, T([6]))
    with pytest.raises(IndexError, match=r"but got 5\. .*call 1; .*\(1 more pending checked call\(s\) failed too\.\)"):
        TABLE.asnumpy()


def _labelled(bad_last: int | None) -> ds.Dataset:
    x = np.random.RandomState(0).randn(8, 4).astype(np.float32)
    y = np.array([0, 1, 2, 0, 0, 1, 2, 0 if bad_last is None else bad_last], np.int32)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)


@pytest.mark.parametrize("sink", [False, True])
def test_model_train_reads_the_last_steps_flags_before_it_ends(running, sink):
    net = nn.Dense(4, 3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9))
    model.train(1, _labelled(None), dataset_sink_mode=sink)
    assert not _checks.PENDING  # read by the loop's end, not left to a later host read
    # the bad label is in the last batch: no later step's call reads its flag; the loop's end does
    with pytest.raises(RuntimeError, match=r"the label must be in range \[0, 2\], but got 3\. \(found after running"):
        model.train(1, _labelled(3), dataset_sink_mode=sink)


def test_model_eval_reads_the_flags_before_it_ends(running):
    net = nn.Dense(4, 3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, metrics={"loss"})
    with pytest.raises(RuntimeError, match=r"but got 7\. \(found after running"):
        model.eval(_labelled(7), dataset_sink_mode=False)


_EXIT_SCRIPT = """
import numpy as np
import sporax as ms
from sporax import Tensor as T, ops
from sporax._engine import _checks
_checks._ready = lambda flag: False  # the call is still running when it returns
f = ms.jit(lambda t, i: ops.gather(t, i, 0))
f(T(np.zeros((5, 2), np.float32)), T([{index}]))
print("dispatched, never read", flush=True)
"""


@pytest.mark.parametrize("index", [7, 3])
def test_a_failed_flag_still_pending_at_exit_fails_the_process(index):
    code = textwrap.dedent(_EXIT_SCRIPT.format(index=index))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "dispatched, never read" in r.stdout
    if index == 3:  # a good call: a clean exit
        assert r.returncode == 0, r.stderr[-2000:]
        return
    assert r.returncode == 1, r.stderr[-2000:]
    assert "Traceback (most recent call last):" in r.stderr
    assert "IndexOutOfRangeError: For 'Gather'" in r.stderr
    assert "but got 7. (found after running the compiled '<lambda>', call 1;" in r.stderr
