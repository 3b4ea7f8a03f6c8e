"""ASGD."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["ASGD"]


class ASGD(Optimizer):
    r"""Averaged SGD: :math:`p = p(1 - \lambda \eta) - \eta g`; :math:`ax = ax + \mu (p - ax)` (or
    :math:`ax = p` while :math:`\mu = 1`); then :math:`\eta = lr/(1 + \lambda\, lr\, t)^\alpha` and
    :math:`\mu = 1/\max(1, t - t_0)` with :math:`t` the step count. :math:`\eta` starts at `learning_rate`
    on the first step. State per parameter: ``mu_<name>``, ``eta_<name>`` (scalars) and ``ax_.<name>``.
    Weight decay (decay filter) comes first; there is no `loss_scale`.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        lambd (float): The decay term. Default: ``1e-4``.
        alpha (float): The power of the eta update. Default: ``0.75``.
        t0 (float): The step where averaging starts. Default: ``1e6``.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        bool, True.

    Examples:
        >>> from sporax import nn
        >>> optim = nn.ASGD(nn.Dense(3, 2).trainable_params())
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        learning_rate: Any = 0.1,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: Any = 0.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay)
        validator.check_value_type("lambd", lambd, [float], self.cls_name)
        validator.check_value_type("alpha", alpha, [float], self.cls_name)
        validator.check_value_type("t0", t0, [float], self.cls_name)
        self.lambd = lambd
        self.alpha = alpha
        self.t0 = Tensor([t0], dtype=mstype.float32)
        self.mu = ParameterTuple(
            [Parameter(Tensor(1.0, dtype=mstype.float32), name="mu_" + p.name) for p in self._parameters]
        )
        self.eta = ParameterTuple(
            [Parameter(Tensor(0.0, dtype=mstype.float32), name="eta_" + p.name) for p in self._parameters]
        )
        self.lens = len(self._parameters)
        self.ax = self._parameters.clone(prefix="ax_", init="zeros")

    def construct(self, gradients: Any) -> bool:
        gradients, lrs = self._prepared(gradients)
        step = ops.cast(self.global_step.reshape(()), mstype.float32)
        for lr, grad, param, mu, eta, ax in zip(lrs, gradients, self._parameters, self.mu, self.eta, self.ax):
            lr = ops.cast(lr, mstype.float32).reshape(())
            eta_now = ops.where(step == 1.0, lr, eta)
            p32 = ops.cast(param, mstype.float32)
            p32 = p32 * (1.0 - self.lambd * eta_now) - eta_now * ops.cast(grad, mstype.float32)
            ops.assign(param, ops.cast(p32, param.dtype))
            ax32 = ops.cast(ax, mstype.float32)
            ops.assign(ax, ops.cast(ops.where(mu != 1.0, ax32 + (p32 - ax32) * mu, p32), ax.dtype))
            ops.assign(eta, lr / ops.pow(1.0 + self.lambd * lr * step, self.alpha))
            ops.assign(mu, 1.0 / ops.maximum(ops.ones_like(step), step - self.t0.reshape(())))
        return True
