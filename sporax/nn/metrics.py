"""Metrics from sporax.train.metrics under MindSpore's 1.x path ``mindspore.nn.metrics`` (the same objects)."""

from sporax.train.metrics import *  # noqa: F403
from sporax.train.metrics import __all__  # noqa: F401
