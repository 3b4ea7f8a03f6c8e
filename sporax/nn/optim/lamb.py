"""Lamb."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["Lamb"]


class Lamb(Optimizer):
    r"""LAMB (Layer-wise Adaptive Moments for Batch training), with MindSpore's kernel:

    .. math::
        m = \beta_1 m + (1 - \beta_1) g,\quad v = \beta_2 v + (1 - \beta_2) g^2,\quad
        \hat m = m / (1 - \beta_1^t),\quad \hat v = v / (1 - \beta_2^t),\\
        u = \hat m / (\sqrt{\hat v} + \epsilon) + wd\, p,\quad
        r = \mathrm{clip}\left(\|p\| / \|\hat m / \sqrt{\hat v + \epsilon} + wd\, p\|, 0, 10\right),\quad
        p = p - r\, lr\, u

    where :math:`t` is ``global_step`` after this step's increment, and :math:`r = 1` when either norm is 0.
    The decay term applies to the parameters that pass the decay filter. As in MindSpore 2.10,
    ``global_step`` advances once per call, after the learning rate is read. There is no `loss_scale`.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): The learning rate.
        beta1 (float): Decay of the first moment, in (0.0, 1.0). Default: ``0.9``.
        beta2 (float): Decay of the second moment, in (0.0, 1.0). Default: ``0.999``.
        eps (float): Added to the denominator, greater than 0. Default: ``1e-6``.
        weight_decay (Union[float, int, Cell]): Weight decay. Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Examples:
        >>> from sporax import nn
        >>> net = nn.Dense(3, 2)
        >>> optim = nn.Lamb(net.trainable_params(), learning_rate=0.1)
    """

    _support_parallel_optimizer = True

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        learning_rate: Any,
        beta1: float = 0.9,
        beta2: float = 0.999,
        eps: float = 1e-6,
        weight_decay: Any = 0.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay)
        validator.check_adam_hyper(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(np.array([beta1]).astype(np.float32))
        self.beta2 = Tensor(np.array([beta2]).astype(np.float32))
        self.eps = Tensor(np.array([eps]).astype(np.float32))
        self.params = self._parameters
        self.moments1 = self.params.clone(prefix="lamb_m", init="zeros")
        self.moments2 = self.params.clone(prefix="lamb_v", init="zeros")

    def construct(self, gradients: Any) -> tuple[bool, ...]:
        gradients = self._gradient_tuple(gradients)
        weight_decay = self.get_weight_decay()
        lrs = self._lr_per_param(self.get_lr())
        self._advance_step()
        gradients = self.flatten_gradients(gradients)
        gradients = self.gradients_centralization(gradients)
        if not self.is_group:
            weight_decay = (weight_decay,) * self.param_length
        beta1, beta2, eps = self.beta1.reshape(()), self.beta2.reshape(()), self.eps.reshape(())
        step = ops.cast(self.global_step, mstype.float32).reshape(())
        bias1 = 1.0 - ops.pow(beta1, step)
        bias2 = 1.0 - ops.pow(beta2, step)
        for lr, wd, param, m, v, grad, flag in zip(
            lrs, weight_decay, self.params, self.moments1, self.moments2, gradients, self.decay_flags
        ):
            next_m = beta1 * m + (1.0 - beta1) * grad
            next_v = beta2 * v + (1.0 - beta2) * ops.square(grad)
            mm = next_m / bias1
            vv = next_v / bias2
            decay = wd * param if flag and self.exec_weight_decay else 0.0
            g_hat = mm / ops.sqrt(vv + eps) + decay
            update = mm / (ops.sqrt(vv) + eps) + decay
            w_norm = ops.norm(ops.reshape(param, (-1,)))
            g_norm = ops.norm(ops.reshape(g_hat, (-1,)))
            ratio = ops.where(ops.logical_and(w_norm > 0.0, g_norm > 0.0), w_norm / g_norm, 1.0)
            ratio = ops.where(ops.isnan(ratio), 0.0, ops.clamp(ratio, 0.0, 10.0))
            ops.assign(m, next_m)
            ops.assign(v, next_v)
            ops.assign(param, param - ratio * lr * update)
        return (True,) * self.param_length
