"""Rprop."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["Rprop"]


class Rprop(Optimizer):
    r"""Resilient backpropagation: each element's step size is multiplied by `etaplus` when its gradient keeps
    its sign, by `etaminus` when it flips (and that gradient counts as 0), clipped to `step_sizes`; then
    :math:`p = p - \mathrm{sign}(g)\, step`. Step sizes start at `learning_rate`. State: ``prev.<name>``,
    ``step_size.<name>``. Weight decay (decay filter) comes first; there is no `loss_scale`.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        etas (tuple[float, float]): (etaminus in (0, 1), etaplus > 1). Default: ``(0.5, 1.2)``.
        step_sizes (tuple[float, float]): (min, max) step size. Default: ``(1e-6, 50.)``.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty). Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        bool, True.

    Examples:
        >>> from sporax import nn
        >>> optim = nn.Rprop(nn.Dense(3, 2).trainable_params())
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        learning_rate: Any = 0.1,
        etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50.0),
        weight_decay: Any = 0.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay)
        if not isinstance(etas, tuple):
            raise TypeError(f"For Rprop, etas must be a tuple, but got {type(etas)}.")
        if len(etas) != 2:
            raise ValueError(f"For Rprop, etas must be a tuple with the size of 2, but got {len(etas)}.")
        if not isinstance(step_sizes, tuple):
            raise TypeError(f"For Rprop, step_sizes must be a tuple, but got {type(etas)}.")
        if len(step_sizes) != 2:
            raise ValueError(f"For Rprop, step_sizes must be a tuple with the size of 2, but got {len(step_sizes)}.")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError(
                "For Rprop, maximal step size should not be less than minimal step size, "
                f"but got {step_sizes[0]} > {step_sizes[1]}."
            )
        validator.check_float_range(etas[0], 0.0, 1.0, validator.INC_NEITHER, "etaminus", self.cls_name)
        validator.check_value_type("etaplus", etas[1], [float], self.cls_name)
        if etas[1] <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus {etas[1]}.")
        validator.check_value_type("min_step_sizes", step_sizes[0], [float], self.cls_name)
        validator.check_value_type("max_step_sizes", step_sizes[1], [float], self.cls_name)
        self.etaminus, self.etaplus = etas
        self.step_size_min, self.step_size_max = step_sizes
        self.prev = self._parameters.clone(prefix="prev", init="zeros")
        self.step_size = self._parameters.clone(prefix="step_size", init="zeros")

    def construct(self, gradients: Any) -> bool:
        gradients, lrs = self._prepared(gradients)
        first = self.global_step.reshape(()) == 1
        for lr, grad, param, prev, step_size in zip(lrs, gradients, self._parameters, self.prev, self.step_size):
            dt = param.dtype if param.dtype in (mstype.float16, mstype.bfloat16) else mstype.float32
            step = ops.where(first, ops.ones_like(ops.cast(step_size, dt)) * ops.cast(lr, dt), ops.cast(step_size, dt))
            g = ops.cast(grad, dt)
            s = ops.sign(g * ops.cast(prev, dt))
            factor = ops.where(s > 0, ops.full_like(s, self.etaplus), s)
            factor = ops.where(factor < 0, ops.full_like(s, self.etaminus), factor)
            factor = ops.where(factor == 0, ops.ones_like(s), factor)
            step = ops.clip_by_value(step * factor, self.step_size_min, self.step_size_max)
            g = ops.where(factor == self.etaminus, ops.zeros_like(g), g)
            ops.assign(param, ops.cast(ops.cast(param, dt) - ops.sign(g) * step, param.dtype))
            ops.assign(prev, ops.cast(g, prev.dtype))
            ops.assign(step_size, ops.cast(step, step_size.dtype))
        return True
