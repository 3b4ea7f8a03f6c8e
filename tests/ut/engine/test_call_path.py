"""Issue 17: StatefulJit's one call path (arguments read without tree flattening once their forms are learned,
flattened otherwise) and the index checks' cost-saving forms: one pass over the indices for the first bad one,
and the error record donated from call to call."""

from __future__ import annotations

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor as T
from sporax import nn, ops
from sporax._engine import _checks


@pytest.fixture(autouse=True)
def _nothing_left_unread():
    yield
    _checks.surface_pending()  # a test leaves no failure behind (this raises if it did)


def test_learned_forms_new_shapes_and_other_forms_take_one_path():
    traces = []

    def f(x, ys, k=1.0):
        traces.append(1)
        return x * k + sum(ys)

    jf = ms.jit(f)
    a, b = T(np.ones(2, np.float32)), T(np.full(2, 2.0, np.float32))
    np.testing.assert_allclose(jf(a, (b, b)).asnumpy(), [5, 5])  # flattened; its forms learned
    n = len(traces)
    np.testing.assert_allclose(jf(b, (a, b)).asnumpy(), [5, 5])  # the learned forms: no trace, no flattening
    assert len(traces) == n
    c = T(np.arange(3, dtype=np.float32))
    np.testing.assert_allclose(jf(c, (c, c)).asnumpy(), [0, 3, 6])  # the learned forms, a new shape: traced
    assert len(traces) > n
    n = len(traces)
    np.testing.assert_allclose(jf(c, (c, c)).asnumpy(), [0, 3, 6])
    assert len(traces) == n
    np.testing.assert_allclose(jf(a, [b, b]).asnumpy(), [5, 5])  # a list, not the learned tuple: flattened
    np.testing.assert_allclose(jf(a, (b,), k=3.0).asnumpy(), [5, 5])  # a keyword argument: flattened
    np.testing.assert_allclose(jf(np.ones(2, np.float32), (b, b)).asnumpy(), [5, 5])  # a NumPy array is an input
    np.testing.assert_allclose(jf(a, (b, b)).asnumpy(), [5, 5])  # back to the learned forms


def _ce():
    return ms.jit(lambda x, y: ops.cross_entropy(x, y, ignore_index=-100))


def test_the_first_out_of_range_label_is_reported_past_ignored_ones():
    f = _ce()
    x = T(np.zeros((5, 3), np.float32))
    f(x, T(np.array([0, 1, 2, -100, 1], np.int32))).asnumpy()  # good and ignored labels: no error
    with pytest.raises(RuntimeError, match=r"the label must be in range \[0, 2\], but got 7\. .*call 2;"):
        f(x, T(np.array([-100, 1, 7, -3, 9], np.int32))).asnumpy()


def test_the_first_row_out_of_range_is_reported_by_gather_nd():
    f = ms.jit(lambda t, i: ops.gather_nd(t, i))
    table = T(np.arange(12, dtype=np.float32).reshape(3, 4))
    np.testing.assert_allclose(f(table, T(np.array([[0, 0], [2, 3]], np.int32))).asnumpy(), [0, 11])
    with pytest.raises(ValueError, match=r"indices\[1\].*does not index into input_shape: \[3, 4\]"):
        f(table, T(np.array([[0, 0], [1, 9], [5, 0]], np.int32))).asnumpy()


def test_each_call_donates_the_error_record_it_replaces():
    f = ms.jit(lambda t, i: ops.gather(t, i, 0))
    table = T(np.arange(10, dtype=np.float32).reshape(5, 2))
    f(table, T([1])).asnumpy()
    compiled = f.__sporax_jit__
    before = compiled.record
    out = f(table, T([2]))
    assert before.is_deleted() and not compiled.record.is_deleted()
    np.testing.assert_allclose(out.asnumpy(), [[4, 5]])
    assert int(np.asarray(compiled.record)[2]) == 2  # the record counts every call


def test_a_train_step_with_class_labels_reports_a_bad_label_after_good_steps():
    net = nn.Dense(4, 3)
    loss_fn = nn.CrossEntropyLoss()
    opt = nn.SGD(net.trainable_params(), 0.1)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    x = T(np.ones((2, 4), np.float32))
    for _ in range(3):
        step(x, T(np.array([0, 2], np.int32)))
    step(x, T(np.array([1, 3], np.int32)))
    with pytest.raises(RuntimeError, match=r"but got 3\. .*call 4;"):
        step(x, T(np.array([0, 1], np.int32))).asnumpy()


def test_a_one_tensor_result_is_made_without_unflattening_and_equals_the_tree_form():
    """A result that is one Tensor is built by Tensor's own constructor from the program's output (no tree
    unflattening per call); other results keep their tree form."""
    one = ms.jit(lambda x: x * 2)
    two = ms.jit(lambda x: (x * 2, x + 1))
    nested = ms.jit(lambda x: {"a": x * 2})
    x = T(np.arange(3, dtype=np.float32))
    for _ in range(2):  # the first call compiles, the second takes the per-call path
        r = one(x)
        assert type(r) is T
        np.testing.assert_allclose(r.asnumpy(), [0, 2, 4])
        r2 = two(x)
        assert type(r2) is tuple and all(type(t) is T for t in r2)
        np.testing.assert_allclose(r2[1].asnumpy(), [1, 2, 3])
        r3 = nested(x)
        assert type(r3) is dict and type(r3["a"]) is T
    (entry,) = one.__sporax_jit__._cache.values()
    assert entry.wrap is not None
    for f in (two, nested):
        (entry,) = f.__sporax_jit__._cache.values()
        assert entry.wrap is None
