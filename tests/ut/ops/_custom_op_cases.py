"""The operator-registration chains of tests/ut/ops/test_custom_ops.py and tools/make_custom_op_reference.py,
written once: ``reg_op_chains(ops)`` builds them with sporax's or MindSpore's ``ops``."""


def reg_op_chains(ops):
    """{name: a RegOp chain} (its ``get_op_info()`` is compared with MindSpore's)."""
    return {
        "CpuRegOp": (
            ops.CpuRegOp("Add")
            .input(0, "x1", "required")
            .input(1, "x2", "required")
            .output(0, "y", "required")
            .attr("alpha", "float", "1.0")
            .dtype_format(ops.DataType.F32_Default, ops.DataType.F32_Default, ops.DataType.F32_Default)
        ),
        "AiCPURegOp": (
            ops.AiCPURegOp("Cast")
            .fusion_type("OPAQUE")
            .attr("axis", "int")
            .input(0, "x", "dynamic")
            .output(0, "y", "required")
            .dtype_format(ops.DataType.I8_Default, ops.DataType.I8_Default)
        ),
        "AkgGpuRegOp": (
            ops.AkgGpuRegOp("Mul")
            .fusion_type("ELEMWISE")
            .input(0, "x")
            .input(1, "y")
            .output(0, "output")
            .attr("k", "required", "int")
            .dtype_format(ops.DataType.F16_Default, ops.DataType.F16_Default, ops.DataType.F16_Default)
        ),
        "TBERegOp": (
            ops.TBERegOp("Abs")
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
            .dtype_format(ops.DataType.F16_None, ops.DataType.F16_None)
        ),
        "CustomRegOp": (
            ops.CustomRegOp("my_add")
            .input(0, "x", "dynamic")
            .output(0, "y")
            .attr("scale", "required", "float", "1.0")
            .dtype_format(ops.DataType.F16_Default, ops.DataType.F16_Default)
            .target("CPU")
        ),
    }
