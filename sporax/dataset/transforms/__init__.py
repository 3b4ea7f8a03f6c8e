"""General transforms (``mindspore.dataset.transforms``)."""

from . import transforms
from .transforms import *
