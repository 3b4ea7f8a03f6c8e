"""Reference values for the array-family op tests, made under real MindSpore 2.10.

    /work/msvenv/bin/python tools/make_ops_array_reference.py   # writes tests/ut/ops/fixtures/array_reference.json

Each case records its inputs and MindSpore's outputs (values, dtype names), so the tests
(``tests/ut/ops/test_array_layout.py``) rebuild the same inputs without MindSpore.
"""

from __future__ import annotations

import json
from pathlib import Path

import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

OUT = Path(__file__).resolve().parent.parent / "tests" / "ut" / "ops" / "fixtures" / "array_reference.json"

M = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
D = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
S = np.arange(2 * 3 * 4 * 4, dtype=np.float32).reshape(2, 3, 4, 4)


def _enc(out):
    if isinstance(out, (tuple, list)):
        return [_enc(o) for o in out]
    if isinstance(out, Tensor):
        return {"value": out.asnumpy().tolist(), "dtype": str(out.dtype)}
    return out


def cases():
    i32 = ms.int32
    yield (
        "matrix_diag_part_range",
        {"x": M.tolist(), "k": [-1, 1]},
        lambda: ops.matrix_diag_part(Tensor(M), Tensor([-1, 1], i32), Tensor(0.0, ms.float32)),
    )
    yield (
        "matrix_diag_part_left_right",
        {"x": M.tolist(), "k": [-1, 1]},
        lambda: ops.matrix_diag_part(Tensor(M), Tensor([-1, 1], i32), Tensor(0.0, ms.float32), align="LEFT_RIGHT"),
    )
    yield "matrix_diag_range", {"x": D.tolist(), "k": [0, 1]}, lambda: ops.matrix_diag(Tensor(D), k=Tensor([0, 1], i32))
    yield (
        "matrix_diag_padded",
        {"x": [1.0, 2.0]},
        lambda: ops.matrix_diag(Tensor([1.0, 2.0]), k=1, num_rows=3, num_cols=3, padding_value=9),
    )
    yield (
        "matrix_set_diag_upper",
        {"x": M.tolist(), "d": [[7, 7, 7], [8, 8, 0]], "k": [0, 1]},
        lambda: ops.matrix_set_diag(
            Tensor(M), Tensor(np.array([[7, 7, 7], [8, 8, 0]], np.float32)), Tensor([0, 1], i32)
        ),
    )
    yield (
        "matrix_set_diag_lower",
        {"x": M.tolist(), "d": [[7, 7, 7], [8, 8, 0]], "k": [-1, 0]},
        lambda: ops.matrix_set_diag(
            Tensor(M), Tensor(np.array([[7, 7, 7], [8, 8, 0]], np.float32)), Tensor([-1, 0], i32)
        ),
    )
    yield (
        "space_to_batch_nd",
        {"x_shape": list(S.shape)},
        lambda: ops.space_to_batch_nd(Tensor(S), (2, 2), ((0, 0), (0, 0))),
    )
    yield (
        "space_to_batch_nd_pad",
        {"x_shape": [1, 1, 2, 3]},
        lambda: ops.space_to_batch_nd(
            Tensor(np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3)), (2, 2), ((0, 0), (1, 0))
        ),
    )
    yield (
        "depth_to_space",
        {"x_shape": [1, 8, 1, 2]},
        lambda: ops.DepthToSpace(2)(Tensor(np.arange(16, dtype=np.float32).reshape(1, 8, 1, 2))),
    )
    yield (
        "space_to_depth",
        {"x_shape": [1, 2, 2, 4]},
        lambda: ops.SpaceToDepth(2)(Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 4))),
    )
    yield (
        "reverse_sequence_seq1",
        {},
        lambda: ops.reverse_sequence(Tensor(np.arange(12).reshape(3, 4).astype(np.float32)), Tensor([1, 2, 3]), 1),
    )
    yield (
        "reverse_sequence_seq0",
        {},
        lambda: ops.reverse_sequence(
            Tensor(np.arange(12).reshape(3, 4).astype(np.float32)), Tensor([1, 2, 3, 0]), 0, 1
        ),
    )
    yield "fill_diagonal", {}, lambda: ops.FillDiagonal(9.0)(Tensor(np.zeros((5, 3), np.float32)))
    yield "fill_diagonal_wrap", {}, lambda: ops.FillDiagonal(9.0, True)(Tensor(np.zeros((7, 3), np.float32)))
    yield "hamming_window_5", {}, lambda: ops.hamming_window(5)
    yield "hamming_window_sym", {}, lambda: ops.hamming_window(6, False, 0.5, 0.5)
    yield "unique_with_pad", {}, lambda: ops.unique_with_pad(Tensor([1, 2, 2, 5, 1], ms.int32), 0)
    yield "unique_consecutive_dim0", {}, lambda: ops.unique_consecutive(Tensor([[1, 1], [1, 1], [2, 2]]), True, True, 0)
    yield "list_diff", {}, lambda: ops.ListDiff()(Tensor([1, 2, 3, 4]), Tensor([2, 4]))
    yield "log_space", {}, lambda: ops.LogSpace(3, 2)(Tensor(0.0), Tensor(2.0))
    yield "diag_part", {}, lambda: ops.DiagPart()(Tensor(np.arange(16.0).reshape(2, 2, 2, 2).astype(np.float32)))
    yield "population_count", {}, lambda: ops.population_count(Tensor([7, 255, -1], ms.int16))
    yield "top_k", {}, lambda: ops.top_k(Tensor(M), 2)
    yield "aminmax", {}, lambda: ops.aminmax(Tensor(M), axis=1, keepdims=True)
    yield "range_int", {}, lambda: ops.range(0, 5, 2)
    yield "lower_bound", {}, lambda: ops.LowerBound()(Tensor([[1, 3, 5, 5]]), Tensor([[5, 0]]))
    yield "upper_bound", {}, lambda: ops.UpperBound()(Tensor([[1, 3, 5, 5]]), Tensor([[5, 0]]))
    P = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    yield "unfold", {"x_shape": list(P.shape)}, lambda: ops.unfold(Tensor(P), 2, 1, 1, 2)
    yield "unfold_dilated", {"x_shape": list(P.shape)}, lambda: ops.unfold(Tensor(P), (2, 3), 2, 0, 1)
    yield (
        "fold",
        {},
        lambda: ops.fold(ops.unfold(Tensor(P), 2, 1, 1, 2), Tensor(np.array([4, 5], np.int32)), 2, 1, 1, 2),
    )
    yield "im2col", {}, lambda: ops.Im2Col(ksizes=2, strides=2, dilations=1, pads=1)(Tensor(P))
    theta = np.array([[[0.8, -0.2, 0.1], [0.3, 1.1, -0.4]]], np.float32)
    yield "affine_grid", {"theta": theta.tolist()}, lambda: ops.affine_grid(Tensor(theta), (1, 1, 2, 3), False)
    yield "affine_grid_align", {"theta": theta.tolist()}, lambda: ops.AffineGrid(True)(Tensor(theta), (1, 1, 3, 2))
    theta3 = np.array([[[1.0, 0.1, 0, 0.2], [0, 0.9, 0.1, 0], [0.1, 0, 1.2, -0.1]]], np.float32)
    yield "affine_grid_3d", {"theta": theta3.tolist()}, lambda: ops.affine_grid(Tensor(theta3), (1, 1, 2, 2, 3), False)
    yield "celu", {}, lambda: ops.CeLU(2.0)(Tensor(np.array([-1.0, 1.0, -3.0], np.float32)))
    V = np.arange(1 * 2 * 3 * 3 * 3, dtype=np.float32).reshape(1, 2, 3, 3, 3)
    yield (
        "extract_volume_patches_valid",
        {},
        lambda: ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), "VALID")(Tensor(V)),
    )
    yield (
        "extract_volume_patches_same",
        {},
        lambda: ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 2, 2, 2), "SAME")(Tensor(V)),
    )


def main():
    ref = {}
    for name, inputs, fn in cases():
        ref[name] = {"inputs": inputs, "out": _enc(fn())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(ref, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(ref)} cases to {OUT}")


if __name__ == "__main__":
    main()
