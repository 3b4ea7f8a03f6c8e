"""Patch ops: unfold/Im2Col, fold/col2im/Col2Im, affine_grid/AffineGrid and CeLU against reference values recorded
under MindSpore 2.10 (tools/make_ops_array_reference.py), fold as the exact adjoint of unfold, gradients."""

import json
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import ops

REF = json.loads((Path(__file__).parent / "fixtures" / "array_reference.json").read_text())
P = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
THETA = np.array([[[0.8, -0.2, 0.1], [0.3, 1.1, -0.4]]], np.float32)
V = np.arange(1 * 2 * 3 * 3 * 3, dtype=np.float32).reshape(1, 2, 3, 3, 3)
THETA3 = np.array([[[1.0, 0.1, 0, 0.2], [0, 0.9, 0.1, 0], [0.1, 0, 1.2, -0.1]]], np.float32)


def T(a, dtype=None):
    return ms.Tensor(np.asarray(a), dtype)


CASES = {
    "unfold": lambda: ops.unfold(T(P), 2, 1, 1, 2),
    "unfold_dilated": lambda: T(P).unfold((2, 3), 2, 0, 1),
    "fold": lambda: ops.fold(ops.unfold(T(P), 2, 1, 1, 2), T(np.array([4, 5], np.int32)), 2, 1, 1, 2),
    "im2col": lambda: ops.Im2Col(ksizes=2, strides=2, dilations=1, pads=1)(T(P)),
    "affine_grid": lambda: ops.affine_grid(T(THETA), (1, 1, 2, 3), False),
    "affine_grid_align": lambda: ops.AffineGrid(True)(T(THETA), (1, 1, 3, 2)),
    "affine_grid_3d": lambda: ops.affine_grid(T(THETA3), (1, 1, 2, 2, 3), False),
    "celu": lambda: ops.CeLU(2.0)(T(np.array([-1.0, 1.0, -3.0], np.float32))),
    "extract_volume_patches_valid": lambda: ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), "VALID")(T(V)),
    "extract_volume_patches_same": lambda: ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 2, 2, 2), "SAME")(T(V)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore_reference(name):
    out = CASES[name]()
    ref = REF[name]["out"]
    np.testing.assert_allclose(out.asnumpy(), ref["value"], rtol=1e-5, atol=1e-6)
    assert str(out.dtype) == ref["dtype"]


def test_fold_is_the_adjoint_of_unfold_and_col2im_forms():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 2, 5, 4))
    y = rng.standard_normal((1, 2 * 6, 6))
    ux = ops.unfold(T(x), (2, 3), 1, (1, 0), (2, 1)).asnumpy()
    fy = ops.fold(T(y), (5, 4), (2, 3), 1, (1, 0), (2, 1)).asnumpy()
    np.testing.assert_allclose(np.sum(ux * y), np.sum(x * fy), rtol=1e-10)
    u = ops.unfold(T(P), 2, 1, 1, 2)
    cols4 = u.reshape((2, 3, 4, 9))
    ref = REF["fold"]["out"]["value"]
    np.testing.assert_allclose(ops.Col2Im(2, 1, 1, 2)(cols4, T(np.array([4, 5], np.int32))).asnumpy(), ref)
    np.testing.assert_allclose(ops.col2im(cols4, T(np.array([4, 5], np.int32)), 2, 1, 1, 2).asnumpy(), ref)
    np.testing.assert_allclose(u.col2im(T(np.array([4, 5], np.int32)), 2, 1, 1, 2).asnumpy(), ref)
    np.testing.assert_allclose(u.fold((4, 5), 2, 1, 1, 2).asnumpy(), ref)
    with pytest.raises(ValueError, match="For 'Col2Im', the number of blocks \\(9\\) does not match output_size"):
        ops.fold(u, (6, 6), 2, 1, 1, 2)
    with pytest.raises(ValueError, match="For 'Im2Col', the 'input' must be a 4-D Tensor"):
        ops.unfold(T(P[0]), 2)


def test_patch_gradients():
    x = np.random.default_rng(1).standard_normal((1, 1, 3, 3))
    w = np.arange(1.0, 17.0).reshape(1, 4, 4)
    g = ms.grad(lambda t: ops.sum(ops.unfold(t, 2) * T(w)))(T(x)).asnumpy()
    ref = np.zeros((3, 3))
    for col, (i, j) in enumerate([(0, 0), (0, 1), (1, 0), (1, 1)]):
        for r, (di, dj) in enumerate([(0, 0), (0, 1), (1, 0), (1, 1)]):
            ref[i + di, j + dj] += w[0, r, col]
    np.testing.assert_allclose(g[0, 0], ref)
    theta = T(THETA.astype(np.float64))
    gt = ms.grad(lambda t: ops.sum(ops.affine_grid(t, (1, 1, 2, 3)) ** 2))(theta).asnumpy()
    eps = 1e-6
    num = np.zeros_like(THETA, dtype=np.float64)
    for idx in np.ndindex(THETA.shape):
        d = np.zeros_like(num)
        d[idx] = eps
        f = [
            float(np.sum(ops.affine_grid(T(THETA + s * d), (1, 1, 2, 3)).asnumpy().astype(np.float64) ** 2))
            for s in (1, -1)
        ]
        num[idx] = (f[0] - f[1]) / (2 * eps)
    np.testing.assert_allclose(gt, num, rtol=1e-3, atol=1e-3)


def test_confusion_matrix():
    lab = np.array([0, 1, 2, 2, 1], np.int32)
    pred = np.array([0, 2, 2, 1, 1], np.int32)
    ref = np.zeros((3, 3), np.int32)
    np.add.at(ref, (lab, pred), 1)
    out = ops.ConfusionMatrix(3)(T(lab), T(pred))
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), ref)
    w = np.array([0.5, 1.0, 2.0, 1.0, 1.0], np.float32)
    refw = np.zeros((3, 3), np.float32)
    np.add.at(refw, (lab, pred), w)
    np.testing.assert_allclose(ops.ConfusionMatrix(3, "float32")(T(lab), T(pred), T(w)).asnumpy(), refw)
    with pytest.raises(ValueError, match="For 'ConfusionMatrix', 'labels' and 'predictions' must have the same shape"):
        ops.ConfusionMatrix(3)(T(lab), T(pred[:2]))
