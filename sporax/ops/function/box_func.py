"""Box and sampling-grid ops (``mindspore.ops`` functional): ``iou``, ``rotated_iou``, the ``NMSWithMask``
kernel and ``multi_scale_deformable_attn_function``. Each runs as one compiled kernel where its sizes allow."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..._engine import jax, jnp, lax
from ...common.tensor import Tensor
from .._utils import as_tensor_array, float_result, wrap

__all__ = ["iou", "rotated_iou", "multi_scale_deformable_attn_function"]


def iou(anchor_boxes: Any, gt_boxes: Any, mode: str = "iou") -> Tensor:
    """Intersection over union (``'iou'``) or over the ground-truth box (``'iof'``) of ``(x0, y0, x1, y1)``
    boxes with MindSpore's pixel convention (a box spans ``x1 - x0 + 1`` pixels): shape ``(M, N)`` for
    ``M`` ground-truth and ``N`` anchor boxes."""
    if mode not in ("iou", "iof"):
        raise KeyError(f"For 'iou', only 'iou' or 'iof' are supported, but got '{mode}'.")
    a = float_result(as_tensor_array(anchor_boxes))[:, :4]
    g = float_result(as_tensor_array(gt_boxes))[:, :4].astype(a.dtype)
    lt = jnp.maximum(g[:, None, :2], a[None, :, :2])
    rb = jnp.minimum(g[:, None, 2:], a[None, :, 2:])
    wh = jnp.maximum(rb - lt + 1, 0)
    inter = wh[..., 0] * wh[..., 1]
    area_a = (a[:, 2] - a[:, 0] + 1) * (a[:, 3] - a[:, 1] + 1)
    area_g = (g[:, 2] - g[:, 0] + 1) * (g[:, 3] - g[:, 1] + 1)
    denom = (
        area_g[:, None] + area_a[None, :] - inter if mode == "iou" else jnp.broadcast_to(area_g[:, None], inter.shape)
    )
    return wrap(inter / denom)


def _nms_with_mask(bboxes: Any, iou_threshold: float) -> tuple[Tensor, Tensor, Tensor]:
    """``NMSWithMask``: boxes ``(N, 5)`` = ``(x1, y1, x2, y2, score)`` sorted by score (descending), their
    indices in the input, and whether each survives greedy non-maximum suppression (IoU above
    ``iou_threshold`` with a kept, higher-scoring box suppresses)."""
    b = as_tensor_array(bboxes)
    if b.ndim != 2 or b.shape[1] != 5:
        raise ValueError(f"For 'NMSWithMask', the 'bboxes' must be (N, 5), but got {tuple(b.shape)}.")
    boxes, indices, mask = _nms_kernel(b, float(iou_threshold))
    return wrap(boxes), wrap(indices), wrap(mask)


@functools.partial(jax.jit, static_argnums=(1,))
def _nms_kernel(b: Any, iou_threshold: float) -> Any:
    order = jnp.argsort(-b[:, 4], stable=True)
    s = b[order]
    lt = jnp.maximum(s[:, None, :2], s[None, :, :2])
    rb = jnp.minimum(s[:, None, 2:4], s[None, :, 2:4])
    wh = jnp.maximum(rb - lt, 0)
    inter = wh[..., 0] * wh[..., 1]
    area = (s[:, 2] - s[:, 0]) * (s[:, 3] - s[:, 1])
    over = inter / jnp.maximum(area[:, None] + area[None, :] - inter, 1e-12) > iou_threshold
    n = s.shape[0]

    def body(i: Any, keep: Any) -> Any:
        earlier = jnp.arange(n) < i
        return keep.at[i].set(~jnp.any(keep & earlier & over[:, i]))

    keep = lax.fori_loop(0, n, body, jnp.zeros((n,), bool))
    return s, order.astype(jnp.int32), keep


def _bilinear_zero_pad(img: Any, x: Any, y: Any) -> Any:
    """Sample ``img`` ``(N, H, W, D)`` at pixel coordinates ``x``/``y`` ``(N, Q)`` bilinearly, zero outside."""
    n, h, w, _ = img.shape
    x0, y0 = jnp.floor(x), jnp.floor(y)
    out = 0
    batch = jnp.arange(n)[:, None]
    for dx in (0, 1):
        for dy in (0, 1):
            xi, yi = x0 + dx, y0 + dy
            wgt = (1 - jnp.abs(x - xi)) * (1 - jnp.abs(y - yi))
            inside = (xi >= 0) & (xi <= w - 1) & (yi >= 0) & (yi <= h - 1)
            xc = jnp.clip(xi, 0, w - 1).astype(jnp.int32)
            yc = jnp.clip(yi, 0, h - 1).astype(jnp.int32)
            out = out + img[batch, yc, xc] * jnp.where(inside, wgt, 0)[..., None].astype(img.dtype)
    return out


def multi_scale_deformable_attn_function(value: Any, shape: Any, offset: Any, locations: Any, weight: Any) -> Tensor:
    """Multi-scale deformable attention (Deformable DETR): for each query, head, level and point, ``value``'s
    level map sampled bilinearly at ``locations`` (normalised ``(x, y)`` in ``[0, 1]``, zero outside, pixel
    centres at ``(i + 0.5) / size``), weighted by ``weight`` and summed: ``(bs, num_queries, num_heads * embed_dims)``.

    ``value`` is ``(bs, num_keys, num_heads, embed_dims)``, the levels' ``(H, W)`` in ``shape`` and their first
    key in ``offset``. (MindSpore runs this on Ascend only; sporax everywhere.)"""
    v = as_tensor_array(value)
    loc = as_tensor_array(locations).astype(v.dtype)
    wts = as_tensor_array(weight).astype(v.dtype)
    sizes = np.asarray(shape.asnumpy() if isinstance(shape, Tensor) else shape).reshape(-1, 2)
    starts = np.asarray(offset.asnumpy() if isinstance(offset, Tensor) else offset).reshape(-1)
    levels = loc.shape[3]
    if sizes.shape[0] != levels or starts.shape[0] != levels:
        raise ValueError(
            f"For 'multi_scale_deformable_attn_function', 'shape' and 'offset' must describe {levels} levels, "
            f"but got {sizes.shape[0]} and {starts.shape[0]}."
        )
    levels_hw = tuple((int(h), int(w), int(st)) for (h, w), st in zip(sizes, starts, strict=True))
    return wrap(_msda_kernel(v, loc, wts, levels_hw))


@functools.partial(jax.jit, static_argnums=(3,))
def _msda_kernel(v: Any, loc: Any, wts: Any, levels_hw: Any) -> Any:
    bs, _, heads, dims = v.shape
    _, nq, _, _, points, _ = loc.shape
    out = jnp.zeros((bs, heads, nq, dims), v.dtype)
    for lvl, (h, w, s) in enumerate(levels_hw):
        img = (
            v[:, s : s + h * w].reshape(bs, h, w, heads, dims).transpose(0, 3, 1, 2, 4).reshape(bs * heads, h, w, dims)
        )
        pts = loc[:, :, :, lvl].transpose(0, 2, 1, 3, 4).reshape(bs * heads, nq * points, 2)
        x = pts[..., 0] * w - 0.5
        y = pts[..., 1] * h - 0.5
        sampled = _bilinear_zero_pad(img, x, y).reshape(bs, heads, nq, points, dims)
        wl = wts[:, :, :, lvl].transpose(0, 2, 1, 3)[..., None]
        out = out + jnp.sum(sampled * wl, axis=3)
    return out.transpose(0, 2, 1, 3).reshape(bs, nq, heads * dims)


def rotated_iou(
    boxes: Any,
    query_boxes: Any,
    trans: bool = False,
    mode: int = 0,
    is_cross: bool = True,
    v_threshold: float = 0.0,
    e_threshold: float = 0.0,
) -> Tensor:
    """IoU (``mode`` 0) or IoF (``mode`` 1: over the area of ``boxes``) of rotated rectangles ``(B, N, 5)`` and
    ``(B, K, 5)``: ``(cx, cy, w, h, angle)`` (``(x1, y1, x2, y2, angle)`` with ``trans``), the angle in
    degrees; ``(B, N, K)``, or ``(B, N)`` pairing ``boxes[i]`` with ``query_boxes[i]`` when not ``is_cross``.
    ``v_threshold``/``e_threshold`` widen the vertex-inside and edge-crossing tests."""
    if not isinstance(boxes, Tensor) or not isinstance(query_boxes, Tensor):
        raise TypeError("For 'rotated_iou', 'boxes' and 'query_boxes' must be Tensors.")
    a, b = as_tensor_array(boxes), as_tensor_array(query_boxes)
    if a.ndim != 3 or b.ndim != 3 or a.shape[0] != b.shape[0]:
        raise ValueError("For 'rotated_iou', 'boxes' and 'query_boxes' must be 3-D with the same first dim.")
    if a.shape[2] != 5 or b.shape[2] != 5:
        raise ValueError("For 'rotated_iou', the third dimension of 'boxes' and 'query_boxes' must be 5.")
    dt = jnp.promote_types(float_result(a).dtype, jnp.float32)
    out = _rotated_iou_kernel(
        a.astype(dt), b.astype(dt), bool(trans), int(mode), bool(is_cross), float(v_threshold), float(e_threshold)
    )
    return wrap(out.astype(float_result(a).dtype))


def _corners(box: Any, trans: bool) -> Any:
    if trans:
        cx, cy = (box[..., 0] + box[..., 2]) / 2, (box[..., 1] + box[..., 3]) / 2
        w, h = box[..., 2] - box[..., 0], box[..., 3] - box[..., 1]
    else:
        cx, cy, w, h = box[..., 0], box[..., 1], box[..., 2], box[..., 3]
    t = jnp.deg2rad(box[..., 4])
    c, s = jnp.cos(t), jnp.sin(t)
    dx = jnp.stack([w, -w, -w, w], -1) / 2
    dy = jnp.stack([h, h, -h, -h], -1) / 2
    return jnp.stack(
        [cx[..., None] + dx * c[..., None] - dy * s[..., None], cy[..., None] + dx * s[..., None] + dy * c[..., None]],
        -1,
    )


def _cross(o: Any, p: Any, q: Any) -> Any:
    return (p[..., 0] - o[..., 0]) * (q[..., 1] - o[..., 1]) - (p[..., 1] - o[..., 1]) * (q[..., 0] - o[..., 0])


def _inside(points: Any, poly: Any, tol: float) -> Any:
    """Whether each of ``points`` (..., P, 2) lies in the convex counter-clockwise ``poly`` (..., 4, 2)."""
    nxt = jnp.roll(poly, -1, axis=-2)
    c = _cross(poly[..., None, :, :], nxt[..., None, :, :], points[..., :, None, :])
    return jnp.all(c >= -tol, axis=-1)


def _intersection_area(pa: Any, pb: Any, vt: float, et: float) -> Any:
    """The overlap area of convex quadrilaterals ``pa``/``pb`` (..., 4, 2): the candidate vertices (corners
    inside the other, edge crossings) sorted by angle about their centre, then the shoelace formula."""
    a0, a1 = pa, jnp.roll(pa, -1, axis=-2)
    b0, b1 = pb, jnp.roll(pb, -1, axis=-2)
    da, db = (a1 - a0)[..., :, None, :], (b1 - b0)[..., None, :, :]
    diff = b0[..., None, :, :] - a0[..., :, None, :]
    den = da[..., 0] * db[..., 1] - da[..., 1] * db[..., 0]
    safe = jnp.where(jnp.abs(den) < 1e-12, 1.0, den)
    t = (diff[..., 0] * db[..., 1] - diff[..., 1] * db[..., 0]) / safe
    u = (diff[..., 0] * da[..., 1] - diff[..., 1] * da[..., 0]) / safe
    hit = (jnp.abs(den) >= 1e-12) & (t >= -et) & (t <= 1 + et) & (u >= -et) & (u <= 1 + et)
    cross_pts = (a0[..., :, None, :] + t[..., None] * da).reshape(*pa.shape[:-2], 16, 2)
    pts = jnp.concatenate([pa, pb, cross_pts], axis=-2)
    valid = jnp.concatenate([_inside(pa, pb, vt), _inside(pb, pa, vt), hit.reshape(*pa.shape[:-2], 16)], axis=-1)
    count = jnp.sum(valid, axis=-1, keepdims=True)
    centre = jnp.sum(jnp.where(valid[..., None], pts, 0), axis=-2) / jnp.maximum(count, 1)
    ang = jnp.arctan2(pts[..., 1] - centre[..., None, 1], pts[..., 0] - centre[..., None, 0])
    order = jnp.argsort(jnp.where(valid, ang, jnp.inf), axis=-1)
    sp = jnp.take_along_axis(pts, order[..., None], axis=-2)
    sv = jnp.take_along_axis(valid, order, axis=-1)
    sp = jnp.where(sv[..., None], sp, sp[..., :1, :])
    nxt = jnp.roll(sp, -1, axis=-2)
    area = 0.5 * jnp.abs(jnp.sum(sp[..., 0] * nxt[..., 1] - sp[..., 1] * nxt[..., 0], axis=-1))
    return jnp.where(count[..., 0] >= 3, area, 0.0)


@functools.partial(jax.jit, static_argnums=(2, 3, 4, 5, 6))
def _rotated_iou_kernel(a: Any, b: Any, trans: bool, mode: int, is_cross: bool, vt: float, et: float) -> Any:
    pa, pb = _corners(a, trans), _corners(b, trans)

    def area(box: Any) -> Any:
        return jnp.abs(
            0.5 * jnp.sum(box[..., 0] * jnp.roll(box[..., 1], -1, -1) - box[..., 1] * jnp.roll(box[..., 0], -1, -1), -1)
        )

    if is_cross:
        pa, pb = jnp.broadcast_arrays(pa[:, :, None], pb[:, None, :])
    inter = _intersection_area(pa, pb, vt, et)
    area_a, area_b = area(pa), area(pb)
    denom = area_a if mode == 1 else area_a + area_b - inter
    return inter / jnp.maximum(denom, 1e-12)
