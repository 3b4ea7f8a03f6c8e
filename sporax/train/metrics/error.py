"""MAE and MSE."""

from __future__ import annotations

import numpy as np

from .metric import Metric, _scalar, rearrange_inputs


class MAE(Metric):
    r"""
    Calculates the mean absolute error (MAE) between `y_pred` and `y`.

    .. math::
        \text{MAE} = \frac{\sum_{i=1}^n \|{y\_pred}_i - y_i\|}{n}

    where :math:`n` is batch size.

    Examples:
        >>> import numpy as np
        >>> import sporax
        >>> from sporax import Tensor
        >>> from sporax.train import MAE
        >>> x = Tensor(np.array([0.1, 0.2, 0.6, 0.9]), sporax.float32)
        >>> y = Tensor(np.array([0.1, 0.25, 0.7, 0.9]), sporax.float32)
        >>> error = MAE()
        >>> error.update(x, y)
        >>> print(error.eval())
        0.037499990314245224
    """

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self._abs_error_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """
        Updates the internal evaluation result `y_pred` and `y`.

        Args:
            inputs: `y_pred` and `y`, N-D with the same number of elements.

        Raises:
            ValueError: If the number of the input is not 2.
        """
        if len(inputs) != 2:
            raise ValueError(
                f"For 'MAE.update', it needs 2 inputs (predicted value, true value), but got {len(inputs)}."
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        abs_error_sum = np.abs(y.reshape(y_pred.shape) - y_pred)
        self._abs_error_sum += np.float64(abs_error_sum.sum())  # float64 accumulation, as MindSpore
        self._samples_num += y.shape[0]

    def eval(self):
        """
        Computes the mean absolute error (MAE).

        Returns:
            numpy.float64. The computed result.

        Raises:
            RuntimeError: If the total number of samples is 0.
        """
        if self._samples_num == 0:
            raise RuntimeError(
                "The 'MAE' can not be calculated, because the number of samples is 0, "
                "please check whether your inputs(predicted value, true value) are empty, "
                "or has called update method before calling eval method."
            )
        return _scalar(self._abs_error_sum / self._samples_num)


class MSE(Metric):
    r"""
    Measures the mean squared error (MSE) between `y_pred` and `y`.

    .. math::
        \text{MSE}(y\_pred,\ y) = \frac{\sum_{i=1}^n({y\_pred}_i - y_i)^2}{n}

    where :math:`n` is batch size.

    Examples:
        >>> import numpy as np
        >>> import sporax
        >>> from sporax import Tensor
        >>> from sporax.train import MSE
        >>> x = Tensor(np.array([0.1, 0.2, 0.6, 0.9]), sporax.float32)
        >>> y = Tensor(np.array([0.1, 0.25, 0.5, 0.9]), sporax.float32)
        >>> error = MSE()
        >>> error.update(x, y)
        >>> print(error.eval())
        0.0031250009778887033
    """

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        """Clear the internal evaluation result."""
        self._squared_error_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """
        Updates the internal evaluation result `y_pred` and `y`.

        Args:
            inputs: `y_pred` and `y`, N-D with the same number of elements.

        Raises:
            ValueError: If the number of inputs is not 2.
        """
        if len(inputs) != 2:
            raise ValueError(
                f"For 'MSE.update', it needs 2 inputs (predicted value, true value), but got {len(inputs)}."
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        squared_error_sum = np.power(y.reshape(y_pred.shape) - y_pred, 2)
        self._squared_error_sum += np.float64(squared_error_sum.sum())
        self._samples_num += y.shape[0]

    def eval(self):
        """
        Computes the mean squared error (MSE).

        Returns:
            numpy.float64. The computed result.

        Raises:
            RuntimeError: If the number of samples is 0.
        """
        if self._samples_num == 0:
            raise RuntimeError(
                "The 'MSE' can not be calculated, because the number of samples is 0, "
                "please check whether your inputs(predicted value, true value) are empty, "
                "or has called update method before calling eval method."
            )
        return _scalar(self._squared_error_sum / self._samples_num)
