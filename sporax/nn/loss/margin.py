"""Margin and embedding losses (``nn.CosineEmbeddingLoss``, ``nn.MarginRankingLoss``,
``nn.HingeEmbeddingLoss``, ``nn.MultiMarginLoss``, ``nn.MultilabelMarginLoss``,
``nn.MultiLabelSoftMarginLoss``, ``nn.SoftMarginLoss``, ``nn.TripletMarginLoss``,
``nn.TripletMarginWithDistanceLoss``)."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common.tensor import Tensor
from .loss import LossBase

__all__ = [
    "CosineEmbeddingLoss",
    "MarginRankingLoss",
    "HingeEmbeddingLoss",
    "MultiMarginLoss",
    "MultilabelMarginLoss",
    "MultiLabelSoftMarginLoss",
    "SoftMarginLoss",
    "TripletMarginLoss",
    "TripletMarginWithDistanceLoss",
]


class CosineEmbeddingLoss(LossBase):
    """``1 - cos(x1, x2)`` where ``labels == 1``, ``max(0, cos(x1, x2) - margin)`` where ``labels == -1``.

    Args:
        margin: in [-1.0, 1.0]. Default 0.0.
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        validator.check_value_type("margin", margin, [float], "CosineEmbeddingLoss")
        self.margin = validator.check_float_range(
            margin, -1.0, 1.0, validator.INC_BOTH, "margin", "CosineEmbeddingLoss"
        )

    def construct(self, logits_x1: Any, logits_x2: Any, labels: Any) -> Any:  # type: ignore[override]  # MindSpore's own signature (LossBase takes two)
        op = "CosineEmbeddingLoss"
        validator.check_instance(logits_x1, Tensor, "logits_x1", op)
        validator.check_instance(logits_x2, Tensor, "logits_x2", op)
        validator.check_instance(labels, Tensor, "labels", op)
        if logits_x1.dtype != logits_x2.dtype or logits_x1.shape != logits_x2.shape:
            raise TypeError(
                f"For '{op}', 'logits_x1' and 'logits_x2' must have the same dtype and shape, but got "
                f"{logits_x1.dtype}{logits_x1.shape} and {logits_x2.dtype}{logits_x2.shape}."
            )
        return ops.cosine_embedding_loss(logits_x1, logits_x2, labels, self.margin, self.reduction)


class MarginRankingLoss(LossBase):
    """``max(0, -target * (input1 - input2) + margin)``.

    Args:
        margin: a float. Default 0.0.
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1: Any, input2: Any, target: Any) -> Any:  # type: ignore[override]  # MindSpore's own signature (LossBase takes two)
        return ops.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class HingeEmbeddingLoss(LossBase):
    """``x`` where ``labels > 0``, ``max(0, margin - x)`` where ``labels < 0``.

    Args:
        margin: a float or int. Default 1.0.
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    def __init__(self, margin: float = 1.0, reduction: str = "mean") -> None:
        super().__init__()
        validator.check_value_type("margin", margin, [float, int], "HingeEmbeddingLoss")
        validator.check_string(reduction, ["none", "sum", "mean"], "reduction", "HingeEmbeddingLoss")
        self.margin, self.reduction = margin, reduction

    def construct(self, logits: Any, labels: Any) -> Any:
        return ops.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class MultiMarginLoss(LossBase):
    """Multi-class hinge loss of ``(N, C)`` scores (``ops.MultiMarginLoss``).

    Args:
        p: 1 or 2. Default 1.
        margin: a float. Default 1.0.
        reduction: 'mean' (default), 'sum' or 'none'.
        weight: per-class weights ``(C,)``, used instead of the one given to ``construct``. Default None.
    """

    def __init__(self, p: int = 1, margin: float = 1.0, reduction: str = "mean", weight: Any = None) -> None:
        super().__init__()
        self.multi_margin_loss = ops.MultiMarginLoss(p=p, margin=margin, reduction=reduction)
        self.weight = weight

    def construct(self, x: Any, target: Any, weight: Any = None) -> Any:
        validator.check_instance(x, Tensor, "x", "MultiMarginLoss")
        validator.check_instance(target, Tensor, "target", "MultiMarginLoss")
        if self.weight is not None:
            weight = self.weight
        if weight is not None:
            validator.check_instance(weight, Tensor, "weight", "MultiMarginLoss")
        return self.multi_margin_loss(x, target, weight)


class MultilabelMarginLoss(LossBase):
    """Multi-label hinge loss; ``target`` holds class indices ended by the first -1.

    Args:
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.multilabel_margin_loss = ops.MultilabelMarginLoss(reduction=reduction)

    def construct(self, x: Any, target: Any) -> Any:
        loss, _ = self.multilabel_margin_loss(x, target)
        return loss


class MultiLabelSoftMarginLoss(LossBase):
    """``-mean_c(y log sigmoid(x) + (1 - y) log sigmoid(-x))`` per sample, ``weight`` per class.

    Args:
        weight: per-class weights. Default None.
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    def __init__(self, weight: Any = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x: Any, target: Any) -> Any:
        return ops.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class SoftMarginLoss(LossBase):
    """``log(1 + exp(-labels * logits))``.

    Args:
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction)

    def construct(self, logits: Any, labels: Any) -> Any:
        return ops.soft_margin_loss(logits, labels, self.reduction)


class TripletMarginLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with p-norm distances.

    Args:
        p: the norm degree. Default 2.
        swap: use ``min(d(x, negative), d(positive, negative))``. Default False.
        eps: added to the differences. Default 1e-06.
        reduction: 'mean' (default), 'sum' or 'none'.
        margin: used instead of the ``construct`` argument when not 1.0. Default 1.0.
    """

    def __init__(
        self, p: int = 2, swap: bool = False, eps: float = 1e-06, reduction: str = "mean", margin: float = 1.0
    ) -> None:
        super().__init__()
        self.p, self.swap, self.eps, self.reduction, self.margin = p, swap, eps, reduction, margin

    def construct(self, x: Any, positive: Any, negative: Any, margin: Any = 1.0) -> Any:  # type: ignore[override]  # MindSpore's own signature (LossBase takes two)
        if self.margin != 1.0:
            margin = self.margin
        return ops.triplet_margin_loss(
            x, positive, negative, margin=margin, p=self.p, eps=self.eps, swap=self.swap, reduction=self.reduction
        )


def _pairwise_distance(x: Any, y: Any) -> Any:
    d = (x - y).abs()
    if d.ndim == 0:
        raise ValueError(
            "For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', 'ndim' of the input must be positive, "
            f"but got {d.ndim}"
        )
    return ops.sqrt(ops.sum(d * d, 1))


class TripletMarginWithDistanceLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with any distance function (default the
    Euclidean distance over axis 1).

    Args:
        distance_function: a callable of two Tensors. Default None.
        swap: use ``min(d(x, negative), d(positive, negative))``. Default False.
        reduction: 'mean' (default), 'sum' or 'none'.
        margin: a float. Default 1.0.
    """

    def __init__(
        self, distance_function: Any = None, swap: bool = False, reduction: str = "mean", margin: float = 1.0
    ) -> None:
        super().__init__(reduction=reduction)
        validator.check_is_float(margin, "margin", "TripletMarginWithDistanceLoss")
        validator.check_bool(swap, "swap", "TripletMarginWithDistanceLoss")
        self.distance_function = _pairwise_distance if distance_function is None else distance_function
        self.swap, self.margin = swap, margin

    def construct(self, x: Any, positive: Any, negative: Any) -> Any:  # type: ignore[override]  # MindSpore's own signature (LossBase takes two)
        op = "TripletMarginWithDistanceLoss"
        validator.check_instance(x, Tensor, "x", op)
        validator.check_instance(positive, Tensor, "positive", op)
        validator.check_instance(negative, Tensor, "negative", op)
        d1 = self.distance_function(x, positive)
        d2 = self.distance_function(x, negative)
        if self.swap:
            d2 = ops.minimum(d2, self.distance_function(positive, negative))
        loss = ops.maximum(d1 - d2 + self.margin, Tensor(0, d1.dtype))
        return self.get_loss(loss)
