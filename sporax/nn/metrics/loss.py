"""Loss for evaluation."""

from __future__ import annotations

import numpy as np

from .metric import Metric, _scalar, rearrange_inputs


class Loss(Metric):
    r"""
    Calculates the average of the loss. If 'update' is called :math:`n` times, the result is:

    .. math::
        loss = \frac{\sum_{k=1}^{n}loss_k}{n}

    Examples:
        >>> import numpy as np
        >>> import sporax
        >>> from sporax import Tensor
        >>> from sporax.train import Loss
        >>> x = Tensor(np.array(0.2), sporax.float32)
        >>> loss = Loss()
        >>> loss.clear()
        >>> loss.update(x)
        >>> print(loss.eval())
        0.20000000298023224
    """

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self._sum_loss = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """
        Updates the internal evaluation result.

        Args:
            inputs: One element, the loss, of dimension 0 or 1 (the mean of a vector is taken).

        Raises:
            ValueError: If the length of inputs is not 1.
            ValueError: If the dimension of loss is not 1 or 0.
        """
        if len(inputs) != 1:
            raise ValueError(f"For 'Loss.update', it needs 1 input (loss), but got {len(inputs)}")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"For 'Loss.update', the dimension of your input (loss) must be 1, but got {loss.ndim}.")
        loss = loss.mean(-1)
        self._sum_loss += np.float64(loss)  # MindSpore (NumPy 1.x) accumulates in float64
        self._total_num += 1

    def eval(self):
        """
        Calculates the average of the loss.

        Returns:
            numpy.float64. The average of the loss.

        Raises:
            RuntimeError: If the total number is 0.
        """
        if self._total_num == 0:
            raise RuntimeError(
                "The 'Loss' can not be calculated, because the number of samples is 0, please "
                "check whether has called update method before calling eval method."
            )
        return _scalar(self._sum_loss / self._total_num)
