"""Real/Hermitian FFTs and helpers against NumPy (values, result dtypes as MindSpore's), their gradients against
finite differences, and the misc math ops (ger, lstsq, mvlgamma, Betainc, Complex, shifts, LerpScalar,
NextAfter, ReduceStd, Lstsq, Mvlgamma, IOU) against NumPy/SciPy and MindSpore's documented results."""

import math

import numpy as np
import pytest
from scipy import special

import sporax as ms
from sporax import ops

RNG = np.random.default_rng(2)
R = RNG.standard_normal((4, 6)).astype(np.float32)
C = (RNG.standard_normal((4, 4)) + 1j * RNG.standard_normal((4, 4))).astype(np.complex64)


def T(a, dtype=None):
    return ms.Tensor(np.asarray(a), dtype)


FFTS = [
    ("rfft", lambda: ops.rfft(T(R)), np.fft.rfft(R), ms.complex64),
    ("rfft_n_ortho", lambda: ops.rfft(T(R), 8, 0, "ortho"), np.fft.rfft(R, 8, 0, "ortho"), ms.complex64),
    ("irfft", lambda: ops.irfft(T(C), 6), np.fft.irfft(C, 6), ms.float32),
    ("rfft2", lambda: ops.rfft2(T(R)), np.fft.rfft2(R), ms.complex64),
    ("irfft2", lambda: ops.irfft2(T(C)), np.fft.irfft2(C), ms.float32),
    ("rfftn", lambda: ops.rfftn(T(R), dim=[0]), np.fft.rfftn(R, axes=[0]), ms.complex64),
    ("irfftn", lambda: ops.irfftn(T(C), norm="forward"), np.fft.irfftn(C, norm="forward"), ms.float32),
    ("hfft", lambda: ops.hfft(T(C)), np.fft.hfft(C), ms.float32),
    ("ihfft", lambda: ops.ihfft(T(R)), np.fft.ihfft(R), ms.complex64),
    ("hfft2", lambda: ops.hfft2(T(C)), np.fft.irfft2(np.conj(C), norm="forward"), ms.float32),
    ("ihfft2", lambda: ops.ihfft2(T(R)), np.conj(np.fft.rfft2(R, norm="forward")), ms.complex64),
    ("hfftn", lambda: ops.hfftn(T(C), dim=[0, 1], norm="ortho"), np.fft.irfftn(np.conj(C), norm="ortho"), ms.float32),
    ("ihfftn", lambda: ops.ihfftn(T(R)), np.conj(np.fft.rfftn(R, norm="forward")), ms.complex64),
    ("fftshift", lambda: ops.fftshift(T(R)), np.fft.fftshift(R), ms.float32),
    ("ifftshift", lambda: ops.ifftshift(T(R), dim=1), np.fft.ifftshift(R, axes=1), ms.float32),
    ("fftfreq", lambda: ops.fftfreq(4), np.fft.fftfreq(4), ms.float32),
    ("rfftfreq", lambda: ops.rfftfreq(5, 0.5, ms.float64), np.fft.rfftfreq(5, 0.5), ms.float64),
]


@pytest.mark.parametrize("name,fn,ref,dtype", FFTS, ids=[f[0] for f in FFTS])
def test_fft_family_matches_numpy(name, fn, ref, dtype):
    out = fn()
    assert out.dtype == dtype
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-4, atol=1e-4)


def test_fft_hfft_inverse_pairs_and_errors():
    x = T(np.arange(8, dtype=np.float32))
    np.testing.assert_allclose(ops.irfft(ops.rfft(x)).asnumpy(), np.arange(8), atol=1e-5)
    np.testing.assert_allclose(ops.hfft(ops.ihfft(x), 8).asnumpy(), np.arange(8), atol=1e-5)
    assert ops.rfft(T(np.arange(4))).dtype == ms.complex64
    with pytest.raises(TypeError, match="For 'rfft', the 'input' must be a real Tensor"):
        ops.rfft(T(C))
    with pytest.raises(ValueError, match="For 'rfft', the 'norm' must be one of"):
        ops.rfft(x, norm="bad")
    with pytest.raises(ValueError, match="For 'fftfreq', the 'n' must be a positive int"):
        ops.fftfreq(0)


def test_fft_gradient_matches_finite_differences():
    x = RNG.standard_normal(6)
    w = np.arange(1.0, 5.0)

    def loss(t):
        return ops.sum(ops.abs(ops.rfft(t)) * T(w))

    g = ms.grad(loss)(T(x)).asnumpy()

    def f(v):
        return float(np.sum(np.abs(np.fft.rfft(v)) * w))

    num = np.array([(f(x + e) - f(x - e)) / 2e-6 for e in np.eye(6) * 1e-6])
    np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-6)


def test_ger_lstsq_mvlgamma():
    a, b = T([1.0, 2.0]), T([3.0, 4.0, 5.0])
    np.testing.assert_allclose(ops.ger(a, b).asnumpy(), np.outer([1, 2], [3, 4, 5]))
    np.testing.assert_allclose(a.ger(b).asnumpy(), np.outer([1, 2], [3, 4, 5]))
    with pytest.raises(TypeError, match="For 'Ger', 'input' and 'vec2' must have the same dtype"):
        ops.ger(a, T([1, 2]))
    m = np.array([[1.0, 0], [0, 1], [1, 1]], np.float32)
    rhs = np.array([[1.0], [2], [3]], np.float32)
    ref = np.linalg.lstsq(m, rhs, rcond=None)[0]
    np.testing.assert_allclose(ops.lstsq(T(m), T(rhs)).asnumpy(), ref, rtol=1e-5)
    np.testing.assert_allclose(T(m).lstsq(T(rhs)).asnumpy(), ref, rtol=1e-5)
    np.testing.assert_allclose(ops.Lstsq()(T(m), T(rhs)).asnumpy(), ref, rtol=1e-5)
    with pytest.raises(TypeError, match="For 'Lstsq', the 'l2_regularizer' should be 0.0, but got '0.5'."):
        ops.Lstsq(l2_regularizer=0.5)
    x = np.array([2.5, 3.0], np.float32)
    ref = special.multigammaln(x[:, None], 2).reshape(-1) if False else [special.multigammaln(v, 2) for v in x]
    np.testing.assert_allclose(ops.mvlgamma(T(x), 2).asnumpy(), ref, rtol=1e-5)
    np.testing.assert_allclose(T(x).mvlgamma(2).asnumpy(), ref, rtol=1e-5)
    np.testing.assert_allclose(ops.Mvlgamma(2)(T(x)).asnumpy(), ref, rtol=1e-5)
    with pytest.raises(ValueError, match=r"For Mvlgamma, all elements of 'x' must be greater than \(p-1\)/2."):
        ops.mvlgamma(T([0.2]), 2)
    g = ms.grad(lambda t: ops.sum(ops.mvlgamma(t, 3)))(T(np.array([3.0, 4.0])))
    ref_g = [sum(special.digamma(v - i / 2) for i in range(3)) for v in (3.0, 4.0)]
    np.testing.assert_allclose(g.asnumpy(), ref_g, rtol=1e-6)


def test_math_primitives():
    np.testing.assert_allclose(
        ops.Betainc()(T([1.0, 2.0]), T([2.0, 2.0]), T([0.5, 0.5])).asnumpy(),
        special.betainc([1.0, 2.0], [2.0, 2.0], [0.5, 0.5]),
        rtol=1e-5,
    )
    out = ops.Complex()(T([1.0, 2.0], ms.float32), T([3.0, 4.0], ms.float32))
    assert out.dtype == ms.complex64 and out.asnumpy().tolist() == [1 + 3j, 2 + 4j]
    with pytest.raises(TypeError, match="For 'Complex', 'real' and 'imag' must both be float32 or both float64"):
        ops.Complex()(T([1.0], ms.float32), T([1.0], ms.float64))
    i32 = np.int32
    assert ops.LeftShift()(T(np.array([1, 2], i32)), T(np.array([3, 1], i32))).asnumpy().tolist() == [8, 4]
    assert ops.RightShift()(T(np.array([8, 2], i32)), T(np.array([3, 1], i32))).asnumpy().tolist() == [1, 1]
    assert ops.LerpScalar()(T([1.0, 2.0]), T([3.0, 4.0]), 0.5).asnumpy().tolist() == [2.0, 3.0]
    nxt = ops.NextAfter()(T(np.array([1.0], np.float32)), T(np.array([2.0], np.float32))).asnumpy()
    assert nxt[0] == np.nextafter(np.float32(1), np.float32(2))
    std, mean = ops.ReduceStd(axis=1)(T(np.arange(6, dtype=np.float32).reshape(2, 3)))
    assert std.asnumpy().tolist() == [1.0, 1.0] and mean.asnumpy().tolist() == [1.0, 4.0]
    std, _ = ops.ReduceStd(unbiased=False, keep_dims=True)(T(np.arange(4, dtype=np.float32)))
    np.testing.assert_allclose(std.asnumpy(), [np.std(np.arange(4))], rtol=1e-6)
    iou = ops.IOU()(T(np.array([[0, 0, 2, 2]], np.float32)), T(np.array([[1, 1, 3, 3]], np.float32)))
    np.testing.assert_allclose(iou.asnumpy(), [[4 / 14]], rtol=1e-6)
    with pytest.raises(KeyError, match="For 'IOU', only 'iou' or 'iof' are supported"):
        ops.IOU("bad")
    assert math.isclose(float(ops.Mvlgamma(1)(T([2.0])).asnumpy()[0]), 0.0, abs_tol=1e-6)
