"""MindSpore 1.x path ``mindspore.dataset.transforms.py_transforms``: the 2.x transforms."""

from .transforms import *  # noqa: F403
