"""Shared helpers for the monitor-driven callbacks (EarlyStopping, ReduceLROnPlateau)."""

from __future__ import annotations

import logging

import numpy as np

from ._callback import _handle_loss

_log = logging.getLogger("sporax")

_smaller_better_metrics = [
    "hausdorff_distance",
    "mae",
    "mse",
    "loss",
    "perplexity",
    "mean_surface_distance",
    "root_mean_square_distance",
    "eval_loss",
]


class _MonitorRule:
    """What "better" means for the monitored value (MindSpore's rule, shared by EarlyStopping and
    ReduceLROnPlateau): lower for ``mode="min"`` and for loss-like names under ``"auto"``, higher otherwise,
    by more than ``min_delta``."""

    monitor: str
    mode: str
    min_delta: float

    def _init_monitor(self) -> None:
        if self.mode not in ["auto", "min", "max"]:
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {self.mode}.")
        if self._smaller_is_better():
            self.is_improvement = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.is_improvement = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf

    def _smaller_is_better(self) -> bool:
        return self.mode == "min" or (self.mode == "auto" and self.monitor in _smaller_better_metrics)


def _rank_size():
    """The number of ranks the monitored value is averaged over (1 in stand-alone mode)."""
    from sporax.communication import get_group_size
    from sporax.context import ParallelMode, get_auto_parallel_context

    if get_auto_parallel_context("parallel_mode") == ParallelMode.STAND_ALONE:
        return 1
    return get_group_size()


def _mean_over_ranks(value, cls_name):
    """The monitored value averaged over all ranks (MindSpore all-reduces it in parallel modes)."""
    if value is None:
        return None
    size = _rank_size()
    if size == 1:
        return value
    from sporax.common.tensor import Tensor
    from sporax.ops.operations.comm_ops import all_reduce

    return all_reduce(Tensor(np.asarray(value, np.float32))).asnumpy() / size


def _get_monitor_value(monitor, cb_params, what, cls_name):
    """The monitored value: the train loss for ``"loss"``, else an entry of ``eval_results``."""
    monitor_candidates = {}
    if monitor == "loss":
        loss = cb_params.get("net_outputs")
        monitor_value = _handle_loss(loss)
        if isinstance(monitor_value, (tuple, list)):
            monitor_value = None
        elif monitor_value is not None and not isinstance(monitor_value, (float, int, np.ndarray, np.generic)):
            monitor_value = float(np.mean(monitor_value.asnumpy()))
        if isinstance(monitor_value, float) and (np.isnan(monitor_value) or np.isinf(monitor_value)):
            _log.warning("Invalid %s.", monitor)
    else:
        monitor_candidates = cb_params.get("eval_results", {}) or {}
        monitor_value = monitor_candidates.get(monitor)
    if monitor_value is None:
        support_keys = set(["loss"] + list(monitor_candidates.keys()))
        _log.warning(
            "%s is conditioned on %s, which is not available. Available choices are: %s",
            what,
            monitor,
            support_keys,
        )
        return None
    if isinstance(monitor_value, np.ndarray) and monitor_value.shape != ():
        raise ValueError(f"{cls_name} only supports scalar monitor now.")
    return np.array(monitor_value)
