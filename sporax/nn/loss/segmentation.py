"""Dense-prediction losses (``nn.FocalLoss``, ``nn.DiceLoss``, ``nn.MultiClassDiceLoss``)."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.tensor import Tensor
from ..cell import Cell
from .loss import LossBase

__all__ = ["FocalLoss", "DiceLoss", "MultiClassDiceLoss"]


class FocalLoss(LossBase):
    """Focal loss ``-(1 - p)^gamma log(p)`` of softmax probabilities over axis 1.

    ``labels`` hold class indices with one channel (``(N, 1, ...)``) or one-hot ``(N, C, ...)``.

    Args:
        weight: per-class weights ``(C,)``. Default None.
        gamma: the focusing parameter (a float). Default 2.0.
        reduction: 'mean' (default), 'sum' or 'none'.
    """

    def __init__(self, weight: Any = None, gamma: float = 2.0, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        self.gamma = validator.check_value_type("gamma", gamma, [float], "FocalLoss")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For 'FocalLoss', the type of 'weight' must be a Tensor, but got {type(weight).__name__}.")
        if isinstance(weight, Tensor) and weight.ndim != 1:
            raise ValueError(f"For 'FocalLoss', the dimension of 'weight' must be 1, but got {weight.ndim}.")
        self.weight = weight

    def construct(self, logits: Any, labels: Any) -> Any:
        op = "FocalLoss"
        validator.check_instance(logits, Tensor, "logits", op)
        validator.check_instance(labels, Tensor, "labels", op)
        for name, nd in (("logits", logits.ndim), ("labels", labels.ndim)):
            if not 2 <= nd <= 4:
                raise ValueError(
                    f"For '{op}', the dimensions of '{name}' must be in [2, 4], but got dimension of '{name}' {nd}."
                )
        if logits.ndim != labels.ndim:
            raise ValueError(
                f"For '{op}', the dimensions of 'logits' and 'labels' must be equal, but got dimension of 'logits' "
                f"{logits.ndim} and dimension of 'labels' {labels.ndim}."
            )
        c = logits.shape[1]
        if c == 1:
            raise ValueError(f"For '{op}', the 'logits'.shape[1] cannot be one, but got {c}.")
        if labels.shape[1] not in (1, c):
            raise ValueError(
                f"For '{op}', the 'labels'.shape[1] must be one or equal to 'logits'.shape[1]: {c}, "
                f"but got {labels.shape[1]}."
            )
        if labels.dtype not in (mstype.int32, mstype.int64, mstype.float16, mstype.float32):
            raise TypeError(
                f"For '{op}', the type of 'labels' should be one of ['Int32', 'Int64', 'Float16', 'Float32'], "
                f"but got {labels.dtype}."
            )
        sparse = labels.shape[1] == 1
        if logits.ndim > 2:
            logits = logits.view(logits.shape[0], c, -1)
            labels = labels.view(labels.shape[0], labels.shape[1], -1)
        else:
            logits, labels = logits.expand_dims(2), labels.expand_dims(2)
        logp = ops.log_softmax(logits, 1)
        if sparse:
            idx = ops.cast(labels, mstype.int32)
            logp = ops.gather_elements(logp, 1, idx).squeeze(1)
        prob = ops.exp(logp)
        if self.weight is not None:
            w = ops.tile(self.weight[None, :, None], (labels.shape[0], 1, labels.shape[2]))
            if sparse:
                w = ops.gather_elements(w, 1, ops.cast(labels, mstype.int32)).squeeze(1)
            logp = logp * w
        focus = ops.pow(1.0 - prob, self.gamma)
        if sparse:
            loss = (-1 * focus * logp).mean(axis=1)
        else:
            loss = (-1 * focus * labels * logp).mean(axis=-1)
        return self.get_loss(loss)


class DiceLoss(LossBase):
    """``1 - 2 |x * y| / (|x|^2 + |y|^2 + smooth)`` over all elements.

    Args:
        smooth: a positive float added to the denominator. Default 1e-5.
    """

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        self.smooth = validator.check_positive_float(smooth, "smooth")

    def construct(self, logits: Any, label: Any) -> Any:
        op = "DiceLoss"
        validator.check_instance(logits, Tensor, "logits", op)
        validator.check_instance(label, Tensor, "labels", op)
        if logits.shape != label.shape:
            raise ValueError(
                f"For '{op}', the 'logits_shape' should be equal to label_shape: {label.shape}, but got {logits.shape}."
            )
        if logits.dtype == mstype.uint8:
            raise TypeError(f"For '{op}', the dtype of 'logits' can not be uint8.")
        if label.dtype == mstype.uint8:
            raise TypeError(f"For '{op}', the dtype of 'labels' can not be uint8.")
        x, y = logits.view(-1), label.view(-1)
        intersection = ops.sum(x * y)
        union = ops.sum(x * x) + ops.sum(y * y)
        return 1 - (2 * intersection) / (union + self.smooth)


class MultiClassDiceLoss(LossBase):
    """Mean over classes (axis 1) of the binary Dice loss of ``activation(logits)[:, i]`` and ``label[:, i]``.

    Args:
        weights: per-class weights, a 2-D Tensor whose first dimension is the class number. Default None.
        ignore_indiex: a class index left out (MindSpore's spelling). Default None.
        activation: 'softmax' (default), 'logsoftmax', 'relu', 'relu6', 'tanh', 'sigmoid', a Cell or None.
    """

    def __init__(self, weights: Any = None, ignore_indiex: Any = None, activation: Any = "softmax") -> None:
        super().__init__()
        from ..layer.activation import get_activation

        op = "MultiClassDiceLoss"
        allowed = ["softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid"]
        self.binarydiceloss = DiceLoss(smooth=1e-5)
        self.weights = weights if weights is None else validator.check_value_type("weights", weights, [Tensor], op)
        if isinstance(self.weights, Tensor) and self.weights.ndim != 2:
            raise ValueError(f"For '{op}', the dimension of 'weights' must be 2, but got {self.weights.ndim}.")
        self.ignore_indiex = (
            ignore_indiex
            if ignore_indiex is None
            else validator.check_value_type("ignore_indiex", ignore_indiex, [int], op)
        )
        if isinstance(activation, str) and activation not in allowed:
            raise ValueError(f"For '{op}', the 'activation' must be in {allowed}, but got {activation}.")
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if self.activation is not None and not isinstance(self.activation, Cell):
            raise TypeError(f"For '{op}', the 'activation' must be str or Cell, but got {type(self.activation)}.")

    def construct(self, logits: Any, label: Any) -> Any:
        op = "MultiClassDiceLoss"
        validator.check_instance(logits, Tensor, "logits", op)
        validator.check_instance(label, Tensor, "labels", op)
        if logits.shape != label.shape:
            raise ValueError(
                f"For '{op}', the 'logits_shape' should be equal to label_shape: {label.shape}, but got {logits.shape}."
            )
        if logits.ndim < 2:
            raise ValueError(f"For '{op}', the 'logits' dimension must be greater than 1, but got {logits.ndim}.")
        if self.activation is not None:
            logits = self.activation(logits)
        total: Any = 0
        n = label.shape[1]
        for i in range(n):
            if i == self.ignore_indiex:
                continue
            dice = self.binarydiceloss(logits[:, i], label[:, i])
            if self.weights is not None:
                if self.weights.shape[0] != n:
                    raise ValueError(
                        f"For '{op}', the weight_shape[0] must be equal to label_shape[1], "
                        f"but got weight_shape[0]: {self.weights.shape[0]} and label_shape[1]: {n}."
                    )
                dice = dice * self.weights[i]
            total = total + dice
        return total / n
