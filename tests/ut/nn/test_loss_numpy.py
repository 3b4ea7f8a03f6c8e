"""Activations and losses MindSpore 2.10's CPU build cannot run (no CPU kernel: SoftMarginLoss,
MultilabelMarginLoss, TripletMarginLoss, RNNTLoss, L1LossExt, Swiglu, LogSoftmaxExt, in-place ops),
random ones (rrelu), and the jit paths of CTC: checked against NumPy transcriptions of their documented
formulas, gradients against finite differences."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops

rng = np.random.default_rng(7)
T = ms.Tensor


def close(a, b, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(a.asnumpy() if hasattr(a, "asnumpy") else a, b, rtol=rtol, atol=atol)


def fd_grad(f, x, eps=1e-3):
    """Central finite differences of the scalar ``f`` (NumPy float64 in, float out)."""
    g = np.zeros_like(x, np.float64)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x, np.float64)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


def red(v, reduction):
    return v.mean() if reduction == "mean" else v.sum() if reduction == "sum" else v


# --------------------------------------------------------------------- soft margin
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_soft_margin_loss(reduction):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    y = np.where(rng.uniform(size=(3, 4)) > 0.5, 1.0, -1.0).astype(np.float32)
    want = red(np.log1p(np.exp(-y * x)), reduction)
    close(ops.soft_margin_loss(T(x), T(y), reduction), want)
    close(ops.SoftMarginLoss(reduction)(T(x), T(y)), want)
    close(nn.SoftMarginLoss(reduction)(T(x), T(y)), want)
    if reduction == "mean":
        g = ms.grad(lambda a: ops.soft_margin_loss(a, T(y)))(T(x))
        close(g, -y / (1 + np.exp(y * x)) / x.size)


# ---------------------------------------------------------------- multilabel margin
def np_multilabel_margin(x, t):
    x2, t2 = np.atleast_2d(x), np.atleast_2d(t)
    out = []
    for xi, ti in zip(x2, t2, strict=True):
        tgt = []
        for v in ti:
            if v < 0:
                break
            tgt.append(int(v))
        others = [i for i in range(len(xi)) if i not in tgt]
        s = sum(max(0.0, 1 - (xi[j] - xi[i])) for j in tgt for i in others)
        out.append(s / len(xi))
    return np.array(out, np.float32)


def test_multilabel_margin_loss():
    x = rng.standard_normal((4, 5)).astype(np.float32)
    t = np.array([[3, 0, -1, 1, 2], [1, 4, 2, 0, 3], [-1, 2, 1, 0, 0], [2, -1, 0, 0, 0]], np.int32)
    per = np_multilabel_margin(x, t)
    close(ops.multilabel_margin_loss(T(x), T(t)), per.mean())
    close(ops.multilabel_margin_loss(T(x), T(t), "none"), per)
    loss, is_target = ops.MultilabelMarginLoss("sum")(T(x), T(t))
    close(loss, per.sum())
    want_it = np.zeros((4, 5), np.int32)
    want_it[0, [3, 0]] = 1
    want_it[1, [0, 1, 2, 3, 4]] = 1
    want_it[3, 2] = 1
    np.testing.assert_array_equal(is_target.asnumpy(), want_it)
    close(nn.MultilabelMarginLoss()(T(x), T(t)), per.mean())
    # 1-D input
    close(ops.multilabel_margin_loss(T(x[0]), T(t[0]), "none"), per[0])
    g = ms.grad(lambda a: ops.multilabel_margin_loss(a, T(t)))(T(x))
    close(g, fd_grad(lambda a: np_multilabel_margin(a, t).mean(), x.astype(np.float64)), atol=1e-4)


# ------------------------------------------------------------------------ triplets
def np_triplet(a, p, n, margin=1.0, pn=2, eps=1e-6, swap=False):
    def d(x, y):
        return (np.abs(x - y + eps) ** pn).sum(axis=1) ** (1.0 / pn)

    dan = d(a, n)
    if swap:
        dan = np.minimum(dan, d(p, n))
    return np.maximum(d(a, p) - dan + margin, 0)


@pytest.mark.parametrize("pn,swap,reduction", [(2, False, "mean"), (1, True, "none"), (3, True, "sum")])
def test_triplet_margin_loss(pn, swap, reduction):
    a, p, n = (rng.standard_normal((4, 6)).astype(np.float32) for _ in range(3))
    want = red(np_triplet(a, p, n, 0.5, pn, 1e-6, swap), reduction)
    close(ops.triplet_margin_loss(T(a), T(p), T(n), 0.5, pn, 1e-6, swap, reduction), want, rtol=1e-5)
    close(ops.TripletMarginLoss(pn, swap, 1e-6, reduction)(T(a), T(p), T(n), T(np.float32(0.5))), want)
    close(nn.TripletMarginLoss(pn, swap, 1e-6, reduction, margin=0.5)(T(a), T(p), T(n)), want)
    if reduction == "mean":
        g = ms.grad(lambda x: ops.triplet_margin_loss(x, T(p), T(n), 0.5, pn, 1e-6, swap))(T(a))
        close(g, fd_grad(lambda x: np_triplet(x, p, n, 0.5, pn, 1e-6, swap).mean(), a.astype(np.float64)), atol=1e-3)


# --------------------------------------------------------------------- RNN-T loss
def np_rnnt(acts, labels, il, ll, blank):
    lp = acts - np.log(np.exp(acts).sum(-1, keepdims=True))
    costs = []
    for b in range(acts.shape[0]):
        t_n, u_n = int(il[b]), int(ll[b])
        alpha = np.full((t_n, u_n + 1), -np.inf)
        alpha[0, 0] = 0.0
        for t in range(t_n):
            for u in range(u_n + 1):
                if t == 0 and u == 0:
                    continue
                c = []
                if t > 0:
                    c.append(alpha[t - 1, u] + lp[b, t - 1, u, blank])
                if u > 0:
                    c.append(alpha[t, u - 1] + lp[b, t, u - 1, labels[b, u - 1]])
                alpha[t, u] = np.logaddexp.reduce(c)
        costs.append(-(alpha[t_n - 1, u_n] + lp[b, t_n - 1, u_n, blank]))
    return np.array(costs)


def test_rnnt_loss():
    acts = rng.standard_normal((2, 4, 3, 5)).astype(np.float32)
    labels = np.array([[1, 2], [3, 0]], np.int32)
    il, ll = np.array([4, 3], np.int32), np.array([2, 1], np.int32)
    costs, grads = ops.RNNTLoss(blank_label=0)(T(acts), T(labels), T(il), T(ll))
    want = np_rnnt(acts.astype(np.float64), labels, il, ll, 0)
    close(costs, want, rtol=1e-5)
    num = fd_grad(lambda a: np_rnnt(a, labels, il, ll, 0).sum(), acts.astype(np.float64))
    close(grads, num, atol=1e-4)


# ------------------------------------------------------------------ small losses
def test_l1_loss_ext_and_mse_loss_ext():
    a = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.standard_normal((1, 4)).astype(np.float32)
    close(nn.L1LossExt()(T(a), T(b)), np.abs(a - b).mean())
    close(nn.L1LossExt("none")(T(a), T(b)), np.abs(a - b))
    close(ops.mse_loss_ext(T(a), T(b)), ((a - b) ** 2).mean())
    close(ops.mse_loss_ext(T(a), T(b), "sum"), ((a - b) ** 2).sum())
    g = ms.grad(lambda x: ops.mse_loss_ext(x, T(b)))(T(a))
    close(g, 2 * (a - b) / a.size)


# ------------------------------------------------------------------ activations
def test_swiglu_and_log_softmax_ext():
    x = rng.standard_normal((2, 6, 3)).astype(np.float32)
    a, b = x[:, :3], x[:, 3:]
    close(ops.swiglu(T(x), 1), a / (1 + np.exp(-a)) * b)
    g = ms.grad(lambda t: ops.swiglu(t, 1).sum())(T(x))
    sig = 1 / (1 + np.exp(-a))
    close(g, np.concatenate([b * (sig + a * sig * (1 - sig)), a * sig], axis=1), atol=1e-5)

    def np_log_softmax(v, axis):
        return v - np.log(np.exp(v).sum(axis=axis, keepdims=True))

    close(ops.LogSoftmaxExt()(T(x)), np_log_softmax(x, 0))  # 3-D: dim None -> 0
    close(ops.LogSoftmaxExt()(T(x[0]), -1), np_log_softmax(x[0], -1))
    close(nn.LogSoftmaxExt()(T(x[0])), np_log_softmax(x[0], 1))  # 2-D: dim None -> 1
    close(nn.LogSoftmaxExt(dim=-1)(T(x)), np_log_softmax(x, -1))


def test_rrelu_slopes_in_range():
    x = np.linspace(-3, 3, 601).astype(np.float32)
    for out in (ops.rrelu(T(x), 0.1, 0.3), nn.RReLU(0.1, 0.3)(T(x))):
        o = out.asnumpy()
        np.testing.assert_array_equal(o[x >= 0], x[x >= 0])
        slope = o[x < 0] / x[x < 0]
        assert slope.min() >= 0.1 - 1e-6 and slope.max() <= 0.3 + 1e-6
        assert slope.std() > 0.02  # drawn per element
    # the framework seed makes it reproducible
    ms.set_seed(3)
    a = ops.rrelu(T(x)).asnumpy()
    ms.set_seed(3)
    np.testing.assert_array_equal(ops.rrelu(T(x)).asnumpy(), a)


def test_inplace_ops_and_tensor_methods():
    x = T(np.array([-1.0, 0.5, 2.0], np.float32))
    y = ops.relu(x, inplace=True)
    assert y is x
    close(x, [0.0, 0.5, 2.0])
    z = T(np.array([-1.0, 0.0, 2.0], np.float32))
    assert ops.inplace_sigmoid(z) is z
    close(z, 1 / (1 + np.exp(-np.array([-1.0, 0.0, 2.0]))))
    p = ms.Parameter(T(np.array([-1.0, 2.0], np.float32)), name="p")
    ops.relu(p, inplace=True)
    close(p, [0.0, 2.0])
    v = np.array([-0.7, -0.2, 0.1, 0.6], np.float32)
    close(T(v).hardshrink(), [-0.7, 0.0, 0.0, 0.6])
    close(T(v).hardshrink(0.65), [-0.7, 0.0, 0.0, 0.0])
    close(T(v).soft_shrink(), [-0.2, 0.0, 0.0, 0.1])
    close(ms.Parameter(T(v), name="q").hardshrink(0.1), [-0.7, -0.2, 0.0, 0.6])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        close(ops.soft_shrink(T(v), 0.3), [-0.4, 0.0, 0.0, 0.3])
    assert any("deprecated" in str(m.message) for m in w)


# ------------------------------------------------------------------- CTC under jit
def test_ctc_under_jit_matches_eager():
    lp = ops.log_softmax(T(rng.standard_normal((6, 2, 5)).astype(np.float32)), -1)
    tg = T(np.array([[1, 2, 2], [3, 4, 0]], np.int32))
    il, tl = T(np.array([6, 5], np.int32)), T(np.array([3, 2], np.int32))
    eager = ops.ctc_loss(lp, tg, il, tl)[0]

    @ms.jit
    def f(a, b, c, d):
        return ops.ctc_loss(a, b, c, d)[0]

    close(f(lp, tg, il, tl), eager.asnumpy())

    x = T(rng.standard_normal((5, 2, 4)).astype(np.float32))
    idx = T(np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], np.int64))
    val = T(np.array([1, 1, 2, 0, 2], np.int32))
    seq = T(np.array([5, 5], np.int32))
    prim = ops.CTCLoss(preprocess_collapse_repeated=True)
    loss, grad = prim(x, idx, val, seq)

    @ms.jit
    def g(a, b, c, d):
        return prim(a, b, c, d)

    jl, jg = g(x, idx, val, seq)
    close(jl, loss.asnumpy())
    close(jg, grad.asnumpy())
    # the gradient output is the gradient of the summed loss
    close(ms.grad(lambda a: prim(a, idx, val, seq)[0].sum())(x), grad.asnumpy(), atol=1e-6)


def test_ctc_loss_impossible_alignment():
    lp = ops.log_softmax(T(rng.standard_normal((3, 1, 4)).astype(np.float32)), -1)
    tg, il, tl = T(np.array([[1, 1, 1]], np.int32)), T(np.array([3], np.int32)), T(np.array([3], np.int32))
    loss, _ = ops.ctc_loss(lp, tg, il, tl, reduction="none")
    assert np.isinf(loss.asnumpy()).all()
    loss, _ = ops.ctc_loss(lp, tg, il, tl, reduction="none", zero_infinity=True)
    close(loss, [0.0])
    g = ms.grad(lambda a: ops.ctc_loss(a, tg, il, tl, zero_infinity=True)[0])(lp)
    close(g, np.zeros((3, 1, 4)))
    # the CTCLoss primitive skips such a sequence when asked, and refuses it otherwise
    x = T(rng.standard_normal((2, 1, 3)).astype(np.float32))
    idx, val = T(np.array([[0, 0], [0, 1]], np.int64)), T(np.array([1, 1], np.int32))
    seq = T(np.array([2], np.int32))
    with pytest.raises(ValueError, match="need 3 time steps"):
        ops.CTCLoss()(x, idx, val, seq)
    loss, grad = ops.CTCLoss(ignore_longer_outputs_than_inputs=True)(x, idx, val, seq)
    close(loss, [0.0])
    close(grad, np.zeros((2, 1, 3)))


# ------------------------------------------------------------------ amp 'auto'
def test_amp_auto_black_listed_losses():
    """Under amp_level='auto' the losses MindSpore's AmpAuto black-lists compute in float32; the others
    (cosine_embedding_loss: elementwise ops and sums) keep the float16 of a white-listed MatMul's output."""

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(T(np.eye(4, dtype=np.float32)), name="w")

        def construct(self, x, t):
            h = ops.matmul(x, self.w)
            y = T(np.ones(2, np.int32))
            return (
                ops.multi_margin_loss(h, t),
                ops.MultilabelMarginLoss()(h, T(np.array([[0, -1, 0, 0], [1, 2, -1, 0]], np.int32)))[0],
                ops.soft_margin_loss(h, h),
                ops.kl_div(h, h),
                ops.cosine_embedding_loss(h, h, y),
                h,
            )

    net = ms.amp.auto_mixed_precision(Net(), "auto", ms.float16)
    out = net(T(rng.uniform(0.1, 1.0, (2, 4)).astype(np.float32)), T(np.array([0, 1], np.int64)))
    assert [o.dtype for o in out] == [ms.float32] * 4 + [ms.float16] * 2


def test_sampled_softmax_loss_sampler():
    """Without ``sampled_values`` the classes are drawn without replacement, never a true class of the
    batch (remove_accidental_hits), each with expected count num_sampled / num_classes."""
    w = T(rng.standard_normal((10, 3)).astype(np.float32))
    b = T(rng.standard_normal(10).astype(np.float32))
    labels = T(np.array([[1], [3], [4]], np.int32))
    x = T(rng.standard_normal((3, 3)).astype(np.float32))
    loss = nn.SampledSoftmaxLoss(num_sampled=4, num_classes=10)
    ms.set_seed(5)
    sampled, tc, sc = loss._sample(labels)
    s = sampled.asnumpy()
    assert len(set(s.tolist())) == 4 and not set(s.tolist()) & {1, 3, 4}
    close(tc, np.full((3, 1), 0.4))
    close(sc, np.full(4, 0.4))
    ms.set_seed(5)
    out = loss(w, b, labels, x)
    assert out.shape == (3,) and np.isfinite(out.asnumpy()).all()
    # the same sample given explicitly gives the same loss
    close(nn.SampledSoftmaxLoss(4, 10, sampled_values=(sampled, tc, sc))(w, b, labels, x), out.asnumpy())
    with pytest.raises(ValueError, match="'num_sampled' must be smaller than or equal to 'num_classes'"):
        nn.SampledSoftmaxLoss(11, 10)
    with pytest.raises(TypeError, match="the type of 'labels' should be one of"):
        loss(w, b, T(np.ones((3, 1), np.float32)), x)


def test_ctc_loss_trains_a_layer():
    """nn.CTCLoss in a train step (value_and_grad compiles itself; Adam updates): the loss falls."""
    ms.set_seed(1)
    net = nn.Dense(4, 5)
    x = T(rng.standard_normal((6, 2, 4)).astype(np.float32))
    tg = T(np.array([[1, 2, 2], [3, 4, 0]], np.int32))
    il, tl = T(np.array([6, 5], np.int32)), T(np.array([3, 2], np.int32))
    loss_fn = nn.CTCLoss()

    def forward(a):
        return loss_fn(ops.log_softmax(net(a), -1), tg, il, tl)

    grad_fn = ms.value_and_grad(forward, None, net.trainable_params())
    opt = nn.Adam(net.trainable_params(), 0.1)
    first = None
    for _ in range(30):
        loss, grads = grad_fn(x)
        opt(grads)
        first = float(loss.asnumpy()) if first is None else first
    assert float(loss.asnumpy()) < 0.5 * first


def test_rnnt_costs_gradient_is_the_gradient_output():
    acts = T(rng.standard_normal((1, 3, 2, 4)).astype(np.float32))
    labels, il, ll = T(np.array([[2]], np.int32)), T(np.array([3], np.int32)), T(np.array([1], np.int32))
    prim = ops.RNNTLoss(blank_label=0)
    _, grads = prim(acts, labels, il, ll)
    g = ms.grad(lambda a: prim(a, labels, il, ll)[0].sum() * 2.0)(acts)
    close(g, 2.0 * grads.asnumpy(), atol=1e-6)
