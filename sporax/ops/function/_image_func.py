"""Image ops with MindSpore's semantics: local response normalisation, box encoding, crop-and-resize, grid
sampling, colour-space conversions and hue/saturation adjustment, fractional max-pooling.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jnp, lax
from ...common.tensor import Tensor
from .._utils import as_tensor_array, wrap
from ._conv_pool import _dtype_name

__all__ = [
    "lrn",
    "bounding_box_encode",
    "bounding_box_decode",
    "crop_and_resize",
    "grid_sample",
    "fractional_max_pool2d",
    "fractional_max_pool3d",
    "deformable_conv2d",
]


def _float_input(x: Any, name: str, op: str) -> Any:
    a = as_tensor_array(x)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For '{op}', the dtype of '{name}' must be float, but got {_dtype_name(a)}.")
    return a


# ------------------------------------------------------------------------- LRN
def lrn(
    x: Any,
    depth_radius: int = 5,
    bias: float = 1.0,
    alpha: float = 1.0,
    beta: float = 0.5,
    norm_region: str = "ACROSS_CHANNELS",
) -> Tensor:
    """Local response normalisation over channels (NCHW): ``x / (bias + alpha * sum(x[c-r..c+r] ** 2)) **
    beta`` (TF's form: ``alpha`` is not divided by the window size)."""
    validator.check_int_at_least(depth_radius, 0, "depth_radius", "LRN")
    for name, v in (("bias", bias), ("alpha", alpha), ("beta", beta)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"For 'LRN', the type of '{name}' should be 'float', but got '{type(v).__name__}'.")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For 'LRN', the 'norm_region' must be 'ACROSS_CHANNELS', but got '{norm_region}'.")
    a = _float_input(x, "x", "LRN")
    validator.check_ndim(a.ndim, 4, "x", "LRN")
    sq = jnp.square(a)
    window = (1, 2 * depth_radius + 1, 1, 1)
    pads = [(0, 0), (depth_radius, depth_radius), (0, 0), (0, 0)]
    ssum = lax.reduce_window(sq, np.array(0, a.dtype), lax.add, window, (1, 1, 1, 1), pads)
    return wrap(a * jnp.power(bias + alpha * ssum, -beta).astype(a.dtype))


# ------------------------------------------------------------------------ boxes
def _four(v: Any, name: str, op: str) -> np.ndarray:
    if not isinstance(v, (tuple, list)) or len(v) != 4:
        raise ValueError(f"For '{op}', the '{name}' must be a tuple or list of 4 numbers, but got {v}.")
    return np.asarray(v, np.float32)


def bounding_box_encode(
    anchor_box: Any, groundtruth_box: Any, means: Any = (0.0, 0.0, 0.0, 0.0), stds: Any = (1.0, 1.0, 1.0, 1.0)
) -> Tensor:
    """Deltas (dx, dy, dw, dh) of ``groundtruth_box`` against ``anchor_box`` (both (N, 4) [x1, y1, x2,
    y2], widths ``x2 - x1 + 1``), normalised by ``means`` and ``stds``."""
    m, s = _four(means, "means", "BoundingBoxEncode"), _four(stds, "stds", "BoundingBoxEncode")
    a, g = as_tensor_array(anchor_box), as_tensor_array(groundtruth_box)
    if a.ndim != 2 or a.shape[-1] != 4 or g.shape != a.shape:
        raise ValueError(
            f"For 'BoundingBoxEncode', 'anchor_box' and 'groundtruth_box' must both be (N, 4), but got "
            f"{tuple(a.shape)} and {tuple(g.shape)}."
        )
    pw, ph = a[:, 2] - a[:, 0] + 1.0, a[:, 3] - a[:, 1] + 1.0
    px, py = a[:, 0] + 0.5 * (pw - 1.0), a[:, 1] + 0.5 * (ph - 1.0)
    gw, gh = g[:, 2] - g[:, 0] + 1.0, g[:, 3] - g[:, 1] + 1.0
    gx, gy = g[:, 0] + 0.5 * (gw - 1.0), g[:, 1] + 0.5 * (gh - 1.0)
    d = jnp.stack([(gx - px) / pw, (gy - py) / ph, jnp.log(gw / pw), jnp.log(gh / ph)], axis=-1)
    return wrap(((d - m) / s).astype(a.dtype))


def bounding_box_decode(
    anchor_box: Any,
    deltas: Any,
    max_shape: Any,
    means: Any = (0.0, 0.0, 0.0, 0.0),
    stds: Any = (1.0, 1.0, 1.0, 1.0),
    wh_ratio_clip: float = 0.016,
) -> Tensor:
    """Boxes [x1, y1, x2, y2] from ``anchor_box`` and ``deltas`` (the inverse of ``bounding_box_encode``),
    log-size deltas clipped to ``|log(wh_ratio_clip)|``, coordinates clipped to ``max_shape`` (h, w)."""
    m, s = _four(means, "means", "BoundingBoxDecode"), _four(stds, "stds", "BoundingBoxDecode")
    if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2:
        raise ValueError(f"For 'BoundingBoxDecode', the 'max_shape' must be a tuple of 2 ints, but got {max_shape}.")
    if isinstance(wh_ratio_clip, bool) or not isinstance(wh_ratio_clip, (int, float)):
        raise TypeError(
            f"For 'BoundingBoxDecode', the type of 'wh_ratio_clip' should be 'float', but got "
            f"'{type(wh_ratio_clip).__name__}'."
        )
    a, d = as_tensor_array(anchor_box), as_tensor_array(deltas)
    if a.ndim != 2 or a.shape[-1] != 4 or d.shape != a.shape:
        raise ValueError(
            f"For 'BoundingBoxDecode', 'anchor_box' and 'deltas' must both be (N, 4), but got {tuple(a.shape)} and "
            f"{tuple(d.shape)}."
        )
    d = d * s + m
    clip = abs(math.log(wh_ratio_clip))
    dw, dh = jnp.clip(d[:, 2], -clip, clip), jnp.clip(d[:, 3], -clip, clip)
    pw, ph = a[:, 2] - a[:, 0] + 1.0, a[:, 3] - a[:, 1] + 1.0
    px, py = a[:, 0] + 0.5 * (pw - 1.0), a[:, 1] + 0.5 * (ph - 1.0)
    gx, gy = px + d[:, 0] * pw, py + d[:, 1] * ph
    gw, gh = pw * jnp.exp(dw), ph * jnp.exp(dh)
    h, w = float(max_shape[0]), float(max_shape[1])
    x1 = jnp.clip(gx - 0.5 * gw + 0.5, 0.0, w)
    y1 = jnp.clip(gy - 0.5 * gh + 0.5, 0.0, h)
    x2 = jnp.clip(gx + 0.5 * gw - 0.5, 0.0, w)
    y2 = jnp.clip(gy + 0.5 * gh - 0.5, 0.0, h)
    return wrap(jnp.stack([x1, y1, x2, y2], axis=-1).astype(a.dtype))


# -------------------------------------------------------------- crop and resize
def crop_and_resize(
    image: Any, boxes: Any, box_indices: Any, crop_size: Any, method: str = "bilinear", extrapolation_value: float = 0.0
) -> Tensor:
    """TF's crop-and-resize of an NHWC ``image``: one (crop_h, crop_w) crop per box (normalised [y1, x1, y2,
    x2], of image ``box_indices[i]``), sampled bilinearly or by nearest; outside the image
    ``extrapolation_value``. Result (num_boxes, crop_h, crop_w, depth), float32."""
    validator.check_choice(method, ("bilinear", "nearest", "bilinear_v2"), "method", "CropAndResize")
    img, bx, bi = as_tensor_array(image), as_tensor_array(boxes), as_tensor_array(box_indices)
    validator.check_ndim(img.ndim, 4, "image", "CropAndResize")
    if bx.ndim != 2 or bx.shape[1] != 4 or bi.shape != (bx.shape[0],):
        raise ValueError(
            f"For 'CropAndResize', 'boxes' must be (num_boxes, 4) and 'box_indices' (num_boxes,), but got "
            f"{tuple(bx.shape)} and {tuple(bi.shape)}."
        )
    ch, cw = (int(v) for v in crop_size)
    if ch <= 0 or cw <= 0:
        raise ValueError(f"For 'CropAndResize', the 'crop_size' must be positive, but got {crop_size}.")
    _, h, w, _ = img.shape
    x = img.astype(jnp.float32)
    bx = bx.astype(jnp.float32)

    def coords(lo: Any, hi: Any, n_out: int, size: int) -> Any:
        i = jnp.arange(n_out, dtype=jnp.float32)
        if n_out > 1:
            return lo[:, None] * (size - 1) + i[None] * ((hi - lo)[:, None] * (size - 1) / (n_out - 1))
        return jnp.broadcast_to((0.5 * (lo + hi) * (size - 1))[:, None], (lo.shape[0], 1))

    ys = coords(bx[:, 0], bx[:, 2], ch, h)  # [B, ch]
    xs = coords(bx[:, 1], bx[:, 3], cw, w)  # [B, cw]
    valid = ((ys >= 0) & (ys <= h - 1))[:, :, None] & ((xs >= 0) & (xs <= w - 1))[:, None, :]
    imgs = x[bi.astype(jnp.int32)]  # [B, h, w, d]
    bidx = jnp.arange(bx.shape[0])[:, None, None]
    if method == "nearest":
        yi = jnp.clip(jnp.floor(ys + 0.5), 0, h - 1).astype(jnp.int32)  # roundf: halves away from zero
        xi = jnp.clip(jnp.floor(xs + 0.5), 0, w - 1).astype(jnp.int32)
        out = imgs[bidx, yi[:, :, None], xi[:, None, :]]
    else:
        y0 = jnp.clip(jnp.floor(ys), 0, h - 1)
        x0 = jnp.clip(jnp.floor(xs), 0, w - 1)
        y1, x1 = jnp.clip(jnp.ceil(ys), 0, h - 1), jnp.clip(jnp.ceil(xs), 0, w - 1)
        ly, lx = (ys - jnp.floor(ys))[:, :, None, None], (xs - jnp.floor(xs))[:, None, :, None]
        y0i, y1i, x0i, x1i = (v.astype(jnp.int32) for v in (y0, y1, x0, x1))
        tl = imgs[bidx, y0i[:, :, None], x0i[:, None, :]]
        tr = imgs[bidx, y0i[:, :, None], x1i[:, None, :]]
        bl = imgs[bidx, y1i[:, :, None], x0i[:, None, :]]
        br = imgs[bidx, y1i[:, :, None], x1i[:, None, :]]
        top = tl + (tr - tl) * lx
        bottom = bl + (br - bl) * lx
        out = top + (bottom - top) * ly
    return wrap(jnp.where(valid[..., None], out, jnp.float32(extrapolation_value)))


# ------------------------------------------------------------------ grid sample
def _unnormalize(coord: Any, size: int, align_corners: bool) -> Any:
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord: Any, size: int, align_corners: bool) -> Any:
    """Coordinates reflected at the border (the corner centres with ``align_corners``, else the edges)."""
    lo, hi = (0.0, float(size - 1)) if align_corners else (-0.5, size - 0.5)
    span = hi - lo
    if span <= 0:
        return jnp.zeros_like(coord)
    c = jnp.abs(coord - lo)
    extra = jnp.mod(c, span)
    flips = jnp.floor(c / span)
    c = jnp.where(jnp.mod(flips, 2) == 0, extra + lo, span - extra + lo)
    return jnp.clip(c, 0, size - 1)


def grid_sample(
    input: Any, grid: Any, mode: str = "bilinear", padding_mode: str = "zeros", align_corners: Any = None
) -> Tensor:
    """Sample NCHW (or NCDHW) ``input`` at the normalised coordinates of ``grid`` (N, H_out, W_out, 2) (or
    (N, D_out, H_out, W_out, 3)), x first; ``mode`` 'bilinear' or 'nearest'; ``padding_mode`` 'zeros',
    'border' or 'reflection'; ``align_corners``: -1 and 1 are the corner pixels' centres."""
    validator.check_choice(mode, ("bilinear", "nearest"), "mode", "grid_sample")
    validator.check_choice(padding_mode, ("zeros", "border", "reflection"), "padding_mode", "grid_sample")
    x, g = _float_input(input, "input", "grid_sample"), as_tensor_array(grid)
    nsp = x.ndim - 2
    if nsp not in (2, 3) or g.ndim != x.ndim or g.shape[-1] != nsp or g.shape[0] != x.shape[0]:
        raise ValueError(
            f"For 'grid_sample', 'input' must be 4-D or 5-D and 'grid' (N, ..., {nsp}) of the same rank, but got "
            f"{tuple(x.shape)} and {tuple(g.shape)}."
        )
    ac = bool(align_corners)
    sizes = x.shape[2:]  # (H, W) or (D, H, W)
    # grid's last axis is (x, y[, z]): reversed against the spatial axes
    pos = [_unnormalize(g[..., nsp - 1 - i].astype(x.dtype), sizes[i], ac) for i in range(nsp)]
    if padding_mode == "border":
        pos = [jnp.clip(p, 0, sizes[i] - 1) for i, p in enumerate(pos)]
    elif padding_mode == "reflection":
        pos = [_reflect(p, sizes[i], ac) for i, p in enumerate(pos)]
    n, c = x.shape[:2]
    flat = x.reshape(n, c, -1)
    out_shape = g.shape[1:-1]
    strides = [int(np.prod(sizes[i + 1 :])) for i in range(nsp)]

    def gather(idx: list[Any]) -> tuple[Any, Any]:
        ok = jnp.ones(idx[0].shape, bool)
        lin = jnp.zeros(idx[0].shape, jnp.int32)
        for i in range(nsp):
            ok = ok & (idx[i] >= 0) & (idx[i] <= sizes[i] - 1)
            lin = lin + jnp.clip(idx[i], 0, sizes[i] - 1).astype(jnp.int32) * strides[i]
        vals = jnp.take_along_axis(flat, lin.reshape(n, 1, -1), axis=2).reshape(n, c, *out_shape)
        return vals, ok.reshape(n, 1, *out_shape)

    if mode == "nearest":
        vals, ok = gather([jnp.round(p) for p in pos])
        return wrap(jnp.where(ok, vals, jnp.zeros((), x.dtype)))
    base = [jnp.floor(p) for p in pos]
    frac = [p - b for p, b in zip(pos, base)]
    out = jnp.zeros((n, c, *out_shape), x.dtype)
    for corner in np.ndindex(*(2,) * nsp):
        idx = [base[i] + corner[i] for i in range(nsp)]
        wgt = jnp.ones(pos[0].shape, x.dtype)
        for i in range(nsp):
            wgt = wgt * (frac[i] if corner[i] else 1 - frac[i])
        vals, ok = gather(idx)
        out = out + jnp.where(ok, vals, jnp.zeros((), x.dtype)) * wgt[:, None]
    return wrap(out)


# ------------------------------------------------------------ fractional max-pool
def _fractional_starts(n_in: int, n_out: int, k: int, u: Any) -> Any:
    """Window starts of a fractional max-pool: ``floor((i + u) * a) - floor(u * a)`` with ``a = (in - k) /
    (out - 1)``, the last window ending at the input's end (``u``: [...], in [0, 1))."""
    if n_out == 1:
        return jnp.full((*u.shape, 1), n_in - k, jnp.int32)
    alpha = (n_in - k) / (n_out - 1)
    i = jnp.arange(n_out - 1, dtype=u.dtype)
    starts = jnp.floor((i + u[..., None]) * alpha) - jnp.floor(u[..., None] * alpha)
    last = jnp.full((*u.shape, 1), n_in - k, u.dtype)
    return jnp.concatenate([starts, last], axis=-1).astype(jnp.int32)


def fractional_max_nd(x: Any, k: tuple, out: tuple, samples: Any) -> tuple[Any, Any]:
    """Fractional max-pool of (N, C, *sp) ``x`` with windows ``k`` to ``out``; ``samples`` (N, C, nsp) gives
    each plane's offsets (the last axis ordered w, h[, d], as PyTorch's). Returns values and flat indices."""
    nsp = len(k)
    n, c = x.shape[:2]
    sp = x.shape[2:]
    flat = x.reshape(n, c, -1)
    lin = jnp.zeros((n, c, *out, *k), jnp.int32)
    strides = [int(np.prod(sp[i + 1 :])) for i in range(nsp)]
    for i in range(nsp):
        starts = _fractional_starts(sp[i], out[i], k[i], samples[:, :, nsp - 1 - i])  # [N, C, out_i]
        pos = starts[..., :, None] + jnp.arange(k[i], dtype=jnp.int32)  # [N, C, out_i, k_i]
        shape = [n, c] + [1] * (2 * nsp)
        shape[2 + i], shape[2 + nsp + i] = out[i], k[i]
        lin = lin + pos.reshape(shape) * strides[i]
    lin = lin.reshape(n, c, -1)
    win = jnp.take_along_axis(flat, lin, axis=2).reshape(n, c, int(np.prod(out)), int(np.prod(k)))
    arg = jnp.argmax(win, axis=-1)
    vals = jnp.max(win, axis=-1).reshape(n, c, *out)
    idx = jnp.take_along_axis(lin.reshape(win.shape), arg[..., None], axis=-1)[..., 0].reshape(n, c, *out)
    return vals, idx.astype(jnp.int64)


def _fractional(
    input: Any,
    kernel_size: Any,
    output_size: Any,
    output_ratio: Any,
    return_indices: bool,
    _random_samples: Any,
    nsp: int,
    op: str,
) -> Any:
    from ...common import dtype as mstype
    from ..function.random_func import rand
    from ._conv_pool import tuple_n

    x = _float_input(input, "input", op)
    if x.ndim not in (nsp + 1, nsp + 2):
        raise ValueError(f"For '{op}', the dimension of 'input' must be {nsp + 1} or {nsp + 2}, but got {x.ndim}.")
    squeeze = x.ndim == nsp + 1
    if squeeze:
        x = x[None]
    k = tuple_n(kernel_size, nsp, "kernel_size", op)
    sp = x.shape[2:]
    if (output_size is None) == (output_ratio is None):
        raise ValueError(
            f"For {op}, 'output_size' and 'output_ratio' can not be None or be specified at the same time."
        )
    if output_size is not None:
        out = tuple_n(output_size, nsp, "output_size", op)
    else:
        ratio = (output_ratio,) * nsp if isinstance(output_ratio, (int, float)) else tuple(output_ratio)
        if len(ratio) != nsp or any(not 0 < r < 1 for r in ratio):
            raise ValueError(f"For {op}, the 'output_ratio' must be in (0, 1), but got {output_ratio}.")
        out = tuple(int(sp[i] * ratio[i]) for i in range(nsp))
    for i in range(nsp):
        if out[i] + k[i] - 1 > sp[i]:
            raise ValueError(
                f"For {op}, the 'output_size' {out} plus 'kernel_size' {k} minus 1 must not exceed the input "
                f"spatial shape {tuple(sp)}."
            )
    if _random_samples is None:
        samples = rand(x.shape[0], x.shape[1], nsp, dtype=mstype.from_np(x.dtype))._data
    else:
        samples = as_tensor_array(_random_samples).astype(x.dtype)
        if samples.shape != (x.shape[0], x.shape[1], nsp):
            raise ValueError(
                f"For {op}, the shape of '_random_samples' must be {(x.shape[0], x.shape[1], nsp)}, but got "
                f"{tuple(samples.shape)}."
            )
    vals, idx = fractional_max_nd(x, k, out, samples)
    if squeeze:
        vals, idx = vals[0], idx[0]
    return (wrap(vals), wrap(idx)) if return_indices else wrap(vals)


def fractional_max_pool2d(
    input: Any,
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: bool = False,
    _random_samples: Any = None,
) -> Any:
    """Fractional max-pooling of a (N, C, H, W) or (C, H, W) input (Graham's pseudo-random windows of size
    ``kernel_size``) to ``output_size`` or ``output_ratio`` * the input size; ``_random_samples`` (N, C, 2)
    in [0, 1) fixes the windows (random otherwise, from the framework seed)."""
    return _fractional(
        input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 2, "fractional_max_pool2d"
    )


def fractional_max_pool3d(
    input: Any,
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: bool = False,
    _random_samples: Any = None,
) -> Any:
    """Fractional max-pooling of a (N, C, D, H, W) or (C, D, H, W) input (``_random_samples``: (N, C, 3))."""
    return _fractional(
        input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 3, "fractional_max_pool3d"
    )


# ---------------------------------------------------------------------- colour
def rgb_to_hsv_array(a: Any) -> Any:
    """HSV (hue in [0, 1)) of RGB in the last axis (TF's formulas)."""
    r, g, b = a[..., 0], a[..., 1], a[..., 2]
    v = jnp.maximum(jnp.maximum(r, g), b)
    mn = jnp.minimum(jnp.minimum(r, g), b)
    rng = v - mn
    s = jnp.where(v > 0, rng / jnp.where(v > 0, v, 1), 0)
    safe = jnp.where(rng > 0, rng, 1)
    h = jnp.where(v == r, (g - b) / safe, jnp.where(v == g, 2 + (b - r) / safe, 4 + (r - g) / safe)) / 6
    h = jnp.where(rng > 0, h, 0)
    h = jnp.where(h < 0, h + 1, h)
    return jnp.stack([h, s, v], axis=-1)


def hsv_to_rgb_array(a: Any) -> Any:
    """RGB of HSV in the last axis (hue in [0, 1))."""
    h, s, v = a[..., 0], a[..., 1], a[..., 2]
    c = s * v
    m = v - c
    dh = h * 6
    x = c * (1 - jnp.abs(jnp.mod(dh, 2) - 1))
    sector = jnp.floor(dh).astype(jnp.int32) % 6
    zero = jnp.zeros_like(c)
    rs = jnp.select([sector == k for k in range(6)], [c, x, zero, zero, x, c])
    gs = jnp.select([sector == k for k in range(6)], [x, c, c, x, zero, zero])
    bs = jnp.select([sector == k for k in range(6)], [zero, zero, x, c, c, x])
    return jnp.stack([rs + m, gs + m, bs + m], axis=-1)


# ------------------------------------------------- TF fractional pooling (NHWC, sequences)
def _tf_pooling_sequence(n_in: int, n_out: int, pseudo_random: bool) -> Any:
    """A random pooling sequence of ``n_out + 1`` boundaries from 0 to ``n_in`` (TF's): steps of
    ``floor(a)`` or ``ceil(a)`` (a = in / out) in random order, or ``ceil(a * (i + u)) - ceil(a * u)``."""
    from ..function.random_func import rand

    alpha = n_in / n_out
    if pseudo_random:
        u = rand(1)._data[0].astype(jnp.float64)
        i = jnp.arange(n_out + 1, dtype=jnp.float64)
        seq = jnp.ceil(alpha * (i + u)) - jnp.ceil(alpha * u)
        return jnp.minimum(seq, n_in).at[-1].set(n_in).astype(jnp.int64)
    small = int(math.floor(alpha))
    n_big = n_in - small * n_out  # intervals of size small + 1
    steps = jnp.asarray([small + 1] * n_big + [small] * (n_out - n_big), jnp.int64)
    order = jnp.argsort(rand(n_out)._data)
    return jnp.concatenate([jnp.zeros((1,), jnp.int64), jnp.cumsum(steps[order])])


def fractional_pool_tf(
    value: Any, pooling_ratio: Any, kind: str, pseudo_random: bool, overlapping: bool, op: str
) -> tuple:
    """TF's FractionalMaxPool / FractionalAvgPool of NHWC ``value``: ``(output, row_pooling_sequence,
    col_pooling_sequence)``; output size ``floor(in / ratio)``; with ``overlapping`` each region also takes
    the next boundary's row/column."""
    x = as_tensor_array(value)
    validator.check_ndim(x.ndim, 4, "x", op)
    ratio = tuple(float(r) for r in pooling_ratio)
    if len(ratio) != 4 or ratio[0] != 1.0 or ratio[3] != 1.0 or ratio[1] < 1.0 or ratio[2] < 1.0:
        raise ValueError(
            f"For '{op}', the 'pooling_ratio' must be (1.0, row >= 1.0, col >= 1.0, 1.0), but got {pooling_ratio}."
        )
    _, h, w, _ = x.shape
    oh, ow = int(h / ratio[1]), int(w / ratio[2])
    if oh <= 0 or ow <= 0:
        raise ValueError(f"For '{op}', the output size ({oh}, {ow}) must be positive.")
    rows, cols = _tf_pooling_sequence(h, oh, pseudo_random), _tf_pooling_sequence(w, ow, pseudo_random)
    extra = 1 if overlapping else 0

    def masks(seq: Any, n_in: int) -> Any:
        r = jnp.arange(n_in)[None]
        return (r >= seq[:-1, None]) & (r < jnp.minimum(seq[1:, None] + extra, n_in))

    mr, mc = masks(rows, h), masks(cols, w)  # [oh, h], [ow, w]
    if kind == "max":
        neg = jnp.asarray(-jnp.inf if jnp.issubdtype(x.dtype, jnp.floating) else jnp.iinfo(x.dtype).min, x.dtype)
        t = jnp.max(jnp.where(mr[None, :, :, None, None], x[:, None], neg), axis=2)  # [N, oh, w, C]
        y = jnp.max(jnp.where(mc[None, None, :, :, None], t[:, :, None], neg), axis=3)
    else:
        fr, fc = mr.astype(x.dtype), mc.astype(x.dtype)
        y = jnp.einsum("ih,nhwc,jw->nijc", fr, x, fc) / (fr.sum(1)[:, None] * fc.sum(1)[None, :])[None, :, :, None]
    return wrap(y), wrap(rows), wrap(cols)


# ------------------------------------------------------------- deformable convolution
def _bilinear_zero(img: Any, py: Any, px: Any) -> Any:
    """Bilinear samples of ``img`` [N, C, H, W] at ``py``/``px`` [N, C, ...] (corners outside: zero)."""
    n, c, h, w = img.shape
    flat = img.reshape(n, c, h * w)
    y0, x0 = jnp.floor(py), jnp.floor(px)
    out = jnp.zeros(py.shape, img.dtype)
    for dy in (0, 1):
        for dx in (0, 1):
            yy, xx = y0 + dy, x0 + dx
            wgt = (1 - jnp.abs(py - yy)) * (1 - jnp.abs(px - xx))
            ok = (yy >= 0) & (yy <= h - 1) & (xx >= 0) & (xx <= w - 1)
            lin = (jnp.clip(yy, 0, h - 1) * w + jnp.clip(xx, 0, w - 1)).astype(jnp.int32)
            vals = jnp.take_along_axis(flat, lin.reshape(n, c, -1), axis=2).reshape(py.shape)
            out = out + jnp.where(ok, vals * wgt, jnp.zeros((), img.dtype))
    return out


def deformable_conv2d(
    x: Any,
    weight: Any,
    offsets: Any,
    kernel_size: Any,
    strides: Any,
    padding: Any,
    bias: Any = None,
    dilations: Any = (1, 1, 1, 1),
    groups: int = 1,
    deformable_groups: int = 1,
    modulated: bool = True,
) -> Tensor:
    """Deformable (v2) convolution of NCHW ``x``: each kernel tap samples ``x`` bilinearly at its regular
    position plus a learned offset, scaled by a mask. ``offsets`` (N, 3 * deformable_groups * kh * kw,
    H_out, W_out): x offsets, then y offsets, then masks; ``strides``/``dilations`` (1, 1, h, w) and
    ``padding`` (top, bottom, left, right)."""
    from ._conv_pool import tuple_n

    op = "deformable_conv2d"
    a, w, off = _float_input(x, "x", op), as_tensor_array(weight), as_tensor_array(offsets)
    kh, kw = tuple_n(kernel_size, 2, "kernel_size", op)
    if len(tuple(strides)) != 4 or len(tuple(dilations)) != 4 or len(tuple(padding)) != 4:
        raise ValueError(f"For '{op}', 'strides', 'dilations' and 'padding' must hold 4 ints each.")
    sh, sw = int(strides[2]), int(strides[3])
    dh, dw = int(dilations[2]), int(dilations[3])
    pt, pb, pl, pr = (int(v) for v in padding)
    n, c, h, wd = a.shape
    dg = int(deformable_groups)
    if not modulated:
        raise ValueError("For 'DeformableOffsets', The modulated must be set to True.")
    if c % dg or c % groups or w.shape[0] % groups:
        raise ValueError(
            f"For '{op}', the channels of 'x' ({c}) must be divisible by 'groups' ({groups}) and 'deformable_groups' "
            f"({dg})."
        )
    if tuple(w.shape[2:]) != (kh, kw) or w.shape[1] * groups != c:
        raise ValueError(
            f"For '{op}', the 'weight' shape {tuple(w.shape)} does not match 'x' {tuple(a.shape)} and the kernel."
        )
    cols = deformable_columns(a, off, (kh, kw), (sh, sw), (pt, pb, pl, pr), (dh, dw), dg, op)
    n, c, _, _, oh, ow = cols.shape
    og = w.shape[0] // groups
    cols = cols.reshape(n, groups, c // groups, kh, kw, oh, ow)
    wg = w.reshape(groups, og, c // groups, kh, kw).astype(a.dtype)
    y = jnp.einsum("ngcijyx,gocij->ngoyx", cols, wg).reshape(n, groups * og, oh, ow)
    if bias is not None:
        y = y + as_tensor_array(bias).astype(y.dtype)[None, :, None, None]
    return wrap(y)


def deformable_columns(a: Any, off: Any, k: tuple, s: tuple, pads: tuple, d: tuple, dg: int, op: str) -> Any:
    """The mask-scaled bilinear samples [N, C, kh, kw, H_out, W_out] of a deformable convolution."""
    (kh, kw), (sh, sw), (pt, pb, pl, pr), (dh, dw) = k, s, pads, d
    n, c, h, wd = a.shape
    if c % dg:
        raise ValueError(f"For '{op}', the channels of 'x' ({c}) must be divisible by 'deformable_groups' ({dg}).")
    oh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    k = kh * kw
    if tuple(off.shape) != (n, 3 * dg * k, oh, ow):
        raise ValueError(
            f"For '{op}', the 'offsets' shape must be {(n, 3 * dg * k, oh, ow)}, but got {tuple(off.shape)}."
        )
    off = off.astype(a.dtype).reshape(n, 3, dg, kh, kw, oh, ow)
    base_y = (jnp.arange(oh) * sh - pt)[None, :, None] + (jnp.arange(kh) * dh)[:, None, None]  # [kh, oh, 1]
    base_x = (jnp.arange(ow) * sw - pl)[None, None, :] + (jnp.arange(kw) * dw)[:, None, None]  # [kw, 1, ow]
    py = base_y[None, None, :, None].astype(a.dtype) + off[:, 1]  # [N, dg, kh, kw, oh, ow]
    px = base_x[None, None, None].astype(a.dtype) + off[:, 0]
    cg = c // dg
    # every channel of a deformable group samples at that group's positions
    py = jnp.repeat(py, cg, axis=1).reshape(n, c, -1)
    px = jnp.repeat(px, cg, axis=1).reshape(n, c, -1)
    cols = _bilinear_zero(a, py, px).reshape(n, c, kh, kw, oh, ow)
    return cols * jnp.repeat(off[:, 2], cg, axis=1)
