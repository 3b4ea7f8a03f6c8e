"""AdaMax."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["AdaMax"]


class AdaMax(Optimizer):
    r"""AdaMax, Adam with the infinity norm:
    :math:`m = \beta_1 m + (1-\beta_1) g`, :math:`v = \max(\beta_2 v, |g|)`,
    :math:`p = p - \frac{lr}{1-\beta_1^t} \frac{m}{v + \epsilon}`. State: ``moment1.<name>``,
    ``moment2.<name>``, ``beta1_power`` (shape (1,)). Weight decay (``grad + weight_decay * param`` for the
    parameters passing the decay filter) and the division by `loss_scale` come first.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.001``.
        beta1 (float): In (0, 1). Default: ``0.9``.
        beta2 (float): In (0, 1). Default: ``0.999``.
        eps (float): Greater than 0. Default: ``1e-08``.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Examples:
        >>> from sporax import nn
        >>> optim = nn.AdaMax(nn.Dense(3, 2).trainable_params())
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        learning_rate: Any = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        eps: float = 1e-08,
        weight_decay: Any = 0.0,
        loss_scale: float = 1.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_adam_hyper(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.beta1_power = Parameter(Tensor(np.ones([1], np.float32)), name="beta1_power")
        self.eps = Tensor(eps, mstype.float32)
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")
        self.opt = ops.ApplyAdaMax()

    def construct(self, gradients: Any) -> tuple[bool, ...]:
        gradients, lrs = self._prepared(gradients)
        beta1_power = self.beta1_power * self.beta1
        ops.assign(self.beta1_power, beta1_power)
        for lr, param, m, v, grad in zip(lrs, self._parameters, self.moment1, self.moment2, gradients):
            self.opt(param, m, v, beta1_power, lr, self.beta1, self.beta2, self.eps, grad)
        return (True,) * self.param_length
