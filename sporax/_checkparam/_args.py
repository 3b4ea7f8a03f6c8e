"""sporax's shorter argument forms, and the optimizer and collective checks.

These keep messages that sporax APIs already give (tests pin them); new code uses the MindSpore forms of
``_core``."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ._core import (
    INC_BOTH,
    INC_NEITHER,
    _names,
    _subject,
    check_float_range,
    check_positive_float,
    check_value_type,
)

# ------------------------------------------------------------------------- sporax's shorter forms
# These keep messages that sporax APIs already give (tests pin them); new code uses the MindSpore forms above.


def check_instance(arg_value: Any, cls: type, arg_name: str, prim_name: str) -> Any:
    """An instance of ``cls``, with the wrappers' message: ``For 'WithLossCell', the 'backbone' must be a Cell,
    but got int.``"""
    if not isinstance(arg_value, cls):
        raise TypeError(
            f"For '{prim_name}', the '{arg_name}' must be a {cls.__name__}, but got {type(arg_value).__name__}."
        )
    return arg_value


def check_real(arg_value: Any, arg_name: str, prim_name: str) -> float:
    """An int or float (not a bool), as a float: ``For 'HShrink', the type of 'lambd' must be float, but got str.``"""
    if isinstance(arg_value, bool) or not isinstance(arg_value, (int, float)):
        raise TypeError(
            f"For '{prim_name}', the type of '{arg_name}' must be float, but got {type(arg_value).__name__}."
        )
    return float(arg_value)


def check_seed(seed: Any) -> int:
    """A generator's seed: an int (NumPy ints accepted, a bool not), as a Python int."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError("Seed must be an integer.")
    return int(seed)


def check_arg_instance(arg_value: Any, cls: type, arg_name: str, prim_name: str) -> Any:
    """An instance of ``cls``, with the runtime's message: ``For 'wait_stream', the argument 'stream' should be
    Stream, but got <class 'int'>.``"""
    if not isinstance(arg_value, cls):
        raise TypeError(
            f"For '{prim_name}', the argument '{arg_name}' should be {cls.__name__}, but got {type(arg_value)}."
        )
    return arg_value


def check_is_type(arg_value: Any, cls: type, arg_name: str, prim_name: str) -> Any:
    """An instance of ``cls`` (a bool is not an int): ``For 'Stream', the 'priority' must be int, but got float.``"""
    if (isinstance(arg_value, bool) and cls is not bool) or not isinstance(arg_value, cls):
        raise TypeError(
            f"For '{prim_name}', the '{arg_name}' must be {cls.__name__}, but got {type(arg_value).__name__}."
        )
    return arg_value


def check_positive_count(arg_value: Any, arg_name: str, prim_name: str) -> int:
    """An int (not a bool) > 0, with the gradient-accumulation cells' message (MindSpore's): ``For
    'GradAccumulationCell', the argument 'micro_size' must be large than 0, but got 0.``"""
    if isinstance(arg_value, bool) or not isinstance(arg_value, int):
        raise TypeError(
            f"For '{prim_name}', the argument '{arg_name}' must be integer, but got the type : {type(arg_value)}."
        )
    if arg_value <= 0:
        raise ValueError(f"For '{prim_name}', the argument '{arg_name}' must be large than 0, but got {arg_value}.")
    return arg_value


def check_sink_size(sink_size: Any) -> int:
    """A sink size: -1 (the whole dataset) or an int > 0."""
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"The 'sink_size' must be int, but got {type(sink_size).__name__}.")
    if sink_size < -1 or sink_size == 0:
        raise ValueError(f"The 'sink_size' must be -1 or positive, but got sink_size {sink_size}.")
    return sink_size


def check_greater_than_zero(arg_value: Any, arg_name: str, prim_name: str, allow_none: bool = False) -> Any:
    """An int > 0 (or None with ``allow_none``), with the summary's message: ``For "SummaryCollector", the value
    of `collect_freq` should be greater than 0, but got `0`.``"""
    if allow_none and arg_value is None:
        return arg_value
    check_value_type(arg_name, arg_value, int)
    if arg_value <= 0:
        raise ValueError(
            f'For "{prim_name}", the value of `{arg_name}` should be greater than 0, but got `{arg_value}`.'
        )
    return arg_value


def check_file_name_part(arg_value: Any, arg_name: str) -> Any:
    """An empty value, or a file-name part of letters, digits, ``_``, ``-`` and ``.`` (a summary's prefix/suffix)."""
    if arg_value and re.match(r"^[\w\-.]+$", arg_value) is None:
        raise ValueError(f"The '{arg_name}' can only contain letters, digits, '_', '-' and '.', but got {arg_value!r}.")
    return arg_value


def check_arg_type(arg_name: str, arg_value: Any, valid_types: Any, prim_name: str | None = None) -> Any:
    """As :func:`check_value_type`, with the shorter message of the optimizers, learning-rate schedules and
    ``Model``: ``For 'Momentum', the 'momentum' must be float, but got '1' with type 'int'.``"""
    types = tuple(valid_types) if isinstance(valid_types, (list, tuple)) else (valid_types,)
    if (isinstance(arg_value, bool) and bool not in types) or not isinstance(arg_value, types):
        names = _names(types)
        shown = names[0] if len(names) == 1 else "[" + ", ".join(names) + "]"
        raise TypeError(
            f"{_subject(arg_name, prim_name)} must be {shown}, but got '{arg_value}' with type "
            f"'{type(arg_value).__name__}'."
        )
    return arg_value


def check_int_arg(arg_value: Any, arg_name: str, prim_name: str, minimum: int | None = None) -> int:
    """An int (NumPy ints accepted, a bool not) at least ``minimum``, as a Python int. The ops' form:
    ``For 'UniformReal', the 'seed' must be >= 0, but got -1.``"""
    if isinstance(arg_value, bool) or not isinstance(arg_value, (int, np.integer)):
        raise TypeError(f"For '{prim_name}', the '{arg_name}' must be an int, but got {type(arg_value).__name__}.")
    if minimum is not None and arg_value < minimum:
        raise ValueError(f"For '{prim_name}', the '{arg_name}' must be >= {minimum}, but got {arg_value}.")
    return int(arg_value)


def check_count(arg_value: Any, arg_name: str, prim_name: str, minimum: int = 1) -> int:
    """A count: an int (not a bool) of at least 1 (or 0). The layers' and ``Model``'s form:
    ``For 'Model.train', the 'epoch' must be a positive int, but got 0.``"""
    if isinstance(arg_value, bool) or not isinstance(arg_value, int):
        raise TypeError(f"For '{prim_name}', the '{arg_name}' must be an int, but got {type(arg_value).__name__}.")
    if arg_value < minimum:
        kind = "a positive int" if minimum == 1 else "a non-negative int" if minimum == 0 else f">= {minimum}"
        raise ValueError(f"For '{prim_name}', the '{arg_name}' must be {kind}, but got {arg_value}.")
    return arg_value


def check_axis(axis: Any, ndim: int, prim_name: str, arg_name: str = "axis") -> int:
    """An int axis of an ``ndim``-D tensor (a 0-D tensor has axis 0 and -1), returned non-negative. The ops'
    form: ``For 'concat', the 'axis' must be in range [-2, 1], but got 2.``"""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For '{prim_name}', the '{arg_name}' must be an int, but got {type(axis).__name__}.")
    size = max(ndim, 1)
    if not -size <= axis <= size - 1:
        raise ValueError(f"For '{prim_name}', the '{arg_name}' must be in range [{-size}, {size - 1}], but got {axis}.")
    return int(axis) % size


# ------------------------------------------------------------------------------------- optimizers


def check_keep_prob(keep_prob: Any, prim_name: str) -> float:
    """A dropout's ``keep_prob``: a float in [0, 1]."""
    check_value_type("keep_prob", keep_prob, [float], prim_name)
    return check_float_range(keep_prob, 0.0, 1.0, INC_BOTH, "keep_prob", prim_name)


def check_adam_hyper(beta1: Any, beta2: Any, eps: Any, prim_name: str) -> None:
    """The Adam family's (Adam, AdamWeightDecay, AdaMax, Lamb) ``beta1``/``beta2`` floats in (0, 1) and ``eps`` > 0."""
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        check_arg_type(name, value, [float], prim_name)
    check_float_range(beta1, 0.0, 1.0, INC_NEITHER, "beta1", prim_name)
    check_float_range(beta2, 0.0, 1.0, INC_NEITHER, "beta2", prim_name)
    check_positive_float(eps, "eps", prim_name)


# ------------------------------------------------------------------------------------- collectives
# The forms of MindSpore's ``communication.comm_func`` (``For all_reduce, the input tensor must be tensor``).


def check_comm_tensor(arg_value: Any, tensor_cls: type, prim_name: str, what: str = "input tensor") -> Any:
    """A Tensor argument of a collective."""
    if not isinstance(arg_value, tensor_cls):
        raise TypeError(f"For {prim_name}, the {what} must be tensor")
    return arg_value


def check_comm_tensor_list(arg_value: Any, tensor_cls: type, prim_name: str, arg_name: str) -> list:
    """A list or tuple of Tensors, as a list."""
    for x in arg_value if isinstance(arg_value, (list, tuple)) else [arg_value]:
        if not isinstance(arg_value, (list, tuple)) or not isinstance(x, tensor_cls):
            raise TypeError(f"For {prim_name}, the '{arg_name}' must be a list or tuple of tensors, but got {type(x)}.")
    return list(arg_value)


def check_comm_rank(arg_value: Any, size: int, arg_name: str, prim_name: str) -> int:
    """A rank in ``[0, size)`` (an int, not a bool)."""
    if isinstance(arg_value, bool) or not isinstance(arg_value, int):
        raise TypeError(f"For '{prim_name}', the argument '{arg_name}' must be type of int, but got {type(arg_value)}.")
    if not 0 <= arg_value < size:
        raise ValueError(f"For '{prim_name}', the argument '{arg_name}' must be in [0, {size}), but got {arg_value}.")
    return arg_value


def check_comm_op(op: Any, valid_ops: Any, prim_name: str) -> str:
    """A reduction's name among ``valid_ops`` (MindSpore raises TypeError for both faults)."""
    if not isinstance(op, str):
        raise TypeError(f"For {prim_name}, the input op type must be str")
    if op not in valid_ops:
        raise TypeError(f"For {prim_name}, the input op value must be one of {', '.join(valid_ops)}")
    return op


def check_arg_bool(arg_value: Any, arg_name: str) -> bool:
    """A bool, with the collectives' message: ``The argument 'async_op' must be a bool, but got <class 'int'>.``"""
    if not isinstance(arg_value, bool):
        raise TypeError(f"The argument '{arg_name}' must be a bool, but got {type(arg_value)}.")
    return arg_value


def check_arg_list(arg_value: Any, arg_name: str, prim_name: str) -> list:
    """A list: ``For 'scatter_object_list', the argument 'scatter_object_input_list' must be a list, ...``."""
    if not isinstance(arg_value, list):
        raise TypeError(f"For '{prim_name}', the argument '{arg_name}' must be a list, but got {type(arg_value)}.")
    return arg_value


def check_comm_peer(arg_value: Any, size: int, rank: int, arg_name: str, prim_name: str) -> int:
    """A point-to-point peer: a rank in ``[0, size)`` other than this process's ``rank``."""
    check_comm_rank(arg_value, size, arg_name, prim_name)
    if arg_value == rank:
        raise ValueError(
            f"For '{prim_name}', the argument '{arg_name}' must not be the rank of this process ({arg_value})."
        )
    return arg_value


def check_comm_tag(arg_value: Any, prim_name: str) -> int:
    """A point-to-point message tag: an int (not a bool) >= 0 (TypeError for both faults)."""
    if isinstance(arg_value, bool) or not isinstance(arg_value, int) or arg_value < 0:
        raise TypeError(f"For '{prim_name}', the argument 'tag' must be a non-negative int, but got {arg_value!r}.")
    return arg_value


def check_comm_group(group: Any, world_groups: tuple[str, ...], prim_name: str) -> str:
    """A communication group's name among ``world_groups`` (sporax communicates over the world group only;
    ``create_group`` is not supported on GPU and CPU, as in MindSpore)."""
    if not isinstance(group, str):
        raise TypeError(f"For '{prim_name}', the 'group' must be str, but got {type(group).__name__}.")
    if group not in world_groups:
        raise ValueError(
            f"For '{prim_name}', the group '{group}' does not exist: sporax communicates over the world group "
            f"({' / '.join(repr(g) for g in world_groups)}) only."
        )
    return group
