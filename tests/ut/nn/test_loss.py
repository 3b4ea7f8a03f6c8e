"""Loss cells: defaults, values against NumPy, dtype/shape checks, gradients."""

import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops

rng = np.random.default_rng(4)


def T(a):
    return ms.Tensor(np.asarray(a))


def log_softmax(x, axis=-1):
    m = x.max(axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis, keepdims=True))


LOGITS = rng.standard_normal((5, 4)).astype(np.float32)
LABELS = np.array([0, 3, 1, 2, 3])
LP = log_softmax(LOGITS.astype(np.float64))
NLL = -LP[np.arange(5), LABELS]


def test_loss_base():
    lb = nn.LossBase()
    x = T(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert float(lb.get_loss(x).asnumpy()) == 2.5
    assert float(nn.LossBase("sum").get_loss(x, 2.0).asnumpy()) == 30.0
    np.testing.assert_allclose(
        nn.LossBase("none").get_loss(x, T(np.array([1.0, 0.0, 2.0], np.float32))).asnumpy(), [[0, 0, 4], [3, 0, 10]]
    )
    half = nn.LossBase().get_loss(T(np.ones(3, np.float16)))
    assert half.dtype == ms.float16
    with pytest.raises(
        ValueError, match=r"For 'LossBase', the 'reduction' must be in \['mean', 'sum', 'none'\], but got avg\."
    ):
        nn.LossBase("avg")


def test_softmax_cross_entropy_with_logits_default_none():
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    assert loss.reduction == "none"
    out = loss(T(LOGITS), T(LABELS.astype(np.int32)))
    assert out.shape == (5,)
    np.testing.assert_allclose(out.asnumpy(), NLL, rtol=1e-5)
    dense = nn.SoftmaxCrossEntropyWithLogits(reduction="mean")
    np.testing.assert_allclose(
        dense(T(LOGITS), T(np.eye(4, dtype=np.float32)[LABELS])).asnumpy(), NLL.mean(), rtol=1e-5
    )
    np.testing.assert_allclose(
        nn.SoftmaxCrossEntropyWithLogits(True, "sum")(T(LOGITS), T(LABELS)).asnumpy(), NLL.sum(), rtol=1e-5
    )
    with pytest.raises(ValueError, match=r"For 'SoftmaxCrossEntropyWithLogits', the 'labels' shape must be \(5,\)"):
        loss(T(LOGITS), T(np.zeros(4, np.int32)))
    with pytest.raises(TypeError, match="For 'SoftmaxCrossEntropyWithLogits', the dtype of 'labels'"):
        loss(T(LOGITS), T(np.zeros(5, np.float32)))


def test_cross_entropy_loss_int32_int64_probabilities():
    ce = nn.CrossEntropyLoss()
    for dt in (np.int32, np.int64):
        np.testing.assert_allclose(ce(T(LOGITS), T(LABELS.astype(dt))).asnumpy(), NLL.mean(), rtol=1e-5)
    probs = rng.dirichlet(np.ones(4), 5).astype(np.float32)
    np.testing.assert_allclose(ce(T(LOGITS), T(probs)).asnumpy(), -(LP * probs).sum(1).mean(), rtol=1e-5)
    w = np.array([1.0, 2.0, 0.5, 1.5], np.float32)
    out = nn.CrossEntropyLoss(weight=T(w), reduction="sum", ignore_index=3)(T(LOGITS), T(LABELS))
    keep = LABELS != 3
    np.testing.assert_allclose(out.asnumpy(), (NLL * w[LABELS] * keep).sum(), rtol=1e-5)
    ls = nn.CrossEntropyLoss(label_smoothing=0.1, reduction="none")(T(LOGITS), T(LABELS)).asnumpy()
    np.testing.assert_allclose(ls, 0.9 * NLL + 0.1 / 4 * -LP.sum(1), rtol=1e-5)


def test_cross_entropy_loss_errors():
    ce = nn.CrossEntropyLoss()
    with pytest.raises(
        TypeError,
        match=r"For 'CrossEntropyLoss', the 'labels' holding class probabilities must have the dtype of 'logits' \(Float32\), but got Float64\.",
    ):
        ce(T(LOGITS), T(np.ones((5, 4))))
    with pytest.raises(
        ValueError,
        match=r"For 'CrossEntropyLoss', the 'labels' holding class probabilities must have the shape of 'logits' \(5, 4\)",
    ):
        ce(T(LOGITS), T(np.ones((5, 3), np.float32)))
    with pytest.raises(
        ValueError, match=r"For 'CrossEntropyLoss', the 'labels' holding class indices must have shape \(5,\)"
    ):
        ce(T(LOGITS), T(np.zeros((5, 1), np.int32)))
    with pytest.raises(TypeError, match="For 'CrossEntropyLoss', the dtype of 'labels' must be int32 or int64"):
        ce(T(LOGITS), T(np.zeros(5, np.uint8)))
    with pytest.raises(TypeError, match="For 'CrossEntropyLoss', the dtype of 'logits'"):
        ce(T(LABELS), T(LABELS))
    with pytest.raises(ValueError, match="label_smoothing"):
        nn.CrossEntropyLoss(label_smoothing=2.0)


def test_cross_entropy_gradient():
    ce = nn.CrossEntropyLoss()
    g = ms.grad(lambda x: ce(x, T(LABELS)))(T(LOGITS.astype(np.float64))).asnumpy()
    np.testing.assert_allclose(g, (np.exp(LP) - np.eye(4)[LABELS]) / 5, rtol=1e-10)


def test_nll_loss_cell():
    out = nn.NLLLoss(reduction="none")(T(LP), T(LABELS))
    np.testing.assert_allclose(out.asnumpy(), NLL, rtol=1e-10)
    w = np.array([1.0, 2.0, 0.5, 1.5])
    np.testing.assert_allclose(nn.NLLLoss(T(w))(T(LP), T(LABELS)).asnumpy(), (NLL * w[LABELS]).sum() / w[LABELS].sum())


def test_regression_losses():
    a = rng.standard_normal((3, 4)).astype(np.float32)
    b = (rng.standard_normal((3, 4)) * 2).astype(np.float32)
    d = np.abs(a - b).astype(np.float64)
    np.testing.assert_allclose(nn.MSELoss()(T(a), T(b)).asnumpy(), (d**2).mean(), rtol=1e-5)
    np.testing.assert_allclose(nn.MSELoss("none")(T(a), T(b)).asnumpy(), d**2, rtol=1e-5)
    np.testing.assert_allclose(nn.L1Loss("sum")(T(a), T(b)).asnumpy(), d.sum(), rtol=1e-5)
    sl = nn.SmoothL1Loss()
    assert sl.reduction == "none" and sl.beta == 1.0
    np.testing.assert_allclose(sl(T(a), T(b)).asnumpy(), np.where(d < 1, 0.5 * d**2, d - 0.5), rtol=1e-5)
    np.testing.assert_allclose(
        nn.SmoothL1Loss(beta=0.5, reduction="mean")(T(a), T(b)).asnumpy(),
        np.where(d < 0.5, d**2, d - 0.25).mean(),
        rtol=1e-5,
    )
    np.testing.assert_allclose(
        nn.HuberLoss(delta=0.5)(T(a), T(b)).asnumpy(), np.where(d < 0.5, 0.5 * d**2, 0.5 * (d - 0.25)).mean(), rtol=1e-5
    )
    with pytest.raises(ValueError, match="For 'SmoothL1Loss', the 'labels' shape must be"):
        sl(T(a), T(b[:2]))
    with pytest.raises(ValueError, match="beta"):
        nn.SmoothL1Loss(beta=0)


def test_bce_losses():
    p = rng.uniform(0.05, 0.95, (3, 4)).astype(np.float32)
    y = (rng.uniform(size=(3, 4)) > 0.5).astype(np.float32)
    w = rng.uniform(0.5, 1.5, (3, 4)).astype(np.float32)
    p64 = p.astype(np.float64)
    bce = -(y * np.log(p64) + (1 - y) * np.log(1 - p64))
    assert nn.BCELoss().reduction == "mean"
    np.testing.assert_allclose(nn.BCELoss()(T(p), T(y)).asnumpy(), bce.mean(), rtol=1e-5)
    np.testing.assert_allclose(nn.BCELoss(T(w), "none")(T(p), T(y)).asnumpy(), bce * w, rtol=1e-5)
    x = (rng.standard_normal((3, 4)) * 3).astype(np.float32)
    pw = np.array([1.0, 2.0, 0.5, 3.0], np.float32)
    s = 1 / (1 + np.exp(-x.astype(np.float64)))
    ref = -(pw * y * np.log(s) + (1 - y) * np.log(1 - s)) * w
    np.testing.assert_allclose(nn.BCEWithLogitsLoss("sum", T(w), T(pw))(T(x), T(y)).asnumpy(), ref.sum(), rtol=1e-5)
    g = ms.grad(lambda v: nn.BCEWithLogitsLoss("sum")(v, T(y.astype(np.float64))))(T(x.astype(np.float64))).asnumpy()
    np.testing.assert_allclose(g, s - y, rtol=1e-10)
    with pytest.raises(ValueError, match="For 'BCELoss', the 'labels' shape"):
        nn.BCELoss()(T(p), T(y[0]))
    with pytest.raises(TypeError, match="For 'BCEWithLogitsLoss', the 'weight' must be a Tensor"):
        nn.BCEWithLogitsLoss(weight=[1.0])


def test_kldiv_loss():
    lx = log_softmax(rng.standard_normal((3, 4)))
    q = rng.dirichlet(np.ones(4), 3)
    kl = q * (np.log(q) - lx)
    np.testing.assert_allclose(nn.KLDivLoss()(T(lx), T(q)).asnumpy(), kl.mean())
    np.testing.assert_allclose(nn.KLDivLoss("batchmean")(T(lx), T(q)).asnumpy(), kl.sum() / 3)
    np.testing.assert_allclose(nn.KLDivLoss("none")(T(lx), T(q)).asnumpy(), kl)
    with pytest.raises(ValueError, match="batchmean"):
        nn.KLDivLoss("avg")


def test_loss_under_jit_matches_eager():
    ce = nn.CrossEntropyLoss(label_smoothing=0.1)
    f = ms.jit(lambda a, b: ce(a, b))
    np.testing.assert_allclose(f(T(LOGITS), T(LABELS)).asnumpy(), ce(T(LOGITS), T(LABELS)).asnumpy(), rtol=1e-6)
    assert isinstance(ops.cross_entropy(T(LOGITS), T(LABELS)), ms.Tensor)
