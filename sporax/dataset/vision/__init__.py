"""Vision transforms (``mindspore.dataset.vision``)."""

from . import transforms, utils
from .transforms import *
from .utils import Border, ConvertMode, ImageBatchFormat, Inter, SliceMode
