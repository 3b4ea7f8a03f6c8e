"""Parameter and ParameterTuple."""

import copy

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, ParameterTuple, Tensor


def test_construction_copies_and_names():
    src = Tensor(np.ones(3, np.float32))
    p = Parameter(src, name="w")
    assert p.name == "w" and p.requires_grad and p.shape == (3,) and p.dtype == ms.float32
    p.set_data(Tensor(np.zeros(3, np.float32)))
    np.testing.assert_array_equal(src.asnumpy(), np.ones(3))  # the source is not aliased
    assert Parameter(Tensor(1.0)).name == "Parameter"
    assert Parameter(np.arange(2.0)).dtype == ms.float64
    assert Parameter(2).dtype == ms.int64


def test_set_data_checks_shape_and_casts():
    p = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")
    p.set_data(Tensor(np.ones((2, 2), np.float64)))
    assert p.dtype == ms.float32 and float(p.sum()) == 4.0
    with pytest.raises(ValueError, match=r"shape of the new data must be \(2, 2\)"):
        p.set_data(Tensor(np.ones(3, np.float32)))
    q = Parameter(Tensor(np.zeros(2, np.int32)), name="i")
    with pytest.raises(TypeError, match="dtype of the new data must be Int32"):
        q.set_data(Tensor(np.ones(2, np.float32)))


def test_clone_and_parameter_tuple_clone():
    p = Parameter(Tensor(np.ones(2, np.float32)), name="w", requires_grad=False)
    c = p.clone()
    assert c is not p and c.name == "w" and c.requires_grad is False
    c.set_data(Tensor(np.zeros(2, np.float32)))
    assert float(p.sum()) == 2.0
    z = p.clone(init="zeros")
    assert float(z.sum()) == 0.0
    tup = ParameterTuple([p, Parameter(Tensor(np.ones(1, np.float32)), name="b")])
    moments = tup.clone(prefix="moments", init="zeros")
    assert [m.name for m in moments] == ["moments.w", "moments.b"]
    assert all(float(m.sum()) == 0 for m in moments)
    with pytest.raises(TypeError, match="must be a Parameter"):
        ParameterTuple([Tensor(1.0)])
    d = copy.deepcopy(p)
    assert d is not p and d.name == "w"


def test_repr_and_value_and_inplace():
    p = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    assert repr(p) == "Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)"
    v = p.value()
    p += 1
    assert float(v.sum()) == 2.0 and float(p.sum()) == 4.0 and isinstance(p, Parameter)
    p[0] = 10.0
    assert p.asnumpy().tolist() == [10.0, 2.0]
    with pytest.raises(TypeError, match="name"):
        Parameter(Tensor(1.0), name=3)


def test_bfloat16_numpy_arrays_make_tensors():
    import ml_dtypes

    t = Tensor(np.array([1.5, -2.0], ml_dtypes.bfloat16))
    assert t.dtype == ms.bfloat16 and t.asnumpy().astype(np.float32).tolist() == [1.5, -2.0]
    with pytest.raises(TypeError, match="not supported"):
        Tensor(np.zeros(2, dtype="V4"))
