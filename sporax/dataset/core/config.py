"""Global settings of the dataset pipeline (``mindspore.dataset.config``).

The seed set here makes shuffles, random samplers and random transforms reproducible, whatever the number
of parallel workers. Without :func:`set_seed`, every iterator draws a fresh seed.
"""

from __future__ import annotations

import os
import random
import threading

import numpy as np

from ..._checkparam import check_config_int, check_pipeline_flag
from ...common.seed import on_set_seed

__all__ = [
    "set_seed",
    "get_seed",
    "set_num_parallel_workers",
    "get_num_parallel_workers",
    "set_prefetch_size",
    "get_prefetch_size",
    "set_monitor_sampling_interval",
    "get_monitor_sampling_interval",
    "set_callback_timeout",
    "get_callback_timeout",
    "set_enable_shared_mem",
    "get_enable_shared_mem",
    "set_multiprocessing_timeout_interval",
    "get_multiprocessing_timeout_interval",
    "set_auto_offload",
    "get_auto_offload",
    "set_enable_autotune",
    "get_enable_autotune",
    "set_debug_mode",
    "get_debug_mode",
    "set_numa_enable",
    "get_numa_enable",
    "set_enable_watchdog",
    "get_enable_watchdog",
    "set_fast_recovery",
    "get_fast_recovery",
    "set_auto_num_workers",
    "get_auto_num_workers",
    "set_autotune_interval",
    "get_autotune_interval",
    "set_sending_batches",
    "load",
]

_DEFAULT_SEED = 5489
_lock = threading.Lock()
_INT32_MAX = 2**31 - 1

_state: dict = {
    "seed": None,
    "num_parallel_workers": min(8, os.cpu_count() or 1),
    "prefetch_size": 16,
    "monitor_sampling_interval": 1000,
    "callback_timeout": 60,
    "enable_shared_mem": True,
    "multiprocessing_timeout_interval": 300,
    "auto_offload": False,
    "enable_autotune": False,
    "debug_mode": False,
    # settings of MindSpore's C++ runtime, kept for its API (sporax's pipeline has no NUMA binding, watchdog,
    # worker-count tuning nor device sink limit to apply them to)
    "numa_enable": False,
    "enable_watchdog": True,
    "fast_recovery": True,
    "auto_num_workers": False,
    "autotune_interval": 0,
    "sending_batches": 0,
}
_UINT32_MAX = 2**32 - 1


def set_seed(seed: int) -> None:
    """Set the seed of the dataset pipeline (shuffles, random samplers, random transforms).

    Also seeds Python's ``random`` and NumPy's global generator, as MindSpore does.

    Args:
        seed (int): the seed, in [0, 2**32 - 1].
    """
    seed = check_config_int(
        seed, "seed", 0, _UINT32_MAX, "seed given is not within the required range [0, UINT32_MAX(4294967295)]."
    )
    with _lock:
        _state["seed"] = seed
    random.seed(seed)
    np.random.seed(seed)
    from ..engine import _random

    _random.reseed_global(seed)


def _follow_global_seed() -> None:
    """``mindspore.set_seed`` seeds the pipeline too: from now on, and with the seed it set before this
    module was imported."""
    seed = on_set_seed(set_seed)
    if seed is not None:
        with _lock:
            _state["seed"] = seed
        from ..engine import _random

        _random.reseed_global(seed)


def get_seed() -> int:
    """The seed set by :func:`set_seed`; 5489 (MindSpore's default) when none was set."""
    s = _state["seed"]
    return _DEFAULT_SEED if s is None else s


def _seed_or_none() -> int | None:
    return _state["seed"]


def set_num_parallel_workers(num: int) -> None:
    """Set the default number of parallel workers of every operation.

    Args:
        num (int): number of workers, at least 1.
    """
    _state["num_parallel_workers"] = check_config_int(
        num,
        "num",
        1,
        _INT32_MAX,
        "Number of parallel workers given is not within the required range (0, INT32_MAX(2147483647)].",
    )


def get_num_parallel_workers() -> int:
    """The default number of parallel workers."""
    return _state["num_parallel_workers"]


def set_prefetch_size(size: int) -> None:
    """Set the number of rows (batches, after ``batch``) each stage keeps ready ahead of its consumer.

    Args:
        size (int): queue capacity, at least 1.
    """
    _state["prefetch_size"] = check_config_int(
        size, "size", 1, _INT32_MAX, "size is not within the required range (0, INT32_MAX(2147483647)]."
    )


def get_prefetch_size() -> int:
    """The prefetch queue size."""
    return _state["prefetch_size"]


def _simple(name: str, check):
    def setter(value) -> None:
        _state[name] = check(value)

    def getter():
        return _state[name]

    setter.__doc__ = f"Set ``{name}``."
    getter.__doc__ = f"Get ``{name}``."
    return setter, getter


set_monitor_sampling_interval, get_monitor_sampling_interval = _simple(
    "monitor_sampling_interval",
    lambda v: check_config_int(
        v, "interval", 1, _INT32_MAX, "Interval given is not within the required range (0, INT32_MAX(2147483647)]."
    ),
)
set_callback_timeout, get_callback_timeout = _simple(
    "callback_timeout",
    lambda v: check_config_int(v, "timeout", 1, _INT32_MAX, "Timeout given is not within the required range."),
)
set_enable_shared_mem, get_enable_shared_mem = _simple(
    "enable_shared_mem", lambda v: check_pipeline_flag(v, "enable must be of type bool.")
)
set_multiprocessing_timeout_interval, get_multiprocessing_timeout_interval = _simple(
    "multiprocessing_timeout_interval",
    lambda v: check_config_int(
        v, "interval", 1, _INT32_MAX, "Interval given is not within the required range (0, INT32_MAX(2147483647))."
    ),
)
set_auto_offload, get_auto_offload = _simple(
    "auto_offload", lambda v: check_pipeline_flag(v, "offload must be a bool dtype")
)
set_enable_autotune, get_enable_autotune = _simple(
    "enable_autotune", lambda v: check_pipeline_flag(v, "enable must be of type bool.")
)
set_debug_mode, get_debug_mode = _simple(
    "debug_mode", lambda v: check_pipeline_flag(v, "debug_mode_flag isn't of type boolean.")
)

set_numa_enable, get_numa_enable = _simple(
    "numa_enable", lambda v: check_pipeline_flag(v, "numa_enable must be a boolean dtype.")
)
set_enable_watchdog, get_enable_watchdog = _simple(
    "enable_watchdog", lambda v: check_pipeline_flag(v, "enable must be a boolean dtype.")
)
set_fast_recovery, get_fast_recovery = _simple(
    "fast_recovery", lambda v: check_pipeline_flag(v, "fast_recovery must be a boolean dtype.")
)
set_auto_num_workers, get_auto_num_workers = _simple(
    "auto_num_workers", lambda v: check_pipeline_flag(v, "enable must be of type bool.")
)
set_autotune_interval, get_autotune_interval = _simple(
    "autotune_interval",
    lambda v: check_config_int(
        v, "interval", 0, _INT32_MAX, "Interval given is not within the required range [0, INT32_MAX(2147483647)]."
    ),
)
set_sending_batches, _get_sending_batches = _simple(
    "sending_batches",
    lambda v: check_config_int(v, "batch_num", -(2**63), 2**63 - 1, "", "batch_num must be an int dtype."),
)


def load(file) -> None:
    """Load settings from a JSON file (keys as in MindSpore's config file: ``seed``, ``numParallelWorkers``,
    ``opPrefetchSize``...)."""
    import json

    with open(file, encoding="utf-8") as f:
        cfg = json.load(f)
    if "seed" in cfg:
        set_seed(cfg["seed"])
    if "numParallelWorkers" in cfg:
        set_num_parallel_workers(cfg["numParallelWorkers"])
    if "opPrefetchSize" in cfg:
        set_prefetch_size(cfg["opPrefetchSize"])


_follow_global_seed()
