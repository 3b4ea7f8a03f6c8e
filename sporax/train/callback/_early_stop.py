"""EarlyStopping callback."""

from __future__ import annotations

import numpy as np

from sporax.common.parameter import Parameter
from sporax.common.tensor import Tensor

from ..._checkparam import check_bool, check_non_negative_int, check_value_type
from ..serialization import load_param_into_net
from ._callback import Callback
from ._reduce import _get_monitor_value, _mean_over_ranks, _MonitorRule


class EarlyStopping(_MonitorRule, Callback):
    """
    Stop training when a monitored metric has stopped improving.

    At the end of every epoch, the `monitor` value is compared with the best so far; a value better than the
    best by more than `min_delta` is an improvement. When the number of epochs without improvement reaches
    `patience`, `run_context.request_stop()` is called.

    Args:
        monitor (str, optional): Quantity to be monitored: ``"loss"`` (the train loss; the first output when
            the train network has several), or, in `Model.fit` with evaluation, ``"eval_loss"`` or the name of a
            metric passed to `Model`. Default: ``'eval_loss'`` .
        min_delta (float, optional): Threshold for measuring the new optimum. Default: ``0`` .
        patience (int, optional): Number of epochs with no improvement to wait; training stops when the wait
            counter is larger than or equal to `patience`. Default: ``0`` .
        verbose (bool, optional): If True, print related information. Default: ``False`` .
        mode (str, optional): One of ``{'auto', 'min', 'max'}``; ``'auto'`` infers the direction from the
            monitor's name. Default: ``'auto'`` .
        baseline (float, optional): Baseline value: the wait counter is reset only when the value also improves
            on the baseline. Default: ``None`` .
        restore_best_weights (bool, optional): Whether to restore the weights of the best epoch when stopping.
            Default: ``False`` .

    Raises:
        ValueError: `mode` not in 'auto', 'min' or 'max'.
        ValueError: The monitor value is not a scalar.

    Examples:
        >>> from sporax.train import EarlyStopping
        >>> cb = EarlyStopping(monitor="eval_loss", patience=3)
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    def __init__(
        self,
        monitor="eval_loss",
        min_delta=0,
        patience=0,
        verbose=False,
        mode="auto",
        baseline=None,
        restore_best_weights=False,
    ):
        super().__init__()
        self.monitor = check_value_type("monitor", monitor, str)
        min_delta = check_value_type("min_delta", min_delta, [float, int])
        self.min_delta = abs(min_delta)
        self.patience = check_non_negative_int(patience)
        self.verbose = check_bool(verbose)
        self.mode = check_value_type("mode", mode, str)
        self.baseline = check_value_type("baseline", baseline, [float, int]) if baseline is not None else None
        self.restore_best_weights = check_bool(restore_best_weights)
        self.wait = 0
        self.stopped_epoch = 0
        self.best_weights_param_dict = None
        self._init_monitor()

    def on_train_begin(self, run_context):
        """Initialize variables at the beginning of training."""
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self._smaller_is_better() else -np.inf
        self.best_weights_param_dict = None

    @staticmethod
    def _snapshot(net):
        return {p.name: Parameter(Tensor(p.asnumpy()), name=p.name) for p in net.get_parameters()}

    def on_train_epoch_end(self, run_context):
        """Stop training when no improvement was seen for `patience` epochs."""
        cb_params = run_context.original_args()
        cur_epoch = cb_params.get("cur_epoch_num")
        value = _get_monitor_value(self.monitor, cb_params, "Early stopping", "EarlyStopping")
        current = _mean_over_ranks(value, "EarlyStopping")
        if current is None:
            return
        if self.restore_best_weights and self.best_weights_param_dict is None:
            self.best_weights_param_dict = self._snapshot(cb_params.train_network)
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights_param_dict = self._snapshot(cb_params.train_network)
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cur_epoch
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                load_param_into_net(cb_params.train_network, self.best_weights_param_dict)

    def on_train_end(self, run_context):
        """If verbose is True, print the stopped epoch."""
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {int(self.stopped_epoch):05d}: early stopping")
