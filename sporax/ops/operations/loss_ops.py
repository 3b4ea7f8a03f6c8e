"""Loss operator classes of ``mindspore.ops`` (``ops.NLLLoss``, ``ops.BCEWithLogitsLoss``, ``ops.CTCLoss``,
``ops.CTCLossV2``, ``ops.KLDivLoss``, ``ops.SmoothL1Loss``, ``ops.MultiMarginLoss``...).

Each class keeps its construction arguments as attributes and calls the functional op.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..function import ctc_func as CF
from ..function import loss_func as LF
from ..function import margin_loss_func as MF
from ._primitive import Primitive

__all__ = [
    "BCEWithLogitsLoss",
    "BinaryCrossEntropy",
    "CTCLoss",
    "CTCLossV2",
    "KLDivLoss",
    "L2Loss",
    "MultiMarginLoss",
    "MultilabelMarginLoss",
    "NLLLoss",
    "RNNTLoss",
    "SigmoidCrossEntropyWithLogits",
    "SmoothL1Loss",
    "SoftMarginLoss",
    "TripletMarginLoss",
]


class _Reduced(Primitive):
    """A loss primitive configured by ``reduction`` only."""

    _reductions: tuple[str, ...] = ("none", "mean", "sum")

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = validator.check_string(reduction, list(self._reductions), "reduction", self.name)
        self.attrs["reduction"] = reduction


class BCEWithLogitsLoss(_Reduced):
    """Binary cross entropy on logits, ``weight`` and ``pos_weight`` broadcast to them."""

    def __call__(self, logits: Any, label: Any, weight: Any = None, pos_weight: Any = None) -> Any:
        return LF.binary_cross_entropy_with_logits(logits, label, weight, pos_weight, self.reduction)


class BinaryCrossEntropy(_Reduced):
    """Binary cross entropy of probabilities."""

    def __call__(self, logits: Any, labels: Any, weight: Any = None) -> Any:
        return LF.binary_cross_entropy(logits, labels, weight, self.reduction)


class KLDivLoss(_Reduced):
    """``labels * (log(labels) - logits)``; 'mean' averages over all elements, 'batchmean' over the batch."""

    _reductions = ("none", "mean", "batchmean", "sum")

    def __call__(self, logits: Any, labels: Any) -> Any:
        return LF.kl_div(logits, labels, self.reduction)


class SoftMarginLoss(_Reduced):
    """``log(1 + exp(-labels * logits))``."""

    def __call__(self, logits: Any, labels: Any) -> Any:
        return MF.soft_margin_core(logits, labels, self.reduction, self.name)


class MultilabelMarginLoss(_Reduced):
    """Multi-label hinge loss; returns ``(loss, is_target)``."""

    def __call__(self, x: Any, target: Any) -> Any:
        return MF.multilabel_margin_core(x, target, self.reduction, self.name)


class NLLLoss(Primitive):
    """``(loss, total_weight)`` of log-probabilities at class indices, ``weight`` per class."""

    def __init__(self, reduction: str = "mean", ignore_index: int = -100) -> None:
        super().__init__()
        self.reduction = validator.check_string(reduction, ["none", "sum", "mean"], "reduction", self.name)
        self.ignore_index = validator.check_value_type("ignore_index", ignore_index, [int], self.name)
        self.attrs.update(reduction=reduction, ignore_index=ignore_index)

    def __call__(self, logits: Any, labels: Any, weight: Any) -> Any:
        return LF.nll_loss_with_weight(logits, labels, weight, self.reduction, self.ignore_index)


class SmoothL1Loss(Primitive):
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``."""

    def __init__(self, beta: float = 1.0, reduction: str = "none") -> None:
        super().__init__()
        validator.check_value_type("beta", beta, [float], self.name)
        validator.check_positive_float(beta, "beta", self.name)
        self.beta = beta
        self.reduction = validator.check_string(reduction, ["none", "sum", "mean"], "reduction", self.name)
        self.attrs.update(beta=beta, reduction=reduction)

    def __call__(self, logits: Any, labels: Any) -> Any:
        return LF.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class L2Loss(Primitive):
    """``sum(x^2) / 2``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any) -> Any:
        return MF.l2_loss(input)


class SigmoidCrossEntropyWithLogits(Primitive):
    """Element-wise binary cross entropy of logits (unreduced)."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, logits: Any, label: Any) -> Any:
        return MF.sigmoid_cross_entropy_with_logits(logits, label)


class MultiMarginLoss(Primitive):
    """Multi-class hinge loss of ``(N, C)`` scores; ``p`` in {1, 2}."""

    def __init__(self, p: int = 1, margin: float = 1.0, reduction: str = "mean") -> None:
        super().__init__()
        validator.check_value_type("p", p, [int], self.name)
        if p not in (1, 2):
            raise ValueError(f"For '{self.name}', the 'p' must be in {{1, 2}}, but got {p}.")
        validator.check_value_type("margin", margin, [float], self.name)
        self.p, self.margin = p, margin
        self.reduction = validator.check_string(reduction, ["none", "sum", "mean"], "reduction", self.name)
        self.attrs.update(p=p, margin=margin, reduction=reduction)

    def __call__(self, x: Any, target: Any, weight: Any = None) -> Any:
        return MF.multi_margin_core(x, target, weight, self.p, self.margin, self.reduction, self.name)


class TripletMarginLoss(Primitive):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with p-norm distances; ``margin`` is an input."""

    def __init__(self, p: int = 2, swap: bool = False, eps: float = 1e-06, reduction: str = "mean") -> None:
        super().__init__()
        validator.check_value_type("p", p, [int], self.name)
        validator.check_value_type("swap", swap, [bool], self.name)
        validator.check_value_type("eps", eps, [float], self.name)
        self.p, self.swap, self.eps = p, swap, eps
        self.reduction = validator.check_string(reduction, ["none", "sum", "mean"], "reduction", self.name)
        self.attrs.update(p=p, swap=swap, eps=eps, reduction=reduction)

    def __call__(self, x: Any, positive: Any, negative: Any, margin: Any) -> Any:
        return MF.triplet_margin_core(
            x, positive, negative, margin, self.p, self.eps, self.swap, self.reduction, self.name
        )


class CTCLoss(Primitive):
    """TensorFlow-style CTC: ``(max_time, batch, num_classes)`` logits, blank = the last class, sparse
    labels; returns ``(loss, gradient)``."""

    def __init__(
        self,
        preprocess_collapse_repeated: bool = False,
        ctc_merge_repeated: bool = True,
        ignore_longer_outputs_than_inputs: bool = False,
    ) -> None:
        super().__init__()
        for name, v in (
            ("preprocess_collapse_repeated", preprocess_collapse_repeated),
            ("ctc_merge_repeated", ctc_merge_repeated),
            ("ignore_longer_outputs_than_inputs", ignore_longer_outputs_than_inputs),
        ):
            validator.check_value_type(name, v, [bool], self.name)
        self.preprocess_collapse_repeated = preprocess_collapse_repeated
        self.ctc_merge_repeated = ctc_merge_repeated
        self.ignore_longer_outputs_than_inputs = ignore_longer_outputs_than_inputs
        self.attrs.update(
            preprocess_collapse_repeated=preprocess_collapse_repeated,
            ctc_merge_repeated=ctc_merge_repeated,
            ignore_longer_outputs_than_inputs=ignore_longer_outputs_than_inputs,
        )

    def __call__(self, inputs: Any, labels_indices: Any, labels_values: Any, sequence_length: Any) -> Any:
        return CF.ctc_loss_tf(
            inputs,
            labels_indices,
            labels_values,
            sequence_length,
            self.preprocess_collapse_repeated,
            self.ctc_merge_repeated,
            self.ignore_longer_outputs_than_inputs,
        )


class CTCLossV2(Primitive):
    """CTC of ``(T, N, C)`` log-probabilities: ``(neg_log_likelihood (N,), log_alpha (N, T, 2S+1))``;
    only ``reduction='none'``."""

    def __init__(self, blank: int = 0, reduction: str = "none", zero_infinity: bool = False) -> None:
        super().__init__()
        validator.check_value_type("blank", blank, [int], self.name)
        validator.check_value_type("reduction", reduction, [str], self.name)
        self.reduction = reduction.lower()
        validator.check_string(self.reduction, ["none"], "reduction", self.name)
        validator.check_value_type("zero_infinity", zero_infinity, [bool], self.name)
        self.blank, self.zero_infinity = blank, zero_infinity
        self.attrs.update(blank=blank, reduction=self.reduction, zero_infinity=zero_infinity)

    def __call__(self, log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any) -> Any:
        return CF.ctc_loss_v2(
            log_probs, targets, input_lengths, target_lengths, self.blank, self.zero_infinity, self.name
        )


class RNNTLoss(Primitive):
    """RNN-transducer loss of ``(B, T, U + 1, V)`` logits: ``(costs (B,), gradient)``."""

    def __init__(self, blank_label: int = 0) -> None:
        super().__init__()
        validator.check_value_type("blank_label", blank_label, [int], self.name)
        self.blank_label = blank_label
        self.attrs["blank_label"] = blank_label

    def __call__(self, acts: Any, labels: Any, input_length: Any, label_length: Any) -> Any:
        return CF.rnnt_loss(acts, labels, input_length, label_length, self.blank_label)
