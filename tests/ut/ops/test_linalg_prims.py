"""Linear-algebra and spectral primitive classes (ops.Cholesky, ops.Svd, ops.STFT, ops.FFTWithSize, ...):
constructor arguments, outputs against NumPy/SciPy (and MindSpore 2.10's outputs where noted)."""

import numpy as np
import pytest
import scipy.linalg as sl

import sporax as ms
from sporax import ops

RNG = np.random.default_rng(3)
A = RNG.normal(size=(3, 3))
SPD = A @ A.T + 3 * np.eye(3)
B = RNG.normal(size=(3, 2))
T = ms.Tensor


def close(out, want, atol=1e-9):
    got = out.asnumpy()
    np.testing.assert_allclose(got.astype(np.complex128 if got.dtype.kind == "c" else np.float64), want, atol=atol)


def test_decompositions():
    low = np.linalg.cholesky(SPD)
    close(ops.Cholesky()(T(SPD)), low)
    close(ops.Cholesky(upper=True)(T(SPD)), low.T)
    close(ops.CholeskyInverse()(T(low)), np.linalg.inv(SPD))
    close(ops.CholeskySolve()(T(B), T(low)), np.linalg.solve(SPD, B))
    close(ops.CholeskySolve(True)(T(B), T(low.T)), np.linalg.solve(SPD, B))
    vals, vecs = ops.Eig(compute_v=True)(T(A))
    np.testing.assert_allclose(A @ vecs.asnumpy(), vecs.asnumpy() * vals.asnumpy(), atol=1e-9)
    vals, none = ops.Eig()(T(SPD))
    assert none.shape == () and np.allclose(np.sort(vals.asnumpy().real), np.linalg.eigvalsh(SPD))
    y, tau = ops.Geqrf()(T(B))
    q = ops.Orgqr()(y, tau)
    np.testing.assert_allclose(np.abs(q.asnumpy()), np.abs(np.linalg.qr(B)[0]), atol=1e-12)
    full = ops.Ormqr()(y, tau, T(np.eye(3)))
    close(ops.Ormqr(left=False, transpose=True)(y, tau, T(np.eye(3))), full.asnumpy().T)
    qq, r = ops.Qr()(T(B))
    np.testing.assert_allclose(qq.asnumpy() @ r.asnumpy(), B, atol=1e-12)
    assert ops.Qr(full_matrices=True)(T(B))[0].shape == (3, 3)
    s, u, v = ops.Svd()(T(B))
    np.testing.assert_allclose(u.asnumpy() @ np.diag(s.asnumpy()) @ v.asnumpy().T, B, atol=1e-12)
    s_only, u0, v0 = ops.Svd(compute_uv=False)(T(B))
    close(s_only, np.linalg.svd(B, compute_uv=False))
    sign, logabs = ops.LogMatrixDeterminant()(T(A))
    close(sign, np.linalg.slogdet(A)[0])
    close(logabs, np.linalg.slogdet(A)[1])
    lu, piv = sl.lu_factor(A)
    pivots = T((piv + 1).astype(np.int32))
    close(ops.LuSolve()(T(B), T(lu), pivots), np.linalg.solve(A, B))
    p, lo, up = ops.LuUnpack()(T(lu), pivots)
    np.testing.assert_allclose(p.asnumpy() @ lo.asnumpy() @ up.asnumpy(), A, atol=1e-12)


def test_solvers():
    close(ops.MatrixSolve()(T(A), T(B)), np.linalg.solve(A, B))
    close(ops.MatrixSolve(adjoint=True)(T(A), T(B)), np.linalg.solve(A.T, B))
    lam = 0.5
    close(ops.MatrixSolveLs()(T(A), T(B), T(lam)), np.linalg.solve(A.T @ A + lam * np.eye(3), A.T @ B))
    wide = A[:2]
    close(
        ops.MatrixSolveLs()(T(wide), T(B[:2]), T(lam)), wide.T @ np.linalg.solve(wide @ wide.T + lam * np.eye(2), B[:2])
    )
    close(ops.MatrixTriangularSolve()(T(A), T(B)), sl.solve_triangular(np.tril(A), B, lower=True))
    close(ops.MatrixTriangularSolve(lower=False, adjoint=True)(T(A), T(B)), np.linalg.solve(np.triu(A).T, B))
    # MindSpore 2.10: superdiag [1, 2], maindiag [3, 4], subdiag [5, 6] times [[1, 2], [3, 4]] -> [[6, 10], [18, 28]]
    out = ops.TridiagonalMatMul()(T([[1.0, 2.0]]), T([[3.0, 4.0]]), T([[5.0, 6.0]]), T([[1.0, 2.0], [3.0, 4.0]]))
    close(out, [[6, 10], [18, 28]])
    close(ops.MatrixLogarithm()(T(sl.expm(A * 0.2).astype(np.complex128))), A * 0.2, atol=1e-8)
    with pytest.raises(TypeError, match="MatrixLogarithm"):
        ops.MatrixLogarithm()(T(A))


def test_matrix_set_diag_v3():
    # MindSpore 2.10's outputs
    x = T(np.zeros((3, 3), np.float32))
    close(ops.MatrixSetDiagV3()(x, T(np.array([1.0, 2, 3], np.float32)), T(0, ms.int32)), np.diag([1.0, 2, 3]))
    band = T(np.array([[1.0, 2, 0], [3, 4, 5]], np.float32))
    out = ops.MatrixSetDiagV3()(x, band, T(np.array([-1, 0]), ms.int32))
    close(out, [[1, 0, 0], [3, 2, 0], [0, 4, 0]])
    rows = T(np.array([[0.0, 7, 8], [1, 2, 3]], np.float32))
    close(ops.MatrixSetDiagV3("LEFT_RIGHT")(x, rows, T(np.array([0, 1]))), [[1, 0, 0], [0, 2, 7], [0, 0, 3]])
    close(ops.MatrixSetDiagV3()(x, rows, T(np.array([0, 1]))), [[1, 7, 0], [0, 2, 8], [0, 0, 3]])
    with pytest.raises(ValueError, match="align"):
        ops.MatrixSetDiagV3("UP")


def test_spectral_prims():
    # MindSpore 2.10's outputs
    close(ops.FFTWithSize(1, False, True)(T(np.arange(4, dtype=np.float32))), [6, -2 + 2j, -2], 1e-6)
    inv = ops.FFTWithSize(1, True, True, signal_sizes=(4,))(T(np.array([6, -2 + 2j, -2], np.complex64)))
    close(inv, [0, 1, 2, 3], 1e-6)
    close(
        ops.FFTWithSize(1, False, False, "ortho")(T(np.arange(4).astype(np.complex64))),
        np.fft.fft(np.arange(4), norm="ortho"),
        1e-6,
    )
    close(
        ops.FFTWithSize(2, False, True, onesided=False)(T(np.arange(4, dtype=np.float32).reshape(2, 2))),
        [[6, -2], [-4, 0]],
        1e-6,
    )
    close(ops.FFTWithSize(2, True, False)(T(np.fft.fft2(A))), A.astype(np.complex128))
    stft = ops.STFT(4, 2, 4, False, True, True)(T(np.arange(8, dtype=np.float32)), T(np.ones(4, np.float32)))
    close(stft, [[6, 14, 22], [-2 + 2j, -2 + 2j, -2 + 2j], [-2, -2, -2]], 1e-5)
    close(ops.BartlettWindow()(T(np.array(5, np.int32))), [0.0, 0.4, 0.8, 0.8, 0.4], 1e-7)
    w = ops.BlackmanWindow(False, ms.float64)(T(np.array(6, np.int32)))
    assert w.dtype == ms.float64
    close(w, np.blackman(6), 1e-12)
    with pytest.raises(TypeError, match="'dtype' must be float16, float32 or float64"):
        ops.BartlettWindow(dtype=ms.int32)
    with pytest.raises(ValueError, match="signal_ndim"):
        ops.FFTWithSize(4, False, False)
