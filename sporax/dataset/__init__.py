"""``mindspore.dataset`` on sporax: sources, operations, samplers and transforms with MindSpore's semantics,
run by a parallel, prefetching engine (threads for array operations, processes for Python callables)."""

from .core import config
from .core.config import get_seed, set_seed
from .engine import *
from .engine import samplers
from .engine.datasets import zip_datasets as zip  # MindSpore's ds.zip
from . import audio, text, transforms, vision


def __getattr__(name: str):  # noqa: ANN202  (module attribute hook)
    # WaitedDSCallback is also a training callback: its module (which imports sporax.train) loads on first use
    if name == "WaitedDSCallback":
        from .engine._waited_callback import WaitedDSCallback

        globals()[name] = WaitedDSCallback
        return WaitedDSCallback
    raise AttributeError(f"module 'sporax.dataset' has no attribute '{name}'")
