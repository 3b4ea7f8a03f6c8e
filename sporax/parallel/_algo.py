"""``set_algo_parameters`` / ``get_algo_parameters`` / ``reset_algo_parameters``: the settings of
AUTO_PARALLEL's strategy search, and ``set_op_strategy_config``.

On XLA the strategy search is the SPMD partitioner's sharding propagation: these settings are kept with
MindSpore's types, ranges and defaults (programs set and read them) and steer nothing else.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters", "set_op_strategy_config"]

_TYPES: dict[str, type] = {
    "fully_use_devices": bool,
    "elementwise_op_strategy_follow": bool,
    "enable_algo_approxi": bool,
    "algo_approxi_epsilon": float,
    "tensor_slice_align_enable": bool,
    "tensor_slice_align_size": int,
}
_DEFAULTS: dict[str, Any] = {
    "fully_use_devices": False,
    "elementwise_op_strategy_follow": False,
    "enable_algo_approxi": False,
    "algo_approxi_epsilon": float(np.float32(0.1)),
    "tensor_slice_align_enable": False,
    "tensor_slice_align_size": 16,
}
_values: dict[str, Any] = dict(_DEFAULTS)


def _exactly(value: Any, want: type) -> bool:
    """``value`` is of type ``want`` itself (True is no int here, 1 no float: MindSpore's check)."""
    return type(value) is want


def set_algo_parameters(**kwargs: Any) -> None:
    """Set the strategy search's parameters (``fully_use_devices``, ``elementwise_op_strategy_follow``,
    ``enable_algo_approxi``, ``algo_approxi_epsilon`` in (0, 1], ``tensor_slice_align_enable``,
    ``tensor_slice_align_size`` in [1, 1024])."""
    for key, given in kwargs.items():
        value: Any = given
        if key not in _TYPES:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        want = _TYPES[key]
        if not _exactly(value, want):
            raise TypeError(f"The parameter '{key}' must be {want}, but got {type(value)}")
        if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
            raise ValueError(f"Align_size must be in [1, 1024], but got {value}")
        if key == "algo_approxi_epsilon":
            if not 0 < value <= 1:
                raise RuntimeError("'epsilon' must be in (0, 1]")
            value = float(np.float32(value))
        _values[key] = value


def get_algo_parameters(attr_key: str) -> Any:
    """The value of one strategy-search parameter."""
    if attr_key not in _TYPES:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _values[attr_key]


def reset_algo_parameters() -> None:
    """Back to the defaults."""
    _values.clear()
    _values.update(_DEFAULTS)


_op_strategy: dict[str, str] = {"mode": "SAVE", "path": ""}


def set_op_strategy_config(mode: str = "SAVE", path: str = "") -> None:
    """Where AUTO_PARALLEL saves (``"SAVE"``) or loads (``"LOAD"``) the operators' strategies: an absolute
    ``.json`` path (its folder is created). XLA's propagation chooses the layouts; the setting is checked
    and kept."""
    if not os.path.isabs(path):
        raise KeyError("File path must be an absolute path")
    if os.path.splitext(path)[1] != ".json":
        raise KeyError("File type must be .json")
    real = os.path.abspath(os.path.realpath(path))
    for system in ("/etc", "/usr", "/bin", "/sbin", "/boot", "/proc", "/sys"):
        if real.startswith(system):
            raise PermissionError(f"Writing to system directory '{system}' is not allowed")
    folder = os.path.dirname(path)
    if folder and not os.path.exists(folder):
        os.makedirs(folder, mode=0o700, exist_ok=True)
    if mode not in ("SAVE", "LOAD"):
        raise KeyError("Type must be 'SAVE' or 'LOAD'")
    _op_strategy.update(mode=mode, path=path)
