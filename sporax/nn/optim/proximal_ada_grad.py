"""ProximalAdagrad."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["ProximalAdagrad"]


class ProximalAdagrad(Optimizer):
    r"""Proximal Adagrad (``ops.ApplyProximalAdagrad``): :math:`a = a + g^2`,
    :math:`r = lr/\sqrt{a}`, :math:`v = p - r\, g`, :math:`p = \mathrm{sign}(v)\max(|v| - r\, l_1, 0)/(1 + r\, l_2)`.
    State: ``accum.<name>`` starting at `accum`. Weight decay (decay filter) and the division by
    `loss_scale` come first.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        accum (float): Initial accumulator, at least 0. Default: ``0.1``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.001``.
        l1 (float): L1 regularization, at least 0. Default: ``0.0``.
        l2 (float): L2 regularization, at least 0. Default: ``0.0``.
        use_locking (bool): Kept for compatibility. Default: ``False``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Examples:
        >>> from sporax import nn
        >>> optim = nn.ProximalAdagrad(nn.Dense(3, 2).trainable_params())
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        accum: float = 0.1,
        learning_rate: Any = 0.001,
        l1: float = 0.0,
        l2: float = 0.0,
        use_locking: bool = False,
        loss_scale: float = 1.0,
        weight_decay: Any = 0.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, value in (("accum", accum), ("l1", l1), ("l2", l2)):
            validator.check_value_type(name, value, [float], self.cls_name)
        validator.check_value_type("use_locking", use_locking, [bool], self.cls_name)
        for name, value in (("accum", accum), ("l1", l1), ("l2", l2)):
            validator.check_non_negative_float(value, name, self.cls_name)
        self.accum = self._parameters.clone(prefix="accum", init=accum)
        self.l1 = l1
        self.l2 = l2
        self.use_locking = use_locking
        self.opt = ops.ApplyProximalAdagrad(use_locking=use_locking)

    @property
    def target(self) -> str:
        return self._target

    @target.setter
    def target(self, value: str) -> None:
        self._set_base_target(value)

    def construct(self, grads: Any) -> tuple[bool, ...]:
        grads, lrs = self._prepared(grads)
        for lr, grad, param, accum in zip(lrs, grads, self._parameters, self.accum):
            self.opt(param, accum, lr, self.l1, self.l2, grad)
        return (True,) * self.param_length
