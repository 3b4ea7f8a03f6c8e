"""RMSProp."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    r"""Root Mean Square Propagation:

    .. math::
        s = \rho s + (1 - \rho) g^2,\quad m = \beta m + lr\, g / \sqrt{s + \epsilon},\quad p = p - m

    If `centered`, :math:`\bar g = \rho \bar g + (1 - \rho) g` and the denominator is
    :math:`\sqrt{s - \bar g^2 + \epsilon}`; elements where :math:`s - \bar g^2 + \epsilon \le 0` keep their
    moment and value (as MindSpore's kernel). ``mean_square`` starts at 1, ``moment`` and ``mean_grad`` at 0.
    Weight decay (``grad + weight_decay * param``) and the division by `loss_scale` come first. As in
    MindSpore, ``global_step`` advances once per call on top of ``get_lr``'s increment.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        decay (float): Decay rate :math:`\rho`, at least 0. Default: ``0.9``.
        momentum (float): Momentum :math:`\beta`, at least 0. Default: ``0.0``.
        epsilon (float): Added inside the square root, greater than 0. Default: ``1e-10``.
        use_locking (bool): Accepted for compatibility. Default: ``False``.
        centered (bool): Normalize by the estimated variance of the gradient. Default: ``False``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Examples:
        >>> from sporax import nn
        >>> net = nn.Dense(3, 2)
        >>> optim = nn.RMSProp(net.trainable_params(), learning_rate=0.01)
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        learning_rate: Any = 0.1,
        decay: float = 0.9,
        momentum: float = 0.0,
        epsilon: float = 1e-10,
        use_locking: bool = False,
        centered: bool = False,
        loss_scale: float = 1.0,
        weight_decay: Any = 0.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_arg_type("decay", decay, [float], self.cls_name)
        validator.check_non_negative_float(decay, "decay", self.cls_name)
        validator.check_arg_type("momentum", momentum, [float], self.cls_name)
        validator.check_non_negative_float(momentum, "momentum", self.cls_name)
        validator.check_arg_type("epsilon", epsilon, [float], self.cls_name)
        validator.check_positive_float(epsilon, "epsilon", self.cls_name)
        validator.check_arg_type("use_locking", use_locking, [bool], self.cls_name)
        validator.check_arg_type("centered", centered, [bool], self.cls_name)
        self.centered = centered
        if centered:
            self.mg = self._parameters.clone(prefix="mean_grad", init="zeros")
        self.momentum = momentum
        self.ms = self._parameters.clone(prefix="mean_square", init="ones")
        self.moment = self._parameters.clone(prefix="moment", init="zeros")
        self.epsilon = epsilon
        self.decay = decay

    def construct(self, gradients: Any) -> tuple[bool, ...]:
        gradients, lrs = self._prepared(gradients)
        decay, momentum, epsilon = self.decay, self.momentum, self.epsilon
        mgs = self.mg if self.centered else (None,) * self.param_length
        for lr, param, mg, ms, mom, grad in zip(lrs, self._parameters, mgs, self.ms, self.moment, gradients):
            next_ms = ms + (grad * grad - ms) * (1.0 - decay)
            ops.assign(ms, next_ms)
            if mg is None:
                next_mom = mom * momentum + grad * lr / ops.sqrt(next_ms + epsilon)
                ops.assign(mom, next_mom)
                ops.assign(param, param - next_mom)
                continue
            next_mg = mg + (grad - mg) * (1.0 - decay)
            ops.assign(mg, next_mg)
            denom = (next_ms - next_mg * next_mg) + epsilon
            valid = denom > 0.0  # the centered kernel skips elements whose variance estimate is not positive
            next_mom = mom * momentum + grad * lr / ops.sqrt(ops.where(valid, denom, 1.0))
            ops.assign(mom, ops.where(valid, next_mom, mom))
            ops.assign(param, ops.where(valid, param - next_mom, param))
        return (True,) * self.param_length
