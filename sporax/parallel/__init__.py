"""``sporax.parallel`` (``mindspore.parallel``)."""

from ..context import ParallelMode

__all__ = ["ParallelMode"]
