"""The rest of ``Cell``'s public surface: backward hooks, parameter forward hooks, mixed-precision type,
device moves (``to``/``to_empty``) and the compile/parallel bookkeeping properties of MindSpore 2.10.

Backward hooks run in the backward pass: ``register_backward_pre_hook(fn)`` calls ``fn(cell, grad_output)``
with the gradient of the cell's output (a non-None result replaces it); ``register_backward_hook(fn)`` calls
``fn(cell, grad_input, grad_output)`` with the gradients of the cell's Tensor inputs (a non-None result
replaces them). In PyNative the hooks run on the host with concrete gradients (through a host callback);
in GRAPH_MODE they are traced into the compiled step.
"""

from __future__ import annotations

import enum
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from .. import _checkparam as validator
from .. import context
from .._engine import custom_vjp_call, state
from ..common import dtype as mstype
from ..common._autograd_api import saved_tensors_hooks
from ..common.parameter import Parameter
from ..common.tensor import Tensor

__all__ = ["MixedPrecisionType"]

_log = logging.getLogger("sporax")


class MixedPrecisionType(enum.Enum):
    """The compute type ``Cell.to_float`` / ``set_mixed_precision_type`` gives a cell."""

    NOTSET = 0
    FP16 = 1
    FP32 = 2
    BF16 = 3


_TO_DTYPE = {MixedPrecisionType.FP16: mstype.float16, MixedPrecisionType.FP32: mstype.float32}
_TO_DTYPE[MixedPrecisionType.BF16] = mstype.bfloat16


def _hook_table(cell: Any, name: str) -> OrderedDict:
    return cell.__dict__.setdefault(name, OrderedDict())


def _tensors_through(values: tuple, hook_in: Callable[[tuple], tuple]) -> tuple:
    """``values`` unchanged; in the backward pass the gradients of their Tensors become ``hook_in(grads)``."""
    pos = [i for i, v in enumerate(values) if isinstance(v, Tensor)]
    if not pos:
        return values

    def backward(_args: Any, _out: Any, dout: Any) -> Any:
        grads = tuple(dout)
        new = hook_in(grads)
        return tuple(grads if new is None else new)

    outs = custom_vjp_call(lambda *a: tuple(a), backward, tuple(values[i] for i in pos), [])
    out = list(values)
    for i, v in zip(pos, outs):
        out[i] = v
    return tuple(out)


def _on_host(fn: Callable[..., tuple], values: tuple, like: tuple) -> tuple:
    """``fn(values)`` run on the host with concrete Tensors; its results take the shapes and dtypes of
    ``like`` (inside the backward pass, through a host callback)."""
    from ..ops.function.other_func import py_func

    def host(*arrays: Any) -> tuple:
        out = fn(tuple(Tensor(a) for a in arrays))
        return tuple(o.asnumpy() if isinstance(o, Tensor) else o for o in out)

    return py_func(host, list(values), [g.dtype for g in like], [g.shape for g in like])


def _as_tuple(x: Any) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


class _CellHooksMixin:
    """Members of ``Cell`` kept apart from ``cell.py`` (which stays under 800 lines)."""

    if TYPE_CHECKING:  # Cell's members (this mixin is part of Cell), which these methods use
        _cells: OrderedDict[str, Any]

        def cells_and_names(self, cells: set | None = None, name_prefix: str = "") -> Iterator[tuple[str, Any]]: ...
        def get_parameters(self, expand: bool = True) -> Iterator[Any]: ...
        def _add_hook(self, table: str, hook_fn: Callable[..., Any], prepend: bool, opts: tuple) -> Any: ...
        def _run_construct(self, *args: Any, **kwargs: Any) -> Any: ...
        def recompute(self, **kwargs: Any) -> Any: ...

    IGNORE_LIST = [
        "_scope", "_cell_init_args", "_auto_prefix", "_cells", "_params", "_create_time", "_func_graph_flags",
        "_parameter_layout_dict", "_params_list", "_phase", "_bprop_debug", "_forward_pre_hook", "_forward_hook",
        "_backward_pre_hook", "_backward_hook", "_cell_backward_pre_hook", "_cell_backward_hook", "_param_prefix",
        "requires_grad", "cell_type", "_in_strategy", "_out_strategy",
    ]  # fmt: skip
    T_destination = TypeVar("T_destination", bound=dict)
    total_instance_count = 0
    global_cells: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
    _no_auto_lazy_inline = True

    # ------------------------------------------------------------- bookkeeping
    def _init_bookkeeping(self) -> None:
        d = self.__dict__
        d["_create_time"] = int(time.time() * 1e9)
        d["_bprop_debug"] = False
        d["_compile_phase"] = None
        d["_cell_init_args"] = f"{type(self).__name__}[{d.get('_auto_prefix', True)}, None]"

    @property
    def create_time(self) -> int:
        """When the cell was made (ns since the epoch); part of its graph names."""
        return self.__dict__["_create_time"]

    @property
    def bprop_debug(self) -> bool:
        """Run a custom ``bprop`` as Python (debugging) in graph mode."""
        return self.__dict__.get("_bprop_debug", False)

    @bprop_debug.setter
    def bprop_debug(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'bprop_debug' must be bool type, but got type {type(value)}.")
        self.__dict__["_bprop_debug"] = value

    @property
    def cell_init_args(self) -> str:
        """The class name and construction arguments, as a string."""
        return self.__dict__.get("_cell_init_args", "")

    @cell_init_args.setter
    def cell_init_args(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(
                f"For 'Cell', the property 'cell_init_args' must be string type, but got type {type(value)}."
            )
        self.__dict__["_cell_init_args"] = value

    @property
    def compile_phase(self) -> str | None:
        return self.__dict__.get("_compile_phase")

    @compile_phase.setter
    def compile_phase(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"For 'Cell', 'compile_phase' must be string type, but got type {type(value)}.")
        self.__dict__["_compile_phase"] = value
        for cell in self._cells.values():
            if cell is not None:
                cell.compile_phase = value

    @property
    def compiled(self) -> bool:
        """Whether ``construct`` has been compiled (a GRAPH_MODE or self-compiling call ran)."""
        return self.__dict__.get("_compiled") is not None

    @property
    def compile_cache(self) -> set:
        """The phases this cell was compiled for."""
        return self.__dict__.setdefault("_compile_cache", set())

    @property
    def phase_cache(self) -> dict:
        return self.__dict__.setdefault("_phase_cache", {})

    @property
    def exist_names(self) -> set:
        return self.__dict__.setdefault("_exist_names", set())

    @property
    def exist_objs(self) -> set:
        return self.__dict__.setdefault("_exist_objs", set())

    @property
    def parameter_layout_dict(self) -> dict:
        """Parameter name -> its parallel layout (filled by parallel compilation)."""
        return self.__dict__.setdefault("_parameter_layout_dict", {})

    @parameter_layout_dict.setter
    def parameter_layout_dict(self, value: dict) -> None:
        if not isinstance(value, dict):
            raise TypeError(
                f"For 'Cell', the property 'parameter_layout_dict' must be dict type, but got type {type(value)}."
            )
        self.__dict__["_parameter_layout_dict"] = value

    @property
    def parallel_parameter_merge_net_dict(self) -> dict:
        return self.__dict__.setdefault("_parallel_parameter_merge_net_dict", {})

    @parallel_parameter_merge_net_dict.setter
    def parallel_parameter_merge_net_dict(self, value: dict) -> None:
        if not isinstance(value, dict):
            raise TypeError(
                "For 'Cell', the property 'parallel_parameter_merge_net_dict' must be dict type, "
                f"but got type {type(value)}."
            )
        self.__dict__["_parallel_parameter_merge_net_dict"] = value

    @property
    def parallel_parameter_name_list(self) -> Any:
        return self.__dict__.setdefault("_parallel_parameter_name_list", ())

    @parallel_parameter_name_list.setter
    def parallel_parameter_name_list(self, value: list) -> None:
        if not isinstance(value, list):
            raise TypeError(
                f"For 'Cell', the property 'parallel_parameter_name_list' must be list type, but got type {type(value)}."
            )
        self.__dict__["_parallel_parameter_name_list"] = value

    @property
    def pipeline_stage(self) -> int:
        """The pipeline stage of this cell (pipeline parallelism)."""
        if "_pipeline_stage" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute 'pipeline_stage'.")
        return self.__dict__["_pipeline_stage"]

    @pipeline_stage.setter
    def pipeline_stage(self, value: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'pipeline_stage' must be int type, but got type : {type(value)}")
        if value < 0:
            raise ValueError(f"For 'Cell', the property 'pipeline_stage' can not be less than 0, but got {value}")
        self.__dict__["_pipeline_stage"] = value

    @property
    def pipeline_segment(self) -> int:
        if "_pipeline_segment" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute 'pipeline_segment'.")
        return self.__dict__["_pipeline_segment"]

    @pipeline_segment.setter
    def pipeline_segment(self, value: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(
                "For 'context.set_auto_parallel_context', the argument 'pipeline_stages' must be int type, "
                f"but got type : {type(value)}"
            )
        if value < 0:
            raise ValueError(
                f"For 'context.set_auto_parallel_context', the argument 'pipeline_stages' can not be less than 0, but got {value}"
            )
        self.__dict__["_pipeline_segment"] = value

    @property
    def enable_backward_hook(self) -> bool:
        """Whether a backward hook is registered on this cell (set by ``register_backward_hook``)."""
        if "_enable_backward_hook" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute 'enable_backward_hook'.")
        return self.__dict__["_enable_backward_hook"]

    # ----------------------------------------------------------- backward hooks
    def register_backward_pre_hook(self, hook_fn: Callable[..., Any]) -> Any:
        """``hook_fn(cell, grad_output)`` runs in the backward pass with the gradient of this cell's output;
        a non-None result replaces it. Returns a handle (``handle.remove()``)."""
        return self._add_hook("_backward_pre_hooks", hook_fn, False, (False, False))

    def register_backward_hook(self, hook_fn: Callable[..., Any]) -> Any:
        """``hook_fn(cell, grad_input, grad_output)`` runs in the backward pass with the gradients of this
        cell's Tensor inputs and of its output; a non-None result replaces ``grad_input``."""
        handle = self._add_hook("_backward_hooks", hook_fn, False, (False, False))
        self.__dict__["_enable_backward_hook"] = True
        return handle

    def _has_backward_hooks(self) -> bool:
        d = self.__dict__
        return bool(d.get("_backward_hooks") or d.get("_backward_pre_hooks"))

    def _call_with_backward_hooks(self, run: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        """``run(*args, **kwargs)`` with this cell's backward hooks on its inputs and output."""
        pre = list(self.__dict__.get("_backward_pre_hooks", {}).values())
        post = list(self.__dict__.get("_backward_hooks", {}).values())
        seen: dict[str, tuple] = {}

        on_host = not context.is_graph_mode()  # PyNative: the hooks see concrete gradients, as MindSpore's

        def run_post(grads: tuple, grads_out: tuple) -> tuple:
            result = grads
            for hook in post:
                res = hook(self, result, grads_out)
                if res is not None:
                    result = _as_tuple(res)
            return result

        def run_pre(grads: tuple) -> tuple:
            for hook in pre:
                res = hook(self, grads)
                if res is not None:
                    grads = _as_tuple(res)
            return grads

        def on_inputs(grads: tuple) -> tuple:
            grads_out = seen.get("out", ())
            if not on_host:
                return run_post(grads, grads_out)
            n = len(grads)
            return _on_host(lambda g: run_post(g[:n], g[n:]), grads + grads_out, grads)

        def on_output(grads: tuple) -> tuple:
            grads = _on_host(run_pre, grads, grads) if on_host else run_pre(grads)
            seen["out"] = grads
            return grads

        if post:
            args = _tensors_through(args, on_inputs)
        out = run(*args, **kwargs)
        if isinstance(out, tuple):
            return _tensors_through(out, on_output)
        return _tensors_through((out,), on_output)[0]

    # ------------------------------------------------------ parameter forward hooks
    def register_parameter_forward_hook(self, hook: Any) -> None:
        """A hook applied to Parameters as this cell reads them: a callable applies to all of its
        Parameters; ``[{"params": [...], "hook": fn}, ...]`` to the listed ones. ``fn(param)`` returns the
        value used in place of the Parameter (gradients flow through it)."""
        table: dict[int, tuple[Parameter, Callable[..., Any]]] = {}
        if isinstance(hook, list):
            for item in hook:
                if not isinstance(item, dict):
                    raise TypeError(f"Each item in the hook list must be a dictionary, but got {type(item)}.")
                if not ("params" in item and "hook" in item):
                    raise ValueError("Each dictionary in the hook list must contain both params and hook keys.")
                if not callable(item["hook"]):
                    raise TypeError(f"The hook value must be callable, but got {type(item['hook'])}.")
                for param in item["params"]:
                    if not isinstance(param, Parameter):
                        raise TypeError(f"Each item in params must be a Parameter, but got {type(param)}.")
                    table[id(param)] = (param, item["hook"])
        elif callable(hook):
            for param in self.get_parameters():
                table[id(param)] = (param, hook)
        else:
            raise TypeError(f"The hook must be a callable or a list of dictionaries, but got {type(hook)}.")
        self.__dict__["_parameter_forward_hooks"] = table
        state.bump_epoch()

    def _call_with_parameter_hooks(self, run: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        """``run`` with each hooked Parameter read as ``hook(param)`` (the hook's value rebinds it)."""
        table = self.__dict__["_parameter_forward_hooks"]
        values = [(p, fn(p.value())) for p, fn in table.values()]
        with state.Frame([(p, v._data if isinstance(v, Tensor) else v) for p, v in values]) as frame:
            out = run(*args, **kwargs)
        for holder, value in frame.written_items():  # writes of other state (BatchNorm's statistics) go on
            if id(holder) not in table:
                state.write(holder, value)
        return out

    def _run_with_hooks(self, args: tuple, kwargs: dict) -> Any:
        d = self.__dict__
        d["_hooks_running"] = True
        try:
            run = self._run_construct
            if d.get("_parameter_forward_hooks"):
                inner = run

                def run(*a: Any, **k: Any) -> Any:
                    return self._call_with_parameter_hooks(inner, a, k)

            if d.get("_saved_tensors_pack_hook") is not None:
                inner_saved = run
                hooks = saved_tensors_hooks(d["_saved_tensors_pack_hook"], d["_saved_tensors_unpack_hook"])

                def run(*a: Any, **k: Any) -> Any:
                    with hooks:
                        return inner_saved(*a, **k)

            if self._has_backward_hooks():
                return self._call_with_backward_hooks(run, args, kwargs)
            return run(*args, **kwargs)
        finally:
            d["_hooks_running"] = False

    def _wraps_call(self) -> bool:
        d = self.__dict__
        return bool(
            (
                d.get("_backward_hooks")
                or d.get("_backward_pre_hooks")
                or d.get("_parameter_forward_hooks")
                or d.get("_saved_tensors_pack_hook") is not None
            )
            and not d.get("_hooks_running")
        )

    def register_saved_tensors_hooks(self, pack_hook: Callable[..., Any], unpack_hook: Callable[..., Any]) -> None:
        """Run ``construct`` inside ``saved_tensors_hooks(pack_hook, unpack_hook)``: each operator keeps
        ``pack_hook`` of its Tensor inputs in the forward pass and is differentiated at ``unpack_hook`` of
        them in the backward pass."""
        self.__dict__["_saved_tensors_pack_hook"] = pack_hook
        self.__dict__["_saved_tensors_unpack_hook"] = unpack_hook
        state.bump_epoch()

    # ---------------------------------------------------------------- state
    def get_extra_state(self) -> Any:
        """Extra state for ``state_dict`` (key ``_extra_state``): override it, with ``set_extra_state``."""
        raise RuntimeError("Reached a code path in Cell.get_extra_state() that should never be called.")

    def set_extra_state(self, state: Any) -> None:
        """Take back the value ``get_extra_state`` gave (from ``load_state_dict``)."""
        raise RuntimeError("Reached a code path in Cell.set_extra_state() that should never be called.")

    def register_state_dict_pre_hook(self, hook: Callable[..., Any]) -> Any:
        """``hook(cell, prefix, keep_vars)`` runs before ``state_dict`` collects this cell's entries."""
        return self._add_hook("_state_dict_pre_hooks", hook, False, (False, False))

    def register_state_dict_post_hook(self, hook: Callable[..., Any]) -> Any:
        """``hook(cell, state_dict, prefix, local_metadata)`` runs after ``state_dict`` collected this cell."""
        return self._add_hook("_state_dict_hooks", hook, False, (False, False))

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any]) -> Any:
        """``hook(cell, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs)`` runs before ``load_state_dict`` loads this cell's entries."""
        return self._add_hook("_load_state_dict_pre_hooks", hook, False, (False, False))

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any]) -> Any:
        """``hook(cell, incompatible_keys)`` runs after ``load_state_dict``; it may edit the key lists."""
        return self._add_hook("_load_state_dict_post_hooks", hook, False, (False, False))

    # -------------------------------------------------- precision and devices
    def set_mixed_precision_type(self, mixed_type: MixedPrecisionType) -> None:
        """Compute type of this cell alone (``to_float`` sets it on every cell below)."""
        if not isinstance(mixed_type, MixedPrecisionType):
            raise TypeError(f"set_mixed_precision_type(): incompatible function arguments, got {type(mixed_type)}.")
        self.__dict__["_mixed_dtype"] = _TO_DTYPE.get(mixed_type)
        state.bump_epoch()

    def get_mixed_precision_type(self) -> MixedPrecisionType:
        """The compute type of this cell (``MixedPrecisionType.NOTSET`` when none)."""
        dt = self.__dict__.get("_mixed_dtype")
        for kind, value in _TO_DTYPE.items():
            if dt == value:
                return kind
        return MixedPrecisionType.NOTSET

    def to(self, *args: Any, **kwargs: Any) -> Any:
        """Cast the floating Parameters and buffers to a dtype (``to(dtype)``, ``to(device, dtype)``,
        ``to(dtype=...)``, ``to(tensor)``); a device is accepted (one XLA device holds them)."""
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, mstype.Type):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
        if dtype is not None and not isinstance(dtype, mstype.Float):
            raise TypeError(f"Cell.to only accepts floating point dtypes, but got desired dtype={dtype}")
        if dtype is not None:
            for p in self.get_parameters():
                if isinstance(p.dtype, mstype.Float):
                    p._data = p.astype(dtype)._data  # a new dtype (set_data keeps the Parameter's)
            for _, cell in self.cells_and_names():
                for name, buf in cell.__dict__.get("_buffers", {}).items():
                    if isinstance(buf, Tensor) and isinstance(buf.dtype, mstype.Float):
                        cell._set_buffer(name, buf.astype(dtype))
        return self

    def to_empty(self, *, device: Any = None, recurse: bool = True) -> Any:
        """Give every Parameter fresh, uninitialised storage of its shape and dtype (here: zeros)."""
        params = self.get_parameters(expand=recurse)
        for p in params:
            p.set_data(Tensor(_zeros(p.shape, p.dtype)))
        return self

    def offload(self, backward_prefetch: Any = "Auto") -> None:
        """Offload this cell's activations to host memory for the backward pass (Ascend); on XLA the
        choice is recorded and the activations are recomputed (as ``recompute``)."""
        if isinstance(backward_prefetch, str):
            validator.check_string(backward_prefetch, ["Auto"], "backward_prefetch", type(self).__name__)
        else:
            validator.check_non_negative_int(backward_prefetch)
        self.__dict__["_offload"] = backward_prefetch
        self.recompute()

    def run_construct(self, cast_inputs: Any, kwargs: Any) -> Any:
        """Run ``construct`` on ``cast_inputs`` (deprecated, as in MindSpore)."""
        _log.warning(
            f"The 'run_construct' function of '{type(self).__name__}' will be removed in a future version. "
            "Calling this function is not recommended."
        )
        return self._run_construct(*cast_inputs, **(kwargs or {}))

    def compile_and_run(self, *args: Any, **kwargs: Any) -> Any:
        """Compile ``construct`` for these inputs and run it."""
        from ..common._compile import compile_call

        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = self.__dict__["_compiled"] = compile_call(
                self._run_construct, f"{type(self).__name__}.construct"
            )
        self.compile_cache.add(self.__dict__.get("_phase", "train"))
        return compiled(*args, **kwargs)

    def get_func_graph_proto(self) -> bytes:
        """MindSpore's ANF graph of the compiled cell, as bytes. sporax compiles to XLA and keeps no ANF
        graph: this is ``b""`` (``mindspore.export(net, x, file_format="MINDIR")`` gives the graph)."""
        compiled = self.__dict__.get("_compiled")
        text = getattr(compiled, "last_text", None) if compiled is not None else None
        return text().encode() if callable(text) else b""


def _zeros(shape: tuple, dtype: Any) -> Any:
    import numpy as np

    return np.zeros(shape, mstype.to_np(dtype))
