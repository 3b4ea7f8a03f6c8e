"""ops.Custom (pyfunc on jax.pure_callback with bprop; CPU AOT kernels) and the registration helpers,
checked against MindSpore 2.10 (tools/make_custom_op_reference.py -> fixtures/custom_op_reference.json)."""

import json
import pathlib
import shutil

import numpy as np
import pytest
from _custom_op_cases import reg_op_chains

import sporax as ms
from sporax import Tensor, ops
from sporax.ops import (
    AkgAscendRegOp,
    CpuRegOp,
    Custom,
    CustomOpBuilder,
    CustomRegOp,
    DataType,
    TBERegOp,
    custom_info_register,
    op_info_register,
)
from sporax.ops.op_info_register import registered_op_info

REF = json.loads((pathlib.Path(__file__).parent / "fixtures" / "custom_op_reference.json").read_text())


def _plain(x):
    return json.loads(json.dumps(x))


def test_datatype_table_is_mindsporeS():
    ours = {k: list(v) for k, v in vars(DataType).items() if not k.startswith("_")}
    assert ours == REF["DataType"]
    assert DataType.F32_Default == ("float32", "DefaultFormat") and DataType.None_None == ("", "")


def test_reg_op_info_is_mindsporeS():
    for name, reg_op in reg_op_chains(ops).items():
        assert _plain(reg_op.get_op_info()) == REF[name], name
    assert AkgAscendRegOp("Mul").get_op_info()["processor"] == "AiCore"


def test_reg_op_errors():
    with pytest.raises(ValueError, match="op name is empty"):
        CpuRegOp(" ")
    with pytest.raises(ValueError, match="op name value must be string"):
        TBERegOp(1)
    with pytest.raises(TypeError, match="1.0 value must be str"):
        CpuRegOp("Add").attr("alpha", "float", 1.0)
    with pytest.raises(ValueError, match="input size add output size must be equal to dtype format size"):
        CpuRegOp("Add").input(0, "x").dtype_format(DataType.F32_Default, DataType.F32_Default)
    with pytest.raises(ValueError, match="The size of 'args' must be equal to the sum of input tensors and output"):
        CustomRegOp().input(0, "x").dtype_format(DataType.F32_Default, DataType.F32_Default)
    with pytest.raises(ValueError, match="value_depend's value \\(maybe\\) is not in"):
        TBERegOp("Abs").input(0, "x", value_depend="maybe")
    with pytest.raises(TypeError, match="value must be bool"):
        TBERegOp("Abs").async_flag("no")


def test_registration_decorators_record_and_keep_the_function():
    info = CpuRegOp("MyRelu").input(0, "x", "required").output(0, "y", "required").get_op_info()

    @op_info_register(info)
    def my_relu(x):
        return x * 2

    assert my_relu(3) == 6 and my_relu.__name__ == "my_relu"
    assert registered_op_info("MyRelu")[-1]["imply_type"] == "CPU"
    with pytest.raises(ValueError, match="Invalid op info"):
        op_info_register('{"no_name": 1}')(lambda: None)
    with pytest.raises(TypeError, match="'op_info' must be str or dict"):
        op_info_register(3)(lambda: None)
    reg = (
        CustomRegOp()
        .input(0, "x")
        .output(0, "y")
        .dtype_format(DataType.F32_Default, DataType.F32_Default)
        .target("CPU")
    )

    @custom_info_register(reg.get_op_info())
    def double(x):
        return x * 2

    assert double.reg_info[0]["target"] == "CPU" and double(np.ones(1))[0] == 2
    op = Custom(double, lambda s: s, lambda d: d, "pyfunc")
    assert op.reg_info[0]["target"] == "CPU"
    np.testing.assert_array_equal(op(Tensor(np.ones(2, np.float32))).asnumpy(), [2.0, 2.0])


def _ref_op():
    def f(x, y):
        return x * y + np.sin(x)

    def bprop(x, y, out, dout):
        return (dout * (y + ops.cos(x)), dout * x)

    return Custom(f, lambda a, b: a, lambda a, b: a, "pyfunc", bprop=bprop)


def test_pyfunc_values_and_bprop_gradients_match_mindspore():
    r = REF["pyfunc"]
    c = _ref_op()
    x, y = Tensor(np.array(r["x"], np.float32)), Tensor(np.array(r["y"], np.float32))
    np.testing.assert_allclose(c(x, y).asnumpy(), r["out"], rtol=1e-6)
    gx, gy = ms.grad(lambda a, b: c(a, b).sum(), (0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), r["grads"][0], rtol=1e-5)
    np.testing.assert_allclose(gy.asnumpy(), r["grads"][1], rtol=1e-6)
    # inside compiled code, and per example under vmap
    np.testing.assert_allclose(ms.jit(lambda a, b: c(a, b) * 2)(x, y).asnumpy(), 2 * np.array(r["out"]), rtol=1e-6)
    xs = Tensor(np.stack([np.array(r["x"], np.float32)] * 2))
    ys = Tensor(np.stack([np.array(r["y"], np.float32)] * 2))
    np.testing.assert_allclose(ms.vmap(c)(xs, ys).asnumpy(), [r["out"]] * 2, rtol=1e-6)


def test_pyfunc_outputs_shapes_and_errors():
    x = Tensor(np.arange(4, dtype=np.float32))
    two = Custom(lambda a: (a, (a * 2).astype(np.int32)), ((4,), (4,)), (ms.float32, ms.int32), "pyfunc")
    a, b = two(x)
    assert b.dtype == ms.int32 and b.asnumpy().tolist() == [0, 2, 4, 6]
    total = Custom(lambda a: a.sum(), None, ms.float32, "pyfunc")
    assert total(x).shape == () and float(total(x)) == 6.0
    seen = []
    sink = Custom(lambda a: seen.append(a.copy()), None, None, "pyfunc")
    assert sink(x).shape == (1,) and seen[0].tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(Exception, match="'func' returned shape \\(2,\\), but 'out_shape' says \\(4,\\)"):
        Custom(lambda a: a[:2], (4,), ms.float32, "pyfunc")(x).asnumpy()
    with pytest.raises(TypeError, match="'out_shape' must be one of \\[tuple, list, function\\]"):
        Custom(lambda a: a, 4, ms.float32, "pyfunc")(x)
    with pytest.raises(TypeError, match="'out_dtype' must be one of \\[mindspore.dtype, tuple, list, function\\]"):
        Custom(lambda a: a, (4,), "float32", "pyfunc")(x)
    with pytest.raises(RuntimeError, match="has no 'bprop'"):
        ms.grad(lambda v: Custom(lambda a: a * 2, (4,), ms.float32)(v).sum())(x)
    with pytest.raises(TypeError, match="every input must be a Tensor"):
        Custom(lambda a, k: a, (4,), ms.float32)(x, 3)


def test_func_types_that_need_other_compilers_say_so():
    f = lambda a: a  # noqa: E731
    with pytest.raises(
        ValueError, match="'func_type' must be one of \\['hybrid', 'akg', 'tbe', 'aicpu', 'aot', 'pyfunc'\\]"
    ):
        Custom(f, (2,), ms.float32, "julia")
    with pytest.raises(TypeError, match="'func_type': aot, .*'func' must be of type str"):
        Custom(f, (2,), ms.float32, "aot")
    with pytest.raises(TypeError, match="should be like 'file_name:func_name'"):
        Custom("lib.so", (2,), ms.float32, "aot")
    with pytest.raises(TypeError, match="'func' must be a function decorated by kernel"):
        Custom(f, (2,), ms.float32, "hybrid")

    def hybrid_add(a, b):  # a hybrid-DSL kernel runs on the host (ops.kernel sets ms_kernel_flag)
        c = np.empty_like(a)
        for i in range(a.shape[0]):
            c[i] = a[i] + b[i]
        return c

    hybrid_add.ms_kernel_flag = True
    h = Custom(hybrid_add, lambda a, b: a, lambda a, b: a, "hybrid")
    np.testing.assert_array_equal(
        h(Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32))).asnumpy(), [2.0] * 3
    )
    with pytest.raises(RuntimeError, match="give 'out_shape' and 'out_dtype'"):
        Custom(hybrid_add, None, None, "hybrid")
    for ft in ("akg", "tbe", "aicpu"):
        with pytest.raises(RuntimeError, match=f"func_type '{ft}' needs .* Use func_type='pyfunc'"):
            Custom(f, (2,), ms.float32, ft)
    with pytest.raises(RuntimeError, match="CUDA AOT kernel needs device pointers"):
        Custom("kernel.cu:add", (2,), ms.float32, "aot")
    builder = CustomOpBuilder("my_ops", ["my_ops.cpp"], backend="CPU")
    with pytest.raises(RuntimeError, match="needs MindSpore's C\\+\\+ kernel API"):
        builder.load()
    with pytest.raises(TypeError, match="the 'sources' must be str or list of str"):
        CustomOpBuilder("my_ops", 3)


AOT_SOURCE = r"""
#include <cstdint>
extern "C" int CustomAdd(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes,
                         void *stream, void *extra) {
  if (nparam != 3) return 1;
  const float *a = static_cast<const float *>(params[0]);
  const float *b = static_cast<const float *>(params[1]);
  float *out = static_cast<float *>(params[2]);
  int64_t n = 1;
  for (int i = 0; i < ndims[2]; i++) n *= shapes[2][i];
  for (int64_t i = 0; i < n; i++) out[i] = a[i] + 2.0f * b[i];
  return 0;
}
"""


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ to build the AOT kernel")
def test_cpu_aot_kernel_from_source(tmp_path):
    src = tmp_path / "add.cc"
    src.write_text(AOT_SOURCE)
    op = Custom(f"{src}:CustomAdd", lambda a, b: a, lambda a, b: a, "aot")
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = Tensor(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(op(x, y).asnumpy(), x.asnumpy() + 2.0)
    with pytest.raises(Exception, match="the AOT kernel returned 1"):
        Custom(f"{src}:CustomAdd", (2, 3), ms.float32, "aot")(x).asnumpy()
