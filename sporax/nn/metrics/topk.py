"""Top-k categorical accuracy."""

from __future__ import annotations

import numpy as np

from .metric import Metric, _is_onehot, _scalar, rearrange_inputs


class TopKCategoricalAccuracy(Metric):
    """
    Calculates the top-k categorical accuracy.

    Args:
        k (int): Specifies the top-k categorical accuracy to compute.

    Raises:
        TypeError: If `k` is not int.
        ValueError: If `k` is less than 1.

    Examples:
        >>> import numpy as np
        >>> import sporax
        >>> from sporax import Tensor
        >>> from sporax.train import TopKCategoricalAccuracy
        >>> x = Tensor(np.array([[0.2, 0.5, 0.3, 0.6, 0.2], [0.1, 0.35, 0.5, 0.2, 0.],
        ...         [0.9, 0.6, 0.2, 0.01, 0.3]]), sporax.float32)
        >>> y = Tensor(np.array([2, 0, 1]), sporax.float32)
        >>> topk = TopKCategoricalAccuracy(3)
        >>> topk.clear()
        >>> topk.update(x, y)
        >>> print(topk.eval())
        0.6666666666666666
    """

    def __init__(self, k):
        super().__init__()
        if not isinstance(k, int):
            raise TypeError(
                f"For 'TopKCategoricalAccuracy', the type of the argument 'k' should be int, but got 'k' type: {type(k)}."
            )
        if k < 1:
            raise ValueError(
                f"For 'TopKCategoricalAccuracy', the argument 'k' must be at least 1, but got 'k' value: {k}."
            )
        self.k = k
        self.clear()

    def clear(self):
        """Clear the internal evaluation result."""
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        r"""
        Updates the internal evaluation result `y_pred` and `y`.

        Args:
            inputs: `y_pred` of shape :math:`(N, C)` and `y`, one-hot :math:`(N, C)` or class indices
                :math:`(N,)` (Tensor, list or numpy.ndarray).

        Note:
            If some classes have the same score, the first one is ranked higher.
        """
        if len(inputs) != 2:
            raise ValueError(
                "For 'TopKCategoricalAccuracy.update', it needs 2 inputs (predicted value, true value), "
                f"but got 'inputs' size: {len(inputs)}."
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and _is_onehot(y):
            y = y.argmax(axis=1)
        indices = np.argsort(-y_pred, axis=1)[:, : self.k]
        repeated_y = y.reshape(-1, 1).repeat(self.k, axis=1)
        correct = np.equal(indices, repeated_y).sum(axis=1)
        self._correct_num += correct.sum()
        self._samples_num += repeated_y.shape[0]

    def eval(self):
        """
        Computes the top-k categorical accuracy.

        Returns:
            numpy.float64, computed result.
        """
        if self._samples_num == 0:
            raise RuntimeError(
                "The 'TopKCategoricalAccuracy' can not be calculated, because the number of samples is 0, "
                "please check whether your inputs (predicted value, true value) are empty, "
                "or has called update method before calling eval method."
            )
        return _scalar(self._correct_num / self._samples_num)


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """
    Calculates the top-1 categorical accuracy (:class:`TopKCategoricalAccuracy` with k 1).

    Examples:
        >>> from sporax.train import Top1CategoricalAccuracy
        >>> topk = Top1CategoricalAccuracy()
    """

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """
    Calculates the top-5 categorical accuracy (:class:`TopKCategoricalAccuracy` with k 5).

    Examples:
        >>> from sporax.train import Top5CategoricalAccuracy
        >>> topk = Top5CategoricalAccuracy()
    """

    def __init__(self):
        super().__init__(5)
