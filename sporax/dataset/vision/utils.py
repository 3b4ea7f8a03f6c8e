"""Enums of the vision transforms (``mindspore.dataset.vision.utils``)."""

from __future__ import annotations

import enum

__all__ = ["Inter", "Border", "ImageBatchFormat", "ConvertMode", "SliceMode", "AutoAugmentPolicy", "ImageReadMode"]


class Inter(enum.IntEnum):
    """Interpolation modes (MindSpore's values)."""

    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = 2
    LINEAR = 2
    BICUBIC = 3
    CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(enum.StrEnum):
    """Padding modes."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class ImageBatchFormat(enum.IntEnum):
    NHWC = 0
    NCHW = 1


class SliceMode(enum.IntEnum):
    PAD = 0
    DROP = 1


class ImageReadMode(enum.IntEnum):
    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


class AutoAugmentPolicy(str, enum.Enum):  # noqa: UP042  (MindSpore's class)
    """The policies of ``AutoAugment``."""

    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


class ConvertMode(enum.IntEnum):
    """Color conversions of ``ConvertColor`` (OpenCV's codes)."""

    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = 0
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = 1
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = 2
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = 3
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = 4
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = 5
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = 8
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = 9
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11
