"""SGD."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["SGD"]


class SGD(Optimizer):
    r"""Stochastic gradient descent, with optional (Nesterov) momentum, as MindSpore's SGD kernel:

    .. math::
        g = grad + wd \cdot p,\quad
        v = \begin{cases} g & \text{first step} \\ u v + (1 - dampening)\, g & \text{otherwise}\end{cases},\quad
        p = p - lr \cdot (g + u v \text{ if nesterov else } v)

    With `momentum` 0, :math:`p = p - lr \cdot g`. Weight decay enters before the division by `loss_scale`
    through the base decay filter (parameters whose names contain neither 'beta' nor 'gamma', or the groups'
    own `weight_decay`), as in MindSpore 2.10.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        momentum (float): The momentum, at least 0.0. Default: ``0.0``.
        dampening (float): Dampening of the momentum, at least 0.0. Default: ``0.0``.
        weight_decay (float): Weight decay (L2 penalty), at least 0. Default: ``0.0``.
        nesterov (bool): Nesterov momentum; needs `momentum` > 0 and `dampening` 0. Default: ``False``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Raises:
        ValueError: If `momentum`, `dampening` or `weight_decay` is less than 0.0.

    Examples:
        >>> from sporax import nn
        >>> net = nn.Dense(3, 2)
        >>> optim = nn.SGD(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        learning_rate: Any = 0.1,
        momentum: float = 0.0,
        dampening: float = 0.0,
        weight_decay: float = 0.0,
        nesterov: bool = False,
        loss_scale: float = 1.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, int) and not isinstance(momentum, bool):
            momentum = float(momentum)
        if not isinstance(momentum, float):
            raise TypeError(f"For 'SGD', the argument 'momentum' must be float type, but got {type(momentum)}.")
        if momentum < 0.0:
            raise ValueError(f"For 'SGD', the argument 'momentum' must be at least 0.0, but got {momentum}.")
        if isinstance(dampening, int) and not isinstance(dampening, bool):
            dampening = float(dampening)
        if not isinstance(dampening, float):
            raise TypeError(f"For 'SGD', the argument 'dampening' must be float type, but got {type(dampening)}.")
        if dampening < 0.0:
            raise ValueError(
                f"For 'SGD', the argument 'dampening' must be at least 0.0, but got 'dampening' {dampening}"
            )
        self.dampening = dampening
        validator.check_arg_type("nesterov", nesterov, [bool], self.cls_name)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(
                "For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must equal to 0.0, "
                f"but got 'momentum' {momentum}, 'dampening' {dampening}"
            )
        self.nesterov = nesterov
        if self.dynamic_weight_decay:
            raise TypeError(
                "For 'SGD', dynamic weight decay is currently not supported, the argument 'weight_decay' or "
                "'weight_decay' set in grouped 'params' must be float or int type."
            )
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        # MindSpore's kernel leaves accum/stat untouched when momentum is 0: decide that once, here, so a
        # plain SGD step carries no momentum state (create a new optimizer to change the momentum).
        self._use_momentum = momentum > 0.0
        self.accum = self._parameters.clone(prefix="accum", init="zeros")
        self.stat = self._parameters.clone(prefix="stat", init="ones")
        self.opt = ops.SGD(float(dampening), 0.0, nesterov)
        self._plain_opt = ops.ApplyGradientDescent()

    def construct(self, gradients: Any) -> tuple[bool, ...]:
        gradients, lrs = self._prepared(gradients)
        momentum = self.momentum
        for lr, grad, param, accum, stat in zip(lrs, gradients, self._parameters, self.accum, self.stat):
            if self._use_momentum:
                self.opt(param, grad, lr, accum, momentum, stat)
            else:
                self._plain_opt(param, lr, grad)
        return (True,) * self.param_length
