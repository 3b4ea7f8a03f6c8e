"""Regression and likelihood losses (``nn.RMSELoss``, ``nn.MAELoss``, ``nn.L1LossExt``,
``nn.PoissonNLLLoss``, ``nn.GaussianNLLLoss``)."""

from __future__ import annotations

import math
from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .loss import LossBase, MSELoss

__all__ = ["RMSELoss", "MAELoss", "L1LossExt", "PoissonNLLLoss", "GaussianNLLLoss"]

_UNSIGNED = (mstype.uint8, mstype.uint16, mstype.uint32, mstype.uint64)


class RMSELoss(LossBase):
    """``sqrt(mean((logits - label)^2))``."""

    def __init__(self) -> None:
        super().__init__()
        self.MSELoss = MSELoss()

    def construct(self, logits: Any, label: Any) -> Any:
        for t in (logits, label):
            if t.dtype in _UNSIGNED:
                raise TypeError(
                    f"For 'RMSELoss', the parameters data type must not be in {list(_UNSIGNED)}, "
                    f"but got mindspore.{str(t.dtype).lower()}."
                )
        return ops.sqrt(self.MSELoss(logits, label))


class MAELoss(LossBase):
    """``|logits - label|``, reduced per ``reduction`` (default 'mean')."""

    def construct(self, logits: Any, label: Any) -> Any:
        validator.check_instance(logits, Tensor, "logits", "MAELoss")
        validator.check_instance(label, Tensor, "labels", "MAELoss")
        return self.get_loss(ops.abs(logits - label))


class L1LossExt(LossBase):
    """``|logits - labels|`` (broadcast), reduced per ``reduction`` (default 'mean')."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction)

    def construct(self, logits: Any, labels: Any) -> Any:
        from ...ops.function.margin_loss_func import l1_loss_ext

        return l1_loss_ext(logits, labels, self.reduction)


class PoissonNLLLoss(LossBase):
    """Poisson negative log-likelihood: ``exp(x) - target * x`` (``log_input``) or
    ``x - target * log(x + eps)``; ``full`` adds Stirling's term where ``target > 1``.

    Args:
        log_input: the input is a log-rate. Default True.
        full: add Stirling's approximation term. Default False.
        eps: added inside the log when ``log_input`` is False. Default 1e-08.
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    def __init__(self, log_input: bool = True, full: bool = False, eps: float = 1e-08, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input: Any, target: Any) -> Any:
        validator.check_instance(input, Tensor, "input", "PoissonNLLLoss")
        validator.check_instance(target, Tensor, "target", "PoissonNLLLoss")
        target = ops.cast(target, input.dtype)
        if self.log_input:
            loss = input.exp() - target * input
        else:
            loss = input - target * (input + self.eps).log()
        if self.full:
            t = ops.maximum(target, ops.cast(self.eps, target.dtype))
            stirling = (t + 0.5) * t.log() - t + 0.5 * math.log(2 * math.pi)
            loss = loss + ops.where(t > 1, stirling, ops.zeros_like(stirling))
        return self.get_loss(loss)


class GaussianNLLLoss(LossBase):
    """Gaussian negative log-likelihood with predicted variance ``var`` (``ops.gaussian_nll_loss``).

    Args (keyword-only):
        full: add ``0.5 log(2 pi)``. Default False.
        eps: lower bound of ``var``. Default 1e-6.
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__()
        validator.check_float_range(eps, 0, float("inf"), validator.INC_NEITHER, "eps", "GaussianNLLLoss")
        validator.check_value_type("full", full, [bool], "GaussianNLLLoss")
        validator.check_string(reduction, ["none", "mean", "sum"], "reduction", "gaussian_nll_loss")
        self.full, self.eps, self.reduction = full, eps, reduction

    def construct(self, logits: Any, labels: Any, var: Any) -> Any:  # type: ignore[override]  # MindSpore's own signature (LossBase takes two)
        validator.check_instance(logits, Tensor, "logits", "GaussianNLLLoss")
        validator.check_instance(labels, Tensor, "labels", "GaussianNLLLoss")
        validator.check_instance(var, Tensor, "var", "GaussianNLLLoss")
        return ops.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)
