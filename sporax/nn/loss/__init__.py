"""Loss functions."""

from . import loss
from .loss import *  # noqa: F403

__all__ = [*loss.__all__]
