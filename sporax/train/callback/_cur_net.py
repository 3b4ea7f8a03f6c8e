"""``mindspore.train.callback._set_cur_net`` / ``_checkpoint_cb_for_save_op``: the network that a
checkpoint-save hook fills with parameter values (MindSpore's graph-engine callbacks; in sporax the values
always live in the network, so the hook is only needed by programs that call it themselves)."""

from __future__ import annotations

import logging
from typing import Any

__all__ = ["set_cur_net", "checkpoint_cb_for_save_op"]

_log = logging.getLogger("sporax")
CUR_NET: list[Any] = [None]


def set_cur_net(net: Any) -> None:
    """Set the network that :func:`checkpoint_cb_for_save_op` fills."""
    CUR_NET[0] = net


def checkpoint_cb_for_save_op(parameter_list: list[dict[str, Any]]) -> bool:
    """Load ``[{"name": ..., "data": Tensor}, ...]`` into the current network (strictly: every name must be
    one of its parameters), then forget the network. Returns False, with a warning, when none is set."""
    from ...common.parameter import Parameter
    from ..serialization import load_param_into_net

    net = CUR_NET[0]
    if net is None:
        _log.warning("CUR_NET is None. parameters are not updated.")
        return False
    params = {}
    for item in parameter_list:
        data = item["data"]
        params[item["name"]] = data if isinstance(data, Parameter) else Parameter(data, name=item["name"])
    load_param_into_net(net, params, strict_load=True)
    set_cur_net(None)
    return True
