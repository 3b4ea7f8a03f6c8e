"""ROC"""

from __future__ import annotations

import numpy as np

from ..._checkparam import check_value_type
from .metric import Metric, _binary_clf_curve, rearrange_inputs


class ROC(Metric):
    """
    Calculates the ROC curve, for binary and (one-vs-the-rest) multiclass classification.

    Args:
        class_num (int, optional): The number of classes; not needed for binary classification.
            Default: ``None`` .
        pos_label (int, optional): The positive class. For binary problems, it is 1 by default. For multiclass
            problems, it must not be set (every class is taken in turn). Default: ``None`` .

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import ROC
        >>> x = Tensor(np.array([3, 1, 4, 2]))
        >>> y = Tensor(np.array([0, 1, 2, 3]))
        >>> metric = ROC(pos_label=2)
        >>> metric.update(x, y)
        >>> fpr, tpr, thresholds = metric.eval()
        >>> print(fpr)
        [0.         0.         0.33333333 0.66666667 1.        ]
        >>> print(tpr)
        [0. 1. 1. 1. 1.]
        >>> print(thresholds)
        [5 4 3 2 1]
    """

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        self.class_num = class_num if class_num is None else check_value_type("class_num", class_num, [int])
        self.pos_label = pos_label if pos_label is None else check_value_type("pos_label", pos_label, [int])
        self.clear()

    def clear(self):
        """Clear the internal evaluation result."""
        self.y_pred = 0
        self.y = 0
        self.sample_weights = None
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """
        Update state with predictions and targets (the last update is the one evaluated).

        Args:
            inputs: `y_pred` and `y` (Tensor, list or numpy.ndarray): `y_pred` of shape :math:`(N, C)` (or
                :math:`(N,)` for binary problems) and `y` of integers, one-hot :math:`(N, C)` or :math:`(N,)`.
        """
        if len(inputs) != 2:
            raise ValueError(
                f"For 'ROC.update', it needs 2 inputs (predicted value, true value), but got {len(inputs)}"
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        y_pred, y, class_num, pos_label = _precision_recall_curve_update(y_pred, y, self.class_num, self.pos_label)
        self.y_pred = y_pred
        self.y = y
        self.class_num = class_num
        self.pos_label = pos_label
        self._is_update = True

    def _roc_eval(self, y_pred, y, class_num, pos_label, sample_weights=None):
        """Computes the ROC curve."""
        if class_num == 1:
            fps, tps, thresholds = _binary_clf_curve(y_pred, y, sample_weights=sample_weights, pos_label=pos_label)
            tps = np.squeeze(np.hstack([np.zeros(1, dtype=tps.dtype), tps]))
            fps = np.squeeze(np.hstack([np.zeros(1, dtype=fps.dtype), fps]))
            thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
            if fps[-1] <= 0:
                raise ValueError(
                    "For 'ROC.eval', there is no negative samples in true value, false positive value is meaningless."
                )
            fpr = fps / fps[-1]
            if tps[-1] <= 0:
                raise ValueError(
                    "For 'ROC.eval', there is no positive samples in true value, true positive value is meaningless."
                )
            tpr = tps / tps[-1]
            return fpr, tpr, thresholds

        fpr, tpr, thresholds = [], [], []
        for c in range(class_num):
            res = self._roc(y_pred[:, c], y, class_num=1, pos_label=c, sample_weights=sample_weights)
            fpr.append(res[0])
            tpr.append(res[1])
            thresholds.append(res[2])
        return fpr, tpr, thresholds

    def _roc(self, y_pred, y, class_num=None, pos_label=None, sample_weights=None):
        """The ROC curve of `y_pred` against `y`."""
        y_pred, y, class_num, pos_label = _precision_recall_curve_update(y_pred, y, class_num, pos_label)
        return self._roc_eval(y_pred, y, class_num, pos_label, sample_weights)

    def eval(self):
        """
        Computes the ROC curve.

        Returns:
            A tuple (`fpr`, `tpr`, `thresholds`) of numpy arrays (binary case), or of lists of arrays, one per
            class (multiclass case).

        Raises:
            RuntimeError: If the update method is not called first, an error will be reported.
        """
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        y_pred = np.squeeze(self.y_pred)
        y = np.squeeze(self.y)
        return self._roc_eval(y_pred, y, self.class_num, self.pos_label)


def _precision_recall_curve_update(y_pred, y, class_num, pos_label):
    """Check and flatten the inputs of a curve."""
    if not (len(y_pred.shape) == len(y.shape) or len(y_pred.shape) == len(y.shape) + 1):
        raise ValueError(
            "For 'ROC', predicted value (input[0]) and true value (input[1]) must have same "
            "dimensions, or the dimension of predicted value equal the dimension of true value add "
            f"1, but got predicted value ndim: {len(y_pred.shape)}, true value ndim: {len(y.shape)}."
        )
    if len(y_pred.shape) == len(y.shape):
        if class_num is not None and class_num != 1:
            raise ValueError(
                "For 'ROC', when predicted value (input[0]) and true value (input[1]) have the same "
                f"shape, the 'class_num' must be 1, but got {class_num}."
            )
        class_num = 1
        if pos_label is None:
            pos_label = 1
        y_pred = y_pred.flatten()
        y = y.flatten()
    else:
        if pos_label is not None:
            raise ValueError(
                "For 'ROC', when the dimension of predicted value (input[0]) equals the dimension "
                f"of true value (input[1]) add 1, the 'pos_label' must be None, but got {pos_label}."
            )
        if class_num != y_pred.shape[1]:
            raise ValueError(
                "For 'ROC', the 'class_num' must equal the number of classes from predicted value "
                f"(input[0]), but got 'class_num' {class_num}, the number of classes from predicted value "
                f"{y_pred.shape[1]}."
            )
        # one row of class scores per sample (MindSpore reshapes (N, C) into (C, N), which is only right when N == C)
        y_pred = np.moveaxis(y_pred, 1, -1).reshape(-1, class_num)
        y = y.flatten()
    return y_pred, y, class_num, pos_label
