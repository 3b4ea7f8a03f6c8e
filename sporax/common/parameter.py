"""``Parameter``: a named, mutable Tensor, and ``ParameterTuple``.

A Parameter's value is read and written through the engine's state frames (``_engine.state``): with no
frame open it is the stored array; while a jit trace or a gradient runs it is whatever that frame bound
(a tracer), so the same user code works eagerly, compiled and differentiated. Creating a Parameter,
``Tensor(param)`` and ``asnumpy()`` copy, because a compiled step donates parameter buffers.
"""

from __future__ import annotations

import copy as _copy
import inspect
from typing import Any

import numpy as np

from .. import _checkparam as validator
from .._engine import jnp, state
from . import _tensor_top_methods as _tensor_top
from . import dtype as mstype
from ._parameter_members import ParameterMembers
from .tensor import Tensor, to_array

__all__ = ["Parameter", "ParameterTuple"]

_DEFAULT_NAME = "Parameter"
_BF16 = mstype.bfloat16._np
_thread_state = state.thread_state()


_warned_pipeline_stage: list[bool] = []


class Parameter(Tensor, ParameterMembers):
    """MindSpore's Parameter.

    Args:
        default_input: the initial value: Tensor, numpy.ndarray, a Python number, or a Tensor created with
            ``init`` (an Initializer), which is filled here.
        name: the parameter's name. Default ``None``: the attribute name it is assigned to in a Cell,
            prefixed by the owning cells' names (``mlp.0.weight``).
        requires_grad: whether it is trained. Default ``True``.
        layerwise_parallel: kept for API compatibility.
        parallel_optimizer: kept for API compatibility.
    """

    __slots__ = (
        "_stored",
        "_name",
        "requires_grad",
        "layerwise_parallel",
        "parallel_optimizer",
        "_param_info",
        "__dict__",
    )

    def __init__(self, default_input: Any, *args: Any, **kwargs: Any) -> None:
        # MindSpore's signature is (default_input, *args, **kwargs); the arguments are those of _parameter_args
        bound = _PARAMETER_ARGS.bind(*args, **kwargs)
        bound.apply_defaults()
        name, requires_grad, layerwise_parallel, parallel_optimizer = (
            bound.arguments[k] for k in ("name", "requires_grad", "layerwise_parallel", "parallel_optimizer")
        )
        if isinstance(default_input, (list, tuple)) and not default_input:
            raise ValueError("For 'Parameter', the 'default_input' cannot be an empty list or tuple.")
        self._stored = _fresh_array(default_input)
        if name is not None and not isinstance(name, str):
            raise TypeError(f"For 'Parameter', the 'name' must be a str, but got {type(name).__name__}.")
        self._name = name if name else _DEFAULT_NAME
        if not isinstance(requires_grad, bool):
            raise TypeError(
                f"For 'Parameter', the 'requires_grad' must be a bool, but got {type(requires_grad).__name__}."
            )
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        self._param_info = None
        self._comm_fusion = 1
        self._comm_recompute = False
        self._pipeline_stages: list[int] = []
        if state.active():
            _bind_in_open_frames(self)

    # The value, through the state frames (overrides Tensor's slot).
    @property
    def _data(self) -> Any:
        value = state.read(self)
        if self._param_hooks:  # register_hook: reads pass through the hook point
            value = _tensor_top._hooked(value, self._param_hooks)
        cast = _thread_state.cast
        if cast is not None and value.dtype != cast and (value.dtype.kind == "f" or value.dtype == _BF16):
            return value.astype(cast)
        return value

    @_data.setter
    def _data(self, value: Any) -> None:
        if "_trace_local" in self.__dict__:
            _write_trace_local(self, value)
            return
        state.write(self, value)

    @property
    def _raw(self) -> Any:
        """The value without the ``to_float`` cast (what updates and checkpoints use)."""
        return state.read(self)

    # ---------------------------------------------------------------- naming
    @property
    def name(self) -> str:
        return self._name

    @name.setter
    def name(self, name: str) -> None:
        if not isinstance(name, str):
            raise TypeError(f"For 'Parameter', the 'name' must be a str, but got {type(name).__name__}.")
        if not name:
            raise ValueError("For 'Parameter', the 'name' cannot be empty.")
        self._name = name

    @property
    def data(self) -> Parameter:
        return self

    @property
    def param_info(self) -> Any:
        return self._param_info

    @property
    def inited_param(self) -> None:
        return None

    @property
    def sliced(self) -> bool:
        return False

    @property
    def is_init(self) -> bool:
        return True

    @property
    def unique(self) -> bool:
        return True

    _param_hooks: Any = None
    _trace_local: bool  # set (in __dict__) on a Parameter that is a constant of the trace that made it

    def register_hook(self, hook_fn: Any) -> Any:
        """Call ``hook_fn(grad)`` with this parameter's gradient (a Tensor it returns replaces it); returns a
        handle with ``remove()`` and ``id`` (for ``remove_hook``)."""
        hook = hook_fn
        if not callable(hook):
            raise TypeError(f"Expected a callable hook function, but got {type(hook).__name__}.")
        if self._param_hooks is None:
            self._param_hooks = _tensor_top._HookList()
        self._param_hooks.append(hook)
        state.bump_epoch()  # compiled steps read the parameter through the hook point from now on
        return _tensor_top._TensorHookHandle(self._param_hooks, hook)

    def hooks(self) -> list[Any]:
        return list(self._param_hooks or ())

    # ---------------------------------------------------------------- MindSpore's parallel/cache settings
    # Recorded with MindSpore's defaults; XLA's data-parallel step fuses gradients itself and keeps no
    # host-side embedding cache, so they do not change what runs.
    @property
    def key(self) -> int:
        """The parameter-server key (-1: not a parameter-server parameter)."""
        return -1

    @property
    def comm_fusion(self) -> int:
        """The fusion group of this parameter's gradient all-reduce (MindSpore's default 1)."""
        return self._comm_fusion

    @comm_fusion.setter
    def comm_fusion(self, comm_fusion_: int) -> None:
        validator.check_int_at_least(comm_fusion_, 0, "comm_fusion", "Parameter", quote=True)
        self._comm_fusion = comm_fusion_

    @property
    def parallel_optimizer_comm_recompute(self) -> bool:
        return self._comm_recompute

    @parallel_optimizer_comm_recompute.setter
    def parallel_optimizer_comm_recompute(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(
                f"For 'Parameter', the 'parallel_optimizer_comm_recompute' must be a bool, but got "
                f"{type(value).__name__}."
            )
        self._comm_recompute = value

    @property
    def cache_enable(self) -> bool:
        return False

    @property
    def cache_shape(self) -> list[int]:
        return []

    def add_pipeline_stage(*args: Any, **kwargs: Any) -> None:  # noqa: N805  (MindSpore's: a log-once wrapper)
        """``param.add_pipeline_stage(stage)``: record a pipeline stage that uses this parameter (warns once
        that the interface may go, as MindSpore does)."""
        self, stage = args[0], (args[1] if len(args) > 1 else kwargs.get("stage"))
        if not _warned_pipeline_stage:
            _warned_pipeline_stage.append(True)
            import logging

            logging.getLogger("sporax").warning("This interface may be deleted in the future.")
        if not isinstance(stage, int) or stage < 0:
            raise TypeError("`stage` must be a positive number of int type")
        self._pipeline_stages.append(stage)

    def requires_grad_(self, requires_grad: bool = True) -> Parameter:
        """Set ``requires_grad`` and return the parameter."""
        if not isinstance(requires_grad, bool):
            raise TypeError(
                f"For 'Parameter', the 'requires_grad' must be a bool, but got {type(requires_grad).__name__}."
            )
        self.requires_grad = requires_grad
        return self

    # ---------------------------------------------------------------- value
    def set_data(self, data: Any, slice_shape: bool = False) -> Parameter:
        """Replace the value. The new value must have the same shape unless ``slice_shape`` is True; it is
        cast to this parameter's dtype (MindSpore casts too)."""
        new = to_array(data)
        if tuple(new.shape) != self.shape and not slice_shape:
            raise ValueError(
                f"For 'Parameter.set_data', the shape of the new data must be {self.shape}, "
                f"but got {tuple(new.shape)} (parameter '{self.name}')."
            )
        raw = self._raw
        if new.dtype != raw.dtype:
            if not isinstance(data, (Tensor, np.ndarray)) or _can_cast(new.dtype, raw.dtype):
                new = new.astype(raw.dtype)
            else:
                raise TypeError(
                    f"For 'Parameter.set_data', the dtype of the new data must be {self.dtype}, but got "
                    f"{mstype.from_np(new.dtype)} (parameter '{self.name}')."
                )
        if not state.active():
            new = jnp.array(new, copy=True)
        self._data = new
        return self

    def assign_value(self, value: Any) -> Parameter:
        return self.set_data(value)

    def value(self) -> Tensor:
        return Tensor._from_data(self._data) if state.active() else self.copy()

    def init_data(self, layout: Any = None, set_sliced: bool = False) -> Parameter:
        return self

    def set_param_ps(self, init_in_server: bool = False) -> None:
        pass

    def clone(self, init: Any = "same") -> Parameter:
        """A new Parameter with the same name, flags and (for ``init='same'``) value; ``init`` may be an
        initializer name or Initializer to fill it anew."""
        if isinstance(init, str) and init == "same":
            value: Any = self.copy()
        else:
            from .initializer import initializer

            value = initializer(init, self.shape, self.dtype)
        p = Parameter(value, self.name, self.requires_grad, self.layerwise_parallel, self.parallel_optimizer)
        return p

    def copy(self) -> Tensor:
        return Tensor._from_data(jnp.array(self._data, copy=True))

    def __copy__(self) -> Parameter:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> Parameter:
        return self.clone()

    def __reduce__(self):
        return (_rebuild_parameter, (np.asarray(self._stored), self.name, self.requires_grad))

    def __repr__(self) -> str:
        return (
            f"Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, requires_grad={self.requires_grad})"
        )

    def __str__(self) -> str:
        return self.__repr__()

    def __bool__(self) -> bool:
        return Tensor.__bool__(self)


def _bind_in_open_frames(param: Parameter) -> None:
    """A Parameter created while a function is traced (a Cell built inside ``@jit`` or ``construct``) is a
    constant of that trace, as in MindSpore's graph mode: its value is bound in every open state frame, so the
    trace reads it there instead of finding new implicit state on each trace."""
    param._trace_local = True
    state.bind_in_open_frames(param, param._stored)


def _write_trace_local(param: Parameter, value: Any) -> None:
    """A write to a trace-local Parameter (BatchNorm statistics of a BatchNorm built inside ``@jit``) stays in
    the innermost frame, unrecorded: it is not state of the compiled function, so it is neither an output nor
    a reason to retrace. With no frame open (the trace is over), the value is stored."""
    if not state.write_unrecorded(param, value):
        param._stored = value


def _parameter_args(
    name: str | None = None,
    requires_grad: bool = True,
    layerwise_parallel: bool = False,
    parallel_optimizer: bool = True,
    storage_format: str = "",
    device: Any = None,
) -> None:
    """The arguments ``Parameter(default_input, ...)`` takes after ``default_input``."""


_PARAMETER_ARGS = inspect.signature(_parameter_args)


def _rebuild_parameter(value: np.ndarray, name: str, requires_grad: bool) -> Parameter:
    return Parameter(Tensor(value), name, requires_grad)


def _can_cast(src: Any, dst: Any) -> bool:
    # float <- float, int <- int/bool: allowed (MindSpore converts); float -> int is refused.
    s, d = np.dtype(src), np.dtype(dst)
    if d.kind == "f" or d.kind == "V":
        return s.kind in "biufV"
    if d.kind in "iu":
        return s.kind in "biu"
    return s.kind == d.kind


def _fresh_array(default_input: Any) -> Any:
    if isinstance(default_input, Parameter):
        return jnp.array(default_input._data, copy=True)
    if isinstance(default_input, Tensor):
        return jnp.array(default_input._data, copy=True)
    a = to_array(default_input)
    return jnp.array(a, copy=True)


class ParameterTuple(tuple):
    """An immutable tuple of Parameters (what ``optimizer.parameters`` is)."""

    def __new__(cls, iterable: Any) -> ParameterTuple:
        data = tuple(iterable)
        ids = set()
        for x in data:
            if not isinstance(x, Parameter):
                raise TypeError(f"For 'ParameterTuple', every element must be a Parameter, but got {type(x).__name__}.")
            if id(x) in ids:
                continue
            ids.add(id(x))
        return tuple.__new__(cls, data)

    def clone(self, prefix: str, init: Any = "same") -> ParameterTuple:
        """New Parameters named ``prefix + '.' + name`` (optimizer moments), filled per ``init``."""
        if not isinstance(prefix, str) or not prefix:
            raise ValueError("For 'ParameterTuple.clone', the 'prefix' must be a non-empty str.")
        out = []
        for p in self:
            c = p.clone(init)
            c.name = prefix + "." + p.name
            out.append(c)
        return ParameterTuple(out)

    def __copy__(self) -> ParameterTuple:
        return self

    def __deepcopy__(self, memo: dict) -> ParameterTuple:
        return ParameterTuple(_copy.deepcopy(p, memo) for p in self)
