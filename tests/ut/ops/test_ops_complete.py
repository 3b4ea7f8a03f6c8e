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


# ------------------------------------------------------------------ MindSpore 2.10 references
import json  # noqa: E402
from pathlib import Path  # noqa: E402

REF = json.loads((Path(__file__).parent / "fixtures" / "ops_complete_reference.json").read_text())["cases"]
F32 = np.float32


def _same(out, ref):
    if isinstance(ref, dict) and "dtype" in ref:
        assert str(out.dtype) == ref["dtype"] and list(out.shape) == ref["shape"]
        np.testing.assert_allclose(
            np.asarray(out.asnumpy(), np.float64), np.asarray(ref["values"], np.float64), 2e-5, 1e-6
        )
    elif isinstance(ref, list) and isinstance(out, (tuple, list)):
        assert len(out) == len(ref)
        for o, r in zip(out, ref, strict=True):
            _same(o, r)
    else:
        assert out == ref, (out, ref)


def _replay(name, fn):
    ref = REF[name]
    if "error" in ref:
        with pytest.raises(Exception) as e:  # noqa: PT011 - the class is checked by name below
            fn()
        assert ref["error"] in [c.__name__ for c in type(e.value).__mro__]
        assert str(e.value).startswith(ref["message"].split(" with input_shape")[0])
        return
    _same(fn(), ref["output"])


def test_less_lt_dispatch_isclose_default():
    from sporax.ops import functional as F

    _replay("less", lambda: ops.less(T([1, 3]), T([2, 2])))
    _replay("less_kw", lambda: ops.less(input=T([1, 3]), other=2))
    _replay("lt_scalar", lambda: F.lt(T([1.0, 3.0], F32), 2.0))
    assert ops.lt is ops.less is F.less is ops.function.lt
    _replay("isclose_default", lambda: ops.IsClose()(T([1.0, np.nan, 1.1], F32), T([1.0, np.nan, 1.0], F32)))
    _replay("isclose_nan", lambda: ops.IsClose(equal_nan=True)(T([1.0, np.nan], F32), T([1.0, np.nan], F32)))


def test_glu_primitive_values_error_and_grad():
    _replay("glu", lambda: ops.GLU()(T([[1.0, 2.0, 3.0, 4.0]], F32)))
    _replay("glu_axis0", lambda: ops.GLU(axis=0)(T([[1.0, 2.0], [3.0, 4.0]], F32)))
    _replay("glu_odd", lambda: ops.GLU()(T([[1.0, 2.0, 3.0]], F32)))
    x = np.array([[0.5, -1.0, 2.0, 0.25]], F32)
    g = ms.grad(lambda t: ops.GLU()(t).sum())(T(x)).asnumpy()
    a, b = x[:, :2], x[:, 2:]
    s = 1 / (1 + np.exp(-b))
    np.testing.assert_allclose(g, np.concatenate([s, a * s * (1 - s)], 1), rtol=1e-5)


def test_index_add_values_parameter_in_place_errors_and_grad():
    i = T([0, 2], np.int32)
    _replay("index_add", lambda: ops.index_add(T(np.zeros((3, 2), F32)), i, T(np.ones((2, 2), F32)), 0))
    _replay(
        "index_add_axis1",
        lambda: ops.index_add(
            T(np.zeros((2, 3), F32)), T([2, 0], np.int32), T(np.arange(4, dtype=F32).reshape(2, 2)), 1
        ),
    )
    _replay(
        "index_add_repeated", lambda: ops.index_add(T(np.zeros(3, F32)), T([0, 0], np.int32), T(np.ones(2, F32)), 0)
    )
    z = T(np.zeros((3, 2), F32))
    _replay("index_add_int64_indices", lambda: ops.index_add(z, T([0, 2], np.int64), T(np.ones((2, 2), F32)), 0))
    _replay("index_add_bad_axis", lambda: ops.index_add(z, i, T(np.ones((2, 2), F32)), 2))
    _replay("index_add_bad_shape", lambda: ops.index_add(z, i, T(np.ones((2, 3), F32)), 0))
    with pytest.raises(RuntimeError, match="For 'IndexAdd', the indices are out of range"):
        ops.index_add(z, T([0, 5], np.int32), T(np.ones((2, 2), F32)), 0)
    p = ms.Parameter(T(np.zeros((3, 2), F32)), name="p")
    out = ops.index_add(p, i, T(np.ones((2, 2), F32)), 0)
    ref = REF["index_add_parameter"]["output"]
    assert p.asnumpy().tolist() == ref["param"] and (out is p) is ref["same_object"]
    g = ms.grad(lambda y: ops.index_add(z, i, y, 0).sum())(T(np.ones((2, 2), F32)))
    np.testing.assert_array_equal(g.asnumpy(), np.ones((2, 2)))


def test_partial_is_the_primitive_instance():
    from sporax.ops import functional as F

    assert ops.partial is F.partial and isinstance(ops.partial, ops.Partial)
    _replay("partial", lambda: ops.partial(lambda a, b: a - b, 5)(3))
    _replay("F_partial", lambda: F.partial(lambda a, b: a - b, 5)(3))
    assert ops.function.partial(ops.add, T(1.0))(T(2.0)).asnumpy() == 3.0


def test_graph_internal_primitives():
    from sporax.ops import functional as F

    _replay("reduced_shape", lambda: F.reduced_shape((2, 3, 4), (1,)))
    _replay("reduced_shape_all", lambda: ops.reduced_shape((2, 3, 4), ()))
    _replay("slice_get_item", lambda: F.SliceGetItem(slice(1, 5, 2), "stop"))
    _replay("is_sequence_value_unknown", lambda: F.is_sequence_value_unknown((1, 2)))
    _replay("is_tensor_bool_cond", lambda: ops.is_tensor_bool_cond(T(True)))
    assert not ops.is_sequence_shape_unknown([1]) and not F.is_dynamic_sequence_element_unknown((1,))
    assert ops.array_to_scalar(T(3)) == 3 and F.array_to_scalar(T([2.5], F32)) == 2.5
    relu, neg = ops.ReLU(), ops.Neg()
    assert F.switch_layer(T(1, np.int32), (relu, neg)) is neg and ops.switch_layer(0, [relu, neg]) is relu
    with pytest.raises(ValueError, match="switch_layer"):
        ops.switch_layer(2, (relu, neg))
    env = F.environ_set(ops.environ_create(), "g", T([1.0], F32))
    both = ops.environ_add(env, F.environ_set(ops.environ_create(), "g", T([2.0], F32)))
    assert ops.environ_get(both, "g", None).asnumpy().tolist() == [3.0] and F.environ_get(env, "h", 7) == 7
    out, bprop = ops.J(lambda t: (t * t).sum())(T([1.0, 2.0], F32))
    assert float(out) == 5.0 and bprop(T(1.0, F32))[0].asnumpy().tolist() == [2.0, 4.0]
    assert repr(ops.J) == "Prim[J]" and repr(F.SliceGetItem) == "Prim[SliceGetItem]"


def test_sparse_field_primitives():
    from sporax.ops import function as fn
    from sporax.ops import functional as F

    c = ops.make_coo_tensor(T([[0, 1], [1, 2]], np.int32), T([1.0, 2.0], F32), (3, 4))
    _replay(
        "coo_fields",
        lambda: [F.coo_tensor_get_indices(c), fn.coo_tensor_get_values(c), ops.coo_tensor_get_dense_shape(c)],
    )
    csr = F.make_csr_tensor(T([0, 1, 2], np.int32), T([1, 0], np.int32), T([5.0, 6.0], F32), (2, 2))
    assert fn.csr_tensor_get_indptr(csr).asnumpy().tolist() == [0, 1, 2]
    assert ops.csr_tensor_get_indices(csr).asnumpy().tolist() == [1, 0]
    assert F.csr_tensor_get_values(csr).asnumpy().tolist() == [5.0, 6.0] and ops.csr_tensor_get_dense_shape(csr) == (
        2,
        2,
    )
    r = fn.make_row_tensor_inner(T([2], np.int32), T([[1.0, 2.0]], F32), (3, 2))
    assert ops.row_tensor_get_indices(r).asnumpy().tolist() == [2] and F.row_tensor_get_dense_shape(r) == (3, 2)
    assert fn.row_tensor_get_values(r).asnumpy().tolist() == [[1.0, 2.0]]
    np.testing.assert_array_equal(r.to_dense().asnumpy(), [[0, 0], [0, 0], [1, 2]])
    with pytest.raises(TypeError, match="For 'coo_tensor_get_indices', the input must be a COOTensor"):
        ops.coo_tensor_get_indices(r)


def test_arg_handler_arg_dtype_cast_and_signature_modules():
    from sporax.ops import arg_dtype_cast, arg_handler, signature

    _replay("to_pair", lambda: list(arg_handler.to_pair("Op", "x", 3)))
    _replay("to_kernel_size", lambda: list(arg_handler.to_kernel_size("Op", "k", (1, 1, 3, 2))))
    _replay("to_strides", lambda: list(arg_handler.to_strides("Op", "s", 2)))
    _replay("to_dilations", lambda: list(arg_handler.to_dilations("Op", "d", [1, 1, 2, 3])))
    _replay("to_2d_paddings", lambda: list(arg_handler.to_2d_paddings("Op", "p", 1)))
    _replay("to_pair_bad", lambda: arg_handler.to_pair("Op", "x", "a"))
    _replay("int_to_float", lambda: arg_dtype_cast.int_to_float(3))
    _replay("scalar_to_tuple", lambda: list(arg_dtype_cast.scalar_to_tuple(3)))
    _replay("tensor_to_tuple", lambda: list(arg_dtype_cast.tensor_to_tuple(T([1, 2]))))
    _replay("is_tuple", lambda: [arg_dtype_cast.is_tuple(arg_dtype_cast.DT_TUPLE_INT_VAL), arg_dtype_cast.is_tuple(2)])
    _replay("is_list", lambda: [arg_dtype_cast.is_list(arg_dtype_cast.DT_LIST_INT_VAL), arg_dtype_cast.is_list(2)])
    _replay(
        "is_integral",
        lambda: [arg_dtype_cast.is_integral_mstype(ms.int32), arg_dtype_cast.is_integral_mstype(ms.float32)],
    )
    _replay("op_dtype", lambda: {m.name: int(m) for m in arg_dtype_cast.OpDtype})
    for enum_name in ("sig_rw", "sig_kind", "sig_dtype"):
        _replay(enum_name, lambda e=enum_name: {m.name: int(m) for m in getattr(signature, e)})
    from sporax.ops.primitive import prim_type

    _replay("prim_type", lambda: {m.name: int(m) for m in prim_type})
    s = signature.make_sig("x", signature.sig_rw.RW_WRITE, dtype=signature.sig_dtype.T)
    assert (s.name, s.rw, s.kind, s.dtype) == (
        "x",
        1,
        0,
        0,
    ) and s.default == signature.sig_kind.KIND_EMPTY_DEFAULT_VALUE


def test_operation_modules_and_generated_module_paths():
    from sporax.ops import functional as F

    assert ops.P is ops.operations is F.P and ops.P.ReLU is ops.ReLU
    assert ops.array_ops.Transpose is ops.Transpose and F.linalg_ops is ops.linalg_ops and ops.other_ops is F.other_ops
    assert ops.auto_generate is F.auto_generate and ops.gen_ops_prim.ReduceSum is ops.ReduceSum
    assert ops.gen_ops_def.relu is ops.relu and ops.gen_extend_func.sum is ops.sum
    assert ops.auto_generate.Add is ops.Add and ops.auto_generate.arg_handler is ops.arg_handler
    assert ops.cpp_create_prim_instance_helper.op_args_default_value["ReduceSum"] == {
        "keep_dims": False,
        "skip_mode": False,
    }
    assert ops.cpp_create_prim_instance_helper.op_labels == {}
    x = T([[1.0, -2.0], [3.0, 4.0]], F32)
    impl = ops.pyboost_inner_prim
    assert impl.reduce_max_impl(x, (1,), False).asnumpy().tolist() == [1.0, 4.0]
    assert impl.roll_impl(x, 1, 0).asnumpy().tolist() == [[3.0, 4.0], [1.0, -2.0]] and impl.cross_impl.name == "Cross"
    assert impl.squeeze_impl.clone().name == "Squeeze"


def test_composite_helpers_in_the_ops_namespace():
    from sporax.ops import composite as C

    for name in ("hyper_add", "tail", "zip_operation", "env_get", "augassign_add", "augassign_sub", "augassign_mul",
                 "augassign_div", "augassign_floordiv", "augassign_mod", "iter_converter", "ms_next", "ms_hasnext",
                 "recompute_block", "add_flags", "_Vmap"):  # fmt: skip
        assert getattr(ops, name) is getattr(C, name)
    assert ops.tail((1, 2, 3)) == (2, 3) and ops.zip_operation((1, 2), (3, 4)) == ((1, 3), (2, 4))
    assert (
        ops.augassign_floordiv(7, 2) == 3 and ops.augassign_mod(7, 4) == 3 and ops.hyper_add((1, 2), (3, 4)) == (4, 6)
    )
    vm = ops._Vmap()(lambda a, b: a * b, (0, None))
    np.testing.assert_allclose(vm(T(X), T(2.0, F32)).asnumpy(), X * 2)
    assert C._Vmap is ops._Vmap


def test_kernel_decorators_pyfunc_and_vm_impl_registry():
    from sporax.ops import operations as P

    @ops.kernel(compile_attrs={"k": 1})
    def outer(a, b):
        c = output_tensor(a.shape, a.dtype)  # noqa: F821 - a Hybrid DSL intrinsic
        with block_realize(c):  # noqa: F821
            for i0 in range(a.shape[0]):
                for i1 in range(b.shape[1]):
                    c[i0, i1] = 0.0
                    for i2 in range(a.shape[1]):
                        c[i0, i1] = c[i0, i1] + sqrt(a[i0, i2] * b[i2, i1])  # noqa: F821
        return c

    a = np.full((2, 2), 4.0, F32)
    np.testing.assert_allclose(outer(a, a), np.full((2, 2), 8.0))  # run directly on NumPy arrays
    assert outer.ms_kernel_flag and outer.compile_attrs == '{"k": 1}' and P.kernel is ops.kernel
    op = ops.Custom(outer, lambda x, y: x, lambda x, y: x, "hybrid")
    np.testing.assert_allclose(op(T(a), T(a)).asnumpy(), np.full((2, 2), 8.0))
    with pytest.raises(TypeError, match="'compile_attrs' of @kernel must be a dict"):
        ops.kernel(compile_attrs=[1])
    with pytest.warns(DeprecationWarning, match="'ms_kernel' is deprecated"):
        assert P.ms_kernel(lambda x: x).ms_kernel_flag

    @ops._ms_pyfunc(lambda x: x)
    def double(x):
        return x * 2

    assert type(double).__name__ == "PyCallback_double" and double.attrs["prim_py_func"] is True
    assert P._ms_pyfunc is ops._ms_pyfunc and double(T([1.0], F32)).asnumpy().tolist() == [2.0]

    @ops.vm_impl_registry.register("MyType")
    def vm_impl_type(prim):
        return lambda x: type(x)

    assert ops.get_vm_impl_fn("MyType")(1.0) is float and ops.get_vm_impl_fn(ops.ReLU()) is None

    @ops.vm_impl_registry.register(P.Neg)
    def vm_impl_neg(prim):
        return lambda x: -x

    assert ops.get_vm_impl_fn(ops.Neg())(3) == -3 and ops.prim_arg_register is ops.primitive.prim_arg_register


@pytest.mark.parametrize("aa", [True, False])
def test_scale_and_translate_every_kernel_against_mindspore(aa):
    img = T(np.asarray(REF["scale_translate_image"]["output"]["values"], F32))
    size, scale, shift = T([6, 3], np.int32), T([1.5, 0.6], F32), T([0.2, -0.3], F32)
    for kt in ("lanczos1", "lanczos3", "lanczos5", "gaussian", "box", "triangle", "keyscubic", "mitchellcubic"):
        _replay(f"scale_translate_{kt}_{aa}", lambda kt=kt: ops.ScaleAndTranslate(kt, aa)(img, size, scale, shift))
    _replay("scale_translate_bad_kernel", lambda: ops.ScaleAndTranslate(kernel_type="cubic"))
    _replay("scale_translate_bad_rank", lambda: ops.ScaleAndTranslate()(img[0], size, scale, shift))
    op = ops.ScaleAndTranslate("triangle", aa)
    assert op.attrs == {"kernel_type": "triangle", "antialias": aa}
    # linear in the image: the gradient of a weighted sum is the adjoint, checked by finite differences
    w = np.random.default_rng(1).random((1, 6, 3, 2)).astype(F32)
    g = ms.grad(lambda t: (op(t, size, scale, shift) * T(w)).sum())(img).asnumpy()
    base = np.asarray(img.asnumpy(), np.float64)
    bump = base.copy()
    bump[0, 1, 2, 0] += 1.0
    diff = (op(T(bump.astype(F32)), size, scale, shift).asnumpy() - op(img, size, scale, shift).asnumpy()) * w
    np.testing.assert_allclose(g[0, 1, 2, 0], diff.sum(), rtol=1e-4, atol=1e-6)


def test_tensor_members_of_the_cpp_tensor():
    dense = T([[0, 1.5], [2, 0]], F32)
    _replay("tensor_to_coo", lambda: [dense.to_coo().indices, dense.to_coo().values, list(dense.to_coo().shape)])
    _replay("tensor_to_csr", lambda: [dense.to_csr().indptr, dense.to_csr().indices, dense.to_csr().values])
    _replay("tensor_get_bytes", lambda: dense.get_bytes().hex())
    flags = [dense.is_init(), dense.init, dense.init_finished, dense.symbolic_shape, dense.virtual_flag]
    flags += [ms.Tensor.delta_seed, dense.index_of_parent_, dense.parent_tensor_, dense.data_sync(True)]
    _replay("tensor_flags", lambda: [*flags, dense.wait_pipeline()])
    _replay("tensor_set_", lambda: T(np.zeros(1, F32)).set_(dense))
    back = ms.Tensor.convert_bytes_to_tensor(dense.get_bytes(), (2, 2), ms.float32)
    np.testing.assert_array_equal(back.asnumpy(), dense.asnumpy())
    # MindSpore's CPU build refuses index() (Ascend only); sporax indexes as x[i0, i1, ...]
    np.testing.assert_array_equal(dense.index((T([1, 0]),)).asnumpy(), dense.asnumpy()[[1, 0]])
    y = T(np.zeros((2, 2), F32))
    assert y.assign_value_cpp(T(np.ones((2, 2), F32))) is y and y.asnumpy().sum() == 4
    with pytest.raises(RuntimeError, match="set_device_address now only support Ascend backend"):
        dense.set_device_address(0, 0)


@pytest.mark.parametrize("centered", [True, False])
@pytest.mark.parametrize("normalized", [True, False])
def test_extract_glimpse_against_mindspore(centered, normalized):
    img5 = T(np.arange(2 * 5 * 6, dtype=F32).reshape(2, 5, 6, 1))
    offs = np.array([[0.5, -0.5], [-0.9, 0.9]] if centered else [[0.5, 0.25], [0.1, 0.9]], F32)
    offs = T(offs if normalized else offs * 4)
    op = ops.ExtractGlimpse(centered, normalized, False, "zero")
    _replay(f"glimpse_{centered}_{normalized}", lambda: op(img5, T([3, 2], np.int32), offs))
    if centered and normalized:
        _replay("glimpse_noise_mismatch", lambda: ops.ExtractGlimpse(uniform_noise=True, noise="zero"))
        _replay("glimpse_bad_noise", lambda: ops.ExtractGlimpse(noise="x"))
        # random fills (MindSpore's are random too): inside the image the pixels, outside noise in range
        img = T(np.arange(32, dtype=F32).reshape(1, 4, 4, 2) * 0.1 + 5)
        corner = T([[0.0, 0.0]], F32)
        for kw in ({}, {"uniform_noise": False, "noise": "gaussian"}):
            out = ops.ExtractGlimpse(False, False, **kw)(img, T([3, 3], np.int32), corner).asnumpy()
            np.testing.assert_allclose(out[0, 1:, 1:, 0], [[5.0, 5.2], [5.8, 6.0]], rtol=1e-6)
            assert np.isfinite(out).all()
        out = ops.ExtractGlimpse(False, False)(img, T([3, 3], np.int32), corner).asnumpy()
        assert (out[0, 0, :, 0] >= 5.0).all() and (out[0, 0, :, 0] <= 8.0).all()


def test_select_view_copy_with_slice_fused_cast_adam_weight_decay():
    x = T(np.arange(6, dtype=F32).reshape(2, 3))
    _replay("select_view", lambda: ops.SelectView()(x, 1, 0))
    _replay("select_view_dim1", lambda: ops.SelectView()(x, -1, 1))
    np.testing.assert_array_equal(ops.SelectView()(x, 2, 1).asnumpy(), [2.0, 5.0])

    def copy_with_slice(src):
        dst = T(np.zeros((2, 2), F32))
        out = ops.CopyWithSlice()(dst, T(np.asarray(src, F32)))
        return [dst, out]

    _replay("copy_with_slice", lambda: copy_with_slice([[1.0, 2.0], [3.0, 4.0]]))
    _replay("copy_with_slice_shape", lambda: copy_with_slice([1.0, 2.0]))

    def fused_cast_adam(var_dtype):
        var = ms.Parameter(T(np.linspace(0.5, 1.5, 4).astype(var_dtype)), name="var")
        m = ms.Parameter(T(np.full(4, 0.1, F32)), name="m")
        v = ms.Parameter(T(np.full(4, 0.2, F32)), name="v")
        grad = T(np.array([0.5, -1.0, 2.0, 0.0], np.float16))
        scalars = [T(np.float32(x)) for x in (0.01, 0.9, 0.999, 1e-8, 0.1)]
        ops.FusedCastAdamWeightDecay()(var, m, v, *scalars, grad, T(np.float32(2.0)))
        return [var, m, v]

    _replay("fused_cast_adam_f32", lambda: fused_cast_adam(F32))
    _replay("fused_cast_adam_f16", lambda: fused_cast_adam(np.float16))


def test_sparse_apply_ftrl_v2_against_the_documented_formula():
    _replay("ftrl_v2_int_lr", lambda: ops.SparseApplyFtrlV2(1, 0.01, 0.02, 0.03, -0.5))
    _replay(
        "ftrl_v2_attrs",
        lambda: [
            getattr(ops.SparseApplyFtrlV2(0.1, 0.01, 0.02, 0.03, -0.5), n)
            for n in ("lr", "l2_shrinkage", "use_locking")
        ],
    )
    lr, l1, l2, shrink, p = 0.1, 0.01, 0.02, 0.03, -0.5
    var0 = np.array([[1.0, -0.5], [0.3, 0.2], [2.0, 0.0]], F32)
    acc0, lin0 = np.full((3, 2), 0.5, F32), np.array([[0.1, -0.2], [0.0, 0.0], [0.3, 0.01]], F32)
    grad, idx = np.array([[0.1, 0.2], [0.3, -0.4]], F32), np.array([0, 2], np.int32)

    def run(op):
        var, acc, lin = (ms.Parameter(T(a), name=n) for a, n in ((var0, "v"), (acc0, "a"), (lin0, "l")))
        op(var, acc, lin, T(grad), T(idx))
        return var.asnumpy(), acc.asnumpy(), lin.asnumpy()

    # TensorFlow's FtrlV2 on the rows: the linear term takes grad + 2 * l2_shrinkage * var
    v, a, li = var0[idx].astype(np.float64), acc0[idx].astype(np.float64), lin0[idx].astype(np.float64)
    a_new = a + grad * grad
    li_new = li + grad + 2 * shrink * v - (a_new**-p - a**-p) / lr * v
    v_new = np.where(np.abs(li_new) > l1, (np.sign(li_new) * l1 - li_new) / (a_new**-p / lr + 2 * l2), 0.0)
    got_v, got_a, got_l = run(ops.SparseApplyFtrlV2(lr, l1, l2, shrink, p))
    np.testing.assert_allclose(got_v[idx], v_new, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got_a[idx], a_new, rtol=1e-6)
    np.testing.assert_allclose(got_l[idx], li_new, rtol=1e-5, atol=1e-7)
    np.testing.assert_array_equal(got_v[1], var0[1])  # rows not in indices stay
    # without shrinkage it is SparseApplyFtrl (checked against MindSpore 2.10 by tests/ut/nn/_optim_ops_cases.py)
    for x, y in zip(
        run(ops.SparseApplyFtrlV2(lr, l1, l2, 0.0, p)), run(ops.SparseApplyFtrl(lr, l1, l2, p)), strict=True
    ):
        np.testing.assert_allclose(x, y, rtol=1e-6)


def _ada_factor(cls, flags, shape, global_norm=None):
    rng = np.random.default_rng(0)
    grad = T(rng.standard_normal(shape).astype(F32))
    param = ms.Parameter(T(rng.standard_normal(shape).astype(F32)), name="p")
    rows, cols = (shape[:-1], shape[:-2] + shape[-1:]) if len(shape) > 1 else ((1,), (1,))
    states = [
        ms.Parameter(T(np.full(s, v, F32)), name=n)
        for s, v, n in ((shape, 0.05, "ea"), (rows, 0.01, "er"), (cols, 0.02, "ec"), (shape if len(shape) == 1 else (1,), 0.03, "es"))
    ]  # fmt: skip
    hyper = [T([1e-30, 1e-3], F32)] + [T(np.float32(x)) for x in (1.0, 0.9, 0.8, 0.01, 0.1)]
    extra = [] if global_norm is None else [T(np.float32(global_norm))]
    out = cls(*flags)(*hyper, grad, param, *states, *extra)
    np.testing.assert_array_equal(out.asnumpy(), param.asnumpy())
    return [param, *states]


@pytest.mark.parametrize(
    "name,flags,shape",
    [("none", (False, False, False), (3, 4)), ("all", (True, True, True), (3, 4)), ("scale", (True, False, False), (3, 4)),
     ("first", (False, True, False), (3, 4)), ("wd", (False, False, True), (3, 4)), ("vec_all", (True, True, True), (5,)),
     ("vec_none", (False, False, False), (5,)), ("batched", (True, True, False), (2, 3, 4))],
)  # fmt: skip
def test_fused_ada_factor_against_mindspore(name, flags, shape):
    _replay(f"ada_factor_{name}", lambda: _ada_factor(ops.FusedAdaFactor, flags, shape))
    if name == "none":
        for gn in (4.0, 0.5):
            _replay(
                f"ada_factor_global_norm_{gn}",
                lambda gn=gn: _ada_factor(ops.FusedAdaFactorWithGlobalNorm, (False, True, True), (3, 4), gn),
            )
        _replay("ada_factor_flag_type", lambda: ops.FusedAdaFactor(enable_weight_decay=1))


def test_sample_distorted_bounding_box_v2():
    sdbb = ops.SampleDistortedBoundingBoxV2
    isz, box = T([40, 60, 3], np.int32), T([[[0.1, 0.2, 0.6, 0.7]]], F32)
    _replay("sdbb_impossible", lambda: sdbb(seed=1, area_range=(0.05, 0.06))(isz, box, T([1.0], F32)))
    _replay("sdbb_no_boxes", lambda: sdbb(seed=1)(isz, T(np.zeros((1, 0, 4), F32)), T([0.1], F32)))
    _replay("sdbb_max_attempts", lambda: sdbb(max_attempts=0))
    _replay(
        "sdbb_uint8", lambda: [x.dtype == ms.uint8 for x in sdbb(seed=1)(T([40, 60, 3], np.uint8), box, T([0.5], F32))]
    )
    # random crops (MindSpore's draws differ): each within the image, of the asked aspect and area, covering
    # at least half of the box; an op seed repeats its sequence
    box_px = np.array([0.1 * 40, 0.2 * 60, 0.6 * 40, 0.7 * 60])
    for seed in range(6):
        begin, size, bbox = (x.asnumpy() for x in sdbb(seed=seed, seed2=1)(isz, box, T([0.5], F32)))
        (y, x, _), (h, w, c) = begin, size
        assert c == -1 and 0 <= y and y + h <= 40 and 0 <= x and x + w <= 60
        assert 0.05 * 2400 <= h * w <= 2400 and 0.75 - 0.05 <= w / h <= 1.33 + 0.05
        inter = max(0, min(y + h, box_px[2]) - max(y, box_px[0])) * max(0, min(x + w, box_px[3]) - max(x, box_px[1]))
        assert inter / ((box_px[2] - box_px[0]) * (box_px[3] - box_px[1])) >= 0.5
        np.testing.assert_allclose(bbox[0, 0], [y / 40, x / 60, (y + h) / 40, (x + w) / 60], rtol=1e-6)
    draws = []
    for _ in range(2):
        ms.set_seed(5)
        op = sdbb(seed=3, seed2=4)
        draws.append([[x.asnumpy().tolist() for x in op(isz, box, T([0.5], F32))] for _ in range(2)])
    assert draws[0] == draws[1]  # the same sequence after set_seed
    whole = sdbb(seed=2, use_image_if_no_bounding_boxes=True)(isz, T(np.zeros((1, 0, 4), F32)), T([0.1], F32))
    assert whole[1].asnumpy()[2] == -1


def test_reshard_primitive_is_reshard(monkeypatch):
    from sporax.ops import _sharding
    from sporax.parallel import Layout

    layout = Layout((4, 2), ("dp", "mp"))
    prim = ops.Reshard((layout("dp", "mp"),), (layout("dp", "mp"),), ((4, 2),))
    x = T(np.ones((8, 4), F32))
    assert prim(x) is x  # outside semi-auto parallel the tensor itself, as MindSpore's Reshard eagerly
    assert prim.in_strategy == ((4, 2),) and prim.name == "Reshard"
    seen = []
    monkeypatch.setattr(_sharding, "reshard", lambda t, lay: seen.append(lay) or t)
    prim(x)
    assert seen and seen[0] is prim.out_layout[0]  # the one implementation: ops.reshard with the out layout


def test_tensor_flags_and_offload(tmp_path):
    def calls():
        y = T([1.0, 2.0], F32)
        return [y.init_flag, y.set_init_flag(True), y.init_flag, y.set_cast_dtype(ms.float16),
                y.offload(str(tmp_path / "y.bin")), y.offload_file_path() == str(tmp_path / "y.bin")]  # fmt: skip

    ref = REF["tensor_flag_calls"]["output"]
    assert calls() == [*ref[:5], ref[5] == "/tmp/ops_complete_offload.bin"]
    x = T([[0, 1.5], [2, 0]], F32)
    assert x.init_flag is False and x.set_init_flag(True) is None and x.init_flag is True
    assert x.set_cast_dtype(ms.float16) is None and T([1.0], F32).init_flag is False
    path = tmp_path / "x.bin"
    assert x.offload(str(path)) is True and x.offload_file_path() == str(path)
    assert path.read_bytes() == x.get_bytes() and T([1.0], F32).offload_file_path() == ""
    p = ms.Parameter(T([1.0, 2.0], F32), name="p")
    p.set_init_flag(True)
    assert p.init_flag and "_init_flag" in p.__dict__  # a Parameter keeps them in its own __dict__
    from sporax.common import _tensor_cpp_members

    key = id(x)
    del x
    import gc

    gc.collect()
    assert key not in _tensor_cpp_members._FLAGS  # a plain tensor's entry goes with it
