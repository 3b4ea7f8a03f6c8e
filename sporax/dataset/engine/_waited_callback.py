"""``WaitedDSCallback``: a dataset callback that is also a training callback (``mindspore.train.Callback``), so a
data pipeline step can wait for the training step before it.

This is the data pipeline's one dependency on training, as in MindSpore (its ``WaitedDSCallback`` derives from
``mindspore.train.Callback``): the module is loaded on first use (``sporax.dataset.__getattr__``), and the
import contracts in pyproject.toml name this import.
"""

from __future__ import annotations

import threading

from ...train.callback import Callback
from ._callbacks import DSCallback

__all__ = ["WaitedDSCallback"]


class WaitedDSCallback(Callback, DSCallback):
    """A dataset callback synchronized with training: give the same object to ``map(..., callbacks=...)`` and
    to ``Model.train(..., callbacks=...)``. Override ``sync_epoch_begin(train_run_context, ds_run_context)``
    and/or ``sync_step_begin(train_run_context, ds_run_context)``: each dataset epoch after the first waits
    for the previous training epoch to end, and each dataset step after the first ``step_size`` waits for the
    previous training step to end, then calls the method with that training run context (``cur_epoch_num``,
    ``cur_step_num``, ``net_outputs``, ...). A wait longer than ``ds.config.get_callback_timeout()`` seconds
    raises ``RuntimeError``; once training has ended nothing waits.

    Args:
        step_size (int, optional): dataset steps per training step. Default: ``1``.
    """

    _waits_for_training = True

    def __init__(self, step_size=1) -> None:
        DSCallback.__init__(self, step_size)
        self.step_event = threading.Event()
        self.step_run_context = None
        self.epoch_event = threading.Event()
        self.epoch_run_context = None
        self.training_ended = False

    def sync_epoch_begin(self, train_run_context, ds_run_context) -> None:
        """Called before a dataset epoch (after the first) starts, once the previous training epoch ended."""

    def sync_step_begin(self, train_run_context, ds_run_context) -> None:
        """Called before a dataset step (after the first ``step_size``) starts, once the previous training step
        ended."""

    @staticmethod
    def _wait(event, name) -> None:
        from ..core import config

        timeout = config.get_callback_timeout()
        ok = event.wait(timeout=timeout)
        event.clear()
        if not ok:
            raise RuntimeError(f"{name} timed out after {timeout} second(s).")

    # training side: release the waiting pipeline
    def epoch_end(self, run_context) -> None:
        """Internal: records the training epoch's context and releases ``ds_epoch_begin``."""
        self.epoch_run_context = run_context
        self.epoch_event.set()

    def step_end(self, run_context) -> None:
        """Internal: records the training step's context and releases ``ds_step_begin``."""
        self.step_run_context = run_context
        self.step_event.set()

    def end(self, run_context) -> None:
        """Internal: training ended; nothing waits any more."""
        self.epoch_end(run_context)
        self.step_end(run_context)
        self.training_ended = True

    # data side: wait for training
    def ds_epoch_begin(self, ds_run_context) -> None:
        """Internal: waits for the previous training epoch, then calls ``sync_epoch_begin``."""
        if type(self).sync_epoch_begin is WaitedDSCallback.sync_epoch_begin:
            return
        if ds_run_context.cur_epoch_num > 1:
            if not self.training_ended:
                self._wait(self.epoch_event, "ds_epoch_begin")
            self.sync_epoch_begin(self.epoch_run_context, ds_run_context)

    def ds_step_begin(self, ds_run_context) -> None:
        """Internal: waits for the previous training step, then calls ``sync_step_begin``."""
        if type(self).sync_step_begin is WaitedDSCallback.sync_step_begin:
            return
        if ds_run_context.cur_step_num > self.step_size:
            if not self.training_ended:
                self._wait(self.step_event, "ds_step_begin")
            self.sync_step_begin(self.step_run_context, ds_run_context)

    def _overridden(self) -> bool:
        cls = type(self)
        return (
            cls.sync_step_begin is not WaitedDSCallback.sync_step_begin
            or cls.sync_epoch_begin is not WaitedDSCallback.sync_epoch_begin
        )
