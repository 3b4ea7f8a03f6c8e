"""Precision."""

from __future__ import annotations

from ._precision_recall import _PRBase
from .metric import rearrange_inputs


class Precision(_PRBase):
    r"""
    Calculates precision for classification and multilabel data.

    .. math::
        \text{precision} = \frac{\text{true_positive}}{\text{true_positive} + \text{false_positive}}

    Args:
        eval_type (str, optional): ``'classification'`` or ``'multilabel'``. Default: ``'classification'`` .

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import Precision
        >>> x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]))
        >>> y = Tensor(np.array([1, 0, 1]))
        >>> metric = Precision('classification')
        >>> metric.update(x, y)
        >>> print(metric.eval())
        [0.5 1. ]
    """

    _name = "Precision"

    def _denominator_of(self, y_pred, y):
        return y_pred.sum(axis=0)

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
        Computes the precision.

        Args:
            average (bool, optional): Specify whether calculate the average precision. Default: ``False`` .

        Returns:
            numpy.float64 (average) or numpy.ndarray (per class), the computed result.
        """
        return self._eval(average, "precision")
