"""Record MindSpore 2.10's operator-registration outputs for tests/ut/ops/test_custom_ops.py.

Run under real MindSpore (its own venv): /work/msvenv/bin/python tools/make_custom_op_reference.py
Writes tests/ut/ops/fixtures/custom_op_reference.json: the DataType table, the get_op_info() dicts of a
few RegOp chains, and ops.Custom pyfunc outputs and gradients (with bprop).
"""

import json
import pathlib

import mindspore as ms
import numpy as np
from mindspore import Tensor, ops
from mindspore.ops import AiCPURegOp, AkgGpuRegOp, CpuRegOp, CustomRegOp, DataType, TBERegOp

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "ut" / "ops" / "fixtures" / "custom_op_reference.json"


def main():
    ref = {"DataType": {k: list(v) for k, v in vars(DataType).items() if not k.startswith("_")}}
    ref["CpuRegOp"] = (
        CpuRegOp("Add")
        .input(0, "x1", "required")
        .input(1, "x2", "required")
        .output(0, "y", "required")
        .attr("alpha", "float", "1.0")
        .dtype_format(DataType.F32_Default, DataType.F32_Default, DataType.F32_Default)
        .get_op_info()
    )
    ref["AiCPURegOp"] = (
        AiCPURegOp("Cast")
        .fusion_type("OPAQUE")
        .attr("axis", "int")
        .input(0, "x", "dynamic")
        .output(0, "y", "required")
        .dtype_format(DataType.I8_Default, DataType.I8_Default)
        .get_op_info()
    )
    ref["AkgGpuRegOp"] = (
        AkgGpuRegOp("Mul")
        .fusion_type("ELEMWISE")
        .input(0, "x")
        .input(1, "y")
        .output(0, "output")
        .attr("k", "required", "int")
        .dtype_format(DataType.F16_Default, DataType.F16_Default, DataType.F16_Default)
        .get_op_info()
    )
    ref["TBERegOp"] = (
        TBERegOp("Abs")
        .fusion_type("ELEMWISE")
        .async_flag(False)
        .binfile_name("abs.so")
        .compute_cost(10)
        .kernel_name("abs")
        .partial_flag(True)
        .op_pattern("formatAgnostic")
        .dynamic_shape(True)
        .need_check_supported(True)
        .dynamic_rank_support(True)
        .dynamic_compile_static(True)
        .attr("format", "required", "str", "all")
        .input(0, "x", None, "required", None)
        .output(0, "y", True, "required", "all")
        .real_input_index([0])
        .input_to_attr_index([])
        .unknown_shape_formats(["ND", "ND"])
        .reshape_type("NC")
        .is_dynamic_format(True)
        .dtype_format(DataType.F16_None, DataType.F16_None)
        .get_op_info()
    )
    ref["CustomRegOp"] = (
        CustomRegOp("my_add")
        .input(0, "x", "dynamic")
        .output(0, "y")
        .attr("scale", "required", "float", "1.0")
        .dtype_format(DataType.F16_Default, DataType.F16_Default)
        .target("CPU")
        .get_op_info()
    )

    def f(x, y):
        return x * y + np.sin(x)

    def bprop(x, y, out, dout):
        return (dout * (y + ops.cos(x)), dout * x)

    c = ops.Custom(f, lambda a, b: a, lambda a, b: a, "pyfunc", bprop=bprop)
    x = Tensor(np.array([0.5, 1.0, 2.0], np.float32))
    y = Tensor(np.array([3.0, -1.0, 0.25], np.float32))
    ref["pyfunc"] = {
        "x": x.asnumpy().tolist(),
        "y": y.asnumpy().tolist(),
        "out": c(x, y).asnumpy().tolist(),
        "grads": [g.asnumpy().tolist() for g in ms.grad(lambda a, b: c(a, b).sum(), (0, 1))(x, y)],
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(ref, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
