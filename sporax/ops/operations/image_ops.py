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

from ... import _checkparam as validator
from ..._checkparam import check_value_type
from ..._engine import jnp
from .._utils import as_tensor_array, wrap
from ..function import _glimpse_func as GF
from ..function import _image_func as IF
from ..function import _resize_func as RF
from ..function import _scale_translate_func as STF
from ..function import nn_func as NF
from ._primitive import Primitive

__all__ = [
    "ScaleAndTranslate",
    "ExtractGlimpse",
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
    "LRN",
    "BoundingBoxEncode",
    "BoundingBoxDecode",
    "CropAndResize",
    "GridSampler2D",
    "GridSampler3D",
    "RGBToHSV",
    "HSVToRGB",
    "AdjustHue",
    "AdjustSaturation",
    "FractionalMaxPoolWithFixedKsize",
    "FractionalMaxPool3DWithFixedKsize",
    "ExtractImagePatches",
    "ResizeArea",
    "Dilation2D",
    "FractionalMaxPool",
    "FractionalAvgPool",
]


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
        self.mode, self.paddings_contiguous = (
            mode,
            check_value_type("paddings_contiguous", paddings_contiguous, bool, "PadV3"),
        )
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
        self.align_corners = check_value_type("align_corners", align_corners, bool, self.name)
        self.half_pixel_centers = check_value_type("half_pixel_centers", half_pixel_centers, bool, self.name)
        self._coord = _coord(align_corners, half_pixel_centers, self.name)
        self.attrs.update(align_corners=align_corners, half_pixel_centers=half_pixel_centers)

    def __call__(self, x: Any, size: Any) -> Any:
        a = as_tensor_array(x)
        validator.check_ndim(a.ndim, 4, "x", self.name)
        return wrap(RF.resize_axes(a, _size_arg(size, 2, self.name), "linear", self._coord))


class ResizeNearestNeighborV2(Primitive):
    """Nearest resize of the last two dimensions of NCHW ``x``, called with ``(x, size)``."""

    def __init__(self, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        self.align_corners = check_value_type("align_corners", align_corners, bool, self.name)
        self.half_pixel_centers = check_value_type("half_pixel_centers", half_pixel_centers, bool, self.name)
        self._coord = _coord(align_corners, half_pixel_centers, self.name)
        self.attrs.update(align_corners=align_corners, half_pixel_centers=half_pixel_centers)

    def __call__(self, x: Any, size: Any) -> Any:
        a = as_tensor_array(x)
        validator.check_ndim(a.ndim, 4, "x", self.name)
        return wrap(RF.resize_axes(a, _size_arg(size, 2, self.name), "nearest", self._coord))


class ResizeBicubic(Primitive):
    """Bicubic resize of the last two dimensions of NCHW ``images``, called with ``(images, size)``:
    Keys' kernel a = -0.5 with ``half_pixel_centers``, -0.75 otherwise (TF's rules)."""

    def __init__(self, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        self.align_corners = check_value_type("align_corners", align_corners, bool, self.name)
        self.half_pixel_centers = check_value_type("half_pixel_centers", half_pixel_centers, bool, self.name)
        self._coord = _coord(align_corners, half_pixel_centers, self.name)
        self.attrs.update(align_corners=align_corners, half_pixel_centers=half_pixel_centers)

    def __call__(self, images: Any, size: Any) -> Any:
        a = as_tensor_array(images)
        validator.check_ndim(a.ndim, 4, "images", self.name)
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
        validator.check_ndim(a.ndim, 3, "x", "ResizeLinear1D")
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
        validator.check_ndim(a.ndim, 5, "x", "UpsampleNearest3D")
        out, sc = _out_and_scales(a, output_size, scales, "UpsampleNearest3D")
        return wrap(RF.resize_axes(a, out, "nearest", "asym", sc))


class UpsampleTrilinear3D(Primitive):
    """Trilinear upsampling of NCDHW ``x``, called with ``(x, output_size=None, scales=None)``."""

    def __init__(self, align_corners: bool = False) -> None:
        super().__init__()
        self.align_corners = check_value_type("align_corners", align_corners, bool, self.name)
        self.attrs["align_corners"] = align_corners

    def __call__(self, x: Any, output_size: Any = None, scales: Any = None) -> Any:
        a = as_tensor_array(x)
        validator.check_ndim(a.ndim, 5, "x", "UpsampleTrilinear3D")
        out, sc = _out_and_scales(a, output_size, scales, "UpsampleTrilinear3D")
        return wrap(RF.resize_axes(a, out, "linear", "align" if self.align_corners else "half", sc))


class ChannelShuffle(Primitive):
    def __init__(self, group: int) -> None:
        super().__init__()
        validator.check_int_at_least(group, 1, "group", "ChannelShuffle")
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
        self.align_corners = check_value_type("align_corners", align_corners, bool, self.name)
        self.half_pixel_centers = check_value_type("half_pixel_centers", half_pixel_centers, bool, self.name)
        self._coord = _coord(align_corners, half_pixel_centers, self.name)
        self.attrs.update(size=self.size, align_corners=align_corners, half_pixel_centers=half_pixel_centers)

    def __call__(self, x: Any) -> Any:
        a = as_tensor_array(x)
        validator.check_ndim(a.ndim, 4, "x", "ResizeBilinear")
        y = a if np.issubdtype(a.dtype, np.floating) else a.astype(np.float32)
        return wrap(RF.resize_axes(y, _size_arg(self.size, 2, self.name), "linear", self._coord))


# ------------------------------------------------------------------ image processing
class LRN(Primitive):
    """Local response normalisation over channels (``ops.lrn``)."""

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
        self.attrs.update(depth_radius=depth_radius, bias=bias, alpha=alpha, beta=beta, norm_region=norm_region)

    def __call__(self, x: Any) -> Any:
        return IF.lrn(x, self.depth_radius, self.bias, self.alpha, self.beta, self.norm_region)


class BoundingBoxEncode(Primitive):
    def __init__(self, means: Any = (0.0, 0.0, 0.0, 0.0), stds: Any = (1.0, 1.0, 1.0, 1.0)) -> None:
        super().__init__()
        self.means, self.stds = tuple(means), tuple(stds)
        self.attrs.update(means=self.means, stds=self.stds)

    def __call__(self, anchor_box: Any, groundtruth_box: Any) -> Any:
        return IF.bounding_box_encode(anchor_box, groundtruth_box, self.means, self.stds)


class BoundingBoxDecode(Primitive):
    def __init__(
        self,
        max_shape: Any,
        means: Any = (0.0, 0.0, 0.0, 0.0),
        stds: Any = (1.0, 1.0, 1.0, 1.0),
        wh_ratio_clip: float = 0.016,
    ) -> None:
        super().__init__()
        self.max_shape, self.means, self.stds, self.wh_ratio_clip = (
            tuple(max_shape),
            tuple(means),
            tuple(stds),
            wh_ratio_clip,
        )
        self.attrs.update(max_shape=self.max_shape, means=self.means, stds=self.stds, wh_ratio_clip=wh_ratio_clip)

    def __call__(self, anchor_box: Any, deltas: Any) -> Any:
        return IF.bounding_box_decode(anchor_box, deltas, self.max_shape, self.means, self.stds, self.wh_ratio_clip)


class CropAndResize(Primitive):
    """TF's crop-and-resize, called with ``(x, boxes, box_index, crop_size)`` (``ops.crop_and_resize``)."""

    def __init__(self, method: str = "bilinear", extrapolation_value: float = 0.0) -> None:
        super().__init__()
        self.method, self.extrapolation_value = method, extrapolation_value
        self.attrs.update(method=method, extrapolation_value=extrapolation_value)

    def __call__(self, x: Any, boxes: Any, box_index: Any, crop_size: Any) -> Any:
        return IF.crop_and_resize(x, boxes, box_index, crop_size, self.method, self.extrapolation_value)


class GridSampler2D(Primitive):
    """``ops.grid_sample`` on 4-D inputs, called with ``(input_x, grid)``."""

    _nsp = 2

    def __init__(
        self, interpolation_mode: str = "bilinear", padding_mode: str = "zeros", align_corners: bool = False
    ) -> None:
        super().__init__()
        self.interpolation_mode, self.padding_mode, self.align_corners = interpolation_mode, padding_mode, align_corners
        self.attrs.update(interpolation_mode=interpolation_mode, padding_mode=padding_mode, align_corners=align_corners)

    def __call__(self, input_x: Any, grid: Any) -> Any:
        if len(input_x.shape) != self._nsp + 2:
            raise ValueError(
                f"For '{self.name}', the dimension of 'input_x' must be {self._nsp + 2}, but got {len(input_x.shape)}."
            )
        return IF.grid_sample(input_x, grid, self.interpolation_mode, self.padding_mode, self.align_corners)


class GridSampler3D(GridSampler2D):
    """``ops.grid_sample`` on 5-D inputs, called with ``(input_x, grid)``."""

    _nsp = 3

    def __init__(
        self, interpolation_mode: str = "bilinear", padding_mode: str = "zeros", align_corners: bool = False
    ) -> None:
        super().__init__(interpolation_mode, padding_mode, align_corners)


class RGBToHSV(Primitive):
    """RGB (last axis) to HSV, hue in [0, 1)."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, images: Any) -> Any:
        a = as_tensor_array(images)
        if a.shape[-1] != 3:
            raise ValueError(f"For 'RGBToHSV', the last dimension of 'images' must be 3, but got {a.shape[-1]}.")
        return wrap(IF.rgb_to_hsv_array(a))


class HSVToRGB(Primitive):
    """HSV (last axis, hue in [0, 1)) to RGB."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> Any:
        a = as_tensor_array(x)
        if a.shape[-1] != 3:
            raise ValueError(f"For 'HSVToRGB', the last dimension of 'x' must be 3, but got {a.shape[-1]}.")
        return wrap(IF.hsv_to_rgb_array(a))


class AdjustHue(Primitive):
    """Rotate the hue of RGB ``image`` (last axis) by ``delta`` (a fraction of the colour circle)."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, image: Any, delta: Any) -> Any:
        a = as_tensor_array(image)
        hsv = IF.rgb_to_hsv_array(a.astype(np.float32))
        h = hsv[..., 0] + as_tensor_array(delta).astype(np.float32)
        h = h - np.float32(1) * (h >= 1) + (h < 0)
        return wrap(IF.hsv_to_rgb_array(hsv.at[..., 0].set(h)).astype(a.dtype))


class AdjustSaturation(Primitive):
    """Scale the saturation of RGB ``image`` (last axis) by ``scale`` (clipped to [0, 1])."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, image: Any, scale: Any) -> Any:
        a = as_tensor_array(image)
        hsv = IF.rgb_to_hsv_array(a.astype(np.float32))
        s = hsv[..., 1] * as_tensor_array(scale).astype(np.float32)
        s = s.clip(0, 1)
        return wrap(IF.hsv_to_rgb_array(hsv.at[..., 1].set(s)).astype(a.dtype))


class FractionalMaxPoolWithFixedKsize(Primitive):
    """Fractional max-pooling with windows ``ksize`` to ``output_shape``, called with ``(input_x,
    random_samples)`` (N, C, 2): ``(y, argmax)``."""

    _nsp = 2

    def __init__(self, ksize: Any, output_shape: Any, data_format: str = "NCHW") -> None:
        super().__init__()
        from ..function._conv_pool import tuple_n

        self.ksize = tuple_n(ksize, self._nsp, "ksize", self.name)
        self.output_shape = tuple_n(output_shape, self._nsp, "output_shape", self.name)
        self.data_format = data_format
        self.attrs.update(ksize=self.ksize, output_shape=self.output_shape, data_format=data_format)

    def __call__(self, x: Any, random_samples: Any) -> Any:
        from ..function import _image_func

        fn = _image_func.fractional_max_pool2d if self._nsp == 2 else _image_func.fractional_max_pool3d
        return fn(x, self.ksize, self.output_shape, None, True, random_samples)


class FractionalMaxPool3DWithFixedKsize(FractionalMaxPoolWithFixedKsize):
    """3-D ``FractionalMaxPoolWithFixedKsize`` (random_samples (N, C, 3))."""

    _nsp = 3

    def __init__(self, ksize: Any, output_shape: Any, data_format: str = "NCDHW") -> None:
        super().__init__(ksize, output_shape, data_format)


class ExtractImagePatches(Primitive):
    """TF's image patches of an NCHW input: ``ksizes``, ``strides``, ``rates`` as (1, 1, row, col) (or
    [1, row, col, 1]); ``padding`` 'VALID' or 'SAME'. Output (N, row * col * C, out_row, out_col)."""

    def __init__(self, ksizes: Any, strides: Any, rates: Any, padding: str = "VALID") -> None:
        super().__init__()

        def pair(v: Any, name: str) -> tuple[int, int]:
            v = tuple(v)
            if len(v) != 4 or any(int(e) < 1 for e in v):
                raise ValueError(f"For 'ExtractImagePatches', the '{name}' must be 4 positive ints, but got {v}.")
            return (int(v[2]), int(v[3])) if v[1] == 1 and v[0] == 1 else (int(v[1]), int(v[2]))

        if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
            raise ValueError(
                f"For 'ExtractImagePatches', the 'padding' must be 'VALID' or 'SAME', but got {padding!r}."
            )
        self.ksizes, self.strides, self.rates, self.padding = (
            tuple(ksizes),
            tuple(strides),
            tuple(rates),
            padding.upper(),
        )
        self._k, self._s, self._r = pair(ksizes, "ksizes"), pair(strides, "strides"), pair(rates, "rates")
        self.attrs.update(ksizes=self.ksizes, strides=self.strides, rates=self.rates, padding=self.padding)

    def __call__(self, input_x: Any) -> Any:
        return RF.extract_image_patches(input_x, self._k, self._s, self._r, self.padding, "ExtractImagePatches")


class ResizeArea(Primitive):
    """TF's area resize of NHWC ``images`` to ``size`` (h, w), called with ``(images, size)``: each output
    pixel averages the input area it covers; float32 result."""

    def __init__(self, align_corners: bool = False) -> None:
        super().__init__()
        self.align_corners = check_value_type("align_corners", align_corners, bool, self.name)
        self.attrs["align_corners"] = align_corners

    def __call__(self, images: Any, size: Any) -> Any:
        a = as_tensor_array(images)
        validator.check_ndim(a.ndim, 4, "images", "ResizeArea")
        out = _size_arg(size, 2, self.name)
        x = jnp.moveaxis(a.astype(np.float32), -1, 1)
        y = RF.resize_axes(x, out, "area", "align" if self.align_corners else "asym")
        return wrap(jnp.moveaxis(y, 1, -1))


class Dilation2D(Primitive):
    """Grayscale morphological dilation of NCHW ``x`` by ``filter`` (C, kh, kw): ``max over the window of
    x + filter`` (TF's dilation2d); ``stride``/``dilation`` an int, 2 or 4 ints; ``pad_mode`` 'SAME' or
    'VALID'. (MindSpore 2.10's CPU build cannot run this primitive.)"""

    def __init__(self, stride: Any, dilation: Any, pad_mode: str = "SAME", data_format: str = "NCHW") -> None:
        super().__init__()

        def pair(v: Any, name: str) -> tuple[int, int]:
            vals = (v, v) if isinstance(v, int) else tuple(v)
            vals = vals[2:] if len(vals) == 4 else vals
            if len(vals) != 2 or any(isinstance(e, bool) or not isinstance(e, int) or e < 1 for e in vals):
                raise ValueError(
                    f"For 'Dilation2D', the '{name}' must be an int or a tuple of 2 or 4 ints, but got {v}."
                )
            return vals[0], vals[1]

        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("SAME", "VALID"):
            raise ValueError(f"For 'Dilation2D', the 'pad_mode' must be 'SAME' or 'VALID', but got {pad_mode!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For 'Dilation2D', the 'data_format' must be 'NCHW', but got '{data_format}'.")
        self.stride, self.dilation = pair(stride, "stride"), pair(dilation, "dilation")
        self.pad_mode, self.data_format = pad_mode.upper(), data_format
        self.attrs.update(stride=stride, dilation=dilation, pad_mode=self.pad_mode, data_format=data_format)

    def __call__(self, x: Any, filter: Any) -> Any:
        from ..function._conv_pool import _same_pads

        a, f = as_tensor_array(x), as_tensor_array(filter)
        if a.ndim != 4 or f.ndim != 3 or f.shape[0] != a.shape[1]:
            raise ValueError(
                f"For 'Dilation2D', 'x' must be (N, C, H, W) and 'filter' (C, kh, kw), but got {tuple(a.shape)} and "
                f"{tuple(f.shape)}."
            )
        (sh, sw), (dh, dw), (kh, kw) = self.stride, self.dilation, f.shape[1:]
        h, w = a.shape[2:]
        if self.pad_mode == "SAME":
            pads = [_same_pads(h, kh, sh, dh), _same_pads(w, kw, sw, dw)]
        else:
            pads = [(0, 0), (0, 0)]
        oh = (h + sum(pads[0]) - dh * (kh - 1) - 1) // sh + 1
        ow = (w + sum(pads[1]) - dw * (kw - 1) - 1) // sw + 1
        if oh <= 0 or ow <= 0:
            raise ValueError(
                f"For 'Dilation2D', the input {tuple(a.shape)} is too small for the filter {tuple(f.shape)}."
            )
        xp = jnp.pad(a, [(0, 0), (0, 0), *pads], constant_values=-jnp.inf)
        best = None
        for i in range(kh):
            for j in range(kw):
                v = xp[:, :, i * dh : i * dh + (oh - 1) * sh + 1 : sh, j * dw : j * dw + (ow - 1) * sw + 1 : sw]
                v = v + f[None, :, i, j, None, None]
                best = v if best is None else jnp.maximum(best, v)
        return wrap(best)


class FractionalMaxPool(Primitive):
    """TF's fractional max-pooling of NHWC ``x``: ``(y, row_pooling_sequence, col_pooling_sequence)``,
    ``pooling_ratio`` (1.0, row, col, 1.0); the sequences come from the framework's random state (``seed``,
    ``seed2`` and ``deterministic`` are recorded: MindSpore's own generator cannot be reproduced)."""

    _kind = "max"

    def __init__(
        self,
        pooling_ratio: Any,
        pseudo_random: bool = False,
        overlapping: bool = False,
        deterministic: bool = False,
        seed: int = 0,
        seed2: int = 0,
    ) -> None:
        super().__init__()
        if not isinstance(pooling_ratio, (tuple, list)) or len(pooling_ratio) != 4:
            raise ValueError(
                f"For '{self.name}', the 'pooling_ratio' must be a tuple of 4 floats, but got {pooling_ratio}."
            )
        self.pooling_ratio = tuple(pooling_ratio)
        self.pseudo_random = check_value_type("pseudo_random", pseudo_random, bool, self.name)
        self.overlapping = check_value_type("overlapping", overlapping, bool, self.name)
        self.deterministic = check_value_type("deterministic", deterministic, bool, self.name)
        self.seed, self.seed2 = seed, seed2
        self.attrs.update(
            pooling_ratio=self.pooling_ratio, pseudo_random=pseudo_random, overlapping=overlapping,
            deterministic=deterministic, seed=seed, seed2=seed2,
        )  # fmt: skip

    def __call__(self, x: Any) -> Any:
        return IF.fractional_pool_tf(x, self.pooling_ratio, self._kind, self.pseudo_random, self.overlapping, self.name)


class FractionalAvgPool(FractionalMaxPool):
    """TF's fractional average pooling (see ``FractionalMaxPool``)."""

    _kind = "avg"


class ScaleAndTranslate(Primitive):
    """``ScaleAndTranslate(kernel_type="lanczos3", antialias=True)(images, size, scale, translation)``: the
    NHWC ``images`` resampled to ``size`` (Int32 ``(2,)``) with the sampling grid scaled by ``scale`` and
    shifted by ``translation`` (Float32 ``(2,)``) through the kernel (antialiased when downscaling); Float32."""

    def __init__(self, kernel_type: str = "lanczos3", antialias: bool = True) -> None:
        super().__init__()
        if not isinstance(kernel_type, str) or kernel_type not in STF.KERNEL_TYPES:
            raise ValueError(
                f"For '{self.name}', the 'kernel_type' must be str and must be in '{list(STF.KERNEL_TYPES)}', "
                f"but got '{kernel_type}'."
            )
        check_value_type("antialias", antialias, [bool], self.name)
        self.add_prim_attr("kernel_type", kernel_type)
        self.add_prim_attr("antialias", antialias)
        self.kernel_type, self.antialias = kernel_type, antialias

    def __call__(self, images: Any, size: Any, scale: Any, translation: Any) -> Any:
        a = as_tensor_array(images)
        if a.ndim != 4:
            raise ValueError(f"For primitive[{self.name}], the images's rank' must be equal to 4, but got {a.ndim}.")
        hw = tuple(int(v) for v in np.asarray(size.asnumpy() if hasattr(size, "asnumpy") else size).reshape(-1))
        if len(hw) != 2:
            raise ValueError(f"For primitive[{self.name}], the size's elements' must be equal to 2, but got {len(hw)}.")
        sc, tr = as_tensor_array(scale), as_tensor_array(translation)
        return wrap(STF.scale_and_translate(a, hw, sc, tr, self.kernel_type, self.antialias))


class ExtractGlimpse(Primitive):
    """``ExtractGlimpse(centered=True, normalized=True, uniform_noise=True, noise="uniform")(x, size, offsets)``:
    the ``size`` (Int32 ``(2,)``) windows of the NHWC ``x`` at ``offsets`` (Float32 ``(N, 2)``, (y, x)); the parts
    outside the image are noise (``"zero"``: zeros, the only fixed result). Deprecated in MindSpore 2.8."""

    def __init__(
        self, centered: bool = True, normalized: bool = True, uniform_noise: bool = True, noise: str = "uniform"
    ) -> None:
        super().__init__()
        for name, value in (("centered", centered), ("normalized", normalized), ("uniform_noise", uniform_noise)):
            check_value_type(name, value, [bool], self.name)
        if not isinstance(noise, str) or noise not in GF.NOISES:
            raise ValueError(
                f"For '{self.name}', the 'noise' must be str and must be in '{list(GF.NOISES)}', but got '{noise}'."
            )
        if uniform_noise and noise != "uniform":
            raise ValueError(
                f"For '{self.name}', the value of 'noise' must be uniform when uniform_noise is True, but got {noise}."
            )
        for name, value in (("centered", centered), ("normalized", normalized)):
            self.add_prim_attr(name, value)
        self.add_prim_attr("uniform_noise", uniform_noise)
        self.add_prim_attr("noise", noise)
        self.centered, self.normalized, self.uniform_noise, self.noise = centered, normalized, uniform_noise, noise

    def __call__(self, x: Any, size: Any, offsets: Any) -> Any:
        from ...common.seed import next_key

        a = as_tensor_array(x)
        if a.ndim != 4:
            raise ValueError(f"For primitive[{self.name}], the input x's rank must be equal to 4, but got {a.ndim}.")
        hw = tuple(int(v) for v in np.asarray(size.asnumpy() if hasattr(size, "asnumpy") else size).reshape(-1))
        key = None if self.noise == "zero" else next_key()
        gh, gw = hw  # two sizes (ValueError otherwise, as the kernel's unpacking gave)
        out = GF.extract_glimpse(a, (gh, gw), as_tensor_array(offsets), self.centered, self.normalized, self.noise, key)
        return wrap(out)
