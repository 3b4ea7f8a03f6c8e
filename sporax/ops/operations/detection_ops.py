"""Detection and decoding operator classes: ``ROIAlign`` and ``NoRepeatNGram`` (fixed shapes: compiled like any
op) and ``CTCGreedyDecoder``, ``NonMaxSuppressionV3``, ``NonMaxSuppressionWithOverlaps``,
``CombinedNonMaxSuppression``, ``ComputeAccidentalHits`` (their results depend on the values: computed on the
host, eagerly; inside ``jit``/GRAPH_MODE they raise, naming the op)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import as_tensor_array, compiled_op, wrap
from ..function._array_utils import _concrete
from ._primitive import Primitive

__all__ = [
    "ROIAlign",
    "NoRepeatNGram",
    "CTCGreedyDecoder",
    "NonMaxSuppressionV3",
    "NonMaxSuppressionWithOverlaps",
    "CombinedNonMaxSuppression",
    "ComputeAccidentalHits",
]

_FLOAT_MAX = 3.4028234663852886e38


def _host(x: Any, op: str) -> np.ndarray:
    return _concrete(as_tensor_array(x), op)


class ROIAlign(Primitive):
    """``ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1)(features, rois)``:
    for each roi ``[batch_index, x1, y1, x2, y2]`` (scaled by ``spatial_scale``; ``roi_end_mode=1`` adds one
    pixel to the end), the average of ``sample_num ** 2`` bilinear samples in each of the
    ``pooled_height x pooled_width`` bins. Output ``(num_rois, C, pooled_height, pooled_width)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> f = ms.Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]], np.float32))
        >>> r = ms.Tensor(np.array([[0, 0.2, 0.3, 0.2, 0.3]], np.float32))
        >>> ms.ops.ROIAlign(2, 2, 0.5, 2)(f, r).asnumpy().round(3).tolist()
        [[[[1.775, 2.025], [2.275, 2.525]]]]
    """

    def __init__(
        self, pooled_height: int, pooled_width: int, spatial_scale: float, sample_num: int = 2, roi_end_mode: int = 1
    ) -> None:
        super().__init__()
        name = self.name
        validator.check_value_type("pooled_height", pooled_height, [int], name)
        validator.check_value_type("pooled_width", pooled_width, [int], name)
        validator.check_value_type("spatial_scale", spatial_scale, [float], name)
        validator.check_value_type("sample_num", sample_num, [int], name)
        validator.check_value_type("roi_end_mode", roi_end_mode, [int], name)
        validator.check_int_range(roi_end_mode, 0, 1, validator.INC_BOTH, "roi_end_mode", name)
        self.pooled_height, self.pooled_width, self.spatial_scale = pooled_height, pooled_width, spatial_scale
        self.sample_num, self.roi_end_mode = sample_num, roi_end_mode
        self.attrs.update(
            pooled_height=pooled_height,
            pooled_width=pooled_width,
            spatial_scale=spatial_scale,
            sample_num=sample_num,
            roi_end_mode=roi_end_mode,
        )

    def __call__(self, features: Any, rois: Any) -> Any:
        return _roi_align(
            features, rois, self.pooled_height, self.pooled_width, self.spatial_scale, self.sample_num,
            self.roi_end_mode, self.name,
        )  # fmt: skip


@compiled_op
def _roi_align(
    features: Any, rois: Any, ph: int, pw: int, scale: float, s: int, roi_end_mode: int, name: str
) -> Tensor:
    """ROIAlign's kernel (one compiled program per configuration and shapes)."""
    f = as_tensor_array(features)
    r = as_tensor_array(rois).astype(f.dtype)
    if f.ndim != 4 or r.ndim != 2 or r.shape[1] != 5:
        raise ValueError(
            f"For '{name}', 'features' must be 4-D and 'rois' (num_rois, 5), but got {tuple(f.shape)} and "
            f"{tuple(r.shape)}."
        )
    _, _, h, w = f.shape
    x1, y1 = r[:, 1] * scale, r[:, 2] * scale
    x2, y2 = (r[:, 3] + roi_end_mode) * scale, (r[:, 4] + roi_end_mode) * scale
    least = 1.0 if roi_end_mode == 0 else 0.0  # MindSpore's kernel: at least one pixel without the shift
    bin_h = jnp.maximum(y2 - y1, least) / ph
    bin_w = jnp.maximum(x2 - x1, least) / pw
    frac = (jnp.arange(s, dtype=f.dtype) + 0.5) / s
    ys = y1[:, None, None] + (jnp.arange(ph, dtype=f.dtype)[None, :, None] + frac[None, None, :]) * bin_h[:, None, None]
    xs = x1[:, None, None] + (jnp.arange(pw, dtype=f.dtype)[None, :, None] + frac[None, None, :]) * bin_w[:, None, None]
    ys, xs = ys.reshape(r.shape[0], -1), xs.reshape(r.shape[0], -1)  # (R, ph*s), (R, pw*s)

    def axis_weights(c: Any, n: int) -> Any:
        """(R, P, n) bilinear weights of the P sample coordinates over the n pixels (0 outside [-1, n])."""
        valid = (c >= -1.0) & (c <= n)
        c = jnp.clip(c, 0, n - 1)
        lo = jnp.floor(c)
        t = c - lo
        hi = jnp.minimum(lo + 1, n - 1)
        grid = jnp.arange(n, dtype=c.dtype)
        wgt = (1 - t)[..., None] * (grid == lo[..., None]) + t[..., None] * (grid == hi[..., None])
        return wgt * valid[..., None]

    wy = axis_weights(ys, h).reshape(r.shape[0], ph, s, h).mean(2)  # (R, ph, H)
    wx = axis_weights(xs, w).reshape(r.shape[0], pw, s, w).mean(2)  # (R, pw, W)
    fr = f[r[:, 0].astype(jnp.int32)]  # (R, C, H, W)
    return wrap(jnp.einsum("rph,rchw,rqw->rcpq", wy, fr, wx))


class NoRepeatNGram(Primitive):
    """``NoRepeatNGram(ngram_size=1)(state_seq, log_probs)``: for each sequence of ``state_seq``
    ``(batch, beam, length)``, every token that would repeat an n-gram already in the sequence gets
    ``log_probs`` ``-FLOAT_MAX``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> seq = ms.Tensor(np.array([[[1, 2, 1, 2]]], np.int32))
        >>> out = ms.ops.NoRepeatNGram(3)(seq, ms.Tensor(np.zeros([1, 1, 4], np.float32)))
        >>> bool(out.asnumpy()[0, 0, 1] < -1e38)
        True
    """

    def __init__(self, ngram_size: int = 1) -> None:
        super().__init__()
        validator.check_value_type("ngram_size", ngram_size, [int], self.name)
        validator.check_int(ngram_size, 1, validator.GE, "ngram_size", self.name)
        self.ngram_size = ngram_size
        self.attrs.update(ngram_size=ngram_size)

    def __call__(self, state_seq: Any, log_probs: Any) -> Any:
        seq = as_tensor_array(state_seq).astype(jnp.int32)
        lp = as_tensor_array(log_probs)
        n, length = self.ngram_size, seq.shape[-1]
        if n > length:
            return wrap(lp)
        starts = length - n + 1  # candidate n-grams seq[p : p + n], p < starts
        if n == 1:
            ban_tok = seq
            hit = jnp.ones(seq.shape, bool)
        else:
            prefix = seq[..., length - n + 1 :]  # the last n - 1 tokens
            windows = jnp.stack([seq[..., k : k + starts] for k in range(n - 1)], axis=-1)  # (..., starts, n-1)
            hit = jnp.all(windows == prefix[..., None, :], axis=-1)
            ban_tok = seq[..., n - 1 : n - 1 + starts]
        vocab = lp.shape[-1]
        onehot = (ban_tok[..., None] == jnp.arange(vocab)) & hit[..., None]
        banned = jnp.any(onehot, axis=-2)
        return wrap(jnp.where(banned, jnp.asarray(-_FLOAT_MAX, lp.dtype), lp))


class CTCGreedyDecoder(Primitive):
    """``CTCGreedyDecoder(merge_repeated=True)(inputs, sequence_length)``: the most likely class per step
    (``inputs`` ``(max_time, batch, num_classes)``, the last class the blank), repeats merged, blanks removed.
    Returns ``(decoded_indices (N, 2) int64, decoded_values (N,) int64, decoded_shape (2,) int64,
    log_probability (batch, 1))`` with ``log_probability = -sum_t max_c inputs[t, b, c]``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.array([[[0.6, 0.4, 0.2]], [[0.0, 0.6, 0.0]]], np.float32))
        >>> ms.ops.CTCGreedyDecoder()(x, ms.Tensor(np.array([2], np.int32)))[1].asnumpy().tolist()
        [0, 1]
    """

    def __init__(self, merge_repeated: bool = True) -> None:
        super().__init__()
        self.merge_repeated = validator.check_value_type("merge_repeated", merge_repeated, [bool], self.name)
        self.attrs.update(merge_repeated=merge_repeated)

    def __call__(self, inputs: Any, sequence_length: Any) -> Any:
        x = _host(inputs, self.name)
        lens = _host(sequence_length, self.name).reshape(-1)
        t_max, batch, classes = x.shape
        if lens.shape[0] != batch:
            raise ValueError(
                f"For '{self.name}', the length of 'sequence_length' must be the batch size {batch}, "
                f"but got {lens.shape[0]}."
            )
        if np.any(lens > t_max):
            raise ValueError(f"For '{self.name}', 'sequence_length' must not exceed max_time {t_max}.")
        blank = classes - 1
        indices, values, logp, longest = [], [], [], 0
        for b in range(batch):
            steps = x[: lens[b], b]
            best = steps.argmax(-1) if lens[b] else np.zeros((0,), np.int64)
            logp.append(-steps.max(-1).sum() if lens[b] else 0.0)
            out, prev = [], -1
            for c in best.tolist():
                if c != blank and not (self.merge_repeated and c == prev):
                    out.append(c)
                prev = c
            indices += [[b, i] for i in range(len(out))]
            values += out
            longest = max(longest, len(out))
        return (
            wrap(jnp.asarray(np.asarray(indices, np.int64).reshape(-1, 2))),
            wrap(jnp.asarray(np.asarray(values, np.int64))),
            wrap(jnp.asarray(np.asarray([batch, longest], np.int64))),
            wrap(jnp.asarray(np.asarray(logp, x.dtype).reshape(batch, 1))),
        )


def _iou(boxes: np.ndarray, i: int, rest: np.ndarray) -> np.ndarray:
    """IoU of box ``i`` with ``rest`` (boxes given as two opposite corners in any order)."""
    y1, x1 = np.minimum(boxes[:, 0], boxes[:, 2]), np.minimum(boxes[:, 1], boxes[:, 3])
    y2, x2 = np.maximum(boxes[:, 0], boxes[:, 2]), np.maximum(boxes[:, 1], boxes[:, 3])
    area = (y2 - y1) * (x2 - x1)
    iy1, ix1 = np.maximum(y1[i], y1[rest]), np.maximum(x1[i], x1[rest])
    iy2, ix2 = np.minimum(y2[i], y2[rest]), np.minimum(x2[i], x2[rest])
    inter = np.maximum(iy2 - iy1, 0) * np.maximum(ix2 - ix1, 0)
    union = area[i] + area[rest] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def _greedy_nms(scores: np.ndarray, overlap_of: Any, limit: int, threshold: float, score_threshold: float) -> list:
    order = [int(i) for i in np.argsort(-scores, kind="stable") if scores[i] > score_threshold]
    keep: list[int] = []
    while order and len(keep) < limit:
        i = order.pop(0)
        keep.append(i)
        if order:
            ov = overlap_of(i, np.asarray(order))
            order = [j for j, o in zip(order, ov) if o <= threshold]
    return keep


def _scalar(x: Any, op: str) -> Any:
    return _host(x, op).reshape(-1)[0].item() if isinstance(x, Tensor) else x


class NonMaxSuppressionV3(Primitive):
    """``NonMaxSuppressionV3()(boxes, scores, max_output_size, iou_threshold, score_threshold)``: greedy
    non-maximum suppression: indices (int32) of at most ``max_output_size`` boxes ``(N, 4)`` by decreasing score,
    dropping boxes whose IoU with a kept one exceeds ``iou_threshold`` and scores not above
    ``score_threshold``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> boxes = ms.Tensor(np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 10, 1, 11]], np.float32))
        >>> scores = ms.Tensor(np.array([0.9, 0.8, 0.7], np.float32))
        >>> ms.ops.NonMaxSuppressionV3()(boxes, scores, 3, 0.5, 0.0).asnumpy().tolist()
        [0, 2]
    """

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any, score_threshold: Any) -> Any:
        b = _host(boxes, self.name).astype(np.float64)
        sc = _host(scores, self.name).astype(np.float64)
        if b.ndim != 2 or b.shape[1] != 4 or sc.shape != (b.shape[0],):
            raise ValueError(
                f"For '{self.name}', 'boxes' must be (N, 4) and 'scores' (N,), but got {b.shape} and {sc.shape}."
            )
        limit = int(_scalar(max_output_size, self.name))
        if limit < 0:
            raise ValueError(f"For '{self.name}', 'max_output_size' must be >= 0, but got {limit}.")
        keep = _greedy_nms(
            sc, lambda i, rest: _iou(b, i, rest), limit, float(_scalar(iou_threshold, self.name)),
            float(_scalar(score_threshold, self.name)),
        )  # fmt: skip
        return wrap(jnp.asarray(np.asarray(keep, np.int32)))


class NonMaxSuppressionWithOverlaps(Primitive):
    """``NonMaxSuppressionWithOverlaps()(overlaps, scores, max_output_size, overlap_threshold, score_threshold)``:
    greedy non-maximum suppression with a given ``(N, N)`` overlap matrix (candidate ``j`` is dropped when
    ``overlaps[j, i]`` exceeds ``overlap_threshold`` for a kept ``i``).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ov = ms.Tensor(np.eye(3, dtype=np.float32))
        >>> sc = ms.Tensor(np.array([0.5, 0.9, 0.7], np.float32))
        >>> ms.ops.NonMaxSuppressionWithOverlaps()(ov, sc, 2, 0.5, 0.0).asnumpy().tolist()
        [1, 2]
    """

    def __init__(self) -> None:
        super().__init__()

    def __call__(
        self, overlaps: Any, scores: Any, max_output_size: Any, overlap_threshold: Any, score_threshold: Any
    ) -> Any:
        ov = _host(overlaps, self.name).astype(np.float64)
        sc = _host(scores, self.name).astype(np.float64)
        if ov.ndim != 2 or ov.shape[0] != ov.shape[1] or sc.shape != (ov.shape[0],):
            raise ValueError(
                f"For '{self.name}', 'overlaps' must be (N, N) and 'scores' (N,), but got {ov.shape} and {sc.shape}."
            )
        keep = _greedy_nms(
            sc, lambda i, rest: ov[rest, i], int(_scalar(max_output_size, self.name)),
            float(_scalar(overlap_threshold, self.name)), float(_scalar(score_threshold, self.name)),
        )  # fmt: skip
        return wrap(jnp.asarray(np.asarray(keep, np.int32)))


class CombinedNonMaxSuppression(Primitive):
    """``CombinedNonMaxSuppression(pad_per_class=False, clip_boxes=True)(boxes, scores, max_output_size_per_class,
    max_total_size, iou_threshold, score_threshold)``: per image and class greedy NMS of ``boxes``
    ``(B, N, q, 4)`` (``q`` 1: shared by the classes, else one per class) with ``scores`` ``(B, N, C)``, then the
    best ``max_total_size`` detections of each image. Returns ``(nmsed_boxes (B, K, 4), nmsed_scores (B, K),
    nmsed_classes (B, K), valid_detections (B,))`` zero-padded; ``clip_boxes`` clips the boxes to [0, 1].

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> boxes = ms.Tensor(np.array([[[[0, 0, 1, 1]], [[0, 0.05, 1, 1.05]]]], np.float32))
        >>> scores = ms.Tensor(np.array([[[0.9], [0.8]]], np.float32))
        >>> ms.ops.CombinedNonMaxSuppression()(boxes, scores, 2, 2, 0.5, 0.0)[3].asnumpy().tolist()
        [1]
    """

    def __init__(self, pad_per_class: bool = False, clip_boxes: bool = True) -> None:
        super().__init__()
        self.pad_per_class = validator.check_value_type("pad_per_class", pad_per_class, [bool], self.name)
        self.clip_boxes = validator.check_value_type("clip_boxes", clip_boxes, [bool], self.name)
        self.attrs.update(pad_per_class=pad_per_class, clip_boxes=clip_boxes)

    def __call__(
        self,
        boxes: Any,
        scores: Any,
        max_output_size_per_class: Any,
        max_total_size: Any,
        iou_threshold: Any,
        score_threshold: Any,
    ) -> Any:
        bx = _host(boxes, self.name).astype(np.float32)
        sc = _host(scores, self.name).astype(np.float32)
        per_class = int(_scalar(max_output_size_per_class, self.name))
        total = int(_scalar(max_total_size, self.name))
        iou_t = float(_scalar(iou_threshold, self.name))
        score_t = float(_scalar(score_threshold, self.name))
        batch, _, q, _ = bx.shape
        classes = sc.shape[2]
        k = min(total, per_class * classes) if self.pad_per_class else total
        out_b = np.zeros((batch, k, 4), np.float32)
        out_s = np.zeros((batch, k), np.float32)
        out_c = np.zeros((batch, k), np.float32)
        valid = np.zeros((batch,), np.int32)
        for b in range(batch):
            found = []
            for c in range(classes):
                cb = bx[b, :, 0 if q == 1 else c].astype(np.float64)
                keep = _greedy_nms(sc[b, :, c], lambda i, rest, cb=cb: _iou(cb, i, rest), per_class, iou_t, score_t)
                found += [(sc[b, i, c], c, cb[i]) for i in keep]
            found.sort(key=lambda e: -e[0])
            found = found[:k]
            valid[b] = len(found)
            for m, (s, c, box) in enumerate(found):
                out_b[b, m] = np.clip(box, 0, 1) if self.clip_boxes else box
                out_s[b, m], out_c[b, m] = s, c
        return tuple(wrap(jnp.asarray(a)) for a in (out_b, out_s, out_c, valid))


class ComputeAccidentalHits(Primitive):
    """``ComputeAccidentalHits(num_true=1)(true_classes, sampled_candidates)``: the positions where a sampled
    candidate is one of the row's true classes: ``(indices (row), ids (candidate position), weights
    (-FLOAT_MAX))``, ordered by row, then true class, then candidate.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> tc = ms.Tensor(np.array([[1, 2], [0, 4]], np.int64))
        >>> cand = ms.Tensor(np.array([0, 1, 2, 3], np.int64))
        >>> [t.asnumpy().tolist() for t in ms.ops.ComputeAccidentalHits(2)(tc, cand)[:2]]
        [[0, 0, 1], [1, 2, 0]]
    """

    def __init__(self, num_true: int = 1) -> None:
        super().__init__()
        validator.check_value_type("num_true", num_true, [int], self.name)
        validator.check_number("num_true", num_true, 1, validator.GE, self.name)
        self.num_true = num_true
        self.attrs.update(num_true=num_true)

    def __call__(self, true_classes: Any, sampled_candidates: Any) -> Any:
        tc = _host(true_classes, self.name)
        cand = _host(sampled_candidates, self.name).reshape(-1)
        if tc.ndim != 2 or tc.shape[1] != self.num_true:
            raise ValueError(
                f"For '{self.name}', the shape of 'true_classes' must be (batch, {self.num_true}), but got {tc.shape}."
            )
        where: dict[int, list[int]] = {}
        for j, v in enumerate(cand.tolist()):
            where.setdefault(v, []).append(j)
        rows, ids = [], []
        for i in range(tc.shape[0]):
            for label in tc[i].tolist():
                for j in where.get(label, []):
                    rows.append(i)
                    ids.append(j)
        dt = mstype.to_np(mstype.from_np(tc.dtype))
        return (
            wrap(jnp.asarray(np.asarray(rows, np.int32))),
            wrap(jnp.asarray(np.asarray(ids, dt))),
            wrap(jnp.asarray(np.full(len(rows), -_FLOAT_MAX, np.float32))),
        )
