"""Reference values for the rest of ``mindspore.ops`` (tests/ut/ops/test_ops_complete.py): the comparison
dispatchers ``less``/``lt``, ``IsClose``'s default, ``GLU``, ``index_add`` (values, a Parameter updated in
place, errors), ``partial``, the graph-internal primitives that run eagerly, ``arg_handler``/``arg_dtype_cast``
conversions and the enum values of ``signature`` and ``primitive.prim_type``.

Run under real MindSpore 2.10 (its own venv, numpy<2), from /tmp:

    /work/msvenv/bin/python tools/make_ops_complete_reference.py

writes ``tests/ut/ops/fixtures/ops_complete_reference.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "ut" / "ops" / "fixtures" / "ops_complete_reference.json"


def _out(value):
    import mindspore as ms

    if isinstance(value, ms.Tensor):
        return {"dtype": str(value.dtype), "shape": list(value.shape), "values": value.asnumpy().tolist()}
    if isinstance(value, (tuple, list)):
        return [_out(v) for v in value]
    return value


def _case(fn):
    try:
        return {"output": _out(fn())}
    except Exception as err:  # noqa: BLE001 - the error class and message are the reference
        return {"error": type(err).__name__, "message": str(err).split("\n")[0]}


def main():
    import mindspore as ms
    import mindspore.ops.functional as F
    from mindspore import Parameter, Tensor, ops
    from mindspore.ops import arg_dtype_cast, arg_handler, primitive, signature

    f32 = np.float32
    x32 = Tensor(np.zeros((3, 2), f32))
    cases = {
        "less": lambda: ops.less(Tensor([1, 3]), Tensor([2, 2])),
        "less_kw": lambda: ops.less(input=Tensor([1, 3]), other=2),
        "lt_scalar": lambda: ops.lt(Tensor([1.0, 3.0]), 2.0),
        "isclose_default": lambda: ops.IsClose()(Tensor([1.0, float("nan"), 1.1]), Tensor([1.0, float("nan"), 1.0])),
        "isclose_nan": lambda: ops.IsClose(equal_nan=True)(Tensor([1.0, float("nan")]), Tensor([1.0, float("nan")])),
        "glu": lambda: ops.GLU()(Tensor(np.array([[1.0, 2.0, 3.0, 4.0]], f32))),
        "glu_axis0": lambda: ops.GLU(axis=0)(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], f32))),
        "glu_odd": lambda: ops.GLU()(Tensor(np.array([[1.0, 2.0, 3.0]], f32))),
        "index_add": lambda: ops.index_add(x32, Tensor([0, 2], ms.int32), Tensor(np.ones((2, 2), f32)), 0),
        "index_add_axis1": lambda: ops.index_add(
            Tensor(np.zeros((2, 3), f32)), Tensor([2, 0], ms.int32), Tensor(np.arange(4, dtype=f32).reshape(2, 2)), 1
        ),
        "index_add_repeated": lambda: ops.index_add(
            Tensor(np.zeros((3,), f32)), Tensor([0, 0], ms.int32), Tensor(np.ones((2,), f32)), 0
        ),
        "index_add_int64_indices": lambda: ops.index_add(
            x32, Tensor([0, 2], ms.int64), Tensor(np.ones((2, 2), f32)), 0
        ),
        "index_add_bad_axis": lambda: ops.index_add(x32, Tensor([0, 2], ms.int32), Tensor(np.ones((2, 2), f32)), 2),
        "index_add_bad_shape": lambda: ops.index_add(x32, Tensor([0, 2], ms.int32), Tensor(np.ones((2, 3), f32)), 0),
        "partial": lambda: ops.partial(lambda a, b: a - b, 5)(3),
        "F_partial": lambda: F.partial(lambda a, b: a - b, 5)(3),
        "reduced_shape": lambda: F.reduced_shape((2, 3, 4), (1,)),
        "reduced_shape_all": lambda: F.reduced_shape((2, 3, 4), ()),
        "slice_get_item": lambda: F.SliceGetItem(slice(1, 5, 2), "stop"),
        "is_sequence_value_unknown": lambda: F.is_sequence_value_unknown((1, 2)),
        "is_tensor_bool_cond": lambda: F.is_tensor_bool_cond(Tensor(True)),
        "to_pair": lambda: arg_handler.to_pair("Op", "x", 3),
        "to_kernel_size": lambda: arg_handler.to_kernel_size("Op", "k", (1, 1, 3, 2)),
        "to_strides": lambda: arg_handler.to_strides("Op", "s", 2),
        "to_dilations": lambda: arg_handler.to_dilations("Op", "d", [1, 1, 2, 3]),
        "to_2d_paddings": lambda: arg_handler.to_2d_paddings("Op", "p", 1),
        "to_pair_bad": lambda: arg_handler.to_pair("Op", "x", "a"),
        "int_to_float": lambda: arg_dtype_cast.int_to_float(3),
        "scalar_to_tuple": lambda: arg_dtype_cast.scalar_to_tuple(3),
        "tensor_to_tuple": lambda: arg_dtype_cast.tensor_to_tuple(Tensor([1, 2])),
        "is_tuple": lambda: [arg_dtype_cast.is_tuple(arg_dtype_cast.DT_TUPLE_INT_VAL), arg_dtype_cast.is_tuple(2)],
        "is_list": lambda: [arg_dtype_cast.is_list(arg_dtype_cast.DT_LIST_INT_VAL), arg_dtype_cast.is_list(2)],
        "is_integral": lambda: [
            arg_dtype_cast.is_integral_mstype(ms.int32),
            arg_dtype_cast.is_integral_mstype(ms.float32),
        ],
        "sig_rw": lambda: {k: int(v) for k, v in signature.sig_rw.__members__.items()},
        "sig_kind": lambda: {k: int(v) for k, v in signature.sig_kind.__members__.items()},
        "sig_dtype": lambda: {k: int(v) for k, v in signature.sig_dtype.__members__.items()},
        "op_dtype": lambda: {k: int(v) for k, v in arg_dtype_cast.OpDtype.__members__.items()},
        "prim_type": lambda: {k: int(v) for k, v in primitive.prim_type.__members__.items()},
        "coo_fields": lambda: [
            F.coo_tensor_get_indices(c := ms.COOTensor(Tensor([[0, 1], [1, 2]], ms.int32), Tensor([1.0, 2.0]), (3, 4))),
            F.coo_tensor_get_values(c),
            F.coo_tensor_get_dense_shape(c),
        ],
    }
    rng = np.random.default_rng(0)
    img = Tensor(rng.random((1, 4, 5, 2)).astype(f32))
    size, scale, shift = Tensor(np.array([6, 3], np.int32)), Tensor(np.array([1.5, 0.6], f32)), Tensor([0.2, -0.3])
    kernels = ("lanczos1", "lanczos3", "lanczos5", "gaussian", "box", "triangle", "keyscubic", "mitchellcubic")
    for kt in kernels:
        for aa in (True, False):
            cases[f"scale_translate_{kt}_{aa}"] = lambda kt=kt, aa=aa: ops.ScaleAndTranslate(kt, aa)(
                img, size, scale, shift
            )
    cases["scale_translate_image"] = lambda: img
    cases["scale_translate_bad_kernel"] = lambda: ops.ScaleAndTranslate(kernel_type="cubic")
    cases["scale_translate_bad_rank"] = lambda: ops.ScaleAndTranslate()(img[0], size, scale, shift)
    dense = Tensor(np.array([[0, 1.5], [2, 0]], f32))
    cases["tensor_to_coo"] = lambda: [dense.to_coo().indices, dense.to_coo().values, list(dense.to_coo().shape)]
    cases["tensor_to_csr"] = lambda: [dense.to_csr().indptr, dense.to_csr().indices, dense.to_csr().values]
    cases["tensor_get_bytes"] = lambda: dense.get_bytes().hex()
    cases["tensor_flags"] = lambda: [
        dense.is_init(), dense.init, dense.init_finished, dense.symbolic_shape, dense.virtual_flag,
        Tensor.delta_seed, dense.index_of_parent_, dense.parent_tensor_, dense.data_sync(True), dense.wait_pipeline(),
    ]  # fmt: skip
    cases["tensor_index"] = lambda: dense.index((Tensor([1]),))
    cases["tensor_set_"] = lambda: Tensor(np.zeros((1,), f32)).set_(dense)
    img5 = Tensor(np.arange(2 * 5 * 6, dtype=f32).reshape(2, 5, 6, 1))
    win = Tensor(np.array([3, 2], np.int32))
    for centered in (True, False):
        for normalized in (True, False):
            offs = Tensor(np.array([[0.5, -0.5], [-0.9, 0.9]] if centered else [[0.5, 0.25], [0.1, 0.9]], f32))
            if not normalized:
                offs = offs * 4
            cases[f"glimpse_{centered}_{normalized}"] = lambda c=centered, n=normalized, o=offs: ops.ExtractGlimpse(
                c, n, False, "zero"
            )(img5, win, o)
    cases["glimpse_noise_mismatch"] = lambda: ops.ExtractGlimpse(uniform_noise=True, noise="zero")
    cases["glimpse_bad_noise"] = lambda: ops.ExtractGlimpse(noise="x")
    cases["select_view"] = lambda: ops.SelectView()(Tensor(np.arange(6, dtype=f32).reshape(2, 3)), 1, 0)
    cases["select_view_dim1"] = lambda: ops.SelectView()(Tensor(np.arange(6, dtype=f32).reshape(2, 3)), -1, 1)

    def copy_with_slice(src):
        dst = Tensor(np.zeros((2, 2), f32))
        out = ops.CopyWithSlice()(dst, Tensor(np.asarray(src, f32)))
        return [dst, out]

    cases["copy_with_slice"] = lambda: copy_with_slice([[1.0, 2.0], [3.0, 4.0]])
    cases["copy_with_slice_shape"] = lambda: copy_with_slice([1.0, 2.0])

    def fused_cast_adam(var_dtype):
        var = Parameter(Tensor(np.linspace(0.5, 1.5, 4).astype(var_dtype)), name="var")
        m = Parameter(Tensor(np.full(4, 0.1, f32)), name="m")
        v = Parameter(Tensor(np.full(4, 0.2, f32)), name="v")
        grad = Tensor(np.array([0.5, -1.0, 2.0, 0.0], np.float16))
        scalars = [Tensor(x, ms.float32) for x in (0.01, 0.9, 0.999, 1e-8, 0.1)]
        ops.FusedCastAdamWeightDecay()(var, m, v, *scalars, grad, Tensor(2.0, ms.float32))
        return [var, m, v]

    cases["fused_cast_adam_f32"] = lambda: fused_cast_adam(f32)
    cases["fused_cast_adam_f16"] = lambda: fused_cast_adam(np.float16)
    cases["ftrl_v2_int_lr"] = lambda: ops.SparseApplyFtrlV2(1, 0.01, 0.02, 0.03, -0.5)
    cases["ftrl_v2_attrs"] = lambda: [
        getattr(ops.SparseApplyFtrlV2(0.1, 0.01, 0.02, 0.03, -0.5), n) for n in ("lr", "l2_shrinkage", "use_locking")
    ]

    def ada_factor(cls, flags, shape, global_norm=None):
        rng = np.random.default_rng(0)
        grad = Tensor(rng.standard_normal(shape).astype(f32))
        param = Parameter(Tensor(rng.standard_normal(shape).astype(f32)), "p")
        rows, cols = (shape[:-1], shape[:-2] + shape[-1:]) if len(shape) > 1 else ((1,), (1,))
        states = [
            Parameter(Tensor(np.full(s, v, f32)), n)
            for s, v, n in ((shape, 0.05, "ea"), (rows, 0.01, "er"), (cols, 0.02, "ec"), (shape if len(shape) == 1 else (1,), 0.03, "es"))
        ]  # fmt: skip
        hyper = [Tensor(np.array([1e-30, 1e-3], f32))] + [Tensor(x, ms.float32) for x in (1.0, 0.9, 0.8, 0.01, 0.1)]
        extra = [] if global_norm is None else [Tensor(global_norm, ms.float32)]
        cls(*flags)(*hyper, grad, param, *states, *extra)
        return [param, *states]

    for name, flags, shape in (
        ("none", (False, False, False), (3, 4)), ("all", (True, True, True), (3, 4)), ("scale", (True, False, False), (3, 4)),
        ("first", (False, True, False), (3, 4)), ("wd", (False, False, True), (3, 4)), ("vec_all", (True, True, True), (5,)),
        ("vec_none", (False, False, False), (5,)), ("batched", (True, True, False), (2, 3, 4)),
    ):  # fmt: skip
        cases[f"ada_factor_{name}"] = lambda f=flags, s=shape: ada_factor(ops.FusedAdaFactor, f, s)
    for gn in (4.0, 0.5):
        cases[f"ada_factor_global_norm_{gn}"] = lambda gn=gn: ada_factor(
            ops.FusedAdaFactorWithGlobalNorm, (False, True, True), (3, 4), gn
        )
    cases["ada_factor_flag_type"] = lambda: ops.FusedAdaFactor(enable_weight_decay=1)
    sdbb = ops.SampleDistortedBoundingBoxV2
    isz, box = Tensor(np.array([40, 60, 3], np.int32)), Tensor(np.array([[[0.1, 0.2, 0.6, 0.7]]], f32))
    cases["sdbb_impossible"] = lambda: sdbb(seed=1, area_range=(0.05, 0.06))(isz, box, Tensor(np.array([1.0], f32)))
    cases["sdbb_no_boxes"] = lambda: sdbb(seed=1)(isz, Tensor(np.zeros((1, 0, 4), f32)), Tensor(np.array([0.1], f32)))
    cases["sdbb_max_attempts"] = lambda: sdbb(max_attempts=0)
    cases["sdbb_uint8"] = lambda: [
        x.dtype == ms.uint8 for x in sdbb(seed=1)(Tensor(np.array([40, 60, 3], np.uint8)), box, Tensor(np.array([0.5], f32)))
    ]  # fmt: skip

    def tensor_flag_calls():
        x = Tensor(np.array([1.0, 2.0], f32))
        return [x.init_flag, x.set_init_flag(True), x.init_flag, x.set_cast_dtype(ms.float16),
                x.offload("/tmp/ops_complete_offload.bin"), x.offload_file_path()]  # fmt: skip

    cases["tensor_flag_calls"] = tensor_flag_calls
    results = {name: _case(fn) for name, fn in cases.items()}
    p = Parameter(Tensor(np.zeros((3, 2), f32)), name="p")
    out = ops.index_add(p, Tensor([0, 2], ms.int32), Tensor(np.ones((2, 2), f32)), 0)
    results["index_add_parameter"] = {"output": {"param": p.asnumpy().tolist(), "same_object": out is p}}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"mindspore": ms.__version__, "cases": results}, indent=1) + "\n")
    print(f"wrote {len(results)} cases to {OUT}")


if __name__ == "__main__":
    main()
