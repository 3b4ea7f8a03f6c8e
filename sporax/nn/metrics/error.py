"""MAE and MSE: the mean over samples of a per-element error, accumulated in float64 as MindSpore does."""

from __future__ import annotations

import numpy as np

from .metric import Metric, _scalar, rearrange_inputs


class _MeanError(Metric):
    """The sum of ``_error(y - y_pred)`` over all elements, divided by the number of samples."""

    _name = ""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self._error_sum = 0
        self._samples_num = 0

    @staticmethod
    def _error(diff):
        raise NotImplementedError

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
                f"For '{self._name}.update', it needs 2 inputs (predicted value, true value), but got {len(inputs)}."
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._error_sum += np.float64(self._error(y.reshape(y_pred.shape) - y_pred).sum())
        self._samples_num += y.shape[0]

    def eval(self):
        """
        Computes the mean error.

        Returns:
            numpy.float64. The computed result.

        Raises:
            RuntimeError: If the total number of samples is 0.
        """
        if self._samples_num == 0:
            raise RuntimeError(
                f"The '{self._name}' can not be calculated, because the number of samples is 0, "
                "please check whether your inputs(predicted value, true value) are empty, "
                "or has called update method before calling eval method."
            )
        return _scalar(self._error_sum / self._samples_num)


class MAE(_MeanError):
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

    _name = "MAE"
    _error = staticmethod(np.abs)


class MSE(_MeanError):
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

    _name = "MSE"

    @staticmethod
    def _error(diff):
        return np.power(diff, 2)
