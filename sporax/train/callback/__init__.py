"""Callbacks (MindSpore's ``mindspore.train.callback``)."""

from ._callback import Callback, RunContext, _CallbackManager, _handle_loss, _InternalCallbackParam

__all__ = ["Callback", "RunContext"]
