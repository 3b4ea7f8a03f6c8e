"""Accuracy."""

from __future__ import annotations

import numpy as np

from .metric import EvaluationBase, _is_onehot, _scalar, rearrange_inputs


class Accuracy(EvaluationBase):
    r"""
    Calculates the accuracy for classification and multilabel data.

    .. math::
        \text{accuracy} =\frac{\text{true_positive} + \text{true_negative}}
        {\text{true_positive} + \text{true_negative} + \text{false_positive} + \text{false_negative}}

    Args:
        eval_type (str, optional): ``'classification'`` (single label) or ``'multilabel'``.
            Default: ``'classification'`` .

    Examples:
        >>> import numpy as np
        >>> import sporax
        >>> from sporax import Tensor
        >>> from sporax.train import Accuracy
        >>> x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), sporax.float32)
        >>> y = Tensor(np.array([1, 0, 1]), sporax.float32)
        >>> metric = Accuracy('classification')
        >>> metric.clear()
        >>> metric.update(x, y)
        >>> print(metric.eval())
        0.6666666666666666
    """

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """
        Updates the local variables.

        For ``'classification'``, a prediction is correct when the index of its maximum equals the label; for
        ``'multilabel'``, when it equals the label vector.

        Args:
            inputs: Logits `y_pred` and labels `y` (Tensor, list or numpy.ndarray). For ``'classification'``,
                `y_pred` has shape :math:`(N, C)` and `y` is one-hot :math:`(N, C)` or class indices
                :math:`(N,)`. For ``'multilabel'``, both are :math:`(N, C)` with values 0 or 1.

        Raises:
            ValueError: If the number of the inputs is not 2.
            ValueError: class numbers of last input predicted data and current predicted data do not match.
        """
        if len(inputs) != 2:
            raise ValueError(
                f"For 'Accuracy.update', it needs 2 inputs (predicted value, true value), but got {len(inputs)}"
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and _is_onehot(y):
            y = y.argmax(axis=1)
        self._verify_shapes(y_pred, y)
        self._verify_multilabel_values(y_pred, y)

        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(
                f"For 'Accuracy.update', class number not match, last input predicted data contain {self._class_num} "
                f"classes, but current predicted data contain {y_pred.shape[1]} classes, please check your predicted "
                "value(inputs[0])."
            )

        if self._type == "classification":
            indices = y_pred.argmax(axis=1)
            result = (np.equal(indices, y) * 1).reshape(-1)
        else:
            dimension_index = y_pred.ndim - 1
            y_pred = y_pred.swapaxes(1, dimension_index).reshape(-1, self._class_num)
            y = y.swapaxes(1, dimension_index).reshape(-1, self._class_num)
            result = np.equal(y_pred, y).all(axis=1) * 1
        self._correct_num += result.sum()
        self._total_num += result.shape[0]

    def eval(self):
        """
        Computes the accuracy.

        Returns:
            numpy.float64, the computed result.

        Raises:
            RuntimeError: If the sample size is 0.
        """
        if self._total_num == 0:
            raise RuntimeError(
                "The 'Accuracy' can not be calculated, because the number of samples is 0, "
                "please check whether your inputs(predicted value, true value) are empty, "
                "or has called update method before calling eval method."
            )
        return _scalar(self._correct_num / self._total_num)
