"""``mindspore.train.parallel_utils``: MindSpore 1.0's home of ``ParallelMode``, removed since (use
``mindspore.ParallelMode`` / ``mindspore.context.ParallelMode``). Importing it warns once."""

from .._deprecated import warn_removed
from ..context import ParallelMode

__all__ = ["ParallelMode"]

warn_removed("mindspore.train.parallel_utils.ParallelMode", "mindspore.ParallelMode")
