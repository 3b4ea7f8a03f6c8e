"""Pixel-value transforms (``mindspore.dataset.vision``): the adjust family, AutoContrast, Equalize, Posterize,
Solarize, GaussianBlur, RgbToHsv/HsvToRgb, NormalizePad, LinearTransformation and their random forms, with
OpenCV's arithmetic as MindSpore's CPU kernels use it (``saturate_cast`` rounding to nearest-even)."""

from __future__ import annotations

import numbers

import cv2
import numpy as np

from ..._checkparam import (
    check_degree_range,
    check_ignore_levels,
    check_pipeline_float,
    check_pipeline_int,
    check_threshold_pair,
)
from ..engine import _random
from ..transforms.transforms import TensorOperation

__all__ = [
    "AdjustBrightness",
    "AdjustContrast",
    "AdjustSaturation",
    "AdjustHue",
    "AdjustGamma",
    "AdjustSharpness",
    "AutoContrast",
    "Equalize",
    "Posterize",
    "Solarize",
    "GaussianBlur",
    "RgbToHsv",
    "HsvToRgb",
    "NormalizePad",
    "LinearTransformation",
    "RandomAdjustSharpness",
    "RandomAutoContrast",
    "RandomColor",
    "RandomEqualize",
    "RandomInvert",
    "RandomPosterize",
    "RandomSharpness",
    "RandomSolarize",
    "RandomGrayscale",
    "RandomLighting",
]


def _img(x, name: str, rgb: bool = False) -> np.ndarray:
    x = np.asarray(x)
    if x.ndim not in (2, 3):
        raise RuntimeError(f"{name}: input tensor is not in shape of <H,W> or <H,W,C>, but got rank: {x.ndim}")
    if rgb and (x.ndim != 3 or x.shape[2] != 3):
        raise RuntimeError(f"{name}: image shape is not <H,W,C> or channel is not 3, got image shape: {list(x.shape)}")
    return x


def _sat_u8(x: np.ndarray | np.floating) -> np.ndarray:
    return np.clip(np.rint(x), 0, 255).astype(np.uint8)


def _weighted(a: np.ndarray, alpha: float, b: np.ndarray, beta: float) -> np.ndarray:
    """``cv::addWeighted(a, alpha, b, beta, 0)`` in a's dtype."""
    return cv2.addWeighted(np.ascontiguousarray(a), alpha, np.ascontiguousarray(b), beta, 0.0)


def _gray3(img: np.ndarray) -> np.ndarray:
    g = cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_RGB2GRAY)
    return cv2.cvtColor(g, cv2.COLOR_GRAY2RGB)


def adjust_brightness(img: np.ndarray, factor: float) -> np.ndarray:
    return _weighted(img, factor, np.zeros_like(img), 0.0)


def adjust_contrast(img: np.ndarray, factor: float) -> np.ndarray:
    mean = cv2.mean(cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_RGB2GRAY))[0]
    mean_img = np.full_like(img, _sat_u8(np.float64(mean)) if img.dtype == np.uint8 else mean)
    return _weighted(img, factor, mean_img, 1.0 - factor)


def adjust_saturation(img: np.ndarray, factor: float) -> np.ndarray:
    return _weighted(img, factor, _gray3(img), 1.0 - factor)


def adjust_hue(img: np.ndarray, factor: float) -> np.ndarray:
    hsv = cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_RGB2HSV_FULL)
    shift = int(factor * 255)
    hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + shift) % 256).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB_FULL)


def adjust_gamma(img: np.ndarray, gamma: float, gain: float) -> np.ndarray:
    if img.dtype == np.uint8:
        # MindSpore's table: floor(256 * gain * (i / 255) ** gamma), saturated
        table = np.clip(np.floor(np.power(np.arange(256) / 255.0, gamma) * 256.0 * gain), 0, 255).astype(np.uint8)
        return table[img]
    return (np.power(img.astype(np.float32), gamma) * gain).astype(img.dtype)


def adjust_sharpness(img: np.ndarray, factor: float) -> np.ndarray:
    k = np.ones((3, 3), np.float32)
    k[1, 1] = 5
    k /= 13
    blur = cv2.filter2D(np.ascontiguousarray(img), -1, k, borderType=cv2.BORDER_REFLECT_101)
    if blur.ndim == 2 and img.ndim == 3:
        blur = blur[..., None]
    blur[0], blur[-1], blur[:, 0], blur[:, -1] = img[0], img[-1], img[:, 0], img[:, -1]
    return _weighted(img, factor, blur, 1.0 - factor).reshape(img.shape)


def _lut_u8(img: np.ndarray, tables: list) -> np.ndarray | None:
    """``tables[c][img[..., c]]`` for a uint8 image with one 256-entry uint8 table per channel (or one for all;
    None: the channel as it is), by OpenCV's LUT (None where it does not take the image)."""
    if img.dtype != np.uint8 or (img.ndim == 3 and img.shape[2] > 4):
        return None
    tables = [np.arange(256, dtype=np.uint8) if t is None else t for t in tables]
    lut = np.stack(tables, -1).reshape(1, 256, len(tables)) if len(tables) > 1 else tables[0].reshape(1, 256)
    return cv2.LUT(np.ascontiguousarray(img), lut).reshape(img.shape)


def _hist_u8(img: np.ndarray) -> list:
    """Each channel's 256-bin histogram (int64) of a uint8 image."""
    if img.ndim == 3 and img.shape[2] <= 4 and img.size // img.shape[2] < 1 << 24:  # float32 bins stay exact
        src = np.ascontiguousarray(img)
        return [cv2.calcHist([src], [c], None, [256], [0, 256]).ravel().astype(np.int64) for c in range(img.shape[2])]
    planes = [img] if img.ndim == 2 else [img[..., c] for c in range(img.shape[2])]
    return [np.bincount(p.ravel(), minlength=256).astype(np.int64) for p in planes]


def auto_contrast(img: np.ndarray, cutoff: float, ignore) -> np.ndarray:
    planes = [img] if img.ndim == 2 else [img[..., c] for c in range(img.shape[2])]
    hists = _hist_u8(img) if img.dtype == np.uint8 else [np.bincount(p.ravel(), minlength=256) for p in planes]
    tables: list[np.ndarray | None] = []
    for hist in hists:
        hist = hist.astype(np.int64)
        for i in ignore:
            hist[i] = 0
        if cutoff > 0:
            n = hist.sum()
            cut = int(n * cutoff / 100)
            lo_cut, hi_cut = cut, cut
            for i in range(256):
                take = min(lo_cut, hist[i])
                hist[i] -= take
                lo_cut -= take
            for i in range(255, -1, -1):
                take = min(hi_cut, hist[i])
                hist[i] -= take
                hi_cut -= take
        nz = np.nonzero(hist)[0]
        if len(nz) == 0 or nz[0] >= nz[-1]:
            tables.append(None)  # the channel as it is
            continue
        lo, hi = int(nz[0]), int(nz[-1])
        scale = 255.0 / (hi - lo)
        offset = -lo * scale
        tables.append(np.floor(np.clip(np.arange(256) * scale + offset, 0, 255)).astype(np.uint8))
    out = _lut_u8(img, tables)
    if out is not None:
        return out
    outs = [p.copy() if t is None else t[p] for t, p in zip(tables, planes)]
    return outs[0] if img.ndim == 2 else np.stack(outs, axis=-1)


def equalize(img: np.ndarray) -> np.ndarray:
    if img.ndim == 2:
        return cv2.equalizeHist(np.ascontiguousarray(img))
    if img.shape[2] <= 4:
        return cv2.merge([cv2.equalizeHist(p) for p in cv2.split(np.ascontiguousarray(img))]).reshape(img.shape)
    return np.stack([cv2.equalizeHist(np.ascontiguousarray(img[..., c])) for c in range(img.shape[2])], -1)


def posterize(img: np.ndarray, bits: int) -> np.ndarray:
    return img & np.uint8((0xFF << (8 - bits)) & 0xFF)


def solarize(img: np.ndarray, lo: float, hi: float) -> np.ndarray:
    if img.dtype == np.uint8:
        levels = np.arange(256)
        table = np.where((levels >= lo) & (levels <= hi), 255 - levels, levels).astype(np.uint8)
        out = _lut_u8(img, [table])
        if out is not None:
            return out
    inv = 255 - img
    return np.where((img >= lo) & (img <= hi), inv, img).astype(img.dtype)


# ---------------------------------------------------------------------------------------- transforms
class AdjustBrightness(TensorOperation):
    """Multiply the pixel values by ``brightness_factor`` (0 gives black, 1 the original)."""

    def __init__(self, brightness_factor) -> None:
        self.brightness_factor = check_pipeline_float(brightness_factor, "brightness_factor", 0)

    def _apply(self, x):
        return adjust_brightness(_img(x, "AdjustBrightness", True), self.brightness_factor)


class AdjustContrast(TensorOperation):
    """Blend with the mean gray level: ``img * f + mean * (1 - f)``."""

    def __init__(self, contrast_factor) -> None:
        self.contrast_factor = check_pipeline_float(contrast_factor, "contrast_factor", 0)

    def _apply(self, x):
        return adjust_contrast(_img(x, "AdjustContrast", True), self.contrast_factor)


class AdjustSaturation(TensorOperation):
    """Blend with the grayscale image: ``img * f + gray * (1 - f)``."""

    def __init__(self, saturation_factor) -> None:
        self.saturation_factor = check_pipeline_float(saturation_factor, "saturation_factor", 0)

    def _apply(self, x):
        return adjust_saturation(_img(x, "AdjustSaturation", True), self.saturation_factor)


class AdjustHue(TensorOperation):
    """Shift the hue by ``hue_factor`` of a turn (in [-0.5, 0.5])."""

    def __init__(self, hue_factor) -> None:
        self.hue_factor = check_pipeline_float(hue_factor, "hue_factor", -0.5, 0.5)

    def _apply(self, x):
        return adjust_hue(_img(x, "AdjustHue", True), self.hue_factor)


class AdjustGamma(TensorOperation):
    """``floor(256 * gain * (img / 255) ** gamma)`` (uint8, MindSpore's table), ``gain * img ** gamma`` (float)."""

    def __init__(self, gamma, gain=1) -> None:
        self.gamma = check_pipeline_float(gamma, "gamma", 0)
        if isinstance(gain, bool) or not isinstance(gain, numbers.Real):
            raise TypeError(f"Argument gain with value {gain} is not of type [<class 'float'>, <class 'int'>].")
        self.gain = float(gain)

    def _apply(self, x):
        return adjust_gamma(_img(x, "AdjustGamma"), self.gamma, self.gain)


class AdjustSharpness(TensorOperation):
    """Blend with a smoothed image: 0 blurs, 1 keeps, 2 sharpens."""

    def __init__(self, sharpness_factor) -> None:
        self.sharpness_factor = check_pipeline_float(sharpness_factor, "sharpness_factor", 0)

    def _apply(self, x):
        return adjust_sharpness(_img(x, "AdjustSharpness"), self.sharpness_factor)


class AutoContrast(TensorOperation):
    """Stretch each channel's histogram to [0, 255], after cutting ``cutoff`` percent of the darkest and the
    brightest pixels, values in ``ignore`` left out."""

    def __init__(self, cutoff=0.0, ignore=None) -> None:
        self.cutoff = check_pipeline_float(cutoff, "cutoff", 0.0, 50.0)
        if self.cutoff >= 50:
            raise ValueError("Input cutoff is not within the required interval of [0, 50).")
        self.ignore = check_ignore_levels(ignore)

    def _apply(self, x):
        return auto_contrast(_img(x, "AutoContrast"), self.cutoff, self.ignore)


class Equalize(TensorOperation):
    """Equalize the histogram of each channel (OpenCV's ``equalizeHist``)."""

    def _apply(self, x):
        img = _img(x, "Equalize")
        if img.dtype != np.uint8:
            raise RuntimeError("Equalize: image type is not uint8.")
        return equalize(img)


class Posterize(TensorOperation):
    """Keep the ``bits`` high bits of each value."""

    def __init__(self, bits) -> None:
        self.bits = check_pipeline_int(bits, "bits", 0, 8)

    def _apply(self, x):
        img = _img(x, "Posterize")
        if img.dtype != np.uint8:
            raise RuntimeError("Posterize: input image data type must be uint8.")
        return posterize(img, self.bits)


class Solarize(TensorOperation):
    """Invert the values in ``[threshold, 255]`` (one number) or ``[min, max]`` (a pair)."""

    def __init__(self, threshold) -> None:
        self.threshold = threshold
        self._range = check_threshold_pair(threshold)

    def _apply(self, x):
        return solarize(_img(x, "Solarize"), *self._range)


class GaussianBlur(TensorOperation):
    """Gaussian blur with an odd ``kernel_size`` (width, height) and ``sigma`` (x, y); a missing sigma is
    ``0.3 * ((k - 1) * 0.5 - 1) + 0.8``."""

    def __init__(self, kernel_size, sigma=None) -> None:
        sizes = [kernel_size] * 2 if isinstance(kernel_size, numbers.Integral) else list(kernel_size)
        ks: list[int] = []
        for size in sizes:
            k = check_pipeline_int(size, "kernel_size", 1, 16777216)
            ks.append(k)
            if k % 2 == 0:
                raise ValueError(f"Input kernel_size is not an odd value, got: {k}.")
        if sigma is None:
            sg = [0.3 * ((k - 1) * 0.5 - 1) + 0.8 for k in ks]
        else:
            sigmas = [sigma] * 2 if isinstance(sigma, numbers.Real) else list(sigma)
            sg = [check_pipeline_float(s, "sigma", 0) for s in sigmas]
        self.kernel_size, self.sigma = kernel_size, sigma
        self._ks, self._sigma = ks, sg

    def _apply(self, x):
        img = np.ascontiguousarray(_img(x, "GaussianBlur"))
        out = cv2.GaussianBlur(
            img, tuple(self._ks), self._sigma[0], sigmaY=self._sigma[1], borderType=cv2.BORDER_REFLECT_101
        )
        return out.reshape(img.shape)


def _rgb_to_hsv(img):
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    mx, mn = img.max(-1), img.min(-1)
    d = mx - mn
    v = mx
    s = np.where(mx > 0, d / np.where(mx > 0, mx, 1), 0)
    dz = np.where(d > 0, d, 1)
    rc, gc, bc = (mx - r) / dz, (mx - g) / dz, (mx - b) / dz
    h = np.where(r == mx, bc - gc, np.where(g == mx, 2.0 + rc - bc, 4.0 + gc - rc))
    h = np.where(d > 0, (h / 6.0) % 1.0, 0.0)
    return np.stack([h, s, v], -1)


def _hsv_to_rgb(img):
    h, s, v = img[..., 0], img[..., 1], img[..., 2]
    i = np.floor(h * 6.0)
    f = h * 6.0 - i
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    i = i.astype(np.int64) % 6
    r = np.choose(i, [v, q, p, p, t, v])
    g = np.choose(i, [t, v, v, q, p, p])
    b = np.choose(i, [p, p, t, v, v, q])
    rgb = np.stack([r, g, b], -1)
    return np.where((s == 0)[..., None], v[..., None], rgb)


class RgbToHsv(TensorOperation):
    """RGB to HSV on float images in [0, 1] (CHW, or HWC with ``is_hwc=True``), all in [0, 1]."""

    _fn = staticmethod(_rgb_to_hsv)

    def __init__(self, is_hwc=False) -> None:
        if not isinstance(is_hwc, bool):
            raise TypeError(f"Argument is_hwc with value {is_hwc} is not of type [<class 'bool'>].")
        self.is_hwc = is_hwc

    def _apply(self, x):
        img = np.asarray(x)
        if img.ndim not in (3, 4):
            raise TypeError(f"img shape should be (H, W, C)/(N, H, W, C)/(C ,H, W)/(N, C, H, W). Got {img.shape}.")
        a = img.astype(np.float64)
        if not self.is_hwc:
            a = np.moveaxis(a, -3, -1)
        out = self._fn(a)
        if not self.is_hwc:
            out = np.moveaxis(out, -1, -3)
        return out.astype(np.float64)


class HsvToRgb(RgbToHsv):
    """HSV to RGB on float images in [0, 1] (CHW, or HWC with ``is_hwc=True``)."""

    _fn = staticmethod(_hsv_to_rgb)


class NormalizePad(TensorOperation):
    """Normalize an HWC RGB image (``(img - mean) / std``) and append a fourth channel of zeros, in ``dtype``
    (``'float32'`` or ``'float16'``). (MindSpore 2.10's CPU kernel writes the three normalized channels
    contiguously and the zeros after them, a layout bug; sporax returns the documented layout.)"""

    def __init__(self, mean, std, dtype="float32", is_hwc=True) -> None:
        if len(mean) != len(std) or len(mean) not in (1, 3):
            raise ValueError("Length of mean and std must be equal and be 1 or 3.")
        if dtype not in ("float32", "float16"):
            raise ValueError(f"dtype only supports float32 or float16, but got {dtype}.")
        if not isinstance(is_hwc, bool):
            raise TypeError(f"Argument is_hwc with value {is_hwc} is not of type [<class 'bool'>].")
        self.mean, self.std, self.dtype, self.is_hwc = list(mean), list(std), dtype, is_hwc

    def _apply(self, x):
        img = np.asarray(x).astype(np.float32)
        axis = -1 if self.is_hwc else 0
        shape = [1, 1, 1]
        shape[axis] = len(self.mean)
        mean = np.asarray(self.mean, np.float32).reshape(shape)
        std = np.asarray(self.std, np.float32).reshape(shape)
        out = (img - mean) / std
        pad = [(0, 0)] * 3
        pad[axis] = (0, 1)
        return np.pad(out, pad).astype(self.dtype)


class LinearTransformation(TensorOperation):
    """``(flatten(img) - mean_vector) @ transformation_matrix``, reshaped back (a whitening transform)."""

    def __init__(self, transformation_matrix, mean_vector) -> None:
        m, v = np.asarray(transformation_matrix), np.asarray(mean_vector)
        if m.ndim != 2 or m.shape[0] != m.shape[1]:
            raise ValueError(f"transformation_matrix should be a square matrix. Got shape {m.shape} instead.")
        if v.ndim != 1 or v.shape[0] != m.shape[0]:
            raise ValueError(f"mean_vector length {v.shape[0]} should match either one dimension of the square "
                             f"transformation_matrix {m.shape}.")  # fmt: skip
        self.transformation_matrix, self.mean_vector = m, v

    def _apply(self, x):
        img = np.asarray(x)
        flat = img.reshape(1, -1)
        if flat.shape[1] != self.transformation_matrix.shape[0]:
            raise ValueError("The shape of the image does not match the transformation matrix.")
        return ((flat - self.mean_vector) @ self.transformation_matrix).reshape(img.shape)


# ---------------------------------------------------------------------------------------- random forms
class _Prob(TensorOperation):
    _random = True

    def _maybe(self, x, fn):
        return fn(x) if _random.rng().random() < self.prob else np.asarray(x)


class RandomAdjustSharpness(_Prob):
    """``AdjustSharpness(degree)`` with probability ``prob``."""

    def __init__(self, degree, prob=0.5) -> None:
        self.degree = check_pipeline_float(degree, "degree", 0)
        self.prob = check_pipeline_float(prob, "prob", 0.0, 1.0)

    def _apply(self, x):
        return self._maybe(x, lambda im: adjust_sharpness(_img(im, "RandomAdjustSharpness"), self.degree))


class RandomAutoContrast(_Prob):
    """``AutoContrast(cutoff, ignore)`` with probability ``prob``."""

    def __init__(self, cutoff=0.0, ignore=None, prob=0.5) -> None:
        self._op = AutoContrast(cutoff, ignore)
        self.cutoff, self.ignore, self.prob = cutoff, ignore, check_pipeline_float(prob, "prob", 0.0, 1.0)

    def _apply(self, x):
        return self._maybe(x, self._op._apply)


class RandomEqualize(_Prob):
    """``Equalize`` with probability ``prob``."""

    def __init__(self, prob=0.5) -> None:
        self.prob = check_pipeline_float(prob, "prob", 0.0, 1.0)

    def _apply(self, x):
        return self._maybe(x, Equalize()._apply)


class RandomInvert(_Prob):
    """``Invert`` with probability ``prob``."""

    def __init__(self, prob=0.5) -> None:
        self.prob = check_pipeline_float(prob, "prob", 0.0, 1.0)

    def _apply(self, x):
        return self._maybe(x, lambda im: 255 - _img(im, "RandomInvert", True))


class RandomGrayscale(_Prob):
    """Gray (kept with as many channels) with probability ``prob``."""

    def __init__(self, prob=0.1) -> None:
        self.prob = check_pipeline_float(prob, "prob", 0.0, 1.0)

    def _apply(self, x):
        return self._maybe(x, lambda im: _gray3(_img(im, "RandomGrayscale", True)))


class RandomColor(TensorOperation):
    """``AdjustSaturation`` by a factor drawn in ``degrees``."""

    _random = True

    def __init__(self, degrees=(0.1, 1.9)) -> None:
        self.degrees = check_degree_range(degrees)

    def _apply(self, x):
        return adjust_saturation(_img(x, "RandomColor", True), _random.rng().uniform(*self.degrees))


class RandomSharpness(TensorOperation):
    """``AdjustSharpness`` by a factor drawn in ``degrees``."""

    _random = True

    def __init__(self, degrees=(0.1, 1.9)) -> None:
        self.degrees = check_degree_range(degrees)

    def _apply(self, x):
        return adjust_sharpness(_img(x, "RandomSharpness"), _random.rng().uniform(*self.degrees))


class RandomPosterize(TensorOperation):
    """``Posterize`` with a bit count drawn in ``bits`` (a range of ints in [1, 8])."""

    _random = True

    def __init__(self, bits=(8, 8)) -> None:
        b = [bits, bits] if isinstance(bits, numbers.Integral) else list(bits)
        for v in b:
            check_pipeline_int(v, "bits", 1, 8)
        if b[0] > b[1]:
            raise ValueError("Input bits should be in (min,max) format.")
        self.bits = tuple(b)

    def _apply(self, x):
        return posterize(_img(x, "RandomPosterize"), int(_random.rng().integers(self.bits[0], self.bits[1] + 1)))


class RandomSolarize(TensorOperation):
    """``Solarize`` with a threshold range drawn in ``threshold``."""

    _random = True

    def __init__(self, threshold=(0, 255)) -> None:
        self.threshold = check_threshold_pair(threshold)

    def _apply(self, x):
        g = _random.rng()
        a, b = (
            sorted(g.uniform(*self.threshold, 2).tolist())
            if self.threshold[0] < self.threshold[1]
            else self.threshold[:2]
        )
        return solarize(_img(x, "RandomSolarize"), a, b)


class RandomLighting(TensorOperation):
    """AlexNet's PCA lighting noise: add ``eigvec @ (alpha_i * eigval)`` with ``alpha_i ~ N(0, alpha)``."""

    _random = True
    _EIGVAL = np.array([0.2175, 0.0188, 0.0045], np.float32)
    _EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]], np.float32)

    def __init__(self, alpha=0.05) -> None:
        self.alpha = check_pipeline_float(alpha, "alpha", 0)

    def _apply(self, x):
        img = _img(x, "RandomLighting", True)
        a = _random.rng().normal(0, self.alpha, 3).astype(np.float32)
        rgb = self._EIGVEC @ (a * self._EIGVAL) * 255.0
        out = img.astype(np.float32) + rgb
        return _sat_u8(out) if img.dtype == np.uint8 else out.astype(img.dtype)
