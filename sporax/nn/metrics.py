"""Metrics from sporax.train.metrics under MindSpore's 1.x path ``mindspore.nn.metrics`` (the same objects)."""

from sporax.train import metrics as _metrics
from sporax.train.metrics import *  # noqa: F403
from sporax.train.metrics import get_metric_fn, get_metrics, names, rearrange_inputs  # noqa: F401

__all__ = [*_metrics.__all__]
__all__ += [n for n in ("get_metric_fn", "get_metrics", "names", "rearrange_inputs") if n not in __all__]
