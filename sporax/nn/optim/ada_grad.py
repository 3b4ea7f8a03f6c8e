"""Adagrad."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    r"""Adagrad: :math:`h = h + g^2` (when `update_slots`), :math:`p = p - lr\, g / \sqrt{h}`, with the
    accumulator ``accum.<name>`` starting at `accum`. Weight decay (``grad + weight_decay * param``) and the
    division by `loss_scale` come first.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        accum (float): Initial value of the accumulator, at least 0. Default: ``0.1``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.001``.
        update_slots (bool): Update the accumulator. Default: ``True``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Examples:
        >>> from sporax import nn
        >>> net = nn.Dense(3, 2)
        >>> optim = nn.Adagrad(net.trainable_params())
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        accum: float = 0.1,
        learning_rate: Any = 0.001,
        update_slots: bool = True,
        loss_scale: float = 1.0,
        weight_decay: Any = 0.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_arg_type("accum", accum, [float], self.cls_name)
        validator.check_arg_type("update_slots", update_slots, [bool], self.cls_name)
        validator.check_non_negative_float(accum, "accum", self.cls_name)
        self.accum = self._parameters.clone(prefix="accum", init=accum)
        self.update_slots = update_slots
        self.opt = ops.ApplyAdagrad(update_slots=update_slots)

    def construct(self, grads: Any) -> tuple[bool, ...]:
        grads, lrs = self._prepared(grads)
        for lr, param, accum, grad in zip(lrs, self._parameters, self.accum, grads):
            self.opt(param, accum, lr, grad)
        return (True,) * self.param_length
