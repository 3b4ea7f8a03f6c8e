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


# ------------------------------------------------------------------ primitive base classes
def test_primitive_requires_a_name_as_mindspore():
    from sporax.ops import primitive

    with pytest.raises(TypeError, match="missing 1 required positional argument: 'name'"):
        ops.Primitive()
    with pytest.raises(TypeError, match="'name'"):
        primitive.PrimitiveWithInfer()
    p = ops.Primitive("MyOp")
    assert p.name == "MyOp" and repr(p) == "Prim[MyOp]" and p.attrs == {}
    assert primitive.Primitive is ops.Primitive and primitive.PrimitiveWithCheck is ops.PrimitiveWithCheck
    # sporax's own operator classes are named after themselves
    assert ops.ReLU().name == "ReLU" and isinstance(ops.ReLU(), primitive.Primitive_)


def test_user_primitive_with_infer_and_prim_attr_register():
    from sporax.ops.primitive import PrimitiveWithInfer, prim_attr_register, prim_type

    class AddMul(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self, scale=2.0):
            self.init_prim_io_names(inputs=["x", "y"], outputs=["z"])

        def infer_shape(self, x, y):
            return x

        def infer_dtype(self, x, y):
            return x

        def __call__(self, x, y):
            return (x + y) * self.scale

    op = AddMul(3.0)
    # as MindSpore 2.10: the registered arguments are attributes, the class name is the primitive's name
    assert op.name == "AddMul" and op.scale == 3.0 and repr(op) == "Prim[AddMul]<scale=3.0>"
    assert op.attrs == {"scale": 3.0, "input_names": ["x", "y"], "output_names": ["z"]}
    assert op._prim_type == prim_type.py_infer_shape
    np.testing.assert_allclose(op(T([1.0]), T([2.0])).asnumpy(), [9.0])
    out = op.__infer__({"shape": [2], "dtype": ms.float32}, {"shape": [2], "dtype": ms.float32})
    assert out == {"shape": [2], "dtype": ms.float32, "value": None}


def test_user_primitive_with_check_and_named_subclass():
    from sporax.ops.primitive import PrimitiveWithCheck, prim_attr_register, prim_type

    seen = []

    class Checked(PrimitiveWithCheck):
        @prim_attr_register
        def __init__(self):
            pass

        def check_shape(self, x):
            seen.append(x)

    c = Checked()
    c.__check__({"shape": [3], "dtype": ms.float32})
    assert c.name == "Checked" and repr(c) == "Prim[Checked]" and seen == [[3]]
    assert c._prim_type == prim_type.py_infer_check

    class Named(ops.Primitive):
        def __init__(self):
            super().__init__("Named")

    n = Named()
    n.add_attr("k", 1)
    assert n.name == "Named" and n.get_attr_dict() == {"k": 1} and n.add_prim_attr("j", 2).attrs["j"] == 2
    n.del_attr("k")
    assert n.get_attr_dict() == {"j": 2}


def test_prim_type_and_primitive_function():
    from sporax.ops.primitive import PrimitiveFunction_, prim_type

    # MindSpore 2.10's members and values
    assert {m.name: int(m) for m in prim_type} == {
        "unknown": 0, "builtin": 1, "py_infer_shape": 2, "user_custom": 3, "py_infer_check": 4,
    }  # fmt: skip
    f = PrimitiveFunction_("Add")
    f.set_label("side_effect", True)
    g = f.clone()
    assert g.name == "Add" and g.has_label("side_effect") and g.get_label("side_effect") is True
    assert not f.has_label("other")
