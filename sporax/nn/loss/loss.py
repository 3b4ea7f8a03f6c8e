"""Loss cells (``mindspore.nn`` losses)."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.tensor import Tensor
from ...ops.function.loss_func import check_class_index
from ..cell import Cell

__all__ = [
    "LossBase",
    "SoftmaxCrossEntropyWithLogits",
    "CrossEntropyLoss",
    "NLLLoss",
    "MSELoss",
    "L1Loss",
    "SmoothL1Loss",
    "HuberLoss",
    "BCELoss",
    "BCEWithLogitsLoss",
    "KLDivLoss",
]

_FLOATS = "float16, float32 or float64"  # the dtype message of the losses' logits


class LossBase(Cell):
    """Base class of losses: ``get_loss(x, weights)`` weights and reduces ``x`` per ``reduction``.

    Args:
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    _reductions: tuple[str, ...] = ("mean", "sum", "none")

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        validator.check_value_in(reduction, self._reductions, "reduction", type(self).__name__)
        self.reduction = reduction
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x: Tensor) -> tuple[int, ...]:
        return tuple(range(x.ndim))

    def get_loss(self, x: Tensor, weights: Any = 1.0) -> Tensor:
        """``weights * x`` computed in float32 (as MindSpore), reduced over all axes per ``reduction``
        ('none' keeps the shape), cast back to ``x``'s dtype. ``weights`` is a number or a Tensor
        broadcastable to ``x``."""
        from ...ops.function.margin_loss_func import weighted_loss

        if not isinstance(weights, Tensor):
            weights = None if isinstance(weights, (int, float)) and weights == 1.0 else float(weights)
        # MindSpore reduces per the flags LossBase.__init__ set (a subclass may keep its own 'reduction')
        reduction = ("mean" if self.average else "sum") if self.reduce else "none"
        return weighted_loss(x, weights, reduction)

    def construct(self, logits: Any, labels: Any) -> Any:  # MindSpore's signature; each loss names its own inputs
        raise NotImplementedError(f"For '{type(self).__name__}', the method 'construct' must be defined.")


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Cross entropy of softmax(logits) against labels, per sample: ``-sum(labels * log_softmax(logits))``.

    Args:
        sparse: labels are class indices (``(N,)``, int) instead of ``(N, C)`` probabilities. Default False.
        reduction: 'none' (default), 'mean' or 'sum'.
    """

    def __init__(self, sparse: bool = False, reduction: str = "none") -> None:
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(
                f"For 'SoftmaxCrossEntropyWithLogits', the 'sparse' must be a bool, but got {type(sparse).__name__}."
            )
        self.sparse = sparse

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        op = "SoftmaxCrossEntropyWithLogits"
        validator.check_instance(logits, Tensor, "logits", op)
        validator.check_dtype_kind("logits", logits.dtype, mstype.Float, _FLOATS, op)
        validator.check_instance(labels, Tensor, "labels", op)
        if logits.ndim != 2:
            raise ValueError(f"For '{op}', the dimension of 'logits' must be 2, but got {logits.ndim}.")
        if self.sparse:
            if not isinstance(labels.dtype, mstype.Int):
                raise TypeError(
                    f"For '{op}', the dtype of 'labels' must be int32 or int64 with sparse=True, but got {labels.dtype}."
                )
            if labels.shape != (logits.shape[0],):
                raise ValueError(
                    f"For '{op}', the 'labels' shape must be ({logits.shape[0]},) with sparse=True, but got {labels.shape}."
                )
            check_class_index(labels, logits.shape[1], None, op)
            loss = ops.cross_entropy(logits, labels, reduction="none")
        else:
            validator.check_same_shape(labels.shape, logits.shape, "labels", "logits", op)
            if labels.dtype != logits.dtype:
                labels = ops.cast(labels, logits.dtype)
            loss = ops.cross_entropy(logits, labels, reduction="none")
        return self.get_loss(loss)


class CrossEntropyLoss(LossBase):
    """Cross entropy of logits ``(N, C)`` / ``(N, C, d1, ...)`` / ``(C,)`` against class indices (int32 or
    int64; ``ignore_index`` skipped) or class probabilities (the logits' shape and dtype).

    Args:
        weight: per-class rescaling ``(C,)``. Default None.
        ignore_index: target value that does not count. Default -100.
        reduction: 'mean' (default: weighted mean over counted targets), 'sum' or 'none'.
        label_smoothing: in [0, 1]. Default 0.0.
    """

    def __init__(
        self, weight: Any = None, ignore_index: int = -100, reduction: str = "mean", label_smoothing: float = 0.0
    ) -> None:
        super().__init__(reduction)
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(
                f"For 'CrossEntropyLoss', the 'weight' must be a Tensor or None, but got {type(weight).__name__}."
            )
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
            raise TypeError(
                f"For 'CrossEntropyLoss', the 'ignore_index' must be an int, but got {type(ignore_index).__name__}."
            )
        if not isinstance(label_smoothing, (int, float)) or not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(
                f"For 'CrossEntropyLoss', the 'label_smoothing' must be in [0, 1], but got {label_smoothing}."
            )
        self.weight, self.ignore_index, self.label_smoothing = weight, ignore_index, float(label_smoothing)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        op = "CrossEntropyLoss"
        validator.check_instance(logits, Tensor, "logits", op)
        validator.check_dtype_kind("logits", logits.dtype, mstype.Float, _FLOATS, op)
        validator.check_instance(labels, Tensor, "labels", op)
        if isinstance(labels.dtype, mstype.Float):
            if labels.dtype != logits.dtype:
                raise TypeError(
                    f"For '{op}', the 'labels' holding class probabilities must have the dtype of 'logits' "
                    f"({logits.dtype}), but got {labels.dtype}."
                )
            if labels.shape != logits.shape:
                raise ValueError(
                    f"For '{op}', the 'labels' holding class probabilities must have the shape of 'logits' "
                    f"{logits.shape}, but got {labels.shape}."
                )
        elif labels.dtype in (mstype.int32, mstype.int64):
            want = logits.shape[:1] + logits.shape[2:] if logits.ndim > 1 else ()
            if labels.shape != want:
                raise ValueError(
                    f"For '{op}', the 'labels' holding class indices must have shape {want} for 'logits' of shape "
                    f"{logits.shape}, but got {labels.shape}."
                )
        else:
            raise TypeError(
                f"For '{op}', the dtype of 'labels' must be int32 or int64 (class indices) or the float dtype of "
                f"'logits' (class probabilities), but got {labels.dtype}."
            )
        if labels.dtype in (mstype.int32, mstype.int64):
            check_class_index(labels, logits.shape[1] if logits.ndim > 1 else logits.shape[0], self.ignore_index, op)
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class NLLLoss(LossBase):
    """Negative log-likelihood of log-probabilities ``(N, C)`` at class indices ``(N,)``.

    Args:
        weight: per-class rescaling ``(C,)``. Default None.
        ignore_index: target value that does not count. Default -100.
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    def __init__(self, weight: Any = None, ignore_index: int = -100, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        validator.check_instance(logits, Tensor, "logits", "NLLLoss")
        validator.check_dtype_kind("logits", logits.dtype, mstype.Float, _FLOATS, "NLLLoss")
        validator.check_instance(labels, Tensor, "labels", "NLLLoss")
        check_class_index(labels, logits.shape[1] if logits.ndim > 1 else logits.shape[0], self.ignore_index, "NLLLoss")
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class _PairLoss(LossBase):
    _fn: Any = None

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        op = type(self).__name__
        validator.check_instance(logits, Tensor, "logits", op)
        validator.check_dtype_kind("logits", logits.dtype, mstype.Float, _FLOATS, op)
        validator.check_instance(labels, Tensor, "labels", op)
        return type(self)._fn(logits, labels, reduction=self.reduction)


class MSELoss(_PairLoss):
    """Mean squared error ``(x - y) ** 2``, reduced per ``reduction`` (default 'mean')."""

    _fn = staticmethod(ops.mse_loss)


class L1Loss(_PairLoss):
    """Mean absolute error ``|x - y|``, reduced per ``reduction`` (default 'mean')."""

    _fn = staticmethod(ops.l1_loss)


class SmoothL1Loss(LossBase):
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``.

    Args:
        beta: the threshold. Default 1.0.
        reduction: 'none' (default), 'mean' or 'sum'.
    """

    def __init__(self, beta: float = 1.0, reduction: str = "none") -> None:
        super().__init__(reduction)
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or beta <= 0:
            raise ValueError(f"For 'SmoothL1Loss', the 'beta' must be a positive float, but got {beta}.")
        self.beta = float(beta)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        validator.check_instance(logits, Tensor, "logits", "SmoothL1Loss")
        validator.check_dtype_kind("logits", logits.dtype, mstype.Float, _FLOATS, "SmoothL1Loss")
        validator.check_instance(labels, Tensor, "labels", "SmoothL1Loss")
        validator.check_same_shape(labels.shape, logits.shape, "labels", "logits", "SmoothL1Loss")
        return ops.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class HuberLoss(LossBase):
    """``0.5 d^2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``.

    Args:
        reduction: 'mean' (default), 'sum' or 'none'.
        delta: the threshold. Default 1.0.
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction)
        if isinstance(delta, bool) or not isinstance(delta, (int, float)) or delta <= 0:
            raise ValueError(f"For 'HuberLoss', the 'delta' must be a positive float, but got {delta}.")
        self.delta = float(delta)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        validator.check_instance(logits, Tensor, "logits", "HuberLoss")
        validator.check_dtype_kind("logits", logits.dtype, mstype.Float, _FLOATS, "HuberLoss")
        validator.check_instance(labels, Tensor, "labels", "HuberLoss")
        return ops.huber_loss(logits, labels, self.reduction, self.delta)


class BCELoss(LossBase):
    """Binary cross entropy of probabilities: ``-w (y log x + (1 - y) log(1 - x))``.

    Args:
        weight: per-element rescaling (the logits' shape). Default None.
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    def __init__(self, weight: Any = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        validator.check_instance(logits, Tensor, "logits", "BCELoss")
        validator.check_dtype_kind("logits", logits.dtype, mstype.Float, _FLOATS, "BCELoss")
        validator.check_instance(labels, Tensor, "labels", "BCELoss")
        validator.check_same_shape(labels.shape, logits.shape, "labels", "logits", "BCELoss")
        return ops.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy on logits: ``-w (pw y log sigmoid(x) + (1 - y) log(1 - sigmoid(x)))``.

    Args:
        reduction: 'mean' (default), 'sum' or 'none'.
        weight: per-element rescaling, broadcast to the logits. Default None.
        pos_weight: weight of positive examples, broadcast to the logits. Default None.
    """

    def __init__(self, reduction: str = "mean", weight: Any = None, pos_weight: Any = None) -> None:
        super().__init__(reduction)
        for name, v in (("weight", weight), ("pos_weight", pos_weight)):
            if v is not None and not isinstance(v, Tensor):
                raise TypeError(
                    f"For 'BCEWithLogitsLoss', the '{name}' must be a Tensor or None, but got {type(v).__name__}."
                )
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        validator.check_instance(logits, Tensor, "logits", "BCEWithLogitsLoss")
        validator.check_dtype_kind("logits", logits.dtype, mstype.Float, _FLOATS, "BCEWithLogitsLoss")
        validator.check_instance(labels, Tensor, "labels", "BCEWithLogitsLoss")
        validator.check_same_shape(labels.shape, logits.shape, "labels", "logits", "BCEWithLogitsLoss")
        return ops.binary_cross_entropy_with_logits(logits, labels, self.weight, self.pos_weight, self.reduction)


class KLDivLoss(LossBase):
    """Kullback-Leibler divergence ``labels * (log(labels) - logits)`` with log-probability ``logits``.

    Args:
        reduction: 'mean' (default), 'batchmean', 'sum' or 'none'.
    """

    _reductions = ("mean", "batchmean", "sum", "none")

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        validator.check_instance(logits, Tensor, "logits", "KLDivLoss")
        validator.check_dtype_kind("logits", logits.dtype, mstype.Float, _FLOATS, "KLDivLoss")
        validator.check_instance(labels, Tensor, "labels", "KLDivLoss")
        return ops.kl_div(logits, labels, self.reduction)


def __getattr__(name: str) -> Any:
    """MindSpore keeps every loss in ``mindspore.nn.loss.loss``; here some live in sibling modules by concept.
    ``from sporax.nn.loss.loss import CTCLoss`` (MindSpore's path) finds them there."""
    import importlib

    for mod in ("ctc", "margin", "regression", "sampled", "segmentation"):
        m = importlib.import_module(f"{__package__}.{mod}")
        if name in m.__all__:
            return getattr(m, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
