"""Perplexity"""

from __future__ import annotations

import math

import numpy as np

from ..._checkparam import check_value_type
from .metric import Metric, rearrange_inputs


class Perplexity(Metric):
    r"""
    Computes perplexity, a measure of how well a probability distribution predicts a sample (lower is better).

    .. math::
        PP(W)=P(w_{1}w_{2}...w_{N})^{-\frac{1}{N}}=\sqrt[N]{\frac{1}{P(w_{1}w_{2}...w_{N})}}

    Args:
        ignore_label (Union[int, None], optional): Index of an invalid label to be ignored when counting. If set
            to `None`, it will include all entries. Default: ``None`` .

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import Perplexity
        >>> x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]))
        >>> y = Tensor(np.array([1, 0, 1]))
        >>> metric = Perplexity(ignore_label=None)
        >>> metric.clear()
        >>> metric.update(x, y)
        >>> perplexity = metric.eval()
        >>> print(perplexity)
        2.231443166940565
    """

    def __init__(self, ignore_label=None):
        super().__init__()
        self.ignore_label = (
            ignore_label if ignore_label is None else check_value_type("ignore_label", ignore_label, [int])
        )
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs):
        """
        Updates the internal evaluation result `preds` and `labels`.

        Args:
            inputs: `preds` (probabilities, shape :math:`(N, C)`) and `labels` (shape :math:`(N,)`), each a
                Tensor, list or numpy.ndarray.

        Raises:
            ValueError: If the number of the inputs is not 2.
            RuntimeError: If `labels` does not hold one label per prediction.
        """
        if len(inputs) != 2:
            raise ValueError(
                f"For 'Perplexity.update', it needs 2 inputs (predicted value, label), but got {len(inputs)}."
            )
        pred = self._convert_data(inputs[0])
        label = self._convert_data(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError(
                "For 'Perplexity.update', predicted value (input[0]) and label (input[1]) should have the same "
                f"shape, but got predicted value shape {pred.shape}, label shape {label.shape}."
            )
        label = label.reshape((label.size,))
        label_expand = np.expand_dims(label.astype(int), axis=1)
        first_indices = np.arange(label_expand.shape[0])[:, None]
        pred = np.squeeze(pred[first_indices, label_expand])
        num = 0
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(pred.dtype)
            num -= np.sum(ignore)
            pred = pred * (1 - ignore) + ignore
        self._sum_metric += -np.sum(np.log(np.maximum(1e-10, pred)))
        self._num_inst += num + pred.size

    def eval(self):
        r"""
        Returns the current evaluation result.

        Returns:
            float. The computed result.

        Raises:
            RuntimeError: If the sample size is 0.
        """
        if self._num_inst == 0:
            raise RuntimeError(
                "The 'Perplexity' can not be calculated, because the number of samples is 0, please "
                "check whether the update method has been called before calling eval method."
            )
        return math.exp(self._sum_metric / self._num_inst)
