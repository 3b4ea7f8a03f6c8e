"""Loss functions."""

from . import loss
from .loss import *  # noqa: F403

__all__: list[str] = []
__all__ += loss.__all__
