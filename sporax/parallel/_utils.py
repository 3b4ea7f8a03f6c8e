"""MindSpore's private parallel helpers that user code (and the seeds) import."""

from __future__ import annotations

from ..communication import get_group_size, get_rank
from ..context import ParallelMode, get_auto_parallel_context

__all__ = [
    "_get_device_num",
    "_get_gradients_mean",
    "_get_mirror_mean",
    "_get_parallel_mode",
    "_get_global_rank",
    "_is_in_auto_parallel_mode",
]


def _get_device_num() -> int:
    n = get_auto_parallel_context("device_num")
    return n if n and n > 1 else get_group_size()


def _get_gradients_mean() -> bool:
    return bool(get_auto_parallel_context("gradients_mean"))


def _get_mirror_mean() -> bool:
    """MindSpore 1.0's name of :func:`_get_gradients_mean` (removed since); warns once."""
    from .._deprecated import warn_removed

    warn_removed("mindspore.parallel._utils._get_mirror_mean", "mindspore.parallel._utils._get_gradients_mean")
    return _get_gradients_mean()


def _get_parallel_mode() -> ParallelMode:
    return get_auto_parallel_context("parallel_mode")


def _get_global_rank() -> int:
    return get_rank()


def _is_in_auto_parallel_mode() -> bool:
    return _get_parallel_mode() in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL)
