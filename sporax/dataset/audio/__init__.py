"""Audio transforms and utilities (``mindspore.dataset.audio``), on NumPy waveforms and spectrograms."""

from . import transforms, utils
from ._effects import *
from .transforms import *
from .utils import *
