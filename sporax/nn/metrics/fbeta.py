"""Fbeta and F1."""

from __future__ import annotations

import sys

import numpy as np

from ..._checkparam import check_value_type
from .metric import Metric, _is_onehot, _scalar, rearrange_inputs


class Fbeta(Metric):
    r"""
    Calculates the Fbeta score, a weighted mean of precision and recall.

    .. math::
        F_\beta=\frac{(1+\beta^2) \cdot true\_positive}
                {(1+\beta^2) \cdot true\_positive +\beta^2 \cdot false\_negative + false\_positive}

    Args:
        beta (Union[float, int]): Beta coefficient in the F measure. `beta` should be greater than 0.

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import Fbeta
        >>> x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]))
        >>> y = Tensor(np.array([1, 0, 1]))
        >>> metric = Fbeta(1)
        >>> metric.update(x, y)
        >>> print(metric.eval())
        [0.66666667 0.66666667]
    """

    def __init__(self, beta):
        super().__init__()
        self.eps = sys.float_info.min
        if not beta > 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got {beta}.")
        self.beta = beta
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """
        Updates the internal evaluation result `y_pred` and `y`.

        Args:
            inputs: `y_pred` of shape :math:`(N, C)` and `y`, one-hot :math:`(N, C)` or class indices
                :math:`(N,)` (Tensor, list or numpy.ndarray).

        Raises:
            ValueError: class numbers of last input predicted data and current predicted data do not match.
            ValueError: If the predicted value and true value contain different classes.
        """
        if len(inputs) != 2:
            raise ValueError(
                f"For 'Fbeta.update', it needs 2 inputs (predicted value, true value), but got {len(inputs)}."
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and _is_onehot(y):
            y = y.argmax(axis=1)

        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(
                f"For 'Fbeta.update', class number not match, last input predicted data contain {self._class_num} "
                f"classes, but current predicted data contain {y_pred.shape[1]} classes, please check your "
                "predicted value(inputs[0])."
            )
        class_num = self._class_num
        if y.max() + 1 > class_num:
            raise ValueError(
                "For 'Fbeta.update', predicted value(inputs[0]) and true value(inputs[1]) should contain same "
                f"classes, but got predicted value contains {class_num} classes and true value contains "
                f"{y.max() + 1} classes."
            )
        y = np.eye(class_num)[y.reshape(-1).astype(np.int64)]
        indices = y_pred.argmax(axis=1).reshape(-1)
        y_pred = np.eye(class_num)[indices]

        self._positives += y_pred.sum(axis=0)
        self._actual_positives += y.sum(axis=0)
        self._true_positives += (y * y_pred).sum(axis=0)

    def eval(self, average=False):
        """
        Computes the fbeta.

        Args:
            average (bool, optional): Whether to calculate the average fbeta. Default: ``False``.

        Returns:
            numpy.ndarray or numpy.float64, the computed result.
        """
        check_value_type("average", average, [bool], self.__class__.__name__)
        if self._class_num == 0:
            raise RuntimeError(
                "The 'Fbeta' can not be calculated, because the number of samples is 0, "
                "please check whether your inputs(predicted value, true value) are empty, "
                "or has called update method before calling eval method."
            )
        with np.errstate(divide="ignore", invalid="ignore"):
            fbeta = (
                (1.0 + self.beta**2)
                * self._true_positives
                / (self.beta**2 * self._actual_positives + self._positives + self.eps)
            )
        if average:
            return _scalar(fbeta.mean())
        return fbeta


class F1(Fbeta):
    r"""
    Calculates the F1 score, the special case of :class:`Fbeta` with beta 1.

    .. math::
        F_1=\frac{2\cdot true\_positive}{2\cdot true\_positive + false\_negative + false\_positive}

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import F1
        >>> x = Tensor(np.array([[0.1, 0.9], [0.8, 0.2]]))
        >>> y = Tensor(np.array([1, 0]))
        >>> metric = F1()
        >>> metric.update(x, y)
        >>> print(metric.eval())
        [1. 1.]
    """

    def __init__(self):
        super().__init__(1.0)
