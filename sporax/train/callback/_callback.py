"""Callback base class, RunContext and the callback manager (MindSpore's ``train/callback/_callback.py``)."""

from __future__ import annotations

import logging
from contextlib import ExitStack
from typing import Any

import numpy as np

from sporax.common.tensor import Tensor

_log = logging.getLogger("sporax")


class Callback:
    """
    Abstract base class used to build a Callback class. Callbacks are context managers
    which will be entered and exited when passing into the Model.

    Each method corresponds to a stage in training or eval and receives a `run_context`
    (:class:`RunContext`) holding the model's context information. The ``on_train_*`` and
    ``on_eval_*`` methods call the legacy ``begin``/``epoch_begin``/``step_begin``/
    ``step_end``/``epoch_end``/``end`` methods by default.

    Examples:
        >>> from sporax.train import Callback
        >>> class PrintInfo(Callback):
        ...     def step_end(self, run_context):
        ...         cb_params = run_context.original_args()
        ...         print("step_num: ", cb_params.cur_step_num)
    """

    # Whether this class is one of sporax's own callbacks (set on the class itself, not inherited: a
    # user's subclass is a custom callback). Model checks custom callbacks' legacy hooks, and its
    # fit runs only custom callbacks and TimeMonitor during evaluation.
    _builtin_callback = True

    def __enter__(self):
        """Return the enter target."""
        return self

    def __exit__(self, *err):
        """Release resources here if have any."""

    def begin(self, run_context):
        """Called once before the network executes (alias of `on_train_begin` and `on_eval_begin`)."""

    def epoch_begin(self, run_context):
        """Called before each epoch beginning (alias of `on_train_epoch_begin` and `on_eval_epoch_begin`)."""

    def epoch_end(self, run_context):
        """Called after each epoch finished (alias of `on_train_epoch_end` and `on_eval_epoch_end`)."""

    def step_begin(self, run_context):
        """Called before each step beginning (alias of `on_train_step_begin` and `on_eval_step_begin`)."""

    def step_end(self, run_context):
        """Called after each step finished (alias of `on_train_step_end` and `on_eval_step_end`)."""

    def end(self, run_context):
        """Called once after the network executes (alias of `on_train_end` and `on_eval_end`)."""

    def on_train_begin(self, run_context):
        """Called once before the network training."""
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        """Called before each training epoch begin."""
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        """Called after each training epoch end."""
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        """Called before each training step begin."""
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        """Called after each training step end."""
        self.step_end(run_context)

    def on_train_end(self, run_context):
        """Called after training end."""
        self.end(run_context)

    def on_eval_begin(self, run_context):
        """Called before eval begin."""
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        """Called before eval epoch begin."""
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        """Called after eval epoch end."""
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        """Called before each eval step begin."""
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        """Called after each eval step end."""
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        """Called after eval end."""
        self.end(run_context)


_HOOKS = (
    "begin",
    "epoch_begin",
    "epoch_end",
    "step_begin",
    "step_end",
    "end",
    "on_train_begin",
    "on_train_epoch_begin",
    "on_train_epoch_end",
    "on_train_step_begin",
    "on_train_step_end",
    "on_train_end",
    "on_eval_begin",
    "on_eval_epoch_begin",
    "on_eval_epoch_end",
    "on_eval_step_begin",
    "on_eval_step_end",
    "on_eval_end",
)


class _CallbackManager(Callback):
    """
    Sequential execution of callback functions.

    Args:
        callbacks (Optional[list[Callback], Callback]): None, callback, or callbacks list.
    """

    def __init__(self, callbacks):
        self._callbacks, self._stack = [], None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, list):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError(
                        "When the 'callbacks' is a list, the elements in 'callbacks' must be Callback functions."
                    )
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError("The 'callbacks' is not a Callback or a list of Callback.")

    @property
    def callbacks(self):
        """The managed callbacks, in call order."""
        return list(self._callbacks)

    def __enter__(self):
        if self._stack is None:
            callbacks, self._stack = [], ExitStack().__enter__()
            for callback in self._callbacks:
                target = self._stack.enter_context(callback)
                if not isinstance(target, Callback):
                    _log.warning("Please return 'self' or a Callback as the enter target.")
                    callbacks.append(callback)
                else:
                    callbacks.append(target)
            self._callbacks = callbacks
        return self

    def __exit__(self, *err):
        stack, self._stack = self._stack, None
        if stack is None:
            return None
        return stack.__exit__(*err)


def _make_dispatch(name):
    def dispatch(self, run_context):
        for cb in self._callbacks:
            getattr(cb, name)(run_context)

    dispatch.__name__ = name
    dispatch.__qualname__ = f"_CallbackManager.{name}"
    dispatch.__doc__ = f"Call `{name}` of every callback, in order."
    return dispatch


for _name in _HOOKS:
    setattr(_CallbackManager, _name, _make_dispatch(_name))
del _name

CallbackManager = _CallbackManager


class _MissingParam(KeyError, AttributeError):
    """A cb_params field that is not set: a KeyError (as MindSpore raises) and an AttributeError (so that
    ``hasattr``/``getattr(..., default)`` work)."""


class _InternalCallbackParam(dict):
    """Internal callback object's parameters (a dict with attribute access)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise _MissingParam(key) from None

    def __setattr__(self, key, value):
        self[key] = value

    def __delattr__(self, key):
        try:
            del self[key]
        except KeyError:
            raise _MissingParam(key) from None


InternalCallbackParam = _InternalCallbackParam


class RunContext:
    """
    Hold and manage information about the model.

    `RunContext` collects context information about the model during training or eval and
    passes it into Callback objects. Callbacks read it with `original_args()` (cb_params:
    cur_epoch_num, cur_step_num, batch_num, epoch_num, net_outputs, train_network, optimizer,
    loss_fn, train_dataset, mode, dataset_sink_mode, ...) and can stop training with
    `request_stop()`.

    Args:
        original_args (dict): Holding the related information of model.

    Examples:
        >>> from sporax.train import RunContext
        >>> run_context = RunContext({"cur_epoch_num": 4, "cur_step_num": 2})
        >>> run_context.get_stop_requested()
        False
    """

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(
                f"The argument 'original_args' of RunContext should be dict type, but got {type(original_args)}."
            )
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        """
        Get the _original_args object.

        Returns:
           Dict, an object that holds the original arguments of model.
        """
        return self._original_args

    def request_stop(self):
        """Set stop requirement during training or eval; model.train() checks it after each step."""
        self._stop_requested = True

    def get_stop_requested(self):
        """
        Return whether a stop is requested or not.

        Returns:
            bool. If True, model.train() stops iterations.
        """
        return self._stop_requested


def _handle_loss(loss):
    """The loss value a callback reports: the first output of a tuple, the mean of a Tensor."""
    if isinstance(loss, (tuple, list)) and loss and isinstance(loss[0], Tensor):
        loss = loss[0]
    if isinstance(loss, Tensor):
        loss = float(np.mean(loss.asnumpy()))
    return loss


def is_builtin_callback(cb: Any) -> bool:
    """Whether ``cb`` is an instance of one of sporax's own callback classes (not of a user's subclass)."""
    return bool(vars(type(cb)).get("_builtin_callback", False))
