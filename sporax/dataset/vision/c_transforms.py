"""MindSpore 1.x path ``mindspore.dataset.vision.c_transforms``: the 2.x vision transforms."""

from .transforms import *  # noqa: F403
from .utils import Border, ConvertMode, ImageBatchFormat, Inter, SliceMode  # noqa: F401
