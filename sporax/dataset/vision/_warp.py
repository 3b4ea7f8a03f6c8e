"""Affine warps with the arithmetic of OpenCV 4's ``warpAffine`` (the OpenCV MindSpore is built with).

The OpenCV 5 wheel installed with sporax gives ``warpAffine`` results that differ from MindSpore's by a
few levels and on border pixels. This module reproduces OpenCV 4's arithmetic: the inverse map in
1/1024-pixel fixed point, coordinates quantised to 1/32 pixel, interpolation weights from 15-bit
fixed-point tables (uint8 images) or float tables (other types), constant borders.

Nearest and bilinear warps hand OpenCV's ``remap`` the fixed-point positions computed here (its remap at
whole pixels, or on its int16 map with the 1/32-pixel table index, is OpenCV 4's arithmetic, bit for bit,
and several times faster than NumPy);
bicubic, more than 4 channels and the dtypes where ``remap`` rounds differently go through the NumPy
interpolation below.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

AB_BITS, INTER_BITS = 10, 5
AB_SCALE, TAB = 1 << AB_BITS, 1 << INTER_BITS
COEF_BITS = 15
COEF_SCALE = 1 << COEF_BITS

NEAREST, LINEAR, CUBIC = 0, 1, 2
_tables: dict = {}


def _coeffs_1d(kind: int, x: np.float32) -> list:
    x = np.float32(x)
    one = np.float32(1)
    if kind == LINEAR:
        return [one - x, x]
    A = np.float32(-0.75)
    x1 = x + one
    c0 = ((A * x1 - np.float32(5) * A) * x1 + np.float32(8) * A) * x1 - np.float32(4) * A
    c1 = ((A + np.float32(2)) * x - (A + np.float32(3))) * x * x + one
    y = one - x
    c2 = ((A + np.float32(2)) * y - (A + np.float32(3))) * y * y + one
    c3 = one - c0 - c1 - c2
    return [c0, c1, c2, c3]


def _tables_for(kind: int):
    """(float weights, int16 fixed-point weights) of every 1/32 x 1/32 sub-pixel position: shape (1024, k*k)."""
    if kind in _tables:
        return _tables[kind]
    k = 2 if kind == LINEAR else 4
    one_d = [_coeffs_1d(kind, np.float32(i) / np.float32(TAB)) for i in range(TAB)]
    ftab = np.zeros((TAB * TAB, k * k), np.float32)
    itab = np.zeros((TAB * TAB, k * k), np.int64)
    h = k // 2
    for i in range(TAB):
        for j in range(TAB):
            row = ftab[i * TAB + j]
            irow = itab[i * TAB + j]
            isum = 0
            for a in range(k):
                for b in range(k):
                    v = np.float32(one_d[i][a] * one_d[j][b])
                    row[a * k + b] = v
                    iv = int(np.rint(np.float64(v) * COEF_SCALE))
                    irow[a * k + b] = iv
                    isum += iv
            if isum != COEF_SCALE:
                diff = isum - COEF_SCALE
                mk1 = mk2 = Mk1 = Mk2 = h
                for a in range(h, h + 2):
                    for b in range(h, h + 2):
                        if irow[a * k + b] < irow[mk1 * k + mk2]:
                            mk1, mk2 = a, b
                        elif irow[a * k + b] > irow[Mk1 * k + Mk2]:
                            Mk1, Mk2 = a, b
                if diff < 0:
                    irow[Mk1 * k + Mk2] -= diff
                else:
                    irow[mk1 * k + mk2] -= diff
    _tables[kind] = (ftab, itab)
    return _tables[kind]


def rotation_matrix(cx: float, cy: float, degrees: float) -> np.ndarray:
    """OpenCV's ``getRotationMatrix2D`` for a float32 centre and angle (MindSpore passes floats)."""
    cx, cy = float(np.float32(cx)), float(np.float32(cy))
    a = float(np.float32(degrees)) * math.pi / 180
    alpha, beta = math.cos(a), math.sin(a)
    return np.array([[alpha, beta, (1 - alpha) * cx - beta * cy], [-beta, alpha, beta * cx + (1 - alpha) * cy]])


def rotated_bbox(cx: float, cy: float, w: int, h: int, degrees: float) -> tuple[float, float]:
    """Width and height of ``RotatedRect(centre, (w, h), degrees).boundingRect2f()`` (float32 math)."""
    f = np.float32
    ang = float(f(degrees)) * math.pi / 180
    b = f(math.cos(ang)) * f(0.5)
    a = f(math.sin(ang)) * f(0.5)
    fx, fy, fw, fh = f(cx), f(cy), f(w), f(h)
    p0 = (fx - a * fh - b * fw, fy + b * fh - a * fw)
    p1 = (fx + a * fh - b * fw, fy - b * fh - a * fw)
    p2 = (f(2) * fx - p0[0], f(2) * fy - p0[1])
    p3 = (f(2) * fx - p1[0], f(2) * fy - p1[1])
    xs, ys = (p0[0], p1[0], p2[0], p3[0]), (p0[1], p1[1], p2[1], p3[1])
    return float(f(max(xs) - min(xs))), float(f(max(ys) - min(ys)))


def warp_affine(img: np.ndarray, M: np.ndarray, out_w: int, out_h: int, kind: int, fill) -> np.ndarray:
    """``cv2.warpAffine(img, M, (out_w, out_h), kind, BORDER_CONSTANT, fill)`` as OpenCV 4 computes it.

    ``img`` is HW or HWC; ``fill`` holds one value per channel.
    """
    m = np.asarray(M, np.float64).reshape(-1)
    d = m[0] * m[4] - m[1] * m[3]
    d = 1.0 / d if d != 0 else 0.0
    a11, a22 = m[4] * d, m[0] * d
    m1, m3 = -m[1] * d, -m[3] * d
    inv = (a11, m1, -a11 * m[2] - m1 * m[5], m3, a22, -m3 * m[2] - a22 * m[5])
    squeeze = img.ndim == 2
    src = img[..., None] if squeeze else img
    C = src.shape[2]
    fill = np.asarray(fill, np.float64).reshape(-1)
    if fill.size != C:
        fill = np.resize(fill, C)
    if _remap_ok(src, kind):
        # remap's maps depend on the matrix and the output size only: RandAugment's warps repeat a few
        # matrices (a fixed magnitude, either sign) on images of one size
        map1, map2 = _affine_maps(tuple(float(v) for v in inv), out_w, out_h, kind)
        return _cv_remap(src, map1, map2, kind, fill, squeeze)
    X, Y, small = _affine_positions(inv, out_w, out_h, kind, False)
    if kind == NEAREST:
        H, W = src.shape[:2]
        sx, sy = X >> AB_BITS, Y >> AB_BITS
        inside = (sx >= 0) & (sx < W) & (sy >= 0) & (sy < H)
        out = np.empty((out_h, out_w, C), src.dtype)
        out[:] = fill.astype(src.dtype) if src.dtype.kind in "iu" else fill
        out[inside] = src[sy[inside], sx[inside]]
        return out[..., 0] if squeeze else out
    X >>= AB_BITS - INTER_BITS
    Y >>= AB_BITS - INTER_BITS
    return _remap(src, X, Y, kind, fill, out_h, out_w, squeeze, clip=not small)


def _affine_positions(inv, out_w: int, out_h: int, kind: int, fast: bool):
    """The source position of every output pixel in OpenCV 4's 1/1024-pixel fixed point, ``(X, Y, small)``:
    ``small`` when (for ``remap``, ``fast``) every position fits int16 pixels, then X and Y are int32."""
    ys = np.arange(out_h, dtype=np.float64)
    xs = np.arange(out_w, dtype=np.float64)
    rd = AB_SCALE // 2 if kind == NEAREST else AB_SCALE // TAB // 2
    X0 = np.rint((inv[1] * ys + inv[2]) * AB_SCALE).astype(np.int64) + rd
    Y0 = np.rint((inv[4] * ys + inv[5]) * AB_SCALE).astype(np.int64) + rd
    adelta = np.rint(inv[0] * xs * AB_SCALE).astype(np.int64)
    bdelta = np.rint(inv[3] * xs * AB_SCALE).astype(np.int64)
    # every position is the sum of a row term and a column term: when the largest sum keeps the pixel positions
    # within int16, the maps are built in int32 and need no clipping (the usual case)
    small = fast and max(_absmax(X0) + _absmax(adelta), _absmax(Y0) + _absmax(bdelta)) < (32767 << AB_BITS)
    it = np.int32 if small else np.int64
    X = np.add.outer(X0.astype(it), adelta.astype(it))
    Y = np.add.outer(Y0.astype(it), bdelta.astype(it))
    return X, Y, small


@functools.lru_cache(maxsize=32)
def _affine_maps(inv: tuple, out_w: int, out_h: int, kind: int) -> tuple:
    """``cv2.remap``'s maps of the affine warp with inverse matrix ``inv`` (read-only, shared)."""
    X, Y, small = _affine_positions(inv, out_w, out_h, kind, True)
    if kind == NEAREST:
        X, Y = X >> AB_BITS, Y >> AB_BITS
    else:
        X >>= AB_BITS - INTER_BITS
        Y >>= AB_BITS - INTER_BITS
    maps = _cv_maps(X, Y, kind, clip=not small)
    for a in maps:
        a.flags.writeable = False
    return maps


def _absmax(v: np.ndarray) -> int:
    """The largest magnitude in ``v``, a rounded arithmetic progression (monotonic: its ends)."""
    return max(abs(int(v[0])), abs(int(v[-1]))) if v.size else 0


def warp_perspective(img: np.ndarray, M: np.ndarray, out_w: int, out_h: int, kind: int, fill) -> np.ndarray:
    """``cv2.warpPerspective(img, M, (out_w, out_h), kind, BORDER_CONSTANT, fill)`` as OpenCV 4 computes it."""
    inv = np.linalg.inv(np.asarray(M, np.float64)).reshape(-1)
    squeeze = img.ndim == 2
    src = img[..., None] if squeeze else img
    H, W, C = src.shape
    fill = np.resize(np.asarray(fill, np.float64).reshape(-1), C)
    ys = np.arange(out_h, dtype=np.float64)[:, None]
    xs = np.arange(out_w, dtype=np.float64)[None, :]
    X0, Y0, W0 = inv[1] * ys + inv[2], inv[4] * ys + inv[5], inv[7] * ys + inv[8]
    w = W0 + inv[6] * xs
    scale = TAB if kind != NEAREST else 1
    w = np.where(w != 0, scale / np.where(w != 0, w, 1), 0)
    fX = np.clip((X0 + inv[0] * xs) * w, -(2**31), 2**31 - 1)
    fY = np.clip((Y0 + inv[3] * xs) * w, -(2**31), 2**31 - 1)
    X, Y = np.rint(fX).astype(np.int64), np.rint(fY).astype(np.int64)
    if kind == NEAREST:
        if _remap_ok(src, kind):
            return _remap_cv(src, X, Y, kind, fill, squeeze)
        inside = (X >= 0) & (X < W) & (Y >= 0) & (Y < H)
        out = np.empty((out_h, out_w, C), src.dtype)
        out[:] = fill.astype(src.dtype) if src.dtype.kind in "iu" else fill
        out[inside] = src[Y[inside], X[inside]]
        return out[..., 0] if squeeze else out
    return _remap(src, X, Y, kind, fill, out_h, out_w, squeeze)


# the dtypes whose remap equals the arithmetic below: any for nearest; uint8 and float32 for bilinear (16-bit
# and float64 images round differently by one level in OpenCV's bilinear remap)
_REMAP_DTYPES = {
    NEAREST: frozenset(np.dtype(t) for t in (np.uint8, np.uint16, np.int16, np.float32, np.float64)),
    LINEAR: frozenset(np.dtype(t) for t in (np.uint8, np.float32)),
}


def _remap_ok(src: np.ndarray, kind: int) -> bool:
    return src.shape[2] <= 4 and src.dtype in _REMAP_DTYPES.get(kind, ())


def _remap_cv(src, X, Y, kind, fill, squeeze, clip=True):
    """``cv2.remap`` at the integer positions (X, Y): pixels for nearest, 1/32 pixels for bilinear.
    ``clip=False``: the positions are known to be small (within int16 pixels)."""
    map1, map2 = _cv_maps(X, Y, kind, clip)
    return _cv_remap(src, map1, map2, kind, fill, squeeze)


def _cv_maps(X, Y, kind, clip=True):
    """``cv2.remap``'s two maps for the integer positions (X, Y) of :func:`_remap_cv`.

    Nearest positions go in as float32 maps (whole numbers: exact, and faster than building remap's
    interleaved int16 map); bilinear ones as the int16 pixel map and the 1/32-pixel table index, the
    fixed-point form remap itself uses (its float maps round some positions differently)."""
    if kind == NEAREST:
        if clip:  # far outside stays outside (and exact in float32)
            lim = 1 << 23
            X, Y = np.clip(X, -lim, lim), np.clip(Y, -lim, lim)
        return X.astype(np.float32), Y.astype(np.float32)
    map2 = ((Y & (TAB - 1)) * TAB + (X & (TAB - 1))).astype(np.uint16)
    X, Y = X >> INTER_BITS, Y >> INTER_BITS
    map1 = np.empty(X.shape + (2,), np.int16)
    if clip:  # far outside stays outside
        big = np.int64(32767)
        np.clip(X, -big - 1, big, out=map1[..., 0], casting="unsafe")
        np.clip(Y, -big - 1, big, out=map1[..., 1], casting="unsafe")
    else:
        map1[..., 0] = X
        map1[..., 1] = Y
    return map1, map2


def _cv_remap(src, map1, map2, kind, fill, squeeze):
    out = cv2.remap(
        src,
        map1,
        map2,
        cv2.INTER_NEAREST if kind == NEAREST else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=tuple(float(v) for v in fill),
    )
    shape = map2.shape
    if squeeze:
        return out.reshape(shape)
    return out.reshape(shape + (src.shape[2],))


def _remap(src, X, Y, kind, fill, out_h, out_w, squeeze, clip=True):
    """Interpolate ``src`` at the 1/32-pixel fixed-point positions (X, Y), OpenCV 4's remap with constant border."""
    if _remap_ok(src, kind):
        return _remap_cv(src, X, Y, kind, fill, squeeze, clip)
    H, W, C = src.shape
    alpha = (Y & (TAB - 1)) * TAB + (X & (TAB - 1))
    sx, sy = X >> INTER_BITS, Y >> INTER_BITS
    k = 2 if kind == LINEAR else 4
    off = 0 if kind == LINEAR else 1
    pad = k + 1
    integer = src.dtype == np.uint8
    Wp = W + 2 * pad
    work = np.empty((H + 2 * pad, Wp, C), np.int32 if integer else np.float32)
    work[:] = fill
    work[pad : pad + H, pad : pad + W] = src
    flat = work.reshape(-1, C)
    # taps outside the padded image are outside the image too: the fill value
    bx = np.clip(sx - off + pad, 0, Wp - k)
    by = np.clip(sy - off + pad, 0, H + 2 * pad - k)
    far = ((sx - off + k <= 0) | (sx - off >= W) | (sy - off + k <= 0) | (sy - off >= H)).ravel()
    base = (by * Wp + bx).ravel()
    ftab, itab = _tables_for(kind)
    wts = (itab.astype(np.int32) if integer else ftab)[alpha.ravel()]
    # summed in OpenCV's order (it matters for floats): bilinear tap after tap, bicubic row after row
    acc = None
    for a in range(k):
        row = None
        for b in range(k):
            term = np.take(flat, base + (a * Wp + b), axis=0) * wts[:, a * k + b, None]
            if kind == LINEAR:
                acc = term if acc is None else acc + term
            else:
                row = term if row is None else row + term
        if kind == CUBIC:
            acc = row if acc is None else acc + row
    if integer:
        out = np.clip((acc + (1 << (COEF_BITS - 1))) >> COEF_BITS, 0, 255).astype(np.uint8)
    else:
        out = acc.astype(src.dtype)
    out[far] = fill.astype(out.dtype)
    out = out.reshape(out_h, out_w, C)
    return out[..., 0] if squeeze else out
