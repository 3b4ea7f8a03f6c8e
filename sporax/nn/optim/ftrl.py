"""FTRL."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["FTRL"]


class FTRL(Optimizer):
    r"""FTRL-proximal (``ops.ApplyFtrl``), deprecated in MindSpore 2.9 but still offered: with
    :math:`a' = a + g^2`, :math:`linear = linear + g - (a'^{-p} - a^{-p})/lr \cdot p_t`,
    :math:`p = (\mathrm{sign}(linear) l_1 - linear)/(a'^{-p}/lr + 2 l_2)` where :math:`|linear| > l_1`, else 0.
    State: ``moments.<name>`` (starting at `initial_accum`) and ``linear.<name>``. Without groups weight decay
    applies to every parameter (FTRL has no 'beta'/'gamma' filter). No dynamic or group learning rate.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        initial_accum (float): Initial accumulator, at least 0. Default: ``0.1``.
        learning_rate (float): Greater than 0. Default: ``0.001``.
        lr_power (float): At most 0. Default: ``-0.5``.
        l1 (float): At least 0. Default: ``0.0``.
        l2 (float): At least 0. Default: ``0.0``.
        use_locking (bool): Kept for compatibility. Default: ``False``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Examples:
        >>> from sporax import nn
        >>> optim = nn.FTRL(nn.Dense(3, 2).trainable_params())
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        initial_accum: float = 0.1,
        learning_rate: Any = 0.001,
        lr_power: float = -0.5,
        l1: float = 0.0,
        l2: float = 0.0,
        use_locking: bool = False,
        loss_scale: float = 1.0,
        weight_decay: Any = 0.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale=loss_scale)
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError(
                "For 'FTRL', dynamic learning rate and group learning rate are currently not supported in FTRL, "
                f"they should all be false, but got dynamic learning rate {self.dynamic_lr} and group learning "
                f"rate {self.is_group_lr}."
            )
        name = self.cls_name
        validator.check_value_type("initial_accum", initial_accum, [float], name)
        validator.check_number("initial_accum", initial_accum, 0.0, validator.GE, name)
        validator.check_value_type("learning_rate", learning_rate, [float], name)
        validator.check_positive_float(learning_rate, "learning_rate", name)
        validator.check_value_type("lr_power", lr_power, [float], name)
        validator.check_number("lr_power", lr_power, 0.0, validator.LE, name)
        validator.check_value_type("l1", l1, [float], name)
        validator.check_number("l1", l1, 0.0, validator.GE, name)
        validator.check_value_type("l2", l2, [float], name)
        validator.check_number("l2", l2, 0.0, validator.GE, name)
        validator.check_value_type("use_locking", use_locking, [bool], name)
        self.moments = self._parameters.clone(prefix="moments", init=initial_accum)
        self.linear = self._parameters.clone(prefix="linear", init="zeros")
        self.l1 = l1
        self.l2 = l2
        self.lr = learning_rate
        self.lr_power = lr_power
        if not self.is_group:
            self.decay_flags = tuple(True for _ in self._parameters)
        self.use_locking = use_locking
        self.opt = ops.ApplyFtrl(use_locking=use_locking)

    @property
    def target(self) -> str:
        return self._target

    @target.setter
    def target(self, value: str) -> None:
        self._set_base_target(value)

    def construct(self, grads: Any) -> tuple[bool, ...]:
        grads = self._gradient_tuple(grads)
        grads = self.decay_weight(grads)
        grads = self.gradients_centralization(grads)
        grads = self.scale_grad(grads)
        lr = self.get_lr()
        self._advance_step()
        for linear, grad, param, moment in zip(self.linear, grads, self._parameters, self.moments):
            self.opt(param, moment, linear, grad, lr, self.l1, self.l2, self.lr_power)
        return (True,) * self.param_length
