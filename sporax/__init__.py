"""sporax: MindSpore's training API on JAX/XLA.

``import sporax as ms`` works like ``import mindspore as ms``: Tensor, Parameter, Cells in ``nn``, ``ops``,
gradients, ``jit`` and GRAPH_MODE, optimizers and train-step cells. ``sporax run train.py`` runs an
unmodified MindSpore script.
"""

from . import _engine  # noqa: F401  (switches x64 on before anything creates arrays)
from . import common, context, log, ops
from .common import dtype
from .common.api import jit, jit_class, lazy_inline, ms_function, no_inline, recompute
from .common.dtype import *  # noqa: F403
from .common.generator import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from .common._runtime_helpers import Symbol, set_recursion_limit, swap_tensors
from .common import (
    DeviceCtx,
    UntypedStorage,
    _Function,
    _no_grad,
    _NullType,
    enable_dynamic,
    flops_collection,
    mindio_preload,
    ms_memory_recycle,
    register_saved_tensors_hooks,
    saved_tensors_hooks,
    set_dump,
    set_mindio_server_info,
)
from .common.jit_config import JitConfig
from .common import mutable
from .common.parameter import Parameter, ParameterTuple
from .common.seed import get_seed, set_seed
from .common._sparse_tensor import SparseTensor
from .common.tensor import COOTensor, CSRTensor, RowTensor, Tensor, from_numpy, frombuffer, is_tensor, tensor
from .device_manager import get_current_device, set_deterministic, set_device
from .log import get_level, get_log_config
from .context import (
    COMPATIBLE,
    GRAPH_MODE,
    LAX,
    PYNATIVE_MODE,
    STRICT,
    ParallelMode,
    get_auto_parallel_context,
    get_context,
    get_ps_context,
    reset_auto_parallel_context,
    set_auto_parallel_context,
    set_context,
    set_ps_context,
)
from .ops.composite import get_grad, grad, jacfwd, jacrev, jvp, value_and_grad, vjp, vmap
from . import nn, communication, parallel  # noqa: E402

__version__ = "0.1.0"

mstype = dtype


def run_check() -> None:
    """Check the installation by running a small computation (MindSpore's ``run_check``)."""
    import numpy as np

    x = Tensor(np.ones((2, 2), np.float32))
    y = ops.add(x, x)
    assert float(y.sum()) == 8.0
    from ._engine import jax

    print(f"sporax version: {__version__}")
    print(
        f"The result of multiplication calculation is correct, sporax has been installed on platform [{jax.default_backend().upper()}] successfully!"
    )


_CHECKPOINT_API = ("save_checkpoint", "load_checkpoint", "load_param_into_net", "load_checkpoint_async")
_LAZY = (
    "dataset",
    "mindrecord",
    "boost",
    "train",
    "amp",
    "communication",
    "parallel",
    "experimental",
    "numpy",
    "profiler",
    "runtime",
    "hal",
    "mint",
    "utils",
    "rewrite",
)
# mindspore.rewrite's classes, also at the top level (ms.SymbolTree ...)
_FROM_REWRITE = ("SymbolTree", "Node", "NodeType", "ScopedValue")


# MindSpore's top level re-exports these from mindspore.runtime / profiler / utils (imported on first use)
_FROM_RUNTIME = (
    "Event", "MemPool", "PluggableAllocator", "Stream", "StreamCtx", "StreamLimitCtx", "communication_stream",
    "current_stream", "default_stream", "dispatch_threads_num", "empty_cache", "get_device_limit",
    "get_stream_limit", "launch_blocking", "max_memory_allocated", "max_memory_reserved", "memory_allocated",
    "memory_replay", "memory_reserved", "memory_stats", "memory_summary", "reset_max_memory_allocated",
    "reset_max_memory_reserved", "reset_peak_memory_stats", "reset_stream_limit", "set_cpu_affinity",
    "set_cur_stream", "set_device_limit", "set_kernel_launch_capture", "set_kernel_launch_group", "set_memory",
    "set_stream_limit", "synchronize", "use_mem_pool",
)  # fmt: skip
_FROM_ELSEWHERE = {"Profiler": "profiler", "from_dlpack": "utils", "to_dlpack": "utils", "reshard": "ops"}
_FROM_ELSEWHERE.update(
    dict.fromkeys(
        (
            "shard", "Layout", "set_algo_parameters", "get_algo_parameters", "reset_algo_parameters",
            "rank_list_for_transform", "transform_checkpoint_by_rank", "transform_checkpoints",
            "merge_pipeline_strategys", "load_segmented_checkpoints", "unified_safetensors", "parameter_broadcast",
            "sync_pipeline_shared_parameters", "load_distributed_checkpoint", "merge_sliced_parameter",
            "restore_group_info_list", "build_searched_strategy",
        ),
        "parallel",
    )
)  # fmt: skip


def __getattr__(name: str):
    """``ms.dataset``, ``ms.train``, ``ms.amp`` ... import on first use (they are heavier)."""
    import importlib

    if name in _FROM_RUNTIME:
        return getattr(importlib.import_module(f"{__name__}.runtime"), name)
    if name in _FROM_REWRITE:
        return getattr(importlib.import_module(f"{__name__}.rewrite"), name)
    if name in _FROM_ELSEWHERE:
        return getattr(importlib.import_module(f"{__name__}.{_FROM_ELSEWHERE[name]}"), name)
    if name in _CHECKPOINT_API:
        from .train import serialization

        return getattr(serialization, name)
    if name in _LAZY:
        return importlib.import_module(f"{__name__}.{name}")
    if not name.startswith("_"):
        # MindSpore exports mindspore.train's names at the top level (ms.Model, ms.LossMonitor...)
        train = importlib.import_module(f"{__name__}.train")
        value = getattr(train, name, None)
        if value is not None and not isinstance(value, type(importlib)):
            return value
    raise AttributeError(f"module 'sporax' has no attribute '{name}'")


def _env_profiler() -> None:
    """MindSpore's EnvProfiler: ``MS_PROFILER_OPTIONS='{"start": true, ...}'`` profiles the whole run."""
    import os

    if os.environ.get("MS_PROFILER_OPTIONS"):
        from .profiler import EnvProfiler

        EnvProfiler.init_profiler()


_env_profiler()
