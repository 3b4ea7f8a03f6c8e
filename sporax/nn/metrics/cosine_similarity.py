"""CosineSimilarity."""

from __future__ import annotations

import numpy as np

from ..._checkparam import check_string, check_value_type
from .metric import Metric, rearrange_inputs


class CosineSimilarity(Metric):
    """
    Computes representation similarity: the matrix of similarities between the rows of the input.

    Args:
        similarity (str, optional): ``'cosine'`` (cosine similarity) or ``'dot'`` (dot products).
            Default: ``'cosine'`` .
        reduction (str, optional): ``'none'``, ``'sum'`` or ``'mean'`` (along dim -1). Default: ``'none'`` .
        zero_diagonal (bool, optional): If ``True``, diagonals of results will be set to zero. Default: ``True`` .

    Examples:
        >>> import numpy as np
        >>> from sporax.train import CosineSimilarity
        >>> test_data = np.array([[1, 3, 4, 7], [2, 4, 2, 5], [3, 1, 5, 8]])
        >>> metric = CosineSimilarity()
        >>> metric.clear()
        >>> metric.update(test_data)
        >>> square_matrix = metric.eval()
        >>> print(square_matrix)
        [[0.         0.94025615 0.95162452]
         [0.94025615 0.         0.86146098]
         [0.95162452 0.86146098 0.        ]]
    """

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        super().__init__()
        similarity = check_value_type("similarity", similarity, [str])
        self.similarity = check_string(similarity, ["dot", "cosine"], "similarity")
        reduction = check_value_type("reduction", reduction, [str])
        self.reduction = check_string(reduction, ["none", "sum", "mean"], "reduction")
        self.zero_diagonal = check_value_type("zero_diagonal", zero_diagonal, [bool])
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs):
        """
        Updates the internal evaluation result with 'inputs'.

        Args:
            inputs (Union[Tensor, list, numpy.ndarray]): The input matrix, one representation per row.
        """
        input_data = self._convert_data(inputs)
        if self.similarity == "cosine":
            norm = np.linalg.norm(input_data, ord=2, axis=1)
            with np.errstate(divide="ignore", invalid="ignore"):
                input_data = input_data / np.expand_dims(norm, 1)
        self.sqr_mtx_res = np.dot(input_data, input_data.transpose(1, 0))
        self._is_update = True

    def eval(self):
        """
        Computes the similarity matrix.

        Returns:
            numpy.ndarray. The similarity matrix.

        Raises:
            RuntimeError: If the update method is not called first, an error will be reported.
        """
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == "mean":
            self.sqr_mtx_res = np.mean(self.sqr_mtx_res, axis=-1)
        if self.reduction == "sum":
            self.sqr_mtx_res = np.sum(self.sqr_mtx_res, axis=-1)
        return self.sqr_mtx_res
