"""``load_param_into_net``: a parameter dict into a network's Parameters (MindSpore's shape, dtype and
prefix rules; what was not loaded is returned)."""

from __future__ import annotations

import logging
from typing import Any

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..nn.cell import Cell
from ._ckpt_format import _to_tensor

_log = logging.getLogger("sporax")


# ============================================================================ into a network
_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


_INT_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64)


def _special_process_par(param: Parameter, new_param: Parameter) -> Any:
    """(12, 2048, 1, 1) -> (12, 2048): trailing unit dimensions in the checkpoint are dropped (MindSpore).
    The value to load, or None when the shapes differ otherwise."""
    n, m = len(param.shape), len(new_param.shape)
    if m <= n or any(d != 1 for d in new_param.shape[n:]) or new_param.shape[:n] != param.shape:
        return None
    value = _to_tensor(new_param.asnumpy().reshape(param.shape))
    return value if value.dtype == param.dtype else value.astype(param.dtype)


def _update_param(param: Parameter, new_param: Parameter, strict_load: bool, pending: list) -> None:
    """Check that ``new_param`` fits ``param`` and queue ``(param, value)`` on ``pending``: nothing is
    assigned until every parameter of the dict has been checked (a load is all or nothing)."""
    if param.shape != new_param.shape:
        value = _special_process_par(param, new_param)
        if value is None:
            _log.critical("Failed to combine the net and the parameters for param %s.", param.name)
            raise RuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same shape as "
                f"{param.name} in the argument 'parameter_dict'. But got its shape {param.shape} in the argument 'net' "
                f"and shape {new_param.shape} in the argument 'parameter_dict'. May you need to check whether the "
                "checkpoint you loaded is correct or the batch size and so on in the 'net' and 'parameter_dict' are same."
            )
        pending.append((param, value))
        return
    if param.dtype != new_param.dtype:
        pair = {param.dtype, new_param.dtype}
        if not strict_load and (pair.issubset(_FLOAT_TYPES) or pair.issubset(_INT_TYPES)):
            _log.warning(
                "The type of %s:%s in 'parameter_dict' is different from the type of it in 'net':%s, then the type "
                "convert from %s to %s in the network.",
                new_param.name,
                new_param.dtype,
                param.dtype,
                new_param.dtype,
                param.dtype,
            )
            pending.append((param, new_param.astype(param.dtype)))
            return
        _log.critical("Failed to combine the net and the parameters for param %s.", param.name)
        raise RuntimeError(
            f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same type as "
            f"{param.name} in the argument 'parameter_dict'. but got its type {param.dtype} in the argument 'net' "
            f"and type {new_param.dtype} in the argument 'parameter_dict'. May you need to check whether the "
            "checkpoint you loaded is correct."
        )
    pending.append((param, new_param))


def _load_dismatch_prefix_params(
    net: Cell, parameter_dict: dict, param_not_load: list[str], strict_load: bool, pending: list
) -> None:
    """Parameters still missing: find a prefix that the checkpoint's names carry over the net's, and retry."""
    prefix_name = ""
    longest_name = param_not_load[0]
    while prefix_name != longest_name and param_not_load:
        prefix_name = longest_name
        for net_param_name in param_not_load:
            for dict_name in parameter_dict:
                if dict_name.endswith(net_param_name):
                    prefix_name = dict_name[: -len(net_param_name)]
                    break
            if prefix_name != longest_name:
                break
        if prefix_name != longest_name:
            _log.warning("For 'load_param_into_net', remove parameter prefix name: %s, continue to load.", prefix_name)
            for _, param in net.parameters_and_names():
                new_param_name = prefix_name + param.name
                if param.name in param_not_load and new_param_name in parameter_dict:
                    new_param = parameter_dict[new_param_name]
                    if isinstance(new_param, Parameter):
                        _update_param(param, new_param, strict_load, pending)
                        param_not_load.remove(param.name)


def _plan_load(net: Cell, parameter_dict: dict, strict_load: bool) -> tuple[list, list[str], list[str]]:
    """What loading ``parameter_dict`` into ``net`` would assign, every parameter checked (raises as
    :func:`load_param_into_net` does), nothing assigned: ``(pending (param, value) pairs, param_not_load,
    ckpt_not_load)``. Several plans can be checked before any is applied (BackupAndRestore: network and
    optimizer)."""
    pending: list[tuple[Parameter, Any]] = []
    param_not_load: list[str] = []
    ckpt_not_load = list(parameter_dict.keys())
    for _, param in net.parameters_and_names():
        if param.name in parameter_dict:
            new_param = parameter_dict[param.name]
            if not isinstance(new_param, Parameter):  # strings and map tensors do not load into Parameters
                continue
            _update_param(param, new_param, strict_load, pending)
            ckpt_not_load.remove(param.name)
        else:
            if param.name.startswith("accu_grads"):
                continue
            param_not_load.append(param.name)
    if param_not_load and not strict_load:
        _load_dismatch_prefix_params(net, parameter_dict, param_not_load, strict_load, pending)
    return pending, param_not_load, ckpt_not_load


def _warn_not_loaded(param_not_load: list[str]) -> None:
    if param_not_load:
        _log.warning(
            "For 'load_param_into_net', %d parameters in the 'net' are not loaded, because they are not in the "
            "'parameter_dict', please check whether the network structure is consistent when training and loading "
            "checkpoint.",
            len(param_not_load),
        )
        _log.warning("%s are not loaded.", param_not_load)


def load_param_into_net(
    net: Cell, parameter_dict: dict, strict_load: bool = False, remove_redundancy: bool = False
) -> tuple[list[str], list[str]]:
    """Load parameters into a network.

    Args:
        net (Cell): the network.
        parameter_dict (dict): name -> Parameter, as :func:`load_checkpoint` returns.
        strict_load (bool): if ``False``, a parameter whose name in the checkpoint carries an extra prefix is
            still matched, and float (or int) values of another width are converted to the network's dtype.
            Default: ``False``.
        remove_redundancy (bool): kept for MindSpore compatibility (single device). Default: ``False``.

    Returns:
        - param_not_load (list): names of the network's parameters that were not loaded.
        - ckpt_not_load (list): names in `parameter_dict` that were not loaded into the network.

    Raises:
        TypeError: `net` is not a Cell, or `parameter_dict` is not a dict of str -> Parameter.
        RuntimeError: a parameter's shape (or, beyond the conversions above, dtype) differs from the network's.
            Every parameter is checked before any is assigned: after this error the network is unchanged.
    """
    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(
            f"For 'load_param_into_net', the argument 'parameter_dict' should be a dict, but got {type(parameter_dict)}."
        )
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError(
                "For 'parameter_dict', the element in the argument 'parameter_dict' should be a 'str' and "
                f"'Parameter' , but got {type(key)} and {type(value)}."
            )
    for name, value in (("strict_load", strict_load), ("remove_redundancy", remove_redundancy)):
        if not isinstance(value, bool):
            raise TypeError(f"For 'load_param_into_net', the '{name}' must be bool, but got {type(value).__name__}.")

    # Every name, shape and dtype is checked first; then all values are assigned, or none (an error leaves the
    # network as it was).
    pending, param_not_load, ckpt_not_load = _plan_load(net, parameter_dict, strict_load)
    for param, value in pending:
        param.set_data(value)
    _warn_not_loaded(param_not_load)
    return param_not_load, ckpt_not_load
