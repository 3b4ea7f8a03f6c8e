"""AdaFactor."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from .optimizer import Optimizer, opt_init_args_register

__all__ = ["AdaFactor"]


def _rms(x: Any) -> Any:
    return ops.sqrt(ops.mean(ops.square(x)))


class AdaFactor(Optimizer):
    r"""Adafactor (Shazeer & Stern): second moments of matrices kept factored as row and column means
    (``exp_avg_sq_row_<name>``, ``exp_avg_sq_col_<name>``), of vectors in full (``exp_avg_sq_<name>``),
    :math:`\hat\beta_{2t} = 1 - t^{-decay\_rate}`, updates clipped to RMS `clip_threshold`, an optional
    first moment (``exp_avg.<name>`` when `beta1` > 0), a relative step size
    :math:`\min(10^{-2}, 1/\sqrt t)` (or :math:`10^{-6} t` with `warmup_init`) and parameter scaling by
    :math:`\max(\epsilon_2, \mathrm{RMS}(p))`. Weight decay :math:`p = p - wd\, lr\, p` applies to every
    parameter when `weight_decay` is non-zero. The step count is ``afactor_step``.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, LearningRateSchedule, None]): Fixed rate (needs `relative_step` False).
            Default: ``None``.
        eps (tuple[float, float]): Regularization of the squared gradient and of the parameter scale.
            Default: ``(1e-30, 1e-3)``.
        clip_threshold (float): Threshold of the update's RMS. Default: ``1.0``.
        decay_rate (float): Exponent of the second-moment decay. Default: ``0.8``.
        beta1 (float): First-moment coefficient (0 or None: no first moment). Default: ``0.9``.
        weight_decay (float): Weight decay. Default: ``0.0``.
        scale_parameter (bool): Scale the rate by the parameter's RMS. Default: ``True``.
        relative_step (bool): Time-dependent rate instead of `learning_rate`. Default: ``True``.
        warmup_init (bool): Warm-up form of the relative step. Default: ``False``.
        compression (bool): Keep the first moment in float16. Default: ``False``.
        loss_scale (float): The loss scale, greater than 0. Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - The gradients of `params`, of the same shapes.

    Outputs:
        tuple[bool], all True.

    Examples:
        >>> from sporax import nn
        >>> optim = nn.AdaFactor(nn.Dense(3, 2).trainable_params())
    """

    @opt_init_args_register
    def __init__(
        self,
        params: Any,
        learning_rate: Any = None,
        eps: tuple[float, float] = (1e-30, 1e-3),
        clip_threshold: float = 1.0,
        decay_rate: float = 0.8,
        beta1: float = 0.9,
        weight_decay: float = 0.0,
        scale_parameter: bool = True,
        relative_step: bool = True,
        warmup_init: bool = False,
        compression: bool = False,
        loss_scale: float = 1.0,
    ) -> None:
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        if learning_rate is None:
            learning_rate = 0.0
        if beta1 is None:
            beta1 = 0.0
        self.scale_lr = isinstance(learning_rate, (float, int))
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        for i, ele in enumerate(eps):
            if not isinstance(ele, float):
                raise TypeError(f"For 'AdaFactor', the type of 'eps[{i}]' must be float, but got {type(ele)}.")
        self.eps = eps
        self.clip_threshold = float(clip_threshold)
        self.decay_rate = -float(decay_rate)
        self.beta1 = float(beta1)
        self.weight_decay = float(weight_decay)
        self.weight_decay_flag = bool(weight_decay)
        self.scale_parameter = scale_parameter if self.scale_lr else False
        self.relative_step = relative_step
        self.warmup_init = warmup_init
        self.compression = compression
        self.use_first_moment = beta1 > 0
        if self.use_first_moment:
            self.exp_avg = self._parameters.clone(prefix="exp_avg", init="zeros")
        rows, cols, full = [], [], []
        for p in self._parameters:
            np_dtype = mstype.dtype_to_nptype(p.dtype) if hasattr(mstype, "dtype_to_nptype") else np.float32
            if len(p.shape) > 1:
                rows.append(Parameter(Tensor(np.zeros(p.shape[:-1], np_dtype)), name=f"exp_avg_sq_row_{p.name}"))
                cols.append(
                    Parameter(Tensor(np.zeros(p.shape[:-2] + p.shape[-1:], np_dtype)), name=f"exp_avg_sq_col_{p.name}")
                )
                full.append(Parameter(Tensor(np.zeros((1,), np_dtype)), name=f"exp_avg_sq_{p.name}"))
            else:
                rows.append(Parameter(Tensor(np.zeros((1,), np_dtype)), name=f"exp_avg_sq_row_{p.name}"))
                cols.append(Parameter(Tensor(np.zeros((1,), np_dtype)), name=f"exp_avg_sq_col_{p.name}"))
                sq_dtype = np.float16 if compression else np_dtype
                full.append(Parameter(Tensor(np.zeros(p.shape, sq_dtype)), name=f"exp_avg_sq_{p.name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(full)
        self.step = Parameter(Tensor(np.zeros([1], np.float32)), name="afactor_step")

    @property
    def supports_memory_efficient_fp16(self) -> bool:
        """Whether float16 parameters are updated in float32 and stored back (True)."""
        return True

    @property
    def supports_flat_params(self) -> bool:
        """Whether flattened parameters are supported (False)."""
        return False

    @property
    def target(self) -> str:
        return self._target

    @target.setter
    def target(self, value: str) -> None:
        self._set_base_target(value)

    def construct(self, gradients: Any) -> tuple[bool, ...]:
        gradients = self._gradient_tuple(gradients)
        lr = self.get_lr()
        self._advance_step()
        step = self.step + 1.0
        ops.assign(self.step, step)
        step = step.reshape(())
        if self.scale_lr and self.relative_step:
            min_step = 1e-6 * step if self.warmup_init else 1e-2
            lr = ops.minimum(min_step, 1.0 / ops.sqrt(step))
        lrs = self._lr_per_param(lr) if not (self.scale_lr and self.relative_step) else (lr,) * self.param_length
        beta2t = 1.0 - ops.pow(step, self.decay_rate)
        eps1, eps2 = self.eps
        exp_avgs = self.exp_avg if self.use_first_moment else (None,) * self.param_length
        for lr, grad, param, exp_avg, row, col, full in zip(
            lrs, gradients, self._parameters, exp_avgs, self.exp_avg_sq_row, self.exp_avg_sq_col, self.exp_avg_sq
        ):
            g = ops.cast(grad, mstype.float32)
            p = ops.cast(param, mstype.float32)
            lr = ops.cast(lr, mstype.float32)
            if self.scale_parameter:
                rms = _rms(p)
                lr = lr * ops.maximum(ops.ones_like(rms) * eps2, rms)
            update = g * g + eps1
            if len(g.shape) >= 2:
                new_row = row * beta2t + ops.mean(update, -1) * (1.0 - beta2t)
                new_col = col * beta2t + ops.mean(update, -2) * (1.0 - beta2t)
                ops.assign(row, ops.cast(new_row, row.dtype))
                ops.assign(col, ops.cast(new_col, col.dtype))
                r_factor = ops.expand_dims(1.0 / ops.sqrt(new_row / ops.mean(new_row, -1, keep_dims=True)), -1)
                c_factor = 1.0 / ops.sqrt(ops.expand_dims(new_col, -2))
                update = r_factor * c_factor * g
            else:
                new_full = ops.cast(full, mstype.float32) * beta2t + update * (1.0 - beta2t)
                ops.assign(full, ops.cast(new_full, full.dtype))
                update = g / ops.sqrt(new_full)
            coeff = ops.maximum(_rms(update) / self.clip_threshold, ops.ones((), mstype.float32))
            update = update / coeff * lr
            if exp_avg is not None:
                new_avg = ops.cast(exp_avg, mstype.float32) * self.beta1 + update * (1.0 - self.beta1)
                ops.assign(exp_avg, ops.cast(new_avg, exp_avg.dtype))
                update = new_avg
            if self.weight_decay_flag:
                p = p + p * (-self.weight_decay) * lr
            ops.assign(param, ops.cast(p - update, param.dtype))
        return (True,) * self.param_length
