"""Dataset configuration (``mindspore.dataset.core``)."""

from . import config
