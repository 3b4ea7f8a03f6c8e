"""Reference values of MindSpore 2.10's math ops where NumPy/SciPy differ or have no counterpart.

Run under real MindSpore (its own venv, numpy<2):

    /work/msvenv/bin/python tools/make_ops_math_reference.py

writes ``tests/ut/ops/fixtures/ops_math_reference.json``: for each case the op, its inputs, and MindSpore's
output (values, dtype) or its exception class. ``tests/ut/ops/test_math_reference.py`` replays the cases on
sporax.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "ut" / "ops" / "fixtures" / "ops_math_reference.json"

F32 = [0.5, -1.5, 2.0, 0.0]
I32 = [1, -2, 3, 4]
POS = [0.5, 1.5, 2.0, 3.25]
MAT = [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]

# (case name, op name, args as (kind, value) pairs, kwargs)
CASES = [
    ("inv_int", "inv", [("int32", I32)], {}),
    ("inv_float", "inv", [("float32", F32)], {}),
    ("copysign_int", "copysign", [("int32", I32), ("float32", F32)], {}),
    ("ldexp_int", "ldexp", [("int32", I32), ("int32", I32)], {}),
    ("tanhshrink_int", "tanhshrink", [("int32", I32)], {}),
    ("sgn", "sgn", [("float32", F32)], {}),
    ("histc", "histc", [("float32", F32), ("py", 4), ("py", -2.0), ("py", 2.0)], {}),
    ("histc_int", "histc", [("int32", I32), ("py", 4), ("py", -2.0), ("py", 2.0)], {}),
    ("histc_auto", "histc", [("float32", F32), ("py", 4)], {}),
    ("bucketize", "bucketize", [("float32", F32), ("py", [0.0, 1.0])], {}),
    ("bucketize_right", "bucketize", [("float32", F32), ("py", [0.5, 2.0])], {"right": True}),
    ("renorm", "renorm", [("float32", MAT), ("py", 2), ("py", 0), ("py", 3.0)], {}),
    ("cov", "cov", [("float32", [[1.0, 2.0, 4.0], [3.0, 1.0, 0.0]])], {}),
    ("cov_correction0", "cov", [("float32", [[1.0, 2.0, 4.0], [3.0, 1.0, 0.0]])], {"correction": 0}),
    ("bessel_k0_neg", "bessel_k0", [("float32", F32)], {}),
    ("bessel_k1e_neg", "bessel_k1e", [("float32", F32)], {}),
    ("bessel_y0_neg", "bessel_y0", [("float32", F32)], {}),
    ("bessel_y1_neg", "bessel_y1", [("float32", F32)], {}),
    ("bessel_j1", "bessel_j1", [("float32", F32)], {}),
    ("bessel_i1e", "bessel_i1e", [("float32", F32)], {}),
    ("igamma", "igamma", [("float32", POS), ("float32", POS)], {}),
    ("igammac", "igammac", [("float32", POS), ("float32", POS)], {}),
    ("zeta", "zeta", [("float32", [2.0, 3.0, 4.5, 2.5]), ("float32", POS)], {}),
    ("polygamma", "polygamma", [("int64", 1), ("float32", POS)], {}),
    ("nanmedian", "nanmedian", [("float32", [[1.0, float("nan"), 3.0, 2.0]])], {}),
    ("nan_to_num", "nan_to_num", [("float32", [float("nan"), float("inf"), -float("inf"), 1.0])], {}),
    ("vector_norm_int", "vector_norm", [("int32", I32)], {}),
    ("matrix_norm_nuc", "matrix_norm", [("float32", MAT), ("py", "nuc")], {}),
    ("cosine_similarity", "cosine_similarity", [("float32", MAT), ("float32", [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])], {}),
    ("fmax_int", "fmax", [("int32", I32), ("int32", [2, -3, 3, 0])], {}),
    ("float_power_ext", "float_power_ext", [("int32", I32), ("py", 2)], {}),
    ("xdivy", "xdivy", [("float32", F32), ("float32", [0.0, 1.0, 2.0, 0.0])], {}),
    ("logaddexp2", "logaddexp2", [("float32", F32), ("float32", POS)], {}),
    ("subtract_alpha", "subtract", [("float32", F32), ("int32", I32)], {"alpha": 2}),
    ("tensor_muls", "tensor_muls", [("int32", I32), ("py", 2.5)], {}),
    ("eps", "eps", [("float32", F32)], {}),
    ("vecdot", "vecdot", [("float32", MAT), ("float32", MAT)], {}),
    (
        "batch_dot",
        "batch_dot",
        [("float32", [MAT, MAT]), ("float32", [[[1.0], [2.0], [3.0]], [[1.0], [0.0], [1.0]]])],
        {},
    ),
    ("logdet", "logdet", [("float32", [[2.0, 1.0], [1.0, 3.0]])], {}),
    ("vander", "vander", [("float32", [1.0, 2.0, 3.0])], {"N": 4}),
    ("diff_ext", "diff_ext", [("float32", F32)], {}),
    ("std_mean", "std_mean", [("float32", F32)], {}),
    ("var_mean", "var_mean", [("float32", F32)], {"ddof": 1}),
    ("diag_embed", "diag_embed", [("float32", [[1.0, 2.0], [3.0, 4.0]])], {"offset": 1}),
    ("tril_indices", "tril_indices", [("py", 3), ("py", 4), ("py", 1)], {}),
    ("triu_indices", "triu_indices", [("py", 3), ("py", 4), ("py", -1)], {}),
    ("combinations", "combinations", [("float32", [1.0, 2.0, 3.0])], {"with_replacement": True}),
    ("cartesian_prod", "cartesian_prod", [("int32", [1, 2]), ("int32", [3, 4, 5])], {}),
    ("block_diag", "block_diag", [("float32", [[1.0, 2.0]]), ("float32", [[3.0], [4.0]])], {}),
    ("hann_window", "hann_window", [("py", 5)], {}),
    ("blackman_window", "blackman_window", [("int32", 6)], {"periodic": False}),
    ("blackman_window_py", "blackman_window", [("py", 6)], {}),
    ("bartlett_window", "bartlett_window", [("int32", 5)], {}),
    ("kaiser_window", "kaiser_window", [("py", 5)], {"beta": 5.0}),
    ("remainder_int", "remainder", [("int32", [7, -7, 7, -7]), ("int32", [3, 3, -3, -3])], {}),
    ("fmod_int", "fmod", [("int32", [7, -7, 7, -7]), ("int32", [3, 3, -3, -3])], {}),
    ("floor_divide_int", "floor_divide", [("int32", [7, -7, 7, -7]), ("int32", [3, 3, -3, -3])], {}),
    (
        "div_trunc",
        "div",
        [("float32", [7.0, -7.0, 7.5, -7.5]), ("float32", [2.0, 2.0, -2.0, 2.0])],
        {"rounding_mode": "trunc"},
    ),
    ("div_floor_int", "div", [("int32", [7, -7, 7, -7]), ("int32", [2, 2, -2, 2])], {"rounding_mode": "floor"}),
    ("div_int", "div", [("int32", [7, -7, 7, -7]), ("int32", [2, 2, -2, 2])], {}),
    ("round_decimals", "round", [("float32", [1.2345, -2.5, 0.5, 1.5])], {"decimals": 2}),
    ("round_half", "round", [("float32", [1.2345, -2.5, 0.5, 1.5])], {}),
    ("logit_eps", "logit", [("float32", [0.0, 0.3, 0.9, 1.0])], {"eps": 0.1}),
    ("sinc", "sinc", [("float32", [0.0, 0.5, 1.0, -2.5])], {}),
    ("xlogy_zero", "xlogy", [("float32", [0.0, 1.0, 2.0, 0.0]), ("float32", [0.0, 2.0, 0.5, -1.0])], {}),
    ("heaviside", "heaviside", [("float32", [-1.0, 0.0, 2.0, 0.0]), ("float32", [0.5, 0.5, 0.5, 2.0])], {}),
    ("std", "std", [("float32", MAT)], {"axis": 1, "ddof": 1}),
    ("var_keep", "var", [("float32", MAT)], {"axis": 0, "keepdims": True}),
    ("logsumexp", "logsumexp", [("float32", MAT), ("py", 1)], {}),
    ("cumprod", "cumprod", [("int32", I32), ("py", 0)], {}),
    ("cummax_ties", "cummax", [("float32", [1.0, 3.0, 3.0, 2.0, 3.0]), ("py", 0)], {}),
    ("cummin_ties", "cummin", [("float32", [3.0, 1.0, 1.0, 2.0, 1.0]), ("py", 0)], {}),
    ("median_even", "median", [("float32", [[4.0, 1.0, 3.0, 2.0]])], {"axis": 1}),
    ("argmax_ties", "argmax", [("float32", [1.0, 3.0, 3.0, 2.0])], {}),
    ("max_axis", "max", [("float32", MAT)], {"axis": 1}),
    ("mean_int", "mean", [("int32", I32)], {}),
    ("sum_bool", "sum", [("bool", [True, False, True, True])], {}),
    ("prod_int", "prod", [("int32", I32)], {}),
    # integer and Bool reductions: ops.sum/ops.prod widen to Int64, the primitives and ops.mean/cumsum keep the
    # input's dtype (Bool: any/all, mean and cumsum refuse it), Tensor.cumsum accumulates small ints in Int32
    ("sum_int8", "sum", [("int8", [100, 100, 1, 2])], {}),
    ("sum_uint8", "sum", [("uint8", [200, 100, 1, 2])], {}),
    ("sum_int16_axis", "sum", [("int16", [[1, 2], [3, 4]]), ("py", 1)], {}),
    ("sum_int32_dtype", "sum", [("int32", I32)], {"dtype": ("dtype", "float32")}),
    ("sum_int8_dtype_int32", "sum", [("int8", [100, 100, 1, 2])], {"dtype": ("dtype", "int32")}),
    ("prod_int8", "prod", [("int8", [10, 20, 3, 2])], {}),
    ("prod_bool", "prod", [("bool", [True, False, True, True])], {}),
    ("prod_int32_dtype", "prod", [("int32", I32)], {"dtype": ("dtype", "float32")}),
    ("mean_int_trunc", "mean", [("int32", [[-7, 0, 0], [1, 2, 4]]), ("py", 1)], {}),
    ("mean_uint8", "mean", [("uint8", [3, 4])], {}),
    ("mean_bool", "mean", [("bool", [True, False])], {}),
    ("cumsum_int8", "cumsum", [("int8", [100, 100, 1]), ("py", 0)], {}),
    ("cumsum_uint8_dtype", "cumsum", [("uint8", [200, 100, 1]), ("py", 0)], {"dtype": ("dtype", "float32")}),
    ("cumsum_bool", "cumsum", [("bool", [True, False, True]), ("py", 0)], {}),
    ("reduce_sum_int8", "reduce_sum", [("int8", [100, 100, 1, 2])], {}),
    ("reduce_sum_bool", "reduce_sum", [("bool", [[True, False], [False, False]]), ("py", 1)], {}),
    ("ReduceSum_bool", "ReduceSum()", [("bool", [[True, False], [False, False]]), ("py", 0)], {}),
    ("ReduceSum_uint8", "ReduceSum()", [("uint8", [200, 100])], {}),
    ("ReduceProd_bool", "ReduceProd()", [("bool", [[True, False], [True, True]]), ("py", 1)], {}),
    ("ReduceProd_int16", "ReduceProd()", [("int16", [100, 100, 3])], {}),
    ("ReduceMean_int", "ReduceMean()", [("int32", [[-7, 0, 0], [1, 2, 4]]), ("py", 1)], {}),
    ("CumSum_int16", "CumSum()", [("int16", [1, 2, 3]), ("py", 0)], {}),
    ("Tensor_sum_int8", "Tensor.sum", [("int8", [100, 100, 1, 2])], {}),
    ("Tensor_prod_uint8", "Tensor.prod", [("uint8", [10, 20, 3])], {}),
    ("Tensor_mean_int16", "Tensor.mean", [("int16", [3, 4])], {}),
    ("Tensor_cumsum_int8", "Tensor.cumsum", [("int8", [100, 100, 1]), ("py", 0)], {}),
    ("Tensor_cumsum_bool", "Tensor.cumsum", [("bool", [True, False, True])], {}),
    ("Tensor_cumsum_same_dtype", "Tensor.cumsum", [("int16", [1, 2, 3]), ("py", 0)], {"dtype": ("dtype", "int16")}),
    ("Tensor_cumsum_int16_f32", "Tensor.cumsum", [("int16", [1, 2, 3]), ("py", 0)], {"dtype": ("dtype", "float32")}),
    ("amax_where", "amax", [("float32", F32)], {"initial": 10.0, "where": ("bool", [True, False, True, False])}),
    ("clamp_int_float", "clamp", [("int32", I32), ("py", -1.5), ("py", 2.5)], {}),
    ("norm_fro", "norm", [("float32", MAT)], {}),
    ("norm_1", "norm", [("float32", MAT), ("py", 1)], {}),
    ("cdist_p1", "cdist", [("float32", [MAT]), ("float32", [[[1.0, 1.0, 1.0]]])], {"p": 1.0}),
    ("lerp_tensor", "lerp", [("float32", F32), ("float32", POS), ("float32", [0.0, 0.5, 1.0, 2.0])], {}),
    ("addcdiv", "addcdiv", [("float32", F32), ("float32", POS), ("float32", POS), ("py", 0.5)], {}),
    ("addcdiv_int", "addcdiv", [("int32", I32), ("int32", I32), ("int32", [1, 1, 2, 2]), ("py", 1)], {}),
    ("atan2_int", "atan2", [("int32", I32), ("int32", [1, 1, -1, 0])], {}),
    ("pow_int_neg", "pow", [("int32", [2, 3, 4, 5]), ("py", 2.0)], {}),
    ("square_int", "square", [("int32", I32)], {}),
    ("reciprocal_int", "reciprocal", [("int32", I32)], {}),
    ("trunc_int", "trunc", [("int32", I32)], {}),
    ("sign_bool", "sign", [("float32", [-0.0, 0.0, -3.0, 2.0])], {}),
    (
        "isclose",
        "isclose",
        [("float32", [1.0, 1.0001, float("nan"), 2.0]), ("float32", [1.0, 1.0, float("nan"), 2.1])],
        {"equal_nan": True},
    ),
    ("logaddexp_int", "logaddexp", [("int32", I32), ("int32", I32)], {}),
    ("hypot_int", "hypot", [("int32", I32), ("int32", I32)], {}),
    ("frac", "frac", [("float32", [1.5, -1.5, 2.25, 0.0])], {}),
    ("float_power", "float_power", [("float32", F32), ("py", 2)], {}),
    ("gcd", "gcd", [("int32", [12, -8, 0, 7]), ("int32", [8, 12, 5, 0])], {}),
    ("trapz", "trapz", [("float32", POS)], {"dx": 0.5}),
    ("kron", "kron", [("float32", [[1.0, 2.0]]), ("float32", [[1.0], [3.0]])], {}),
    ("inner", "inner", [("float32", MAT), ("float32", MAT)], {}),
    ("matrix_power", "matrix_power", [("float32", [[1.0, 1.0], [0.0, 1.0]]), ("py", 3)], {}),
    ("det", "det", [("float32", [[2.0, 1.0], [1.0, 3.0]])], {}),
]


def _value(kind, v):
    import mindspore as ms

    if kind == "py":
        return v
    if kind == "dtype":
        return getattr(ms, v)
    if kind == "int64" and np.ndim(v) == 0:
        return ms.Tensor(v, ms.int64)
    return ms.Tensor(np.asarray(v, dtype=kind))


def _jsonable(out):
    import mindspore as ms

    if isinstance(out, (tuple, list)):
        return [_jsonable(o) for o in out]
    if isinstance(out, ms.Tensor):
        a = out.asnumpy()
        return {
            "dtype": str(out.dtype),
            "shape": list(a.shape),
            "values": np.where(np.isnan(a), None, a).tolist() if a.dtype.kind == "f" else a.tolist(),
        }
    return {"python": out}


def resolve(ops, op):
    """The callable a case names: ``"sum"`` is ``ops.sum``, ``"ReduceSum()"`` an instance of the primitive
    class, ``"Tensor.cumsum"`` the method called on the first argument (the replay test resolves the same)."""
    if op.endswith("()"):
        return getattr(ops, op[:-2])()
    if op.startswith("Tensor."):
        return lambda x, *a, **k: getattr(x, op[len("Tensor.") :])(*a, **k)
    return getattr(ops, op)


def main():
    from mindspore import ops

    cases = []
    for name, op, args, kwargs in CASES:
        try:
            kw = {k: _value(*v) if isinstance(v, tuple) else v for k, v in kwargs.items()}
            out = resolve(ops, op)(*[_value(k, v) for k, v in args], **kw)
            result = {"output": _jsonable(out)}
        except Exception as err:  # noqa: BLE001 - recorded as the expected error class
            result = {"error": type(err).__name__}
        cases.append({"name": name, "op": op, "args": args, "kwargs": kwargs, **result})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"mindspore": "2.10", "cases": cases}, indent=1, allow_nan=True)
    OUT.write_text(text.replace("Infinity", '"inf"').replace('-"inf"', '"-inf"') + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
