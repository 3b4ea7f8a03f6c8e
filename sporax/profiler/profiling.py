"""``mindspore.profiler.profiling``: MindSpore 1.x's module path of ``Profiler``, removed in 2.x and still
imported by training scripts (``from mindspore.profiler.profiling import Profiler``). Importing it warns
once (DeprecationWarning) and gives the 2.x ``mindspore.profiler.Profiler``."""

import warnings

from .profiler import Profiler

__all__ = ["Profiler"]

warnings.warn(
    "'mindspore.profiler.profiling' is a MindSpore 1.x path removed in 2.x: use 'mindspore.profiler.Profiler' "
    "(from mindspore.profiler import Profiler).",
    DeprecationWarning,
    stacklevel=2,
)
