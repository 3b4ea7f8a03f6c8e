"""``vmap``: MindSpore's vectorizing map, on ``jax.vmap``.

``fn`` is a function, a Cell (its Parameters are shared by every mapped element, not mapped) or a
``CellList`` of cells with one structure (model ensembling: the cells' Parameters are stacked along a new
axis 0 and each cell runs on its slice of the inputs). ``in_axes`` / ``out_axes`` follow MindSpore: an int
for every argument / output, or a tuple or list with one entry per argument / output, entries an int,
None or (for a tuple or list argument) a nested tuple or list; negative axes count from the end. They are
checked here with MindSpore's messages, so no JAX error reaches the user.

State: Parameters read inside ``fn`` are the caller's values (not mapped). A Parameter that ``fn`` writes
with a value that is the same for every mapped element (the random state advanced by dropout) is
written back; one whose new value differs per element (BatchNorm statistics in training) is an error,
except for a CellList's own Parameters: each cell gets its slice.

Called with no trace running (PyNative), a vmapped function compiles itself per input signature, as
MindSpore's does (and as gradient functions do): Python control flow on tensor values inside ``fn`` is
then rewritten (``docs/graph_mode.md``). If ``fn`` cannot be traced even so, it runs as a Python loop
over the mapped axis, said once in a log line. Inside a trace (``jit``, GRAPH_MODE, a gradient, another
``vmap``) it is inlined.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import StatefulJit, jax, jnp, state
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ._grad import _cache, _fn_key, _name

__all__ = ["vmap"]

_log = logging.getLogger("sporax")


def _mro_names(obj: Any) -> set[str]:
    return {c.__name__ for c in type(obj).__mro__}


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _is_array(x: Any) -> bool:
    return isinstance(x, (Tensor, np.ndarray, jax.Array, jax.core.Tracer))


class _Axis:
    """One leaf's axis in a fully expanded spec (a wrapper: None is no pytree leaf)."""

    __slots__ = ("axis",)

    def __init__(self, axis: int | None) -> None:
        self.axis = axis


def _is_axis(x: Any) -> bool:
    return isinstance(x, _Axis)


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


# ------------------------------------------------------------------------------ the specs
def _freeze(spec: Any) -> Any:
    if isinstance(spec, (tuple, list)):
        return (type(spec).__name__, *(_freeze(s) for s in spec))
    if isinstance(spec, dict):
        return ("dict", *sorted((repr(k), _freeze(v)) for k, v in spec.items()))
    return None if spec is None else int(spec)


def _expand(x: Any, spec: Any, what: str, where: str) -> Any:
    """``x`` with every leaf replaced by its ``_Axis`` under ``spec`` (a prefix of ``x``)."""
    if spec is None or _is_int(spec):
        ax = _Axis(None if spec is None else int(spec))
        return jax.tree_util.tree_map(lambda _: ax, x, is_leaf=_is_tensor)
    if isinstance(spec, (tuple, list)):
        if not isinstance(x, (tuple, list)):
            raise RuntimeError(
                f"For 'vmap', the axis in '{what}' for {where} (a {type(x).__name__}) should be None or an int, "
                f"but got {spec!r}."
            )
        if len(spec) != len(x):
            raise RuntimeError(
                f"For 'vmap', the '{what}' {spec!r} for {where} should have as many elements as it: {len(x)}, "
                f"but got size: {len(spec)}."
            )
        kids = [_expand(e, s, what, f"{where}[{i}]") for i, (e, s) in enumerate(zip(x, spec, strict=True))]
        if isinstance(x, list):
            return kids
        return type(x)(*kids) if hasattr(x, "_fields") else type(x)(kids)
    if not isinstance(x, dict) or set(x) != set(spec):
        keys = sorted(map(repr, x)) if isinstance(x, dict) else type(x).__name__
        raise RuntimeError(f"For 'vmap', the '{what}' {spec!r} for {where} should have the same keys as it ({keys}).")
    return type(x)((k, _expand(v, spec[k], what, f"{where}[{k!r}]")) for k, v in x.items())


def _bounds(axis: int, ndim: int, what: str) -> int:
    if not -ndim <= axis < ndim:
        raise RuntimeError(
            f"For 'vmap', the axis: {axis} in '{what}' is out of bounds for array of dimension [{-ndim},{ndim})."
        )
    return axis % ndim


# ------------------------------------------------------------------------------ the inputs
class _Inputs:
    """The call's arguments as leaves: arrays to pass through jax.vmap (with their axes), the rest static."""

    def __init__(self, args: tuple[Any, ...], kwargs: dict[str, Any], in_axes: Any, n_cells: int) -> None:
        if isinstance(in_axes, (tuple, list)):
            if len(in_axes) != len(args):
                raise RuntimeError(
                    "For 'vmap', when 'in_axes' is a tuple or list, its size must be equal to the number of "
                    f"arguments of 'fn': {len(args)}, but got size: {len(in_axes)}."
                )
            specs = list(in_axes)
        else:
            specs = [in_axes] * len(args)
        full = tuple(
            _expand(a, s, "in_axes", f"argument {i}") for i, (a, s) in enumerate(zip(args, specs, strict=True))
        )
        leaves, self.treedef = jax.tree_util.tree_flatten(args, is_leaf=_is_tensor)
        axes = [a.axis for a in jax.tree_util.tree_leaves(full, is_leaf=_is_axis)]
        self.leaves: list[Any] = list(leaves)
        self.dyn: list[int] = []  # positions of the leaves that go through jax.vmap
        self.values: list[Any] = []
        self.axes: list[int | None] = []
        size: int | None = None
        for k, (leaf, ax) in enumerate(zip(leaves, axes, strict=True)):
            if ax is None and (isinstance(leaf, Parameter) or not _is_array(leaf)):
                continue  # passed as is: a Parameter keeps its identity (reads and writes go through state)
            if not _is_array(leaf):
                raise RuntimeError(
                    f"For 'vmap', an input of type {type(leaf).__name__} is not a Tensor, so its axis in 'in_axes' "
                    f"must be None, but got {ax}. Please check the correspondence between 'in_axes' and the inputs."
                )
            value = leaf._data if isinstance(leaf, Tensor) else jnp.asarray(leaf)
            if ax is not None:
                ax = _bounds(ax, value.ndim, "in_axes")
                n = value.shape[ax]
                if size is None:
                    size = n
                elif n != size:
                    raise RuntimeError(
                        "For 'vmap', the 'axis_size' of each argument in the scope of 'vmap' should be equal, "
                        f"but got {size} and {n}."
                    )
            self.dyn.append(k)
            self.values.append(value)
            self.axes.append(ax)
            self.leaves[k] = None
        if n_cells:
            if size is not None and size != n_cells:
                raise ValueError(
                    "For 'vmap', if you want to execute the model ensembling parallel training, please make sure "
                    "the 'axis_size' in the scope of vmap consistent with the cell size of the input 'CellList', "
                    "otherwise, please do not enter 'CellList' as the first argument, but we get axis_size: "
                    f"{size} and the cell size: {n_cells}."
                )
            size = n_cells
        if size is None:
            raise RuntimeError(
                "For 'vmap', failed to get 'axis_size' within the scope of vmap: no Tensor input is mapped "
                "(give one a non-None axis in 'in_axes')."
            )
        self.size = size
        for key, v in kwargs.items():
            if any(_is_array(x) for x in jax.tree_util.tree_leaves(v, is_leaf=_is_tensor)):
                raise RuntimeError(
                    f"For 'vmap', keyword arguments are not mapped, but '{key}' holds a Tensor: pass it positionally "
                    "and give its axis in 'in_axes'."
                )
        self.kwargs = kwargs

    def args(self, values: list[Any]) -> tuple[Any, ...]:
        leaves = list(self.leaves)
        for k, v in zip(self.dyn, values, strict=True):
            leaves[k] = Tensor._from_data(v)
        return jax.tree_util.tree_unflatten(self.treedef, leaves)


# ------------------------------------------------------------------------------ the outputs
class _Outputs:
    """``fn``'s output split by ``out_axes``: mapped arrays (with their axes), unmapped arrays, constants."""

    def __init__(self, out: Any, out_axes: Any) -> None:
        spec = out_axes
        if isinstance(spec, (tuple, list)):
            n = len(out) if isinstance(out, (tuple, list)) else 1
            if n != len(spec):
                raise RuntimeError(
                    "For 'vmap', the size of 'out_axes' should be equal to the number of results of 'fn': "
                    f"{n}, but got size: {len(spec)}."
                )
            if not isinstance(out, (tuple, list)):
                spec = spec[0]
        if any(x is None for x in jax.tree_util.tree_leaves(out, is_leaf=lambda v: v is None or _is_tensor(v))):
            raise RuntimeError("For 'vmap', the outputs of 'fn' should consist of tensors or constants, but got None.")
        full = _expand(out, spec, "out_axes", "the output")
        leaves, self.treedef = jax.tree_util.tree_flatten(out, is_leaf=_is_tensor)
        axes = [a.axis for a in jax.tree_util.tree_leaves(full, is_leaf=_is_axis)]
        self.leaves: list[Any] = list(leaves)
        self.mapped: list[Any] = []
        self.mapped_at: list[tuple[int, int]] = []  # (leaf position, axis)
        self.unmapped: list[Any] = []
        self.unmapped_at: list[int] = []
        for k, (leaf, ax) in enumerate(zip(leaves, axes, strict=True)):
            if _is_array(leaf):
                value = leaf._data if isinstance(leaf, Tensor) else jnp.asarray(leaf)
            elif isinstance(leaf, (bool, int, float, np.number, np.bool_)):
                if ax is None:
                    continue  # a constant stays as it is
                value = jnp.asarray(leaf, _CONST_DTYPE.get(type(leaf), np.asarray(leaf).dtype))
            else:
                raise RuntimeError(
                    "For 'vmap', the outputs of 'fn' should consist of tensors or constants, "
                    f"but got {type(leaf).__name__}."
                )
            self.leaves[k] = None
            if ax is None:
                self.unmapped.append(value)
                self.unmapped_at.append(k)
            else:
                self.mapped.append(value)
                self.mapped_at.append((k, _bounds(ax, value.ndim + 1, "out_axes")))

    def assemble(self, mapped: list[Any], unmapped: list[Any]) -> Any:
        leaves = list(self.leaves)
        for (k, ax), v in zip(self.mapped_at, mapped, strict=True):
            leaves[k] = Tensor._from_data(jnp.moveaxis(v, 0, ax) if ax else v)
        for k, v in zip(self.unmapped_at, unmapped, strict=True):
            leaves[k] = Tensor._from_data(v)
        return jax.tree_util.tree_unflatten(self.treedef, leaves)


_CONST_DTYPE = {bool: np.dtype(bool), int: np.dtype(np.int64), float: np.dtype(np.float32)}


# ------------------------------------------------------------------------------ CellList
def _cell_columns(cells: list[Any]) -> list[list[Parameter]]:
    """The cells' Parameters by position (column j: parameter j of every cell), after checking that the
    cells have one structure."""
    if len(cells) < 2:
        raise RuntimeError(
            "For 'vmap', in the model ensembling scenario ('fn' is a 'CellList'), the size of the 'CellList' "
            f"must be greater than 1, but got {len(cells)}."
        )
    kinds0 = [(n, type(c)) for n, c in cells[0].cells_and_names()]
    params0 = list(cells[0].parameters_and_names())
    columns: list[list[Parameter]] = [[p] for _, p in params0]
    for i, cell in enumerate(cells[1:], 1):
        kinds = [(n, type(c)) for n, c in cell.cells_and_names()]
        if kinds != kinds0:
            diff = next(((a, b) for a, b in zip(kinds0, kinds, strict=False) if a != b), None)
            if diff is None:
                what = f"cell 0 has {len(kinds0)} cells inside and cell {i} has {len(kinds)}"
            elif not diff[0][0]:
                what = f"cell 0 is {diff[0][1].__name__} and cell {i} is {diff[1][1].__name__}"
            else:
                what = f"'{diff[0][0]}' is {diff[0][1].__name__} in cell 0 and '{diff[1][0]}' is {diff[1][1].__name__} in cell {i}"
            raise RuntimeError(f"For 'vmap', the cells of a 'CellList' should have the same structure, but {what}.")
        params = list(cell.parameters_and_names())
        if len(params) != len(params0):
            raise ValueError(
                "For 'vmap', the parameter size of each cell should be consistent, "
                f"but got {len(params0)} and {len(params)}."
            )
        for j, ((n0, p0), (n, p)) in enumerate(zip(params0, params, strict=True)):
            if n != n0 or p.shape != p0.shape or p.dtype != p0.dtype:
                raise RuntimeError(
                    "For 'vmap', the corresponding parameter's shape and dtype in each cell should be consistent, "
                    f"but got '{n0}' {p0.shape} {p0.dtype} in cell 0 and '{n}' {p.shape} {p.dtype} in cell {i}."
                )
            columns[j].append(p)
    return columns


# ------------------------------------------------------------------------------ mapping
_OUT_AXES_NONE = re.compile(r"out_axes\[(\d)\]\[(\d+)\].*spec None but output was batched")


def _run(fn: Any, cell_list: bool, in_axes: Any, out_axes: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    cells = list(fn) if cell_list else []
    columns = _cell_columns(cells) if cell_list else []
    inputs = _Inputs(args, kwargs, in_axes, len(cells))
    target = cells[0] if cells else fn
    holders = [col[0] for col in columns]
    stacked = [jnp.stack([state.read(p) for p in col]) for col in columns]
    bound_pos = {id(h): j for j, h in enumerate(holders)}
    seen: dict[str, Any] = {}

    def mapped_fn(values: list[Any], param_values: list[Any]) -> Any:
        with state.Frame(list(zip(holders, param_values, strict=True))) as fr:
            out = target(*inputs.args(values), **inputs.kwargs)
        cell_writes, writes = [], []
        for h, v in fr.written_items():
            if id(h) in bound_pos:
                cell_writes.append((bound_pos[id(h)], v))
            elif v is not state.read(h):
                writes.append((h, v))
        outputs = _Outputs(out, out_axes)
        seen.update(outputs=outputs, cell_writes=[j for j, _ in cell_writes], writes=[h for h, _ in writes])
        return outputs.mapped, outputs.unmapped, [v for _, v in cell_writes], [v for _, v in writes]

    batched = jax.vmap(
        mapped_fn, in_axes=(list(inputs.axes), [0] * len(stacked)), out_axes=(0, None, 0, None), axis_size=inputs.size
    )
    try:
        mapped, unmapped, cell_values, values = batched(inputs.values, stacked)
    except ValueError as err:
        raise _translate(err, seen) from None
    for j, v in zip(seen["cell_writes"], cell_values, strict=True):
        for i, p in enumerate(columns[j]):
            state.write(p, v[i])
    for h, v in zip(seen["writes"], values, strict=True):
        state.write(h, v)
    return seen["outputs"].assemble(mapped, unmapped)


def _translate(err: ValueError, seen: dict[str, Any]) -> BaseException:
    m = _OUT_AXES_NONE.search(str(err))
    if m is None or "outputs" not in seen:
        return err
    group, k = int(m.group(1)), int(m.group(2))
    if group == 1:
        leaf = seen["outputs"].unmapped_at[k]
        return RuntimeError(
            "For 'vmap', it is invalid that source is not None and dst is None: output "
            f"{leaf} of 'fn' varies along the mapped axis, so its axis in 'out_axes' cannot be None."
        )
    holder = seen["writes"][k]
    return ValueError(
        f"For 'vmap', 'fn' writes the Parameter '{getattr(holder, 'name', holder)}' with a value that differs "
        "along the mapped axis (e.g. BatchNorm statistics in training), but a Parameter has one value. Call "
        "set_train(False), or put the mapped elements into the batch dimension instead."
    )


def _loop(fn: Any, cell_list: bool, in_axes: Any, out_axes: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The eager fallback: ``fn`` once per element of the mapped axis, outputs stacked."""
    cells = list(fn) if cell_list else []
    if cell_list:
        _cell_columns(cells)
    inputs = _Inputs(args, kwargs, in_axes, len(cells))
    outs = []
    for i in range(inputs.size):
        values = [
            v if ax is None else jnp.take(v, i, axis=ax) for v, ax in zip(inputs.values, inputs.axes, strict=True)
        ]
        target = cells[i] if cells else fn
        outs.append(_Outputs(target(*inputs.args(values), **inputs.kwargs), out_axes))
    first = outs[0]
    mapped = [jnp.stack([o.mapped[k] for o in outs]) for k in range(len(first.mapped))]
    return first.assemble(mapped, first.unmapped)


class _VmapFunction:
    """The vmapped function: compiles itself when called outside a trace, inlined inside one."""

    def __init__(self, fn: Any, cell_list: bool, in_axes: Any, out_axes: Any) -> None:
        self._spec = (fn, cell_list, in_axes, out_axes)
        name = f"vmap({_name(fn)})"
        self._jit = StatefulJit(self._impl, name=name, warn=self._fallback_note, eager_fn=self._eager)

    def _impl(self, *args: Any, **kwargs: Any) -> Any:
        return _run(*self._spec, args, kwargs)

    def _eager(self, *args: Any, **kwargs: Any) -> Any:
        return _loop(*self._spec, args, kwargs)

    @staticmethod
    def _fallback_note(msg: str) -> None:
        _log.warning(msg + " vmap calls it once per element of the mapped axis (a Python loop).")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if state.active():
            return self._impl(*args, **kwargs)
        return self._jit(*args, **kwargs)


def vmap(fn: Callable[..., Any], in_axes: Any = 0, out_axes: Any = 0) -> Callable[..., Any]:
    """Vectorizing map: ``fn`` applied along an axis of its inputs, as one batched computation.

    Args:
        fn (Union[Cell, Function, CellList]): the function to map. A Cell's Parameters are shared by every
            mapped element. A ``CellList`` (model ensembling) holds cells of one structure; their
            Parameters are stacked and cell ``i`` runs on element ``i`` of the mapped axis, whose size must be
            the number of cells.
        in_axes (Union[int, list, tuple]): the axis of each input to map over. An int maps every input
            along that axis; a tuple or list has one entry per positional argument: an int, None (not
            mapped) or, for a tuple or list argument, a nested tuple or list. Axes may be negative. At least
            one input is mapped (except for a ``CellList``) and all mapped axes have the same size. Default: 0.
        out_axes (Union[int, list, tuple]): where the mapped axis appears in each output, in the same form;
            None keeps an output that does not vary along the mapped axis unmapped. Default: 0.

    Returns:
        Function, the vectorized version of ``fn``.

    Raises:
        RuntimeError: If an axis is not an int or None, all axes are None, the sizes of ``in_axes`` /
            ``out_axes`` differ from the numbers of inputs / outputs, an axis is out of bounds, the mapped
            axes differ in size, or an output that varies along the mapped axis has the axis None.
        ValueError: If the mapped axis size differs from the number of cells of a ``CellList``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> from sporax import Tensor
        >>> def f(x, y, z):
        ...     return x + y + z
        >>> x = Tensor(np.array([[1, 2], [3, 4], [5, 6]]).astype(np.float32))
        >>> y = Tensor(np.array([[-3, -2, -1], [3, 2, 1]]).astype(np.float32))
        >>> z = Tensor(np.array([0, 3]).astype(np.float32))
        >>> print(ms.vmap(f, in_axes=(0, 1, None), out_axes=1)(x, y, z))
        [[-2.  1.  4.]
         [ 8.  9. 10.]]
    """
    names = _mro_names(fn)
    cell_list = "CellList" in names
    if not callable(fn) and not cell_list:
        raise RuntimeError(f"For 'vmap', 'fn' must be a function, a Cell or a CellList, but got {type(fn).__name__}.")
    validator.check_vmap_axes(in_axes, "in_axes", cell_list)
    validator.check_vmap_axes(out_axes, "out_axes", cell_list)
    key = ("vmap", _fn_key(fn), _freeze(in_axes), _freeze(out_axes))
    return _cache.get_or(key, lambda: _VmapFunction(fn, cell_list, in_axes, out_axes))
