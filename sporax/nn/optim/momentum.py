"""Momentum."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["Momentum"]


class Momentum(Optimizer):
    r"""Momentum algorithm: :math:`v_{t+1} = u v_t + grad`, then :math:`p_{t+1} = p_t - lr\,v_{t+1}`, or
    with Nesterov momentum :math:`p_{t+1} = p_t - (grad\,lr + v_{t+1}\,u\,lr)`.

    Weight decay (``grad + weight_decay * param``) and the division by `loss_scale` come first.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): The learning rate.
        momentum (float): The momentum, at least 0.0.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.
        use_nesterov (bool): Nesterov momentum. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Raises:
        TypeError: If `momentum` is not a float or `use_nesterov` not a bool.
        ValueError: If `momentum` is less than 0.

    Examples:
        >>> from sporax import nn
        >>> net = nn.Dense(3, 2)
        >>> optim = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        learning_rate: Any,
        momentum: float,
        weight_decay: Any = 0.0,
        loss_scale: float = 1.0,
        use_nesterov: bool = False,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_arg_type("momentum", momentum, [float], self.cls_name)
        if momentum < 0.0:
            raise ValueError(f"For 'Momentum', the argument 'momentum' must be at least 0.0, but got {momentum}")
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.params = self._parameters
        self.use_nesterov = validator.check_bool(use_nesterov, "use_nesterov", self.cls_name)
        self.moments = self.params.clone(prefix="moments", init="zeros")
        self.opt = ops.ApplyMomentum(use_nesterov=self.use_nesterov)

    def construct(self, gradients: Any) -> tuple[bool, ...]:
        gradients, lrs = self._prepared(gradients)
        momentum = self.momentum
        for lr, grad, param, moment in zip(lrs, gradients, self.params, self.moments):
            self.opt(param, moment, lr, grad, momentum)
        return (True,) * self.param_length
