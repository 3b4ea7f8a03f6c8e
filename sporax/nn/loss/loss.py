"""Losses."""

from __future__ import annotations

from typing import Any

from ... import ops
from ...common import dtype as mstype
from ..cell import Cell

__all__ = ["LossBase", "CrossEntropyLoss"]


class LossBase(Cell):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(
                f"For '{type(self).__name__}', the 'reduction' must be in ['mean', 'sum', 'none'], but got {reduction}."
            )
        self.reduction = reduction

    def get_loss(self, x: Any, weights: float = 1.0) -> Any:
        x = x * weights if not (isinstance(weights, float) and weights == 1.0) else x
        if self.reduction == "mean":
            return ops.mean(x)
        if self.reduction == "sum":
            return ops.sum(x)
        return x


class CrossEntropyLoss(LossBase):
    def __init__(
        self, weight: Any = None, ignore_index: int = -100, reduction: str = "mean", label_smoothing: float = 0.0
    ) -> None:
        super().__init__(reduction)
        self.weight, self.ignore_index, self.label_smoothing = weight, ignore_index, label_smoothing

    def construct(self, logits: Any, labels: Any) -> Any:
        if isinstance(labels.dtype, mstype.Float) and labels.shape != logits.shape:
            raise ValueError(
                f"For 'CrossEntropyLoss', the 'labels' shape must be {logits.shape} when it holds probabilities, but got {labels.shape}."
            )
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction, self.label_smoothing)
