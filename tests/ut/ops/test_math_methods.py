"""Tensor methods of the math family, the row-update and sampling ops and their primitive classes, and the
grid/box helpers (logspace, rot90, row_stack, iou: values from MindSpore 2.10 where noted)."""

import numpy as np
import pytest
import scipy.special as sp

import sporax as ms
from sporax import ops

RNG = np.random.default_rng(5)
X = RNG.normal(size=(3, 3))
SPD = X @ X.T + 3 * np.eye(3)
T = ms.Tensor


def close(out, want, atol=1e-9):
    got = out.asnumpy()
    np.testing.assert_allclose(got.astype(np.complex128 if got.dtype.kind == "c" else np.float64), want, atol=atol)


METHODS = [  # (method, args, the op it equals)
    ("absolute", (), lambda t: ops.abs(t)),
    ("arccos", (), lambda t: ops.acos(t)),
    ("arccosh", (), lambda t: ops.acosh(t)),
    ("arcsin", (), lambda t: ops.asin(t)),
    ("arcsinh", (), lambda t: ops.asinh(t)),
    ("arctan", (), lambda t: ops.atan(t)),
    ("arctan2", (T(SPD),), lambda t: ops.atan2(t, T(SPD))),
    ("arctanh", (), lambda t: ops.atanh(t)),
    ("subtract", (T(SPD),), lambda t: t - T(SPD)),
    ("multiply", (T(SPD),), lambda t: t * T(SPD)),
    ("positive", (), lambda t: t),
    ("inv", (), lambda t: 1 / t),
    ("sgn", (), lambda t: ops.sign(t)),
    ("copysign", (T(X),), lambda t: ops.copysign(t, T(X))),
    ("fmax", (T(X),), lambda t: ops.fmax(t, T(X))),
    ("fmin", (T(X),), lambda t: ops.fmin(t, T(X))),
    ("heaviside", (T(X),), lambda t: ops.heaviside(t, T(X))),
    ("ldexp", (T(np.ones((3, 3))),), lambda t: t * 2),
    ("logaddexp2", (T(X),), lambda t: ops.logaddexp2(t, T(X))),
    ("nextafter", (T(X),), lambda t: ops.nextafter(t, T(X))),
    ("xdivy", (T(SPD),), lambda t: t / T(SPD)),
    ("approximate_equal", (T(X),), lambda t: ops.approximate_equal(t, T(X))),
    ("isneginf", (), lambda t: ops.isneginf(t)),
    ("isposinf", (), lambda t: ops.isposinf(t)),
    ("isreal", (), lambda t: ops.isreal(t)),
    ("conj", (), lambda t: t),
    ("real", (), lambda t: t),
    ("imag", (), lambda t: t * 0),
    ("i0", (), lambda t: T(sp.i0(t.asnumpy()))),
    ("digamma", (), lambda t: T(sp.digamma(t.asnumpy()))),
    ("igamma", (T(np.abs(X) + 0.1),), lambda t: ops.igamma(t, T(np.abs(X) + 0.1))),
    ("igammac", (T(np.abs(X) + 0.1),), lambda t: ops.igammac(t, T(np.abs(X) + 0.1))),
    ("histc", (4,), lambda t: ops.histc(t, 4)),
    ("cov", (), lambda t: T(np.cov(t.asnumpy()))),
    ("nanmean", (1,), lambda t: ops.mean(t, 1)),
    ("quantile", (0.5, 1), lambda t: T(np.median(t.asnumpy(), 1))),
    ("nanquantile", (0.5,), lambda t: T(np.median(t.asnumpy()))),
    ("renorm", (2, 0, 1.0), lambda t: ops.renorm(t, 2, 0, 1.0)),
    ("adjoint", (), lambda t: t.T),
    ("addr", (T(np.ones(3)), T(np.ones(3))), lambda t: t + 1),
    ("addbmm", (T(np.ones((2, 3, 1))), T(np.ones((2, 1, 3)))), lambda t: t + 2),
    ("cholesky", (), lambda t: T(np.linalg.cholesky(t.asnumpy()))),
    ("cholesky_inverse", (), lambda t: T(np.linalg.inv(np.tril(t.asnumpy()) @ np.tril(t.asnumpy()).T))),
    ("cholesky_solve", (T(np.eye(3)),), lambda t: T(np.linalg.inv(np.eye(3) @ np.eye(3).T) @ t.asnumpy())),
    ("eigvals", (), None),
    ("logdet", (), lambda t: T(np.log(np.linalg.det(t.asnumpy())))),
    ("matrix_determinant", (), lambda t: T(np.linalg.det(t.asnumpy()))),
    ("inplace_update", (T(np.zeros((1, 3))), (1,)), lambda t: T(np.where(np.arange(3)[:, None] == 1, 0, t.asnumpy()))),
    ("rot90", (1, (0, 1)), lambda t: T(np.rot90(t.asnumpy()))),
    ("amax", (0,), lambda t: T(t.asnumpy().max(0))),
    ("amin", (None, False), lambda t: T(t.asnumpy().min())),
]


@pytest.mark.parametrize("name,args,ref", METHODS, ids=[m[0] for m in METHODS])
def test_tensor_methods(name, args, ref):
    t = T(SPD if name not in ("arccos", "arcsin", "arctanh") else SPD / 20)
    if name == "arccosh":
        t = T(SPD + 1)
    out = getattr(t, name)(*args)
    if ref is not None:
        close(out, ref(t).asnumpy(), 1e-7)


def test_tensor_methods_with_tuples_and_in_place():
    t = T(SPD)
    sign, logabs = t.slogdet()
    close(logabs, np.linalg.slogdet(SPD)[1])
    assert len(t.log_matrix_determinant()) == 2
    q, r = t.qr()
    np.testing.assert_allclose(q.asnumpy() @ r.asnumpy(), SPD, atol=1e-12)
    s, u, v = t.svd()
    close(s, np.linalg.svd(SPD, compute_uv=False))
    y, tau = t.geqrf()
    close(t.orgqr if False else y.orgqr(tau).abs(), np.abs(np.linalg.qr(SPD)[0]))
    close(y.ormqr(tau, T(np.eye(3))).abs(), np.abs(np.linalg.qr(SPD)[0]))
    vals, idx = T(np.array([[1.0, np.nan, 3.0]])).nanmedian()
    assert vals.asnumpy().tolist() == [1.0] and idx.asnumpy().tolist() == [0]
    import scipy.linalg as sl

    lu, piv = sl.lu_factor(SPD)
    close(T(np.eye(3)).lu_solve(T(lu), T((piv + 1).astype(np.int32))), np.linalg.inv(SPD))
    x = T(np.array([0.1, -0.5]))
    assert x.erfinv_() is x
    close(x, sp.erfinv([0.1, -0.5]))
    assert x.tanh_() is x
    i = T(np.array([5, 6], np.int32))
    assert i.invert().asnumpy().tolist() == [-6, -7]
    assert i.bitwise_left_shift(1).asnumpy().tolist() == [10, 12]
    assert i.bitwise_right_shift(1).asnumpy().tolist() == [2, 3]
    c = T(np.array([1 + 1j]))
    close(c.angle(), [np.pi / 4])
    close(c.conj(), [1 - 1j])
    close(c.imag(), [1.0])
    close(c.real(), [1.0])
    b = T(np.zeros((200,), np.float32))
    assert b.bernoulli_(0.5) is b and 40 < b.asnumpy().sum() < 160


def test_row_updates_and_their_classes():
    x = T(np.zeros((3, 2), np.float32))
    v = T(np.ones((2, 2), np.float32))
    # MindSpore 2.10: rows 0 and 2 get v; x itself is unchanged
    close(ops.inplace_add(x, v, (0, 2)), [[1, 1], [0, 0], [1, 1]])
    close(ops.inplace_sub(x, v, (0, 2)), [[-1, -1], [0, 0], [-1, -1]])
    close(ops.inplace_update(x, v * 3, (2, 0)), [[3, 3], [0, 0], [3, 3]])
    close(ops.inplace_add(x, T(np.ones((1, 2), np.float32)), 1), [[0, 0], [1, 1], [0, 0]])
    assert x.asnumpy().sum() == 0
    close(ops.InplaceAdd((0, 2))(x, v), [[1, 1], [0, 0], [1, 1]])
    close(ops.InplaceSub(1)(x, v[:1]), [[0, 0], [-1, -1], [0, 0]])
    close(ops.InplaceUpdate((1,))(x, v[:1]), [[0, 0], [1, 1], [0, 0]])
    close(ops.InplaceUpdateV2()(x, T(np.array([0, 2], np.int32)), v), [[1, 1], [0, 0], [1, 1]])
    p = ms.Parameter(T(np.zeros((3, 2), np.float32)), name="p")
    out = ops.inplace_index_add(p, T(np.array([0, 2, 0], np.int32)), T(np.ones((3, 2), np.float32)), 0)
    close(p, [[2, 2], [0, 0], [1, 1]])
    assert out is p
    q = ms.Parameter(T(np.zeros((3, 2), np.float32)), name="q")
    ops.IndexAdd(1)(q, T(np.array([0, 1, 0], np.int32)), T(np.ones((3, 3), np.float32)))
    close(q, [[2, 1], [2, 1], [2, 1]])  # MindSpore 2.10's result
    ops.InplaceIndexAdd(0)(q, T(np.array([1], np.int32)), T(np.ones((1, 2), np.float32)))
    close(q, [[2, 1], [3, 2], [2, 1]])
    with pytest.raises(ValueError, match="'v' must have shape"):
        ops.inplace_add(x, v, (0,))


def test_grids_boxes_and_sampling():
    close(ops.logspace(0, 2, 3), [1, 10, 100], 1e-4)
    close(ops.logspace(T(1.0), T(3.0), 3, base=2, dtype=ms.float64), [2, 4, 8])
    with pytest.raises(TypeError, match="LogSpace"):
        ops.logspace(0, 2, 3, dtype=ms.int32)
    close(ops.rot90(T(np.arange(4).reshape(2, 2)), 1, (0, 1)), [[1, 3], [0, 2]])
    close(ops.row_stack([T(np.arange(2)), T(np.arange(2.0))]), [[0, 1], [0, 1]])
    anchors = T(np.array([[0, 0, 2, 2.0]], np.float32))
    gts = T(np.array([[1, 1, 3, 3.0], [0, 0, 1, 1]], np.float32))
    close(ops.iou(anchors, gts), [[2 / 7], [4 / 9]], 1e-6)  # MindSpore 2.10's values
    close(ops.iou(anchors, gts, "iof"), [[4 / 9], [1.0]], 1e-6)
    draws = ops.bernoulli_ext(T(np.full((400,), 0.25, np.float32)))
    assert draws.dtype == ms.float32 and 50 < draws.asnumpy().sum() < 150
    soft = ops.gumbel_softmax(T(np.zeros((4, 5), np.float32)), 0.5)
    close(soft.sum(-1), np.ones(4), 1e-6)
    hard = ops.gumbel_softmax(T(np.zeros((4, 5), np.float32)), hard=True)
    assert sorted(np.unique(hard.asnumpy()).tolist()) == [0.0, 1.0] and hard.asnumpy().sum() == 4
    grad = ms.grad(lambda t: (ops.gumbel_softmax(t, hard=True) * T(np.arange(5.0, dtype=np.float32))).sum())(
        T(np.zeros((2, 5), np.float32))
    )
    assert np.abs(grad.asnumpy()).sum() > 0  # straight-through: the soft sample's gradient
    c = ops.Cauchy([1000], 1.0, 2.0)()
    assert c.shape == (1000,) and abs(np.median(c.asnumpy()) - 1.0) < 0.5
    splits, values = ops.RaggedRange(ms.int64)(
        T(np.array([0, 5], np.int32)), T(np.array([3, 7], np.int32)), T(np.array([1, 1], np.int32))
    )
    assert splits.asnumpy().tolist() == [0, 3, 5] and values.asnumpy().tolist() == [0, 1, 2, 5, 6]
    from sporax.ops import functional

    assert functional.Median is ops.Median and functional.Roll is ops.Roll


def test_bernoulli_class_and_atleast():
    draws = ops.Bernoulli()(T(np.zeros((300,), np.float32)), 0.3)
    assert draws.shape == (300,) and set(np.unique(draws.asnumpy()).tolist()) <= {0.0, 1.0}
    assert 40 < draws.asnumpy().sum() < 140
    assert ops.atleast_1d(T(np.array(3.0))).shape == (1,)
    one, two = ops.atleast_1d([T(np.array(1.0)), T(np.ones((2, 2)))])
    assert one.shape == (1,) and two.shape == (2, 2)
    assert ops.atleast_3d(T(np.ones(4))).shape == (1, 4, 1)
    assert ops.atleast_3d(T(np.ones((2, 3)))).shape == (2, 3, 1)


def test_nms_with_mask_matches_mindspore():
    b = np.array(
        [
            [0, 0, 10, 10, 0.5],
            [1, 1, 11, 11, 0.9],
            [20, 20, 30, 30, 0.8],
            [0, 0, 10, 10.5, 0.3],
            [21, 21, 31, 31, 0.85],
        ],
        np.float32,
    )
    boxes, idx, mask = ops.NMSWithMask(0.5)(T(b))
    np.testing.assert_array_equal(boxes.asnumpy(), b[[1, 4, 2, 0, 3]])
    assert idx.dtype == ms.int32 and idx.asnumpy().tolist() == [1, 4, 2, 0, 3]
    assert mask.asnumpy().tolist() == [True, True, False, False, False]  # MindSpore 2.10's masks
    assert ops.NMSWithMask(0.7)(T(b))[2].asnumpy().tolist() == [True, True, True, True, False]
    with pytest.raises(ValueError, match=r"\(N, 5\)"):
        ops.NMSWithMask()(T(b[:, :4]))


def test_roll_dstack_numel_signatures():
    x = T(np.arange(6).reshape(2, 3))
    close(ops.Roll(1)(T(np.arange(5))), np.roll(np.arange(5), 1))
    close(ops.Roll((1, 2), (0, 1))(x), np.roll(x.asnumpy(), (1, 2), (0, 1)))
    close(ops.dstack(tensors=[T(np.ones(3)), T(np.zeros(3))]), np.dstack([np.ones(3), np.zeros(3)]))
    assert ops.numel(input=x) == 6


def _msda_reference(value, shapes, starts, loc, weight):
    """Deformable DETR's PyTorch reference (grid_sample, align_corners=False, zero padding) in NumPy."""
    bs, _, heads, dims = value.shape
    _, nq, _, levels, points, _ = loc.shape
    out = np.zeros((bs, nq, heads, dims))
    for b in range(bs):
        for q in range(nq):
            for hd in range(heads):
                for lv in range(levels):
                    h, w = shapes[lv]
                    img = value[b, starts[lv] : starts[lv] + h * w, hd].reshape(h, w, dims)
                    for p in range(points):
                        x = loc[b, q, hd, lv, p, 0] * w - 0.5
                        y = loc[b, q, hd, lv, p, 1] * h - 0.5
                        acc = np.zeros(dims)
                        for xi in (np.floor(x), np.floor(x) + 1):
                            for yi in (np.floor(y), np.floor(y) + 1):
                                if 0 <= xi < w and 0 <= yi < h:
                                    acc += img[int(yi), int(xi)] * (1 - abs(x - xi)) * (1 - abs(y - yi))
                        out[b, q, hd] += acc * weight[b, q, hd, lv, p]
    return out.reshape(bs, nq, heads * dims)


def test_multi_scale_deformable_attention():
    rng = np.random.default_rng(0)
    shapes = np.array([[3, 4], [2, 2]])
    starts = np.array([0, 12])
    value = rng.normal(size=(2, 16, 2, 8))
    loc = rng.uniform(-0.1, 1.1, size=(2, 3, 2, 2, 2, 2))
    weight = rng.uniform(size=(2, 3, 2, 2, 2))
    out = ops.multi_scale_deformable_attn_function(T(value), T(shapes), T(starts), T(loc), T(weight))
    close(out, _msda_reference(value, shapes, starts, loc, weight), 1e-10)
    with pytest.raises(ValueError, match="levels"):
        ops.multi_scale_deformable_attn_function(T(value), T(shapes[:1]), T(starts), T(loc), T(weight))


def _rect(cx, cy, w, h, deg):
    t = np.deg2rad(deg)
    c, s = np.cos(t), np.sin(t)
    return [
        (cx + dx * c - dy * s, cy + dx * s + dy * c)
        for dx, dy in ((w / 2, h / 2), (-w / 2, h / 2), (-w / 2, -h / 2), (w / 2, -h / 2))
    ]


def _clip_area(subject, clip):
    """Sutherland-Hodgman clipping of convex polygons, then the shoelace area (the reference)."""

    def side(p, a, b):
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])

    out = subject
    for i in range(4):
        a, b = clip[i], clip[(i + 1) % 4]
        src, out = out, []
        for j in range(len(src)):
            p, q = src[j], src[(j + 1) % len(src)]
            sp, sq = side(p, a, b), side(q, a, b)
            if sp >= 0:
                out.append(p)
            if sp * sq < 0:
                r = sp / (sp - sq)
                out.append((p[0] + r * (q[0] - p[0]), p[1] + r * (q[1] - p[1])))
        if not out:
            return 0.0
    return 0.5 * abs(
        sum(out[k][0] * out[(k + 1) % len(out)][1] - out[k][1] * out[(k + 1) % len(out)][0] for k in range(len(out)))
    )


def test_rotated_iou_against_polygon_clipping():
    rng = np.random.default_rng(2)
    boxes = np.concatenate(
        [rng.uniform(0, 4, (1, 5, 2)), rng.uniform(1, 3, (1, 5, 2)), rng.uniform(-90, 90, (1, 5, 1))], -1
    )
    query = np.concatenate(
        [rng.uniform(0, 4, (1, 3, 2)), rng.uniform(1, 3, (1, 3, 2)), rng.uniform(-90, 90, (1, 3, 1))], -1
    )
    out = ops.rotated_iou(T(boxes), T(query))
    assert out.shape == (1, 5, 3)
    want = np.zeros((5, 3))
    for i in range(5):
        for k in range(3):
            inter = _clip_area(_rect(*boxes[0, i]), _rect(*query[0, k]))
            union = boxes[0, i, 2] * boxes[0, i, 3] + query[0, k, 2] * query[0, k, 3] - inter
            want[i, k] = inter / union
    close(out, want[None], 1e-9)
    iof = ops.rotated_iou(T(boxes), T(query), mode=1)
    close(
        iof,
        want[None] * 0
        + np.array(
            [
                [
                    _clip_area(_rect(*boxes[0, i]), _rect(*query[0, k])) / (boxes[0, i, 2] * boxes[0, i, 3])
                    for k in range(3)
                ]
                for i in range(5)
            ]
        )[None],
        1e-9,
    )
    pairs = ops.rotated_iou(T(boxes[:, :3]), T(query), is_cross=False)
    close(pairs, np.diagonal(want[:3])[None], 1e-9)
    xyxy = ops.rotated_iou(T(np.array([[[0, 0, 2, 2, 0.0]]])), T(np.array([[[1, 1, 3, 3, 0.0]]])), trans=True)
    close(xyxy, [[[1 / 7]]], 1e-9)
    with pytest.raises(ValueError, match="must be 5"):
        ops.rotated_iou(T(np.zeros((1, 2, 4))), T(np.zeros((1, 2, 4))))
