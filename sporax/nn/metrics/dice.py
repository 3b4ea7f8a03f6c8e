"""Dice"""

from __future__ import annotations

import numpy as np

from ..._checkparam import check_positive_float
from .metric import Metric, rearrange_inputs


class Dice(Metric):
    r"""
    The Dice coefficient, a set similarity metric (1 for a perfect segmentation, 0 for the worst).

    .. math::
        dice = \frac{2 * (pred \bigcap true)}{pred \bigcup true}

    The result is the sum of the coefficients of every `update` divided by the number of samples seen.

    Args:
        smooth (float, optional): A term added to the denominator to improve numerical stability. Should be
            greater than 0. Default: ``1e-5`` .

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import Dice
        >>> x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]))
        >>> y = Tensor(np.array([[0, 1], [1, 0], [0, 1]]))
        >>> metric = Dice(smooth=1e-5)
        >>> metric.clear()
        >>> metric.update(x, y)
        >>> dice = metric.eval()
        >>> print(dice)
        0.2046779137180255
    """

    def __init__(self, smooth=1e-5):
        super().__init__()
        self.smooth = check_positive_float(smooth, "smooth")
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self._dice_coeff_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        r"""
        Updates the internal evaluation result `y_pred` and `y`.

        Args:
            inputs (tuple): `y_pred` and `y` (Tensor, list or numpy.ndarray), both of shape :math:`(N, ...)`.

        Raises:
            ValueError: If the number of the inputs is not 2.
            ValueError: If y_pred and y do not have the same shape.
        """
        if len(inputs) != 2:
            raise ValueError(
                f"For 'Dice.update', it needs 2 inputs (predicted value, true value), but got {len(inputs)}."
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError(
                "For 'Dice.update', predicted value (input[0]) and true value (input[1]) "
                f"should have same shape, but got predicted value shape: {y_pred.shape}, "
                f"true value shape: {y.shape}."
            )
        intersection = np.dot(y_pred.flatten(), y.flatten())
        unionset = np.dot(y_pred.flatten(), y_pred.flatten()) + np.dot(y.flatten(), y.flatten())
        self._dice_coeff_sum += 2 * float(intersection) / (float(unionset) + self.smooth)

    def eval(self):
        r"""
        Computes the Dice.

        Returns:
            Float, the computed result.

        Raises:
            RuntimeError: If the total number of samples is 0.
        """
        if self._samples_num == 0:
            raise RuntimeError(
                "The 'Dice coefficient' can not be calculated, because the number of samples is 0, "
                "please check whether your inputs(predicted value, true value) are empty, or has "
                "called update method before calling eval method."
            )
        return self._dice_coeff_sum / float(self._samples_num)
