"""``mindspore.shard`` / ``Cell.shard`` and the parallel optimizer, over the sharding annotations of
:mod:`sporax.ops._sharding`.

A sharded function or Cell lays its inputs (and outputs) out as its strategies say; XLA's sharding
propagation derives the layout of everything inside (MindSpore's "sharding propagation"). ``parameter_plan``
places the named Parameters as their layouts say. With ``enable_parallel_optimizer`` the optimizer state of
each weight (its moments) is split along dimension 0 over ``optimizer_weight_shard_size`` devices (all devices
by default), so each device keeps and updates its slice: XLA reduces each slice's gradient (XLA:CPU
all-reduces and slices; a reduce-scatter where the backend prefers it) and gathers the updated weight.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from .._checkparam import check_shard_args
from .._engine import _spmd
from ..common.parameter import Parameter
from ..context import get_auto_parallel_context
from ..ops._sharding import Layout, annotate, annotate_args, check_strategy_type, semi_auto_devices

__all__ = [
    "shard",
    "shard_cell",
    "place_parameter",
    "shard_optimizer_state",
    "optimizer_shard_size",
    "prepare_train_step",
    "prepare_optimizer",
    "infer_layout",
]

_log = logging.getLogger("sporax")


def _data_parallel(x: Any, n: int) -> Any:
    """None in a strategy: the batch (dimension 0) split over every device."""
    shape = getattr(x, "shape", ())
    if not shape or shape[0] % n:
        return None
    return (n,) + (1,) * (len(shape) - 1)


def _annotate_all(values: Any, specs: Any) -> Any:
    n = semi_auto_devices()
    if not n or specs is None:
        return values
    single = not isinstance(values, tuple)
    items = (values,) if single else values
    specs = tuple(_data_parallel(x, n) if s is None else s for x, s in zip(items, specs))
    out = annotate_args(tuple(items), specs)
    return out[0] if single else out


def place_parameter(param: Parameter, spec: Any) -> None:
    """Store ``param`` laid out as ``spec`` (a strategy tuple or a Layout) on the semi-auto devices."""
    n = semi_auto_devices()
    if not n:
        param.__dict__["_param_layout"] = spec
        return
    if isinstance(spec, tuple):
        if len(spec) != len(param.shape):
            raise ValueError(
                f"For {param.name}, the length of param_strategy: {len(spec)}, is not equal to param_shape len: "
                f"{len(param.shape)}."
            )
        for i, s in enumerate(spec):
            if param.shape[i] % s:
                raise ValueError(
                    f"For '{param.name}', the param_shape is {tuple(param.shape)} and the setting param_strategy is "
                    f"{spec}. The param_shape[{i}]: {param.shape[i]} cannot be divisible by param_strategy[{i}]: {s}."
                )
        sharding = _spmd.sharding_for_strategy(spec, n)
    else:
        sharding = spec.sharding()
    param.__dict__["_param_layout"] = spec
    param._stored = _spmd.place(param._stored, sharding)


def _apply_plan(cell: Any, parameter_plan: dict | None) -> None:
    if not parameter_plan:
        return
    params = {p.name: p for p in cell.trainable_params()}
    for name, spec in parameter_plan.items():
        param = params.get(name.replace("self.", "", 1) if name.startswith("self.") else name)
        if param is None:
            _log.warning("%s is not exist, ignored its setting.", name)
            continue
        if param.__dict__.get("_param_layout") is not None:
            _log.warning("The layout of parameter '%s' has been set, current setting will be ignored.", name)
            continue
        place_parameter(param, spec)


def shard(fn: Any, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None) -> Callable[..., Any]:
    """``fn`` (a function or a Cell) with its inputs laid out as ``in_strategy`` and its outputs as
    ``out_strategy`` in semi-auto parallel (None in a strategy: split the batch over every device);
    ``parameter_plan`` places a Cell's named Parameters."""
    check_shard_args(in_strategy, out_strategy, parameter_plan, fn, Layout)
    if out_strategy is not None:
        _log.warning("Out_strategy is not in use currently, will be ignored in the following procedures.")
    _apply_plan(fn, parameter_plan)

    def shard_fn(*args: Any) -> Any:
        return _annotate_all(fn(*_annotate_all(args, in_strategy)), out_strategy)

    shard_fn.__wrapped__ = fn  # type: ignore[attr-defined]
    return shard_fn


def shard_cell(cell: Any, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None) -> None:
    """``Cell.shard``: the cell's inputs and outputs laid out by forward hooks; ``parameter_plan`` places
    its named Parameters."""
    check_shard_args(in_strategy, out_strategy, parameter_plan, cell, Layout)
    if getattr(cell, "_in_strategy", None) is not None:
        _log.warning(
            "For '%s', 'Shard' has been configured more than once. The existing in_strategy is %s and the existing "
            "out_strategy is %s. The new in_strategy %s and out_strategy %s may not take effect. It is recommended "
            "to configure 'Shard' only once.",
            type(cell).__name__,
            cell._in_strategy,
            cell._out_strategy,
            in_strategy,
            out_strategy,
        )
        for handle in cell.__dict__.get("_shard_hooks", ()):
            handle.remove()
    object.__setattr__(cell, "_in_strategy", in_strategy)
    object.__setattr__(cell, "_out_strategy", out_strategy)
    _apply_plan(cell, parameter_plan)
    hooks = [cell.register_forward_pre_hook(lambda _c, args: _annotate_all(tuple(args), in_strategy))]
    if out_strategy is not None:
        hooks.append(cell.register_forward_hook(lambda _c, _args, out: _annotate_all(out, out_strategy)))
    object.__setattr__(cell, "_shard_hooks", hooks)


# ------------------------------------------------------------------------------- the parallel optimizer
def optimizer_shard_size() -> int:
    """The devices a weight's optimizer state is split over (0: the parallel optimizer is off)."""
    n = semi_auto_devices()
    if not n or not get_auto_parallel_context("enable_parallel_optimizer"):
        return 0
    size = get_auto_parallel_context("parallel_optimizer_config").get("optimizer_weight_shard_size", -1)
    if size in (-1, None):
        size = get_auto_parallel_context("optimizer_weight_shard_size")
    return n if size in (-1, None) or size <= 0 else min(int(size), n)


def shard_optimizer_state(optimizer: Any) -> int:
    """Split the optimizer state Parameters of ``optimizer`` (each one shaped as a weight; not the weights
    themselves, the learning rate or the step count) along dimension 0 over :func:`optimizer_shard_size`
    devices. Returns how many were split."""
    k = optimizer_shard_size()
    if not k:
        return 0
    n = semi_auto_devices()
    weights = {id(p) for p in optimizer.parameters}
    shapes = {tuple(p.shape) for p in optimizer.parameters}
    count = 0
    for p in optimizer.get_parameters():
        if id(p) in weights or tuple(p.shape) not in shapes or not p.shape:
            continue
        sharding = _spmd.split_dim0(k, n, tuple(p.shape))
        if sharding is not None:
            p._stored = _spmd.place(p._stored, sharding)
            count += 1
    return count


def prepare_optimizer(optimizer: Any) -> None:
    """An optimizer built with the parallel optimizer on splits its state before its first update (a forward
    pre-hook, run once): what a functional step (``value_and_grad`` + ``optimizer(grads)`` in ``jit``) gets
    that ``TrainOneStepCell`` sets up at construction."""
    if not optimizer_shard_size():
        return
    handles: list[Any] = []

    def split_once(opt: Any, _args: Any) -> None:
        shard_optimizer_state(opt)
        for h in handles:
            h.remove()

    handles.append(optimizer.register_forward_pre_hook(split_once))


def prepare_train_step(train_cell: Any) -> None:
    """What a train-step cell (``TrainOneStepCell``) sets up in semi-auto parallel: the parallel optimizer's
    state layout, and the strategy file (``strategy_ckpt_config["save_file"]`` or ``strategy_ckpt_save_file``),
    written when the step is compiled, as MindSpore writes it."""
    shard_optimizer_state(train_cell.optimizer)
    if not semi_auto_devices():
        return
    config = get_auto_parallel_context("strategy_ckpt_config") or {}
    path = config.get("save_file") or get_auto_parallel_context("strategy_ckpt_save_file")
    if path:
        train_cell.register_forward_hook(lambda cell, _args, _out: _save_strategy(cell, path, config))


def _save_strategy(cell: Any, path: str, config: dict) -> None:
    from ._strategy import Layout1, layout_of_spec, write_strategy_file

    n = semi_auto_devices()
    params = cell.network.trainable_params() if config.get("only_trainable_params", True) else cell.get_parameters()
    layouts = {}
    for p in params:
        spec = p.__dict__.get("_param_layout")
        ndim = len(p.shape)
        layouts[p.name] = layout_of_spec(spec, ndim, n) if spec is not None else Layout1([n], [-1] * ndim)
    write_strategy_file(path, layouts)


def annotate_tensor(x: Any, spec: Any) -> Any:
    """``reshard``: tensor ``x`` laid out as ``spec`` (a Layout or a strategy tuple)."""
    if isinstance(spec, tuple):
        check_strategy_type((spec,), "in_strategy", "reshard")
    return annotate(x, spec)


# --------------------------------------------------------------------------- Model.infer_*_layout
def infer_layout(model: Any, kind: str, data: tuple) -> dict[str, list]:
    """``Model.infer_train_layout`` / ``infer_predict_layout``: run the network's forward pass once on
    ``data`` in inference mode (no update; the strategies record each Parameter's layout) and return
    MindSpore's ``parameter_layout_dict``."""
    from ._strategy import parameter_layout_dict

    n = semi_auto_devices()
    if not n:
        mode = get_auto_parallel_context("parallel_mode")
        if kind == "predict":
            raise RuntimeError("Infer predict layout only supports semi auto parallel and auto parallel mode.")
        raise RuntimeError(
            f"'infer_train_layout' only supports 'semi_auto_parallel' and 'auto_parallel' mode, but got {mode}."
        )
    net = model._predict_network if kind == "predict" else model._train_network
    forward = getattr(net, "network", net) if kind == "train" else net
    training = forward.training
    forward.set_train(False)
    try:
        forward(*data)
    finally:
        forward.set_train(training)
    return parameter_layout_dict(net, n)
