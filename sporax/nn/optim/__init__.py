"""Optimizers."""

from . import optimizer, sgd
from .optimizer import *  # noqa: F403
from .sgd import *  # noqa: F403

__all__ = [*optimizer.__all__, *sgd.__all__]
