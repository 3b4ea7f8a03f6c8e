"""Resizing and pixel-rearrangement layers: Upsample, ResizeBilinear (MindSpore 1.x, deprecated),
PixelShuffle, PixelUnshuffle, ChannelShuffle, Unfold (image patches)."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common.tensor import Tensor
from ...ops._utils import as_tensor_array, wrap
from ...ops.function import _resize_func as RF
from ...ops.operations.image_ops import warn_resize_bilinear
from ..cell import Cell

__all__ = ["Upsample", "ResizeBilinear", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "Unfold"]


class Upsample(Cell):
    """``ops.interpolate`` as a layer (``size`` or ``scale_factor``; every mode of ``interpolate``)."""

    def __init__(
        self,
        size: Any = None,
        scale_factor: Any = None,
        mode: str = "nearest",
        align_corners: Any = None,
        recompute_scale_factor: Any = None,
    ) -> None:
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, x: Tensor) -> Tensor:
        return ops.interpolate(
            x, self.size, self.scale_factor, self.mode, self.align_corners, self.recompute_scale_factor
        )


class ResizeBilinear(Cell):
    """MindSpore 1.x's bilinear resize layer (removed in 2.x; kept here with a one-time DeprecationWarning:
    use ``nn.Upsample(mode='bilinear')`` or ``ops.interpolate``).

    ``construct(x, size=None, scale_factor=None, align_corners=False)``: resize NCHW ``x`` to ``size`` (h, w)
    or by an int ``scale_factor``; TF's coordinate rules (``align_corners``; else ``half_pixel_centers``;
    else ``i * in / out``).
    """

    def __init__(self, half_pixel_centers: bool = False) -> None:
        warn_resize_bilinear("nn.ResizeBilinear")
        super().__init__()
        if not isinstance(half_pixel_centers, bool):
            raise TypeError(
                f"For 'ResizeBilinear', the 'half_pixel_centers' must be a bool, but got {type(half_pixel_centers).__name__}."
            )
        self.half_pixel_centers = half_pixel_centers

    def construct(self, x: Tensor, size: Any = None, scale_factor: Any = None, align_corners: bool = False) -> Tensor:
        a = as_tensor_array(x)
        if a.ndim != 4:
            raise ValueError(f"For 'ResizeBilinear', the dimension of 'x' must be 4, but got {a.ndim}.")
        if (size is None) == (scale_factor is None):
            raise ValueError("For 'ResizeBilinear', only one of 'size' or 'scale_factor' must be set.")
        if align_corners and self.half_pixel_centers:
            raise ValueError(
                "For 'ResizeBilinear', the 'half_pixel_centers' must be False when 'align_corners' is True."
            )
        if size is not None:
            out = (size, size) if isinstance(size, int) else tuple(int(v) for v in size)
            if len(out) != 2 or min(out) <= 0:
                raise ValueError(f"For 'ResizeBilinear', the 'size' must be 2 positive ints, but got {size}.")
        else:
            if isinstance(scale_factor, bool) or not isinstance(scale_factor, int) or scale_factor <= 0:
                raise ValueError(
                    f"For 'ResizeBilinear', the 'scale_factor' must be a positive int, but got {scale_factor}."
                )
            out = (a.shape[2] * scale_factor, a.shape[3] * scale_factor)
        coord = "align" if align_corners else "half" if self.half_pixel_centers else "asym"
        y = a if a.dtype.kind == "f" else a.astype("float32")
        return wrap(RF.resize_axes(y, out, "linear", coord))


class PixelShuffle(Cell):
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r) with ``r = upscale_factor``."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input: Tensor) -> Tensor:
        return RF.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """(*, C, H * r, W * r) -> (*, C * r * r, H, W) with ``r = downscale_factor``."""

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, input: Tensor) -> Tensor:
        return RF.pixel_unshuffle(input, self.downscale_factor)


class ChannelShuffle(Cell):
    """Interleave ``groups`` channel groups of an (N, C, ...) input."""

    def __init__(self, groups: int) -> None:
        super().__init__()
        if isinstance(groups, bool) or not isinstance(groups, int):
            raise TypeError(f"For ChannelShuffle, the param `groups` must be int, but got {type(groups)}.")
        if groups < 1:
            raise ValueError(f"For ChannelShuffle, the param `groups` must be larger than 0, but got {groups}.")
        self.groups = groups

    def construct(self, x: Tensor) -> Tensor:
        return RF.channel_shuffle(x, self.groups)


class Unfold(Cell):
    """Image patches of an NCHW input (TF's ``extract_image_patches``): ``ksizes``, ``strides``, ``rates``
    as [1, row, col, 1]; ``padding`` 'valid' or 'same'. Output (N, C * k_row * k_col, out_row, out_col), the
    depth ordered (kernel row, kernel column, channel)."""

    def __init__(self, ksizes: Any, strides: Any, rates: Any, padding: str = "valid") -> None:
        super().__init__()
        self.ksizes, self.strides, self.rates = ksizes, strides, rates
        self._k, self._s, self._r = (
            validator.check_patch_arg(ksizes, "ksize"),
            validator.check_patch_arg(strides, "stride"),
            validator.check_patch_arg(rates, "rate"),
        )
        if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For 'Unfold', the 'padding' must be 'valid' or 'same', but got {padding!r}.")
        self.padding = padding.upper()

    def construct(self, x: Tensor) -> Tensor:
        return RF.extract_image_patches(x, self._k, self._s, self._r, self.padding, "Unfold")
