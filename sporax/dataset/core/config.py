"""Global settings of the dataset pipeline (``mindspore.dataset.config``).

The seed set here makes shuffles, random samplers and random transforms reproducible, whatever the number
of parallel workers. Without :func:`set_seed`, every iterator draws a fresh seed.
"""

from __future__ import annotations

import logging
import os
import platform
import random
import threading
from enum import IntEnum

import numpy as np

from ..._checkparam import (
    check_autotune_path,
    check_config_choice,
    check_config_int,
    check_debug_hooks,
    check_pipeline_flag,
    check_pipeline_type,
    pipeline_error,
)
from ...common.seed import on_set_seed
from ..debug import DebugHook, PrintMetaDataHook

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
    "set_dynamic_shape",
    "get_dynamic_shape",
    "ErrorSamplesMode",
    "set_error_samples_mode",
    "get_error_samples_mode",
    "set_iterator_mode",
    "get_iterator_mode",
    "set_multiprocessing_start_method",
    "get_multiprocessing_start_method",
    "set_video_backend",
    "get_video_backend",
    "DebugHook",
    "PrintMetaDataHook",
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
    "autotune_filepath_prefix": None,
    "dynamic_shape": False,
    "debug_hook_list": None,  # set below: a PrintMetaDataHook
    "error_samples_mode": None,  # set below: ErrorSamplesMode.RETURN
    "iterator_mode": {"do_copy": False, "parallel_convert": False},
    "multiprocessing_start_method": "fork",
    "video_backend": "CPU",
}
_UINT32_MAX = 2**32 - 1
_log = logging.getLogger("sporax")


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
    """The seed set, else ``None`` (each iterator draws one); 1 in debug mode, as MindSpore's debug mode sets."""
    s = _state["seed"]
    if s is None and _state["debug_mode"]:
        return 1
    return s


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


def _flag(name: str, value, message: str) -> None:
    _state[name] = check_pipeline_flag(value, message)


def set_monitor_sampling_interval(interval) -> None:
    """Set the sampling interval of the performance monitor, in milliseconds (kept for MindSpore's API)."""
    _state["monitor_sampling_interval"] = check_config_int(
        interval,
        "interval",
        1,
        _INT32_MAX,
        "Interval given is not within the required range (0, INT32_MAX(2147483647)].",
    )


def get_monitor_sampling_interval() -> int:
    """The performance monitor's sampling interval in milliseconds (default 1000)."""
    return _state["monitor_sampling_interval"]


def set_callback_timeout(timeout) -> None:
    """Set how long, in seconds, a ``WaitedDSCallback`` waits for its step to end."""
    _state["callback_timeout"] = check_config_int(
        timeout, "timeout", 1, _INT32_MAX, "Timeout given is not within the required range."
    )


def get_callback_timeout() -> int:
    """The ``WaitedDSCallback`` wait in seconds (default 60)."""
    return _state["callback_timeout"]


def set_enable_shared_mem(enable) -> None:
    """Set whether worker processes (``python_multiprocessing=True``) hand their arrays back through shared
    memory (``True``, the default) rather than through a pipe, pickled.

    Args:
        enable (bool): use shared memory.
    """
    _log.warning("'set_enable_shared_mem' is deprecated from version 2.8.0 and will be removed in a future version.")
    enable = check_pipeline_flag(enable, "enable must be of type bool.")
    if enable:
        if _no_shm_platform():
            _log.warning("For Windows and MacOS we forbid shared mem function temporarily.")
            return
        _log.warning(
            "The shared memory is on, multiprocessing performance will be improved. "
            "Note: the required shared memory can't exceeds 80% of the available shared memory."
        )
    _state["enable_shared_mem"] = enable


def get_enable_shared_mem() -> bool:
    """Whether worker processes hand arrays back through shared memory."""
    _log.warning("'get_enable_shared_mem' is deprecated from version 2.8.0 and will be removed in a future version.")
    return _shared_mem()


def _shared_mem() -> bool:
    """:func:`get_enable_shared_mem` without its deprecation warning (for the pipeline's own use)."""
    return _state["enable_shared_mem"] and not _no_shm_platform()


def _no_shm_platform() -> bool:
    """Windows and macOS: MindSpore turns shared memory off there."""
    return platform.system().lower() in {"windows", "darwin"}


def set_multiprocessing_timeout_interval(interval) -> None:
    """Set the interval, in seconds, after which a wait for a worker process logs a warning."""
    _state["multiprocessing_timeout_interval"] = check_config_int(
        interval,
        "interval",
        1,
        _INT32_MAX,
        "Interval given is not within the required range (0, INT32_MAX(2147483647)).",
    )


def get_multiprocessing_timeout_interval() -> int:
    """The worker wait warning interval in seconds (default 300)."""
    return _state["multiprocessing_timeout_interval"]


def set_auto_offload(offload) -> None:
    """Set automatic offload of map operations to the device (kept for MindSpore's API; sporax runs maps on the
    host)."""
    _flag("auto_offload", offload, "offload must be a bool dtype")


def get_auto_offload() -> bool:
    """The automatic offload flag."""
    return _state["auto_offload"]


def set_enable_autotune(enable, filepath_prefix=None) -> None:
    """Set MindSpore's pipeline AutoTune (kept for its API: sporax's pipeline has no worker-count tuner).

    Args:
        enable (bool): enable AutoTune.
        filepath_prefix (str, optional): where the tuned configuration would be saved. Default: ``None``.
    """
    enable = check_pipeline_flag(enable, "enable must be of type bool.")
    _state["autotune_filepath_prefix"] = check_autotune_path(enable, filepath_prefix)
    _state["enable_autotune"] = enable


def get_enable_autotune() -> bool:
    """The AutoTune flag."""
    return _state["enable_autotune"]


def set_numa_enable(numa_enable) -> None:
    """Set NUMA binding of the pipeline's threads (kept for MindSpore's API)."""
    _flag("numa_enable", numa_enable, "numa_enable must be a boolean dtype.")


def get_numa_enable() -> bool:
    """The NUMA binding flag."""
    return _state["numa_enable"]


def set_enable_watchdog(enable) -> None:
    """Set MindSpore's watchdog thread (kept for its API)."""
    _flag("enable_watchdog", enable, "enable must be a boolean dtype.")


def get_enable_watchdog() -> bool:
    """The watchdog flag (default True)."""
    return _state["enable_watchdog"]


def set_fast_recovery(fast_recovery) -> None:
    """Set fast recovery on failover (kept for MindSpore's API)."""
    _flag("fast_recovery", fast_recovery, "fast_recovery must be a boolean dtype.")


def get_fast_recovery() -> bool:
    """The fast recovery flag (default True)."""
    return _state["fast_recovery"]


def set_auto_num_workers(enable) -> None:
    """Set automatic worker counts (kept for MindSpore's API)."""
    _flag("auto_num_workers", enable, "enable must be of type bool.")


def get_auto_num_workers() -> bool:
    """The automatic worker count flag."""
    return _state["auto_num_workers"]


def set_autotune_interval(interval) -> None:
    """Set the AutoTune interval in steps (kept for MindSpore's API)."""
    _state["autotune_interval"] = check_config_int(
        interval,
        "interval",
        0,
        _INT32_MAX,
        "Interval given is not within the required range [0, INT32_MAX(2147483647)].",
    )


def get_autotune_interval() -> int:
    """The AutoTune interval."""
    return _state["autotune_interval"]


def set_sending_batches(batch_num) -> None:
    """Set the number of batches a device sink sends (kept for MindSpore's API)."""
    _state["sending_batches"] = check_config_int(
        batch_num, "batch_num", -(2**63), 2**63 - 1, "", "batch_num must be an int dtype."
    )


def set_dynamic_shape(is_dynamic) -> None:
    """Say whether the dataset's rows change shape from one step to the next.

    MindSpore reads it where data sinking feeds a device queue (on Ascend, ``data_sink`` then takes each batch's
    shapes from the queue); on CPU it has no effect. sporax's sink (``Model.train`` with
    ``dataset_sink_mode=True``, ``DatasetHelper``, ``data_sink``) takes batches of any shape whatever the flag
    (a new batch shape starts a new compiled step), so here the flag is only kept and returned by
    :func:`get_dynamic_shape`.

    Args:
        is_dynamic (bool): rows of varying shape. Default: ``False``.
    """
    _flag("dynamic_shape", is_dynamic, "is_dynamic must be a boolean dtype.")


def get_dynamic_shape() -> bool:
    """The dynamic shape flag (default False)."""
    return _state["dynamic_shape"]


def set_debug_mode(debug_mode_flag: bool, debug_hook_list: list = None) -> None:  # type: ignore[assignment]  # MindSpore's signature
    """Run the pipeline in debug mode: each ``map`` runs in the calling thread, one row after the other, and calls
    the debug hooks on the row's columns before its first operation and after each operation.

    In debug mode, ``num_parallel_workers`` and ``python_multiprocessing`` of ``map``, ``batch`` and
    ``GeneratorDataset`` are ignored (the calling thread, with MindSpore's warning where multiprocessing was asked
    for) and so is the error samples mode (an error is raised); without :func:`set_seed`, the seed is 1.

    Args:
        debug_mode_flag (bool): debug mode on or off.
        debug_hook_list (list[DebugHook], optional): the hooks. Default: ``None``, a
            :class:`~sporax.dataset.debug.PrintMetaDataHook` (prints each column's dtype and shape).
    """
    flag = check_pipeline_flag(debug_mode_flag, "debug_mode_flag isn't of type boolean.")
    if debug_hook_list is None:
        debug_hook_list = [PrintMetaDataHook()]
    check_debug_hooks(debug_hook_list, DebugHook)
    if flag:
        _log.warning(
            "Dataset pipeline debug mode is enabled. Performance will be impacted because the pipeline"
            " will be running in a single thread."
        )
    if debug_hook_list:
        _state["debug_hook_list"] = debug_hook_list
    _state["debug_mode"] = flag


def get_debug_mode() -> bool:
    """Whether the pipeline runs in debug mode."""
    return _state["debug_mode"]


def _get_debug_hook_list() -> list:
    """The hooks the debug mode inserts into each ``map``."""
    return _state["debug_hook_list"]


class ErrorSamplesMode(IntEnum):
    """What a ``map`` does with a row one of its operations fails on.

    - ``RETURN``: the error is raised (the default).
    - ``REPLACE``: the row is replaced with a healthy row of the same map (one of the first it produced).
    - ``SKIP``: the row is dropped.
    """

    RETURN = 0
    REPLACE = 1
    SKIP = 2


def set_error_samples_mode(error_samples_mode) -> None:
    """Set what a ``map`` does with a row one of its operations fails on (a warning is logged for each such row
    in ``REPLACE`` and ``SKIP`` modes). Only ``map`` follows it; debug mode always raises.

    Args:
        error_samples_mode (ErrorSamplesMode): ``RETURN``, ``REPLACE`` or ``SKIP``.
    """
    _state["error_samples_mode"] = check_pipeline_type(error_samples_mode, ErrorSamplesMode, "error_samples_mode")


def get_error_samples_mode() -> ErrorSamplesMode:
    """The error samples mode (default ``ErrorSamplesMode.RETURN``)."""
    return _state["error_samples_mode"]


def set_iterator_mode(do_copy=False, parallel_convert=False) -> None:
    """Select how iterators hand rows out.

    sporax's iterators always make their Tensors in their prefetch thread (what ``parallel_convert=True`` turns
    on in MindSpore), and a Tensor never shares memory with the pipeline's arrays (JAX copies them), so
    ``do_copy`` changes only the NumPy rows of ``output_numpy=True``: with ``do_copy=True`` each row's arrays are
    the iterator's own copies.

    Args:
        do_copy (bool): copy the arrays of each row handed out. Default: ``False``.
        parallel_convert (bool): convert rows in a separate thread. Default: ``False``.
    """
    check_pipeline_type(do_copy, bool, "do_copy")
    check_pipeline_type(parallel_convert, bool, "parallel_convert")
    _state["iterator_mode"] = {"do_copy": do_copy, "parallel_convert": parallel_convert}


def get_iterator_mode() -> dict:
    """``{"do_copy": bool, "parallel_convert": bool}``, as set by :func:`set_iterator_mode`."""
    return dict(_state["iterator_mode"])


def set_multiprocessing_start_method(start_method="fork") -> None:
    """Set how worker processes (``python_multiprocessing=True`` of ``GeneratorDataset``, ``map``, ``batch``)
    are started: ``"fork"`` (the default) or ``"spawn"`` (a fresh interpreter: the user's functions and
    dataset must then be picklable).

    Args:
        start_method (str, optional): ``"fork"`` or ``"spawn"``. Default: ``"fork"``.
    """
    _state["multiprocessing_start_method"] = check_config_choice(start_method, ["fork", "spawn"], "start_method")


def get_multiprocessing_start_method() -> str:
    """The worker processes' start method (default ``"fork"``)."""
    return _state["multiprocessing_start_method"]


def set_video_backend(backend) -> None:
    """Set the backend that decodes videos: ``"CPU"`` or ``"Ascend"``, the two MindSpore accepts. The setting is
    kept (and handed to spawned workers) for MindSpore's API; sporax does not decode videos.

    Args:
        backend (str): ``"CPU"`` or ``"Ascend"``.
    """
    _state["video_backend"] = check_config_choice(backend, ["CPU", "Ascend"], "backend")


def get_video_backend() -> str:
    """The video backend (default ``"CPU"``)."""
    return _state["video_backend"]


def load(file) -> None:
    """Load settings from a JSON file, with the keys of MindSpore's config file: ``numParallelWorkers``,
    ``seed``, ``monitorSamplingInterval``, ``opConnectorSize`` (the prefetch size); other keys are ignored.

    Args:
        file (str): path of the file.

    Raises:
        RuntimeError: the file does not exist or is not JSON, or a value is out of range.
    """
    import json

    if not os.path.isfile(file):
        raise pipeline_error(f"Invalid file: settings file:{file} is not exist, check input path of config 'load' API.")
    try:
        with open(file, encoding="utf-8") as f:
            cfg = json.load(f)
    except (OSError, ValueError):
        raise pipeline_error("Client file failed to load.") from None
    if "numParallelWorkers" in cfg:
        n, cpus = cfg["numParallelWorkers"], os.cpu_count() or 1
        if not isinstance(n, int) or not 1 <= n <= cpus:
            raise pipeline_error(
                f"Invalid Parameter, num_parallel_workers exceeds the boundary between 1 and {cpus}, as got {n}.",
                "Syntax error. ",
            )
        _state["num_parallel_workers"] = n
    if "seed" in cfg:
        set_seed(cfg["seed"])
    if "monitorSamplingInterval" in cfg:
        set_monitor_sampling_interval(cfg["monitorSamplingInterval"])
    if "opConnectorSize" in cfg:
        set_prefetch_size(cfg["opConnectorSize"])


_state["error_samples_mode"] = ErrorSamplesMode.RETURN
_state["debug_hook_list"] = [PrintMetaDataHook()]
_follow_global_seed()
