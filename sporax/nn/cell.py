"""``Cell``: MindSpore's module base class.

Attributes that are Parameters or Cells register themselves (in definition order). Parameter names are
hierarchical as in MindSpore: a Parameter takes its attribute name, and when a Cell is assigned into a
parent whose ``auto_prefix`` is True, every Parameter below it is renamed ``<attr>.<structural name>``
(``mlp.0.weight``). Wrapper cells (TrainOneStepCell, WithLossCell, optimizers) use
``auto_prefix=False`` so the network's names stay unchanged.

Calling a Cell runs ``construct``. In GRAPH_MODE, a top-level call (no trace running) compiles
``construct`` once per input signature with its implicit state (see ``_engine._jit``); calls made while
a trace runs are inlined. Cells with ``_auto_jit = True`` compile in PyNative too: optimizers (as
MindSpore's ``@jit``-decorated optimizer ``construct``) and train-step cells (``TrainOneStepCell`` and its
subclasses, as ``Model.train`` runs them), so that one training step computes the same bits in both
modes. In PyNative a cell that cannot be compiled runs eagerly, with an info log line, not a warning.
"""

from __future__ import annotations

import inspect
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .._engine import StatefulJit, custom_vjp_call, remat_call, state
from ..common import dtype as mstype
from ..common._compile import call_name, cell_compiles, compile_call
from ..common.parameter import Parameter, ParameterTuple
from ..common.tensor import Tensor

__all__ = ["Cell", "GraphCell"]

_log = logging.getLogger("sporax")

_RESERVED = frozenset(("_params", "_cells", "_params_list", "_auto_prefix", "training", "requires_grad"))


class _HookHandle:
    def __init__(self, hooks: OrderedDict, key: int) -> None:
        self._hooks, self._key = hooks, key

    def remove(self) -> None:
        self._hooks.pop(self._key, None)


class Cell:
    """Base class of all networks and layers.

    Args:
        auto_prefix: prefix the names of Parameters of Cells assigned to this one with the attribute
            name. Default True.
        flags: Cell flags (``add_flags``).
    """

    _auto_jit = False  # compile in PyNative too (optimizers, train-step cells)
    _hook_counter = 0

    if TYPE_CHECKING:  # set through __dict__ in __init__ (bypassing __setattr__'s registration)
        _params: OrderedDict[str, Parameter | None]
        _cells: OrderedDict[str, Cell | None]
        _params_list: OrderedDict[str, ParameterTuple]
        _auto_prefix: bool
        training: bool
        requires_grad: bool
        _mixed_dtype: Any
        _flags: dict[str, Any]
        _compiled: StatefulJit | None
        _forward_pre_hooks: OrderedDict[int, Callable[..., Any]]
        _forward_hooks: OrderedDict[int, Callable[..., Any]]
        _recompute: bool
        _phase: str

        def __getattr__(self, name: str) -> Any: ...

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None) -> None:
        d = self.__dict__
        d["_params"] = OrderedDict()
        d["_cells"] = OrderedDict()
        d["_params_list"] = OrderedDict()
        d["_auto_prefix"] = auto_prefix
        d["training"] = False
        d["requires_grad"] = False
        d["_mixed_dtype"] = None
        d["_flags"] = dict(flags or {})
        d["_compiled"] = None
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_hooks"] = OrderedDict()
        d["_recompute"] = False
        d["_phase"] = "train"

    # ----------------------------------------------------------- registration
    def _check_init(self, what: str) -> None:
        if "_params" not in self.__dict__:
            raise AttributeError(
                f"For '{type(self).__name__}', super().__init__() must be called before assigning {what} "
                "(call it first thing in __init__)."
            )

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, Parameter):
            self._check_init("Parameters")
            self.insert_param_to_cell(name, value, check_name_contain_dot=False)
            return
        if isinstance(value, Cell):
            self._check_init("Cells")
            self._register_cell(name, value)
            return
        if isinstance(value, ParameterTuple):
            self._check_init("a ParameterTuple")
            self.__dict__["_params_list"][name] = value
            object.__setattr__(self, name, value)
            return
        d = self.__dict__
        if "_params" in d:
            if name in d["_params"]:
                if value is None:
                    del d["_params"][name]
                elif isinstance(value, Tensor):
                    d["_params"][name].set_data(value)
                    return
                else:
                    raise TypeError(
                        f"For '{type(self).__name__}', the attribute '{name}' is a Parameter and cannot be "
                        f"replaced by a {type(value).__name__}."
                    )
            elif name in d["_cells"]:
                if value is None:
                    del d["_cells"][name]
                else:
                    raise TypeError(
                        f"For '{type(self).__name__}', the attribute '{name}' is a Cell and cannot be replaced by "
                        f"a {type(value).__name__}."
                    )
            elif name in d["_params_list"] and not isinstance(value, ParameterTuple):
                del d["_params_list"][name]
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        d["_params"].pop(name, None)
        d["_cells"].pop(name, None)
        d["_params_list"].pop(name, None)
        object.__delattr__(self, name)

    def _register_cell(self, name: str, cell: Cell) -> None:
        if self._auto_prefix:
            cell.update_parameters_name(name + ".")
        self.__dict__["_cells"][name] = cell
        object.__setattr__(self, name, cell)

    def insert_param_to_cell(self, param_name: str, param: Parameter, check_name_contain_dot: bool = True) -> None:
        """Register ``param`` under ``param_name`` (its name too, if it has the default one)."""
        if not isinstance(param_name, str) or not param_name:
            raise KeyError(
                f"For 'insert_param_to_cell', the 'param_name' must be a non-empty str, but got {param_name!r}."
            )
        if check_name_contain_dot and "." in param_name:
            raise KeyError(
                f"For 'insert_param_to_cell', the 'param_name' must not contain '.', but got '{param_name}'."
            )
        if not isinstance(param, Parameter) and param is not None:
            raise TypeError(
                f"For 'insert_param_to_cell', the 'param' must be a Parameter, but got {type(param).__name__}."
            )
        if param_name in self.__dict__["_cells"]:
            raise KeyError(f"For 'insert_param_to_cell', the name '{param_name}' is already used by a Cell.")
        if param is not None and param.name == "Parameter":
            param.name = param_name
        self.__dict__["_params"][param_name] = param
        object.__setattr__(self, param_name, param)

    def insert_child_to_cell(self, child_name: str, child_cell: Cell) -> None:
        """Register ``child_cell`` under ``child_name``."""
        if not isinstance(child_name, str) or "." in child_name or not child_name:
            raise KeyError(
                f"For 'insert_child_to_cell', the 'child_name' must be a non-empty str without '.', but got {child_name!r}."
            )
        if child_name in self.__dict__["_params"]:
            raise KeyError(f"For 'insert_child_to_cell', the name '{child_name}' is already used by a Parameter.")
        if not isinstance(child_cell, Cell) and child_cell is not None:
            raise TypeError(
                f"For 'insert_child_to_cell', the 'child_cell' must be a Cell, but got {type(child_cell).__name__}."
            )
        self._register_cell(child_name, child_cell)

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Rename every Parameter below this Cell to ``prefix + <structural name>``."""
        if not isinstance(prefix, str):
            raise TypeError(
                f"For 'update_parameters_name', the 'prefix' must be a str, but got {type(prefix).__name__}."
            )
        for name, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + name

    # --------------------------------------------------------------- queries
    @property
    def cls_name(self) -> str:
        return type(self).__name__

    @property
    def param_prefix(self) -> str:
        return ""

    @property
    def auto_prefix(self) -> bool:
        return self._auto_prefix

    def cells_and_names(self, cells: set | None = None, name_prefix: str = "") -> Iterator[tuple[str, Cell]]:
        """(structural name, cell) for this cell and every cell below it, each once."""
        seen = cells if cells is not None else set()
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is None:
                continue
            yield from cell.cells_and_names(seen, f"{name_prefix}.{name}" if name_prefix else name)

    def name_cells(self) -> OrderedDict:
        """Direct child cells by attribute name."""
        return OrderedDict((k, v) for k, v in self._cells.items() if v is not None)

    def cells(self) -> Iterator[Cell]:
        return iter(self.name_cells().values())

    def parameters_and_names(self, name_prefix: str = "", expand: bool = True) -> Iterator[tuple[str, Parameter]]:
        """(structural name, parameter) for each Parameter below, each once."""
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        seen: set[int] = set()
        for cell_name, cell in cells:
            for pname, p in cell._params.items():
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    yield (f"{cell_name}.{pname}" if cell_name else pname), p
            for _tname, tup in cell._params_list.items():
                for p in tup:
                    if id(p) not in seen:
                        seen.add(id(p))
                        yield p.name, p

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse: bool = True) -> list[Parameter]:
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list[Parameter]:
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> OrderedDict:
        """Parameters keyed by their names (what checkpoints use)."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def parameters_broadcast_dict(self, recurse: bool = True) -> OrderedDict:
        return self.parameters_dict(recurse)

    # ----------------------------------------------------------------- flags
    def set_train(self, mode: bool = True) -> Cell:
        """Training (True) or inference (False) behaviour for this cell and all below it."""
        for _, cell in self.cells_and_names():
            cell.__dict__["training"] = bool(mode)
            cell.__dict__["_phase"] = "train" if mode else "predict"
            state.set_training(cell, bool(mode))
        return self

    @property
    def phase(self) -> str:
        return self._phase

    def set_grad(self, requires_grad: bool = True) -> Cell:
        self.__dict__["requires_grad"] = bool(requires_grad)
        return self

    def add_flags(self, **flags: Any) -> Cell:
        """Set flags; each is also readable as an attribute (``net.add_flags(sink_mode=True); net.sink_mode``)."""
        self._flags.update(flags)
        self.__dict__.update(flags)
        return self

    def add_flags_recursive(self, **flags: Any) -> Cell:
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self

    def get_flags(self) -> dict:
        return self._flags

    def to_float(self, dst_type: Any) -> Cell:
        """Run this cell and those below it in ``dst_type`` (float16, bfloat16 or float32): floating
        inputs are cast at each cell's call."""
        if dst_type not in (mstype.float16, mstype.float32, mstype.bfloat16):
            raise ValueError(
                f"For 'to_float', the 'dst_type' must be float16, bfloat16 or float32, but got {dst_type}."
            )
        for _, cell in self.cells_and_names():
            cell.__dict__["_mixed_dtype"] = dst_type
        state.bump_epoch()
        return self

    def apply(self, fn: Callable[[Cell], Any]) -> Cell:
        """Call ``fn`` on every cell below this one, then on this one."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    def recompute(self, **kwargs: Any) -> Cell:
        """Recompute this cell's activations in the backward pass instead of storing them."""
        self.__dict__["_recompute"] = True
        state.bump_epoch()
        return self

    def set_inputs(self, *inputs: Any, **kwargs: Any) -> None:
        """Dynamic-shape hints: accepted; sporax compiles per input shape."""

    def get_inputs(self) -> None:
        return None

    def set_boost(self, boost_type: Any) -> Cell:
        return self

    def set_comm_fusion(self, fusion_type: int, recurse: bool = True) -> Cell:
        return self

    def shard(self, *args: Any, **kwargs: Any) -> Cell:
        return self

    def set_data_parallel(self) -> Cell:
        return self

    def compile(self, *args: Any, **kwargs: Any) -> None:
        """Compile ``construct`` for these inputs without running it (GRAPH_MODE warm-up)."""

    # --------------------------------------------------------------- hooks
    def register_forward_pre_hook(self, hook_fn: Callable[..., Any]) -> _HookHandle:
        """``hook_fn(cell, inputs)`` runs before ``construct``; returning a tuple replaces the inputs."""
        Cell._hook_counter += 1
        self._forward_pre_hooks[Cell._hook_counter] = hook_fn
        return _HookHandle(self._forward_pre_hooks, Cell._hook_counter)

    def register_forward_hook(self, hook_fn: Callable[..., Any]) -> _HookHandle:
        """``hook_fn(cell, inputs, output)`` runs after ``construct``; a non-None result replaces the output."""
        Cell._hook_counter += 1
        self._forward_hooks[Cell._hook_counter] = hook_fn
        return _HookHandle(self._forward_hooks, Cell._hook_counter)

    # ---------------------------------------------------------------- calling
    def construct(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"For '{type(self).__name__}', the method 'construct' must be defined.")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if cell_compiles(self._auto_jit):  # the compile rule: sporax/common/_compile.py
            compiled = self.__dict__["_compiled"]
            if compiled is None:
                compiled = self.__dict__["_compiled"] = compile_call(self._run_construct, call_name(self))
            return compiled(*args, **kwargs)
        return self._run_construct(*args, **kwargs)

    def _run_construct(self, *args: Any, **kwargs: Any) -> Any:
        if self._forward_pre_hooks:
            for hook in list(self._forward_pre_hooks.values()):
                res = hook(self, args)
                if res is not None:
                    args = res if isinstance(res, tuple) else (res,)
        mixed = self._mixed_dtype
        if mixed is None:
            return self._run_body(args, kwargs)
        # to_float: float inputs and float Parameters are used in `mixed` inside this cell
        args = tuple(_cast_float(a, mixed) for a in args)
        prev = state.set_cast_dtype(mstype.to_np(mixed))
        try:
            return self._run_body(args, kwargs)
        finally:
            state.set_cast_dtype(prev)

    def _run_body(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if type(self).bprop is not Cell.bprop and not kwargs:
            out = self._call_with_bprop(args)
        elif self._recompute and not kwargs and all(isinstance(a, Tensor) for a in args):
            out = remat_call(self.construct, args, list(self.get_parameters()))
        else:
            out = self.construct(*args, **kwargs)
        if self._forward_hooks:
            for hook in list(self._forward_hooks.values()):
                res = hook(self, args, out)
                if res is not None:
                    out = res
        return out

    def bprop(self, *args: Any) -> Any:  # overridden by cells with a custom backward
        raise NotImplementedError

    def _call_with_bprop(self, args: tuple[Any, ...]) -> Any:
        """``construct`` forward, the user's ``bprop(*inputs, out, dout)`` backward."""
        n = len(args)

        def backward(a: tuple[Any, ...], out: Any, dout: Any) -> Any:
            return self.bprop(*a, out, dout)

        params = [p for p in self.get_parameters()]
        tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if len(tensor_pos) != n:
            return self.construct(*args)
        return custom_vjp_call(self.construct, backward, args, params)

    # ------------------------------------------------------------------ repr
    def extend_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        extra = self.extend_repr()
        info = type(self).__name__ + "<"
        if self._cells:
            sub = "\n"
            if extra:
                sub += f"{extra}\n"
            for key, value in self._cells.items():
                sub += f"({key}): {value!r}\n"
            info += sub.replace("\n", "\n  ") + ">"
        else:
            info += extra + ">"
        return info

    def __getstate__(self) -> dict:
        d = dict(self.__dict__)
        d["_compiled"] = None
        return d

    def __setstate__(self, d: dict) -> None:
        self.__dict__.update(d)

    def __deepcopy__(self, memo: dict) -> Cell:
        import copy

        new = object.__new__(type(self))
        memo[id(self)] = new
        for k, v in self.__dict__.items():
            new.__dict__[k] = None if k == "_compiled" else copy.deepcopy(v, memo)
        return new

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()))

    @staticmethod
    def _construct_signature(cell: Cell) -> inspect.Signature:
        return inspect.signature(cell.construct)


def _cast_float(x: Any, dtype: Any) -> Any:
    if isinstance(x, Tensor) and isinstance(x.dtype, mstype.Float) and x.dtype != dtype:
        from .. import ops

        return ops.cast(x, dtype)
    return x


class GraphCell(Cell):
    """A Cell around a function (MindSpore loads exported graphs as GraphCell); here it wraps any
    callable taking and returning Tensors."""

    def __init__(self, graph: Callable[..., Any], params_init: dict | None = None, obf_random_seed: Any = None) -> None:
        super().__init__()
        if not callable(graph):
            raise TypeError(f"For 'GraphCell', the 'graph' must be callable, but got {type(graph).__name__}.")
        self.__dict__["_graph"] = graph

    def construct(self, *inputs: Any) -> Any:
        return self._graph(*inputs)
