"""``OptTFTWrapper``: an optimizer wrapped for training fault tolerance (MindIO TFT).

As MindSpore 2.10: the switch ``MS_ENABLE_TFT`` must name TTP, UCE or ARF; each step all-reduces a flag
before the update (a rank that failed stops the others there) and then runs the wrapped optimizer, whose
update is unchanged. MindSpore reports the step to the MindIO controller on Ascend; sporax has no MindIO
controller (the flag and the all-reduce run, nothing is reported), on every backend.
"""

from __future__ import annotations

import os
from typing import Any

from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from .optimizer import Optimizer

__all__ = ["OptTFTWrapper"]

_SHARED = (
    "optim_filter", "loss_scale", "dynamic_weight_decay", "grad_centralization", "dynamic_lr", "is_group",
    "is_group_lr", "is_group_params_ordered", "use_parallel", "decay_flags", "dynamic_decay_flags",
    "exec_weight_decay", "reciprocal_scale", "need_scale", "global_step_increase_tensor", "param_length",
)  # fmt: skip
_GROUPED = ("group_params", "group_lr", "group_weight_decay", "group_grad_centralization", "grad_centralization_flags")


class OptTFTWrapper(Optimizer):
    """Wrap ``opt`` for fault-tolerant training.

    Args:
        opt (Optimizer): the optimizer.
        kwargs: reserved.

    Raises:
        TypeError: ``opt`` is not an Optimizer.
        ValueError: ``MS_ENABLE_TFT`` does not switch on TTP, UCE or ARF.
    """

    def __init__(self, opt: Any, **kwargs: Any) -> None:
        if not isinstance(opt, Optimizer):
            raise TypeError(f"For 'OptTFTWrapper', the argument 'opt' must be Optimizer type, but got {type(opt)}.")
        super().__init__(opt.learning_rate, opt._parameters)
        tft_env = os.getenv("MS_ENABLE_TFT", "")
        if "TTP:1" not in tft_env and "UCE:1" not in tft_env and "ARF:1" not in tft_env:
            raise ValueError("MindIO TFT regitster need custom switch on[MS_ENABLE_TFT='{TTP:1,UCE:1,ARF:1}']!")
        self.opt = opt
        self.allreduce_sum = ops.AllReduce()
        self.tft_g_one_flag = Parameter(Tensor([1], dtype=mstype.int32), name="tft_g_one_flag")
        for name in _SHARED + (_GROUPED if opt.is_group else ()):
            if hasattr(opt, name):
                object.__setattr__(self, name, getattr(opt, name))
        self.global_step = opt.global_step
        self.learning_rate = opt.learning_rate
        self.parameters = opt.parameters
        self.weight_decay = opt.weight_decay

    def construct(self, gradients: Any) -> Any:
        ops.assign(self.tft_g_one_flag, self.allreduce_sum(self.tft_g_one_flag))
        return self.opt(gradients)
