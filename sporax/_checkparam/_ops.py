"""The ops' own argument forms: the functional transforms (``vmap``'s axes, ``HyperMap``/``Map``'s operation),
per-dimension int arguments, and the ``enable_dynamic`` decorator's declarations. Messages are MindSpore's where
it has one (tests pin them)."""

from __future__ import annotations

from typing import Any

import numpy as np


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


_NOT_CELL_LIST = {False: "is not a 'CellList'", True: "is a 'CellList' (the outputs of its cells differ)"}


def check_vmap_axes(spec: Any, what: str, cell_list: bool) -> Any:
    """``vmap``'s ``in_axes``/``out_axes`` (``what``) as far as they can be checked before the call: element types
    (int or None, nested in tuples, lists and dicts), a single None, all None. A CellList's inputs may all be
    unmapped (its Parameters are), its outputs may not (they differ from cell to cell)."""
    if spec is None or not isinstance(spec, (tuple, list)):
        if spec is not None and not _is_int(spec):
            raise RuntimeError(
                f"For 'vmap', the '{what}' can only be of type int, None, tuple or list, but got {spec!r}."
            )
        if spec is None and not (cell_list and what == "in_axes"):
            raise RuntimeError(
                f"For 'vmap', the '{what}' cannot be a single None while 'fn' {_NOT_CELL_LIST[cell_list]}."
            )
        return spec
    axes: list[Any] = []

    def walk(s: Any) -> None:
        if isinstance(s, (tuple, list)):
            for e in s:
                walk(e)
        elif isinstance(s, dict):
            for e in s.values():
                walk(e)
        elif s is None or _is_int(s):
            axes.append(s)
        else:
            raise RuntimeError(f"For 'vmap', the axis in '{what}' should be None or an int, but got {s!r} in {spec!r}.")

    walk(spec)
    if axes and all(a is None for a in axes) and not (cell_list and what == "in_axes"):
        raise RuntimeError(
            f"For 'vmap', the '{what}' cannot be all None while 'fn' {_NOT_CELL_LIST[cell_list]}, but got {spec!r}."
        )
    return spec


def check_map_fn(fn: Any, prim_name: str) -> Any:
    """The operation of ``HyperMap``/``Map``: ``For 'Map', the operation must be a MultitypeFuncGraph or callable,
    but got int.``"""
    if not callable(fn):
        raise TypeError(
            f"For '{prim_name}', the operation must be a MultitypeFuncGraph or callable, but got {type(fn).__name__}."
        )
    return fn


def check_callable(arg_value: Any, arg_name: str, prim_name: str) -> Any:
    """A callable: ``For 'PyFunc', the 'fn' must be callable, but got int.``"""
    if not callable(arg_value):
        raise TypeError(f"For '{prim_name}', the '{arg_name}' must be callable, but got {type(arg_value).__name__}.")
    return arg_value


def check_choice(arg_value: Any, valid_values: tuple[Any, ...], arg_name: str, prim_name: str) -> Any:
    """One of a few values, named in words: ``For 'qr', the 'mode' must be 'reduced' or 'complete', but got
    'full'.``"""
    if arg_value not in valid_values:
        names = [f"'{v}'" for v in valid_values]
        shown = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        raise ValueError(f"For '{prim_name}', the '{arg_name}' must be {shown}, but got '{arg_value}'.")
    return arg_value


def check_positive_int_tuple(arg_value: Any, n: int, arg_name: str, prim_name: str) -> tuple[int, ...]:
    """One positive int per dimension: an int (used for all ``n``) or ``n`` of them, as a tuple of Python ints:
    ``For 'interpolate', the 'size' must be a positive int or a tuple of 2 positive ints, but got (0, 3).``"""
    vals = (arg_value,) * n if _is_int(arg_value) else tuple(arg_value)
    if len(vals) != n or any(not _is_int(e) or e <= 0 for e in vals):
        raise ValueError(
            f"For '{prim_name}', the '{arg_name}' must be a positive int or a tuple of {n} positive ints, "
            f"but got {arg_value}."
        )
    return tuple(int(e) for e in vals)


_AT_LEAST = {0: "a non-negative int", 1: "a positive int"}


def check_int_at_least(arg_value: Any, minimum: int, arg_name: str, prim_name: str, quote: bool = False) -> int:
    """An int (not a bool) of at least ``minimum`` (0 or 1), one error class (ValueError) for both faults, as
    the ops give it: ``For 'Mvlgamma', the 'p' must be a positive int, but got 0.`` (``quote``: the value as
    its repr)."""
    if isinstance(arg_value, bool) or not isinstance(arg_value, int) or arg_value < minimum:
        shown = repr(arg_value) if quote else arg_value
        raise ValueError(f"For '{prim_name}', the '{arg_name}' must be {_AT_LEAST[minimum]}, but got {shown}.")
    return arg_value


def check_strategy_type(strategy: Any, log_info: str, name: str, layout_cls: type) -> bool | None:
    """MindSpore's checks of a ``shard`` strategy: a tuple of tuples of ints, or a tuple of Layouts
    (``layout_cls``). Returns whether it is layouts (None for an empty strategy)."""
    if not isinstance(strategy, tuple):
        raise TypeError(f"{log_info} must be tuple type, but got:{type(strategy)}")
    if strategy == ():
        return None
    kinds = set()
    for item in strategy:
        if isinstance(item, layout_cls):
            kinds.add(True)
            continue
        if not isinstance(item, tuple):
            raise TypeError(f"The element of strategy must be tuple/Layout type, but got:{type(item)}")
        for v in item:
            if not isinstance(v, int):
                raise TypeError(
                    f"The {log_info}: {strategy} of {name} is not valid, the value of strategy must be int type, "
                    f"but got:{type(v)}"
                )
        kinds.add(False)
    if len(kinds) > 1:
        raise TypeError(f"{log_info} item must be all tuple type or all Layout type.")
    return kinds.pop()


# ------------------------------------------------------------------------------------- enable_dynamic
_DYNAMIC_TYPE = "The decorator enable_dynamic only supports Tensor or a tuple/list of Tensor, but the argument : "


def check_dynamic_tensors(arg_value: Any, arg_name: str, tensor_cls: type[Any]) -> Any:
    """A Tensor (``tensor_cls``) or a nested tuple/list of them, for ``enable_dynamic(name=...)``."""
    if isinstance(arg_value, (tuple, list)):
        for a in arg_value:
            check_dynamic_tensors(a, arg_name, tensor_cls)
    elif not isinstance(arg_value, tensor_cls):
        raise TypeError(f"{_DYNAMIC_TYPE}{arg_name} is type of:{type(arg_value)}.")
    return arg_value


def check_dynamic_decl(arg_value: Any, arg_name: str, tensor_cls: type[Any]) -> bool:
    """Whether ``arg_value`` (a Tensor or a tuple/list of them) declares a dynamic dimension (-1) or rank
    (shape ``(-2,)``); a dynamic shape's other dimensions must be positive."""
    if isinstance(arg_value, tensor_cls):
        shape = arg_value.shape
        if shape == (-2,):
            return True
        if -1 in shape:
            if any(d != -1 and d <= 0 for d in shape):
                raise TypeError(
                    f"The argument '{arg_name}' has invalid shape '{shape}', only supports None "
                    "or a tuple/list of positive integers and None."
                )
            return True
        return False
    if isinstance(arg_value, (tuple, list)):
        return any(check_dynamic_decl(a, arg_name, tensor_cls) for a in arg_value)
    raise TypeError(f"{_DYNAMIC_TYPE}{arg_name} is type of:{type(arg_value)}.")
