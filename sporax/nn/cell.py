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
from ..common.seed import traced_call
from ..common.tensor import Tensor
from ._cell_hooks import _CellHooksMixin
from ._cell_state import _CellStateMixin

__all__ = ["Cell"]

_log = logging.getLogger("sporax")

_RESERVED = frozenset(("_params", "_cells", "_params_list", "_auto_prefix", "training", "requires_grad"))


class _HookHandle:
    def __init__(self, hooks: OrderedDict, key: int) -> None:
        self._hooks, self._key = hooks, key

    def remove(self) -> None:
        self._hooks.pop(self._key, None)


class Cell(_CellStateMixin, _CellHooksMixin):
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

    def __new__(cls, *args: Any, **kwargs: Any) -> Cell:
        """MindSpore's ``Cell(*args, **kwargs)``: the arguments of a subclass's ``__init__`` are recorded in
        ``Cell.global_cells`` (for lazy inlining) unless ``_no_auto_lazy_inline``."""
        this = object.__new__(cls)
        if not Cell._no_auto_lazy_inline:
            Cell.global_cells[this] = (cls, args, kwargs)
        return this

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None) -> None:
        Cell.total_instance_count += 1
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
        self._init_bookkeeping()

    # ----------------------------------------------------------- registration
    def _require_init(self, what: str) -> None:
        if "_params" not in self.__dict__:
            raise AttributeError(
                f"For '{type(self).__name__}', super().__init__() must be called before assigning {what} "
                "(call it first thing in __init__)."
            )

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, Parameter):
            self._require_init("Parameters")
            self.insert_param_to_cell(name, value, check_name_contain_dot=False)
            return
        if isinstance(value, Cell):
            self._require_init("Cells")
            self._register_cell(name, value)
            return
        if isinstance(value, ParameterTuple):
            self._require_init("a ParameterTuple")
            self.__dict__["_params_list"][name] = value
            object.__setattr__(self, name, value)
            return
        d = self.__dict__
        if name in d.get("_buffers", ()):
            self._set_buffer(name, value)
            return
        if "_params" in d:
            if name in d["_params"]:
                if value is None:
                    del d["_params"][name]
                elif isinstance(value, Tensor):
                    d["_params"][name].set_data(value)
                    return
                else:
                    raise TypeError(
                        f"Parameter '{name}' already exists in network, can not assign this type: "
                        f"'{type(value)}' as a parameter."
                    )
            elif name in d["_cells"]:
                if value is None:
                    del d["_cells"][name]
                else:
                    raise TypeError(
                        f"Sub cell '{name}' already exists in network, can not assign this type: "
                        f"'{type(value)}' as a cell."
                    )
            elif name in d["_params_list"] and not isinstance(value, ParameterTuple):
                del d["_params_list"][name]
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        d["_params"].pop(name, None)
        d["_cells"].pop(name, None)
        d["_params_list"].pop(name, None)
        d.get("_buffers", {}).pop(name, None)
        object.__delattr__(self, name)

    def _register_cell(self, name: str, cell: Cell) -> None:
        """``self.<name> = cell``: MindSpore renames the child's Parameters ``<name>.<structural name>``
        when this cell's ``auto_prefix`` is True, then inserts it (``insert_child_to_cell`` never renames)."""
        self.__dict__["_cells"].pop(name, None)
        self.__dict__.pop(name, None)
        if self._auto_prefix:
            cell.update_parameters_name(name + ".")
        self.insert_child_to_cell(name, cell)

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
        """Register ``child_cell`` under ``child_name``; the names of its Parameters stay as they are."""
        if not isinstance(child_name, str):
            raise TypeError(
                "For 'insert_child_to_cell', the type of parameter 'child_name' must be str, "
                f"but got {type(child_name)}."
            )
        if not child_name or "." in child_name:
            raise KeyError(
                "For 'insert_child_to_cell', the parameter 'child_name' can not be None and can not contain '.' "
            )
        if child_name not in self.__dict__["_cells"] and hasattr(self, child_name):
            raise KeyError(
                f"For 'insert_child_to_cell', the {child_name} child cell already exists in the network."
                "Cannot insert another child cell with the same name."
            )
        if not isinstance(child_cell, Cell) and child_cell is not None:
            raise TypeError(
                "For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' if not None, "
                f"but got type {type(child_cell)}."
            )
        self.__dict__["_cells"][child_name] = child_cell
        object.__setattr__(self, child_name, child_cell)

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
        """The structural name of this cell, set by ``update_cell_prefix`` ("" before)."""
        return self.__dict__.get("_param_prefix", "")

    def update_cell_prefix(self) -> None:
        """Record on every cell below its structural name (read back as ``param_prefix``)."""
        for cell_name, cell in self.cells_and_names():
            cell.__dict__["_param_prefix"] = cell_name

    def update_cell_type(self, cell_type: str) -> None:
        """Tag this cell (``cell_type``), as quantization tools do."""
        self.__dict__["cell_type"] = cell_type

    def get_sub_cell(self, target: str) -> Cell:
        """The cell at the dotted path ``target`` below this one (``""`` is this cell)."""
        if target == "":
            return self
        cell: Any = self
        for item in target.split("."):
            if not hasattr(cell, item):
                raise AttributeError(type(cell).__name__ + " has no attribute `" + item + "`")
            cell = getattr(cell, item)
            if not isinstance(cell, Cell):
                raise AttributeError("`" + item + "` is not an nn.Cell")
        return cell

    def check_names(self) -> None:
        """Raise ValueError when two Parameters below this cell carry the same name."""
        names: set[str] = set()
        for value, param in self.parameters_and_names():
            if param.name in names:
                raise ValueError(
                    f"The value of {value} is {param}, its name '{param.name}' already exists. "
                    "Please set a unique name for the parameter."
                )
            names.add(param.name)

    def check_names_and_refresh_name(self) -> None:
        """When names repeat, rename every Parameter to its structural name, then check again."""
        all_names = [p.name for _, p in self.parameters_and_names()]
        if len(set(all_names)) < len(all_names):
            self.update_parameters_name()
            self.check_names()

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> dict:
        """Materialise every Parameter's data; returns {old Parameter: initialised Parameter}. sporax
        initialises Parameters when they are made, so each maps to itself."""
        return {p: p for _, p in self.parameters_and_names()}

    def set_broadcast_flag(self, mode: bool = True) -> Cell:
        """Flag this cell and those below it for parameter broadcast (``broadcast_flag``)."""
        self.add_flags_recursive(broadcast_flag=mode)
        return self

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

    def parameters_broadcast_dict(self, recurse: bool = True) -> OrderedDict | None:
        """The Parameters a broadcast sends (those not layer-wise parallel), by name; None when empty."""
        out = OrderedDict(
            (p.name, p) for p in self.get_parameters(expand=recurse) if not getattr(p, "layerwise_parallel", False)
        )
        return out or None

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

    @phase.setter
    def phase(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"For 'Cell', the property 'phase' must be string type, but got type {type(value)}.")
        self.__dict__["_phase"] = value

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

    def recompute(
        self,
        *,
        use_reentrant: bool = True,
        output_recompute: bool = False,
        early_stop: bool = True,
        context_fn: Any = None,
        **kwargs: Any,
    ) -> Cell:
        """Recompute this cell's activations in the backward pass instead of storing them."""
        self.__dict__["_recompute"] = True
        state.bump_epoch()
        return self

    def set_inputs(self, *inputs: Any, **kwargs: Any) -> None:
        """Dynamic-shape hints, kept for ``get_inputs``; sporax compiles per input shape."""
        if kwargs and inputs:
            raise ValueError(
                f"For Cell, set_inputs should only set inputs or kwargs(inputs: {inputs}, kwargs: {kwargs})!"
            )
        self.__dict__["_dynamic_shape_inputs"] = inputs if not kwargs else dict(kwargs)

    def get_inputs(self) -> Any:
        return self.__dict__.get("_dynamic_shape_inputs")

    def set_boost(self, boost_type: str) -> Cell:
        """``set_boost("less_bn")`` flags this cell and those below it ``less_bn`` (the only type)."""
        if boost_type not in ("less_bn",):
            raise ValueError(f"For 'set_boost', the argument 'boost_type' must be 'less_bn', but got {boost_type}.")
        self.add_flags_recursive(less_bn=boost_type == "less_bn")
        return self

    @property
    def jit_config_dict(self) -> dict:
        return self.__dict__.get("_jit_config_dict", {})

    def set_jit_config(self, jit_config: Any) -> None:
        """Keep ``jit_config``'s options (``jit_config_dict``); the first setting wins."""
        if self.jit_config_dict:
            _log.warning("For Cell, jit config can only be set once, ignore this setting.")
        else:
            self.__dict__["_jit_config_dict"] = jit_config.jit_config_dict

    def get_scope(self) -> str | None:
        """The scope name ``generate_scope`` gave this cell (None before)."""
        return self.__dict__.get("_scope")

    def generate_scope(self) -> None:
        """Name every cell below ``Default/<attr>-<Class>/...`` (MindSpore's graph scopes)."""

        def walk(cell: Cell, prefix: str) -> Iterator[tuple[str, Cell]]:
            children = [(f"{prefix}/{name}-{type(c).__name__}", c) for name, c in cell.name_cells().items()]
            yield from children  # a cell's children first, then each child's subtree (as MindSpore orders them)
            for scope, child in children:
                yield from walk(child, scope)

        for scope, cell in walk(self, "Default"):
            if cell.__dict__.get("_scope") is None:
                cell.__dict__["_scope"] = scope

    def cast_inputs(self, inputs: Any, dst_type: Any) -> None:
        _log.warning("'cast_inputs' will be deprecated in future versions.")

    def remove_redundant_parameters(self) -> None:
        _log.warning("'remove_redundant_parameters' will be deprecated in future versions.")

    def set_comm_fusion(self, fusion_type: int, recurse: bool = True) -> Cell:
        """Put the gradient all-reduce of every trainable Parameter in fusion group ``fusion_type``."""
        from .. import _checkparam

        _checkparam.check_non_negative_int(fusion_type)
        for param in self.trainable_params(recurse):
            param.comm_fusion = fusion_type
        return self

    def shard(self, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None) -> None:
        """Lay this cell's inputs (and outputs) out as the strategies say in semi-auto parallel; XLA's sharding
        propagation lays out what is inside. ``parameter_plan`` places named Parameters (see
        :mod:`sporax.parallel._shard`)."""
        from ..parallel._shard import shard_cell

        shard_cell(self, in_strategy, out_strategy, parameter_plan)

    def set_data_parallel(self) -> Cell:
        return self

    def compile(self, *args: Any, **kwargs: Any) -> None:
        """Compile ``construct`` for these inputs without running it (GRAPH_MODE warm-up)."""

    # --------------------------------------------------------------- hooks
    def register_forward_pre_hook(
        self, hook_fn: Callable[..., Any], *, prepend: bool = False, with_kwargs: bool = False
    ) -> _HookHandle:
        """``hook_fn(cell, args)`` (``hook_fn(cell, args, kwargs)`` with ``with_kwargs``) runs before
        ``construct``; a result replaces the inputs (``(args, kwargs)`` with ``with_kwargs``). ``prepend``
        runs it before the hooks already registered."""
        return self._add_hook("_forward_pre_hooks", hook_fn, prepend, (with_kwargs, False))

    def register_forward_hook(
        self,
        hook_fn: Callable[..., Any],
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
        always_call: bool = False,
    ) -> _HookHandle:
        """``hook_fn(cell, args, output)`` (``hook_fn(cell, args, kwargs, output)`` with ``with_kwargs``) runs
        after ``construct``; a non-None result replaces the output. With ``always_call`` it also runs (with
        output None) when ``construct`` raised. A cell with a custom ``bprop`` ignores forward hooks (as
        MindSpore does: the handle it returns holds nothing)."""
        if type(self).bprop is not Cell.bprop:
            return _HookHandle(OrderedDict(), 0)
        return self._add_hook("_forward_hooks", hook_fn, prepend, (with_kwargs, always_call))

    def _add_hook(self, table: str, hook_fn: Callable[..., Any], prepend: bool, opts: tuple) -> _HookHandle:
        if not callable(hook_fn):
            raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")
        Cell._hook_counter += 1
        hooks = self.__dict__.setdefault(table, OrderedDict())
        hooks[Cell._hook_counter] = hook_fn
        self.__dict__.setdefault("_hook_opts", {})[Cell._hook_counter] = opts
        if prepend:
            hooks.move_to_end(Cell._hook_counter, last=False)
        return _HookHandle(hooks, Cell._hook_counter)

    def _hook_opts_of(self, key: int) -> tuple:
        return self.__dict__.get("_hook_opts", {}).get(key, (False, False))

    # ---------------------------------------------------------------- calling
    def construct(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"For '{type(self).__name__}', the method 'construct' must be defined.")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if cell_compiles(self._auto_jit):  # the compile rule: sporax/common/_compile.py
            compiled = self.__dict__["_compiled"]
            if compiled is None:
                compiled = self.__dict__["_compiled"] = compile_call(self._run_construct, call_name(self))
            return compiled(*args, **kwargs)
        if state.active():  # traced: its draws are kept for a gradient of this same call (common/seed.py)
            return traced_call(self, self._run_construct, args, kwargs)
        return self._run_construct(*args, **kwargs)

    def _run_construct(self, *args: Any, **kwargs: Any) -> Any:
        if self._wraps_call():  # backward hooks, parameter forward hooks (sporax/nn/_cell_hooks.py)
            return self._run_with_hooks(args, kwargs)
        if self._forward_pre_hooks:
            for key, hook in list(self._forward_pre_hooks.items()):
                if self._hook_opts_of(key)[0]:
                    res = hook(self, args, kwargs)
                    if res is not None:
                        if not (isinstance(res, tuple) and len(res) == 2):
                            raise RuntimeError(
                                "forward pre hook with kwargs must return None or a tuple of (new_args, new_kwargs), "
                                f"but got {res}"
                            )
                        args, kwargs = res
                    continue
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
        try:
            if type(self).bprop is not Cell.bprop and not kwargs:
                out = self._call_with_bprop(args)
            elif self._recompute and not kwargs and all(isinstance(a, Tensor) for a in args):
                out = remat_call(self.construct, args, list(self.get_parameters()))
            else:
                out = self.construct(*args, **kwargs)
        except Exception:
            for key, hook in list(self._forward_hooks.items()):
                with_kwargs, always = self._hook_opts_of(key)
                if always:
                    hook(self, args, kwargs, None) if with_kwargs else hook(self, args, None)
            raise
        if self._forward_hooks:
            for key, hook in list(self._forward_hooks.items()):
                res = hook(self, args, kwargs, out) if self._hook_opts_of(key)[0] else hook(self, args, out)
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
        """MindSpore 2.10's text: ``Name(extra)`` for a leaf with a one-line extra, otherwise the extra
        lines and ``(child): ...`` lines, indented by two, between ``Name(`` and ``)``."""
        extend = self.extend_repr()
        extra_lines = extend.split("\n") if extend else []
        child_lines = []
        for key, cell in self._cells.items():
            child_lines.append(f"({key}): " + _indent(repr(cell), 2))
        lines = extra_lines + child_lines
        text = type(self).__name__ + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __str__(self) -> str:
        return self.__repr__()

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


def _indent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    pad = " " * spaces
    return lines[0] + "\n" + "\n".join(pad + line for line in lines[1:])


def _cast_float(x: Any, dtype: Any) -> Any:
    if isinstance(x, Tensor) and isinstance(x.dtype, mstype.Float) and x.dtype != dtype:
        from .. import ops

        return ops.cast(x, dtype)
    return x
