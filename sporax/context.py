"""``set_context`` / ``get_context`` and the parallel context (``mindspore.context``).

``mode`` decides how a top-level ``Cell`` call runs: PYNATIVE_MODE (0... MindSpore's value is 1) runs
``construct`` op by op; GRAPH_MODE (0) compiles it with its implicit state. ``device_target`` accepts
MindSpore's names and selects the JAX platform: "CPU", "GPU" (CUDA), "Ascend" is refused clearly.
"""

from __future__ import annotations

from typing import Any

from ._engine import jax, state

__all__ = [
    "GRAPH_MODE",
    "PYNATIVE_MODE",
    "STRICT",
    "COMPATIBLE",
    "LAX",
    "ParallelMode",
    "set_context",
    "get_context",
    "set_auto_parallel_context",
    "get_auto_parallel_context",
    "reset_auto_parallel_context",
    "set_ps_context",
    "get_ps_context",
    "reset_ps_context",
]

GRAPH_MODE = 0
PYNATIVE_MODE = 1

# jit_syntax_level values (set_context(jit_syntax_level=ms.LAX)). sporax compiles the Python it can convert
# and runs the rest eagerly, which is LAX's meaning; STRICT and COMPATIBLE are accepted and run the same way.
STRICT = 0
COMPATIBLE = 1
LAX = 2


class ParallelMode:
    """MindSpore's parallel modes: plain strings, as in MindSpore (``ParallelMode.DATA_PARALLEL ==
    "data_parallel"``)."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_DEVICE_TARGETS = {"CPU": "cpu", "GPU": "gpu", "Ascend": None}

_context: dict[str, Any] = {
    "mode": PYNATIVE_MODE,
    "device_target": "CPU",
    "device_id": 0,
    "save_graphs": False,
    "save_graphs_path": ".",
    "jit_level": "O0",
    "max_call_depth": 1000,
    "pynative_synchronize": False,
    "enable_graph_kernel": False,
    "max_device_memory": "1024GB",
    "jit_config": {},
    "deterministic": "OFF",
    "runtime_num_threads": 30,
    "memory_optimize_level": "O0",
    "jit_syntax_level": LAX,
}


def _default_target() -> str:
    try:
        return "GPU" if jax.default_backend() in ("gpu", "cuda", "rocm") else "CPU"
    except RuntimeError:
        return "CPU"


_context["device_target"] = _default_target()
state.set_mode_key(_context["mode"])


def set_context(**kwargs: Any) -> None:
    """Set the runtime context: ``mode``, ``device_target``, ``device_id`` and MindSpore's other keys
    (accepted; those that mean nothing on XLA are kept only so ``get_context`` returns them)."""
    for key, value in kwargs.items():
        if key == "mode":
            if value not in (GRAPH_MODE, PYNATIVE_MODE):
                raise ValueError(
                    f"For 'set_context', the 'mode' must be GRAPH_MODE (0) or PYNATIVE_MODE (1), but got {value!r}."
                )
            state.set_mode_key(value)  # programs are kept per mode: switching back reuses them
        elif key == "device_target":
            if value not in _DEVICE_TARGETS:
                raise ValueError(
                    f"For 'set_context', the 'device_target' must be one of {list(_DEVICE_TARGETS)}, but got '{value}'."
                )
            if value == "Ascend":
                raise ValueError(
                    "For 'set_context', device_target 'Ascend' is not available in sporax: use 'CPU' or 'GPU'."
                )
            platform = _DEVICE_TARGETS[value]
            try:
                jax.devices(platform)
            except RuntimeError:
                raise RuntimeError(
                    f"For 'set_context', device_target '{value}' was requested but JAX has no {platform} backend here. "
                    + ("Install the CUDA build: pip install 'sporax[cuda]'." if value == "GPU" else "")
                ) from None
            jax.config.update("jax_default_device", jax.local_devices(backend=platform)[0])
        elif key == "jit_syntax_level":
            if value not in (STRICT, COMPATIBLE, LAX):
                raise ValueError(
                    f"For 'jit_syntax_level', the value should be context.STRICT or context.LAX, but got {value}."
                )
        elif key == "device_id":
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"For 'set_context', the 'device_id' must be a non-negative int, but got {value!r}.")
        _context[key] = value


def get_context(attr_key: str) -> Any:
    if attr_key not in _context:
        raise ValueError(f"For 'get_context', the key '{attr_key}' is not supported.")
    return _context[attr_key]


def is_graph_mode() -> bool:
    return _context["mode"] == GRAPH_MODE


_AUTO_PARALLEL_DEFAULTS: dict[str, Any] = {
    "device_num": 1,
    "global_rank": 0,
    "gradients_mean": False,
    "gradient_fp32_sync": True,
    "parallel_mode": ParallelMode.STAND_ALONE,
    "search_mode": "recursive_programming",
    "auto_parallel_search_mode": "recursive_programming",
    "parameter_broadcast": False,
    "strategy_ckpt_load_file": "",
    "strategy_ckpt_save_file": "",
    "full_batch": False,
    "enable_parallel_optimizer": False,
    "dataset_strategy": "data_parallel",
    "pipeline_stages": 1,
    "grad_accumulation_step": 1,
    "all_reduce_fusion_config": [],
    "comm_fusion": {},
    # semi-auto parallel (sporax.ops._sharding, sporax.parallel): accepted with MindSpore's defaults
    "loss_repeated_mean": True,
    "auto_pipeline": False,
    "pipeline_result_broadcast": False,
    "pipeline_segments": 1,
    "group_ckpt_save_file": "",
    "force_fp32_communication": False,
    "parallel_optimizer_config": {},
    "pipeline_config": {},
    "communi_parallel_mode": "all_group_parallel",
    "optimizer_weight_shard_size": -1,
    "optimizer_weight_shard_aggregated_save": False,
    "sharding_propagation": False,
    "enable_alltoall": False,
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
}
_auto_parallel: dict[str, Any] = dict(_AUTO_PARALLEL_DEFAULTS)
_auto_parallel_set: set[str] = set()  # keys a program set explicitly (auto_parallel_context().get_X_is_set())


def set_auto_parallel_context(**kwargs: Any) -> None:
    for key, value in kwargs.items():
        if key not in _AUTO_PARALLEL_DEFAULTS:
            raise ValueError(f"For 'set_auto_parallel_context', the key '{key}' is not supported.")
        if key == "parallel_mode":
            if value not in ParallelMode.MODE_LIST:
                raise ValueError(
                    "The context configuration parameter 'parallel_mode' only support 'stand_alone', "
                    "'data_parallel', 'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', but got the "
                    f"value : {value}."
                )
            value = str(value)
        _auto_parallel[key] = value
        _auto_parallel_set.add(key)
    state.bump_epoch()


def get_auto_parallel_context(attr_key: str) -> Any:
    if attr_key not in _auto_parallel:
        raise ValueError(f"For 'get_auto_parallel_context', the key '{attr_key}' is not supported.")
    return _auto_parallel[attr_key]


def auto_parallel_keys() -> tuple[str, ...]:
    """The keys :func:`set_auto_parallel_context` accepts."""
    return tuple(_AUTO_PARALLEL_DEFAULTS)


def is_auto_parallel_set(key: str) -> bool:
    """Whether a program set ``key`` explicitly (``auto_parallel_context().get_<key>_is_set()``)."""
    return key in _auto_parallel_set


def reset_auto_parallel_context() -> None:
    _auto_parallel.clear()
    _auto_parallel.update(_AUTO_PARALLEL_DEFAULTS)
    _auto_parallel_set.clear()
    state.bump_epoch()


_ps: dict[str, Any] = {"enable_ps": False}


def set_ps_context(**kwargs: Any) -> None:
    _ps.update(kwargs)


def get_ps_context(attr_key: str) -> Any:
    return _ps.get(attr_key)


def reset_ps_context() -> None:
    _ps.clear()
    _ps["enable_ps"] = False
