"""Dataset callbacks (``mindspore.dataset.callback``)."""

from ..engine._callbacks import DSCallback

__all__ = ["DSCallback"]


def __getattr__(name: str):  # noqa: ANN202  (module attribute hook)
    if name == "WaitedDSCallback":  # a train Callback too: loaded on first use, as sporax.dataset does
        from ..engine._waited_callback import WaitedDSCallback

        return WaitedDSCallback
    raise AttributeError(f"module 'sporax.dataset.callback' has no attribute '{name}'")
