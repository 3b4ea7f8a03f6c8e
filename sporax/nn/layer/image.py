"""Image layers: ImageGradients, SSIM, MSSSIM, PSNR, CentralCrop (NCHW images)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.tensor import Tensor
from ..cell import Cell

__all__ = ["ImageGradients", "SSIM", "MSSSIM", "PSNR", "CentralCrop", "LRN"]


def _dtype_max(dtype: Any) -> float:
    np_t = mstype.to_np(dtype)
    return float(np.iinfo(np_t).max) if np.issubdtype(np_t, np.integer) else 1.0


def _to_float(img: Tensor, dtype_max: float) -> Tensor:
    """Images as float32, scaled to [0, 1] when their dtype is an integer one (MindSpore's rule)."""
    out = ops.cast(img, mstype.float32)
    return out * (1.0 / dtype_max) if dtype_max > 1.0 else out


def _gauss_window(size: int, sigma: float) -> np.ndarray:
    y, x = np.mgrid[-size // 2 + 1 : size // 2 + 1, -size // 2 + 1 : size // 2 + 1]
    g = np.exp(-(x.astype(np.float32) ** 2 + y.astype(np.float32) ** 2) / (2 * sigma**2))
    return (g / g.sum()).astype(np.float32)[None, None]


class ImageGradients(Cell):
    """Forward differences of NCHW ``images``: ``(dy, dx)``, each zero in its last row / column."""

    def __init__(self) -> None:
        super().__init__()

    def construct(self, images: Tensor) -> tuple[Tensor, Tensor]:
        validator.check_ndim(images.ndim, 4, "images", "ImageGradients", "d")
        n, c, h, w = images.shape
        zero_row = ops.zeros((n, c, 1, w), images.dtype)
        zero_col = ops.zeros((n, c, h, 1), images.dtype)
        dy = zero_row if h == 1 else ops.cat((images[:, :, 1:, :] - images[:, :, : h - 1, :], zero_row), 2)
        dx = zero_col if w == 1 else ops.cat((images[:, :, :, 1:] - images[:, :, :, : w - 1], zero_col), 3)
        return dy, dx


class _SSIMBase(Cell):
    def _setup(self, max_val: Any, filter_size: Any, filter_sigma: Any, k1: Any, k2: Any) -> None:
        op = type(self).__name__
        self.max_val = validator.check_positive_real(max_val, "max_val", op)
        if isinstance(filter_size, bool) or not isinstance(filter_size, int) or filter_size < 1:
            raise ValueError(f"For '{op}', the 'filter_size' must be an int >= 1, but got {filter_size}.")
        self.filter_size = filter_size
        if isinstance(filter_sigma, bool) or not isinstance(filter_sigma, float) or filter_sigma <= 0:
            raise ValueError(f"For '{op}', the 'filter_sigma' must be a positive float, but got {filter_sigma}.")
        self.filter_sigma = filter_sigma
        self.k1, self.k2 = validator.check_float_type(k1, "k1", op), validator.check_float_type(k2, "k2", op)
        self._window = Tensor(_gauss_window(filter_size, filter_sigma))

    def _ssim_cs(self, img1: Tensor, img2: Tensor, c1: float, c2: float) -> tuple[Tensor, Tensor]:
        """Per-image, per-channel mean SSIM and contrast-structure terms, shape (N, C)."""
        n, c, h, w = img1.shape
        a, b = img1.reshape(n * c, 1, h, w), img2.reshape(n * c, 1, h, w)

        def blur(x: Tensor) -> Tensor:
            return ops.conv2d(x, self._window)

        mu1, mu2 = blur(a), blur(b)
        mu1_sq, mu2_sq, mu1_mu2 = mu1 * mu1, mu2 * mu2, mu1 * mu2
        s1, s2, s12 = blur(a * a) - mu1_sq, blur(b * b) - mu2_sq, blur(a * b) - mu1_mu2
        v1, v2 = 2 * s12 + c2, s1 + s2 + c2
        ssim = ((2 * mu1_mu2 + c1) * v1) / ((mu1_sq + mu2_sq + c1) * v2)
        cs = v1 / v2
        return ssim.mean((1, 2, 3)).reshape(n, c), cs.mean((1, 2, 3)).reshape(n, c)

    def _prepare(self, img1: Tensor, img2: Tensor) -> tuple[Tensor, Tensor, float, float]:
        dmax = _dtype_max(img1.dtype)
        max_val = float(np.float32(self.max_val) * (np.float32(1.0 / dmax) if dmax > 1.0 else 1))
        return _to_float(img1, dmax), _to_float(img2, dmax), (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2


class SSIM(_SSIMBase):
    """Structural similarity of two NCHW image batches (Gaussian window ``filter_size`` x ``filter_size``,
    ``filter_sigma``): one value per image, averaged over channels and positions."""

    def __init__(
        self, max_val: Any = 1.0, filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01, k2: float = 0.03
    ) -> None:
        super().__init__()
        self._setup(max_val, filter_size, filter_sigma, k1, k2)

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        if img1.dtype not in (mstype.float32, mstype.float16):
            raise TypeError(f"For 'SSIM', the 'img1' should be float32 or float16, but got {img1.dtype}.")
        validator.check_ndim(img1.ndim, 4, "img1", "SSIM", "d")
        for i, name in ((2, "shape[2]"), (3, "shape[3]")):
            if img1.shape[i] < self.filter_size:
                raise ValueError(
                    f"For 'SSIM', the 'img1 {name}' must be >= 'filter_size' {self.filter_size}, but got {img1.shape[i]}."
                )
        validator.check_image_pair(img1.dtype, img1.shape, img2.dtype, img2.shape, "SSIM")
        a, b, c1, c2 = self._prepare(img1, img2)
        ssim, _ = self._ssim_cs(a, b, c1, c2)
        return ssim.mean(-1)


class MSSSIM(_SSIMBase):
    """Multi-scale SSIM: contrast-structure terms at ``len(power_factors)`` scales (2x2 average pooling
    between them) and SSIM at the last, each raised to its power factor and multiplied."""

    def __init__(
        self,
        max_val: Any = 1.0,
        power_factors: Any = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
        filter_size: int = 11,
        filter_sigma: float = 1.5,
        k1: float = 0.01,
        k2: float = 0.03,
    ) -> None:
        super().__init__()
        if not isinstance(power_factors, (tuple, list)):
            raise TypeError(
                f"For 'MSSSIM', the type of 'power_factors' should be one of ['tuple', 'list'], but got "
                f"{type(power_factors).__name__}."
            )
        self._setup(max_val, filter_size, filter_sigma, k1, k2)
        self.power_factors = power_factors
        self.level = len(power_factors)
        self._weights = Tensor(np.asarray(power_factors, np.float32))

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        validator.check_ndim(img1.ndim, 4, "img1", "MSSSIM", "d")
        validator.check_ndim(img2.ndim, 4, "img2", "MSSSIM", "d")
        if img1.dtype not in (mstype.float64, mstype.float32, mstype.float16, mstype.uint8):
            raise TypeError(
                f"For 'MSSSIM', the 'img1' should be float64, float32, float16 or uint8, but got {img1.dtype}."
            )
        validator.check_image_pair(img1.dtype, img1.shape, img2.dtype, img2.shape, "MSSSIM")
        a, b, c1, c2 = self._prepare(img1, img2)
        mcs = []
        sim = None
        for i in range(self.level):
            sim, cs = self._ssim_cs(a, b, c1, c2)
            mcs.append(ops.relu(cs))
            if i < self.level - 1:
                a, b = ops.avg_pool2d(a, 2, 2), ops.avg_pool2d(b, 2, 2)
        stacked = ops.stack([*mcs[:-1], ops.relu(sim)], -1)
        return ops.pow(stacked, self._weights).prod(-1).mean(-1)


class PSNR(Cell):
    """Peak signal-to-noise ratio of two NCHW image batches: ``10 * log10(max_val ** 2 / mse)`` per image."""

    def __init__(self, max_val: Any = 1.0) -> None:
        super().__init__()
        self.max_val = validator.check_positive_real(max_val, "max_val", "PSNR")

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        validator.check_ndim(img1.ndim, 4, "img1", "PSNR", "d")
        validator.check_ndim(img2.ndim, 4, "img2", "PSNR", "d")
        validator.check_image_pair(img1.dtype, img1.shape, img2.dtype, img2.shape, "PSNR")
        dmax = _dtype_max(img1.dtype)
        max_val = float(np.float32(self.max_val) * (np.float32(1.0 / dmax) if dmax > 1.0 else 1))
        a, b = _to_float(img1, dmax), _to_float(img2, dmax)
        mse = ops.square(a - b).mean((-3, -2, -1))
        return 10 * ops.log(max_val**2 / mse) / float(np.log(10.0))


class CentralCrop(Cell):
    """The central ``central_fraction`` of a CHW or NCHW image (in (0, 1])."""

    def __init__(self, central_fraction: float) -> None:
        super().__init__()
        if isinstance(central_fraction, bool) or not isinstance(central_fraction, float):
            raise TypeError(
                f"For 'CentralCrop', the type of 'central_fraction' should be 'float', but got "
                f"'{type(central_fraction).__name__}'."
            )
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(
                f"For 'CentralCrop', the 'central_fraction' must be in range (0.0, 1.0], but got {central_fraction}."
            )
        self.central_fraction = central_fraction

    def construct(self, image: Tensor) -> Tensor:
        if image.ndim not in (3, 4):
            raise ValueError(f"CentralCrop image must be 3d or 4d, but got shape {image.shape}")
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        return image[..., top : h - top, left : w - left]


class LRN(Cell):
    """Local response normalisation over the channels of an NCHW input (``ops.lrn``)."""

    def __init__(
        self,
        depth_radius: int = 5,
        bias: float = 1.0,
        alpha: float = 1.0,
        beta: float = 0.5,
        norm_region: str = "ACROSS_CHANNELS",
    ) -> None:
        super().__init__()
        self.depth_radius, self.bias, self.alpha, self.beta = depth_radius, bias, alpha, beta
        self.norm_region = norm_region
        self.lrn = ops.LRN(depth_radius, bias, alpha, beta, norm_region)

    def construct(self, input: Tensor) -> Tensor:
        return self.lrn(input)
