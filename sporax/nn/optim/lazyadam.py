"""LazyAdam."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from .adam import _advance_powers
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["LazyAdam"]


class LazyAdam(Optimizer):
    r"""Adam whose sparse (row) gradients update only the rows they touch. Gradients here are dense, so
    every row is updated with Adam's formula (``ops.Adam``, with `use_nesterov`), as MindSpore does for dense
    gradients. State: ``moment1.<name>``, ``moment2.<name>``, ``beta1_power``, ``beta2_power`` (shape (1,)).
    Weight decay (decay filter) and the division by `loss_scale` come first.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1e-3``.
        beta1 (float): In (0, 1). Default: ``0.9``.
        beta2 (float): In (0, 1). Default: ``0.999``.
        eps (float): Greater than 0. Default: ``1e-8``.
        use_locking (bool): Kept for compatibility. Default: ``False``.
        use_nesterov (bool): Nesterov's form of the update. Default: ``False``.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Examples:
        >>> from sporax import nn
        >>> optim = nn.LazyAdam(nn.Dense(3, 2).trainable_params())
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        learning_rate: Any = 1e-3,
        beta1: float = 0.9,
        beta2: float = 0.999,
        eps: float = 1e-8,
        use_locking: bool = False,
        use_nesterov: bool = False,
        weight_decay: Any = 0.0,
        loss_scale: float = 1.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = self.cls_name
        validator.check_value_type("beta1", beta1, [float], name)
        validator.check_value_type("beta2", beta2, [float], name)
        validator.check_value_type("eps", eps, [float], name)
        validator.check_value_type("weight_dacay", weight_decay, [float], name)  # MindSpore's spelling
        validator.check_float_range(beta1, 0.0, 1.0, validator.INC_NEITHER, "beta1", name)
        validator.check_float_range(beta2, 0.0, 1.0, validator.INC_NEITHER, "beta2", name)
        validator.check_positive_float(eps, "eps", name)
        validator.check_non_negative_float(weight_decay, "weight_decay", name)
        validator.check_value_type("use_locking", use_locking, [bool], name)
        validator.check_value_type("use_nesterov", use_nesterov, [bool], name)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.beta1_power = Parameter(Tensor(np.ones([1], np.float32)), name="beta1_power")
        self.beta2_power = Parameter(Tensor(np.ones([1], np.float32)), name="beta2_power")
        self.eps = Tensor(eps, mstype.float32)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")
        self.opt = ops.Adam(use_locking, use_nesterov)

    @property
    def target(self) -> str:
        return self._target

    @target.setter
    def target(self, value: str) -> None:
        self._set_base_target(value)

    def construct(self, gradients: Any) -> tuple[bool, ...]:
        gradients, lrs = self._prepared(gradients)
        beta1_power, beta2_power = _advance_powers(self)
        for lr, grad, param, m, v in zip(lrs, gradients, self._parameters, self.moment1, self.moment2):
            self.opt(param, m, v, beta1_power, beta2_power, lr, self.beta1, self.beta2, self.eps, grad)
        return (True,) * self.param_length
