"""Reference values for Tensor members (tests/ut/common/test_tensor_members.py), recorded under MindSpore 2.10.

    /work/msvenv/bin/python tools/make_tensor_members_reference.py  # writes tests/ut/common/fixtures/tensor_members.json

Each case is ``name: (receiver, method, args, kwargs)`` evaluated on fixed inputs; the JSON keeps the result
(values, dtype, shape) or the error class, and for in-place methods the receiver afterwards and whether the
method returned the receiver itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "ut" / "common" / "fixtures" / "tensor_members.json"


def cases(T, ms):
    f = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
    g = np.array([[2.0, 1.0, 0.5], [3.0, -2.0, 2.0]], np.float32)
    sq = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    i = np.array([[12, 18, 7], [-4, 9, 10]], np.int32)
    j = np.array([[8, 12, 3], [6, 6, 4]], np.int32)
    v3 = np.array([1.0, 2.0, 3.0], np.float32)
    return {
        "add_": (f, "add_", (T(g),), {}),
        "add_alpha": (f, "add_", (T(g),), {"alpha": 2}),
        "sub_": (f, "sub_", (T(g),), {}),
        "mul_": (f, "mul_", (T(g),), {}),
        "div_": (f, "div_", (T(g),), {}),
        "exp_": (f, "exp_", (), {}),
        "log_": (np.abs(f), "log_", (), {}),
        "floor_": (f, "floor_", (), {}),
        "sigmoid_": (f, "sigmoid_", (), {}),
        "sign_": (f, "sign_", (), {}),
        "remainder_": (f, "remainder_", (T(g),), {}),
        "floor_divide_": (f, "floor_divide_", (T(g),), {}),
        "masked_fill_": (f, "masked_fill_", (T(f > 1), 9.0), {}),
        "masked_scatter_": (f, "masked_scatter_", (T(f > 1), T(np.arange(6, dtype=np.float32).reshape(2, 3))), {}),
        "copy_": (f, "copy_", (T(g),), {}),
        "fill_diagonal_": (np.zeros((3, 3), np.float32), "fill_diagonal_", (5.0,), {}),
        "fill_diagonal": (np.zeros((3, 4), np.float32), "fill_diagonal", (5.0,), {}),
        "index_add_": (f, "index_add_", (1, T(np.array([0, 2], np.int32)), T(g[:, :2])), {"alpha": 2}),
        "index_add": (f, "index_add", (1, T(np.array([0, 2], np.int32)), T(g[:, :2])), {}),
        "index_put": (f, "index_put", ((T(np.array([0, 1], np.int32)), T(np.array([2, 0], np.int32))), T(np.array([7.0, 8.0], np.float32))), {}),
        "index_put_acc": (f, "index_put", ((T(np.array([0, 0], np.int32)), T(np.array([1, 1], np.int32))), T(np.array([7.0, 8.0], np.float32))), {"accumulate": True}),
        "index_put_": (f, "index_put_", ((T(np.array([1], np.int32)), T(np.array([1], np.int32))), T(np.array([7.0], np.float32))), {}),
        "scatter_": (f, "scatter_", (1, T(np.array([[2, 0, 1], [0, 1, 2]], np.int64)), T(g)), {}),
        "scatter_sub": (f, "scatter_sub", (T(np.array([[0, 1], [1, 2]], np.int32)), T(np.array([1.0, 2.0], np.float32))), {}),
        "addmm": (sq, "addmm", (T(sq), T(sq)), {"beta": 0.5, "alpha": 2}),
        "addmm_": (sq, "addmm_", (T(sq), T(sq)), {}),
        "addmv": (v3[:2], "addmv", (T(f[:, :3][:2, :]), T(v3)), {}),
        "baddbmm": (np.stack([sq, sq]), "baddbmm", (T(np.stack([sq, sq])), T(np.stack([sq, sq.T]))), {"beta": 1, "alpha": 0.5}),
        "matrix_power": (sq, "matrix_power", (3,), {}),
        "bitwise_not": (i, "bitwise_not", (), {}),
        "gcd": (i, "gcd", (T(j),), {}),
        "lcm": (i, "lcm", (T(j),), {}),
        "divide": (f, "divide", (T(g),), {}),
        "divide_floor": (f, "divide", (T(g),), {"rounding_mode": "floor"}),
        "greater": (f, "greater", (T(g),), {}),
        "greater_equal": (f, "greater_equal", (1.5,), {}),
        "less": (f, "less", (T(g),), {}),
        "less_equal": (f, "less_equal", (0.5,), {}),
        "not_equal": (f, "not_equal", (3.0,), {}),
        "byte": (np.array([1.7, 3.2, 255.0], np.float32), "byte", (), {}),
        "short": (f, "short", (), {}),
        "ndimension": (f, "ndimension", (), {}),
        "ptp": (f, "ptp", (), {}),
        "ptp_axis": (f, "ptp", (1,), {"keepdims": True}),
        "choose": (np.array([2, 0, 1], np.int32), "choose", ([T(v3), T(v3 * 10), T(v3 * 100)],), {}),
        "repeat_interleave": (f, "repeat_interleave", (2,), {"dim": 1}),
        "unique": (np.array([3, 1, 3, 2, 1], np.int32), "unique", (), {}),
        "kthvalue": (f, "kthvalue", (2,), {"dim": 1}),
        "sum_to_size": (f, "sum_to_size", (1, 3), {}),
        "sum_to_size_2": (np.ones((2, 3, 4), np.float32), "sum_to_size", ((3, 1),), {}),
        "storage_offset": (f, "storage_offset", (), {}),
        "stride": (np.ones((2, 3, 4), np.float32), "stride", (), {}),
        "stride_dim": (np.ones((2, 3, 4), np.float32), "stride", (1,), {}),
        "new_full": (f, "new_full", ((2, 2), 3), {}),
        "new_empty_shape": (f, "new_empty", ((3, 1),), {}),
        "triangular_solve": (np.array([[2.0], [4.0]], np.float32), "triangular_solve", (T(np.array([[2.0, 1.0], [0.0, 4.0]], np.float32)),), {}),
        "triangular_solve_lower": (np.array([[2.0], [4.0]], np.float32), "triangular_solve", (T(np.array([[2.0, 0.0], [1.0, 4.0]], np.float32)),), {"upper": False}),
        "H": (np.array([[1 + 2j, 3 - 1j], [0.5j, 2]], np.complex64), "H", None, None),
        "mH": (np.array([[[1 + 2j, 3 - 1j]]], np.complex64), "mH", None, None),
        "itemset": (f, "itemset", ((1, 2), 9.0), {}),
        "clamp_": (f, "clamp_", (-1.0, 2.0), {}),
    }  # fmt: skip


def _enc(x):
    if isinstance(x, tuple | list):
        return {"seq": [_enc(v) for v in x]}
    if hasattr(x, "asnumpy"):
        a = x.asnumpy()
        if np.iscomplexobj(a):
            return {
                "value": [a.real.tolist(), a.imag.tolist()],
                "complex": True,
                "dtype": str(x.dtype),
                "shape": list(a.shape),
            }
        return {"value": a.tolist(), "dtype": str(x.dtype), "shape": list(a.shape)}
    return {"py": x if isinstance(x, int | float | bool | str) or x is None else repr(x)}


def main() -> None:
    import mindspore as ms
    from mindspore import Tensor

    out = {}
    for name, (recv, method, args, kwargs) in cases(Tensor, ms).items():
        t = Tensor(recv.copy())
        try:
            if args is None:
                res = getattr(t, method)
            else:
                res = getattr(t, method)(*args, **kwargs)
            out[name] = {"result": _enc(res), "self": _enc(t), "returns_self": res is t}
        except Exception as e:  # noqa: BLE001
            out[name] = {"error": type(e).__name__, "message": str(e).split("\n")[0][:200]}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(out)} cases, errors: {[k for k, v in out.items() if 'error' in v]}")


if __name__ == "__main__":
    main()
