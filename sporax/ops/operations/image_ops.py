"""Padding, resizing and pixel-rearrangement operator classes (``ops.MirrorPad``, ``ops.PadV3``,
``ops.ResizeBilinearV2``, ``ops.ResizeNearestNeighborV2``, ``ops.ResizeBicubic``, ``ops.UpsampleTrilinear3D``,
``ops.ChannelShuffle``...), and MindSpore 1.x's ``ops.ResizeBilinear`` (deprecated).

Each class keeps its construction arguments as attributes and calls the functional op / the resize core
(``ops/function/_resize_func``) with the primitive's coordinate rule.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._utils import as_tensor_array, wrap
from ..function import _resize_func as RF
from ..function import nn_func as NF
from ._primitive import Primitive

__all__ = [
    "MirrorPad",
    "PadV3",
    "ResizeBilinearV2",
    "ResizeNearestNeighborV2",
    "ResizeBicubic",
    "ResizeLinear1D",
    "UpsampleNearest3D",
    "UpsampleTrilinear3D",
    "ChannelShuffle",
    "ResizeBilinear",
]


def _check_bool(v: Any, name: str, op: str) -> bool:
    if not isinstance(v, bool):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'bool', but got type '{type(v).__name__}'.")
    return v


def _size_arg(size: Any, n: int, op: str) -> tuple[int, ...]:
    vals = size.asnumpy().tolist() if hasattr(size, "asnumpy") else list(size)
    if len(vals) != n or any(int(v) <= 0 for v in vals):
        raise ValueError(f"For '{op}', the 'size' must hold {n} positive ints, but got {tuple(vals)}.")
    return tuple(int(v) for v in vals)


def _coord(align_corners: bool, half_pixel_centers: bool, op: str) -> str:
    if align_corners and half_pixel_centers:
        raise ValueError(
            f"For '{op}', the 'half_pixel_centers' must be False when 'align_corners' is True, but got True."
        )
    return "align" if align_corners else "half" if half_pixel_centers else "asym"


class MirrorPad(Primitive):
    """Mirror padding, called with ``(x, paddings)`` (an (N, 2) Tensor); ``mode`` 'REFLECT' or 'SYMMETRIC'."""

    def __init__(self, mode: str = "REFLECT") -> None:
        super().__init__()
        if mode not in ("REFLECT", "SYMMETRIC"):
            raise ValueError(f"For 'MirrorPad', the 'mode' must be 'REFLECT' or 'SYMMETRIC', but got {mode!r}.")
        self.mode = mode
        self.attrs["mode"] = mode

    def __call__(self, x: Any, paddings: Any) -> Any:
        return wrap(RF.mirror_pad_array(as_tensor_array(x), paddings, self.mode, "MirrorPad"))


class PadV3(Primitive):
    """Padding of the last dimensions, called with ``(x, paddings, constant_value=None)``: ``paddings``
    (a tuple or Tensor) as ``ops.pad``'s (last dimension first); with ``paddings_contiguous=False`` all
    befores come first, then all afters. ``mode``: 'constant', 'reflect', 'edge' or 'circular'."""

    def __init__(self, mode: str = "constant", paddings_contiguous: bool = True) -> None:
        super().__init__()
        if mode not in ("constant", "reflect", "edge", "circular"):
            raise ValueError(
                f"For 'PadV3', the 'mode' must be in ['constant', 'reflect', 'edge', 'circular'], but got {mode!r}."
            )
        self.mode, self.paddings_contiguous = mode, _check_bool(paddings_contiguous, "paddings_contiguous", "PadV3")
        self.attrs.update(mode=mode, paddings_contiguous=paddings_contiguous)

    def __call__(self, x: Any, paddings: Any, constant_value: Any = None) -> Any:
        pads = [int(v) for v in (paddings.asnumpy().tolist() if hasattr(paddings, "asnumpy") else paddings)]
        if not self.paddings_contiguous:
            half = len(pads) // 2
            pads = [v for pair in zip(pads[:half], pads[half:]) for v in pair]
        mode = {"edge": "replicate"}.get(self.mode, self.mode)
        value = None
        if self.mode == "constant" and constant_value is not None:
            value = constant_value.item() if hasattr(constant_value, "item") else constant_value
        return NF.pad(x, tuple(pads), mode, value)


class ResizeBilinearV2(Primitive):
    """Bilinear resize of the last two dimensions, called with ``(x, size)``; TF's coordinate rules:
    ``align_corners``, ``half_pixel_centers`` or neither (``i * in / out``)."""

    def __init__(self, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        self.align_corners = _check_bool(align_corners, "align_corners", self.name)
        self.half_pixel_centers = _check_bool(half_pixel_centers, "half_pixel_centers", self.name)
        self._coord = _coord(align_corners, half_pixel_centers, self.name)
        self.attrs.update(align_corners=align_corners, half_pixel_centers=half_pixel_centers)

    def __call__(self, x: Any, size: Any) -> Any:
        a = as_tensor_array(x)
        if a.ndim != 4:
            raise ValueError(f"For '{self.name}', the dimension of 'x' must be 4, but got {a.ndim}.")
        return wrap(RF.resize_axes(a, _size_arg(size, 2, self.name), "linear", self._coord))


class ResizeNearestNeighborV2(Primitive):
    """Nearest resize of the last two dimensions of NCHW ``x``, called with ``(x, size)``."""

    def __init__(self, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        self.align_corners = _check_bool(align_corners, "align_corners", self.name)
        self.half_pixel_centers = _check_bool(half_pixel_centers, "half_pixel_centers", self.name)
        self._coord = _coord(align_corners, half_pixel_centers, self.name)
        self.attrs.update(align_corners=align_corners, half_pixel_centers=half_pixel_centers)

    def __call__(self, x: Any, size: Any) -> Any:
        a = as_tensor_array(x)
        if a.ndim != 4:
            raise ValueError(f"For '{self.name}', the dimension of 'x' must be 4, but got {a.ndim}.")
        return wrap(RF.resize_axes(a, _size_arg(size, 2, self.name), "nearest", self._coord))


class ResizeBicubic(Primitive):
    """Bicubic resize of the last two dimensions of NCHW ``images``, called with ``(images, size)``:
    Keys' kernel a = -0.5 with ``half_pixel_centers``, -0.75 otherwise (TF's rules)."""

    def __init__(self, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        self.align_corners = _check_bool(align_corners, "align_corners", self.name)
        self.half_pixel_centers = _check_bool(half_pixel_centers, "half_pixel_centers", self.name)
        self._coord = _coord(align_corners, half_pixel_centers, self.name)
        self.attrs.update(align_corners=align_corners, half_pixel_centers=half_pixel_centers)

    def __call__(self, images: Any, size: Any) -> Any:
        a = as_tensor_array(images)
        if a.ndim != 4:
            raise ValueError(f"For '{self.name}', the dimension of 'images' must be 4, but got {a.ndim}.")
        x = a if np.issubdtype(a.dtype, np.floating) else a.astype(np.float32)
        a_k = -0.5 if self.half_pixel_centers else -0.75
        return wrap(RF.resize_axes(x, _size_arg(size, 2, self.name), "cubic", self._coord, None, a_k))


class ResizeLinear1D(Primitive):
    """Linear resize of the last dimension of an (N, C, W) ``x``, called with ``(x, size)``;
    ``coordinate_transformation_mode``: 'align_corners', 'half_pixel' or 'asymmetric'."""

    def __init__(self, coordinate_transformation_mode: str = "align_corners") -> None:
        super().__init__()
        modes = {"align_corners": "align", "half_pixel": "half", "asymmetric": "asym"}
        if coordinate_transformation_mode not in modes:
            raise ValueError(
                "For 'ResizeLinear1D', the 'coordinate_transformation_mode' must be in ['align_corners', "
                f"'half_pixel', 'asymmetric'], but got {coordinate_transformation_mode!r}."
            )
        self.coordinate_transformation_mode = coordinate_transformation_mode
        self._coord = modes[coordinate_transformation_mode]
        self.attrs["coordinate_transformation_mode"] = coordinate_transformation_mode

    def __call__(self, x: Any, size: Any) -> Any:
        a = as_tensor_array(x)
        if a.ndim != 3:
            raise ValueError(f"For 'ResizeLinear1D', the dimension of 'x' must be 3, but got {a.ndim}.")
        return wrap(RF.resize_axes(a, _size_arg(size, 1, self.name), "linear", self._coord))


def _out_and_scales(a: Any, output_size: Any, scales: Any, op: str) -> tuple[tuple[int, ...], Any]:
    if (output_size is None) == (scales is None):
        raise ValueError(f"For '{op}', only one of 'output_size' and 'scales' must be specified.")
    if output_size is not None:
        return _size_arg(output_size, 3, op), None
    sc = tuple(float(s) for s in (scales.asnumpy().tolist() if hasattr(scales, "asnumpy") else scales))
    if len(sc) != 3 or any(s <= 0 for s in sc):
        raise ValueError(f"For '{op}', the 'scales' must hold 3 positive numbers, but got {sc}.")
    return tuple(int(np.floor(a.shape[2 + i] * sc[i])) for i in range(3)), sc


class UpsampleNearest3D(Primitive):
    """Nearest upsampling of NCDHW ``x``, called with ``(x, output_size=None, scales=None)``."""

    def __call__(self, x: Any, output_size: Any = None, scales: Any = None) -> Any:
        a = as_tensor_array(x)
        if a.ndim != 5:
            raise ValueError(f"For 'UpsampleNearest3D', the dimension of 'x' must be 5, but got {a.ndim}.")
        out, sc = _out_and_scales(a, output_size, scales, "UpsampleNearest3D")
        return wrap(RF.resize_axes(a, out, "nearest", "asym", sc))


class UpsampleTrilinear3D(Primitive):
    """Trilinear upsampling of NCDHW ``x``, called with ``(x, output_size=None, scales=None)``."""

    def __init__(self, align_corners: bool = False) -> None:
        super().__init__()
        self.align_corners = _check_bool(align_corners, "align_corners", self.name)
        self.attrs["align_corners"] = align_corners

    def __call__(self, x: Any, output_size: Any = None, scales: Any = None) -> Any:
        a = as_tensor_array(x)
        if a.ndim != 5:
            raise ValueError(f"For 'UpsampleTrilinear3D', the dimension of 'x' must be 5, but got {a.ndim}.")
        out, sc = _out_and_scales(a, output_size, scales, "UpsampleTrilinear3D")
        return wrap(RF.resize_axes(a, out, "linear", "align" if self.align_corners else "half", sc))


class ChannelShuffle(Primitive):
    def __init__(self, group: int) -> None:
        super().__init__()
        if isinstance(group, bool) or not isinstance(group, int) or group < 1:
            raise ValueError(f"For 'ChannelShuffle', the 'group' must be a positive int, but got {group}.")
        self.group = group
        self.attrs["group"] = group

    def __call__(self, x: Any) -> Any:
        return RF.channel_shuffle(x, self.group)


_WARNED: set[str] = set()


def warn_resize_bilinear(name: str) -> None:
    """One DeprecationWarning per process and name (MindSpore 2.x removed ResizeBilinear)."""
    if name not in _WARNED:
        _WARNED.add(name)
        warnings.warn(
            f"'{name}' was removed in MindSpore 2.x; sporax keeps MindSpore 1.x's behaviour. Use "
            "'mindspore.nn.Upsample' or 'mindspore.ops.interpolate' (mode='bilinear') instead.",
            DeprecationWarning,
            stacklevel=3,
        )


class ResizeBilinear(Primitive):
    """MindSpore 1.x's ``ops.ResizeBilinear(size, align_corners=False, half_pixel_centers=False)``: bilinear
    resize of NCHW ``x`` to ``size`` with TF's coordinate rules (neither flag: ``i * in / out``).
    Deprecated (removed in MindSpore 2.x): use ``ops.interpolate`` / ``nn.Upsample``."""

    def __init__(self, size: Any, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        warn_resize_bilinear("ops.ResizeBilinear")
        super().__init__()
        self.size = tuple(size)
        self.align_corners = _check_bool(align_corners, "align_corners", self.name)
        self.half_pixel_centers = _check_bool(half_pixel_centers, "half_pixel_centers", self.name)
        self._coord = _coord(align_corners, half_pixel_centers, self.name)
        self.attrs.update(size=self.size, align_corners=align_corners, half_pixel_centers=half_pixel_centers)

    def __call__(self, x: Any) -> Any:
        a = as_tensor_array(x)
        if a.ndim != 4:
            raise ValueError(f"For 'ResizeBilinear', the dimension of 'x' must be 4, but got {a.ndim}.")
        y = a if np.issubdtype(a.dtype, np.floating) else a.astype(np.float32)
        return wrap(RF.resize_axes(y, _size_arg(self.size, 2, self.name), "linear", self._coord))
