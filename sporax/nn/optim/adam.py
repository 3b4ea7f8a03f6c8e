"""Adam, AdamWeightDecay, AdamOffload."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["Adam", "AdamWeightDecay", "AdamOffload"]


def _advance_powers(opt: Any) -> tuple[Any, Any]:
    """Adam's and LazyAdam's bias-correction powers: ``beta1_power *= beta1``, ``beta2_power *= beta2``; the
    new values."""
    beta1_power = opt.beta1_power * opt.beta1
    ops.assign(opt.beta1_power, beta1_power)
    beta2_power = opt.beta2_power * opt.beta2
    ops.assign(opt.beta2_power, beta2_power)
    return beta1_power, beta2_power


class Adam(Optimizer):
    r"""Adam (Adaptive Moment Estimation), with MindSpore's bias correction through ``beta1_power`` and
    ``beta2_power`` (:math:`\beta_1^t`, :math:`\beta_2^t`):

    .. math::
        m = m + (1 - \beta_1)(g - m),\quad v = v + (1 - \beta_2)(g^2 - v),\quad
        lr_t = lr \sqrt{1 - \beta_2^t} / (1 - \beta_1^t),\quad
        p = p - lr_t\, m / (\sqrt{v} + \epsilon)

    With `use_nesterov`, :math:`m` in the last step becomes :math:`\beta_1 m + (1 - \beta_1) g`; with
    `use_amsgrad`, :math:`\hat v = \max(\hat v, v)` replaces :math:`v` there. Weight decay
    (``grad + weight_decay * param``) and the division by `loss_scale` come first.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1e-3``.
        beta1 (float): Decay of the first moment, in (0.0, 1.0). Default: ``0.9``.
        beta2 (float): Decay of the second moment, in (0.0, 1.0). Default: ``0.999``.
        eps (float): Added to the denominator, greater than 0. Default: ``1e-8``.
        use_locking (bool): Accepted for compatibility (updates are never racy here). Default: ``False``.
        use_nesterov (bool): Nesterov momentum. Default: ``False``.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.
        use_amsgrad (bool): The AMSGrad variant. Default: ``False``.
        kwargs: ``use_lazy`` and ``use_offload`` (bool): for dense gradients both give the same update.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Raises:
        TypeError: If `beta1`, `beta2` or `eps` is not a float, or a flag not a bool.
        ValueError: If `beta1` or `beta2` is not in (0.0, 1.0), or `eps` not greater than 0.

    Examples:
        >>> from sporax import nn
        >>> net = nn.Dense(3, 2)
        >>> optim = nn.Adam(net.trainable_params(), learning_rate=1e-3)
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        learning_rate: Any = 1e-3,
        beta1: float = 0.9,
        beta2: float = 0.999,
        eps: float = 1e-8,
        use_locking: bool = False,
        use_nesterov: bool = False,
        weight_decay: Any = 0.0,
        loss_scale: float = 1.0,
        use_amsgrad: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        use_lazy = kwargs.get("use_lazy", False)
        use_offload = kwargs.get("use_offload", False)
        validator.check_adam_hyper(beta1, beta2, eps, self.cls_name)
        validator.check_arg_type("use_locking", use_locking, [bool], self.cls_name)
        validator.check_arg_type("use_nesterov", use_nesterov, [bool], self.cls_name)
        validator.check_arg_type("use_amsgrad", use_amsgrad, [bool], self.cls_name)
        validator.check_arg_type("use_lazy", use_lazy, [bool], self.cls_name)
        validator.check_arg_type("use_offload", use_offload, [bool], self.cls_name)
        if use_lazy and use_offload:
            raise ValueError(
                "For 'Adam', 'use_lazy' and 'use_offload' can not both be True."
                f"But got use_lazy={use_lazy}, use_offload={use_offload}."
            )
        if use_amsgrad and (use_lazy or use_offload):
            raise ValueError(
                "For lazy Adam and Adam with offload, there is no parameter named 'use_amsgrad'."
                f"but got 'use_amsgrad'={use_amsgrad}."
            )
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.beta1_power = Parameter(Tensor(1.0, mstype.float32), name="beta1_power")
        self.beta2_power = Parameter(Tensor(1.0, mstype.float32), name="beta2_power")
        self.eps = Tensor(eps, mstype.float32)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.use_amsgrad = use_amsgrad
        self.use_lazy = use_lazy
        self.use_offload = use_offload
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")
        if use_amsgrad:
            self.vhat = self._parameters.clone(prefix="vhat", init="zeros")

    @property
    def target(self) -> str:
        return self._target

    @target.setter
    def target(self, value: str) -> None:
        self._set_base_target(value)

    def construct(self, gradients: Any) -> tuple[bool, ...]:
        gradients, lrs = self._prepared(gradients, centralize=not self.use_offload)
        beta1, beta2, eps = self.beta1, self.beta2, self.eps
        beta1_power, beta2_power = _advance_powers(self)
        vhats = self.vhat if self.use_amsgrad else (None,) * self.param_length
        for lr, grad, param, m, v, vhat in zip(lrs, gradients, self._parameters, self.moment1, self.moment2, vhats):
            lr_t = lr * ops.sqrt(1.0 - beta2_power) / (1.0 - beta1_power)
            next_m = m + (grad - m) * (1.0 - beta1)
            next_v = v + (grad * grad - v) * (1.0 - beta2)
            if vhat is not None:
                next_vhat = ops.maximum(vhat, next_v)
                update = next_m / (ops.sqrt(next_vhat) + eps)
                ops.assign(vhat, next_vhat)
            elif self.use_nesterov:
                update = (next_m * beta1 + (1.0 - beta1) * grad) / (eps + ops.sqrt(next_v))
            else:
                update = next_m / (eps + ops.sqrt(next_v))
            ops.assign(m, next_m)
            ops.assign(v, next_v)
            ops.assign(param, param - lr_t * update)
        return (True,) * self.param_length


class AdamOffload(Adam):
    r"""Adam whose moments MindSpore keeps on the host; here the update is compiled with the step like any
    other optimizer, with :class:`Adam`'s formulas.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1e-3``.
        beta1 (float): Decay of the first moment, in (0.0, 1.0). Default: ``0.9``.
        beta2 (float): Decay of the second moment, in (0.0, 1.0). Default: ``0.999``.
        eps (float): Added to the denominator, greater than 0. Default: ``1e-8``.
        use_locking (bool): Accepted for compatibility. Default: ``False``.
        use_nesterov (bool): Nesterov momentum. Default: ``False``.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.
    """

    def __init__(
        self,
        params: Any,
        learning_rate: Any = 1e-3,
        beta1: float = 0.9,
        beta2: float = 0.999,
        eps: float = 1e-8,
        use_locking: bool = False,
        use_nesterov: bool = False,
        weight_decay: Any = 0.0,
        loss_scale: float = 1.0,
    ) -> None:
        super().__init__(
            params,
            learning_rate,
            beta1,
            beta2,
            eps,
            use_locking,
            use_nesterov,
            weight_decay,
            loss_scale,
            use_offload=True,
        )


class AdamWeightDecay(Optimizer):
    r"""Adam with decoupled weight decay, without bias correction (as MindSpore):

    .. math::
        m = \beta_1 m + (1 - \beta_1) g,\quad v = \beta_2 v + (1 - \beta_2) g^2,\quad
        p = p - lr \left(m / (\sqrt{v} + \epsilon) + wd\, p\right)

    The decay term applies to the parameters that pass the decay filter (names without 'beta' or
    'gamma', or groups with a positive `weight_decay`). There is no `loss_scale`.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1e-3``.
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
        >>> optim = nn.AdamWeightDecay(net.trainable_params(), weight_decay=0.01)
    """

    _support_parallel_optimizer = True

    def __init__(
        self,
        params: Any,
        learning_rate: Any = 1e-3,
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
        self.moments1 = self._parameters.clone(prefix="adam_m", init="zeros")
        self.moments2 = self._parameters.clone(prefix="adam_v", init="zeros")

    @property
    def target(self) -> str:
        return self._target

    @target.setter
    def target(self, value: str) -> None:
        self._set_base_target(value)

    def construct(self, gradients: Any) -> tuple[bool, ...]:
        gradients = self._gradient_tuple(gradients)
        gradients = self.flatten_gradients(gradients)
        weight_decay = self.get_weight_decay()
        if not self.is_group:
            weight_decay = (weight_decay,) * self.param_length
        lrs = self._lr_per_param(self.get_lr())
        self._advance_step()
        beta1, beta2, eps = self.beta1.reshape(()), self.beta2.reshape(()), self.eps.reshape(())
        for lr, wd, param, m, v, grad, flag in zip(
            lrs, weight_decay, self._parameters, self.moments1, self.moments2, gradients, self.decay_flags
        ):
            next_m = beta1 * m + (1.0 - beta1) * grad
            next_v = beta2 * v + (1.0 - beta2) * ops.square(grad)
            update = next_m / (eps + ops.sqrt(next_v))
            if flag and self.exec_weight_decay:
                update = wd * param + update
            ops.assign(m, next_m)
            ops.assign(v, next_v)
            ops.assign(param, param - lr * update)
        return (True,) * self.param_length
