"""Issues 13/17: a compiled program's index checks are never waited for at the call. Each program carries an
error record from call to call (the first failure sticks); it is read when a tensor is read on the host, at
the end of Model.train/eval, at exit (a failure still unread then fails the process), and in a loop that reads
nothing after ``MAX_UNREAD`` calls. Each surfacing point is pinned here; none depends on timing."""

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


@pytest.fixture(autouse=True)
def _nothing_left_unread():
    yield
    _checks.surface_pending()  # a test leaves no failure behind (this raises if it did)


def _gather():
    return ms.jit(lambda t, i: ops.gather(t, i, 0))


def test_the_call_does_not_wait_and_a_loop_that_reads_nothing_reads_it_later(monkeypatch):
    monkeypatch.setattr(_checks, "MAX_UNREAD", 4)
    f = _gather()
    f(TABLE, T([0])).asnumpy()  # call 1 (compiled, read)
    out = f(TABLE, T([1, 7]))  # call 2: bad, nothing raised at the call
    assert out.shape == (2, 2)
    f(TABLE, T([1, 2]))  # calls 3 and 4: nothing read yet
    f(TABLE, T([1, 2]))
    with pytest.raises(
        IndexError, match=r"\[0, 5\), but got 7\. \(found after running the compiled '.*<lambda>', call 2;"
    ):
        f(TABLE, T([3, 4]))  # call 5: the 4th unread one, so the record is read
    assert not _checks.UNREAD
    np.testing.assert_array_equal(f(TABLE, T([4])).asnumpy(), [[8, 9]])  # the error is not raised twice


def test_reading_any_tensor_on_the_host_reads_the_records():
    f = _gather()
    out = f(TABLE, T([9]))
    with pytest.raises(RuntimeError, match=r"but got 9\. \(found after running the compiled '.*<lambda>', call 1;"):
        out.asnumpy()
    g = _gather()
    out = g(TABLE, T([-6]))
    with pytest.raises(ValueError, match="but got -6"):
        float(T(np.float32(1.5)))  # a tensor of another computation: the records are read first
    assert out.shape == (1, 2)


def test_numpy_conversion_is_a_host_read_too():
    f = _gather()
    out = f(TABLE, T([5]))
    with pytest.raises(IndexError, match=r"but got 5\. \(found after running the compiled"):
        np.asarray(out)
    assert not _checks.UNREAD


def test_the_first_failure_sticks_until_it_is_read():
    f = _gather()
    f(TABLE, T([0]))
    f(TABLE, T([7]))  # call 2: the first failure
    f(TABLE, T([1]))
    f(TABLE, T([9]))  # a later one is not the one reported
    with pytest.raises(IndexError, match=r"but got 7\. .*call 2;"):
        TABLE.asnumpy()


def test_a_program_without_checks_never_raises():
    f = ms.jit(lambda a: a * 2)
    np.testing.assert_array_equal(f(TABLE).asnumpy(), TABLE.asnumpy() * 2)


def test_several_failed_programs_are_all_reported():
    f, g = _gather(), _gather()
    f(TABLE, T([5]))
    g(TABLE, T([6]))
    with pytest.raises(IndexError, match=r"but got 5\. .*call 1; .*\(1 other program\(s\) failed their checks too\.\)"):
        TABLE.asnumpy()


def _labelled(bad_last: int | None) -> ds.Dataset:
    x = np.random.RandomState(0).randn(8, 4).astype(np.float32)
    y = np.array([0, 1, 2, 0, 0, 1, 2, 0 if bad_last is None else bad_last], np.int32)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)


@pytest.mark.parametrize("sink", [False, True])
def test_model_train_reads_the_records_before_it_ends(sink):
    net = nn.Dense(4, 3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9))
    model.train(1, _labelled(None), dataset_sink_mode=sink)
    assert not _checks.UNREAD  # read by the loop's end, not left to a later host read
    # the bad label is in the last batch: the loop reads nothing per step; its end reads the record
    with pytest.raises(RuntimeError, match=r"the label must be in range \[0, 2\], but got 3\. \(found after running"):
        model.train(1, _labelled(3), dataset_sink_mode=sink)


def test_model_eval_reads_the_records_before_it_ends():
    net = nn.Dense(4, 3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, metrics={"loss"})
    with pytest.raises(RuntimeError, match=r"but got 7\. \(found after running"):
        model.eval(_labelled(7), dataset_sink_mode=False)


_EXIT_SCRIPT = """
import numpy as np
import sporax as ms
from sporax import Tensor as T, ops
f = ms.jit(lambda t, i: ops.gather(t, i, 0))
f(T(np.zeros((5, 2), np.float32)), T([{index}]))
print("dispatched, never read", flush=True)
"""


@pytest.mark.parametrize("index", [7, 3])
def test_a_failure_still_unread_at_exit_fails_the_process(index):
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


def test_a_checked_program_called_inside_a_plain_jax_trace_keeps_its_record_concrete():
    import jax

    f = _gather()
    f(TABLE, T([0])).asnumpy()  # compiled, with its record
    jax.make_jaxpr(lambda t: f(T(t), T([1]))._data)(TABLE._data)  # traced by JAX, not by sporax
    np.testing.assert_array_equal(f(TABLE, T([2])).asnumpy(), [[4, 5]])  # no leaked tracer on the next call
