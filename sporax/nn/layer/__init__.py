"""Layers."""

from . import activation, basic, container
from .activation import *  # noqa: F403
from .basic import *  # noqa: F403
from .container import *  # noqa: F403

__all__ = [*activation.__all__, *basic.__all__, *container.__all__]
