"""The math family of mindspore.ops, table-driven: one object per name across ops / ops.functional /
ops.function, values against NumPy and SciPy, gradients against finite differences (float64), the
primitive-class forms, and MindSpore's errors for representative bad inputs."""

import inspect

import numpy as np
import pytest
import scipy.special as sp

import sporax as ms
from sporax import ops
from sporax.ops import function as fn_mod
from sporax.ops import functional as F

RNG = np.random.default_rng(7)
P = RNG.uniform(0.3, 2.5, (2, 3))  # positive, away from 0 (Bessel K/Y, igamma, zeta)
Z = RNG.normal(size=(2, 3))
Q = RNG.uniform(0.5, 1.5, (2, 3))


def T(a, dtype=None):
    return ms.Tensor(np.asarray(a), dtype)


def close(out, expected, rtol=1e-5, atol=1e-6):
    got = out.asnumpy()
    got = got.astype(np.complex128 if got.dtype.kind == "c" else np.float64)
    np.testing.assert_allclose(got, np.asarray(expected), rtol=rtol, atol=atol)


NAMES = """add sub mul div sqrt mean sum amax amin cumsum count_nonzero reduce_sum reduce_mean reduce_max reduce_min
absolute accumulate_n addbmm addr adjoint angle approximate_equal arccos arccosh arcsin arcsinh arctan arctan2
arctanh baddbmm_ext bartlett_window batch_dot bessel_i0 bessel_i0e bessel_i1 bessel_i1e bessel_j0 bessel_j1
bessel_k0 bessel_k0e bessel_k1 bessel_k1e bessel_y0 bessel_y1 bitwise_left_shift bitwise_right_shift
blackman_window block_diag bucketize cartesian_prod cholesky cholesky_inverse cholesky_solve combinations cond
conj copysign cosine_similarity cov deg2rad diag_embed diff_ext digamma eig eigvals einsum_ext eps erfinv_ fft fft2
fftn float_power_ext floor_div floordiv floormod fmax fmin geqrf hann_window heaviside histc i0 ifft ifft2 ifftn
igamma igammac imag inv invert is_complex isnan_ext isneginf isposinf isreal kaiser_window ldexp
log_matrix_determinant logaddexp2 logdet lu_solve lu_unpack matrix_determinant matrix_exp matrix_norm matrix_solve
multiply nan_to_num nanmean nanmedian nanquantile nextafter orgqr ormqr pinv polar polygamma positive pows qr quantile
rad2deg real renorm sgn slogdet std_mean stft subtract svd tanh_ tanhshrink tensor_add tensor_div tensor_exp
tensor_expm1 tensor_floordiv tensor_ge tensor_gt tensor_le tensor_mod tensor_mul tensor_muls tensor_pow tensor_sub
tensor_lt tril_indices triu_indices truncate_div vander var_mean vecdot vector_norm view_as_real xdivy zeta
clip_by_value clip_by_norm clip_by_global_norm""".split()


@pytest.mark.parametrize("name", NAMES)
def test_one_object_per_name(name):
    obj = getattr(ops, name)
    assert getattr(F, name) is obj and getattr(fn_mod, name) is obj
    assert getattr(ms.ops.function.math_func, name, obj) is obj or name in fn_mod.linalg_func.__all__


UNARY = [  # (name, reference, input)
    ("bessel_i0", sp.i0, Z),
    ("bessel_i0e", sp.i0e, Z),
    ("bessel_i1", sp.i1, Z),
    ("bessel_i1e", sp.i1e, Z),
    ("bessel_j0", sp.j0, Z * 4),
    ("bessel_j1", sp.j1, Z * 4),
    ("bessel_y0", sp.y0, P),
    ("bessel_y1", sp.y1, P),
    ("bessel_k0", sp.k0, P),
    ("bessel_k0e", sp.k0e, P),
    ("bessel_k1", sp.k1, P),
    ("bessel_k1e", sp.k1e, P),
    ("i0", sp.i0, Z),
    ("digamma", sp.digamma, P),
    ("tanhshrink", lambda a: a - np.tanh(a), Z),
    ("sgn", np.sign, Z),
    ("positive", lambda a: a, Z),
    ("inv", lambda a: 1 / a, P),
    ("conj", np.conj, Z),
    ("real", np.real, Z),
    ("imag", np.imag, Z),
    ("arccos", np.arccos, Q - 0.6),
    ("arccosh", np.arccosh, Q + 1),
    ("arcsin", np.arcsin, Q - 0.6),
    ("arcsinh", np.arcsinh, Z),
    ("arctan", np.arctan, Z),
    ("arctanh", np.arctanh, Q - 0.6),
    ("tensor_exp", np.exp, Z),
    ("tensor_expm1", np.expm1, Z),
    ("absolute", np.abs, Z),
    ("deg2rad", np.deg2rad, Z),
    ("rad2deg", np.rad2deg, Z),
    ("sqrt", np.sqrt, P),
]


UNARY_FLOAT32_TOO = {"bessel_j0", "bessel_k1e", "bessel_i1", "digamma", "sqrt"}  # the float64 pass checks the rest


@pytest.mark.parametrize("name,ref,x", UNARY, ids=[u[0] for u in UNARY])
def test_unary_against_scipy(name, ref, x):
    for dt, tol in ((np.float32, 2e-5), (np.float64, 1e-10))[int(name not in UNARY_FLOAT32_TOO) :]:
        out = getattr(ops, name)(T(x.astype(dt)))
        assert out.dtype == ms.Tensor(np.zeros(1, dt)).dtype
        close(out, ref(x), rtol=tol, atol=tol)


BINARY = [  # (name, reference, a, b)
    ("copysign", np.copysign, P, Z),
    ("fmax", np.fmax, np.where(Z > 0, np.nan, Z), Q),
    ("fmin", np.fmin, Z, np.where(Q > 1, np.nan, Q)),
    ("ldexp", lambda a, b: a * 2.0**b, Z, np.round(Z * 3)),
    ("logaddexp2", np.logaddexp2, Z, Q),
    ("nextafter", np.nextafter, Z, Q),
    ("xdivy", lambda a, b: np.where(a == 0, 0, a / b), np.where(Z > 0.5, 0, Z), Q),
    ("igamma", sp.gammainc, P, Q),
    ("igammac", sp.gammaincc, P, Q),
    ("zeta", sp.zeta, P + 1.5, Q),
    ("arctan2", np.arctan2, Z, Q),
    ("multiply", np.multiply, Z, Q),
    ("tensor_muls", np.multiply, Z, Q),
    ("tensor_add", np.add, Z, Q),
    ("tensor_sub", np.subtract, Z, Q),
    ("tensor_mul", np.multiply, Z, Q),
    ("tensor_div", np.divide, Z, Q),
    ("tensor_mod", np.remainder, Z, Q),
    ("floormod", np.remainder, Z, Q),
    ("tensor_floordiv", np.floor_divide, Z, Q),
    ("floordiv", np.floor_divide, Z, Q),
    ("floor_div", np.floor_divide, Z, Q),
    ("truncate_div", lambda a, b: np.trunc(a / b), Z * 3, Q),
    ("tensor_pow", np.power, P, Z),
    ("pows", np.power, P, Z),
    ("tensor_gt", np.greater, Z, Q - 1),
    ("tensor_ge", np.greater_equal, Z, Q - 1),
    ("tensor_lt", np.less, Z, Q - 1),
    ("tensor_le", np.less_equal, Z, Q - 1),
    ("heaviside", np.heaviside, np.round(Z), Q),
    ("approximate_equal", lambda a, b: np.abs(a - b) < 1e-5, Z, Z + np.where(Q > 1, 1e-7, 1e-3)),
    ("vecdot", lambda a, b: np.sum(a * b, -1), Z, Q),
    ("polar", lambda r, t: r * np.exp(1j * t), P, Z),
]


@pytest.mark.parametrize("name,ref,a,b", BINARY, ids=[b[0] for b in BINARY])
def test_binary_against_numpy(name, ref, a, b):
    out = getattr(ops, name)(T(a), T(b))
    close(out, ref(a, b), rtol=1e-9, atol=1e-12)
    if name in FLOAT32_TOO:
        out32 = getattr(ops, name)(T(a.astype(np.float32)), T(b.astype(np.float32)))
        close(out32, ref(a.astype(np.float32), b.astype(np.float32)), rtol=3e-5, atol=3e-6)


FLOAT32_TOO = {"copysign", "ldexp", "logaddexp2", "nextafter", "xdivy", "zeta"}


def test_polygamma_and_integer_rules():
    close(ops.polygamma(T(2), T(P)), sp.polygamma(2, P), rtol=1e-9)
    close(ops.polygamma(T(0), T(P)), sp.digamma(P), rtol=1e-9)
    i = T(np.array([1, -2, 3, 0], np.int32))
    assert ops.inv(T(np.array([1, -2, 3], np.int32))).asnumpy().tolist() == [1, 0, 0]
    assert ops.invert(i).asnumpy().tolist() == [-2, 1, -4, -1]
    assert ops.bitwise_left_shift(i, 1).asnumpy().tolist() == [2, -4, 6, 0]
    assert ops.bitwise_right_shift(T(np.array([8, -8], np.int32)), 2).asnumpy().tolist() == [2, -2]
    assert ops.copysign(i, -1.0).dtype == ms.float32
    assert ops.isneginf(T([-np.inf, 1.0, np.inf])).asnumpy().tolist() == [True, False, False]
    assert ops.isposinf(T([-np.inf, 1.0, np.inf])).asnumpy().tolist() == [False, False, True]
    assert ops.isneginf(i).asnumpy().tolist() == [False] * 4
    assert ops.isnan_ext(T([np.nan, 1.0])).asnumpy().tolist() == [True, False]
    c = T(np.array([1 + 2j, 3.0 + 0j], np.complex64))
    assert ops.is_complex(c) and not ops.is_complex(T(Z))
    assert ops.isreal(c).asnumpy().tolist() == [False, True]
    close(ops.angle(c), np.angle(c.asnumpy()))
    close(ops.view_as_real(c), np.array([[1, 2], [3, 0]]))
    close(ops.sgn(c), c.asnumpy() / np.abs(c.asnumpy()))
    close(ops.eps(T(Z.astype(np.float32))), np.full(Z.shape, np.finfo(np.float32).eps))
    close(ops.subtract(T(Z), T(Q), alpha=2), Z - 2 * Q)
    assert ops.float_power_ext(T(np.array([2], np.int32)), 3).dtype == ms.float64
    x = T(Z.copy())
    assert ops.tanh_(x) is x
    close(x, np.tanh(Z))
    y = T(np.array([0.1, -0.4]))
    assert ops.erfinv_(y) is y
    close(y, sp.erfinv([0.1, -0.4]), rtol=1e-6)
    close(ops.accumulate_n([T(Z), T(Q), T(P)]), Z + Q + P)
    close(ops.nan_to_num(T([np.nan, np.inf, 1.0]), posinf=5.0), [0.0, 5.0, 1.0])


def test_reductions_and_statistics():
    x = RNG.normal(size=(3, 4))
    t = T(x)
    close(ops.reduce_sum(t, 1), x.sum(1))
    close(ops.reduce_sum(t), x.sum())
    close(ops.reduce_mean(t, (0, 1)), x.mean())
    close(ops.reduce_max(t, 0), x.max(0))
    close(ops.reduce_min(t, ()), x.min())
    close(ops.mean(x=t, axis=1, keep_dims=True), x.mean(1, keepdims=True))
    where = x > 0
    close(ops.amax(t, 1, initial=-10.0, where=T(where)), np.max(x, 1, initial=-10.0, where=where))
    close(ops.amin(t, None, True, initial=10.0), np.min(x, None, keepdims=True, initial=10.0))
    close(ops.cumsum(t, 1), np.cumsum(x, 1))
    assert ops.count_nonzero(T(np.array([0, 1, 2]))).dtype == ms.int32
    xn = x.copy()
    xn[0, 1] = np.nan
    close(ops.nanmean(T(xn), 1), np.nanmean(xn, 1))
    close(ops.quantile(t, 0.3), np.quantile(x, 0.3))
    close(ops.quantile(t, T(np.array([0.2, 0.9])), 1, True), np.quantile(x, [0.2, 0.9], axis=1, keepdims=True))
    close(ops.nanquantile(T(xn), 0.5, 1), np.nanquantile(xn, 0.5, axis=1))
    v, i = ops.nanmedian(T(xn), 1)
    assert i.dtype == ms.int64
    np.testing.assert_array_equal(np.take_along_axis(xn, i.asnumpy()[:, None], 1)[:, 0], v.asnumpy())
    s, m = ops.std_mean(t, 1, 1)
    close(s, x.std(1, ddof=1))
    close(m, x.mean(1))
    vv, mm = ops.var_mean(t, None, 0, True)
    close(vv, x.var(keepdims=True))
    close(ops.vector_norm(t, 3), np.sum(np.abs(x) ** 3) ** (1 / 3))
    close(ops.vector_norm(t, np.inf, 1, True), np.abs(x).max(1, keepdims=True))
    close(ops.matrix_norm(t), np.linalg.norm(x))
    close(ops.matrix_norm(t, "nuc"), np.linalg.norm(x, "nuc"))
    close(ops.matrix_norm(t, 2), np.linalg.norm(x, 2))
    close(ops.diff_ext(t, 1, 0), np.diff(x, axis=0))
    close(ops.cov(t), np.cov(x))
    close(ops.cov(t, correction=0, aweights=T(np.array([1.0, 2, 3, 1]))), np.cov(x, ddof=0, aweights=[1, 2, 3, 1]))
    close(ops.histc(T(np.array([0.1, 0.6, 1.4, 1.5, 2.5, -1.0])), 3, 0.0, 1.5), [1, 1, 2])
    close(ops.bucketize(T(np.array([0.0, 1.5, 3.0])), [1.0, 2.0]), [0, 1, 2])
    close(ops.renorm(t, 2, 0, 1.0), x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1.0))


def test_linalg_against_numpy():
    a = RNG.normal(size=(3, 3))
    spd = a @ a.T + 3 * np.eye(3)
    b = RNG.normal(size=(3, 2))
    low = np.linalg.cholesky(spd)
    close(ops.cholesky(T(spd)), low)
    close(ops.cholesky(T(spd), upper=True), low.T)
    close(ops.cholesky_inverse(T(low)), np.linalg.inv(spd))
    close(ops.cholesky_inverse(T(low.T), upper=True), np.linalg.inv(spd))
    close(ops.cholesky_solve(T(b), T(low)), np.linalg.solve(spd, b))
    close(ops.matrix_solve(T(a), T(b)), np.linalg.solve(a, b))
    close(ops.matrix_solve(T(a), T(b), adjoint=True), np.linalg.solve(a.T, b))
    close(ops.cond(T(a)), np.linalg.cond(a), rtol=1e-8)
    sign, logabs = ops.slogdet(T(a))
    close(sign, np.linalg.slogdet(a)[0])
    close(logabs, np.linalg.slogdet(a)[1])
    close(ops.log_matrix_determinant(T(spd))[1], np.log(np.linalg.det(spd)))
    close(ops.logdet(T(spd)), np.log(np.linalg.det(spd)))
    close(ops.matrix_determinant(T(a)), np.linalg.det(a))
    close(ops.matrix_exp(T(a * 0.3)), sp_expm(a * 0.3), rtol=1e-8)
    close(ops.pinv(T(b)), np.linalg.pinv(b))
    s, u, v = ops.svd(T(b))
    np.testing.assert_allclose(u.asnumpy() @ np.diag(s.asnumpy()) @ v.asnumpy().T, b, atol=1e-12)
    close(ops.svd(T(b), compute_uv=False), np.linalg.svd(b, compute_uv=False))
    q, r = ops.qr(T(b))
    np.testing.assert_allclose(q.asnumpy() @ r.asnumpy(), b, atol=1e-12)
    assert ops.qr(T(b), "complete")[0].shape == (3, 3)
    w = ops.eigvals(T(spd))
    np.testing.assert_allclose(np.sort(w.asnumpy().real), np.linalg.eigvalsh(spd))
    vals, vecs = ops.eig(T(a))
    np.testing.assert_allclose(a @ vecs.asnumpy(), vecs.asnumpy() * vals.asnumpy(), atol=1e-9)
    y, tau = ops.geqrf(T(b))
    np.testing.assert_allclose(np.abs(np.triu(y.asnumpy())[:2]), np.abs(np.linalg.qr(b)[1]), atol=1e-12)
    qq = ops.orgqr(y, tau)
    np.testing.assert_allclose(np.abs(qq.asnumpy()), np.abs(np.linalg.qr(b)[0]), atol=1e-12)
    c = RNG.normal(size=(3, 2))
    full_q = ops.ormqr(y, tau, T(np.eye(3)))
    close(full_q[:, :2], qq.asnumpy())
    close(ops.ormqr(y, tau, T(c), transpose=True), full_q.asnumpy().T @ c)
    close(ops.ormqr(y, tau, T(c.T), left=False), c.T @ full_q.asnumpy())
    import scipy.linalg as sl

    lu, piv = sl.lu_factor(a)
    close(ops.lu_solve(T(b), T(lu), T((piv + 1).astype(np.int32))), np.linalg.solve(a, b))
    p, lo, up = ops.lu_unpack(T(lu), T((piv + 1).astype(np.int32)))
    np.testing.assert_allclose(p.asnumpy() @ lo.asnumpy() @ up.asnumpy(), a, atol=1e-12)


def sp_expm(a):
    import scipy.linalg

    return scipy.linalg.expm(a)


def test_products_and_constructors():
    x = RNG.normal(size=(2, 3, 4))
    y = RNG.normal(size=(2, 4, 5))
    m = RNG.normal(size=(3, 5))
    close(ops.addbmm(T(m), T(x), T(y), beta=0.5, alpha=2), 0.5 * m + 2 * np.einsum("bij,bjk->ik", x, y))
    close(ops.baddbmm_ext(T(m), T(x), T(y)), m + x @ y)
    close(ops.einsum_ext("bij,bjk->bik", T(x), T(y)), x @ y)
    close(ops.batch_dot(T(x), T(y), (2, 1)), x @ y)
    close(ops.adjoint(T(x)), np.swapaxes(x, -1, -2))
    close(ops.addr(T(m[:, :2]), T(np.ones(3)), T(np.arange(2.0))), m[:, :2] + np.outer(np.ones(3), np.arange(2.0)))
    close(
        ops.cosine_similarity(T(x[0]), T(x[1]), 1),
        np.sum(x[0] * x[1], 1) / np.linalg.norm(x[0], axis=1) / np.linalg.norm(x[1], axis=1),
    )
    close(ops.vander(T(np.array([1.0, 2.0, 3.0]))), np.vander([1.0, 2.0, 3.0]))
    close(ops.diag_embed(T(np.array([[1.0, 2.0]])), -1), [[[0, 0, 0], [1, 0, 0], [0, 2, 0]]])
    close(ops.tril_indices(3, 3), np.stack(np.tril_indices(3)))
    close(ops.triu_indices(3, 4, 1), np.stack(np.triu_indices(3, 1, 4)))
    assert ops.tril_indices(2, 2).dtype == ms.int64
    close(ops.block_diag(T(np.ones((1, 2))), T(np.array(3.0))), [[1, 1, 0], [0, 0, 3]])
    close(ops.cartesian_prod(T(np.array([1, 2])), T(np.array([5, 6]))), [[1, 5], [1, 6], [2, 5], [2, 6]])
    close(ops.combinations(T(np.array([1, 2, 3]))), [[1, 2], [1, 3], [2, 3]])


def test_spectral_against_numpy():
    x = RNG.normal(size=(3, 8))
    close(ops.fft(T(x)), np.fft.fft(x), atol=1e-10)
    close(ops.fft(T(x), 4, 0 - 1, "ortho"), np.fft.fft(x, 4, norm="ortho"), atol=1e-10)
    close(ops.ifft(ops.fft(T(x))), x, atol=1e-10)
    close(ops.fft2(T(x)), np.fft.fft2(x), atol=1e-9)
    close(ops.ifft2(T(x), norm="forward"), np.fft.ifft2(x, norm="forward"), atol=1e-9)
    close(ops.fftn(T(x), (2, 4)), np.fft.fftn(x, (2, 4), axes=(0, 1)), atol=1e-9)
    close(ops.ifftn(T(x), dim=(1,)), np.fft.ifftn(x, axes=(1,)), atol=1e-9)
    assert ops.fft(T(np.arange(4, dtype=np.int32))).dtype == ms.complex64
    close(ops.hann_window(5, False), np.hanning(5))
    close(ops.kaiser_window(6, False, 4.0), np.kaiser(6, 4.0))
    close(ops.blackman_window(T(np.array(7, np.int32)), False), np.blackman(7), atol=1e-7)
    close(ops.bartlett_window(T(np.array(7, np.int32)), False), np.bartlett(7), atol=1e-7)
    sig = np.sin(np.arange(32) * 0.3)
    out = ops.stft(T(sig), 8, 2, return_complex=True)
    padded = np.pad(sig, 4, mode="reflect")
    frames = np.stack([padded[i * 2 : i * 2 + 8] for i in range(1 + (len(padded) - 8) // 2)])
    close(out, np.fft.rfft(frames, axis=-1).T, atol=1e-5)
    assert ops.stft(T(sig.astype(np.float32)), 8).shape == (5, 17, 2)


GRADS = [  # (name, function of one float64 Tensor, input)
    ("bessel_j0", ops.bessel_j0, Z * 3),
    ("bessel_j1", ops.bessel_j1, Z * 3),
    ("bessel_y0", ops.bessel_y0, P),
    ("bessel_y1", ops.bessel_y1, P),
    ("bessel_k0", ops.bessel_k0, P),
    ("bessel_k1", ops.bessel_k1, P),
    ("bessel_k0e", ops.bessel_k0e, P),
    ("bessel_k1e", ops.bessel_k1e, P),
    ("igamma_x", lambda x: ops.igamma(T(Q), x), P),
    ("polygamma", lambda x: ops.polygamma(T(1), x), P),
    ("tanhshrink", ops.tanhshrink, Z),
    ("copysign", lambda x: ops.copysign(x, T(Z)), P),
    ("logaddexp2", lambda x: ops.logaddexp2(x, T(Q)), Z),
    ("xdivy", lambda x: ops.xdivy(x, T(Q)), Z),
    ("vector_norm", lambda x: ops.vector_norm(x, 3), Z),
    ("matrix_norm", lambda x: ops.matrix_norm(x, "nuc"), Z),
    ("cosine_similarity", lambda x: ops.cosine_similarity(x, T(Q)), Z),
    ("slogdet", lambda x: ops.slogdet(x)[1], np.eye(3) * 2 + Z[:1].T @ Z[:1] * 0.1),
    ("pinv", ops.pinv, Z),
    ("quantile", lambda x: ops.quantile(x, 0.4, 1), Z),
    ("renorm", lambda x: ops.renorm(x, 2, 0, 1.0), Z),
    ("fft_abs", lambda x: ops.abs(ops.fft(x)), Z),
]


def _fd(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (np.sum(f(T(x + d)).asnumpy()) - np.sum(f(T(x - d)).asnumpy())) / (2 * eps)
    return g


@pytest.mark.parametrize("name,f,x", GRADS, ids=[g[0] for g in GRADS])
def test_gradient_matches_finite_differences(name, f, x):
    x = np.asarray(x, np.float64)
    grad = ms.grad(lambda t: ops.sum(f(t)))(T(x))
    np.testing.assert_allclose(grad.asnumpy(), _fd(f, x), rtol=1e-5, atol=1e-6)


PRIMS = [  # (class, constructor args, call args, expected)
    (ops.Abs, (), (T(-Z),), np.abs(Z)),
    (ops.Add, (), (T(Z), T(Q)), Z + Q),
    (ops.TensorAdd, (), (T(Z), T(Q)), Z + Q),
    (ops.Sub, (), (T(Z), T(Q)), Z - Q),
    (ops.Mul, (), (T(Z), T(Q)), Z * Q),
    (ops.Atan2, (), (T(Z), T(Q)), np.arctan2(Z, Q)),
    (ops.Xdivy, (), (T(Z), T(Q)), Z / Q),
    (ops.Xlogy, (), (T(Q), T(P)), Q * np.log(P)),
    (ops.Hypot, (), (T(Z), T(Q)), np.hypot(Z, Q)),
    (ops.Fmax, (), (T(Z), T(Q)), np.fmax(Z, Q)),
    (ops.Fmin, (), (T(Z), T(Q)), np.fmin(Z, Q)),
    (ops.Igamma, (), (T(P), T(Q)), sp.gammainc(P, Q)),
    (ops.Igammac, (), (T(P), T(Q)), sp.gammaincc(P, Q)),
    (ops.Zeta, (), (T(P + 1.5), T(Q)), sp.zeta(P + 1.5, Q)),
    (ops.Polygamma, (), (T(1), T(P)), sp.polygamma(1, P)),
    (ops.Ger, (), (T(Z[0]), T(Q[0])), np.outer(Z[0], Q[0])),
    (ops.Inv, (), (T(P),), 1 / P),
    (ops.Invert, (), (T(np.array([1, 2], np.int32)),), [-2, -3]),
    (ops.Sqrt, (), (T(P),), np.sqrt(P)),
    (ops.Rsqrt, (), (T(P),), 1 / np.sqrt(P)),
    (ops.Exp, (), (T(Z),), np.exp(Z)),
    (ops.Expm1, (), (T(Z),), np.expm1(Z)),
    (ops.Log1p, (), (T(P),), np.log1p(P)),
    (ops.Sin, (), (T(Z),), np.sin(Z)),
    (ops.Sinh, (), (T(Z),), np.sinh(Z)),
    (ops.Cos, (), (T(Z),), np.cos(Z)),
    (ops.Cosh, (), (T(Z),), np.cosh(Z)),
    (ops.Tan, (), (T(Z),), np.tan(Z)),
    (ops.Asin, (), (T(Q - 0.6),), np.arcsin(Q - 0.6)),
    (ops.Asinh, (), (T(Z),), np.arcsinh(Z)),
    (ops.Acosh, (), (T(P + 1),), np.arccosh(P + 1)),
    (ops.Atan, (), (T(Z),), np.arctan(Z)),
    (ops.Atanh, (), (T(Q - 0.6),), np.arctanh(Q - 0.6)),
    (ops.Ceil, (), (T(Z),), np.ceil(Z)),
    (ops.Trunc, (), (T(Z * 3),), np.trunc(Z * 3)),
    (ops.Round, (), (T(Z * 3),), np.round(Z * 3)),
    (ops.Sign, (), (T(Z),), np.sign(Z)),
    (ops.Neg, (), (T(Z),), -Z),
    (ops.Square, (), (T(Z),), Z**2),
    (ops.Reciprocal, (), (T(P),), 1 / P),
    (ops.Sinc, (), (T(Z),), np.sinc(Z)),
    (ops.Erf, (), (T(Z),), sp.erf(Z)),
    (ops.Erfc, (), (T(Z),), sp.erfc(Z)),
    (ops.Erfinv, (), (T(Q - 0.6),), sp.erfinv(Q - 0.6)),
    (ops.Lgamma, (), (T(P),), sp.gammaln(P)),
    (ops.Digamma, (), (T(P),), sp.digamma(P)),
    (ops.IsNan, (), (T(Z),), np.isnan(Z)),
    (ops.Equal, (), (T(Z), T(Z)), np.ones(Z.shape, bool)),
    (ops.NotEqual, (), (T(Z), T(Q)), Z != Q),
    (ops.Greater, (), (T(Z), T(Q)), Z > Q),
    (ops.GreaterEqual, (), (T(Z), T(Q)), Z >= Q),
    (ops.Less, (), (T(Z), T(Q)), Z < Q),
    (ops.LessEqual, (), (T(Z), T(Q)), Z <= Q),
    (ops.Maximum, (), (T(Z), T(Q)), np.maximum(Z, Q)),
    (ops.Minimum, (), (T(Z), T(Q)), np.minimum(Z, Q)),
    (ops.Pow, (), (T(P), T(Z)), P**Z),
    (ops.SquaredDifference, (), (T(Z), T(Q)), (Z - Q) ** 2),
    (ops.DivNoNan, (), (T(Z), T(np.where(Q > 1, 0, Q))), np.where(Q > 1, 0, Z / Q)),
    (ops.MulNoNan, (), (T(Z), T(Q)), Z * Q),
    (ops.FloorDiv, (), (T(Z), T(Q)), np.floor_divide(Z, Q)),
    (ops.FloorMod, (), (T(Z), T(Q)), np.mod(Z, Q)),
    (ops.Mod, (), (T(Z), T(Q)), np.fmod(Z, Q)),
    (ops.TruncateDiv, (), (T(Z), T(Q)), np.trunc(Z / Q)),
    (ops.TruncateMod, (), (T(Z), T(Q)), np.fmod(Z, Q)),
    (ops.Gcd, (), (T(np.array([12, 9])), T(np.array([8, 6]))), [4, 3]),
    (ops.Lcm, (), (T(np.array([4, 3])), T(np.array([6, 5]))), [12, 15]),
    (ops.Heaviside, (), (T(np.round(Z)), T(Q)), np.heaviside(np.round(Z), Q)),
    (ops.LogicalAnd, (), (T(Z > 0), T(Q > 1)), (Z > 0) & (Q > 1)),
    (ops.LogicalOr, (), (T(Z > 0), T(Q > 1)), (Z > 0) | (Q > 1)),
    (ops.LogicalXor, (), (T(Z > 0), T(Q > 1)), (Z > 0) ^ (Q > 1)),
    (ops.LogicalNot, (), (T(Z > 0),), ~(Z > 0)),
    (ops.BitwiseAnd, (), (T(np.array([6])), T(np.array([3]))), [2]),
    (ops.BitwiseOr, (), (T(np.array([6])), T(np.array([3]))), [7]),
    (ops.BitwiseXor, (), (T(np.array([6])), T(np.array([3]))), [5]),
    (ops.Angle, (), (T(np.array([1j, -1.0 + 0j])),), [np.pi / 2, np.pi]),
    (ops.Conj, (), (T(np.array([1 + 1j])),), [1 - 1j]),
    (ops.Real, (), (T(np.array([1 + 2j])),), [1.0]),
    (ops.Imag, (), (T(np.array([1 + 2j])),), [2.0]),
    (ops.ComplexAbs, (), (T(np.array([3 + 4j])),), [5.0]),
    (ops.Polar, (), (T(P), T(Z)), P * np.exp(1j * Z)),
    (ops.Eps, (), (T(Z),), np.full(Z.shape, np.finfo(np.float64).eps)),
    (ops.BesselI0, (), (T(Z),), sp.i0(Z)),
    (ops.BesselI0e, (), (T(Z),), sp.i0e(Z)),
    (ops.BesselI1, (), (T(Z),), sp.i1(Z)),
    (ops.BesselI1e, (), (T(Z),), sp.i1e(Z)),
    (ops.BesselJ0, (), (T(Z),), sp.j0(Z)),
    (ops.BesselJ1, (), (T(Z),), sp.j1(Z)),
    (ops.BesselK0, (), (T(P),), sp.k0(P)),
    (ops.BesselK0e, (), (T(P),), sp.k0e(P)),
    (ops.BesselK1, (), (T(P),), sp.k1(P)),
    (ops.BesselK1e, (), (T(P),), sp.k1e(P)),
    (ops.BesselY0, (), (T(P),), sp.y0(P)),
    (ops.BesselY1, (), (T(P),), sp.y1(P)),
    (ops.AddN, (), ((T(Z), T(Q)),), Z + Q),
    (ops.AccumulateNV2, (), ((T(Z), T(Q)),), Z + Q),
    (ops.Addcdiv, (), (T(Z), T(Q), T(P), T(0.5)), Z + 0.5 * Q / P),
    (ops.Addcmul, (), (T(Z), T(Q), T(P), T(0.5)), Z + 0.5 * Q * P),
    (ops.Lerp, (), (T(Z), T(Q), 0.25), Z + 0.25 * (Q - Z)),
    (ops.SquareSumAll, (), (T(Z), T(Q)), None),
    (ops.Cross, (), (T(Z[:, :3]), T(Q[:, :3])), np.cross(Z, Q)),
    (ops.Cross, (1,), (T(Z), T(Q)), np.cross(Z, Q)),
    (ops.EqualCount, (), (T(np.array([1, 2, 3])), T(np.array([1, 0, 3]))), [2]),
    (ops.CompareAndBitpack, (), (T(np.arange(8.0)), T(3.5)), [15]),
    (ops.Bincount, (), (T(np.array([0, 1, 1, 3])), T(np.array(3)), T(np.ones(4))), [1, 2, 0]),
    (ops.Bucketize, ([0.0, 1.0],), (T(np.array([-1.0, 0.5, 2.0])),), [0, 1, 2]),
    (ops.Cummax, (1,), (T(Z),), None),
    (ops.Cummin, (0,), (T(Z),), None),
    (ops.CumulativeLogsumexp, (), (T(Z), 1), np.logaddexp.accumulate(Z, 1)),
    (ops.CumulativeLogsumexp, (True, True), (T(Z), 1), None),
    (ops.EuclideanNorm, (), (T(Z), (1,)), np.linalg.norm(Z, axis=1)),
    (ops.EuclideanNorm, (True,), (T(Z), (0, 1)), np.linalg.norm(Z).reshape(1, 1)),
    (ops.Histogram, (3, 0.0, 3.0), (T(np.array([0.5, 1.5, 1.2, 9.0])),), [1, 2, 0]),
    (ops.HistogramFixedWidth, (3,), (T(np.array([-1.0, 0.5, 1.5, 9.0])), T(np.array([0.0, 3.0]))), [2, 1, 1]),
    (ops.Logit, (), (T(Q - 0.6),), np.log((Q - 0.6) / (1.6 - Q))),
    (ops.Logit, (0.3,), (T(Q - 0.6),), sp.logit(np.clip(Q - 0.6, 0.3, 0.7))),
    (ops.Median, (False, 1), (T(Z),), None),
    (ops.Median, (True,), (T(Z),), None),
    (ops.NanToNum, (1.0,), (T(np.array([np.nan, 2.0])),), [1.0, 2.0]),
    (ops.Quantile, (1,), (T(Z), T(0.5)), np.median(Z, 1)),
    (ops.Renorm, (1, 0, 1.0), (T(Z),), Z / np.maximum(np.abs(Z).sum(1, keepdims=True), 1.0)),
    (ops.TrilIndices, (2, 3), (), np.stack(np.tril_indices(2, 0, 3))),
    (ops.TriuIndices, (2, 3, 1), (), np.stack(np.triu_indices(2, 1, 3))),
    (ops.Cdist, (1.0,), (T(Z), T(Q)), np.abs(Z[:, None] - Q[None]).sum(-1)),
    (ops.MatrixPower, (2,), (T(np.eye(2) * 3),), np.eye(2) * 9),
    (ops.MatrixExp, (), (T(np.zeros((2, 2))),), np.eye(2)),
    (ops.Trace, (), (T(np.arange(9.0).reshape(3, 3)),), 12.0),
    (ops.Argmin, (), (T(Z),), np.argmin(Z, -1)),
]


@pytest.mark.parametrize("cls,init,args,expected", PRIMS, ids=[f"{p[0].__name__}{i}" for i, p in enumerate(PRIMS)])
def test_primitive_forms(cls, init, args, expected):
    prim = cls(*init)
    out = prim(*args)
    if expected is not None:
        close(out, expected, rtol=1e-6, atol=1e-9)
    else:
        assert out is not None


def test_primitive_signatures_take_no_name():
    for cls in (ops.Abs, ops.Add, ops.AddN, ops.Sqrt, ops.Equal, ops.ClipByValue, ops.SquareSumAll, ops.Lerp):
        assert list(inspect.signature(cls.__init__).parameters) == ["self"]
        assert cls().name == cls.__name__


ERRORS = [  # (callable, error class, message fragment)
    (lambda: ops.bessel_j0(T(np.array([1, 2], np.int32))), TypeError, "For primitive[BesselJ0], the input argument[x]"),
    (lambda: ops.invert(T(np.array([1.0]))), TypeError, "For primitive[Invert]"),
    (lambda: ops.eps(T(np.array([1]))), TypeError, "For primitive[Eps]"),
    (lambda: ops.igamma(T(np.array([1])), T(np.array([1]))), TypeError, "For primitive[Igamma]"),
    (lambda: ops.nextafter(T(np.array([1])), T(np.array([1]))), TypeError, "For primitive[NextAfter]"),
    (lambda: ops.xdivy(T(np.array([1])), T(np.array([1]))), TypeError, "For primitive[Xdivy]"),
    (lambda: ops.logaddexp2(T(np.array([1])), T(np.array([1]))), TypeError, "must be float"),
    (lambda: ops.nanmean(T(np.array([1]))), TypeError, "floating point dtype"),
    (lambda: ops.quantile(T(Z), 1.3), ValueError, "must in the range [0, 1]"),
    (lambda: ops.quantile(T(np.array([1, 2])), 0.5), TypeError, "For primitive[Quantile]"),
    (lambda: ops.histc(T(Z), 0), ValueError, "'bins' should be greater than 0"),
    (lambda: ops.angle(T(Z)), TypeError, "complex"),
    (lambda: ops.blackman_window(6), TypeError, "must be Tensor"),
    (lambda: ops.bucketize(T(Z), 1.0), TypeError, "'boundaries' must be a list"),
    (lambda: ops.cholesky(T(Z)), ValueError, "square matrices"),
    (lambda: ops.fft(T(Z), norm="bad"), ValueError, "'norm' must be one of"),
    (lambda: ops.qr(T(Z), "r"), ValueError, "'mode' must be"),
    (lambda: ops.add(T(np.ones((2, 3))), T(np.ones((4,)))), ValueError, "need to broadcast"),
    (lambda: ops.TrilIndices(2, 2, 0, ms.float32), TypeError, "'dtype' must be int32 or int64"),
    (lambda: ops.Bucketize(1.0), TypeError, "'boundaries' must be a list"),
    (lambda: ops.tensor_sub(T(Z)), TypeError, "number of inputs must be 2"),
    (lambda: ops.sum(T(Z), 5), ValueError, "For primitive[ReduceSum], the axis value must be in [-2,2), but got 5."),
    (lambda: ops.mean(T(Z), (0, -3)), ValueError, "For primitive[ReduceMean], the axis value must be in [-2,2)"),
    (lambda: ops.ReduceMax()(T(Z), 2), ValueError, "For primitive[ReduceMax]"),
    (lambda: ops.reduce_min(T(Z), 3), ValueError, "For primitive[ReduceMin]"),
    (lambda: ops.prod(T(Z), 4), ValueError, "For primitive[ReduceProd]"),
    (lambda: ops.all(T(Z), 2), ValueError, "For primitive[ReduceAll]"),
    (lambda: ops.matmul(T(Z), T(Z)), RuntimeError, "For 'MatMul', the input dimensions must be equal"),
]


@pytest.mark.parametrize("call,err,msg", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_errors_in_mindspore_form(call, err, msg):
    with pytest.raises(err) as info:
        call()
    assert msg in str(info.value)


def test_clip_helpers():
    a = T(Z)
    close(ops.clip_by_value(a, -0.5, 0.5), np.clip(Z, -0.5, 0.5))
    lst = ops.clip_by_value([a, T(Q)], T(0.0), 1.0)
    close(lst[1], np.clip(Q, 0, 1))
    close(ops.clip_by_norm(a, 1.0), Z * min(1.0, 1.0 / (np.linalg.norm(Z) + 1e-6)))
    out = ops.clip_by_global_norm((a, T(Q)), 1.0)
    g = np.sqrt(np.sum(Z**2) + np.sum(Q**2))
    close(out[0], Z / max(g, 1.0), rtol=1e-6)
