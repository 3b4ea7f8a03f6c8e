"""Dataset callbacks (``map(..., callbacks=...)``): :class:`DSCallback` and the run context it receives."""

from __future__ import annotations

from ..._checkparam import check_pipeline_int

__all__ = ["DSCallback", "DSRunContext"]


class DSRunContext:
    """What a dataset callback sees: ``cur_epoch_num`` (from 1), ``cur_step_num_in_epoch`` (from 1) and
    ``cur_step_num`` (from 1, over all epochs)."""

    def __init__(self) -> None:
        self.cur_epoch_num = 0
        self.cur_step_num_in_epoch = 0
        self.cur_step_num = 0


class DSCallback:
    """Base class of dataset callbacks, called by the ``map`` they are given to.

    Override any of ``ds_begin``, ``ds_epoch_begin``, ``ds_epoch_end``, ``ds_step_begin``, ``ds_step_end``;
    each receives a :class:`DSRunContext`. The step methods run every ``step_size`` rows (steps 1,
    1 + step_size, ...).

    Args:
        step_size (int, optional): steps between two calls of ``ds_step_begin``/``ds_step_end``. Default: ``1``.

    Raises:
        TypeError: ``step_size`` is not an int.
        ValueError: ``step_size`` is not positive.
    """

    def __init__(self, step_size=1) -> None:
        self.step_size = check_pipeline_int(step_size, "step_size", 1, 2**31 - 1)

    def ds_begin(self, ds_run_context) -> None:
        """Called before the pipeline starts."""

    def ds_epoch_begin(self, ds_run_context) -> None:
        """Called before an epoch starts."""

    def ds_epoch_end(self, ds_run_context) -> None:
        """Called after an epoch ends."""

    def ds_step_begin(self, ds_run_context) -> None:
        """Called before a step."""

    def ds_step_end(self, ds_run_context) -> None:
        """Called after a step."""

    def _overridden(self) -> bool:
        names = ("ds_begin", "ds_epoch_begin", "ds_epoch_end", "ds_step_begin", "ds_step_end")
        return any(getattr(type(self), n) is not getattr(DSCallback, n) for n in names)


class CallbackRunner:
    """Calls the callbacks of one ``map`` around the blocks it emits (in the consumer's thread, in order)."""

    def __init__(self, callbacks: list) -> None:
        self.callbacks = callbacks
        self.ctx = DSRunContext()
        self.started = False

    def run(self, blocks, epoch: int):
        c = self.ctx
        if epoch == 0 or not self.started:
            if not self.started:
                for cb in self.callbacks:
                    cb.ds_begin(c)
            self.started = True
            c.cur_step_num = 0
        c.cur_epoch_num = epoch + 1
        c.cur_step_num_in_epoch = 0
        for cb in self.callbacks:
            cb.ds_epoch_begin(c)
        # a callback that waits for training (WaitedDSCallback) sees the rows one by one, each released before
        # the next step begins
        rowwise = any(getattr(cb, "_waits_for_training", False) for cb in self.callbacks)
        for blk in blocks:
            for part in _rows_of(blk) if rowwise and blk.n > 1 else (blk,):
                first = c.cur_step_num_in_epoch
                self._steps(first, part.n, "ds_step_begin")
                self._steps(first, part.n, "ds_step_end")
                c.cur_step_num_in_epoch = first + part.n
                c.cur_step_num += part.n
                yield part
        for cb in self.callbacks:
            cb.ds_epoch_end(c)

    def _steps(self, first: int, n: int, name: str) -> None:
        c = self.ctx
        base = c.cur_step_num - c.cur_step_num_in_epoch
        for k in range(first + 1, first + n + 1):
            c.cur_step_num_in_epoch = k
            c.cur_step_num = base + k
            for cb in self.callbacks:
                if (k - 1) % cb.step_size == 0:
                    getattr(cb, name)(c)
        c.cur_step_num_in_epoch = first
        c.cur_step_num = base + first


def _rows_of(blk):
    from ._block import Block, slice_col

    for k in range(blk.n):
        yield Block([slice_col(col, k, k + 1) for col in blk.cols], 1, blk.start + k)
