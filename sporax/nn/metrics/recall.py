"""Recall."""

from __future__ import annotations

from ._precision_recall import _PRBase
from .metric import rearrange_inputs


class Recall(_PRBase):
    r"""
    Calculates recall for classification and multilabel data.

    .. math::
        \text{recall} = \frac{\text{true_positive}}{\text{true_positive} + \text{false_negative}}

    Note:
        In the multi-label cases, the elements of :math:`y` and :math:`y_{pred}` must be 0 or 1.

    Args:
        eval_type (str, optional): ``'classification'`` or ``'multilabel'``. Default: ``'classification'`` .

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import Recall
        >>> x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]))
        >>> y = Tensor(np.array([1, 0, 1]))
        >>> metric = Recall('classification')
        >>> metric.update(x, y)
        >>> print(metric.eval())
        [1.  0.5]
    """

    _name = "Recall"

    def _denominator_of(self, y_pred, y):
        return y.sum(axis=0)

    @rearrange_inputs
    def update(self, *inputs):
        """
        Updates the internal evaluation result with `y_pred` and `y`.

        Args:
            inputs: `y_pred` and `y` (Tensor, list or numpy.ndarray). For 'classification', `y_pred` has shape
                :math:`(N, C)` and `y` is one-hot :math:`(N, C)` or class indices :math:`(N,)`. For
                'multilabel', both are :math:`(N, C)` with values 0 or 1.

        Raises:
            ValueError: If the number of inputs is not 2.
        """
        self._update(inputs)

    def eval(self, average=False):
        """
        Computes the recall.

        Args:
            average (bool, optional): Specify whether calculate the average recall. Default: ``False`` .

        Returns:
            numpy.float64 (average) or numpy.ndarray (per class), the computed result.
        """
        return self._eval(average, "recall")
