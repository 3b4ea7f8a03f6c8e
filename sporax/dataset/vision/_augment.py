"""Automatic and batch augmentations (``mindspore.dataset.vision``): AutoAugment (ImageNet, CIFAR-10, SVHN
policies), RandAugment, TrivialAugmentWide, UniformAugment, RandomSelectSubpolicy, MixUp, MixUpBatch,
CutMixBatch, BoundingBoxAugment and the ``*WithBBox`` transforms (bounding boxes as float32 ``[N, 4+]``
rows of x, y, width, height)."""

from __future__ import annotations

import functools
import math

import numpy as np

from ..._checkparam import (
    check_fill_value,
    check_image_size,
    check_padding,
    check_pipeline_float,
    check_pipeline_int,
    check_transforms_list,
)
from ..engine import _random
from ..transforms.transforms import TensorOperation
from . import _color as C
from . import _warp
from ._color import _img
from ._geometry import affine_matrix
from .transforms import RandomResizedCrop, _flip_lr, _pad, _resize_cv
from .utils import AutoAugmentPolicy, ImageBatchFormat, Inter

__all__ = [
    "AutoAugment",
    "RandAugment",
    "TrivialAugmentWide",
    "UniformAugment",
    "RandomSelectSubpolicy",
    "MixUp",
    "MixUpBatch",
    "CutMixBatch",
    "BoundingBoxAugment",
    "RandomHorizontalFlipWithBBox",
    "RandomVerticalFlipWithBBox",
    "ResizeWithBBox",
    "RandomResizeWithBBox",
    "RandomCropWithBBox",
    "RandomResizedCropWithBBox",
]

_KIND = {Inter.NEAREST: _warp.NEAREST, Inter.BILINEAR: _warp.LINEAR, Inter.BICUBIC: _warp.CUBIC}


def _warp_img(img, degrees, tx, ty, shear, interpolation, fill):
    h, w = img.shape[:2]
    m = affine_matrix(h, w, degrees, (tx, ty), 1.0, shear)
    ch = img.shape[2] if img.ndim == 3 else 1
    return _warp.warp_affine(
        img, m, w, h, _KIND.get(Inter(interpolation), _warp.LINEAR), [fill[c % 3] for c in range(ch)]
    )


def apply_op(img, name, mag, interpolation, fill):
    """One named augmentation of magnitude ``mag`` (torchvision's definitions, which MindSpore follows)."""
    if name == "ShearX":
        return _warp_img(img, 0.0, 0, 0, (math.degrees(math.atan(mag)), 0.0), interpolation, fill)
    if name == "ShearY":
        return _warp_img(img, 0.0, 0, 0, (0.0, math.degrees(math.atan(mag))), interpolation, fill)
    if name == "TranslateX":
        return _warp_img(img, 0.0, int(mag), 0, (0.0, 0.0), interpolation, fill)
    if name == "TranslateY":
        return _warp_img(img, 0.0, 0, int(mag), (0.0, 0.0), interpolation, fill)
    if name == "Rotate":
        return _warp_img(img, mag, 0, 0, (0.0, 0.0), interpolation, fill)
    if name == "Brightness":
        return C.adjust_brightness(img, 1.0 + mag)
    if name == "Color":
        return C.adjust_saturation(img, 1.0 + mag)
    if name == "Contrast":
        return C.adjust_contrast(img, 1.0 + mag)
    if name == "Sharpness":
        return C.adjust_sharpness(img, 1.0 + mag)
    if name == "Posterize":
        return C.posterize(img, int(mag))
    if name == "Solarize":
        return C.solarize(img, float(mag), 255.0)
    if name == "AutoContrast":
        return C.auto_contrast(img, 0.0, [])
    if name == "Equalize":
        return C.equalize(img)
    if name == "Invert":
        return 255 - img
    return img  # Identity


_SIGNED = {"ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate", "Brightness", "Color", "Contrast", "Sharpness"}


@functools.lru_cache(maxsize=64)
def _space(n, h, w, wide=False):
    """The magnitudes of each operation's ``n`` bins for an h x w image (cached: an image size recurs)."""
    post_div = 6 if wide else 4
    space = {
        "Identity": np.zeros(n),
        "ShearX": np.linspace(0.0, 0.99 if wide else 0.3, n),
        "ShearY": np.linspace(0.0, 0.99 if wide else 0.3, n),
        "TranslateX": np.linspace(0.0, 32.0 if wide else 150.0 / 331.0 * w, n),
        "TranslateY": np.linspace(0.0, 32.0 if wide else 150.0 / 331.0 * h, n),
        "Rotate": np.linspace(0.0, 135.0 if wide else 30.0, n),
        "Brightness": np.linspace(0.0, 0.99 if wide else 0.9, n),
        "Color": np.linspace(0.0, 0.99 if wide else 0.9, n),
        "Contrast": np.linspace(0.0, 0.99 if wide else 0.9, n),
        "Sharpness": np.linspace(0.0, 0.99 if wide else 0.9, n),
        "Posterize": 8 - np.round(np.arange(n) / ((n - 1) / post_div)).astype(int),
        "Solarize": np.linspace(255.0, 0.0, n),
        "AutoContrast": np.zeros(n),
        "Equalize": np.zeros(n),
    }
    for v in space.values():
        v.flags.writeable = False
    return space


def _aug_image(img, name):
    """The image an auto-augmentation is called with, as uint8 HWC RGB (the kernel's input rule, not an argument)."""
    img = _img(img, name)
    if img.dtype != np.uint8 or (img.ndim == 3 and img.shape[2] != 3):
        raise RuntimeError(f"{name}: input image should be in type of uint8 with shape <H, W, 3>, but got "
                           f"{img.dtype} {list(img.shape)}.")  # fmt: skip
    return img


_POLICIES = {
    "imagenet": (
        (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None)), (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
        (("Solarize", 0.6, 3), ("Equalize", 0.6, None)), (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
        (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)), (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
        (("Rotate", 0.8, 8), ("Color", 0.4, 0)), (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
        (("Equalize", 0.0, None), ("Equalize", 0.8, None)), (("Invert", 0.6, None), ("Equalize", 1.0, None)),
        (("Color", 0.6, 4), ("Contrast", 1.0, 8)), (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
        (("Color", 0.8, 8), ("Solarize", 0.8, 7)), (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
        (("ShearX", 0.6, 5), ("Equalize", 1.0, None)), (("Color", 0.4, 0), ("Equalize", 0.6, None)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Invert", 0.6, None), ("Equalize", 1.0, None)), (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
    ),
    "cifar10": (
        (("Invert", 0.1, None), ("Contrast", 0.2, 6)), (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
        (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)), (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.5, None), ("Equalize", 0.9, None)), (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
        (("Color", 0.4, 3), ("Brightness", 0.6, 7)), (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
        (("Equalize", 0.6, None), ("Equalize", 0.5, None)), (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
        (("Color", 0.7, 7), ("TranslateX", 0.5, 8)), (("Equalize", 0.3, None), ("AutoContrast", 0.4, None)),
        (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)), (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
        (("Solarize", 0.5, 2), ("Invert", 0.0, None)), (("Equalize", 0.2, None), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.2, None), ("Equalize", 0.6, None)), (("Color", 0.9, 9), ("Equalize", 0.6, None)),
        (("AutoContrast", 0.8, None), ("Solarize", 0.2, 8)), (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
        (("Solarize", 0.4, 5), ("AutoContrast", 0.9, None)), (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.9, None), ("Solarize", 0.8, 3)), (("Equalize", 0.8, None), ("Invert", 0.1, None)),
        (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, None)),
    ),
    "svhn": (
        (("ShearX", 0.9, 4), ("Invert", 0.2, None)), (("ShearY", 0.9, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.6, None), ("Solarize", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Equalize", 0.6, None), ("Rotate", 0.9, 3)), (("ShearX", 0.9, 4), ("AutoContrast", 0.8, None)),
        (("ShearY", 0.9, 8), ("Invert", 0.4, None)), (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
        (("Invert", 0.9, None), ("AutoContrast", 0.8, None)), (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
        (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)), (("ShearY", 0.8, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.9, None), ("TranslateY", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)), (("Invert", 0.8, None), ("TranslateY", 0.0, 2)),
        (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)), (("Invert", 0.6, None), ("Rotate", 0.8, 4)),
        (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)), (("ShearX", 0.1, 6), ("Invert", 0.6, None)),
        (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)), (("ShearY", 0.8, 4), ("Invert", 0.8, None)),
        (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)), (("ShearY", 0.8, 5), ("AutoContrast", 0.7, None)),
        (("ShearX", 0.7, 2), ("Invert", 0.1, None)),
    ),
}  # fmt: skip


class AutoAugment(TensorOperation):
    """AutoAugment (Cubuk et al.): one of the policy's 25 sub-policies, each two (operation, probability,
    magnitude bin) steps, on uint8 HWC RGB images."""

    _random = True

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST, fill_value=0) -> None:
        self.policy = AutoAugmentPolicy(policy)
        self.interpolation = Inter(interpolation)
        self.fill_value = check_fill_value(fill_value)

    def _apply(self, x):
        img = _aug_image(x, "AutoAugment")
        g = _random.rng()
        h, w = img.shape[:2]
        space = _space(10, h, w)
        sub = _POLICIES[self.policy.value][int(g.integers(len(_POLICIES[self.policy.value])))]
        for name, prob, bin_ in sub:
            if g.random() <= prob:
                mag = float(space[name][bin_]) if bin_ is not None else 0.0
                if name in _SIGNED and g.integers(2):
                    mag = -mag
                img = apply_op(img, name, mag, self.interpolation, self.fill_value)
        return img


class RandAugment(TensorOperation):
    """RandAugment: ``num_ops`` operations drawn uniformly, each at bin ``magnitude`` of ``num_magnitude_bins``."""

    _random = True
    _wide = False

    def __init__(
        self, num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0
    ) -> None:
        self.num_ops = check_pipeline_int(num_ops, "num_ops", 0, 2**31 - 1)
        self.num_magnitude_bins = check_pipeline_int(num_magnitude_bins, "num_magnitude_bins", 2, 2**31 - 1)
        self.magnitude = check_pipeline_int(magnitude, "magnitude", 0, self.num_magnitude_bins - 1)
        self.interpolation = Inter(interpolation)
        self.fill_value = check_fill_value(fill_value)

    def _apply(self, x):
        img = _aug_image(x, type(self).__name__)
        g = _random.rng()
        h, w = img.shape[:2]
        space = _space(self.num_magnitude_bins, h, w, self._wide)
        names = list(space)
        for _ in range(1 if self._wide else self.num_ops):
            name = names[int(g.integers(len(names)))]
            bin_ = int(g.integers(self.num_magnitude_bins)) if self._wide else self.magnitude
            mag = float(space[name][bin_])
            if name in _SIGNED and g.integers(2):
                mag = -mag
            img = apply_op(img, name, mag, self.interpolation, self.fill_value)
        return img


class TrivialAugmentWide(RandAugment):
    """TrivialAugment Wide: one operation with a uniformly drawn magnitude bin (wide magnitude ranges)."""

    _wide = True

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0) -> None:
        super().__init__(1, 0, num_magnitude_bins, interpolation, fill_value)


class UniformAugment(TensorOperation):
    """Pick ``num_ops`` of ``transforms`` at random (without repeats) and apply each with probability 0.5."""

    _random = True

    def __init__(self, transforms, num_ops=2) -> None:
        self.transforms = check_transforms_list(transforms, "transforms")
        self.num_ops = check_pipeline_int(num_ops, "num_ops", 1, 2**31 - 1)
        if self.num_ops > len(self.transforms):
            raise ValueError("num_ops is greater than transforms list size.")

    def _apply(self, x):
        g = _random.rng()
        for i in g.permutation(len(self.transforms))[: self.num_ops].tolist():
            if g.random() < 0.5:
                x = self.transforms[i](x)
        return x


class RandomSelectSubpolicy(TensorOperation):
    """Pick one sub-policy (a list of ``(transform, probability)``) at random and apply its steps."""

    _random = True

    def __init__(self, policy) -> None:
        if not isinstance(policy, list) or not policy:
            raise TypeError("policy should be a non-empty list of sub-policies.")
        for sub in policy:
            if not isinstance(sub, list) or not sub:
                raise TypeError("each sub-policy should be a non-empty list of (op, prob) tuples.")
            for op, prob in sub:
                if not callable(op):
                    raise TypeError(f"{op!r} is not a callable transform.")
                check_pipeline_float(prob, "prob", 0.0, 1.0)
        self.policy = policy

    def _apply(self, x):
        g = _random.rng()
        for op, prob in self.policy[int(g.integers(len(self.policy)))]:
            if g.random() < prob:
                x = op(x)
        return x


# ---------------------------------------------------------------------------------------- batch mixing
def _mix_images(images, other, lam):
    out = images.astype(np.float32) * lam + other.astype(np.float32) * (1 - lam)
    return out.astype(images.dtype) if images.dtype.kind == "f" else np.clip(out, 0, 255).astype(images.dtype)


def _batch_inputs(images, labels, name):
    """The image and label batches a batch mixer is called with (the kernel's input rule)."""
    images, labels = np.asarray(images), np.asarray(labels)
    if images.ndim != 4:
        raise RuntimeError(
            f"{name}: input image is not in shape of <N,H,W,C> or <N,C,H,W>, but got rank {images.ndim}."
        )
    if labels.ndim not in (2, 3):
        raise RuntimeError(f"{name}: wrong labels shape. The second column (labels) must have a shape of NC or NLC. "
                           f"But got rank {labels.ndim}.")  # fmt: skip
    return images, labels


class MixUpBatch(TensorOperation):
    """MixUp over a batch: ``lam ~ Beta(alpha, alpha)``; images and one-hot labels become
    ``lam * x + (1 - lam) * x[perm]`` with a random permutation of the batch."""

    _random = True

    def __init__(self, alpha=1.0) -> None:
        self.alpha = check_pipeline_float(alpha, "alpha", 0)
        if self.alpha <= 0:
            raise ValueError("Input alpha is not within the required interval of (0, 16777216].")

    def __call__(self, *args):
        if len(args) != 2:
            raise TypeError("MixUpBatch takes two columns: images and labels.")
        images, labels = _batch_inputs(*args, "MixUpBatch")
        g = _random.rng()
        lam = float(g.beta(self.alpha, self.alpha))
        perm = g.permutation(len(images))
        mixed_labels = (labels.astype(np.float32) * lam + labels[perm].astype(np.float32) * (1 - lam)).astype(
            np.float32
        )
        return _mix_images(images, images[perm], lam), mixed_labels


class MixUp(TensorOperation):
    """MixUp of a batch of ``batch_size`` images with one-hot labels: with ``is_single`` each image mixes with
    its neighbour in the batch (rolled by one), otherwise with a random one; ``lam ~ Beta(alpha, alpha)``."""

    _random = True

    def __init__(self, batch_size, alpha, is_single=True) -> None:
        self.batch_size = check_pipeline_int(batch_size, "batch_size", 1, 2**31 - 1)
        self.alpha = check_pipeline_float(alpha, "alpha", 0)
        if not isinstance(is_single, bool):
            raise TypeError(f"Argument is_single with value {is_single} is not of type [<class 'bool'>].")
        self.is_single = is_single

    def __call__(self, *args):
        if len(args) != 2:
            raise TypeError("MixUp takes two columns: images and labels.")
        images, labels = np.asarray(args[0]), np.asarray(args[1])
        g = _random.rng()
        lam = float(g.beta(self.alpha, self.alpha)) if self.alpha > 0 else 1.0
        perm = np.roll(np.arange(len(images)), 1) if self.is_single else g.permutation(len(images))
        out_labels = labels.astype(np.float32) * lam + labels[perm].astype(np.float32) * (1 - lam)
        return _mix_images(images, images[perm], lam), out_labels


class CutMixBatch(TensorOperation):
    """CutMix over a batch: with probability ``prob`` an image gets a box (area fraction ``1 - lam``,
    ``lam ~ Beta(alpha, alpha)``) pasted from another image of the batch, and the labels mix by area."""

    _random = True

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0) -> None:
        self.image_batch_format = ImageBatchFormat(image_batch_format)
        self.alpha = check_pipeline_float(alpha, "alpha", 0)
        if self.alpha <= 0:
            raise ValueError("Input alpha is not within the required interval of (0, 16777216].")
        self.prob = check_pipeline_float(prob, "prob", 0.0, 1.0)

    def __call__(self, *args):
        if len(args) != 2:
            raise TypeError("CutMixBatch takes two columns: images and labels.")
        images, labels = _batch_inputs(*args, "CutMixBatch")
        nhwc = self.image_batch_format == ImageBatchFormat.NHWC
        h, w = (images.shape[1:3]) if nhwc else (images.shape[2:4])
        g = _random.rng()
        out_i, out_l = images.copy(), labels.astype(np.float32).copy()
        perm = g.permutation(len(images))
        for i in range(len(images)):
            if g.random() >= self.prob:
                continue
            lam = float(g.beta(self.alpha, self.alpha))
            cut = math.sqrt(1 - lam)
            ch, cw = int(h * cut), int(w * cut)
            cy, cx = int(g.integers(h)), int(g.integers(w))
            y0, y1 = max(0, cy - ch // 2), min(h, cy + ch // 2)
            x0, x1 = max(0, cx - cw // 2), min(w, cx + cw // 2)
            j = perm[i]
            if nhwc:
                out_i[i, y0:y1, x0:x1] = images[j, y0:y1, x0:x1]
            else:
                out_i[i, :, y0:y1, x0:x1] = images[j, :, y0:y1, x0:x1]
            ratio = (y1 - y0) * (x1 - x0) / float(h * w)
            out_l[i] = labels[i] * (1 - ratio) + labels[j] * ratio
        return out_i, out_l


# ---------------------------------------------------------------------------------------- bounding boxes
def _bbox_inputs(img, bboxes, name):
    """The image and bounding boxes a ``*WithBBox`` transform is called with (the kernel's input rule)."""
    img, bboxes = np.asarray(img), np.asarray(bboxes)
    if bboxes.ndim != 2 or bboxes.shape[1] < 4:
        raise RuntimeError(f"{name}: bounding boxes should have a shape of <N, 4+>, but got {list(bboxes.shape)}.")
    h, w = img.shape[:2]
    b = bboxes.astype(np.float64)
    if (b[:, :2] < 0).any() or (b[:, 0] + b[:, 2] > w).any() or (b[:, 1] + b[:, 3] > h).any():
        raise RuntimeError(f"{name}: bounding boxes are out of the bounds of the image.")
    return img, bboxes


class _BBoxOp(TensorOperation):
    def __call__(self, *args):
        if len(args) != 2:
            raise TypeError(f"{type(self).__name__} takes two columns: image and bounding boxes.")
        img, bb = _bbox_inputs(args[0], args[1], type(self).__name__)
        return self._apply_bbox(img, bb.copy())


class RandomHorizontalFlipWithBBox(_BBoxOp):
    """Flip the image left-right and its boxes with probability ``prob``."""

    _random = True

    def __init__(self, prob=0.5) -> None:
        self.prob = check_pipeline_float(prob, "prob", 0.0, 1.0)

    def _apply_bbox(self, img, bb):
        if _random.rng().random() < self.prob:
            w = img.shape[1]
            bb[:, 0] = w - bb[:, 0] - bb[:, 2]
            return _flip_lr(img), bb
        return img, bb


class RandomVerticalFlipWithBBox(RandomHorizontalFlipWithBBox):
    """Flip the image upside down and its boxes with probability ``prob``."""

    def _apply_bbox(self, img, bb):
        if _random.rng().random() < self.prob:
            h = img.shape[0]
            bb[:, 1] = h - bb[:, 1] - bb[:, 3]
            return np.ascontiguousarray(img[::-1]), bb
        return img, bb


def _resize_bbox(img, bb, size, interpolation):
    h, w = img.shape[:2]
    if isinstance(size, int):
        oh, ow = (size, int(w * size / h)) if h <= w else (int(h * size / w), size)
    else:
        oh, ow = size
    out = _resize_cv(np.ascontiguousarray(img), oh, ow, Inter(interpolation))
    sx, sy = ow / w, oh / h
    bb = bb.astype(np.float32)
    bb[:, [0, 2]] *= sx
    bb[:, [1, 3]] *= sy
    return out, bb


class ResizeWithBBox(_BBoxOp):
    """``Resize(size)`` of the image, the boxes scaled along."""

    def __init__(self, size, interpolation=Inter.BILINEAR) -> None:
        self.size = check_image_size(size)
        self.interpolation = Inter(interpolation)

    def _apply_bbox(self, img, bb):
        return _resize_bbox(img, bb, self.size, self.interpolation)


class RandomResizeWithBBox(_BBoxOp):
    """``ResizeWithBBox`` with a random interpolation."""

    _random = True

    def __init__(self, size) -> None:
        self.size = check_image_size(size)

    def _apply_bbox(self, img, bb):
        mode = [Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA][int(_random.rng().integers(4))]
        return _resize_bbox(img, bb, self.size, mode)


def _crop_bbox(bb, top, left, ch, cw):
    """Boxes clipped to the crop window (boxes left with no area are dropped)."""
    x0 = np.clip(bb[:, 0] - left, 0, cw)
    y0 = np.clip(bb[:, 1] - top, 0, ch)
    x1 = np.clip(bb[:, 0] + bb[:, 2] - left, 0, cw)
    y1 = np.clip(bb[:, 1] + bb[:, 3] - top, 0, ch)
    out = bb.copy()
    out[:, 0], out[:, 1], out[:, 2], out[:, 3] = x0, y0, x1 - x0, y1 - y0
    return out[(out[:, 2] > 0) & (out[:, 3] > 0)]


class RandomCropWithBBox(_BBoxOp):
    """``RandomCrop`` of the image (after optional padding), the boxes shifted and clipped along."""

    _random = True

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode="constant") -> None:
        s = check_image_size(size)
        self.size = (s, s) if isinstance(s, int) else s
        self.padding = padding
        self.pad_if_needed = bool(pad_if_needed)
        self.fill_value, self.padding_mode = fill_value, padding_mode

    def _apply_bbox(self, img, bb):
        bb = bb.astype(np.float32)
        if self.padding is not None:
            left, top, right, bottom = check_padding(self.padding)
            img = _pad(img, left, top, right, bottom, self.fill_value, self.padding_mode)
            bb[:, 0] += left
            bb[:, 1] += top
        ch, cw = self.size
        h, w = img.shape[:2]
        if self.pad_if_needed and (h < ch or w < cw):
            ph, pw = max(0, ch - h), max(0, cw - w)
            img = _pad(img, pw, ph, pw, ph, self.fill_value, self.padding_mode)
            bb[:, 0] += pw
            bb[:, 1] += ph
            h, w = img.shape[:2]
        if h < ch or w < cw:
            raise RuntimeError(f"RandomCropWithBBox: crop size {self.size} is larger than the image {(h, w)}.")
        g = _random.rng()
        top, left = int(g.integers(0, h - ch + 1)), int(g.integers(0, w - cw + 1))
        return np.ascontiguousarray(img[top : top + ch, left : left + cw]), _crop_bbox(bb, top, left, ch, cw)


class RandomResizedCropWithBBox(_BBoxOp):
    """``RandomResizedCrop`` of the image, the boxes cropped and scaled along."""

    _random = True

    def __init__(
        self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=Inter.BILINEAR, max_attempts=10
    ) -> None:
        self._rrc = RandomResizedCrop(size, scale, ratio, interpolation, max_attempts)
        self.size, self.scale, self.ratio = self._rrc.size, self._rrc.scale, self._rrc.ratio
        self.interpolation, self.max_attempts = self._rrc.interpolation, max_attempts

    def _apply_bbox(self, img, bb):
        h, w = img.shape[:2]
        g = _random.rng()
        top, left, ch, cw = 0, 0, h, w
        for _ in range(self.max_attempts):
            target = h * w * g.uniform(*self.scale)
            ar = math.exp(g.uniform(math.log(self.ratio[0]), math.log(self.ratio[1])))
            cw2, ch2 = int(round(math.sqrt(target * ar))), int(round(math.sqrt(target / ar)))
            if 0 < cw2 <= w and 0 < ch2 <= h:
                top, left, ch, cw = int(g.integers(0, h - ch2 + 1)), int(g.integers(0, w - cw2 + 1)), ch2, cw2
                break
        crop = np.ascontiguousarray(img[top : top + ch, left : left + cw])
        bb = _crop_bbox(bb.astype(np.float32), top, left, ch, cw)
        return _resize_bbox(crop, bb, self.size, self.interpolation)


class BoundingBoxAugment(_BBoxOp):
    """Apply ``transform`` to the region of each box, a box chosen with probability ``ratio``."""

    _random = True

    def __init__(self, transform, ratio=0.3) -> None:
        if not callable(transform):
            raise TypeError("transform is not a callable transform.")
        self.transform = transform
        self.ratio = check_pipeline_float(ratio, "ratio", 0.0, 1.0)

    def _apply_bbox(self, img, bb):
        out = img.copy()
        g = _random.rng()
        for x, y, bw, bh in bb[:, :4].astype(int).tolist():
            if bw <= 0 or bh <= 0 or g.random() >= self.ratio:
                continue
            region = np.asarray(self.transform(np.ascontiguousarray(out[y : y + bh, x : x + bw])))
            if region.shape[:2] != (bh, bw):
                region = _resize_cv(np.ascontiguousarray(region), bh, bw, Inter.BILINEAR)
            out[y : y + bh, x : x + bw] = region.reshape(out[y : y + bh, x : x + bw].shape)
        return out, bb
