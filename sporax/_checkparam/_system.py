"""The forms of the system APIs: ``runtime`` (memory sizes), ``hal`` (device targets and ids), ``parallel``
(shard strategies, the auto-parallel context's keys), ``profiler`` (schedules) and ``rewrite`` (node values).

The messages are MindSpore 2.10's for these APIs (tests pin them). Classes from upper layers (``Layout``,
``ScopedValue``) are passed in: this package sits below them."""

from __future__ import annotations

import logging
import re
from typing import Any

_log = logging.getLogger("sporax")

# ------------------------------------------------------------------------------------------- runtime

MEMORY_PATTERN = re.compile(r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB")
RESERVE_PATTERN = re.compile(r"[0-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB")


def check_memory_size(value: Any, name: str, allow_zero: bool = False) -> float:
    """A memory size such as ``"3.5GB"`` (``"0GB"`` only with ``allow_zero``), as a float of GB."""
    pattern = RESERVE_PATTERN if allow_zero else MEMORY_PATTERN
    if not isinstance(value, str):
        raise TypeError(f"The argument '{name}' must be type of str, but got {type(value).__name__}.")
    if not pattern.match(value):
        raise ValueError(
            "The memory value should be in correct format!It must be a string ending with 'GB', in addition to "
            'that, it must contain only numbers or decimal points, such as "5GB" or "3.5GB", but got '
            f"{value}."
        )
    if not allow_zero and value in ("0GB", "0.0GB"):
        raise ValueError('The memory value should not be "0GB".')
    return float(value[:-2])


# ----------------------------------------------------------------------------------------------- hal


def check_device_target(device_target: Any, valid_targets: Any) -> str:
    """A ``device_target`` argument: a str among ``valid_targets``."""
    if not isinstance(device_target, str):
        raise TypeError(
            f"The argument 'device_target' must be str, but got {device_target}, type is {type(device_target)}."
        )
    if device_target not in valid_targets:
        raise ValueError(f"The argument 'device_target' must be one of {valid_targets}, but got {device_target}.")
    return device_target


def check_device_id(device_id: Any, count: int) -> int:
    """A ``device_id`` argument: an int (not a bool) in ``[0, count)``."""
    if isinstance(device_id, bool) or not isinstance(device_id, int):
        raise TypeError(f"The argument 'device_id' must be int, but got {device_id}, type is {type(device_id)}.")
    if device_id < 0:
        raise ValueError(f"The argument 'device_id' should not be negative, but got {device_id}.")
    if device_id >= count:
        raise ValueError(f"The argument 'device_id' must be less than device count: {count}, but got {device_id}.")
    return device_id


# ------------------------------------------------------------------------------------------ parallel


def check_auto_parallel_key(key: str, valid_keys: Any) -> str:
    """A key of the auto-parallel context (``AutoParallel``'s ``get_<key>``/``set_<key>``)."""
    if key not in valid_keys:
        raise AttributeError(f"The auto-parallel context has no key '{key}'.")
    return key


def _check_strategy_items(strategy: Any, log_info: str, layout_cls: type) -> None:
    kinds = set()
    for item in strategy:
        if item is None:
            continue
        if not isinstance(item, (tuple, layout_cls)):
            raise TypeError(
                f"The '{log_info}' should be a tuple(tuple(int)) or tuple(mindspore.parallel.Layout), "
                f"but got {type(item).__name__}"
            )
        if isinstance(item, tuple) and not all(isinstance(v, int) for v in item):
            raise TypeError("The tuple strategy for each dimension should be tuple(int).")
        kinds.add(isinstance(item, layout_cls))
    if len(kinds) > 1:
        raise TypeError("For 'Shard', the strategy can only pass in consistent type for all dimensions.")


def check_shard_args(in_strategy: Any, out_strategy: Any, parameter_plan: Any, fn: Any, layout_cls: type) -> None:
    """``shard``'s strategies (tuples of int tuples or of ``layout_cls``, one kind in each) and ``parameter_plan``
    (None, or a dict of names to strategies, for a Cell)."""
    if not isinstance(in_strategy, tuple):
        raise TypeError(f"For 'Shard', the 'in_strategy' should be a tuple, but got {type(in_strategy).__name__}.")
    _check_strategy_items(in_strategy, "in_strategy", layout_cls)
    if not isinstance(out_strategy, (type(None), tuple)):
        raise TypeError(
            f"For 'Shard', the 'out_strategy' should be None or tuple, but got {type(out_strategy).__name__}."
        )
    if out_strategy is not None:
        _check_strategy_items(out_strategy, "out_strategy", layout_cls)
    if parameter_plan is None:
        return
    if not isinstance(parameter_plan, dict):
        raise TypeError(
            f"For 'Shard', the 'parameter_plan' should be a dict or None, but got {type(parameter_plan).__name__}"
        )
    if not hasattr(fn, "trainable_params"):
        raise TypeError(f"If parameter_plan is set, type of fn must be mindspore.nn.Cell, but got {type(fn)}")
    for k, v in parameter_plan.items():
        if not isinstance(k, str) or not isinstance(v, (tuple, layout_cls)):
            raise TypeError(
                "For 'Shard', the type of each key and value in 'parameter_plan' must be str and tuple/Layout, "
                f"but got {type(k).__name__} and {type(v).__name__}"
            )


# ------------------------------------------------------------------------------------------ profiler


def check_schedule_int(value: Any, name: str, minimum: int, default: int) -> int:
    """A profiler schedule's count: an int (not a bool) >= ``minimum``; anything else is replaced by ``default``
    with a warning (MindSpore's lenient form)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        _log.warning(
            f"Parameter '{name}' should be of type int, but got {type(value).__name__}. reset to int {default}."
        )
        return default
    return value


# ------------------------------------------------------------------------------------------- rewrite


def check_scoped_type(value: Any, cls: type, name: str) -> Any:
    """A ``ScopedValue`` argument of type ``cls``."""
    if not isinstance(value, cls):
        raise TypeError(
            f"For 'ScopedValue', the type of '{name}' should be {cls.__name__}, but got {type(value).__name__}."
        )
    return value


def check_node_values(values: Any, what: str, value_cls: type) -> None:
    """A node's ``args``/``kwargs`` values: each a ``value_cls`` (``ScopedValue``)."""
    for v in values:
        if not isinstance(v, value_cls):
            raise TypeError(
                f"For 'Node', the type of '{what}' should be ScopedValue, but got '{v}' with type '{type(v).__name__}'."
            )


def check_node_targets(targets: Any, value_cls: type) -> list | tuple:
    """A node's ``targets``: a list or tuple of ``value_cls`` (``ScopedValue``) or str."""
    if not isinstance(targets, (list, tuple)):
        raise TypeError(
            "For 'Node', the type of 'targets' should be one of '['list', 'tuple']', but got type "
            f"'{type(targets).__name__}'."
        )
    for t in targets:
        if not isinstance(t, (value_cls, str)):
            raise TypeError(
                f"For 'Node', the type of 'targets' should be ScopedValue or str, but got '{t}' with type "
                f"'{type(t).__name__}'."
            )
    return targets
