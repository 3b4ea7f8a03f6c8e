"""LambdaCallback."""

from __future__ import annotations

from ._callback import Callback


def _noop(run_context):
    return None


class LambdaCallback(Callback):
    """
    Callback for creating simple, custom callbacks from functions that take one argument, `run_context`.

    Args:
        on_train_epoch_begin (Function, optional): called at each train epoch begin. Default: ``None`` .
        on_train_epoch_end (Function, optional): called at each train epoch end. Default: ``None`` .
        on_train_step_begin (Function, optional): called at each train step begin. Default: ``None`` .
        on_train_step_end (Function, optional): called at each train step end. Default: ``None`` .
        on_train_begin (Function, optional): called at the beginning of model train. Default: ``None`` .
        on_train_end (Function, optional): called at the end of model train. Default: ``None`` .
        on_eval_epoch_begin (Function, optional): called at each eval epoch begin. Default: ``None`` .
        on_eval_epoch_end (Function, optional): called at each eval epoch end. Default: ``None`` .
        on_eval_step_begin (Function, optional): called at each eval step begin. Default: ``None`` .
        on_eval_step_end (Function, optional): called at each eval step end. Default: ``None`` .
        on_eval_begin (Function, optional): called at the beginning of model eval. Default: ``None`` .
        on_eval_end (Function, optional): called at the end of model eval. Default: ``None`` .

    Examples:
        >>> from sporax.train import LambdaCallback
        >>> lambda_callback = LambdaCallback(
        ...     on_train_epoch_end=lambda run_context: print("loss:", run_context.original_args().net_outputs))
    """

    _builtin_callback = True  # sporax's own (see Callback._builtin_callback)

    def __init__(
        self,
        on_train_epoch_begin=None,
        on_train_epoch_end=None,
        on_train_step_begin=None,
        on_train_step_end=None,
        on_train_begin=None,
        on_train_end=None,
        on_eval_epoch_begin=None,
        on_eval_epoch_end=None,
        on_eval_step_begin=None,
        on_eval_step_end=None,
        on_eval_begin=None,
        on_eval_end=None,
    ):
        super().__init__()
        self.on_train_epoch_begin = on_train_epoch_begin or _noop
        self.on_train_epoch_end = on_train_epoch_end or _noop
        self.on_train_step_begin = on_train_step_begin or _noop
        self.on_train_step_end = on_train_step_end or _noop
        self.on_train_begin = on_train_begin or _noop
        self.on_train_end = on_train_end or _noop
        self.on_eval_epoch_begin = on_eval_epoch_begin or _noop
        self.on_eval_epoch_end = on_eval_epoch_end or _noop
        self.on_eval_step_begin = on_eval_step_begin or _noop
        self.on_eval_step_end = on_eval_step_end or _noop
        self.on_eval_begin = on_eval_begin or _noop
        self.on_eval_end = on_eval_end or _noop
