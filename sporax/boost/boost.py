"""``AutoBoost``: which boosts a training run gets (levels O0/O1/O2 and ``boost_config_dict``).

As MindSpore 2.10's ``mindspore.boost.AutoBoost`` (one instance per process; the first construction's
settings stay): level O0 turns nothing on, O1 ``less_bn`` and ``grad_freeze``, O2 also ``adasum``. A
``boost_config_dict`` ({"boost": {"mode": ...}, "common": {...}, "less_bn": {...}, "grad_freeze": {...},
"dim_reduce": {...}}) changes them: mode "auto" keeps the level's choice, "manual" takes the dict's
booleans, "enable_all"/"disable_all" turn all on/off; the sections of the boosts that are on (and
"common") set their hyperparameters.
"""

from __future__ import annotations

import copy
import threading
from typing import Any

from ..nn.cell import Cell
from ..nn.optim import SGD
from .base import OptimizerProcess, ParameterProcess, _get_local_pca_mat_path
from .grad_freeze import GradientFreeze
from .less_batch_normalization import LessBN

__all__ = ["AutoBoost"]

_boost_config_mode = ["auto", "manual", "enable_all", "disable_all"]
_BOOSTS = ("less_bn", "grad_freeze", "adasum", "grad_accumulation", "dim_reduce", "loss_scale_group")
_boost_config_level = {
    "O0": dict.fromkeys(_BOOSTS, False),
    "O1": {**dict.fromkeys(_BOOSTS, False), "less_bn": True, "grad_freeze": True},
    "O2": {**dict.fromkeys(_BOOSTS, False), "less_bn": True, "grad_freeze": True, "adasum": True},
}

# config key -> AutoBoost attribute
_CONFIG_ATTRS = {
    "fn_flag": "_fn_flag",
    "gc_flag": "_gc_flag",
    "param_groups": "_param_groups",
    "freeze_type": "_freeze_type",
    "freeze_p": "_freeze_p",
    "total_steps": "_total_steps",
    "device_number": "device_number",
    "gradient_split_groups": "gradient_groups",
    "grad_accumulation_step": "grad_accumulation_step",
    "rho": "rho",
    "gamma": "gamma",
    "alpha": "alpha",
    "sigma": "sigma",
    "n_components": "n_components",
    "pca_mat_path": "pca_mat_path",
    "weight_load_dir": "weight_load_dir",
    "timeout": "timeout",
}


class AutoBoost:
    """The boost settings of this process.

    Args:
        level (str): "O0", "O1" or "O2" (anything else is "O0"). Default "O0".
        boost_config_dict (dict): the settings (see the module text). Default "".

    Raises:
        ValueError: the mode is not one of "auto", "manual", "enable_all", "disable_all".
    """

    _instance_lock = threading.Lock()
    _instance: AutoBoost | None = None
    level: str | None  # None until the one instance's first __init__
    boost_config_dict: Any

    def __new__(cls, *args: Any, **kwargs: Any) -> AutoBoost:
        inst = AutoBoost._instance
        if inst is None:
            with AutoBoost._instance_lock:
                inst = AutoBoost._instance
                if inst is None:
                    inst = object.__new__(cls)
                    inst.level = None
                    inst.boost_config_dict = None
                    AutoBoost._instance = inst
        return inst

    def __init__(self, level: str = "O0", boost_config_dict: Any = "") -> None:
        if level not in _boost_config_level:
            level = "O0"
        if self.level is not None:  # the one instance, set up already
            return
        self.level = level
        self.boost_config_dict = boost_config_dict
        self._fn_flag = True
        self._gc_flag = True
        self._param_groups = 10
        self._freeze_type = 1
        self._freeze_p = 0.7
        self._total_steps = 65536
        self.gradient_groups: list | None = None
        self.device_number = 8
        self.grad_accumulation_step = 1
        self.rho = 0.55
        self.gamma = 0.9
        self.alpha = 0.001
        self.sigma = 0.4
        self.n_components = 32
        self.pca_mat_path: str | None = None
        self.weight_load_dir: str | None = None
        self.local_pca_mat_path: str | None = None
        self.timeout = 1800
        self.boost_config = self._get_configuration(level, self.boost_config_dict)
        self._param_processer = ParameterProcess()

    def network_auto_process_train(self, network: Cell, optimizer: Any) -> tuple[Cell, Any]:
        """The boosted (network, optimizer) for training."""
        if self.boost_config.get("dim_reduce"):
            self.local_pca_mat_path = _get_local_pca_mat_path(
                self.weight_load_dir, self.pca_mat_path, self.n_components, self.device_number, network
            )
            optimizer = SGD(network.trainable_params(), learning_rate=1)
            optimizer.dim_reduce = True
            return network, optimizer
        if self.boost_config.get("less_bn"):
            network = LessBN(network, fn_flag=self._fn_flag)
            process = OptimizerProcess(optimizer)
            groups = self._param_processer.assign_parameter_group(network.trainable_params(), self.gradient_groups)
            process.origin_params = ParameterProcess.generate_group_params(groups, process.origin_params)
            if self._gc_flag:
                process.add_grad_centralization(network)
            optimizer = process.generate_new_optimizer()
        if self.boost_config.get("grad_freeze"):
            freezer = GradientFreeze(self._param_groups, self._freeze_type, self._freeze_p, self._total_steps)
            network, optimizer = freezer.freeze_generate(network, optimizer)
        if self.boost_config.get("adasum"):
            optimizer.adasum = True
        return network, optimizer

    def network_auto_process_eval(self, network: Cell) -> Cell:
        """The boosted network for evaluation."""
        if self.boost_config.get("dim_reduce"):
            return network
        if self.boost_config.get("less_bn"):
            network = LessBN(network)
        return network

    def _set_gradient_split_groups(self, gradient_groups: Any) -> None:
        if not isinstance(gradient_groups, (list, int)):
            raise ValueError(f"gradient_groups `{gradient_groups}` is not in (list, int)")
        self.gradient_groups = [gradient_groups] if isinstance(gradient_groups, int) else gradient_groups

    def _get_configuration(self, level: str, boost_config_dict: Any) -> dict:
        level_config = copy.deepcopy(_boost_config_level[level])
        if not boost_config_dict:
            return level_config
        mode = boost_config_dict.get("boost", {}).get("mode", "auto")
        if mode not in _boost_config_mode:
            raise ValueError(f"The boost mode must be in {_boost_config_mode}, but got {mode}")
        if mode == "manual":
            for key, value in boost_config_dict["boost"].items():
                if key in level_config:
                    level_config[key] = value
        elif mode == "enable_all":
            level_config = dict.fromkeys(level_config, True)
        elif mode == "disable_all":
            level_config = dict.fromkeys(level_config, False)
        self._do_new_config_func(boost_config_dict, level_config)
        return level_config

    def _do_new_config_func(self, boost_config_dict: dict, level_config: dict) -> None:
        """Apply the hyperparameters of the sections of the boosts that are on, and of "common"."""
        for key, section in boost_config_dict.items():
            if not ((key in level_config and level_config[key]) or key == "common"):
                continue
            for name, value in section.items():
                if name == "gradient_split_groups":
                    self._set_gradient_split_groups(value)
                elif name in _CONFIG_ATTRS:
                    setattr(self, _CONFIG_ATTRS[name], value)
