"""Neural-network functional ops and primitives against NumPy references."""

import math

import numpy as np
import pytest

import sporax as ms
from sporax import ops

rng = np.random.default_rng(0)


def T(a):
    return ms.Tensor(np.asarray(a))


def close(a, b, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(a.asnumpy() if hasattr(a, "asnumpy") else a, b, rtol=rtol, atol=atol)


# ------------------------------------------------------------------ NumPy references
def np_conv2d(x, w, stride=(1, 1), pads=((0, 0), (0, 0)), dil=(1, 1), groups=1):
    xp = np.pad(x, ((0, 0), (0, 0), *pads))
    n, _, h, wd = xp.shape
    o, cg, kh, kw = w.shape
    oh = (h - dil[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dil[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for g in range(groups):
        xs, ws = xp[:, g * cg : (g + 1) * cg], w[g * og : (g + 1) * og]
        for i in range(kh):
            for j in range(kw):
                patch = xs[
                    :,
                    :,
                    i * dil[0] : i * dil[0] + (oh - 1) * stride[0] + 1 : stride[0],
                    j * dil[1] : j * dil[1] + (ow - 1) * stride[1] + 1 : stride[1],
                ]
                out[:, g * og : (g + 1) * og] += np.einsum("nchw,oc->nohw", patch, ws[:, :, i, j])
    return out


def np_pool(x, k, s, pads, kind, dil=(1, 1), ceil=False, include_pad=True, same_exclude=False):
    """Loop reference: explicit (lo, hi) pads; avg counts padding per include_pad."""
    n, c, h, w = x.shape

    def osize(size, kk, ss, dd, lo, hi):
        span = size + lo + hi - dd * (kk - 1) - 1
        o = (-(-span // ss) if ceil else span // ss) + 1
        if ceil and (o - 1) * ss >= size + lo:
            o -= 1
        return o

    oh = osize(h, k[0], s[0], dil[0], *pads[0])
    ow = osize(w, k[1], s[1], dil[1], *pads[1])
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            vals, cnt = [], 0
            for a in range(k[0]):
                for b in range(k[1]):
                    r = i * s[0] - pads[0][0] + a * dil[0]
                    q = j * s[1] - pads[1][0] + b * dil[1]
                    inside = 0 <= r < h and 0 <= q < w
                    in_pad = -pads[0][0] <= r < h + pads[0][1] and -pads[1][0] <= q < w + pads[1][1]
                    if inside:
                        vals.append(x[:, :, r, q])
                    if inside or (include_pad and in_pad and not same_exclude):
                        cnt += 1
            v = np.stack(vals)
            out[:, :, i, j] = v.max(0) if kind == "max" else v.sum(0) / cnt
    return out


# ------------------------------------------------------------------ activations
X = rng.standard_normal((3, 4)).astype(np.float32) * 3


def np_sigmoid(x):
    return 1 / (1 + np.exp(-x))


def np_erf(x):
    return np.vectorize(math.erf)(x)


@pytest.mark.parametrize(
    "fn, ref",
    [
        (ops.relu, lambda x: np.maximum(x, 0)),
        (ops.relu6, lambda x: np.clip(x, 0, 6)),
        (ops.silu, lambda x: x * np_sigmoid(x)),
        (lambda x: ops.gelu(x), lambda x: 0.5 * x * (1 + np_erf(x / np.sqrt(2)))),
        (
            lambda x: ops.gelu(x, approximate="tanh"),
            lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3))),
        ),
        (ops.fast_gelu, lambda x: x / (1 + np.exp(-1.702 * np.abs(x))) * np.exp(0.851 * (x - np.abs(x)))),
        (ops.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x)),
        (lambda x: ops.leaky_relu(x, 0.01), lambda x: np.where(x > 0, x, 0.01 * x)),
        (ops.elu, lambda x: np.where(x > 0, x, np.exp(x) - 1)),
        (lambda x: ops.elu(x, 0.5), lambda x: np.where(x > 0, x, 0.5 * (np.exp(x) - 1))),
        (ops.softplus, lambda x: np.log1p(np.exp(x))),
        (lambda x: ops.softplus(x, 2, 5), lambda x: np.where(2 * x > 5, x, np.log1p(np.exp(2 * x)) / 2)),
        (ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6),
        (ops.hardsigmoid, lambda x: np.clip(x + 3, 0, 6) / 6),
        (ops.mish, lambda x: x * np.tanh(np.log1p(np.exp(x)))),
        (ops.softsign, lambda x: x / (1 + np.abs(x))),
        (ops.logsigmoid, lambda x: np.log(np_sigmoid(x))),
        (ops.hardtanh, lambda x: np.clip(x, -1, 1)),
        (ops.sigmoid, np_sigmoid),
        (ops.tanh, np.tanh),
    ],
)
def test_activations(fn, ref):
    out = fn(T(X))
    assert out.dtype == ms.float32 and out.shape == X.shape
    close(out, ref(X.astype(np.float64)), rtol=1e-5, atol=1e-6)


def test_softmax_log_softmax():
    e = np.exp(X - X.max(0, keepdims=True))
    close(ops.softmax(T(X), 0), e / e.sum(0))
    e = np.exp(X - X.max(-1, keepdims=True))
    close(ops.softmax(T(X)), e / e.sum(-1, keepdims=True))
    close(ops.log_softmax(T(X)), np.log(e / e.sum(-1, keepdims=True)))
    assert ops.softmax(T(X), dtype=ms.float64).dtype == ms.float64
    with pytest.raises(ValueError, match="For 'softmax', the 'axis' must be in range"):
        ops.softmax(T(X), 2)


def test_gelu_bad_approximate_and_int_input():
    with pytest.raises(ValueError, match="approximate"):
        ops.gelu(T(X), approximate="fast")
    with pytest.raises(TypeError, match="For 'gelu'"):
        ops.gelu(T(np.ones(3, np.int32)))


def test_prelu():
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    w = np.array([0.1, 0.2, 0.3], np.float32)
    close(ops.prelu(T(x), T(w)), np.where(x > 0, x, x * w[None, :, None]))
    with pytest.raises(ValueError, match="prelu"):
        ops.prelu(T(x), T(np.ones(2, np.float32)))


def test_activation_primitives():
    x = T(X)
    close(ops.ReLU()(x), np.maximum(X, 0))
    close(ops.ReLU6()(x), np.clip(X, 0, 6))
    close(ops.Sigmoid()(x), np_sigmoid(X))
    close(ops.Tanh()(x), np.tanh(X))
    # MindSpore 2.10's GeLU kernel is the tanh form (real values: tests/ut/nn/fixtures, case P_GeLU)
    close(ops.GeLU()(x), 0.5 * X * (1 + np.tanh(np.sqrt(2 / np.pi) * (X + 0.044715 * X**3))))
    close(ops.FastGeLU()(x), ops.fast_gelu(x).asnumpy())
    close(ops.SiLU()(x), X * np_sigmoid(X))
    close(ops.LeakyReLU(0.1)(x), np.where(X > 0, X, 0.1 * X))
    close(ops.Elu()(x), np.where(X > 0, X, np.exp(X) - 1))
    close(ops.HSwish()(x), X * np.clip(X + 3, 0, 6) / 6)
    close(ops.HSigmoid()(x), np.clip(X + 3, 0, 6) / 6)
    close(ops.Softplus()(x), np.log1p(np.exp(X)))
    close(ops.Mish()(x), ops.mish(x).asnumpy())
    close(ops.Softmax(0)(x), ops.softmax(x, 0).asnumpy())
    close(ops.LogSoftmax()(x), ops.log_softmax(x).asnumpy())
    assert repr(ops.Softmax(axis=1)) == "Prim[Softmax]<axis=1>"


# ----------------------------------------------------------------------- dropout
def test_dropout_functional():
    x = T(np.ones((100, 100), np.float32))
    ms.set_seed(1)
    y = ops.dropout(x, p=0.3).asnumpy()
    kept = y != 0
    assert abs(kept.mean() - 0.7) < 0.03
    np.testing.assert_allclose(y[kept], 1 / 0.7, rtol=1e-6)
    assert ops.dropout(x, p=0.3, training=False) is x
    assert (ops.dropout(x, p=1.0).asnumpy() == 0).all()
    ms.set_seed(1)
    np.testing.assert_array_equal(ops.dropout(x, p=0.3).asnumpy(), y)
    with pytest.raises(ValueError, match="For 'dropout', the 'p' must be in range"):
        ops.dropout(x, p=1.5)


def test_dropout_primitive():
    out, mask = ops.Dropout(keep_prob=0.8)(T(np.ones((50, 50), np.float32)))
    m = mask.asnumpy()
    np.testing.assert_allclose(out.asnumpy(), m / 0.8, rtol=1e-6)
    assert set(np.unique(m)) <= {0.0, 1.0}
    with pytest.raises(ValueError, match="keep_prob"):
        ops.Dropout(keep_prob=0.0)


# ------------------------------------------------------------------ convolution
@pytest.mark.parametrize(
    "kw",
    [
        dict(),
        dict(stride=2),
        dict(stride=(1, 2), dilation=(2, 1)),
        dict(pad_mode="pad", padding=1),
        dict(pad_mode="pad", padding=(1, 2)),
        dict(pad_mode="pad", padding=(0, 1, 2, 3), stride=2),
        dict(pad_mode="same"),
        dict(pad_mode="same", stride=2),
        dict(pad_mode="same", stride=3, dilation=2),
        dict(groups=2),
    ],
)
def test_conv2d_matches_numpy(kw):
    x = rng.standard_normal((2, 4, 9, 8))
    groups = kw.get("groups", 1)
    w = rng.standard_normal((6, 4 // groups, 3, 2))
    b = rng.standard_normal(6)
    out = ops.conv2d(T(x), T(w), T(b), **kw).asnumpy()
    s = kw.get("stride", 1)
    s = (s, s) if isinstance(s, int) else s
    d = kw.get("dilation", 1)
    d = (d, d) if isinstance(d, int) else d
    mode = kw.get("pad_mode", "valid")
    if mode == "pad":
        p = kw["padding"]
        p = (p,) * 4 if isinstance(p, int) else (p[0], p[0], p[1], p[1]) if len(p) == 2 else p
        pads = ((p[0], p[1]), (p[2], p[3]))
    elif mode == "same":
        pads = []
        for size, k, st, dl in zip(x.shape[2:], w.shape[2:], s, d):
            o = -(-size // st)
            tot = max((o - 1) * st + dl * (k - 1) + 1 - size, 0)
            pads.append((tot // 2, tot - tot // 2))
        assert out.shape[2:] == tuple(-(-n // st) for n, st in zip(x.shape[2:], s))
    else:
        pads = ((0, 0), (0, 0))
    ref = np_conv2d(x, w, s, pads, d, groups) + b[None, :, None, None]
    np.testing.assert_allclose(out, ref, rtol=1e-10, atol=1e-10)


def test_conv2d_primitive_and_conv1d():
    x = rng.standard_normal((2, 3, 7, 7)).astype(np.float32)
    w = rng.standard_normal((5, 3, 3, 3)).astype(np.float32)
    out = ops.Conv2D(5, 3, pad_mode="pad", pad=(1, 1, 1, 1))(T(x), T(w))
    close(out, np_conv2d(x.astype(np.float64), w, pads=((1, 1), (1, 1))), rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="For 'Conv2D', the 'weight' shape"):
        ops.Conv2D(4, 3)(T(x), T(w))
    x1 = rng.standard_normal((2, 3, 10))
    w1 = rng.standard_normal((4, 3, 3))
    ref = np_conv2d(x1[:, :, None], w1[:, :, None], (1, 2), ((0, 0), (1, 2)))[:, :, 0]
    close(ops.conv1d(T(x1), T(w1), stride=2, pad_mode="pad", padding=(1, 2)), ref, rtol=1e-10)


def test_conv2d_errors():
    x = T(np.ones((1, 3, 5, 5), np.float32))
    with pytest.raises(ValueError, match=r"channel number of 'input' \(3\)"):
        ops.conv2d(x, T(np.ones((2, 4, 3, 3), np.float32)))
    with pytest.raises(TypeError, match="Float32.*Float64"):
        ops.conv2d(x, T(np.ones((2, 3, 3, 3))))
    with pytest.raises(ValueError, match="too small"):
        ops.conv2d(x, T(np.ones((2, 3, 7, 7), np.float32)))
    with pytest.raises(ValueError, match="'padding' must be 0 when 'pad_mode' is 'same'"):
        ops.conv2d(x, T(np.ones((2, 3, 3, 3), np.float32)), pad_mode="same", padding=1)
    with pytest.raises(ValueError, match="pad_mode"):
        ops.conv2d(x, T(np.ones((2, 3, 3, 3), np.float32)), pad_mode="full")


# ---------------------------------------------------------------------- pooling
@pytest.mark.parametrize(
    "k, s, p, ceil, d",
    [
        (2, 2, 0, False, 1),
        (3, 2, 1, False, 1),
        (3, 2, 1, True, 1),
        (2, 1, 0, False, 1),
        (3, 1, 1, False, 2),
        (2, 3, 0, True, 1),
    ],
)
def test_max_pool2d_matches_numpy(k, s, p, ceil, d):
    x = rng.standard_normal((2, 3, 9, 8))
    out = ops.max_pool2d(T(x), k, s, p, d, ceil_mode=ceil)
    ref = np_pool(x, (k, k), (s, s), ((p, p), (p, p)), "max", (d, d), ceil)
    np.testing.assert_allclose(out.asnumpy(), ref)


def test_max_pool2d_return_indices_and_3d():
    x = rng.standard_normal((2, 3, 6, 7))
    out, idx = ops.max_pool2d(T(x), 3, 2, 1, return_indices=True)
    flat = x.reshape(2, 3, -1)
    np.testing.assert_allclose(
        np.take_along_axis(flat, idx.asnumpy().reshape(2, 3, -1), -1).reshape(out.shape), out.asnumpy()
    )
    close(ops.max_pool2d(T(x[0]), 2), np_pool(x[:1], (2, 2), (2, 2), ((0, 0), (0, 0)), "max")[0])


@pytest.mark.parametrize(
    "k, s, p, ceil, include, div",
    [
        (2, 2, 0, False, True, None),
        (3, 2, 1, False, True, None),
        (3, 2, 1, False, False, None),
        (3, 2, 1, True, True, None),
        (2, 2, 1, True, False, None),
        (3, 1, 1, False, True, 4),
    ],
)
def test_avg_pool2d_matches_numpy(k, s, p, ceil, include, div):
    x = rng.standard_normal((2, 3, 7, 8))
    out = ops.avg_pool2d(T(x), k, s, p, ceil, include, div)
    if div:
        ref = np_pool(x, (k, k), (s, s), ((p, p), (p, p)), "avg", ceil=ceil, include_pad=True) * (k * k) / div
    else:
        ref = np_pool(x, (k, k), (s, s), ((p, p), (p, p)), "avg", ceil=ceil, include_pad=include)
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-12)


def test_pool_primitives_same_mode():
    x = rng.standard_normal((1, 2, 5, 5))
    pads = ((0, 1), (0, 1))  # same, k=2, s=2 on 5 -> out 3, total pad 1 at the end
    close(ops.MaxPool(2, 2, "same")(T(x)), np_pool(x, (2, 2), (2, 2), pads, "max"))
    close(ops.AvgPool(2, 2, "SAME")(T(x)), np_pool(x, (2, 2), (2, 2), pads, "avg", include_pad=False))
    close(ops.AvgPool(3, 1, "valid")(T(x)), np_pool(x, (3, 3), (1, 1), ((0, 0), (0, 0)), "avg"))
    with pytest.raises(ValueError, match="pad_mode"):
        ops.MaxPool(2, 2, "pad")


def test_pool_errors():
    x = T(np.ones((1, 1, 2, 2), np.float32))
    with pytest.raises(ValueError, match="For 'max_pool2d', the input shape \\(1, 1, 2, 2\\) is too small"):
        ops.max_pool2d(x, 3, 1)
    with pytest.raises(ValueError, match="dimension of 'input' must be 3 or 4"):
        ops.max_pool2d(T(np.ones((2, 2), np.float32)), 1)
    with pytest.raises(ValueError, match="at most half"):
        ops.max_pool2d(x, 2, 1, 2)


def test_adaptive_pools():
    x = rng.standard_normal((2, 3, 7, 5))
    out = ops.adaptive_avg_pool2d(T(x), (3, 2)).asnumpy()
    out_max = ops.adaptive_max_pool2d(T(x), (3, 2)).asnumpy()
    for i in range(3):
        h0, h1 = i * 7 // 3, -(-(i + 1) * 7 // 3)
        for j in range(2):
            w0, w1 = j * 5 // 2, -(-(j + 1) * 5 // 2)
            np.testing.assert_allclose(out[:, :, i, j], x[:, :, h0:h1, w0:w1].mean((2, 3)))
            np.testing.assert_allclose(out_max[:, :, i, j], x[:, :, h0:h1, w0:w1].max((2, 3)))
    assert ops.adaptive_avg_pool2d(T(x), (None, 1)).shape == (2, 3, 7, 1)
    close(ops.adaptive_avg_pool2d(T(x), 1), x.mean((2, 3), keepdims=True))
    close(ops.AdaptiveAvgPool2D(1)(T(x)), x.mean((2, 3), keepdims=True))


# ------------------------------------------------------------------ normalisation
def test_batch_norm_functional_updates_running_stats():
    x = rng.standard_normal((4, 3, 2, 2)).astype(np.float32)
    rm = ms.Parameter(T(np.zeros(3, np.float32)), name="rm")
    rv = ms.Parameter(T(np.ones(3, np.float32)), name="rv")
    w, b = T(np.array([1.0, 2.0, 3.0], np.float32)), T(np.array([0.0, 0.5, -1.0], np.float32))
    out = ops.batch_norm(T(x), rm, rv, w, b, training=True, momentum=0.1)
    mean, var = x.mean((0, 2, 3)), x.var((0, 2, 3))
    ref = (x - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-5) * w.asnumpy()[None, :, None, None]
    close(out, ref + b.asnumpy()[None, :, None, None], rtol=1e-4, atol=1e-5)
    close(rm, 0.1 * mean, rtol=1e-5)
    close(rv, 0.9 + 0.1 * x.var((0, 2, 3), ddof=1), rtol=1e-5)
    out = ops.batch_norm(T(x), rm, rv, w, b)  # inference: running statistics
    ref = (x - rm.asnumpy()[None, :, None, None]) / np.sqrt(rv.asnumpy()[None, :, None, None] + 1e-5)
    close(out, ref * w.asnumpy()[None, :, None, None] + b.asnumpy()[None, :, None, None], rtol=1e-4, atol=1e-5)


def test_batch_norm_primitive():
    x = rng.standard_normal((5, 2)).astype(np.float32)
    mean = ms.Parameter(T(np.zeros(2, np.float32)), name="m")
    var = ms.Parameter(T(np.ones(2, np.float32)), name="v")
    y, bm, bv, _, _ = ops.BatchNorm(is_training=True, momentum=0.2)(
        T(x), T(np.ones(2, np.float32)), T(np.zeros(2, np.float32)), mean, var
    )
    close(y, (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5), rtol=1e-4, atol=1e-5)
    close(bm, x.mean(0))
    close(mean, 0.2 * x.mean(0), rtol=1e-5)


def test_layer_norm():
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    g, b = rng.standard_normal(4).astype(np.float32), rng.standard_normal(4).astype(np.float32)
    ref = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * g + b
    close(ops.layer_norm(T(x), (4,), T(g), T(b)), ref, rtol=1e-4, atol=1e-5)
    g2 = rng.standard_normal((3, 4)).astype(np.float32)
    y, m, v = ops.LayerNorm(1, 1)(T(x), T(g2), T(np.zeros((3, 4), np.float32)))
    ref = (x - x.mean((1, 2), keepdims=True)) / np.sqrt(x.var((1, 2), keepdims=True) + 1e-7) * g2
    close(y, ref, rtol=1e-4, atol=1e-5)
    assert m.shape == (2, 1, 1) and v.shape == (2, 1, 1)
    with pytest.raises(ValueError, match="'gamma' shape must be"):
        ops.LayerNorm(1, 1)(T(x), T(g), T(b))


def test_l2_normalize_bias_add_flatten():
    x = rng.standard_normal((3, 4)).astype(np.float32)
    close(ops.L2Normalize(axis=1)(T(x)), x / np.sqrt(np.maximum((x**2).sum(1, keepdims=True), 1e-4)))
    y = rng.standard_normal((2, 3, 2, 2)).astype(np.float32)
    close(ops.BiasAdd()(T(y), T(np.arange(3, dtype=np.float32))), y + np.arange(3)[None, :, None, None])
    with pytest.raises(ValueError, match="BiasAdd"):
        ops.bias_add(T(y), T(np.ones(2, np.float32)))
    assert ops.Flatten()(T(y)).shape == (2, 12)


# --------------------------------------------------------------- pad / resize
def test_pad_modes():
    x = rng.standard_normal((1, 2, 3, 4))
    close(ops.pad(T(x), (1, 2)), np.pad(x, ((0, 0), (0, 0), (0, 0), (1, 2))))
    close(ops.pad(T(x), (1, 1, 2, 0), value=3.0), np.pad(x, ((0, 0), (0, 0), (2, 0), (1, 1)), constant_values=3.0))
    close(ops.pad(T(x), (2, 1), mode="reflect"), np.pad(x, ((0, 0), (0, 0), (0, 0), (2, 1)), mode="reflect"))
    close(ops.pad(T(x), (1, 1, 1, 1), mode="replicate"), np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), mode="edge"))
    close(ops.pad(T(x), (1, 2), mode="circular"), np.pad(x, ((0, 0), (0, 0), (0, 0), (1, 2)), mode="wrap"))
    close(ops.pad(T(x), (-1, 1)), np.pad(x, ((0, 0), (0, 0), (0, 0), (0, 1)))[..., 1:])
    close(ops.Pad(((0, 0), (1, 0), (0, 1), (2, 2)))(T(x)), np.pad(x, ((0, 0), (1, 0), (0, 1), (2, 2))))
    with pytest.raises(ValueError, match="For 'pad'"):
        ops.pad(T(x), (1, 2, 3))


def test_interpolate():
    x = rng.standard_normal((1, 2, 3, 4))
    near = ops.interpolate(T(x), size=(6, 8)).asnumpy()
    np.testing.assert_allclose(near, x.repeat(2, 2).repeat(2, 3))
    near = ops.interpolate(T(x), size=(5, 3)).asnumpy()
    ri = np.floor(np.arange(5) * 3 / 5).astype(int)
    ci = np.floor(np.arange(3) * 4 / 3).astype(int)
    np.testing.assert_allclose(near, x[:, :, ri][:, :, :, ci])
    # bilinear, align_corners=True: corners preserved; a linear ramp stays linear
    ramp = np.broadcast_to(np.arange(4.0), (1, 1, 3, 4))
    out = ops.interpolate(T(ramp), size=(3, 7), mode="bilinear", align_corners=True).asnumpy()
    np.testing.assert_allclose(out[0, 0, 0], np.linspace(0, 3, 7))
    out = ops.interpolate(T(ramp), scale_factor=2.0, mode="bilinear", align_corners=False).asnumpy()
    src = np.clip((np.arange(8) + 0.5) / 2 - 0.5, 0, 3)
    np.testing.assert_allclose(out[0, 0, 1], src)
    lin = ops.interpolate(T(np.arange(3.0).reshape(1, 1, 3)), size=5, mode="linear", align_corners=True).asnumpy()
    np.testing.assert_allclose(lin[0, 0], np.linspace(0, 2, 5))
    close(ops.ResizeNearestNeighbor((6, 8))(T(x)), x.repeat(2, 2).repeat(2, 3))
    with pytest.raises(ValueError, match="'size' and 'scale_factor' cannot be both empty"):  # MindSpore's message
        ops.interpolate(T(x))


# ----------------------------------------------------------------------- losses
def np_log_softmax(x, axis=1):
    m = x.max(axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis, keepdims=True))


def test_cross_entropy_indices_weight_ignore_smoothing():
    x = rng.standard_normal((6, 5))
    y = np.array([0, 1, 4, -100, 2, 2])
    w = rng.uniform(0.5, 2.0, 5)
    lp = np_log_softmax(x)
    valid = y != -100
    ys = np.where(valid, y, 0)
    nll = -lp[np.arange(6), ys] * w[ys] * valid
    close(ops.cross_entropy(T(x), T(y), T(w), reduction="none"), nll)
    close(ops.cross_entropy(T(x), T(y), T(w)), nll.sum() / (w[ys] * valid).sum())
    close(ops.cross_entropy(T(x), T(y), T(w), reduction="sum"), nll.sum())
    ls = 0.2
    smooth = -(lp * w).sum(1) * valid
    ref = (1 - ls) * nll + ls / 5 * smooth
    close(ops.cross_entropy(T(x), T(y), T(w), reduction="none", label_smoothing=ls), ref)
    close(ops.cross_entropy(T(x), T(y), T(w), label_smoothing=ls), ref.sum() / (w[ys] * valid).sum())
    # int32 targets, N-d inputs
    x4 = rng.standard_normal((2, 3, 4, 5))
    y4 = rng.integers(0, 3, (2, 4, 5)).astype(np.int32)
    lp4 = np_log_softmax(x4)
    ref4 = -np.take_along_axis(lp4, y4[:, None], 1)[:, 0]
    close(ops.cross_entropy(T(x4), T(y4)), ref4.mean())


def test_cross_entropy_probabilities():
    x = rng.standard_normal((4, 3)).astype(np.float32)
    p = rng.dirichlet(np.ones(3), 4).astype(np.float32)
    lp = np_log_softmax(x.astype(np.float64))
    close(ops.cross_entropy(T(x), T(p)), -(lp * p).sum(1).mean(), rtol=1e-5)
    ps = p * 0.9 + 0.1 / 3
    close(ops.cross_entropy(T(x), T(p), label_smoothing=0.1, reduction="none"), -(lp * ps).sum(1), rtol=1e-5)
    with pytest.raises(TypeError, match="dtype of 'input'"):
        ops.cross_entropy(T(x), T(p.astype(np.float64)))
    with pytest.raises(ValueError, match="'target' shape must be"):
        ops.cross_entropy(T(x), T(np.array([0, 1], np.int64)))


def test_nll_loss():
    lp = np_log_softmax(rng.standard_normal((4, 3)))
    y = np.array([0, 2, 1, 1])
    close(ops.nll_loss(T(lp), T(y)), -lp[np.arange(4), y].mean())
    with pytest.raises(TypeError, match="nll_loss"):
        ops.nll_loss(T(lp), T(lp))


def test_regression_losses():
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4)) * 2
    d = np.abs(a - b)
    close(ops.mse_loss(T(a), T(b)), ((a - b) ** 2).mean())
    close(ops.l1_loss(T(a), T(b), "sum"), d.sum())
    close(ops.smooth_l1_loss(T(a), T(b)), np.where(d < 1, 0.5 * d**2, d - 0.5))
    close(ops.smooth_l1_loss(T(a), T(b), 0.5, "mean"), np.where(d < 0.5, 0.5 * d**2 / 0.5, d - 0.25).mean())
    close(ops.huber_loss(T(a), T(b), delta=0.7), np.where(d < 0.7, 0.5 * d**2, 0.7 * (d - 0.35)).mean())
    with pytest.raises(ValueError, match="reduction"):
        ops.mse_loss(T(a), T(b), "avg")


def test_binary_losses_and_kl():
    p = rng.uniform(0.05, 0.95, (3, 4))
    y = (rng.uniform(size=(3, 4)) > 0.5).astype(np.float64)
    w = rng.uniform(0.5, 1.5, (3, 4))
    bce = -(y * np.log(p) + (1 - y) * np.log(1 - p))
    close(ops.binary_cross_entropy(T(p), T(y)), bce.mean())
    close(ops.binary_cross_entropy(T(p), T(y), T(w), "none"), bce * w)
    x = rng.standard_normal((3, 4)) * 3
    pw = np.array([1.0, 2.0, 0.5, 3.0])
    sg = 1 / (1 + np.exp(-x))
    ref = -(pw * y * np.log(sg) + (1 - y) * np.log(1 - sg)) * w
    close(ops.binary_cross_entropy_with_logits(T(x), T(y), T(w), T(pw), "none"), ref)
    close(ops.binary_cross_entropy_with_logits(T(x), T(y)), (-(y * np.log(sg) + (1 - y) * np.log(1 - sg))).mean())
    q = rng.dirichlet(np.ones(4), 3)
    q[0, 0] = 0.0
    lx = np_log_softmax(x)
    kl = np.where(q > 0, q * (np.log(np.where(q > 0, q, 1)) - lx), 0)
    close(ops.kl_div(T(lx), T(q), "sum"), kl.sum())
    close(ops.kl_div(T(lx), T(q), "batchmean"), kl.sum() / 3)
    close(ops.kl_div(T(lx), T(q)), kl.mean())


def test_softmax_cross_entropy_primitives():
    x = rng.standard_normal((4, 3)).astype(np.float32)
    y = np.eye(3, dtype=np.float32)[[0, 2, 1, 1]]
    loss, grad = ops.SoftmaxCrossEntropyWithLogits()(T(x), T(y))
    lp = np_log_softmax(x.astype(np.float64))
    close(loss, -(lp * y).sum(1))
    close(grad, np.exp(lp) - y)
    labels = np.array([0, 2, 1, 1], np.int32)
    close(ops.SparseSoftmaxCrossEntropyWithLogits()(T(x), T(labels)), -(lp * y).sum(1).mean())
    close(ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=True)(T(x), T(labels)), (np.exp(lp) - y) / 4)
