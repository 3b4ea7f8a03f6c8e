"""Vision transforms (``mindspore.dataset.vision``), on HWC NumPy images, with OpenCV's arithmetic as
MindSpore's CPU kernels use it. Vectorised over a stack of images where that gives the same result."""

from __future__ import annotations

import numbers

import cv2
import numpy as np

from ..._checkparam import check_image_size, check_padding
from ..engine import _random
from ..transforms.transforms import TensorOperation, _is_pil, _np_input
from . import _opencv, _warp
from .utils import Border, ConvertMode, Inter

__all__ = [
    "Decode",
    "Resize",
    "Rescale",
    "Normalize",
    "HWC2CHW",
    "CenterCrop",
    "Crop",
    "RandomCrop",
    "RandomResizedCrop",
    "RandomHorizontalFlip",
    "RandomVerticalFlip",
    "HorizontalFlip",
    "VerticalFlip",
    "RandomRotation",
    "Rotate",
    "RandomColorAdjust",
    "Pad",
    "ToTensor",
    "ToPIL",
    "ToNumpy",
    "ToType",
    "Grayscale",
    "ConvertColor",
    "Invert",
]


_CV_MAX_CN = _opencv.MAX_CHANNELS
_CV_DTYPES = _opencv.COPY_DTYPES

_CV_INTER = {
    Inter.NEAREST: cv2.INTER_NEAREST,
    Inter.BILINEAR: cv2.INTER_LINEAR,
    Inter.BICUBIC: cv2.INTER_CUBIC,
    Inter.AREA: cv2.INTER_AREA,
}
_CV_BORDER = {
    Border.CONSTANT: cv2.BORDER_CONSTANT,
    Border.EDGE: cv2.BORDER_REPLICATE,
    Border.REFLECT: cv2.BORDER_REFLECT_101,
    Border.SYMMETRIC: cv2.BORDER_REFLECT,
}


def _pil_filter(mode: Inter):
    from PIL import Image

    r = Image.Resampling
    return {
        Inter.NEAREST: r.NEAREST,
        Inter.ANTIALIAS: r.LANCZOS,
        Inter.BILINEAR: r.BILINEAR,
        Inter.BICUBIC: r.BICUBIC,
        Inter.AREA: r.BOX,
        Inter.PILCUBIC: r.BICUBIC,
    }[mode]


def _image(x, name: str) -> np.ndarray:
    x = _np_input(x)
    if x.ndim not in (2, 3):
        raise RuntimeError(f"{name}: the input should be an image of shape <H, W> or <H, W, C>, but got rank {x.ndim}.")
    return x


def _out_size(size, h: int, w: int) -> tuple[int, int]:
    if isinstance(size, int):
        if h <= w:
            return size, int(w * size / h)
        return int(h * size / w), size
    return size


def _resize_cv(img: np.ndarray, oh: int, ow: int, mode: Inter) -> np.ndarray:
    if mode in (Inter.ANTIALIAS, Inter.PILCUBIC):
        from PIL import Image

        if img.dtype != np.uint8:
            raise RuntimeError(f"Resize: Inter.{mode.name} needs a uint8 image, but got {img.dtype}.")
        squeeze = img.ndim == 3 and img.shape[2] == 1
        pil = Image.fromarray(img[..., 0] if squeeze else img)
        out = np.asarray(pil.resize((ow, oh), _pil_filter(mode)))
        return out[..., None] if squeeze else out
    out = cv2.resize(img, (ow, oh), interpolation=_CV_INTER[mode])
    if img.ndim == 3 and out.ndim == 2:
        out = out[..., None]
    return out


class Decode(TensorOperation):
    """Decode an encoded image (JPEG, PNG, BMP...) into an RGB HWC uint8 array (a PIL image with ``to_pil``).

    Args:
        to_pil (bool, optional): return a PIL image. Default: ``False``.
    """

    def __init__(self, to_pil=False) -> None:
        self.to_pil = to_pil

    def _apply(self, x):
        img = _decode(_np_input(x))
        if self.to_pil:
            from PIL import Image

            return Image.fromarray(img)
        return img


def _decode(raw: np.ndarray, where: str = "") -> np.ndarray:
    raw = np.asarray(raw)
    if raw.dtype.kind == "S" and raw.ndim <= 1 and raw.size == 1:  # bytes, or a bytes column (MindDataset)
        raw = np.ascontiguousarray(raw.reshape(1)).view(np.uint8)
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise RuntimeError(
            f"Decode: invalid input, the input should be a 1-D uint8 array of encoded image bytes, but got {raw.dtype} of rank {raw.ndim}."
        )
    img = cv2.imdecode(raw, _IMREAD_RGB | _KEEP_ORIENTATION) if _IMREAD_RGB is not None else None
    if img is None:
        img = cv2.imdecode(raw, cv2.IMREAD_COLOR | _KEEP_ORIENTATION)
        if img is None:
            raise RuntimeError(
                f"Decode: failed to decode the image{' ' + where if where else ''}: the data is corrupt or not an image."
            )
        img = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
    return img


# OpenCV >= 4.10 decodes straight to RGB (the same pixels as BGR then a channel swap, one pass fewer)
_IMREAD_RGB = getattr(cv2, "IMREAD_COLOR_RGB", None)
# MindSpore decodes the pixels as stored: an EXIF orientation tag does not rotate them
_KEEP_ORIENTATION = cv2.IMREAD_IGNORE_ORIENTATION


class Resize(TensorOperation):
    """Resize to ``size``: an int resizes the shorter side (keeping the aspect ratio), a pair gives (h, w).

    Args:
        size (Union[int, Sequence[int]]): the size.
        interpolation (Inter, optional): the interpolation. Default: ``Inter.LINEAR`` (OpenCV bilinear,
            half-pixel centres).
    """

    def __init__(self, size, interpolation=Inter.LINEAR) -> None:
        self.size = check_image_size(size)
        self.interpolation = Inter(interpolation)

    def _apply(self, x):
        if _is_pil(x):
            oh, ow = _out_size(self.size, x.size[1], x.size[0])
            return x.resize((ow, oh), _pil_filter(self.interpolation))
        img = _image(x, "Resize")
        oh, ow = _out_size(self.size, img.shape[0], img.shape[1])
        return _resize_cv(img, oh, ow, self.interpolation)

    def _apply_batch(self, x):
        if x.ndim not in (3, 4) or self.interpolation not in _CV_INTER or x.dtype not in (np.uint8, np.float32):
            return NotImplemented
        n, h, w = x.shape[:3]
        c = x.shape[3] if x.ndim == 4 else 1
        oh, ow = _out_size(self.size, h, w)
        per = max(1, _CV_MAX_CN // c)
        if c > _CV_MAX_CN:
            return NotImplemented
        flat = np.ascontiguousarray(x).reshape(n, h * w * c)
        inter = _CV_INTER[self.interpolation]
        outs = []
        for a in range(0, n, per):
            # rows -> channels (a blocked 2-D transpose), one resize for up to _CV_MAX_CN channels, and back
            part = flat[a : a + per]
            k = len(part)
            stacked = cv2.transpose(part).reshape(h, w, c * k)
            r = cv2.resize(stacked, (ow, oh), interpolation=inter)
            outs.append(cv2.transpose(r.reshape(oh * ow * c, k)).reshape(k, oh, ow, c))
        out = outs[0] if len(outs) == 1 else np.concatenate(outs)
        return out if x.ndim == 4 else out[..., 0]


class Rescale(TensorOperation):
    """``image * rescale + shift``, as float32.

    Args:
        rescale (float): the scale.
        shift (float): the shift.
    """

    def __init__(self, rescale, shift) -> None:
        self.rescale = float(rescale)
        self.shift = float(shift)

    def _apply(self, x):
        return self._apply_batch(_np_input(x))

    def _apply_batch(self, x):
        # float64 product and sum, one rounding to float32: OpenCV's convertTo (fused multiply-add)
        y = x.astype(np.float64)
        y *= np.float32(self.rescale)
        y += np.float32(self.shift)
        return y.astype(np.float32)


class Normalize(TensorOperation):
    """``(image - mean) / std`` per channel, as float32.

    Args:
        mean (Sequence[float]): per-channel means.
        std (Sequence[float]): per-channel standard deviations.
        is_hwc (bool, optional): the image is HWC (else CHW). Default: ``True``.
    """

    def __init__(self, mean, std, is_hwc=True) -> None:
        self.mean = np.asarray(mean, np.float32).reshape(-1)
        self.std = np.asarray(std, np.float32).reshape(-1)
        if self.mean.shape != self.std.shape:
            raise ValueError("Normalize: mean and std must have the same length.")
        if (self.std <= 0).any():
            raise ValueError("Normalize: std must be positive.")
        self.is_hwc = is_hwc

    def _apply(self, x):
        img = _image(x, "Normalize")
        return self._norm(img, img.ndim == 2)

    def _norm(self, img, gray):
        c = 1 if gray else (img.shape[-1] if self.is_hwc else img.shape[-3])
        if len(self.mean) not in (1, c):
            raise RuntimeError(f"Normalize: {len(self.mean)} means for an image of {c} channels.")
        if img.dtype == np.uint8 and (self.is_hwc or gray) and c <= 4:
            return self._norm_u8(img, c)
        shape = (-1,) if self.is_hwc or gray else (-1, 1, 1)
        return ((img.astype(np.float32) - self.mean.reshape(shape)) / self.std.reshape(shape)).astype(np.float32)

    def _table(self, c):
        """The per-channel table of the 256 results, ``(1, 256, c)`` float32 (the same float32 arithmetic)."""
        lut = getattr(self, "_lut", None)
        if lut is None or lut.shape[-1] != c:
            levels = np.arange(256, dtype=np.float32)[:, None]
            lut = np.broadcast_to((levels - self.mean) / self.std, (256, c)).astype(np.float32)
            self._lut = lut = lut.reshape(1, 256, c)
            self._planes = [np.ascontiguousarray(lut[:, :, k]) for k in range(c)]
        return lut

    def _norm_u8(self, img, c):
        """uint8 HWC: a per-channel table of the 256 results, looked up."""
        lut = self._table(c)
        flat = np.ascontiguousarray(img).reshape(-1, 1, c) if c > 1 else np.ascontiguousarray(img).reshape(-1, 1)
        return cv2.LUT(flat, lut if c > 1 else lut.reshape(1, 256)).reshape(img.shape)

    def _apply_batch(self, x):
        if x.ndim not in (3, 4):
            return NotImplemented
        return self._norm(x, x.ndim == 3)

    def _then(self, nxt):
        """The map's one-pass kernel for this then ``nxt`` (``HWC2CHW``: :func:`normalize_chw`), or ``None``."""
        if type(self) is Normalize and type(nxt) is HWC2CHW:
            return lambda x, out: normalize_chw(self, x, out)
        return None


def _to_chw(img: np.ndarray, out: np.ndarray) -> None:
    """Write the HWC ``img`` into the CHW ``out``: OpenCV's split deinterleaves straight into ``out``'s planes
    (several times faster than NumPy's strided copy); NumPy copies where OpenCV does not take the image."""
    if img.dtype in _CV_DTYPES and img.shape[2] <= _CV_MAX_CN:
        planes = list(out)
        got = cv2.split(img, planes)
        if len(got) == len(planes) and all(a is b for a, b in zip(got, planes)):
            return
    out[...] = img.transpose(2, 0, 1)


def normalize_chw(norm: Normalize, img, out: np.ndarray | None = None) -> np.ndarray | None:
    """``HWC2CHW()(norm(img))`` in one pass for a uint8 HWC ``img``: each channel's plane looked up in its
    table straight into its CHW plane (of ``out`` where given and of the right shape, else of a new array).
    The same values; ``None`` where the two operations must run as they are (any other input)."""
    if not (isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.ndim == 3 and norm.is_hwc):
        return None
    h, w, c = img.shape
    if not 1 < c <= min(4, _CV_MAX_CN) or len(norm.mean) not in (1, c):
        return None
    if out is None or out.shape != (c, h, w) or out.dtype != np.float32 or not out.flags.c_contiguous:
        out = np.empty((c, h, w), np.float32)
    norm._table(c)
    for k, plane in enumerate(cv2.split(img)):
        got = cv2.LUT(plane, norm._planes[k], dst=out[k])
        if got is not None and not np.shares_memory(got, out[k]):
            out[k] = got
    return out


class HWC2CHW(TensorOperation):
    """Transpose an HWC image to CHW (a 2-D image is returned as is)."""

    def _apply(self, x):
        img = _image(x, "HWC2CHW")
        if img.ndim == 2:
            return img
        out = np.empty((img.shape[2], img.shape[0], img.shape[1]), img.dtype)
        _to_chw(img, out)
        return out

    def _apply_batch(self, x):
        if x.ndim == 3:
            return x
        if x.ndim != 4:
            return NotImplemented
        out = np.empty((x.shape[0], x.shape[3], x.shape[1], x.shape[2]), x.dtype)
        for img, o in zip(x, out):
            _to_chw(img, o)
        return out


def _crop(img, top, left, h, w):
    return img[top : top + h, left : left + w]


class Crop(TensorOperation):
    """Crop the ``size`` region whose top-left corner is ``coordinates`` (top, left)."""

    def __init__(self, coordinates, size) -> None:
        self.coordinates = tuple(coordinates)
        self.size = check_image_size(size)

    def _apply(self, x):
        img = _image(x, "Crop")
        h, w = (self.size, self.size) if isinstance(self.size, int) else self.size
        t, left = self.coordinates
        if t + h > img.shape[0] or left + w > img.shape[1]:
            raise RuntimeError(f"Crop: the crop box exceeds the image of shape {img.shape}.")
        return _crop(img, t, left, h, w).copy()


class CenterCrop(TensorOperation):
    """Crop the centre ``size`` region (padding with zeros where the image is smaller).

    Args:
        size (Union[int, Sequence[int]]): output (h, w), or one int for a square.
    """

    def __init__(self, size) -> None:
        self.size = check_image_size(size)

    def _hw(self):
        return (self.size, self.size) if isinstance(self.size, int) else self.size

    def _apply(self, x):
        img = _image(x, "CenterCrop")
        ch, cw = self._hw()
        h, w = img.shape[:2]
        if ch > h or cw > w:
            pt, pl = max(0, (ch - h + 1) // 2), max(0, (cw - w + 1) // 2)
            pad = [(pt, max(0, ch - h - pt)), (pl, max(0, cw - w - pl))] + [(0, 0)] * (img.ndim - 2)
            img = np.pad(img, pad)
            h, w = img.shape[:2]
        top = int(round((h - ch) / 2.0))
        left = int(round((w - cw) / 2.0))
        return _crop(img, top, left, ch, cw).copy()

    def _apply_batch(self, x):
        if x.ndim not in (3, 4):
            return NotImplemented
        ch, cw = self._hw()
        h, w = x.shape[1:3]
        if ch > h or cw > w:
            return NotImplemented
        top, left = int(round((h - ch) / 2.0)), int(round((w - cw) / 2.0))
        return x[:, top : top + ch, left : left + cw].copy()


def _pad(img, left, top, right, bottom, fill, mode):
    mode = Border(mode)
    value = fill if isinstance(fill, (tuple, list)) else (fill,) * 4
    out = cv2.copyMakeBorder(img, top, bottom, left, right, _CV_BORDER[mode], value=tuple(float(v) for v in value))
    if img.ndim == 3 and out.ndim == 2:
        out = out[..., None]
    return out


class Pad(TensorOperation):
    """Pad the borders.

    Args:
        padding (Union[int, Sequence[int]]): all sides, (left/right, top/bottom), or (left, top, right, bottom).
        fill_value (Union[int, tuple[int]], optional): value of ``Border.CONSTANT``. Default: 0.
        padding_mode (Border, optional): the mode. Default: ``Border.CONSTANT``.
    """

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT) -> None:
        self.padding = check_padding(padding)
        self.fill_value = fill_value
        self.padding_mode = Border(padding_mode)

    def _apply(self, x):
        img = _image(x, "Pad")
        return _pad(img, *self.padding, self.fill_value, self.padding_mode)


class RandomCrop(TensorOperation):
    """Crop a random ``size`` region (after optional padding).

    Args:
        size (Union[int, Sequence[int]]): output (h, w).
        padding (Union[int, Sequence[int]], optional): padding first. Default: ``None``.
        pad_if_needed (bool, optional): pad an image smaller than ``size``. Default: ``False``.
        fill_value (Union[int, tuple[int]], optional): padding value. Default: 0.
        padding_mode (Border, optional): padding mode. Default: ``Border.CONSTANT``.
    """

    _random = True

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT) -> None:
        self.size = check_image_size(size)
        self.padding = None if padding is None else check_padding(padding)
        self.pad_if_needed = pad_if_needed
        self.fill_value = fill_value
        self.padding_mode = Border(padding_mode)

    def _apply(self, x):
        img = _image(x, "RandomCrop")
        ch, cw = (self.size, self.size) if isinstance(self.size, int) else self.size
        if self.padding is not None:
            img = _pad(img, *self.padding, self.fill_value, self.padding_mode)
        h, w = img.shape[:2]
        if self.pad_if_needed and (h < ch or w < cw):
            dh, dw = max(0, ch - h), max(0, cw - w)
            img = _pad(img, dw, dh, dw, dh, self.fill_value, self.padding_mode)
            h, w = img.shape[:2]
        if h < ch or w < cw:
            raise RuntimeError(f"RandomCrop: the crop size {(ch, cw)} is larger than the image {(h, w)}.")
        g = _random.rng()
        top = int(g.integers(0, h - ch + 1))
        left = int(g.integers(0, w - cw + 1))
        return _crop(img, top, left, ch, cw).copy()


class RandomResizedCrop(TensorOperation):
    """Crop a random region (area fraction in ``scale``, aspect ratio in ``ratio``) and resize it to ``size``.

    Args:
        size (Union[int, Sequence[int]]): output (h, w).
        scale (tuple, optional): area fraction range. Default: (0.08, 1.0).
        ratio (tuple, optional): aspect-ratio range. Default: (3/4, 4/3).
        interpolation (Inter, optional): Default: ``Inter.BILINEAR``.
        max_attempts (int, optional): tries before falling back to a centre crop. Default: 10.
    """

    _random = True

    def __init__(
        self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=Inter.BILINEAR, max_attempts=10
    ) -> None:
        s = check_image_size(size)
        self.size = (s, s) if isinstance(s, int) else s
        self.scale, self.ratio = tuple(scale), tuple(ratio)
        self.interpolation = Inter(interpolation)
        self.max_attempts = max_attempts

    def _apply(self, x):
        img = _image(x, "RandomResizedCrop")
        h, w = img.shape[:2]
        g = _random.rng()
        area = h * w
        for _ in range(self.max_attempts):
            target = area * g.uniform(*self.scale)
            ar = np.exp(g.uniform(np.log(self.ratio[0]), np.log(self.ratio[1])))
            cw = int(round(np.sqrt(target * ar)))
            ch = int(round(np.sqrt(target / ar)))
            if 0 < cw <= w and 0 < ch <= h:
                top = int(g.integers(0, h - ch + 1))
                left = int(g.integers(0, w - cw + 1))
                break
        else:
            in_ratio = w / h
            if in_ratio < self.ratio[0]:
                cw, ch = w, int(round(w / self.ratio[0]))
            elif in_ratio > self.ratio[1]:
                ch, cw = h, int(round(h * self.ratio[1]))
            else:
                cw, ch = w, h
            top, left = (h - ch) // 2, (w - cw) // 2
        # the crop is a view: OpenCV and Pillow read its rows in place
        return _resize_cv(_crop(img, top, left, ch, cw), self.size[0], self.size[1], self.interpolation)


def _flip_lr(img: np.ndarray) -> np.ndarray:
    """A left-right flipped copy: OpenCV's flip where it takes the image (NumPy's reversed-stride copy of
    interleaved pixels is several times slower), NumPy's otherwise."""
    if img.dtype in _CV_DTYPES and (img.ndim == 2 or img.shape[2] <= _CV_MAX_CN):
        return cv2.flip(img, 1).reshape(img.shape)
    return np.ascontiguousarray(img[:, ::-1])


class HorizontalFlip(TensorOperation):
    """Flip left-right."""

    def _apply(self, x):
        return _flip_lr(_image(x, "HorizontalFlip"))

    def _apply_batch(self, x):
        return np.ascontiguousarray(x[:, :, ::-1]) if x.ndim in (3, 4) else NotImplemented


class VerticalFlip(TensorOperation):
    """Flip upside down."""

    def _apply(self, x):
        return np.ascontiguousarray(_image(x, "VerticalFlip")[::-1])

    def _apply_batch(self, x):
        return np.ascontiguousarray(x[:, ::-1]) if x.ndim in (3, 4) else NotImplemented


class RandomHorizontalFlip(TensorOperation):
    """Flip left-right with probability ``prob``.

    Args:
        prob (float, optional): probability. Default: 0.5.
    """

    _random = True

    def __init__(self, prob=0.5) -> None:
        if not 0.0 <= prob <= 1.0:
            raise ValueError(f"Input prob is not within the required interval of [0.0, 1.0], got {prob}.")
        self.prob = prob

    def _apply(self, x):
        img = _image(x, type(self).__name__)
        return self._flip(img) if _random.rng().random() < self.prob else img

    @staticmethod
    def _flip(img):
        return _flip_lr(img)


class RandomVerticalFlip(RandomHorizontalFlip):
    """Flip upside down with probability ``prob``."""

    @staticmethod
    def _flip(img):
        return np.ascontiguousarray(img[::-1])


_WARP_KIND = {Inter.NEAREST: _warp.NEAREST, Inter.BILINEAR: _warp.LINEAR, Inter.BICUBIC: _warp.CUBIC}


def _rotate(img, degrees, resample, expand, center, fill_value):
    """MindSpore's Rotate: OpenCV 4's rotation matrix and warpAffine; ``expand`` sizes the output to the
    rotated rectangle's bounding box (rounded); the fill value reaches the channels in reverse order
    (MindSpore hands OpenCV ``(b, g, r)``)."""
    h, w = img.shape[:2]
    cx, cy = ((w - 1) / 2.0, (h - 1) / 2.0) if center is None else (float(center[0]), float(center[1]))
    m = _warp.rotation_matrix(cx, cy, degrees)
    ow, oh = w, h
    if expand:
        bw, bh = _warp.rotated_bbox(cx, cy, w, h, degrees)
        m[0, 2] += bw / 2.0 - w / 2.0
        m[1, 2] += bh / 2.0 - h / 2.0
        ow, oh = int(np.rint(np.float32(bw))), int(np.rint(np.float32(bh)))
    value = tuple(fill_value) if isinstance(fill_value, (tuple, list)) else (fill_value,) * 3
    scalar = (value[2], value[1], value[0], 0)
    channels = img.shape[2] if img.ndim == 3 else 1
    fill = [scalar[c] if c < 4 else 0 for c in range(channels)]
    return _warp.warp_affine(img, m, ow, oh, _WARP_KIND.get(Inter(resample), _warp.LINEAR), fill)


class Rotate(TensorOperation):
    """Rotate counter-clockwise by ``degrees``.

    Args:
        degrees (float): the angle.
        resample (Inter, optional): Default: ``Inter.NEAREST``.
        expand (bool, optional): grow the output to hold the whole image. Default: ``False``.
        center (tuple, optional): (x, y) centre. Default: the image centre.
        fill_value (Union[int, tuple[int]], optional): outside value. Default: 0.
    """

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0) -> None:
        self.degrees, self.resample, self.expand, self.center, self.fill_value = (
            float(degrees),
            Inter(resample),
            expand,
            center,
            fill_value,
        )

    def _apply(self, x):
        return _rotate(_image(x, "Rotate"), self.degrees, self.resample, self.expand, self.center, self.fill_value)


class RandomRotation(Rotate):
    """Rotate by an angle drawn uniformly from ``degrees`` ((min, max), or (-d, d) for one number)."""

    _random = True

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0) -> None:
        if isinstance(degrees, numbers.Real):
            if degrees < 0:
                raise ValueError("degrees must be non-negative when it is a single number.")
            degrees = (-degrees, degrees)
        self.range = (float(degrees[0]), float(degrees[1]))
        super().__init__(0.0, resample, expand, center, fill_value)

    def _apply(self, x):
        d = float(_random.rng().uniform(*self.range))
        return _rotate(_image(x, "RandomRotation"), d, self.resample, self.expand, self.center, self.fill_value)


def _blend(a, b, factor):
    out = a.astype(np.float32) * factor + b.astype(np.float32) * (1 - factor)
    return np.clip(out, 0, 255).astype(np.uint8) if a.dtype == np.uint8 else out.astype(a.dtype)


def _gray(img):
    if img.ndim == 2 or img.shape[2] == 1:
        return img.reshape(img.shape[0], img.shape[1])
    return cv2.cvtColor(np.ascontiguousarray(img[..., :3]), cv2.COLOR_RGB2GRAY)


class RandomColorAdjust(TensorOperation):
    """Random brightness, contrast, saturation and hue changes (in a random order).

    Args:
        brightness, contrast, saturation (Union[float, Sequence[float]], optional): factor ranges
            ([max(0, 1 - v), 1 + v] for one number). Default: (1, 1).
        hue (Union[float, Sequence[float]], optional): shift range in [-0.5, 0.5]. Default: (0, 0).
    """

    _random = True

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)) -> None:
        def rng_of(v, center=1.0, bound=None):
            if isinstance(v, numbers.Number):
                v = (max(0.0, center - v), center + v) if bound is None else (-v, v)
            return (float(v[0]), float(v[1]))

        self.brightness = rng_of(brightness)
        self.contrast = rng_of(contrast)
        self.saturation = rng_of(saturation)
        self.hue = rng_of(hue, 0.0, 0.5)
        if not -0.5 <= self.hue[0] <= self.hue[1] <= 0.5:
            raise ValueError("hue must be within [-0.5, 0.5].")

    def _apply(self, x):
        img = _image(x, "RandomColorAdjust")
        if img.ndim != 3 or img.shape[2] != 3:
            raise RuntimeError(
                f"RandomColorAdjust: the input should be an RGB image <H, W, 3>, but got shape {img.shape}."
            )
        g = _random.rng()
        for k in g.permutation(4).tolist():
            if k == 0 and self.brightness != (1, 1):
                img = _blend(img, np.zeros_like(img), g.uniform(*self.brightness))
            elif k == 1 and self.contrast != (1, 1):
                mean = float(_gray(img).mean())
                img = _blend(
                    img,
                    np.full_like(img, int(mean + 0.5) if img.dtype == np.uint8 else mean),
                    g.uniform(*self.contrast),
                )
            elif k == 2 and self.saturation != (1, 1):
                img = _blend(img, np.repeat(_gray(img)[..., None], 3, axis=2), g.uniform(*self.saturation))
            elif k == 3 and self.hue != (0, 0):
                shift = g.uniform(*self.hue)
                if img.dtype == np.uint8:
                    hsv = cv2.cvtColor(img, cv2.COLOR_RGB2HSV_FULL)
                    hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(round(shift * 255))) % 256).astype(np.uint8)
                    img = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB_FULL)
        return img


class Grayscale(TensorOperation):
    """Convert RGB to grayscale (``num_output_channels`` 1 or 3)."""

    def __init__(self, num_output_channels=1) -> None:
        if num_output_channels not in (1, 3):
            raise ValueError("num_output_channels must be 1 or 3.")
        self.num_output_channels = num_output_channels

    def _apply(self, x):
        if _is_pil(x):
            return x.convert("L") if self.num_output_channels == 1 else x.convert("L").convert("RGB")
        g = _gray(_image(x, "Grayscale"))
        return g[..., None] if self.num_output_channels == 1 else np.repeat(g[..., None], 3, axis=2)


class ConvertColor(TensorOperation):
    """Convert between color spaces (``ConvertMode``, OpenCV's conversions)."""

    _CODES = {
        ConvertMode.COLOR_BGR2BGRA: cv2.COLOR_BGR2BGRA,
        ConvertMode.COLOR_BGRA2BGR: cv2.COLOR_BGRA2BGR,
        ConvertMode.COLOR_BGR2RGBA: cv2.COLOR_BGR2RGBA,
        ConvertMode.COLOR_RGBA2BGR: cv2.COLOR_RGBA2BGR,
        ConvertMode.COLOR_BGR2RGB: cv2.COLOR_BGR2RGB,
        ConvertMode.COLOR_BGRA2RGBA: cv2.COLOR_BGRA2RGBA,
        ConvertMode.COLOR_BGR2GRAY: cv2.COLOR_BGR2GRAY,
        ConvertMode.COLOR_RGB2GRAY: cv2.COLOR_RGB2GRAY,
        ConvertMode.COLOR_GRAY2BGR: cv2.COLOR_GRAY2BGR,
        ConvertMode.COLOR_GRAY2BGRA: cv2.COLOR_GRAY2BGRA,
        ConvertMode.COLOR_BGRA2GRAY: cv2.COLOR_BGRA2GRAY,
        ConvertMode.COLOR_RGBA2GRAY: cv2.COLOR_RGBA2GRAY,
    }

    def __init__(self, convert_mode) -> None:
        self.convert_mode = ConvertMode(convert_mode)

    def _apply(self, x):
        img = np.ascontiguousarray(_image(x, "ConvertColor"))
        return cv2.cvtColor(img, self._CODES[self.convert_mode])


class Invert(TensorOperation):
    """``255 - image`` for uint8 RGB images."""

    def _apply(self, x):
        img = _image(x, "Invert")
        if img.dtype != np.uint8:
            raise RuntimeError("Invert: the input should be a uint8 image.")
        return 255 - img

    def _apply_batch(self, x):
        return 255 - x if x.dtype == np.uint8 else NotImplemented


class ToTensor(TensorOperation):
    """HWC image (uint8 or PIL) -> CHW ``output_type`` (float32) scaled to [0, 1].

    Args:
        output_type (numpy.dtype, optional): Default: ``numpy.float32``.
    """

    def __init__(self, output_type=np.float32) -> None:
        from ..transforms.transforms import _np_dtype

        self.output_type = _np_dtype(output_type)

    def _apply(self, x):
        img = np.asarray(x) if _is_pil(x) else _np_input(x)
        if img.ndim == 2:
            img = img[..., None]
        if img.ndim != 3:
            raise RuntimeError(f"ToTensor: the input should be an image <H, W> or <H, W, C>, but got rank {img.ndim}.")
        return (img.astype(np.float32) * np.float32(1 / 255)).transpose(2, 0, 1).astype(self.output_type)

    def _apply_batch(self, x):
        if x.ndim != 4:
            return NotImplemented
        return (x.astype(np.float32) * np.float32(1 / 255)).transpose(0, 3, 1, 2).astype(self.output_type)


class ToPIL(TensorOperation):
    """NumPy HWC image -> PIL image."""

    def _apply(self, x):
        from PIL import Image

        if _is_pil(x):
            return x
        img = _np_input(x)
        return Image.fromarray(img[..., 0] if img.ndim == 3 and img.shape[2] == 1 else img)


class ToNumpy(TensorOperation):
    """PIL image -> NumPy array."""

    def _apply(self, x):
        return np.asarray(x)


class ToType(TensorOperation):
    """Cast to a NumPy dtype (or a sporax dtype)."""

    def __init__(self, data_type) -> None:
        from ..transforms.transforms import _np_dtype

        self._np = _np_dtype(data_type)

    def _apply(self, x):
        return np.asarray(x).astype(self._np)

    def _apply_batch(self, x):
        return x.astype(self._np)
