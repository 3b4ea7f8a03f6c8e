"""Audio transforms and utilities (``mindspore.dataset.audio``), on NumPy waveforms and spectrograms."""

from __future__ import absolute_import  # noqa: UP010  (MindSpore's module exports the name too)

from . import transforms, utils
from ._effects import *
from ._vad import *
from .transforms import *
from .utils import *
