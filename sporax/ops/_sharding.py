"""Sharding strategies of semi-auto parallel: ``Layout``, ``Primitive.shard`` and the annotation of tensors.

In SEMI_AUTO_PARALLEL and AUTO_PARALLEL (``set_auto_parallel_context``) a primitive given a strategy
(``ops.MatMul().shard(((2, 1), (1, 1)))``) or layouts lays its tensor inputs (and, with ``out_strategy``,
its outputs) out as they say; ``sporax._engine._spmd`` turns each into a sharding annotation on the global
device mesh, and XLA's SPMD partitioner splits the program and inserts the collectives. In the other modes
a strategy is recorded and does nothing, as in MindSpore.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from .. import _checkparam as validator
from .._engine import _spmd
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..context import ParallelMode, get_auto_parallel_context

__all__ = [
    "Layout",
    "reshard",
    "shard_primitive",
    "semi_auto_devices",
    "annotate",
    "annotate_args",
    "check_strategy_type",
]

_INTERLEAVED = "interleaved_parallel"


class Layout:
    """The arrangement of devices (``device_matrix``, each axis named in ``alias_name``) a tensor is split
    over; calling it with one alias name (or a tuple of them, or ``"None"``) per tensor dimension gives the
    layout of one tensor."""

    def __init__(self, device_matrix: Any, alias_name: Any, rank_list: Any = None) -> None:
        if not isinstance(device_matrix, tuple):
            raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
        if not isinstance(alias_name, tuple):
            raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
        if len(device_matrix) != len(alias_name):
            raise ValueError("device_matrix length should be equal to alias_name length")
        for d in device_matrix:
            if not isinstance(d, int):
                raise TypeError(f"The element of device_matrix must be int type, but got:{type(d)}")
        for a in alias_name:
            if not isinstance(a, str):
                raise TypeError(f"The element of alias_name must be str type, but got:{type(a)}")
            if not a:
                raise ValueError("The element of alias_name can not be empty.")
            if a == "None":
                raise ValueError("The element of alias_name can not set 'None', because 'None' means no sharding.")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f"Each element of alias_name {alias_name} should be different")
        if _INTERLEAVED in alias_name and alias_name.index(_INTERLEAVED) != len(alias_name) - 1:
            raise ValueError(
                f"When alias_name {alias_name} contains keyword 'interleaved_parallel', it should be at the last "
                "dim of alias_name, which means the virtual sharding."
            )
        n = int(np.prod(device_matrix))
        if rank_list is not None:
            if not isinstance(rank_list, list):
                raise TypeError(f"The rank_list should be a list, but got {type(rank_list).__name__}.")
            for r in rank_list:
                if not isinstance(r, int):
                    raise TypeError(f"The element of rank_list should be int, but got {type(r).__name__}.")
            if len(rank_list) != n:
                raise ValueError(
                    "The length of rank_list should be equal to the product of device_matrix, "
                    f"but got {len(rank_list)} and {n}."
                )
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._tensor_map: tuple | None = None
        self._rank_list = list(rank_list) if rank_list is not None else list(range(n))

    def __call__(self, *tensor_map: Any) -> Layout:
        used: list[str] = []
        names = self._alias_name

        def index(name: str) -> int:
            if name == "None":
                return -1
            if name not in names:
                raise ValueError(f"The axis {name} is not found in {names}")
            if name in used:
                raise ValueError(f"The axis {name} has been set more than one in {names}")
            used.append(name)
            return len(names) - 1 - names.index(name)

        self._tensor_map = tuple(
            tuple(index(e) for e in item) if isinstance(item, tuple) else index(item) for item in tensor_map
        )
        return copy.deepcopy(self)

    def to_dict(self) -> dict[str, Any]:
        """The layout as MindSpore's dictionary (device matrix, tensor map, alias names, ranks)."""
        if self._device_shape is None:
            raise ValueError("The device_shape of layout is None")
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {
            "device_matrix": self._device_shape,
            "tensor_map": self._tensor_map,
            "interleaved_parallel": _INTERLEAVED in self._alias_name,
            "alias_name": self._alias_name,
            "rank_list": self._rank_list,
        }

    def sharding(self) -> Any:
        """This tensor layout as a sharding on the device mesh."""
        d = self.to_dict()
        return _spmd.sharding_for_layout(d["device_matrix"], d["alias_name"], d["tensor_map"], d["rank_list"])

    def __repr__(self) -> str:
        return (
            f"Layout(device_matrix={self._device_shape}, alias_name={self._alias_name}, tensor_map={self._tensor_map})"
        )


def semi_auto_devices() -> int:
    """The devices a strategy is laid out over: ``device_num`` (all devices when unset) in SEMI_AUTO_PARALLEL
    and AUTO_PARALLEL; 0 in the other modes (strategies do nothing)."""
    if get_auto_parallel_context("parallel_mode") not in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL):
        return 0
    n = int(get_auto_parallel_context("device_num") or 1)
    return n if n > 1 else _spmd.device_count()


def _per_rank_batches() -> Any:
    """MindSpore's input rule of semi-auto parallel: with ``full_batch=False`` (its default) each rank feeds
    its own part of the inputs (its dataset shard), laid out by ``dataset_strategy``: ``"data_parallel"``
    (dimension 0 over every device: returns the device count) or one strategy tuple per input (returns
    ``(device count, strategies)``); 0 when the inputs come whole (``full_batch``, ``"full_batch"``)."""
    n = semi_auto_devices()
    if not n or get_auto_parallel_context("full_batch"):
        return 0
    strategy = get_auto_parallel_context("dataset_strategy")
    if isinstance(strategy, tuple):
        return (n, strategy)
    return n if strategy == "data_parallel" else 0


_spmd.register_batch_policy(_per_rank_batches)


def _sharding(spec: Any, shape: tuple, n: int) -> Any:
    if isinstance(spec, Layout):
        return spec.sharding()
    spec = tuple(spec)
    if len(spec) != len(shape):
        raise ValueError(f"The strategy {spec} has {len(spec)} dimensions, but the tensor has {len(shape)}.")
    for i, (d, s) in enumerate(zip(shape, spec)):
        if s < 1 or d % s:
            raise ValueError(
                f"The strategy {spec} cannot split the tensor of shape {tuple(shape)}: its dimension {i} ({d}) is "
                f"not divisible by {s}."
            )
    return _spmd.sharding_for_strategy(spec, n)


def annotate(x: Any, spec: Any, n: int | None = None) -> Any:
    """Tensor ``x`` laid out as ``spec`` (a strategy tuple or a Layout) over the semi-auto devices; ``x``
    itself when no semi-auto mode is on, ``spec`` is None, or ``x`` is no tensor."""
    n = semi_auto_devices() if n is None else n
    if not n or spec is None or not isinstance(x, Tensor):
        return x
    return Tensor._from_data(_spmd.constrain(x._data, _sharding(spec, tuple(x.shape), n)))


def annotate_args(args: tuple, specs: Any) -> tuple:
    """Each tensor of ``args`` laid out as its spec in ``specs`` (in the order of the tensors)."""
    n = semi_auto_devices()
    if not n or specs is None:
        return args
    out, k = [], 0
    for a in args:
        if isinstance(a, Tensor) and k < len(specs):
            if isinstance(a, Parameter) and specs[k] is not None:
                a.__dict__["_param_layout"] = specs[k]  # what Model.infer_*_layout and the strategy file report
            a = annotate(a, specs[k], n)
            k += 1
        out.append(a)
    return tuple(out)


def check_strategy_type(strategy: Any, log_info: str, name: str) -> bool | None:
    """Whether a ``shard`` strategy is Layouts (None when empty), by MindSpore's rules
    (:func:`~sporax._checkparam.check_strategy_type`)."""
    return validator.check_strategy_type(strategy, log_info, name, Layout)


def _layout_value(layouts: tuple) -> tuple:
    return tuple({k: v for k, v in lay.to_dict().items() if k != "rank_list"} for lay in layouts)


_sharded_classes: dict[type, type] = {}


def _sharded_class(cls: type) -> type:
    """``cls`` with a ``__call__`` that lays the inputs (and outputs) out as the primitive's strategies say."""
    sub = _sharded_classes.get(cls)
    if sub is None:

        def __call__(self: Any, *args: Any, **kwargs: Any) -> Any:
            specs_in, specs_out = self._shard_specs
            out = cls.__call__(self, *annotate_args(args, specs_in), **kwargs)
            if specs_out is None or not semi_auto_devices():
                return out
            if isinstance(out, tuple):
                return tuple(annotate(o, s) for o, s in zip(out, specs_out))
            return annotate(out, specs_out[0])

        sub = type(cls.__name__, (cls,), {"__call__": __call__, "__module__": cls.__module__})
        sub.__qualname__ = cls.__qualname__
        _sharded_classes[cls] = sub
    return sub


def shard_primitive(prim: Any, in_strategy: Any, out_strategy: Any) -> Any:
    """``Primitive.shard``: check and record the strategies (as MindSpore's attributes ``in_strategy`` /
    ``out_strategy`` or ``in_layout`` / ``out_layout``); the primitive then applies them in the semi-auto
    modes."""
    if in_strategy is None and out_strategy is None:
        return prim
    in_is = check_strategy_type(in_strategy, "in_strategy", prim.name) if in_strategy is not None else None
    out_is = check_strategy_type(out_strategy, "out_strategy", prim.name) if out_strategy is not None else None
    is_layout = in_is if in_is is not None else out_is
    if out_is is not None and is_layout != out_is:
        raise ValueError(
            "The in_strategy type must equal to the out_strategy type, one using tuple(tuple) and the other using "
            "tuple(Layout) is not allowed."
        )
    if in_strategy is None and out_strategy is not None:
        raise ValueError(f"The out_strategy of {prim.name} is {out_strategy}, need to set in_strategy, but got none")
    if is_layout:
        prim.add_prim_attr("in_layout", _layout_value(in_strategy))
        if out_strategy is not None:
            prim.add_prim_attr("out_layout", _layout_value(out_strategy))
    else:
        prim.add_prim_attr("in_strategy", in_strategy)
        if out_strategy is not None:
            prim.add_prim_attr("out_strategy", out_strategy)
    prim._shard_specs = (in_strategy or None, out_strategy or None)
    if not isinstance(prim, tuple(_sharded_classes.values())):
        prim.__class__ = _sharded_class(type(prim))
    return prim


def reshard(tensor: Any, layout: Any) -> Any:
    """``tensor`` laid out as ``layout`` (a Layout called with the tensor's axes) in semi-auto parallel; XLA
    moves the data. The tensor itself in the other modes."""
    if not semi_auto_devices():
        return tensor
    if not isinstance(tensor, Tensor):
        raise TypeError(f"Reshard takes in Tensor type as the first input param, but got: {type(tensor)}.")
    if not isinstance(layout, Layout):
        raise TypeError(f"Reshard only support type mindspore.parallel.Layout, but got: {type(layout)}.")
    return annotate(tensor, layout)
