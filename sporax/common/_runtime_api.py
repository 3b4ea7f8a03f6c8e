"""MindSpore's top-level runtime helpers on XLA: ``enable_dynamic``, ``ms_memory_recycle``,
``flops_collection``, ``set_dump``, ``DeviceCtx``, ``mindio_preload`` / ``set_mindio_server_info``.
"""

from __future__ import annotations

import functools
import gc
import inspect
import json
import logging
import os
import threading
import types
from typing import Any

from .. import _checkparam as validator
from .. import context
from .._engine import jax
from .._engine._cost import program_flops
from ._compile import compiled_programs
from ._op_registry import ops as _ops
from .tensor import Tensor

__all__ = [
    "enable_dynamic",
    "ms_memory_recycle",
    "flops_collection",
    "set_dump",
    "DeviceCtx",
    "mindio_preload",
    "set_mindio_server_info",
]

_log = logging.getLogger("sporax")

# --------------------------------------------------------------------------------------------- enable_dynamic
ENABLE_DYNAMIC = "__enable_dynamic__"


def _matches(decl: Any, value: Any) -> None:
    """Raise MindSpore's error when ``value`` does not fit the declared dynamic Tensor(s) ``decl``."""
    if isinstance(decl, tuple | list):
        if not isinstance(value, tuple | list) or len(value) != len(decl):
            raise ValueError(f"When using decorator enable_dynamic, the input {value!r} does not match {decl!r}.")
        for d, v in zip(decl, value, strict=True):
            _matches(d, v)
        return
    if not isinstance(value, Tensor):
        raise TypeError(f"When using decorator enable_dynamic, the input must be a Tensor, but got {type(value)}.")
    if value.dtype != decl.dtype:
        raise TypeError(
            f"When using decorator enable_dynamic, input tensor dtype = {value.dtype}, "
            f"dynamic tensor dtype = {decl.dtype}, tensor dtypes are not the same."
        )
    want, got = decl.shape, value.shape
    if want == (-2,):
        return
    if len(want) != len(got):
        raise ValueError(
            f"When using decorator enable_dynamic, input tensor shape = ({list(got)}), "
            f"dynamic tensor shape = ({list(want)}), tensor shapes are not the same."
        )
    if any(w not in (-1, g) for w, g in zip(want, got, strict=True)):
        raise ValueError(
            f"When using decorator enable_dynamic, input tensor shape = {list(got)}, "
            f"dynamic tensor shape = {list(want)}, tensor shapes are not the same."
        )


def enable_dynamic(**kwargs: Any) -> Any:
    """Declare arguments of a ``jit`` function as dynamic in shape (``None`` dimensions) or rank
    (``Tensor(shape=None, dtype=...)``).

    XLA compiles one program per concrete input shape, so a declared dimension may change from call to call
    (each new shape compiles once); the declared dtype, rank and fixed dimensions are checked at every call
    with MindSpore's errors.
    """
    if not kwargs:
        raise ValueError("When using decorator enable_dynamic, the input cannot be empty!")
    for name, arg in kwargs.items():
        validator.check_dynamic_tensors(arg, name, Tensor)
        if not validator.check_dynamic_decl(arg, name, Tensor):
            raise TypeError(
                f"When using decorator enable_dynamic, the shape of argument '{name}' at least have one None."
            )

    def decorator(func: Any) -> Any:
        if not isinstance(func, types.FunctionType | types.MethodType):
            raise ValueError(
                f"Decorator enable_dynamic can only be used for function or method decrocated by ms.jit, but got {func}."
            )
        names = [p for p in inspect.signature(func).parameters if p != "self"]
        if len(kwargs) > len(names):
            raise ValueError(
                f"When using decorator enable_dynamic, the number of arguments {len(kwargs)} "
                f"exceeds the number of function arguments {len(names)}."
            )
        declared = {names.index(k): (k, v) for k, v in kwargs.items()}
        has_self = isinstance(func, types.FunctionType) and "self" in inspect.signature(func).parameters
        setattr(inspect.unwrap(func), ENABLE_DYNAMIC, declared)

        @functools.wraps(func)
        def wrapper(*args: Any, **kw: Any) -> Any:
            offset = 1 if has_self and args else 0
            for index, (key, decl) in declared.items():
                value = kw[key] if key in kw else args[index + offset] if index + offset < len(args) else None
                if value is not None:
                    _matches(decl, value)
            return func(*args, **kw)

        return wrapper

    return decorator


# ------------------------------------------------------------------------------------------ memory, FLOPs
def ms_memory_recycle() -> None:
    """Free what compiled programs keep: XLA's executables and tracing caches (the next call of a compiled
    function compiles again), then collect garbage so device buffers nobody holds are released."""
    for sjit, _owner in compiled_programs():
        sjit._cache.clear()
    jax.clear_caches()
    gc.collect()


def _contains(outer: Any, inner: Any) -> bool:
    """Whether Cell ``inner`` is one of Cell ``outer``'s cells (a sink may run a wrapper of the train network)."""
    cells = getattr(outer, "cells_and_names", None)
    return inner is not None and callable(cells) and any(c is inner for _, c in cells())


def flops_of(owner: Any) -> float | None:
    """The FLOPs of one call of the program compiled last for ``owner`` (a Cell, as ``Model``'s step runs it);
    None if it has none (not compiled yet, or running eagerly)."""
    for sjit, o in compiled_programs():
        if o is owner or _contains(o, owner) or _contains(owner, o):
            flops = program_flops(sjit)
            if flops is not None:
                # a sink's program loops over sink_size steps: XLA's cost analysis counts a loop's body once,
                # so the figure is one step's (as MindSpore's for a sunk graph)
                return flops
    return None


def _phase_of(owner: Any) -> str | None:
    return getattr(owner, "phase", None) if owner is not None else None


def flops_collection(phase: str = "train") -> tuple[float, float, float, float, bool]:
    """``(full model FLOPs, full hardware FLOPs, shard model FLOPs, shard hardware FLOPs, is_dynamic_shape)``
    of one call of the program compiled last for a network of ``phase`` (a Cell's ``phase``: ``'train'`` for
    a network in training, ``'predict'`` after ``set_train(False)``; for a ``jit`` function, its name).

    The figures are XLA's cost analysis of the compiled executable: every floating-point operation it runs
    (MindSpore counts MatMul, BatchMatMul, convolutions and attention only, so element-wise work makes XLA's
    figure larger). Model and hardware FLOPs are equal (the executable is what runs, recomputation included);
    on one process the full and shard figures are equal. A program always has static shapes on XLA.
    """
    validator.check_value_type("phase", phase, [str], "flops_collection")
    want = phase.split(".")[0]
    for sjit, owner in compiled_programs():
        owner_phase = _phase_of(owner)
        if (owner_phase if owner_phase is not None else sjit.name) != want:
            continue
        flops = program_flops(sjit)
        if flops is not None:
            return flops, flops, flops, flops, False
    raise RuntimeError(f"For 'flops_collection', no compiled program of phase '{phase}' was found: run it first.")


# ------------------------------------------------------------------------------------------------- dump
def _dump_settings() -> dict | None:
    path = os.environ.get("MINDSPORE_DUMP_CONFIG")
    if not path or not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        settings = json.load(f).get("common_dump_settings", {})
    if int(settings.get("dump_mode", 0)) != 2:
        return None
    return settings


def _dump_hook(cell: Any, inputs: Any, outputs: Any) -> None:
    if not cell._flags.get("dump"):
        return
    settings = _dump_settings()
    if settings is None:
        return
    rank = jax.process_index()  # the process's rank (common sits below communication)
    base = os.path.join(settings.get("path", "."), f"rank_{rank}", settings.get("net_name", "Net"))
    name = f"{type(cell).__name__}.{cell.__dict__.get('_dump_name', 'root')}"
    mode = int(settings.get("input_output", 0))
    parts = []
    if mode in (0, 1):
        parts.append(("input", inputs))
    if mode in (0, 2):
        parts.append(("output", outputs if isinstance(outputs, tuple | list) else (outputs,)))
    for kind, values in parts:
        for i, v in enumerate(values):
            if isinstance(v, Tensor):
                _ops().tensordump(os.path.join(base, f"{name}.{kind}.{i}"), v)


def set_dump(target: Any, enabled: bool = True) -> None:
    """Enable or disable the dump of ``target`` (a Cell, with its sub-cells, or a Primitive).

    A dumped Cell writes its inputs and outputs as ``.npy`` files when the dump is configured as in MindSpore:
    ``MINDSPORE_DUMP_CONFIG`` names a JSON file whose ``common_dump_settings`` has ``"dump_mode": 2``,
    ``path``, ``net_name`` and ``input_output`` (0 both, 1 inputs, 2 outputs). Files are
    ``<path>/rank_<id>/<net_name>/<Cell class>.<cell name>.<input|output>.<i>_<dtype>_0.npy``, written by a
    host callback of the compiled program (the latest call's values). A Primitive gets the ``dump``
    attribute.
    """
    is_cell = hasattr(target, "cells_and_names") and hasattr(target, "add_flags")
    is_prim = hasattr(target, "add_prim_attr")
    if not is_cell and not is_prim:
        raise ValueError(
            f'The "target" parameter must be an instance of Cell or Primitive, but got an instance of {type(target)}.'
        )
    if not isinstance(enabled, bool):
        raise ValueError('The "enabled" parameter must be bool.')
    if is_prim:
        target.add_prim_attr("dump", "true" if enabled else "false")
        return
    for name, cell in target.cells_and_names():
        cell.add_flags(dump=enabled)
        cell.__dict__["_dump_name"] = name or "root"
        if enabled and "_dump_handle" not in cell.__dict__:
            cell.__dict__["_dump_handle"] = cell.register_forward_hook(_dump_hook)


# --------------------------------------------------------------------------------------------- DeviceCtx
_device_stack = threading.local()


class DeviceCtx:
    """Context manager running the code inside on device ``name`` (``"CPU"``, ``"GPU"``) number
    ``device_id``: the context's device target and id, and the device new arrays are placed on
    (``jax.default_device``). The previous device is back on exit."""

    def __init__(self, name: str, device_id: Any = None) -> None:
        self.name = name
        self.device_id = device_id

    def __enter__(self) -> DeviceCtx:
        valid = ["CPU", "GPU", "Ascend", "meta"]
        if self.name not in valid:
            raise ValueError(f"For DeviceCtx, the name must be one of {valid}, but got {self.name}.")
        if self.device_id is not None and self.device_id < 0:
            raise ValueError("For DeviceCtx, the device_id must be greater than or equal to 0.")
        if self.name in ("Ascend", "meta"):
            raise ValueError(f"For DeviceCtx, the device '{self.name}' is not available on XLA: use 'CPU' or 'GPU'.")
        if self.device_id is None:
            self.device_id = 0
        from .._engine._device import devices

        found = devices(self.name)
        if self.device_id >= len(found):
            raise ValueError(f"For DeviceCtx, device {self.name}:{self.device_id} is not available.")
        stack = getattr(_device_stack, "stack", None)
        if stack is None:
            stack = _device_stack.stack = []
        placement = jax.default_device(found[self.device_id])
        placement.__enter__()
        stack.append((context.get_context("device_target"), context.get_context("device_id"), placement))
        context.set_context(device_target=self.name, device_id=self.device_id)
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        target, device_id, placement = _device_stack.stack.pop()
        try:
            placement.__exit__(exc_type, exc_val, exc_tb)
        finally:
            context.set_context(device_target=target, device_id=device_id)


# ----------------------------------------------------------------------------------------------- MindIO
mindio_server_info = {"memfs.data_block_pool_capacity_in_gb": "100"}


def _init_mindio() -> Any:
    """Huawei's MindIO client (``mindio_acp`` or ``mindio``), initialised, or None where it is not installed."""
    for module in ("mindio_acp", "mindio"):
        try:
            mindio = __import__(module)
        except ImportError:
            continue
        ret = mindio.initialize(server_info=mindio_server_info) if module == "mindio_acp" else mindio.initialize()
        if ret == 0:
            return mindio
        _log.warning("Failed to initialize %s: ret = %s", module, ret)
    return None


def set_mindio_server_info(data_block_pool_capacity_in_gb: int = 100) -> None:
    """Set the MindIO server's data block pool capacity (GB) used when MindIO is initialised."""
    validator.check_positive_int(data_block_pool_capacity_in_gb, "data_block_pool_capacity_in_gb")
    mindio_server_info["memfs.data_block_pool_capacity_in_gb"] = str(data_block_pool_capacity_in_gb)


def mindio_preload(ckpt_file_name: str) -> bool:
    """Preload ``ckpt_file_name`` into MindIO's memory file system; False where MindIO (Huawei's storage
    acceleration service) is not installed or cannot preload, as in MindSpore."""
    validator.check_value_type("ckpt_file_name", ckpt_file_name, [str], "mindio_preload")
    mindio = _init_mindio()
    if mindio is None:
        return False
    if not hasattr(mindio, "preload"):
        _log.warning("MindIO module does not have preload method")
        return False
    mindio.preload(ckpt_file_name)
    return True
