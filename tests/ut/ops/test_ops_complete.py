"""The rest of ``mindspore.ops``: the primitive base classes, MindSpore's graph-internal primitives and
modules, and the eager fast paths (an index Tensor's range remembered, reductions pre-compiled)."""

import numpy as np
import pytest

import sporax as ms
from sporax import ops
from sporax.ops.function import _array_utils


def T(a, dtype=None):
    return ms.Tensor(np.asarray(a, dtype=dtype))


X = np.arange(12, dtype=np.float32).reshape(3, 4)


# ------------------------------------------------------------------ eager fast paths
def test_index_range_is_remembered_per_array_and_still_checked():
    i = T([0, 2], np.int32)
    np.testing.assert_array_equal(ops.gather(T(X), i, 0).asnumpy(), X[[0, 2]])
    assert _array_utils._INDEX_RANGES[id(i._data)][1:] == (0, 2)
    # the remembered range is checked against each call's bound: a smaller input still refuses index 2
    with pytest.raises(RuntimeError, match=r"For 'Gather', the 'input_indices' should be in the range \[0, 2\)"):
        ops.gather(T(X[:2]), i, 0)
    np.testing.assert_array_equal(ops.gather(T(X), i, 1).asnumpy(), X[:, [0, 2]])
    key = id(i._data)
    del i
    import gc

    gc.collect()
    assert key not in _array_utils._INDEX_RANGES  # the entry goes with the array


def test_precompiled_reductions_values_grads_and_axis_errors():
    x = T(X)
    np.testing.assert_allclose(ops.sum(x, 1).asnumpy(), X.sum(1))
    np.testing.assert_allclose(ops.ReduceMean(keep_dims=True)(x, 0).asnumpy(), X.mean(0, keepdims=True))
    np.testing.assert_allclose(ops.prod(x + 1, (0, 1)).asnumpy(), np.prod(X + 1), rtol=1e-5)
    assert bool(ops.all(x >= 0)) and not bool(ops.any(x > 11))
    g = ms.grad(lambda t: ops.mean(t * t))(x)
    np.testing.assert_allclose(g.asnumpy(), 2 * X / X.size, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(lambda t: ops.sum(t, -1))(x).asnumpy(), X.sum(-1))
    with pytest.raises(ValueError, match=r"For primitive\[ReduceSum\], the axis value must be in \[-2,2\), but got 2"):
        ops.sum(x, 2)
