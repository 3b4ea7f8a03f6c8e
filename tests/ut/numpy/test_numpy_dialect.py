"""``sporax.numpy`` (``mindspore.numpy``) against NumPy: table-driven, small shapes."""

import numpy as np
import pytest

import sporax as ms
import sporax.numpy as mnp

X = np.array([[0.5, -1.25, 2.0], [3.0, 0.25, -0.75]], np.float32)
P = np.array([[0.2, 0.4, 0.6], [0.1, 0.9, 0.3]], np.float32)
Y = np.array([[1.5, 2.0, -0.5], [0.75, 1.0, 2.5]], np.float32)
I1 = np.array([[3, 8, 12], [5, 6, 7]], np.int32)
I2 = np.array([[4, 6, 5], [2, 9, 3]], np.int32)


def _c(a):
    return mnp.asarray(a.tolist())


UNARY = [
    ("abs", X, np.abs),
    ("absolute", X, np.absolute),
    ("arccos", P, np.arccos),
    ("arccosh", Y + 2, np.arccosh),
    ("arcsin", P, np.arcsin),
    ("arcsinh", X, np.arcsinh),
    ("arctan", X, np.arctan),
    ("arctanh", P, np.arctanh),
    ("cbrt", X, np.cbrt),
    ("ceil", X, np.ceil),
    ("cos", X, np.cos),
    ("cosh", X, np.cosh),
    ("deg2rad", X, np.deg2rad),
    ("exp", X, np.exp),
    ("exp2", X, np.exp2),
    ("expm1", X, np.expm1),
    ("fabs", X, np.fabs),
    ("floor", X, np.floor),
    ("isfinite", X, np.isfinite),
    ("isinf", X, np.isinf),
    ("isnan", X, np.isnan),
    ("log", P, np.log),
    ("log10", P, np.log10),
    ("log1p", P, np.log1p),
    ("log2", P, np.log2),
    ("negative", X, np.negative),
    ("positive", X, np.positive),
    ("rad2deg", X, np.rad2deg),
    ("radians", X, np.radians),
    ("reciprocal", Y, np.reciprocal),
    ("rint", X, np.rint),
    ("sign", X, np.sign),
    ("signbit", X, np.signbit),
    ("sin", X, np.sin),
    ("sinh", X, np.sinh),
    ("sqrt", P, np.sqrt),
    ("square", X, np.square),
    ("tan", X, np.tan),
    ("tanh", X, np.tanh),
    ("trunc", X, np.trunc),
    ("fix", X, np.fix),
    ("bitwise_not", I1, np.bitwise_not),
    ("invert", I1, np.invert),
    ("logical_not", X > 0, np.logical_not),
    ("isneginf", np.array([-np.inf, 1.0, np.inf]), np.isneginf),
    ("isposinf", np.array([-np.inf, 1.0, np.inf]), np.isposinf),
]


@pytest.mark.parametrize("name,x,ref", UNARY, ids=[u[0] for u in UNARY])
def test_unary(name, x, ref):
    got = getattr(mnp, name)(_c(x))
    np.testing.assert_allclose(got.asnumpy(), ref(x), rtol=1e-5, atol=1e-6)


BINARY = [
    ("add", X, Y, np.add),
    ("subtract", X, Y, np.subtract),
    ("multiply", X, Y, np.multiply),
    ("divide", X, Y, np.divide),
    ("true_divide", X, Y, np.true_divide),
    ("arctan2", X, Y, np.arctan2),
    ("power", P, Y, np.power),
    ("float_power", P, Y, np.power),
    ("maximum", X, Y, np.maximum),
    ("minimum", X, Y, np.minimum),
    ("copysign", X, Y, np.copysign),
    ("hypot", X, Y, np.hypot),
    ("logaddexp", X, Y, np.logaddexp),
    ("logaddexp2", X, Y, np.logaddexp2),
    ("heaviside", X, Y, np.heaviside),
    ("floor_divide", X, Y, np.floor_divide),
    ("fmod", X, Y, np.fmod),
    ("mod", X, Y, np.mod),
    ("remainder", X, Y, np.remainder),
    ("equal", X, X * (X > 0), np.equal),
    ("not_equal", X, Y, np.not_equal),
    ("greater", X, Y, np.greater),
    ("greater_equal", X, Y, np.greater_equal),
    ("less", X, Y, np.less),
    ("less_equal", X, Y, np.less_equal),
    ("logical_and", X > 0, Y > 0, np.logical_and),
    ("logical_or", X > 0, Y > 0, np.logical_or),
    ("logical_xor", X > 0, Y > 0, np.logical_xor),
    ("bitwise_and", I1, I2, np.bitwise_and),
    ("bitwise_or", I1, I2, np.bitwise_or),
    ("bitwise_xor", I1, I2, np.bitwise_xor),
    ("gcd", I1, I2, np.gcd),
    ("lcm", I1, I2, np.lcm),
    ("matmul", X, Y.T, np.matmul),
    ("dot", X, Y.T, np.dot),
    ("inner", X, Y, np.inner),
    ("outer", X, Y, np.outer),
    ("kron", X, Y, np.kron),
    ("tensordot", X, Y, lambda a, b: np.tensordot(a, b, 2)),
]


@pytest.mark.parametrize("name,a,b,ref", BINARY, ids=[u[0] for u in BINARY])
def test_binary(name, a, b, ref):
    got = getattr(mnp, name)(_c(a), _c(b))
    np.testing.assert_allclose(got.asnumpy(), ref(a, b), rtol=1e-5, atol=1e-5)


def test_dtype_argument_and_divmod():
    assert mnp.add(_c(I1), _c(I2), dtype=mnp.float32).dtype == ms.float32
    q, r = mnp.divmod(_c(X), _c(Y))
    np.testing.assert_allclose(q.asnumpy(), np.floor_divide(X, Y))
    np.testing.assert_allclose(r.asnumpy(), np.mod(X, Y), atol=1e-6)
    np.testing.assert_allclose(mnp.clip(_c(X), -1.0, 1.0).asnumpy(), np.clip(X, -1, 1))


REDUCE = [
    ("sum", lambda m: m.sum(X, axis=1), np.sum(X, 1)),
    ("amax", lambda m: m.amax(X, 0), X.max(0)),
    ("amin", lambda m: m.amin(X, 0), X.min(0)),
    ("max", lambda m: m.max(X, 1, True), X.max(1, keepdims=True)),
    ("min", lambda m: m.min(X), X.min()),
    ("mean", lambda m: m.mean(X, 0), X.mean(0)),
    ("var", lambda m: m.var(X, 1, 1), X.var(1, ddof=1)),
    ("std", lambda m: m.std(X), X.std()),
    ("ptp", lambda m: m.ptp(X, 1), np.ptp(X, 1)),
    ("average", lambda m: m.average(X, 1, [1.0, 2.0, 3.0]), np.average(X, 1, [1, 2, 3])),
    ("cumsum", lambda m: m.cumsum(X, 1), X.cumsum(1)),
    ("cumprod", lambda m: m.cumprod(X), X.cumprod()),
    ("argmax", lambda m: m.argmax(X), X.argmax()),
    ("argmin", lambda m: m.argmin(X, 1), X.argmin(1)),
    ("count_nonzero", lambda m: m.count_nonzero(I1 % 2, 1), np.count_nonzero(I1 % 2, 1)),
    ("sometrue", lambda m: m.sometrue(X > 2, 1), np.any(X > 2, 1)),
    ("trace", lambda m: m.trace(X), np.trace(X)),
    ("diagonal", lambda m: m.diagonal(X, 1), np.diagonal(X, 1)),
    ("norm", lambda m: m.norm(X), np.linalg.norm(X)),
    ("cov", lambda m: m.cov(X), np.cov(X)),
    ("corrcoef", lambda m: m.corrcoef(X), np.corrcoef(X)),
    ("diff", lambda m: m.diff(X, 1, 1), np.diff(X, 1, 1)),
    ("ediff1d", lambda m: m.ediff1d(X, to_begin=[9.0]), np.ediff1d(X, to_begin=[9.0])),
    ("trapz", lambda m: m.trapz(X), np.trapezoid(X) if hasattr(np, "trapezoid") else np.trapz(X)),
    ("cross", lambda m: m.cross(X, Y), np.cross(X, Y)),
    ("multi_dot", lambda m: m.multi_dot([X, Y.T, X]), np.linalg.multi_dot([X, Y.T, X])),
]

NAN = np.array([[1.0, np.nan, 3.0], [np.nan, 5.0, 6.0]], np.float32)
REDUCE += [
    (n, (lambda n: lambda m: getattr(m, n)(NAN, 1))(n), getattr(np, n)(NAN, 1))
    for n in ("nansum", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin", "nancumsum")
]


@pytest.mark.parametrize("name,fn,ref", REDUCE, ids=[r[0] for r in REDUCE])
def test_reductions(name, fn, ref):
    class Wrap:
        def __getattr__(self, n):
            f = getattr(mnp, n)
            return lambda *a, **k: f(*[_c(v) if isinstance(v, np.ndarray) else v for v in a], **k)

    got = fn(Wrap())
    np.testing.assert_allclose(got.asnumpy(), ref, rtol=1e-5, atol=1e-5)


def test_creation():
    assert mnp.zeros((2, 3)).dtype == ms.float32 and mnp.ones(2).shape == (2,)
    assert mnp.empty((2,)).shape == (2,) and mnp.empty_like(mnp.ones(3)).shape == (3,)
    assert mnp.arange(5).dtype == ms.int32 and mnp.arange(1.0, 2.0, 0.5).dtype == ms.float32
    assert mnp.asarray([1, 2]).dtype == ms.int32 and mnp.asarray([1.0]).dtype == ms.float32
    assert mnp.asfarray([1, 2]).dtype == ms.float32 and mnp.array([1, 2], ndmin=3).shape == (1, 1, 2)
    np.testing.assert_allclose(mnp.linspace(0, 1, 5).asnumpy(), np.linspace(0, 1, 5))
    np.testing.assert_allclose(mnp.logspace(0, 2, 3).asnumpy(), np.logspace(0, 2, 3), rtol=1e-5)
    np.testing.assert_allclose(mnp.geomspace(1, 8, 4).asnumpy(), np.geomspace(1, 8, 4), rtol=1e-5)
    np.testing.assert_allclose(mnp.eye(3, 4, 1).asnumpy(), np.eye(3, 4, 1))
    np.testing.assert_allclose(mnp.identity(2).asnumpy(), np.identity(2))
    np.testing.assert_allclose(mnp.tri(3, 3, -1).asnumpy(), np.tri(3, 3, -1))
    np.testing.assert_allclose(mnp.full((2, 2), 3.5).asnumpy(), np.full((2, 2), 3.5))
    assert mnp.full_like(mnp.ones(2), 7).asnumpy().tolist() == [7.0, 7.0]
    assert mnp.zeros_like(mnp.ones(2, mnp.int32)).dtype == ms.int32 and mnp.ones_like(mnp.ones(2)).shape == (2,)
    np.testing.assert_allclose(mnp.tril(_c(X)).asnumpy(), np.tril(X))
    np.testing.assert_allclose(mnp.triu(_c(X), 1).asnumpy(), np.triu(X, 1))
    for got, ref in (
        (mnp.tril_indices(3, 0, 4), np.tril_indices(3, 0, 4)),
        (mnp.triu_indices(3), np.triu_indices(3)),
        (mnp.tril_indices_from(mnp.ones((3, 3))), np.tril_indices(3)),
        (mnp.triu_indices_from(mnp.ones((3, 3)), 1), np.triu_indices(3, 1)),
        (mnp.diag_indices(3), np.diag_indices(3)),
    ):
        assert [g.asnumpy().tolist() for g in got] == [r.tolist() for r in ref]
    np.testing.assert_array_equal(mnp.indices((2, 3)).asnumpy(), np.indices((2, 3)))
    np.testing.assert_allclose(mnp.diag(_c(X)).asnumpy(), np.diag(X))
    np.testing.assert_allclose(mnp.diag([1.0, 2.0], 1).asnumpy(), np.diag([1.0, 2.0], 1))
    np.testing.assert_allclose(mnp.diagflat([[1.0, 2.0]]).asnumpy(), np.diagflat([[1.0, 2.0]]))
    np.testing.assert_allclose(mnp.vander([1.0, 2.0, 3.0]).asnumpy(), np.vander([1.0, 2.0, 3.0]))
    a, b = mnp.meshgrid([1, 2, 3], [4, 5])
    ra, rb = np.meshgrid([1, 2, 3], [4, 5])
    assert a.asnumpy().tolist() == ra.tolist() and b.asnumpy().tolist() == rb.tolist()
    s = mnp.meshgrid([1, 2, 3], [4, 5], sparse=True)
    assert [v.shape for v in s] == [(1, 3), (2, 1)]
    np.testing.assert_array_equal(mnp.mgrid[0:2, 0:3].asnumpy(), np.mgrid[0:2, 0:3])
    assert [v.shape for v in mnp.ogrid[0:2, 0:3]] == [(2, 1), (1, 3)]
    for n in ("bartlett", "blackman", "hamming", "hanning"):
        np.testing.assert_allclose(getattr(mnp, n)(6).asnumpy(), getattr(np, n)(6), atol=1e-6)
    ms.set_seed(1)
    assert mnp.rand(2, 3).shape == (2, 3) and mnp.randn((2,)).dtype == ms.float32
    r = mnp.randint(2, 5, (100,)).asnumpy()
    assert r.min() >= 2 and r.max() < 5
    for t in (
        mnp.bool_,
        mnp.int8,
        mnp.int16,
        mnp.int32,
        mnp.int64,
        mnp.uint8,
        mnp.uint16,
        mnp.uint32,
        mnp.uint64,
        mnp.float16,
        mnp.float32,
        mnp.float64,
    ):
        assert mnp.ones(1, t).dtype == t
    assert mnp.float_ == ms.float32 and mnp.int_ == ms.int32


def test_shape_ops():
    x = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    t = _c(x)
    checks = [
        (mnp.reshape(t, (4, 6)), x.reshape(4, 6)),
        (mnp.ravel(t), x.ravel()),
        (mnp.transpose(t), x.T),
        (mnp.swapaxes(t, 0, 2), x.swapaxes(0, 2)),
        (mnp.moveaxis(t, 0, -1), np.moveaxis(x, 0, -1)),
        (mnp.rollaxis(t, 2), np.rollaxis(x, 2)),
        (mnp.expand_dims(t, (0, 2)), np.expand_dims(x, (0, 2))),
        (mnp.squeeze(mnp.ones((1, 2, 1))), np.ones(2)),
        (mnp.broadcast_to(_c(X[0]), (2, 3)), np.broadcast_to(X[0], (2, 3))),
        (mnp.concatenate((t, t), 1), np.concatenate((x, x), 1)),
        (mnp.concatenate((t, t), None), np.concatenate((x, x), None)),
        (mnp.append(t, t, 2), np.append(x, x, 2)),
        (mnp.stack((t, t), 1), np.stack((x, x), 1)),
        (mnp.hstack((t, t)), np.hstack((x, x))),
        (mnp.vstack((t, t)), np.vstack((x, x))),
        (mnp.dstack((_c(X), _c(X))), np.dstack((X, X))),
        (mnp.column_stack(([1.0, 2.0], [3.0, 4.0])), np.column_stack(([1.0, 2.0], [3.0, 4.0]))),
        (mnp.flip(t, 1), np.flip(x, 1)),
        (mnp.fliplr(t), np.fliplr(x)),
        (mnp.flipud(t), np.flipud(x)),
        (mnp.roll(t, 2), np.roll(x, 2)),
        (mnp.roll(t, 1, 1), np.roll(x, 1, 1)),
        (mnp.rot90(t), np.rot90(x)),
        (mnp.tile(_c(X), (2, 1)), np.tile(X, (2, 1))),
        (mnp.repeat(_c(X), 2, 1), np.repeat(X, 2, 1)),
        (mnp.take(t, [0, 30, -1]), np.take(x, [0, 30, -1], mode="clip")),
        (mnp.take_along_axis(_c(X), _c(np.argsort(X, 1).astype(np.int32)), 1), np.sort(X, 1)),
        (
            mnp.choose([0, 2, 1], [[1, 2, 3], [4, 5, 6], [7, 8, 9]]),
            np.choose([0, 2, 1], [[1, 2, 3], [4, 5, 6], [7, 8, 9]]),
        ),
        (mnp.where(_c(X > 0), _c(X), _c(Y)), np.where(X > 0, X, Y)),
        (mnp.argwhere(_c(X > 0)), np.argwhere(X > 0)),
        (mnp.select([_c(X > 1), _c(X < 0)], [_c(X), _c(Y)], 0.0), np.select([X > 1, X < 0], [X, Y], 0.0)),
        (mnp.pad(_c(X), 1), np.pad(X, 1)),
        (mnp.pad(_c(X), ((0, 1), (2, 0)), "edge"), np.pad(X, ((0, 1), (2, 0)), "edge")),
        (mnp.pad(_c(X), 1, "reflect"), np.pad(X, 1, "reflect")),
        (mnp.pad(_c(X), 1, "wrap"), np.pad(X, 1, "wrap")),
        (mnp.ravel_multi_index(([1, 0], [2, 3]), (2, 4)), np.ravel_multi_index(([1, 0], [2, 3]), (2, 4))),
        (mnp.broadcast_arrays(_c(X[0]), _c(X[:, :1]))[1], np.broadcast_arrays(X[0], X[:, :1])[1]),
        (mnp.atleast_1d(1.0), np.atleast_1d(1.0)),
        (mnp.atleast_2d([1.0]), np.atleast_2d([1.0])),
        (mnp.atleast_3d([1.0, 2.0]), np.atleast_3d([1.0, 2.0])),
    ]
    for got, ref in checks:
        np.testing.assert_allclose(got.asnumpy(), ref, rtol=1e-6)
    for got, ref in (
        (mnp.where(_c(X > 0)), np.where(X > 0)),
        (mnp.unravel_index([5, 7], (3, 4)), np.unravel_index([5, 7], (3, 4))),
        (mnp.ix_([0, 1], [2]), np.ix_([0, 1], [2])),
        (mnp.split(t, 2, 2), np.split(x, 2, 2)),
        (mnp.array_split(t, 3, 2), np.array_split(x, 3, 2)),
        (mnp.hsplit(t, 3), np.hsplit(x, 3)),
        (mnp.vsplit(t, 2), np.vsplit(x, 2)),
        (mnp.dsplit(t, [1, 3]), np.dsplit(x, [1, 3])),
    ):
        assert len(got) == len(ref)
        for g, r in zip(got, ref):
            np.testing.assert_allclose(g.asnumpy(), r)
    assert mnp.size(t) == 24 and mnp.size(t, 1) == 3 and mnp.isscalar(1.0) and not mnp.isscalar(t)
    assert mnp.array_str(mnp.ones(2)) == np.array_str(np.ones(2, np.float32))
    with pytest.raises(ValueError):
        mnp.split(t, 3, 2)
    with pytest.raises(TypeError, match="input data must be"):
        mnp.asarray(object())


def test_logic_sets_and_search():
    assert mnp.array_equal([1, 2], [1, 2]) and not mnp.array_equal([1, 2], [1, 3])
    assert mnp.array_equiv([1, 2], [[1, 2], [1, 2]]) and not mnp.array_equiv([1, 2], [1, 2, 3])
    np.testing.assert_array_equal(mnp.isclose([1.0, 2.0], [1.0, 2.1]).asnumpy(), [True, False])
    np.testing.assert_array_equal(mnp.isin([1, 5], [5, 6]).asnumpy(), [False, True])
    np.testing.assert_array_equal(mnp.in1d([[1, 5]], [5], invert=True).asnumpy(), [True, False])
    np.testing.assert_array_equal(mnp.unique([3, 1, 3]).asnumpy(), [1, 3])
    np.testing.assert_array_equal(mnp.unique([3, 1, 3], True)[1].asnumpy(), [1, 0, 1])
    np.testing.assert_array_equal(mnp.intersect1d([1, 2, 3], [2, 3, 4]).asnumpy(), [2, 3])
    np.testing.assert_array_equal(mnp.setdiff1d([1, 2, 3], [2]).asnumpy(), [1, 3])
    np.testing.assert_array_equal(mnp.searchsorted([1, 2, 3], [2, 5], "right").asnumpy(), [2, 3])
    np.testing.assert_array_equal(
        mnp.digitize([0.2, 6.4, 3.0], [0.0, 1.0, 2.5, 4.0]).asnumpy(),
        np.digitize([0.2, 6.4, 3.0], [0.0, 1.0, 2.5, 4.0]),
    )
    np.testing.assert_array_equal(mnp.bincount([0, 1, 1, 3]).asnumpy(), np.bincount([0, 1, 1, 3]))
    with pytest.raises(ValueError, match="'side'"):
        mnp.searchsorted([1, 2], 1, "middle")


def test_numpy_only_functions():
    p, xs = [1.0, 2.0, 3.0], [0.0, 1.0, 2.0]
    np.testing.assert_allclose(mnp.polyval(p, xs).asnumpy(), np.polyval(p, xs))
    np.testing.assert_allclose(mnp.polyadd(p, [1.0]).asnumpy(), np.polyadd(p, [1.0]))
    np.testing.assert_allclose(mnp.polysub(p, [1.0, 1.0]).asnumpy(), np.polysub(p, [1.0, 1.0]))
    np.testing.assert_allclose(mnp.polymul(p, [1.0, 1.0]).asnumpy(), np.polymul(p, [1.0, 1.0]))
    np.testing.assert_allclose(mnp.polyder(p).asnumpy(), np.polyder(p))
    np.testing.assert_allclose(mnp.polyint(p, 2, [1, 2]).asnumpy(), np.polyint(p, 2, [1, 2]), rtol=1e-6)
    for mode in ("full", "same", "valid"):
        np.testing.assert_allclose(
            mnp.convolve(p, [0.0, 1.0, 0.5], mode).asnumpy(), np.convolve(p, [0.0, 1.0, 0.5], mode)
        )
        np.testing.assert_allclose(mnp.correlate(p, [1.0, 0.5], mode).asnumpy(), np.correlate(p, [1.0, 0.5], mode))
    np.testing.assert_allclose(
        mnp.interp([0.0, 1.5, 5.0], [1.0, 2.0, 3.0], [3.0, 2.0, 0.0]).asnumpy(),
        np.interp([0.0, 1.5, 5.0], [1.0, 2.0, 3.0], [3.0, 2.0, 0.0]),
    )
    data = [1.0, 2.0, 2.0, 3.0, 5.0]
    h, e = mnp.histogram(data, 4)
    rh, re = np.histogram(data, 4)
    np.testing.assert_array_equal(h.asnumpy(), rh)
    np.testing.assert_allclose(e.asnumpy(), re)
    np.testing.assert_allclose(
        mnp.histogram(data, 4, density=True)[0].asnumpy(), np.histogram(data, 4, density=True)[0], rtol=1e-6
    )
    np.testing.assert_allclose(mnp.histogram_bin_edges(data, 3).asnumpy(), np.histogram_bin_edges(data, 3), rtol=1e-6)
    xs2, ys2 = [0.1, 0.5, 0.9, 0.3], [0.2, 0.2, 0.8, 0.9]
    np.testing.assert_allclose(mnp.histogram2d(xs2, ys2, 2)[0].asnumpy(), np.histogram2d(xs2, ys2, 2)[0])
    np.testing.assert_allclose(
        mnp.histogramdd(_c(np.stack([xs2, ys2], 1).astype(np.float32)), 2)[0].asnumpy(),
        np.histogramdd(np.stack([xs2, ys2], 1), 2)[0],
    )
    np.testing.assert_allclose(
        mnp.gradient([1.0, 2.0, 4.0, 7.0, 11.0]).asnumpy(), np.gradient([1.0, 2.0, 4.0, 7.0, 11.0])
    )
    np.testing.assert_allclose(mnp.unwrap([0.0, 3.0, 6.5, 1.0]).asnumpy(), np.unwrap([0.0, 3.0, 6.5, 1.0]), atol=1e-5)
    xx = np.array([-2.0, -1.0, 1.0, 2.0], np.float32)
    got = mnp.piecewise(_c(xx), [_c(xx < 0), _c(xx >= 0)], [lambda v: -v, lambda v: v * 2])
    np.testing.assert_allclose(got.asnumpy(), np.piecewise(xx, [xx < 0, xx >= 0], [lambda v: -v, lambda v: v * 2]))
    np.testing.assert_allclose(mnp.apply_along_axis(lambda v: mnp.sum(v), 1, _c(X)).asnumpy(), X.sum(1), rtol=1e-6)
    np.testing.assert_allclose(
        mnp.apply_over_axes(mnp.sum, _c(X), [0, 1]).asnumpy(), np.apply_over_axes(np.sum, X, [0, 1]), rtol=1e-6
    )
    assert mnp.promote_types(mnp.int32, mnp.float32) == ms.float32
    assert mnp.promote_types(mnp.int32, mnp.int64) == ms.int64
    assert mnp.result_type(mnp.ones(2, mnp.int32), 1.0) == ms.float32


def test_grad_and_jit_through_numpy():
    def f(x):
        return mnp.sum(mnp.tanh(x) * mnp.exp(x)) + mnp.mean(mnp.polyval(mnp.asarray([1.0, 2.0]), x))

    x = ms.Tensor(X)
    g = ms.grad(f)(x).asnumpy()
    eps, num = 1e-3, np.zeros_like(X)
    for idx in np.ndindex(X.shape):
        d = np.zeros_like(X)
        d[idx] = eps
        num[idx] = (float(f(ms.Tensor(X + d))) - float(f(ms.Tensor(X - d)))) / (2 * eps)
    np.testing.assert_allclose(g, num, rtol=2e-2, atol=2e-2)
    np.testing.assert_allclose(float(ms.jit(f)(x)), float(f(x)), rtol=1e-6)


def test_reduction_options():
    a = np.array([[1.0, 5.0], [3.0, 2.0]], np.float32)
    np.testing.assert_allclose(mnp.amax(_c(a), 1, initial=4.0).asnumpy(), np.amax(a, 1, initial=4.0))
    np.testing.assert_allclose(
        mnp.amin(_c(a), 0, True, initial=2.5).asnumpy(), np.amin(a, 0, keepdims=True, initial=2.5)
    )
    w = np.array([[True, False], [True, True]])
    np.testing.assert_allclose(mnp.amax(_c(a), where=_c(w), initial=0.0).asnumpy(), np.amax(a, where=w, initial=0.0))
    assert int(mnp.sum([1, 2], initial=5)) == 8
    assert mnp.mean([1.0, 2.0], dtype=mnp.float16).dtype == ms.float16
    assert mnp.cumsum(_c(I1), dtype=mnp.float32).dtype == ms.float32
    s = mnp.linspace([0.0, 1.0], [1.0, 3.0], 3, axis=1)
    np.testing.assert_allclose(s.asnumpy(), np.linspace([0.0, 1.0], [1.0, 3.0], 3, axis=1), rtol=1e-6)
    v, step = mnp.linspace(0, 1, 4, endpoint=False, retstep=True)
    np.testing.assert_allclose(v.asnumpy(), np.linspace(0, 1, 4, endpoint=False))
    assert abs(float(step) - 0.25) < 1e-7
