"""LearningRateScheduler callback."""

from __future__ import annotations

import logging
import math

import numpy as np

from ._callback import Callback

_log = logging.getLogger("sporax")


class LearningRateScheduler(Callback):
    """
    Change the learning_rate during training.

    Args:
        learning_rate_function (Function): ``learning_rate_function(lr, cur_step_num)`` returns the new learning
            rate; it is called at the end of every step.

    Examples:
        >>> from sporax.train import LearningRateScheduler
        >>> def learning_rate_function(lr, cur_step_num):
        ...     if cur_step_num % 1000 == 0:
        ...         lr = lr * 0.1
        ...     return lr
        >>> lr_cb = LearningRateScheduler(learning_rate_function)
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    def __init__(self, learning_rate_function):
        super().__init__()
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context):
        """
        Change the learning_rate at the end of step.

        Args:
            run_context (RunContext): Include some information of the model.
        """
        cb_params = run_context.original_args()
        param = cb_params.optimizer.learning_rate
        arr_lr = param.asnumpy()
        lr = float(np.array2string(arr_lr))
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            param.set_data(np.asarray(new_lr, np.float32).reshape(arr_lr.shape))
            _log.info("At step %s, learning_rate change to %s", cb_params.cur_step_num, new_lr)
