"""ops math functions: values against NumPy, result dtypes, gradients against finite differences, errors."""

import math

import numpy as np
import pytest

import sporax as ms
from sporax import ops

RNG = np.random.default_rng(0)
X = RNG.uniform(0.2, 0.9, (3, 4)).astype(np.float32)  # inside every domain below
Y = RNG.uniform(0.2, 0.9, (3, 4)).astype(np.float32)
Z = RNG.normal(size=(3, 4)).astype(np.float32)


def T(a, dtype=None):
    return ms.Tensor(a, dtype)


def close(out, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(out.asnumpy(), np.asarray(expected), rtol=rtol, atol=atol)


_erf = np.vectorize(math.erf)
_lgamma = np.vectorize(math.lgamma)

UNARY = [
    ("exp", np.exp, X),
    ("expm1", np.expm1, X),
    ("exp2", np.exp2, X),
    ("log", np.log, X),
    ("log1p", np.log1p, X),
    ("log2", np.log2, X),
    ("log10", np.log10, X),
    ("sqrt", np.sqrt, X),
    ("rsqrt", lambda a: 1 / np.sqrt(a), X),
    ("square", np.square, Z),
    ("reciprocal", np.reciprocal, X),
    ("sin", np.sin, Z),
    ("cos", np.cos, Z),
    ("tan", np.tan, Z),
    ("asin", np.arcsin, X),
    ("acos", np.arccos, X),
    ("atan", np.arctan, Z),
    ("sinh", np.sinh, Z),
    ("cosh", np.cosh, Z),
    ("tanh", np.tanh, Z),
    ("asinh", np.arcsinh, Z),
    ("acosh", np.arccosh, X + 1),
    ("atanh", np.arctanh, X),
    ("erf", _erf, Z),
    ("erfc", lambda a: 1 - _erf(a), Z),
    ("lgamma", _lgamma, X),
    ("sigmoid", lambda a: 1 / (1 + np.exp(-a)), Z),
    ("neg", np.negative, Z),
    ("abs", np.abs, Z),
    ("floor", np.floor, Z * 3),
    ("ceil", np.ceil, Z * 3),
    ("trunc", np.trunc, Z * 3),
    ("round", np.round, Z * 3),
    ("sign", np.sign, Z),
    ("frac", lambda a: a - np.trunc(a), Z * 3),
    ("deg2rad", np.deg2rad, Z),
    ("rad2deg", np.rad2deg, Z),
    ("sinc", np.sinc, Z),
    ("logit", lambda a: np.log(a / (1 - a)), X),
    ("signbit", np.signbit, Z),
]


@pytest.mark.parametrize("name,ref,x", UNARY, ids=[u[0] for u in UNARY])
def test_unary_matches_numpy(name, ref, x):
    out = getattr(ops, name)(T(x))
    assert out.shape == x.shape
    close(out, ref(x.astype(np.float64)), rtol=2e-5, atol=2e-6)
    if name != "signbit":
        assert out.dtype == ms.float32


@pytest.mark.parametrize("name", ["exp", "sqrt", "log", "sin", "tanh", "reciprocal", "erf"])
def test_unary_int_input_computes_in_float32(name):
    out = getattr(ops, name)(T(np.array([1, 2, 3], np.int32)))
    assert out.dtype == ms.float32


BINARY = [
    ("add", np.add),
    ("sub", np.subtract),
    ("mul", np.multiply),
    ("div", np.divide),
    ("true_divide", np.divide),
    ("floor_divide", np.floor_divide),
    ("remainder", np.remainder),
    ("floor_mod", np.remainder),
    ("fmod", np.fmod),
    ("truncate_mod", np.fmod),
    ("pow", np.power),
    ("maximum", np.maximum),
    ("minimum", np.minimum),
    ("atan2", np.arctan2),
    ("hypot", np.hypot),
    ("logaddexp", np.logaddexp),
    ("square_difference", lambda a, b: (a - b) ** 2),
    ("xlogy", lambda a, b: a * np.log(b)),
    ("equal", np.equal),
    ("not_equal", np.not_equal),
    ("less", np.less),
    ("less_equal", np.less_equal),
    ("greater", np.greater),
    ("greater_equal", np.greater_equal),
]


@pytest.mark.parametrize("name,ref", BINARY, ids=[b[0] for b in BINARY])
def test_binary_matches_numpy_with_broadcasting(name, ref):
    a, b = X * 3, Y[:1] * 2  # (3, 4) with (1, 4)
    out = getattr(ops, name)(T(a), T(b))
    assert out.shape == (3, 4)
    close(out, ref(a.astype(np.float64), b.astype(np.float64)), rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize(
    "name,ref",
    [
        ("floor_divide", np.floor_divide),
        ("remainder", np.remainder),
        ("fmod", np.fmod),
        ("bitwise_and", np.bitwise_and),
        ("bitwise_or", np.bitwise_or),
        ("bitwise_xor", np.bitwise_xor),
        ("gcd", np.gcd),
        ("lcm", np.lcm),
    ],
)
def test_integer_binary(name, ref):
    a = np.array([7, -7, 12, 5], np.int32)
    b = np.array([3, 3, -5, 2], np.int32)
    out = getattr(ops, name)(T(a), T(b))
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), ref(a, b))


@pytest.mark.parametrize("name", ["add", "mul", "maximum", "less", "equal", "pow", "logical_and"])
def test_shapes_that_do_not_broadcast_raise_value_error(name):
    with pytest.raises(
        ValueError, match=rf"For '{name}', x.shape and y.shape need to broadcast, but got x.shape = \[2, 3\]"
    ):
        getattr(ops, name)(T(np.ones((2, 3), np.float32)), T(np.ones(4, np.float32)))


def test_div_rounding_modes():
    a, b = T(np.array([7, -7], np.int64)), T(np.array([2, 2], np.int64))
    close(ops.div(a, b), [3.5, -3.5])
    assert ops.div(a, b).dtype == ms.float32
    np.testing.assert_array_equal(ops.div(a, b, rounding_mode="floor").asnumpy(), [3, -4])
    np.testing.assert_array_equal(ops.div(a, b, rounding_mode="trunc").asnumpy(), [3, -3])
    np.testing.assert_array_equal(ops.truncate_div(a, b).asnumpy(), [3, -3])
    with pytest.raises(ValueError, match="For 'div', the 'rounding_mode'"):
        ops.div(a, b, rounding_mode="up")


def test_logical_and_bit_not():
    a, b = T([True, False, True]), T([True, True, False])
    np.testing.assert_array_equal(ops.logical_and(a, b).asnumpy(), [True, False, False])
    np.testing.assert_array_equal(ops.logical_or(a, b).asnumpy(), [True, True, True])
    np.testing.assert_array_equal(ops.logical_xor(a, b).asnumpy(), [False, True, True])
    np.testing.assert_array_equal(ops.logical_not(a).asnumpy(), [False, True, False])
    np.testing.assert_array_equal(ops.bitwise_not(T(np.array([0, 5], np.int8))).asnumpy(), [-1, -6])
    with pytest.raises(TypeError, match="For 'bitwise_and'"):
        ops.bitwise_and(T([1.0]), T([2.0]))


def test_isnan_isinf_isfinite_isclose_nan_to_num():
    a = np.array([1.0, np.nan, np.inf, -np.inf], np.float32)
    np.testing.assert_array_equal(ops.isnan(T(a)).asnumpy(), np.isnan(a))
    np.testing.assert_array_equal(ops.isinf(T(a)).asnumpy(), np.isinf(a))
    np.testing.assert_array_equal(ops.isfinite(T(a)).asnumpy(), np.isfinite(a))
    close(ops.nan_to_num(T(a), 0.0, 9.0, -9.0), [1, 0, 9, -9])
    np.testing.assert_array_equal(ops.isclose(T([1.0, 2.0]), T([1.0 + 1e-7, 2.1])).asnumpy(), [True, False])


def test_clamp_clip_lerp_addcmul():
    close(ops.clamp(T(Z), -0.5, 0.5), np.clip(Z, -0.5, 0.5))
    close(ops.clamp(T(Z), min=0.0), np.maximum(Z, 0))
    close(ops.clip_by_value(T(Z), T(-0.1), T(0.2)), np.clip(Z, -0.1, 0.2))
    lo, hi = ops.clip_by_value((T(Z), T(X)), -0.1, 0.2)
    close(hi, np.clip(X, -0.1, 0.2))
    with pytest.raises(ValueError, match="For 'clamp'"):
        ops.clamp(T(Z))
    close(ops.lerp(T(X), T(Y), 0.25), X + 0.25 * (Y - X))
    close(ops.addcmul(T(X), T(Y), T(Z), 0.5), X + 0.5 * Y * Z)
    close(ops.addcdiv(T(X), T(Y), T(X), 2), X + 2 * Y / X)


# ------------------------------------------------------------------ reductions
REDUCTIONS = [
    ("sum", lambda t, ax, k: ops.sum(t, ax, k), np.sum),
    ("mean", lambda t, ax, k: ops.mean(t, ax, k), np.mean),
    ("prod", lambda t, ax, k: ops.prod(t, ax, k), np.prod),
    ("amax", lambda t, ax, k: ops.amax(t, ax, k), np.max),
    ("amin", lambda t, ax, k: ops.amin(t, ax, k), np.min),
    ("std", lambda t, ax, k: ops.std(t, ax, 0, k), np.std),
    ("var", lambda t, ax, k: ops.var(t, ax, 0, k), np.var),
    ("nansum", lambda t, ax, k: ops.nansum(t, ax, k), np.nansum),
    (
        "logsumexp",
        lambda t, ax, k: ops.logsumexp(t, ax, k),
        lambda a, axis, keepdims: np.log(np.sum(np.exp(a), axis=axis, keepdims=keepdims)),
    ),
]


@pytest.mark.parametrize("axis,keep", [(None, False), (1, True), ((0, 1), False), (-2, False)])
@pytest.mark.parametrize("name,fn,ref", REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
def test_reductions(name, fn, ref, axis, keep):
    out = fn(T(Z), axis, keep)
    close(out, ref(Z.astype(np.float64), axis=axis, keepdims=keep), rtol=1e-5, atol=1e-5)
    assert out.dtype == ms.float32


def test_reduction_dtypes():
    i32 = T(np.array([[1, 2], [3, 4]], np.int32))
    # MindSpore 2.10: ops.sum/ops.prod of Int32 give Int64, ops.mean keeps Int32 (the mean truncated); the
    # fixture of tools/make_ops_math_reference.py (cases sum_*, prod_*, mean_*) holds MindSpore's outputs
    assert ops.sum(i32).dtype == ms.int64 and int(ops.sum(i32)) == 10
    assert ops.sum(T([True, True, False])).dtype == ms.int64
    assert ops.sum(i32, dtype=ms.float64).dtype == ms.float64
    assert ops.mean(i32).dtype == ms.int32 and int(ops.mean(i32)) == 2
    assert ops.prod(i32).dtype == ms.int64 and int(ops.prod(i32)) == 24
    close(ops.mean(T(Z), ()), Z.mean())
    np.testing.assert_array_equal(ops.all(T([[True, False], [True, True]]), 1).asnumpy(), [False, True])
    np.testing.assert_array_equal(ops.any(T([[True, False], [False, False]]), 1).asnumpy(), [True, False])
    c = ops.count_nonzero(T(np.array([[0, 1], [2, 0]])), 1)
    assert c.dtype == ms.int32
    np.testing.assert_array_equal(c.asnumpy(), [1, 1])


def test_max_min_return_values_and_indices():
    v, i = ops.max(T(Z), 1)
    close(v, Z.max(1))
    np.testing.assert_array_equal(i.asnumpy(), Z.argmax(1))
    assert i.dtype == ms.int64
    v, i = ops.min(T(Z), 0, keepdims=True)
    assert v.shape == (1, 4) and i.shape == (1, 4)
    np.testing.assert_array_equal(i.asnumpy(), Z.argmin(0, keepdims=True))
    v, i = ops.max(T(Z))
    assert float(v) == pytest.approx(Z.max()) and int(i) == Z.argmax()
    v, _ = ops.max(T(Z), 1, initial=10.0)
    close(v, np.full(3, 10.0))
    with pytest.raises(TypeError, match="For 'max', the 'axis' must be an int"):
        ops.max(T(Z), (0, 1))
    with pytest.raises(ValueError, match="For 'min', the 'axis' must be in range"):
        ops.min(T(Z), 2)


def test_argmax_argmin_median_cummax():
    np.testing.assert_array_equal(ops.argmax(T(Z)).asnumpy(), Z.argmax())
    np.testing.assert_array_equal(ops.argmax(T(Z), 1, keepdim=True).asnumpy(), Z.argmax(1)[:, None])
    np.testing.assert_array_equal(ops.argmin(T(Z), 0).asnumpy(), Z.argmin(0))
    assert ops.argmax(T(Z)).dtype == ms.int64
    vals, idx = ops.median(T(np.array([[3.0, 1.0, 2.0, 5.0]], np.float32)), 1)
    close(vals, [2.0])
    np.testing.assert_array_equal(idx.asnumpy(), [2])
    a = np.array([1.0, 3.0, 2.0, 5.0, 4.0], np.float32)
    v, i = ops.cummax(T(a), 0)
    close(v, np.maximum.accumulate(a))
    np.testing.assert_array_equal(i.asnumpy(), [0, 1, 1, 3, 3])
    v, i = ops.cummin(T(a), 0)
    close(v, np.minimum.accumulate(a))
    np.testing.assert_array_equal(i.asnumpy(), [0, 0, 0, 0, 0])


def test_cumulative_and_diff():
    close(ops.cumsum(T(Z), 1), np.cumsum(Z, 1))
    close(ops.cumprod(T(X), 0), np.cumprod(X, 0))
    assert ops.cumsum(T(Z), 0, dtype=ms.float64).dtype == ms.float64
    close(ops.logcumsumexp(T(Z), 1), np.log(np.cumsum(np.exp(Z.astype(np.float64)), 1)), rtol=1e-5)
    close(ops.diff(T(Z), 1, 1), np.diff(Z, 1, 1))


def test_norms():
    close(ops.norm(T(Z)), np.linalg.norm(Z))
    close(ops.norm(T(Z), dim=1), np.linalg.norm(Z, axis=1))
    close(ops.norm(T(Z), 1, dim=0), np.linalg.norm(Z, 1, axis=0))
    a = RNG.normal(size=(3, 2)).astype(np.float32)
    b = RNG.normal(size=(4, 2)).astype(np.float32)
    ref = np.sqrt(((a[:, None] - b[None]) ** 2).sum(-1))
    close(ops.cdist(T(a), T(b)), ref, rtol=1e-5)
    close(ops.dist(T(a), T(a + 1)), np.sqrt(6.0))


# -------------------------------------------------------------------- clipping
def test_clip_by_global_norm_formula():
    a, b = np.array([3.0, 0.0], np.float32), np.array([[4.0]], np.float32)  # global norm 5
    out = ops.clip_by_global_norm((T(a), T(b)), 1.0)
    assert isinstance(out, tuple) and len(out) == 2
    close(out[0], a / 5)
    close(out[1], b / 5)
    same = ops.clip_by_global_norm([T(a), T(b)], 10.0)  # norm below clip_norm: unchanged
    close(same[0], a)
    with pytest.raises(ValueError, match="'use_norm' only supports None"):  # as MindSpore 2.10
        ops.clip_by_global_norm((T(a),), 1.0, use_norm=T(6.0))
    single = ops.clip_by_global_norm(T(a), 1.0)  # MindSpore accepts one Tensor
    close(single, ops.clip_by_global_norm((T(a),), 1.0)[0])
    with pytest.raises(TypeError, match="For 'clip_by_global_norm'"):
        ops.clip_by_global_norm(3.0)
    f16 = ops.clip_by_global_norm((T(a, ms.float16),), 1.0)[0]
    assert f16.dtype == ms.float16


def test_clip_by_norm():
    a = np.array([3.0, 4.0], np.float32)
    close(ops.clip_by_norm(T(a), 1.0), a / (5 + 1e-6), rtol=1e-6)
    close(ops.clip_by_norm(T(a), 10.0), a)
    x, y = ops.clip_by_norm([T(a), T(a)], 1.0)
    close(x, a / (np.sqrt(50) + 1e-6), rtol=1e-6)
    close(ops.clip_by_norm(T(a), 2.0, norm_type=float("inf")), a * 2 / (4 + 1e-6), rtol=1e-6)
    with pytest.raises(RuntimeError, match="non-finite"):
        ops.clip_by_norm(T([np.inf, 1.0]), 1.0, error_if_nonfinite=True)


# ------------------------------------------------------------- linear algebra
def test_matmul_family():
    a = RNG.normal(size=(2, 3, 4)).astype(np.float32)
    b = RNG.normal(size=(2, 4, 5)).astype(np.float32)
    close(ops.matmul(T(a), T(b)), a @ b, rtol=1e-5)
    close(ops.bmm(T(a), T(b)), a @ b, rtol=1e-5)
    close(ops.mm(T(a[0]), T(b[0])), a[0] @ b[0], rtol=1e-5)
    close(ops.mv(T(a[0]), T(b[0, :, 0])), a[0] @ b[0, :, 0], rtol=1e-5)
    close(ops.dot(T(a[0]), T(b[0])), a[0] @ b[0], rtol=1e-5)
    close(ops.outer(T(a[0, 0]), T(b[0, 0])), np.outer(a[0, 0], b[0, 0]))
    close(ops.inner(T(a[0]), T(a[1])), np.inner(a[0], a[1]), rtol=1e-5)
    close(ops.tensor_dot(T(a), T(b), ((2,), (1,))), np.tensordot(a, b, ((2,), (1,))), rtol=1e-5)
    close(ops.einsum("bij,bjk->bik", T(a), T(b)), a @ b, rtol=1e-5)
    close(ops.kron(T(a[0, :2, :2]), T(b[0, :2, :2])), np.kron(a[0, :2, :2], b[0, :2, :2]))
    close(
        ops.addmm(T(a[0, :, :1]), T(a[0]), T(b[0]), beta=2, alpha=0.5), 2 * a[0, :, :1] + 0.5 * a[0] @ b[0], rtol=1e-5
    )
    close(ops.baddbmm(T(a @ b), T(a), T(b), 0.5, 2), 2.5 * (a @ b), rtol=1e-5)


def test_matmul_errors():
    with pytest.raises(ValueError, match="For 'MatMul', the input dimensions must be equal"):
        ops.matmul(T(np.ones((2, 3), np.float32)), T(np.ones((4, 2), np.float32)))
    with pytest.raises(TypeError, match="For 'MatMul', the dtypes"):
        ops.matmul(T(np.ones((2, 2), np.float32)), T(np.ones((2, 2), np.float16)))
    with pytest.raises(ValueError, match="For 'einsum'"):
        ops.einsum("ij,jk->ik", T(np.ones((2, 3))), T(np.ones((4, 2))))


def test_det_inverse_cross_matrix_power():
    m = RNG.normal(size=(3, 3)) + 3 * np.eye(3)
    close(ops.det(T(m)), np.linalg.det(m), rtol=1e-10)
    close(ops.inverse(T(m)), np.linalg.inv(m), rtol=1e-10)
    close(ops.matrix_power(T(m), 3), np.linalg.matrix_power(m, 3), rtol=1e-10)
    u, v = RNG.normal(size=(2, 3)), RNG.normal(size=(2, 3))
    close(ops.cross(T(u), T(v)), np.cross(u, v))
    close(ops.trapz(T(Z)), np.trapezoid(Z, axis=-1), rtol=1e-5)


def test_add_n_and_no_nan_ops():
    close(ops.addn([T(X), T(Y), T(Z)]), X + Y + Z)
    with pytest.raises(TypeError, match="For 'addn'"):
        ops.add_n(T(X))
    close(ops.div_no_nan(T([1.0, 2.0]), T([0.0, 4.0])), [0.0, 0.5])
    close(ops.mul_no_nan(T([np.inf, 2.0]), T([0.0, 4.0])), [0.0, 8.0])


# ------------------------------------------------------------------ gradients
def _fd_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


GRAD_OPS = [
    ("exp", ops.exp, 0.5),
    ("log", ops.log, 1.0),
    ("sqrt", ops.sqrt, 1.0),
    ("sin", ops.sin, 0.0),
    ("tanh", ops.tanh, 0.0),
    ("sigmoid", ops.sigmoid, 0.0),
    ("erf", ops.erf, 0.0),
    ("square", ops.square, 0.0),
    ("reciprocal", ops.reciprocal, 1.0),
    ("abs", ops.abs, 0.0),
    ("pow3", lambda x: ops.pow(x, 3.0), 0.0),
    ("mean", lambda x: ops.mean(x, 1), 0.0),
    ("std", lambda x: ops.std(x, 1), 0.0),
    ("logsumexp", lambda x: ops.logsumexp(x, 1), 0.0),
    ("cumsum", lambda x: ops.cumsum(x, 1), 0.0),
    ("cumprod", lambda x: ops.cumprod(x, 1), 1.0),
    ("norm", lambda x: ops.norm(x), 0.0),
    ("amax", lambda x: ops.amax(x, 1), 0.0),
    ("max", lambda x: ops.max(x, 1)[0], 0.0),
    ("matmul", lambda x: ops.matmul(x, ops.transpose(x, (1, 0))), 0.0),
    ("div", lambda x: ops.div(x, ops.add(ops.square(x), 1.0)), 0.0),
    ("maximum", lambda x: ops.maximum(x, ops.neg(x) * 0.5), 0.0),
    ("clamp", lambda x: ops.clamp(x, -0.3, 0.3), 0.0),
    ("xlogy", lambda x: ops.xlogy(x, ops.add(ops.square(x), 1.0)), 0.0),
    ("atan2", lambda x: ops.atan2(x, ops.add(ops.square(x), 1.0)), 0.0),
    ("einsum", lambda x: ops.einsum("ij,ij->i", x, x), 0.0),
]


@pytest.mark.parametrize("name,fn,shift", GRAD_OPS, ids=[g[0] for g in GRAD_OPS])
def test_gradient_matches_finite_differences(name, fn, shift):
    x = np.random.default_rng(1).uniform(0.1, 0.7, (2, 3)) + shift
    x = x * np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, -1.0]]) if shift == 0.0 and name not in ("cumprod",) else x

    def loss(t):
        return ops.sum(fn(t))

    g = ms.grad(loss)(T(x))
    assert g.dtype == ms.float64 and g.shape == x.shape
    ref = _fd_grad(lambda v: float(loss(T(v))), x)
    np.testing.assert_allclose(g.asnumpy(), ref, rtol=1e-5, atol=1e-6)
