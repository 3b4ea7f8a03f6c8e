"""Adadelta."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    r"""Adadelta (``ops.ApplyAdadelta``): :math:`a = \rho a + (1-\rho) g^2`,
    :math:`u = \sqrt{a_u + \epsilon}/\sqrt{a + \epsilon}\, g`, :math:`a_u = \rho a_u + (1-\rho) u^2`,
    :math:`p = p - lr\, u`. State: ``accum.<name>``, ``accum_update.<name>``. Weight decay (decay filter) and
    the division by `loss_scale` come first.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1.0``.
        rho (float): Decay rate in [0, 1]. Default: ``0.9``.
        epsilon (float): At least 0. Default: ``1e-6``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Examples:
        >>> from sporax import nn
        >>> optim = nn.Adadelta(nn.Dense(3, 2).trainable_params())
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        learning_rate: Any = 1.0,
        rho: float = 0.9,
        epsilon: float = 1e-6,
        loss_scale: float = 1.0,
        weight_decay: Any = 0.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_value_type("rho", rho, [float], self.cls_name)
        validator.check_value_type("epsilon", epsilon, [float], self.cls_name)
        validator.check_float_range(rho, 0.0, 1.0, validator.INC_BOTH, "rho", self.cls_name)
        validator.check_non_negative_float(epsilon, "epsilon", self.cls_name)
        self.accum = self.parameters.clone(prefix="accum", init=0)
        self.accum_update = self.parameters.clone(prefix="accum_update", init=0)
        self.opt = ops.ApplyAdadelta()
        self.rho = rho
        self.epsilon = epsilon

    def construct(self, grads: Any) -> tuple[bool, ...]:
        if not isinstance(grads, tuple) or not grads or not hasattr(grads[0], "shape"):
            raise TypeError("For 'Adadelta', the 'grads' must be a tuple of Tensor.")
        grads, lrs = self._prepared(grads)
        for lr, param, accum, accum_update, grad in zip(lrs, self.parameters, self.accum, self.accum_update, grads):
            self.opt(param, accum, accum_update, lr, self.rho, self.epsilon, grad)
        return (True,) * self.param_length
