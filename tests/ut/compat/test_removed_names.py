"""Names MindSpore 2.x removed that real programs still use (issue 10 item 7): each works with MindSpore 1.x's
documented behaviour and warns once (DeprecationWarning) naming the 2.x replacement."""

import importlib
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import _deprecated, ops
from sporax.ops import functional as F
from sporax.ops import operations as P


@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch):
    monkeypatch.setattr(_deprecated, "_warned", set())


def test_control_depend_returns_its_source():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    with pytest.warns(DeprecationWarning, match=r"'ops.ControlDepend' was removed .* Use 'ops.Depend' instead"):
        dep = P.ControlDepend(depend_mode=1)
    assert ops.ControlDepend is P.ControlDepend and dep.depend_mode == 1
    np.testing.assert_array_equal(dep(x, x * 2).asnumpy(), [1.0, 2.0])
    P.ControlDepend()  # warns once only: nothing raised under warnings-as-errors
    with pytest.raises(ValueError, match="depend_mode"):
        P.ControlDepend(depend_mode=2)
    with pytest.warns(DeprecationWarning, match="'ops.depend'"):
        out = F.control_depend(x, x + 1)
    np.testing.assert_array_equal(out.asnumpy(), [1.0, 2.0])

    @ms.jit
    def step(a):
        return F.control_depend(a * 3, a)

    np.testing.assert_array_equal(step(x).asnumpy(), [3.0, 6.0])


def test_sum_primitive():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    with pytest.warns(DeprecationWarning, match="Use 'ops.sum' instead"):
        s = P.Sum()
    np.testing.assert_array_equal(s(ms.Tensor(a)).asnumpy(), a.sum())
    np.testing.assert_array_equal(s(ms.Tensor(a), 1, True).asnumpy(), a.sum(1, keepdims=True))
    assert s(ms.Tensor(a), 0, dtype=ms.float64).dtype is ms.float64


def test_grad_operation_with_a_name():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    with pytest.warns(DeprecationWarning, match=r"'GradOperation\(name, ...\)' was removed"):
        g = ops.GradOperation("grad", get_by_list=False, sens_param=True)
    np.testing.assert_array_equal(g(lambda a: a * a)(x, ms.Tensor([1.0, 0.5])).asnumpy(), [2.0, 2.0])


def test_train_parallel_utils_and_get_mirror_mean():
    sys.modules.pop("sporax.train.parallel_utils", None)
    with pytest.warns(DeprecationWarning, match="Use 'mindspore.ParallelMode' instead"):
        pu = importlib.import_module("sporax.train.parallel_utils")
    assert pu.ParallelMode is ms.ParallelMode
    from sporax.parallel._utils import _get_mirror_mean

    with pytest.warns(DeprecationWarning, match="_get_gradients_mean"):
        assert _get_mirror_mean() is False


def test_kept_1x_paths_still_work():
    from sporax.dataset.transforms import c_transforms, py_transforms  # noqa: F401
    from sporax.dataset.vision import c_transforms as vc  # noqa: F401

    @ms.ms_function
    def f(a):
        return a + 1

    np.testing.assert_array_equal(f(ms.Tensor([1.0])).asnumpy(), [2.0])
