"""Vision transforms (``mindspore.dataset.vision``)."""

from . import transforms, utils
from .transforms import *
from ._augment import *
from ._color import *
from ._geometry import *
from ._io import *
from .utils import AutoAugmentPolicy, Border, ConvertMode, ImageBatchFormat, ImageReadMode, Inter, SliceMode
