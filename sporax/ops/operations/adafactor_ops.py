"""``ops.FusedAdaFactor`` / ``ops.FusedAdaFactorWithGlobalNorm``: one Adafactor step on a parameter and its
states, in place (MindSpore's fused kernels; the steps below reproduce its CPU kernel's results).

With ``g`` the gradient (divided by ``global_norm`` in the second form): a matrix (2-D or more) keeps its
second moment factored as running row and column means of ``g**2 + eps[0]`` (``exp_avg_sq_row``,
``exp_avg_sq_col``), a vector in full (``exp_avg_sq``), all decayed by ``beta2``; the update
``g / sqrt(v)`` is clipped to RMS ``clip_threshold`` and scaled by the learning rate (times
``max(eps[1], RMS(param))`` with ``enable_scale_parameter``); ``enable_first_moment`` averages the scaled
updates in ``exp_avg`` (``beta1``) and applies that average; ``enable_weight_decay`` adds
``weight_decay * lr * param``.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ._primitive import Primitive
from .optim_ops import _ops, _set

__all__ = ["FusedAdaFactor", "FusedAdaFactorWithGlobalNorm"]


def _rms(x: Any) -> Any:
    ops = _ops()
    return ops.sqrt(ops.mean(ops.square(x)))


class FusedAdaFactor(Primitive):
    """``FusedAdaFactor(enable_scale_parameter=False, enable_first_moment=False, enable_weight_decay=False)(
    epsilon, clip_threshold, beta1, beta2, weight_decay, learning_rate, gradient, param, exp_avg, exp_avg_sq_row,
    exp_avg_sq_col, exp_avg_sq)``: one Adafactor step (module doc); returns the updated ``param``."""

    def __init__(
        self, enable_scale_parameter: bool = False, enable_first_moment: bool = False, enable_weight_decay: bool = False
    ) -> None:
        super().__init__()
        for name, value in (
            ("enable_scale_parameter", enable_scale_parameter),
            ("enable_first_moment", enable_first_moment),
            ("enable_weight_decay", enable_weight_decay),
        ):
            validator.check_value_type(name, value, [bool], self.name)
            self.add_prim_attr(name, value)
        self.enable_scale_parameter = enable_scale_parameter
        self.enable_first_moment = enable_first_moment
        self.enable_weight_decay = enable_weight_decay

    def __call__(self, epsilon, clip_threshold, beta1, beta2, weight_decay, learning_rate, gradient, param, exp_avg,
              exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq):  # fmt: skip
        ops = _ops()
        dt = param.dtype
        eps = ops.cast(epsilon, dt).reshape(-1)
        b1, b2, wd, lr, clip = (ops.cast(x, dt).reshape(()) for x in (beta1, beta2, weight_decay, learning_rate,
                                                                           clip_threshold))  # fmt: skip
        g = ops.cast(gradient, dt)
        sq = ops.square(g) + eps[0]
        if param.ndim >= 2:
            row = _set(exp_avg_sq_row, b2 * exp_avg_sq_row + (1 - b2) * ops.mean(sq, -1))
            col = _set(exp_avg_sq_col, b2 * exp_avg_sq_col + (1 - b2) * ops.mean(sq, -2))
            row_factor = ops.rsqrt(row / ops.mean(row, -1, keep_dims=True))
            update = ops.expand_dims(row_factor, -1) * ops.expand_dims(ops.rsqrt(col), -2) * g
        else:
            update = g * ops.rsqrt(_set(exp_avg_sq, b2 * exp_avg_sq + (1 - b2) * sq))
        update = update / ops.maximum(_rms(update) / clip, ops.ones((), dt))
        if self.enable_scale_parameter:
            lr = lr * ops.maximum(eps[1], _rms(param))
        update = update * lr
        if self.enable_first_moment:
            update = _set(exp_avg, b1 * exp_avg + (1 - b1) * update)
        if self.enable_weight_decay:
            update = update + wd * lr * param
        return _set(param, param - update)


class FusedAdaFactorWithGlobalNorm(FusedAdaFactor):
    """``FusedAdaFactorWithGlobalNorm(...)(..., exp_avg_sq, global_norm)``: :class:`FusedAdaFactor` with the
    gradient divided by ``global_norm`` first."""

    def __call__(self, epsilon, clip_threshold, beta1, beta2, weight_decay, learning_rate, gradient, param, exp_avg,
                 exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq, global_norm):  # fmt: skip
        g = _ops().div(gradient, global_norm)
        return super().__call__(epsilon, clip_threshold, beta1, beta2, weight_decay, learning_rate, g, param, exp_avg,
                                exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq)  # fmt: skip
