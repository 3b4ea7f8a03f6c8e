"""ReduceLROnPlateau callback."""

from __future__ import annotations

import numpy as np

from sporax.common.parameter import Parameter
from sporax.common.tensor import Tensor

from ..._checkparam import INC_NEITHER, check_bool, check_float_range, check_non_negative_int, check_value_type
from ._callback import Callback
from ._reduce import _get_monitor_value, _mean_over_ranks, _MonitorRule


class ReduceLROnPlateau(_MonitorRule, Callback):
    """
    Reduce learning rate when the monitor has stopped improving.

    Note:
        Learning rate grouping is not supported now.

    Args:
        monitor (str, optional): Quantity to be monitored: ``"loss"``, or in `Model.fit` with evaluation
            ``"eval_loss"`` or a metric name. Default: ``'eval_loss'``.
        factor (float, optional): Factor by which the learning rate will be reduced: `new_lr = lr * factor`.
            Default: ``0.1`` .
        patience (int, optional): Number of epochs with no improvement after which the learning rate is
            reduced. Default: ``10`` .
        verbose (bool, optional): If True, print related information. Default: ``False`` .
        mode (str, optional): One of ``{'auto', 'min', 'max'}``. Default: ``'auto'`` .
        min_delta (float, optional): Threshold for measuring the new optimum. Default: ``1e-4`` .
        cooldown (int, optional): Number of epochs to wait before resuming normal operation after the learning
            rate has been reduced. Default: ``0`` .
        min_lr (float, optional): Lower bound on the learning rate. Default: ``0`` .

    Raises:
        ValueError: `mode` not in ``'auto'``, ``'min'`` or ``'max'``.
        ValueError: The monitor value is not a scalar.
        ValueError: The learning rate is not a Parameter.

    Examples:
        >>> from sporax.train import ReduceLROnPlateau
        >>> cb = ReduceLROnPlateau(monitor="eval_loss", patience=3)
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    def __init__(
        self,
        monitor="eval_loss",
        factor=0.1,
        patience=10,
        verbose=False,
        mode="auto",
        min_delta=1e-4,
        cooldown=0,
        min_lr=0,
    ):
        super().__init__()
        self.monitor = check_value_type("monitor", monitor, str)
        self.factor = check_float_range(factor, 0.0, 1.0, INC_NEITHER)
        self.patience = check_non_negative_int(patience)
        self.verbose = check_bool(verbose)
        self.mode = check_value_type("mode", mode, str)
        min_delta = check_value_type("min_delta", min_delta, [float, int])
        self.min_delta = abs(min_delta)
        self.cooldown = check_non_negative_int(cooldown)
        self.min_lr = check_value_type("min_lr", min_lr, [float, int])
        self.cooldown_counter = 0
        self.wait = 0
        self._init_monitor()

    def on_train_begin(self, run_context):
        """Initialize variables at the beginning of training."""
        self.cooldown_counter = 0
        self.wait = 0
        self.best = np.inf if self._smaller_is_better() else -np.inf

    def on_train_epoch_end(self, run_context):
        """Reduce the learning rate when no improvement was seen for `patience` epochs."""
        cb_params = run_context.original_args()
        cur_lr = cb_params.optimizer.learning_rate
        if not isinstance(cur_lr, Parameter):
            raise ValueError("ReduceLROnPlateau does not support dynamic learning rate and group learning rate now.")
        value = _get_monitor_value(self.monitor, cb_params, "Learning rate reduction", "ReduceLROnPlateau")
        current = _mean_over_ranks(value, "ReduceLROnPlateau")
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                lr = cur_lr.asnumpy()
                if lr > self.min_lr:
                    # as MindSpore: the product in the parameter's dtype, bounded below by min_lr
                    scaled = (lr * np.asarray(self.factor, lr.dtype)).astype(lr.dtype)
                    if self.min_lr > scaled:
                        new_lr, text = np.asarray(self.min_lr, lr.dtype), str(self.min_lr)
                    else:
                        new_lr, text = scaled, str(Tensor(scaled))
                    cur_lr.set_data(Tensor(new_lr))
                    if self.verbose:
                        print(
                            f"Epoch {int(cb_params.cur_epoch_num):05d}: ReduceLROnPlateau reducing learning rate to {text}."
                        )
                self.cooldown_counter = self.cooldown
                self.wait = 0
