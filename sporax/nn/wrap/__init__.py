"""Wrapper cells: train steps, gradient reducers (and, with issue 3, loss scaling)."""

from . import cell_wrapper, grad_reducer
from .cell_wrapper import *  # noqa: F403
from .grad_reducer import *  # noqa: F403

__all__ = [*cell_wrapper.__all__, *grad_reducer.__all__]
