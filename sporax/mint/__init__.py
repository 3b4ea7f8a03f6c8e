"""``sporax.mint`` (``mindspore.mint``): the PyTorch-style API, a thin layer over ``sporax.ops`` and ``sporax.nn``.
``mint.distributed`` imports on first use."""

import importlib as _importlib

from . import linalg, nn, optim, special
from ._functions import *  # noqa: F403
from . import _functions as _fmod
from .nn.functional import conv2d  # noqa: F401

for _n in ("annotations", "ops", "mstype", "Tensor"):
    globals().pop(_n, None)

__all__ = [n for n in vars(_fmod) if not n.startswith("_") and n not in ("annotations", "ops", "mstype", "Tensor")]
__all__ += ["conv2d", "nn", "optim", "special", "linalg"]


def __getattr__(name: str):
    if name == "distributed":
        return _importlib.import_module(f"{__name__}.distributed")
    raise AttributeError(f"module 'sporax.mint' has no attribute '{name}'")
