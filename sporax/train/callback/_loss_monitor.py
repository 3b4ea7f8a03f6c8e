"""LossMonitor callback."""

from __future__ import annotations

import numpy as np

from ..._checkparam import check_non_negative_int
from ._callback import Callback, _handle_loss


class LossMonitor(Callback):
    """
    Monitor the loss in train or monitor the loss and eval metrics in fit.
    If the loss is NAN or INF, it will terminate training.

    Prints ``epoch: E step: S, loss is L`` (``S`` is the step within the epoch; the mean when the network
    output is a vector, the first output when it is a tuple).

    Note:
        If per_print_times is 0, do not print loss.

    Args:
        per_print_times (int, optional): How many steps to print once loss. During sink mode, it will print loss
            in the nearest step. Default: ``1`` .

    Raises:
        ValueError: If per_print_times is not an integer or less than zero.

    Examples:
        >>> from sporax.train import LossMonitor
        >>> loss_monitor = LossMonitor()
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    def __init__(self, per_print_times=1):
        super().__init__()
        check_non_negative_int(per_print_times)
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def step_end(self, run_context):
        """
        Print training loss at the end of step.

        Args:
            run_context (RunContext): Include some information of the model.
        """
        cb_params = run_context.original_args()
        cur_epoch_num = cb_params.get("cur_epoch_num", 1)
        loss = _handle_loss(cb_params.net_outputs)
        cur_step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        if isinstance(loss, float) and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError(
                f"In epoch: {cur_epoch_num} step: {cur_step_in_epoch}, loss is NAN or INF, training process cannot "
                "continue, terminating training."
            )
        # A resumed run may go back to an earlier step.
        if self._per_print_times != 0 and cb_params.cur_step_num <= self._last_print_time:
            back = max(self._per_print_times, cb_params.batch_num if cb_params.get("dataset_sink_mode") else 1)
            while cb_params.cur_step_num <= self._last_print_time:
                self._last_print_time -= back
        if self._per_print_times != 0 and (cb_params.cur_step_num - self._last_print_time) >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {cur_epoch_num} step: {cur_step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        """
        When LossMonitor is used in `Model.fit`, print eval metrics at the end of an epoch that evaluated.

        Args:
            run_context (RunContext): Include some information of the model.
        """
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print(f"Eval result: epoch {int(cb_params.cur_epoch_num)}, metrics: {_metrics_text(metrics)}", flush=True)


def _metrics_text(metrics):
    """The metrics as MindSpore prints them: NumPy scalars as NumPy 1.x shows them (``0.825``, not
    ``np.float64(0.825)``)."""
    if not isinstance(metrics, dict):
        return str(metrics)
    items = (f"{k!r}: {str(v) if isinstance(v, np.generic) else repr(v)}" for k, v in metrics.items())
    return "{" + ", ".join(items) + "}"
