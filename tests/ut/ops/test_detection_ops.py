"""ROIAlign, NoRepeatNGram, CTCGreedyDecoder, NonMaxSuppressionWithOverlaps, CombinedNonMaxSuppression against
MindSpore 2.10 (outputs; ROIAlign gradients); NonMaxSuppressionV3 and ComputeAccidentalHits (no CPU kernel in
MindSpore 2.10) against NumPy; value-dependent ops refuse to run inside jit."""

from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops

DATA = np.load(Path(__file__).resolve().parents[1] / "nn" / "fixtures" / "nn_seq_reference.npz")

CASES = [
    ("D.roialign", lambda f, x: ops.ROIAlign(3, 2, 0.5, 2)(f, x)),
    ("D.roialign_end0", lambda f, x: ops.ROIAlign(2, 2, 1.0, 3, 0)(f, x)),
    ("D.ctc", lambda x, n: ops.CTCGreedyDecoder()(x, n)),
    ("D.ctc_nomerge", lambda x, n: ops.CTCGreedyDecoder(False)(x, n)),
    (
        "D.nms_overlaps",
        lambda o, sc: ops.NonMaxSuppressionWithOverlaps()(
            o, sc, Tensor(4, ms.int32), Tensor(0.5, ms.float32), Tensor(0.2, ms.float32)
        ),
    ),
    (
        "D.combined_nms",
        lambda b, sc: ops.CombinedNonMaxSuppression()(
            b, sc, Tensor(3, ms.int32), Tensor(4, ms.int32), Tensor(0.3, ms.float32), Tensor(0.1, ms.float32)
        ),
    ),
    ("D.no_repeat_ngram", lambda sq, lp: ops.NoRepeatNGram(2)(sq, lp)),
]


@pytest.mark.parametrize("name,fn", CASES, ids=[c[0] for c in CASES])
def test_against_mindspore(name, fn):
    n_in = sum(1 for k in DATA.files if k.startswith(f"{name}/in."))
    args = [Tensor(DATA[f"{name}/in.{i}"]) for i in range(n_in)]
    out = fn(*args)
    outs = out if isinstance(out, tuple) else (out,)
    for i, o in enumerate(outs):
        want = DATA[f"{name}/out.{i}"]
        assert o.shape == want.shape, (name, i, o.shape, want.shape)
        np.testing.assert_allclose(o.asnumpy().astype(want.dtype), want, rtol=1e-5, atol=1e-5, err_msg=f"{name} {i}")
    if f"{name}/grad/in.0" in DATA.files:
        probe = Tensor(DATA[f"{name}/probe/out.0"])
        g = ms.grad(lambda *xs: (fn(*xs) * probe).sum(), grad_position=0)(*args)
        np.testing.assert_allclose(g.asnumpy(), DATA[f"{name}/grad/in.0"], rtol=1e-4, atol=1e-5)


def test_roialign_end0_gradient_finite_differences():
    # MindSpore's CPU ROIAlignGrad disagrees with its own forward for roi_end_mode=0: checked by differences
    f = DATA["D.roialign_end0/in.0"].astype(np.float64)
    r = Tensor(DATA["D.roialign_end0/in.1"].astype(np.float64))
    op = ops.ROIAlign(2, 2, 1.0, 3, 0)
    probe = np.random.RandomState(0).randn(4, 3, 2, 2)
    g = ms.grad(lambda x: (op(x, r) * Tensor(probe)).sum())(Tensor(f)).asnumpy()
    for idx in [(0, 0, 1, 0), (0, 1, 2, 3), (1, 2, 4, 4)]:
        fp, fm = f.copy(), f.copy()
        fp[idx] += 1e-5
        fm[idx] -= 1e-5
        num = ((op(Tensor(fp), r).asnumpy() - op(Tensor(fm), r).asnumpy()) * probe).sum() / 2e-5
        np.testing.assert_allclose(g[idx], num, rtol=1e-6, atol=1e-9)


def _np_nms(boxes, scores, limit, iou_t, score_t):
    order = [i for i in np.argsort(-scores, kind="stable") if scores[i] > score_t]
    keep = []
    while order and len(keep) < limit:
        i = order.pop(0)
        keep.append(i)
        rest = []
        for j in order:
            y1, x1 = max(boxes[i, 0], boxes[j, 0]), max(boxes[i, 1], boxes[j, 1])
            y2, x2 = min(boxes[i, 2], boxes[j, 2]), min(boxes[i, 3], boxes[j, 3])
            inter = max(y2 - y1, 0) * max(x2 - x1, 0)
            a = lambda k: (boxes[k, 2] - boxes[k, 0]) * (boxes[k, 3] - boxes[k, 1])  # noqa: E731
            if inter / (a(i) + a(j) - inter) <= iou_t:
                rest.append(j)
        order = rest
    return keep


def test_nms_v3_and_accidental_hits_numpy():
    rng = np.random.RandomState(3)
    boxes = rng.rand(12, 4).astype(np.float32)
    boxes[:, 2:] = boxes[:, :2] + rng.rand(12, 2).astype(np.float32) * 0.5
    scores = rng.rand(12).astype(np.float32)
    got = ops.NonMaxSuppressionV3()(Tensor(boxes), Tensor(scores), Tensor(5, ms.int32), 0.3, Tensor(0.1))
    assert got.dtype == ms.int32 and got.asnumpy().tolist() == _np_nms(boxes, scores, 5, 0.3, 0.1)
    tc = np.array([[1, 2], [0, 4], [3, 3]], np.int64)
    cand = np.array([0, 1, 2, 3, 4, 1], np.int64)
    idx, ids, w = ops.ComputeAccidentalHits(2)(Tensor(tc), Tensor(cand))
    pairs = [(i, j) for i in range(3) for lab in tc[i] for j in range(6) if cand[j] == lab]
    assert list(zip(idx.asnumpy().tolist(), ids.asnumpy().tolist())) == pairs
    assert np.all(w.asnumpy() == np.float32(-3.4028235e38))
    with pytest.raises(RuntimeError, match="For 'NonMaxSuppressionV3', the output shape depends on the input"):
        ms.jit(lambda b, s: ops.NonMaxSuppressionV3()(b, s, 3, 0.5, 0.0))(Tensor(boxes), Tensor(scores))


ERRORS = [
    (lambda: ops.ROIAlign(2, 2, 1.0, 2, 2), ValueError, "For 'ROIAlign', the 'roi_end_mode' must be in range"),
    (lambda: ops.NoRepeatNGram(0), ValueError, "For 'NoRepeatNGram', the 'ngram_size' must be int and must >= 1"),
    (lambda: ops.ComputeAccidentalHits(0), ValueError, "'num_true'"),
    (lambda: ops.CTCGreedyDecoder(1), TypeError, "For 'CTCGreedyDecoder', the type of 'merge_repeated' should be"),
]


@pytest.mark.parametrize("fn,err,msg", ERRORS)
def test_errors(fn, err, msg):
    with pytest.raises(err) as info:
        fn()
    assert msg in str(info.value)
