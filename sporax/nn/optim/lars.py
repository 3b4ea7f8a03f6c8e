"""LARS."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["LARS"]


def _default_lars_filter(x: Parameter) -> bool:
    return "LayerNorm" not in x.name and "bias" not in x.name


class LARS(Optimizer):
    r"""Layer-wise adaptive rate scaling around another optimizer (deprecated in MindSpore 2.9, still offered):
    the gradients of the parameters passing `lars_filter` become ``ops.LARSUpdate``'s
    :math:`c\,(g + wd\, w)` with :math:`c = coefficient \cdot \|w\| / (\|g\| + wd\|w\| + \epsilon)`, where
    `wd` is the wrapped optimizer's weight decay for parameters passing its decay filter (else 0); the
    wrapped optimizer's own weight decay and loss-scale division are switched off (LARS divides by the loss
    scale first), then the wrapped optimizer steps.

    Args:
        optimizer (Optimizer): The optimizer to wrap.
        epsilon (float): Added to the denominator. Default: ``1e-05``.
        coefficient (float): Trust coefficient. Default: ``0.001``.
        use_clip (bool): Clip the local rate to ``min(c / lr, 1)``. Default: ``False``.
        lars_filter (Callable): Which parameters LARS rescales. Default: names without 'LayerNorm' or 'bias'.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of the wrapped optimizer's parameters.

    Outputs:
        The wrapped optimizer's output.

    Examples:
        >>> from sporax import nn
        >>> opt = nn.LARS(nn.Momentum(nn.Dense(3, 2).trainable_params(), 0.1, 0.9))
    """

    @opt_init_args_register
    def __init__(
        self,
        optimizer: Any,
        epsilon: float = 1e-05,
        coefficient: float = 0.001,
        use_clip: bool = False,
        lars_filter: Any = _default_lars_filter,
    ) -> None:
        super().__init__(0.0, [Parameter(Tensor(0.0), name="fake_param")])
        validator.check_value_type("optimizer", optimizer, Optimizer, self.cls_name)
        validator.check_value_type("epsilon", epsilon, [float], self.cls_name)
        validator.check_value_type("coefficient", coefficient, [float], self.cls_name)
        validator.check_value_type("use_clip", use_clip, [bool], self.cls_name)
        self.opt = optimizer
        self.dynamic_decay_flags = optimizer.dynamic_decay_flags
        self.dynamic_weight_decay = optimizer.dynamic_weight_decay
        self.weight_decay = optimizer.weight_decay
        self.global_step = optimizer.global_step
        self.parameters = optimizer.parameters
        self._parameters = optimizer.parameters
        self.param_length = optimizer.param_length
        self.use_clip = use_clip
        self.lars_flag = tuple(bool(lars_filter(x)) for x in self.parameters)
        self.is_group = optimizer.is_group
        self.learning_rate = Parameter(Tensor(0.0, dtype=mstype.float32), name="fake_lr")
        self.decay_flags = optimizer.decay_flags
        self.reciprocal_scale = optimizer.reciprocal_scale
        self.need_scale = optimizer.need_scale
        self.lars = ops.LARSUpdate(epsilon, coefficient, use_clip)
        self.loss_scale = optimizer.loss_scale
        if use_clip:
            self.is_group_lr = optimizer.is_group_lr
            self.dynamic_lr = optimizer.dynamic_lr
            self.origin_learning_rate = optimizer.learning_rate
            if self.is_group_lr and self.dynamic_lr:
                raise ValueError(
                    "For 'LARS', if the argument 'use_clip' is set to True, then the dynamic learning rate and group "
                    "learning rate cannot both be true."
                )
        if self.is_group:
            optimizer.dynamic_decay_flags = tuple(False for _ in self.dynamic_decay_flags)
        else:
            optimizer.dynamic_decay_flags = False
        optimizer.decay_flags = tuple(False for _ in self.decay_flags)
        optimizer.dynamic_weight_decay = False
        optimizer.reciprocal_scale = Tensor(1.0, mstype.float32)
        optimizer.exec_weight_decay = False

    def _get_lr(self) -> Any:
        lr = self.origin_learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                return tuple(schedule(self.global_step).reshape(()) for schedule in self.origin_learning_rate)
            return self.origin_learning_rate(self.global_step).reshape(())
        return lr

    def construct(self, gradients: Any) -> Any:
        gradients = self._gradient_tuple(gradients)
        lr = self._get_lr() if self.use_clip else self.learning_rate
        weight_decay = self.get_weight_decay()
        if self.need_scale:
            gradients = tuple(g * ops.cast(self.reciprocal_scale, g.dtype) for g in gradients)
        lrs = tuple(lr) if self.is_group_lr and self.use_clip else (lr,) * self.param_length
        wds = tuple(weight_decay) if self.is_group else (weight_decay,) * self.param_length
        new_grads = []
        for lr_i, wd, grad, param, decay, flag in zip(
            lrs, wds, gradients, self.parameters, self.decay_flags, self.lars_flag
        ):
            if flag:
                w_sq, g_sq = ops.sum(param * param), ops.sum(grad * grad)
                wd_i = wd / self.loss_scale if decay else 0.0
                grad = self.lars(param, grad, w_sq, g_sq, wd_i, lr_i)
            new_grads.append(grad)
        success = self.opt(tuple(new_grads))
        if self._is_dynamic_lr_or_weight_decay() and not self.opt.dynamic_lr and not self.opt.dynamic_weight_decay:
            self._advance_step()
        return success
