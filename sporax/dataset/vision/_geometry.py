"""Geometric and region transforms (``mindspore.dataset.vision``): Affine/RandomAffine, Perspective/
RandomPerspective, ResizedCrop, RandomResize, RandomCropDecodeResize, PadToSize, Erase, CutOut, RandomErasing,
FiveCrop/TenCrop, SlicePatches."""

from __future__ import annotations

import math
import numbers

import cv2
import numpy as np

from ..._checkparam import (
    check_corner_points,
    check_fill_value,
    check_image_size,
    check_pipeline_float,
    check_pipeline_int,
    check_shear_pair,
)
from ..engine import _random
from ..transforms.transforms import TensorOperation, _is_pil
from . import _warp
from ._color import _img
from .transforms import RandomResizedCrop, Resize, _decode, _pad, _resize_cv
from .utils import Border, Inter, SliceMode

__all__ = [
    "Affine",
    "RandomAffine",
    "Perspective",
    "RandomPerspective",
    "ResizedCrop",
    "RandomResize",
    "RandomCropDecodeResize",
    "PadToSize",
    "Erase",
    "CutOut",
    "RandomErasing",
    "FiveCrop",
    "TenCrop",
    "SlicePatches",
]

_KIND = {Inter.NEAREST: _warp.NEAREST, Inter.BILINEAR: _warp.LINEAR, Inter.BICUBIC: _warp.CUBIC}
_CV = {Inter.NEAREST: cv2.INTER_NEAREST, Inter.BILINEAR: cv2.INTER_LINEAR, Inter.BICUBIC: cv2.INTER_CUBIC,
       Inter.AREA: cv2.INTER_AREA}  # fmt: skip


def affine_matrix(h, w, degrees, translate_px, scale, shear):
    """MindSpore's forward affine matrix: about the centre ((w-1)/2, (h-1)/2), rotation, scale and shear
    (torchvision's RSS decomposition), then the translation in pixels."""
    cx, cy = (w - 1) * 0.5, (h - 1) * 0.5
    rot, sx, sy = math.radians(degrees), math.radians(shear[0]), math.radians(shear[1])
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    rss = np.array([[a * scale, b * scale, 0], [c * scale, d * scale, 0], [0, 0, 1]])
    t = np.array([[1, 0, cx + translate_px[0]], [0, 1, cy + translate_px[1]], [0, 0, 1]])
    back = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]])
    return (t @ rss @ back)[:2]


def _affine(img, degrees, translate, scale, shear, resample, fill):
    h, w = img.shape[:2]
    m = affine_matrix(h, w, degrees, (translate[0] * w, translate[1] * h), scale, shear)
    channels = img.shape[2] if img.ndim == 3 else 1
    return _warp.warp_affine(
        img, m, w, h, _KIND.get(Inter(resample), _warp.LINEAR), [fill[c % 3] for c in range(channels)]
    )


class Affine(TensorOperation):
    """Rotate by ``degrees``, translate by ``translate`` (fractions of width and height, in [-1, 1]), scale and
    shear (x, y degrees) about the image centre."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0) -> None:
        self.degrees = check_pipeline_float(degrees, "degrees", -180, 180)
        if not isinstance(translate, (list, tuple)) or len(translate) != 2:
            raise TypeError("The length of translate should be 2.")
        for i, t in enumerate(translate):
            check_pipeline_float(t, f"translate[{i}]", -1.0, 1.0)
        self.translate = tuple(float(t) for t in translate)
        self.scale = check_pipeline_float(scale, "scale", 0)
        if self.scale <= 0:
            raise ValueError("Input scale must be greater than 0.")
        self.shear = check_shear_pair(shear)
        self.resample = Inter(resample)
        self.fill_value = check_fill_value(fill_value)

    def _apply(self, x):
        img = _img(x, "Affine")
        return _affine(img, self.degrees, self.translate, self.scale, self.shear, self.resample, self.fill_value)


class RandomAffine(TensorOperation):
    """An :class:`Affine` with parameters drawn uniformly: rotation in ``degrees``, translation in ``translate``
    (fractions), scale in ``scale``, shear in ``shear`` (x range, and y range when 4 values)."""

    _random = True

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST, fill_value=0) -> None:
        if isinstance(degrees, numbers.Real):
            if degrees < 0:
                raise ValueError("Input degrees is not within the required interval of [0, 16777216].")
            degrees = (-float(degrees), float(degrees))
        self.degrees = tuple(float(d) for d in degrees)
        self.translate = None if translate is None else [float(t) for t in translate]
        if self.translate is not None:
            if len(self.translate) not in (2, 4):
                raise TypeError("translate should be a list or tuple of length 2 or 4.")
            for t in self.translate:
                check_pipeline_float(t, "translate", -1.0, 1.0)
        self.scale = None if scale is None else tuple(float(s) for s in scale)
        if isinstance(shear, numbers.Real):
            shear = (-float(shear), float(shear))
        self.shear = None if shear is None else [float(s) for s in shear]
        self.resample = Inter(resample)
        self.fill_value = check_fill_value(fill_value)

    def _apply(self, x):
        img = _img(x, "RandomAffine")
        g = _random.rng()
        deg = g.uniform(*self.degrees)
        tx = ty = 0.0
        if self.translate is not None:
            t = self.translate
            tx = g.uniform(t[0], t[1])
            ty = g.uniform(t[2], t[3]) if len(t) == 4 else 0.0
        sc = g.uniform(*self.scale) if self.scale is not None else 1.0
        sh = (0.0, 0.0)
        if self.shear is not None:
            s = self.shear
            sh = (g.uniform(s[0], s[1]), g.uniform(s[2], s[3]) if len(s) == 4 else 0.0)
        return _affine(img, deg, (tx, ty), sc, sh, self.resample, self.fill_value)


def _perspective(img, start, end, interpolation):
    m = cv2.getPerspectiveTransform(np.float32(start), np.float32(end))
    h, w = img.shape[:2]
    ch = img.shape[2] if img.ndim == 3 else 1
    return _warp.warp_perspective(img, m, w, h, _KIND.get(Inter(interpolation), _warp.LINEAR), [0] * ch)


class Perspective(TensorOperation):
    """Warp the quadrilateral ``start_points`` onto ``end_points`` (4 (x, y) corners each)."""

    def __init__(self, start_points, end_points, interpolation=Inter.BILINEAR) -> None:
        self.start_points = check_corner_points(start_points, "start_points")
        self.end_points = check_corner_points(end_points, "end_points")
        self.interpolation = Inter(interpolation)

    def _apply(self, x):
        return _perspective(_img(x, "Perspective"), self.start_points, self.end_points, self.interpolation)


class RandomPerspective(TensorOperation):
    """With probability ``prob``, move each corner inwards by up to ``distortion_scale`` of half the size."""

    _random = True

    def __init__(self, distortion_scale=0.5, prob=0.5, interpolation=Inter.BICUBIC) -> None:
        self.distortion_scale = check_pipeline_float(distortion_scale, "distortion_scale", 0.0, 1.0)
        self.prob = check_pipeline_float(prob, "prob", 0.0, 1.0)
        self.interpolation = Inter(interpolation)

    def _apply(self, x):
        img = _img(x, "RandomPerspective")
        g = _random.rng()
        if g.random() >= self.prob:
            return img
        h, w = img.shape[:2]
        dw, dh = int(self.distortion_scale * w / 2), int(self.distortion_scale * h / 2)
        tl = [int(g.integers(0, dw + 1)), int(g.integers(0, dh + 1))]
        tr = [int(w - 1 - g.integers(0, dw + 1)), int(g.integers(0, dh + 1))]
        br = [int(w - 1 - g.integers(0, dw + 1)), int(h - 1 - g.integers(0, dh + 1))]
        bl = [int(g.integers(0, dw + 1)), int(h - 1 - g.integers(0, dh + 1))]
        start = [[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]
        return _perspective(img, start, [tl, tr, br, bl], self.interpolation)


class ResizedCrop(TensorOperation):
    """Crop the ``height`` x ``width`` region at (``top``, ``left``) and resize it to ``size``."""

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR) -> None:
        self.top = check_pipeline_int(top, "top", 0, 2**31 - 1)
        self.left = check_pipeline_int(left, "left", 0, 2**31 - 1)
        self.height = check_pipeline_int(height, "height", 1, 2**31 - 1)
        self.width = check_pipeline_int(width, "width", 1, 2**31 - 1)
        s = check_image_size(size)
        self.size = (s, s) if isinstance(s, int) else s
        self.interpolation = Inter(interpolation)

    def _apply(self, x):
        img = _img(x, "ResizedCrop")
        h, w = img.shape[:2]
        if self.top + self.height > h or self.left + self.width > w:
            raise RuntimeError(
                f"ResizedCrop: the crop box ({self.top}, {self.left}, {self.height}, {self.width}) exceeds the image "
                f"of size ({h}, {w})."
            )
        crop = np.ascontiguousarray(img[self.top : self.top + self.height, self.left : self.left + self.width])
        return _resize_cv(crop, self.size[0], self.size[1], self.interpolation)


class RandomResize(TensorOperation):
    """``Resize(size)`` with a randomly chosen interpolation (nearest, bilinear, bicubic, area)."""

    _random = True

    def __init__(self, size) -> None:
        self.size = check_image_size(size)

    def _apply(self, x):
        mode = [Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA][int(_random.rng().integers(4))]
        return Resize(self.size, mode)(x)


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode an encoded image, then :class:`RandomResizedCrop` (MindSpore fuses the two for speed)."""

    def __init__(
        self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=Inter.BILINEAR, max_attempts=10
    ) -> None:
        super().__init__(size, scale, ratio, interpolation, max_attempts)

    def _apply(self, x):
        raw = np.asarray(x)
        if raw.ndim != 1 or raw.dtype != np.uint8:
            raise RuntimeError(
                f"RandomCropDecodeResize: the input should be the encoded image bytes (1-D uint8), but got shape "
                f"{list(raw.shape)}."
            )
        return super()._apply(_decode(raw))


class PadToSize(TensorOperation):
    """Pad to ``size`` (height, width), the image placed at ``offset`` (top, left; default: centred)."""

    def __init__(self, size, offset=None, fill_value=0, padding_mode=Border.CONSTANT) -> None:
        s = check_image_size(size)
        self.size = (s, s) if isinstance(s, int) else s
        if offset is not None:
            o = [offset] * 2 if isinstance(offset, numbers.Integral) else list(offset)
            for v in o:
                check_pipeline_int(v, "offset", 0, 2**31 - 1)
            offset = tuple(o)
        self.offset = offset
        self.fill_value = fill_value
        self.padding_mode = Border(padding_mode)

    def _apply(self, x):
        img = _img(x, "PadToSize")
        h, w = img.shape[:2]
        th, tw = self.size
        top, left = self.offset if self.offset is not None else ((th - h) // 2, (tw - w) // 2)
        if top + h > th or left + w > tw or th < h or tw < w:
            raise RuntimeError(
                "PadToSize: the sum of offset and original image size should be no more than the target size to "
                f"pad, but got offset ({top}, {left}) plus original size ({h}, {w}) bigger than ({th}, {tw})"
            )
        return _pad(img, left, top, tw - w - left, th - h - top, self.fill_value, self.padding_mode)


def _erase_value(value, img):
    v = np.asarray(value, np.float64).reshape(-1)
    ch = img.shape[2] if img.ndim == 3 else 1
    v = np.resize(v, ch)
    return v.astype(img.dtype) if img.dtype.kind == "f" else np.clip(v, 0, 255).astype(img.dtype)


class Erase(TensorOperation):
    """Fill the ``height`` x ``width`` region at (``top``, ``left``) with ``value`` (one number or one per channel)."""

    def __init__(self, top, left, height, width, value=0, inplace=False) -> None:
        self.top = check_pipeline_int(top, "top", 0, 2**31 - 1)
        self.left = check_pipeline_int(left, "left", 0, 2**31 - 1)
        self.height = check_pipeline_int(height, "height", 1, 2**31 - 1)
        self.width = check_pipeline_int(width, "width", 1, 2**31 - 1)
        if not isinstance(value, (numbers.Number, tuple, list)):
            raise TypeError("value should be a number or a sequence of 3 numbers.")
        self.value, self.inplace = value, bool(inplace)

    def _apply(self, x):
        img = _img(x, "Erase")
        out = img if self.inplace and img.flags.writeable else img.copy()
        out[self.top : self.top + self.height, self.left : self.left + self.width] = _erase_value(self.value, img)
        return out


class CutOut(TensorOperation):
    """Zero ``num_patches`` random ``length`` x ``length`` squares (HWC, or CHW with ``is_hwc=False``)."""

    _random = True

    def __init__(self, length, num_patches=1, is_hwc=True) -> None:
        self.length = check_pipeline_int(length, "length", 1, 2**31 - 1)
        self.num_patches = check_pipeline_int(num_patches, "num_patches", 1, 2**31 - 1)
        if not isinstance(is_hwc, bool):
            raise TypeError(f"Argument is_hwc with value {is_hwc} is not of type [<class 'bool'>].")
        self.is_hwc = is_hwc

    def _apply(self, x):
        img = np.array(x)
        h, w = img.shape[:2] if self.is_hwc else img.shape[-2:]
        g = _random.rng()
        for _ in range(self.num_patches):
            cy, cx = int(g.integers(0, h)), int(g.integers(0, w))
            y0, y1 = max(0, cy - self.length // 2), min(h, cy + self.length // 2 + self.length % 2)
            x0, x1 = max(0, cx - self.length // 2), min(w, cx + self.length // 2 + self.length % 2)
            if self.is_hwc:
                img[y0:y1, x0:x1] = 0
            else:
                img[..., y0:y1, x0:x1] = 0
        return img


class RandomErasing(TensorOperation):
    """With probability ``prob``, erase a random rectangle (area fraction in ``scale``, aspect ratio in
    ``ratio``) of a CHW image with ``value`` (a number, one per channel, or ``'random'``)."""

    _random = True

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False, max_attempts=10) -> None:
        self.prob = check_pipeline_float(prob, "prob", 0.0, 1.0)
        if len(scale) != 2 or scale[0] > scale[1] or scale[0] < 0:
            raise ValueError("scale should be of kind (min, max) and in range [0, 1].")
        if len(ratio) != 2 or ratio[0] > ratio[1] or ratio[0] <= 0:
            raise ValueError("ratio should be of kind (min, max) and greater than 0.")
        self.scale, self.ratio = tuple(scale), tuple(ratio)
        if not (isinstance(value, (numbers.Number, tuple, list)) or value == "random"):
            raise TypeError("value should be a number, a sequence of 3 numbers or 'random'.")
        self.value, self.inplace = value, bool(inplace)
        self.max_attempts = check_pipeline_int(max_attempts, "max_attempts", 1, 2**31 - 1)

    def _apply(self, x):
        img = np.asarray(x)
        g = _random.rng()
        if g.random() >= self.prob:
            return img
        c, h, w = img.shape[-3:]
        area = h * w
        for _ in range(self.max_attempts):
            ea = area * g.uniform(*self.scale)
            ar = math.exp(g.uniform(math.log(self.ratio[0]), math.log(self.ratio[1])))
            eh, ew = int(round(math.sqrt(ea * ar))), int(round(math.sqrt(ea / ar)))
            if eh < h and ew < w:
                top, left = int(g.integers(0, h - eh + 1)), int(g.integers(0, w - ew + 1))
                out = img if self.inplace and img.flags.writeable else img.copy()
                if self.value == "random":
                    out[..., top : top + eh, left : left + ew] = g.standard_normal((c, eh, ew)).astype(img.dtype)
                else:
                    v = np.resize(np.asarray(self.value, img.dtype).reshape(-1), c).reshape(c, 1, 1)
                    out[..., top : top + eh, left : left + ew] = v
                return out
        return img


def _crop_pil(img, top, left, h, w):
    return img.crop((left, top, left + w, top + h))


def _five(img, size):
    ch, cw = size
    if _is_pil(img):
        w, h = img.size
        crop = lambda t, left: _crop_pil(img, t, left, ch, cw)  # noqa: E731
    else:
        a = np.asarray(img)
        h, w = a.shape[:2]
        crop = lambda t, left: a[t : t + ch, left : left + cw].copy()  # noqa: E731
    if ch > h or cw > w:
        raise ValueError(f"Crop size {size} is larger than input image size {(h, w)}.")
    tl, tr = crop(0, 0), crop(0, w - cw)
    bl, br = crop(h - ch, 0), crop(h - ch, w - cw)
    center = crop(int(round((h - ch) / 2.0)), int(round((w - cw) / 2.0)))
    return (tl, tr, bl, br, center)


class FiveCrop(TensorOperation):
    """The four corner crops and the centre crop of ``size`` (a tuple of 5 images; PIL in, PIL out)."""

    def __init__(self, size) -> None:
        s = check_image_size(size)
        self.size = (s, s) if isinstance(s, int) else s

    def _apply(self, x):
        return _five(x, self.size)


class TenCrop(FiveCrop):
    """:class:`FiveCrop` of the image and of its flip (left-right, or upside down with ``use_vertical_flip``)."""

    def __init__(self, size, use_vertical_flip=False) -> None:
        super().__init__(size)
        if not isinstance(use_vertical_flip, bool):
            raise TypeError(
                f"Argument use_vertical_flip with value {use_vertical_flip} is not of type [<class 'bool'>]."
            )
        self.use_vertical_flip = use_vertical_flip

    def _apply(self, x):
        if _is_pil(x):
            from PIL import Image

            flipped = x.transpose(Image.FLIP_TOP_BOTTOM if self.use_vertical_flip else Image.FLIP_LEFT_RIGHT)
        else:
            a = np.asarray(x)
            flipped = a[::-1] if self.use_vertical_flip else a[:, ::-1]
        return _five(x, self.size) + _five(flipped, self.size)


class SlicePatches(TensorOperation):
    """Cut an image into ``num_height`` x ``num_width`` patches (outputs one column per patch), padding the
    image with ``fill_value`` to a multiple (``SliceMode.PAD``) or dropping the remainder (``SliceMode.DROP``)."""

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0) -> None:
        self.num_height = check_pipeline_int(num_height, "num_height", 1, 2**31 - 1)
        self.num_width = check_pipeline_int(num_width, "num_width", 1, 2**31 - 1)
        self.slice_mode = SliceMode(slice_mode)
        self.fill_value = check_pipeline_int(fill_value, "fill_value", 0, 255)

    def _apply(self, x):
        img = _img(x, "SlicePatches")
        h, w = img.shape[:2]
        nh, nw = self.num_height, self.num_width
        if self.slice_mode == SliceMode.PAD:
            ph, pw = -(-h // nh), -(-w // nw)
            pad = [(0, ph * nh - h), (0, pw * nw - w)] + [(0, 0)] * (img.ndim - 2)
            img = np.pad(img, pad, constant_values=self.fill_value)
        else:
            ph, pw = h // nh, w // nw
        return tuple(img[i * ph : (i + 1) * ph, j * pw : (j + 1) * pw].copy() for i in range(nh) for j in range(nw))
