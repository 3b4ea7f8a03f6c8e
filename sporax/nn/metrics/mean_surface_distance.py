"""MeanSurfaceDistance."""

from __future__ import annotations

import numpy as np

from ._surface import _SurfaceDistance
from .metric import rearrange_inputs


class MeanSurfaceDistance(_SurfaceDistance):
    r"""
    Computes the Average Surface Distance from `y_pred` to `y`: how much, on average, the surface of the
    segmentation differs from the ground truth's. Needs SciPy.

    .. math::
        AvgSurDis(B \rightarrow A) = \frac{\sum_{s_{B}  \in S(B)}^{} {\text{dis}  \left
        ( s_{B}, S(A) \right )} } {\left | S(B) \right |}

    Args:
        symmetric (bool, optional): If True, the mean of the distances from `y_pred` to `y` and from `y` to
            `y_pred`. Default: ``False`` .
        distance_metric (str, optional): ``"euclidean"``, ``"chessboard"`` or ``"taxicab"``.
            Default: ``"euclidean"`` .

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import MeanSurfaceDistance
        >>> x = Tensor(np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]]))
        >>> y = Tensor(np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]]))
        >>> metric = MeanSurfaceDistance(symmetric=False, distance_metric="euclidean")
        >>> metric.clear()
        >>> metric.update(x, y, 0)
        >>> mean_average_distance = metric.eval()
        >>> print(mean_average_distance)
        0.8047378541243649
    """

    @rearrange_inputs
    def update(self, *inputs):
        """
        Updates the internal evaluation result with 'y_pred', 'y' and 'label_idx'.

        Args:
            inputs: 'y_pred' and 'y' (Tensor, list or numpy.ndarray), the predicted and actual images, and
                'label_idx' (int or float), the label whose region is measured.

        Raises:
            ValueError: If the number of the inputs is not 3, `label_idx` is not int or float or not in `y_pred`
                or `y`, or `y_pred` and `y` have different shapes.
        """
        self._update(inputs, ValueError)

    def eval(self):
        """
        Calculate mean surface distance.

        Returns:
            numpy.float64. The mean surface distance value.

        Raises:
            RuntimeError: If the update method is not called first, an error will be reported.
        """
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        distances = self._get_surface_distance(self._y_pred_edges, self._y_edges)
        if distances.shape == (0,):
            return np.inf
        avg = distances.mean()
        if not self.symmetric:
            return avg
        contrary = self._get_surface_distance(self._y_edges, self._y_pred_edges)
        if contrary.shape == (0,):
            return np.inf
        return np.mean((avg, contrary.mean()))
