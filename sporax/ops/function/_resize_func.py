"""Padding, resizing and pixel rearrangement with MindSpore's semantics: ``mirror_pad``, ``interpolate`` /
``upsample`` (nearest, nearest-exact, linear, bilinear, bicubic, trilinear, area), the resize primitives'
coordinate rules (``align_corners``, ``half_pixel_centers``, TF's asymmetric legacy), ``pixel_shuffle``,
``pixel_unshuffle``, ``channel_shuffle``.

Resizing is separable: one small interpolation matrix per spatial axis (built in NumPy at trace time),
contracted with the input (a GEMM per axis; gradients are the transposed contractions), nearest modes are
gathers.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jnp
from ...common.tensor import Tensor
from .._utils import as_tensor_array, wrap
from ._conv_pool import _dtype_name
from ._pool_func import adaptive_avg_nd

__all__ = [
    "mirror_pad",
    "interpolate",
    "upsample",
    "pixel_shuffle",
    "pixel_unshuffle",
    "channel_shuffle",
    "adaptive_avg_pool2d_ext",
]


# ------------------------------------------------------------------------- pad
def mirror_pad_array(a: Any, paddings: Any, mode: str, op: str = "mirror_pad") -> Any:
    """``a`` padded by ``paddings`` ((before, after) per dimension) mirroring 'REFLECT' (edge excluded) or
    'SYMMETRIC' (edge included)."""
    pads = np.asarray(paddings.asnumpy() if isinstance(paddings, Tensor) else paddings).astype(np.int64)
    if pads.ndim != 2 or pads.shape[1] != 2 or pads.shape[0] != a.ndim:
        raise ValueError(f"For '{op}', the shape of 'paddings' must be ({a.ndim}, 2), but got {tuple(pads.shape)}.")
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"For '{op}', the 'mode' must be 'REFLECT' or 'SYMMETRIC', but got {mode!r}.")
    for d, (lo, hi) in enumerate(pads):
        limit = a.shape[d] - (1 if mode == "REFLECT" else 0)
        if lo < 0 or hi < 0 or lo > limit or hi > limit:
            raise ValueError(
                f"For '{op}', the paddings of dimension {d} must be in [0, {limit}] in '{mode}' mode, but got "
                f"{(int(lo), int(hi))}."
            )
    return jnp.pad(a, [tuple(int(v) for v in p) for p in pads], mode=mode.lower())


def mirror_pad(input_x: Any, paddings: Any, mode: str) -> Tensor:
    """Pad ``input_x`` by ``paddings`` (an (N, 2) Tensor: before/after per dimension) mirroring its
    content: 'REFLECT' leaves the edge out, 'SYMMETRIC' repeats it."""
    return wrap(mirror_pad_array(as_tensor_array(input_x), paddings, mode))


# --------------------------------------------------------------------- resizing
def _src(i: np.ndarray, n_in: int, n_out: int, coord: str, scale: float | None) -> np.ndarray:
    """Source coordinates of output positions ``i``: 'align' (corners meet), 'half' (pixel centres,
    PyTorch / TF half_pixel_centers), 'asym' (TF legacy: ``i * in / out``)."""
    if coord == "align":
        return i * ((n_in - 1) / (n_out - 1)) if n_out > 1 else np.zeros_like(i, dtype=np.float64)
    r = 1.0 / scale if scale else n_in / n_out
    if coord == "half":
        return (i + 0.5) * r - 0.5
    return i * r


def linear_matrix(n_in: int, n_out: int, coord: str, scale: float | None = None) -> np.ndarray:
    """Linear-interpolation weights [n_out, n_in]."""
    src = np.maximum(_src(np.arange(n_out, dtype=np.float64), n_in, n_out, coord, scale), 0.0)
    lo = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    hi = np.minimum(lo + 1, n_in - 1)
    w = src - lo
    m = np.zeros((n_out, n_in))
    np.add.at(m, (np.arange(n_out), lo), 1 - w)
    np.add.at(m, (np.arange(n_out), hi), w)
    return m


def _cubic(t: np.ndarray, a: float) -> np.ndarray:
    t = np.abs(t)
    return np.where(
        t <= 1,
        ((a + 2) * t - (a + 3)) * t * t + 1,
        np.where(t < 2, ((a * t - 5 * a) * t + 8 * a) * t - 4 * a, 0.0),
    )


def cubic_matrix(n_in: int, n_out: int, coord: str, a: float = -0.75, scale: float | None = None) -> np.ndarray:
    """Cubic-convolution weights [n_out, n_in], as TF's (and MindSpore's) ResizeBicubic: the fractional
    position quantised to 1/1024 (its weight table); with half-pixel centres Keys' kernel whose taps outside
    the input are dropped and the rest renormalised, otherwise the border replicated."""
    src = _src(np.arange(n_out, dtype=np.float64), n_in, n_out, coord, scale)
    base = np.floor(src)
    frac = np.rint((src - base) * 1024) / 1024
    m = np.zeros((n_out, n_in))
    for k in range(-1, 3):
        raw = base + k
        w = _cubic(frac - k, a)
        if coord == "half":
            w = np.where((raw >= 0) & (raw <= n_in - 1), w, 0.0)
        np.add.at(m, (np.arange(n_out), np.clip(raw, 0, n_in - 1).astype(np.int64)), w)
    if coord == "half":
        m = m / m.sum(axis=1, keepdims=True)
    return m


def area_matrix(n_in: int, n_out: int, align_corners: bool = False) -> np.ndarray:
    """TF's area-resize weights [n_out, n_in]: each output cell averages the input cells it covers, by the
    covered fraction (cells past the input's end repeat its last one)."""
    scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        lo, hi = o * scale, (o + 1) * scale
        for i in range(int(np.floor(lo)), int(np.ceil(hi))):
            m[o, min(i, n_in - 1)] += min(i + 1, hi) - max(i, lo)
    return m / scale


def nearest_index(n_in: int, n_out: int, coord: str, scale: float | None = None) -> np.ndarray:
    """Nearest source index per output position: 'align' rounds ``i * (in - 1) / (out - 1)``, 'half'
    floors ``(i + 0.5) * in / out``, 'asym' floors ``i * in / out``."""
    i = np.arange(n_out, dtype=np.float64)
    if coord == "align":
        idx = np.floor(_src(i, n_in, n_out, "align", None) + 0.5)  # halves round up
    else:
        r = 1.0 / scale if scale else n_in / n_out
        idx = np.floor((i + 0.5) * r if coord == "half" else i * r)
    return np.clip(idx, 0, n_in - 1).astype(np.int64)


def resize_axes(a: Any, out: tuple[int, ...], kind: str, coord: str, scales: Any = None, cubic_a: float = -0.75) -> Any:
    """Resize the last ``len(out)`` axes of ``a``: ``kind`` 'nearest', 'linear' or 'cubic'."""
    nsp = len(out)
    scales = scales or (None,) * nsp
    y = a
    for d in range(nsp):
        axis = a.ndim - nsp + d
        n_in, n_out = a.shape[axis], out[d]
        if kind == "nearest":
            y = jnp.take(y, jnp.asarray(nearest_index(n_in, n_out, coord, scales[d])), axis=axis)
            continue
        if kind == "linear":
            m = linear_matrix(n_in, n_out, coord, scales[d])
        elif kind == "area":
            m = area_matrix(n_in, n_out, coord == "align")
        else:
            m = cubic_matrix(n_in, n_out, coord, cubic_a, scales[d])
        y = jnp.moveaxis(jnp.tensordot(y, jnp.asarray(m, y.dtype), axes=([axis], [1])), -1, axis)
    return y


_MODES = {
    "nearest": (3, 4, 5),
    "linear": (3,),
    "bilinear": (4,),
    "bicubic": (4,),
    "trilinear": (5,),
    "area": (3, 4, 5),
    "nearest-exact": (3, 4),
}


def interpolate(
    input: Any,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: Any = None,
    recompute_scale_factor: Any = None,
) -> Tensor:
    """Resize the spatial dimensions (all but N, C) by ``size`` or ``scale_factor``.

    ``mode``: 'nearest' (3-5-D), 'nearest-exact' (3-4-D), 'linear' (3-D), 'bilinear' (4-D), 'bicubic'
    (4-D, Keys' kernel a = -0.5 with half-pixel centres, -0.75 with ``align_corners``, as MindSpore's
    ResizeBicubic), 'trilinear' (5-D), 'area' (adaptive average pooling). ``align_corners`` (linear
    modes): corners meet instead of pixel centres. With ``scale_factor`` the output size is
    ``floor(in * scale)``; the interpolation uses the scale itself unless ``recompute_scale_factor``.
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'interpolate', 'input' must be a tensor, but got {type(input)}")
    a = input._data
    if mode not in _MODES:
        raise ValueError(f"For 'interpolate', 'mode' must be one of {list(_MODES)}, but got '{mode}'.")
    if a.ndim not in _MODES[mode]:
        raise ValueError(
            f"For 'interpolate', '{mode}' mode supports {'/'.join(f'{r}D' for r in _MODES[mode])} input, "
            f"but got {a.ndim}D input."
        )
    nsp = a.ndim - 2
    if size is not None and scale_factor is not None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set simultaneously")
    if size is None and scale_factor is None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be both empty")
    if align_corners is not None:
        if not isinstance(align_corners, bool):
            raise TypeError(f"For 'interpolate', 'align_corners' must be a bool, but got {type(align_corners)}.")
        if align_corners and mode in ("nearest", "area", "nearest-exact"):
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | "
                "trilinear"
            )
    corners = bool(align_corners)
    if size is not None:
        if recompute_scale_factor:
            raise ValueError(
                "For 'interpolate', it is incorrect to set 'recompute_scale_factor' to True after specifying an "
                "explicit 'size'."
            )
        out = validator.check_positive_int_tuple(size, nsp, "size", "interpolate")
        scales: tuple = (None,) * nsp
    else:
        sf = (scale_factor,) * nsp if isinstance(scale_factor, (int, float)) else tuple(scale_factor)
        if len(sf) != nsp or any(isinstance(s, bool) or not isinstance(s, (int, float)) or s <= 0 for s in sf):
            raise ValueError(
                f"For 'interpolate', the 'scale_factor' must be a positive number or a tuple of {nsp} positive "
                f"numbers, but got {scale_factor}."
            )
        out = tuple(int(math.floor(a.shape[2 + i] * sf[i])) for i in range(nsp))
        scales = (None,) * nsp if recompute_scale_factor or mode == "area" else tuple(float(s) for s in sf)
    if any(o <= 0 for o in out):
        raise ValueError(f"For 'interpolate', the output size must be positive, but got {out}.")
    if mode == "area":
        if not jnp.issubdtype(a.dtype, jnp.floating):
            raise TypeError(f"For 'interpolate', 'area' mode takes a float input, but got {_dtype_name(a)}.")
        return wrap(adaptive_avg_nd(a, out))
    if mode in ("nearest", "nearest-exact"):
        return wrap(resize_axes(a, out, "nearest", "half" if mode == "nearest-exact" else "asym", scales))
    x = a if jnp.issubdtype(a.dtype, jnp.floating) else a.astype(jnp.float32)
    coord = "align" if corners else "half"
    if mode == "bicubic":
        return wrap(resize_axes(x, out, "cubic", coord, scales, -0.75 if corners else -0.5))
    return wrap(resize_axes(x, out, "linear", coord, scales))


def upsample(
    input: Any,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: Any = None,
    recompute_scale_factor: Any = None,
) -> Tensor:
    """``interpolate`` under its older name."""
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


# ------------------------------------------------------------ pixel rearrangement
def _int_factor(v: Any, name: str, op: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'int', but got type '{type(v).__name__}'.")
    if v < 1:
        raise ValueError(f"For '{op}', the '{name}' must be >= 1, but got {v}.")
    return int(v)


def pixel_shuffle(input: Any, upscale_factor: int) -> Tensor:
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r)."""
    r = _int_factor(upscale_factor, "upscale_factor", "pixel_shuffle")
    a = as_tensor_array(input)
    if a.ndim < 3:
        raise ValueError(f"For 'pixel_shuffle', the dimension of 'input' must be >= 3, but got {a.ndim}.")
    *lead, c, h, w = a.shape
    if c % (r * r):
        raise ValueError(
            f"For 'pixel_shuffle', the channels of 'input' ({c}) must be divisible by 'upscale_factor' ** 2 ({r * r})."
        )
    y = a.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    y = jnp.transpose(y, (*range(n), n, n + 3, n + 1, n + 4, n + 2))
    return wrap(y.reshape(*lead, c // (r * r), h * r, w * r))


def pixel_unshuffle(input: Any, downscale_factor: int) -> Tensor:
    """(*, C, H * r, W * r) -> (*, C * r * r, H, W)."""
    r = _int_factor(downscale_factor, "downscale_factor", "pixel_unshuffle")
    a = as_tensor_array(input)
    if a.ndim < 3:
        raise ValueError(f"For 'pixel_unshuffle', the dimension of 'input' must be >= 3, but got {a.ndim}.")
    *lead, c, h, w = a.shape
    if h % r or w % r:
        raise ValueError(
            f"For 'pixel_unshuffle', the height and width of 'input' ({h}, {w}) must be divisible by "
            f"'downscale_factor' ({r})."
        )
    y = a.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    y = jnp.transpose(y, (*range(n), n, n + 2, n + 4, n + 1, n + 3))
    return wrap(y.reshape(*lead, c * r * r, h // r, w // r))


def channel_shuffle(x: Any, groups: int) -> Tensor:
    """Split the channels (dimension 1) into ``groups`` and interleave them: (N, g * k, ...) channel
    ``i * k + j`` goes to ``j * g + i``."""
    g = _int_factor(groups, "groups", "channel_shuffle")
    a = as_tensor_array(x)
    if a.ndim < 3:
        raise ValueError(f"For 'channel_shuffle', the dimension of 'x' must be >= 3, but got {a.ndim}.")
    n, c = a.shape[:2]
    if c % g:
        raise ValueError(f"For 'channel_shuffle', the channels of 'x' ({c}) must be divisible by 'groups' ({g}).")
    y = a.reshape(n, g, c // g, *a.shape[2:])
    return wrap(jnp.swapaxes(y, 1, 2).reshape(a.shape))


def extract_image_patches(x: Any, k: tuple, s: tuple, r: tuple, padding: str, op: str) -> Tensor:
    """TF's image patches of NCHW ``x``: (N, k_row * k_col * C, out_row, out_col), depth ordered (kernel row,
    kernel column, channel); ``padding`` 'VALID' or 'SAME'."""
    from ..._engine import lax
    from ._conv_pool import _same_pads

    a = as_tensor_array(x)
    validator.check_ndim(a.ndim, 4, "input", op)
    n, c, h, w = a.shape
    eff = [(k[i] - 1) * r[i] + 1 for i in range(2)]
    if padding == "SAME":
        pads = [_same_pads((h, w)[i], k[i], s[i], r[i]) for i in range(2)]
    else:
        pads = [(0, 0), (0, 0)]
    hp, wp = h + sum(pads[0]), w + sum(pads[1])
    oh, ow = (hp - eff[0]) // s[0] + 1, (wp - eff[1]) // s[1] + 1
    if oh <= 0 or ow <= 0:
        raise ValueError(f"For '{op}', the input shape {tuple(a.shape)} is too small for the patches {k}.")
    xp = jnp.pad(a, [(0, 0), (0, 0), *pads])
    views = [
        lax.slice(
            xp,
            (0, 0, i * r[0], j * r[1]),
            (n, c, i * r[0] + (oh - 1) * s[0] + 1, j * r[1] + (ow - 1) * s[1] + 1),
            (1, 1, s[0], s[1]),
        )
        for i in range(k[0])
        for j in range(k[1])
    ]
    return wrap(jnp.stack(views, axis=1).reshape(n, k[0] * k[1] * c, oh, ow))


def adaptive_avg_pool2d_ext(input: Any, output_size: Any) -> Tensor:
    """``adaptive_avg_pool2d`` under its Ext name (an Ascend kernel in MindSpore 2.10; the same values)."""
    from ._conv_pool import adaptive_avg_pool2d

    return adaptive_avg_pool2d(input, output_size)
