"""Dataset callbacks (``mindspore.dataset.callback``)."""

from ..engine._callbacks import DSCallback

__all__ = ["DSCallback"]
