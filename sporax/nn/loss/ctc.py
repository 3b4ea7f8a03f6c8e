"""``nn.CTCLoss``: connectionist temporal classification on ``(T, N, C)`` or ``(T, C)`` log-probabilities."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common.tensor import Tensor
from .loss import LossBase

__all__ = ["CTCLoss"]


class CTCLoss(LossBase):
    """CTC loss (``ops.ctc_loss``) of log-probabilities against padded targets.

    Args:
        blank: the blank label. Default 0.
        reduction: 'mean' (default: each loss divided by its target length, then averaged), 'sum' or 'none'.
        zero_infinity: impossible alignments give 0 instead of inf. Default False.

    Inputs:
        log_probs ``(T, N, C)`` or ``(T, C)``, targets ``(N, S)`` (or ``(S,)``/``(1, S)`` for unbatched),
        input_lengths ``(N,)``, target_lengths ``(N,)``.
    """

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def construct(self, log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any) -> Any:  # type: ignore[override]  # MindSpore's own signature (LossBase takes two)
        validator.check_instance(log_probs, Tensor, "log_probs", "CTCLoss")
        validator.check_instance(targets, Tensor, "targets", "CTCLoss")
        if log_probs.ndim == 2:
            if targets.ndim > 2:
                raise ValueError(
                    "For CTCLoss, when the shape of log_probs is (T, C), the dimension of targets should"
                    f"be 1 or 2, but got {targets.ndim}."
                )
            if targets.ndim == 2 and targets.shape[0] != 1:
                raise ValueError(
                    f"For CTCLoss, the first dimension of 2-D targets should be 1,but got {targets.shape[0]}."
                )
            if targets.ndim == 1:
                targets = targets.expand_dims(0)
            log_probs = log_probs.expand_dims(-2)
            loss, _ = ops.ctc_loss(
                log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction, self.zero_infinity
            )
            return loss.squeeze(axis=0) if loss.ndim else loss
        loss, _ = ops.ctc_loss(
            log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction, self.zero_infinity
        )
        return loss
