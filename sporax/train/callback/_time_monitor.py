"""TimeMonitor callback."""

from __future__ import annotations

import time

from ..._checkparam import check_bool, check_positive_int
from ._callback import Callback


class TimeMonitor(Callback):
    """
    Monitor the time in train or eval process.

    Prints ``Train epoch time: X ms, per step time: Y ms`` at the end of every epoch.

    Args:
        data_size (int, optional): The number of steps between prints. If the program gets `batch_num` during
            training, `data_size` will be set to `batch_num`, otherwise `data_size` will be used. Default: ``None`` .
        data_time (bool, optional): Whether to show the average time of fetching data in Host (non-sink mode).
            Default: ``False`` .

    Raises:
        ValueError: If `data_size` is not positive int.
        TypeError: If `data_time` is not bool.

    Examples:
        >>> from sporax.train import TimeMonitor
        >>> time_monitor = TimeMonitor()
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    def __init__(self, data_size=None, data_time=False):
        super().__init__()
        self.data_size = data_size
        self.epoch_time = time.time()
        self.data_time = data_time
        self.data_time_sum = 0.0
        self.data_time_start = 0.0
        check_bool(data_time, "data_time")

    @staticmethod
    def _sink(run_context):
        return bool(run_context.original_args().get("dataset_sink_mode", False))

    def on_train_step_begin(self, run_context):
        """Record the time spent fetching data before the step."""
        if self.data_time and not self._sink(run_context):
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context):
        """Record the time at the end of the step."""
        if self.data_time and not self._sink(run_context):
            self.data_time_start = time.time()

    def epoch_begin(self, run_context):
        """Record time at the beginning of epoch."""
        self.epoch_time = time.time()
        if self.data_time and not self._sink(run_context):
            self.data_time_sum = 0.0
            self.data_time_start = time.time()

    def epoch_end(self, run_context):
        """Print process cost time at the end of epoch."""
        epoch_ms = (time.time() - self.epoch_time) * 1000
        step_size = self.data_size
        cb_params = run_context.original_args()
        mode = cb_params.get("mode", "")
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            step_size = batch_num
        check_positive_int(step_size)
        step_ms = epoch_ms / step_size
        train_log = f"{mode.title()} epoch time: {epoch_ms:5.3f} ms, per step time: {step_ms:5.3f} ms"
        if self.data_time and not self._sink(run_context):
            train_log += f" (data time: {self.data_time_sum * 1000 / step_size:5.3f} ms)"
        print(train_log, flush=True)
