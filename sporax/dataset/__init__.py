"""``mindspore.dataset`` on sporax: sources, operations, samplers and transforms with MindSpore's semantics,
run by a parallel, prefetching engine (threads for array operations, processes for Python callables)."""

from .core import config
from .core.config import get_seed, set_seed
from .engine import *
from .engine import samplers
from .engine.datasets import zip_datasets as zip  # MindSpore's ds.zip
from . import audio, text, transforms, vision
