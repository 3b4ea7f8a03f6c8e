"""RootMeanSquareSurfaceDistance."""

from __future__ import annotations

import numpy as np

from ._surface import _SurfaceDistance
from .metric import rearrange_inputs


class RootMeanSquareDistance(_SurfaceDistance):
    r"""
    Computes the Root Mean Square Surface Distance from `y_pred` to `y`. Needs SciPy.

    .. math::
        RmsSurDis(B \rightarrow A) = \sqrt{\frac{\sum_{s_{B}  \in S(B)}^{} {\text{dis}^2  \left ( s_{B}, S(A)
        \right )} }{\left | S(B) \right |}}

    Note:
        As in MindSpore, the non-symmetric result is the mean of the squared distances (no square root).

    Args:
        symmetric (bool, optional): If True, the root of the mean of both directions' mean squared distances.
            Default: ``False`` .
        distance_metric (str, optional): ``"euclidean"``, ``"chessboard"`` or ``"taxicab"``.
            Default: ``"euclidean"`` .

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import RootMeanSquareDistance
        >>> x = Tensor(np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]]))
        >>> y = Tensor(np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]]))
        >>> metric = RootMeanSquareDistance(symmetric=False, distance_metric="euclidean")
        >>> metric.clear()
        >>> metric.update(x, y, 0)
        >>> root_mean_square_distance = metric.eval()
        >>> print(root_mean_square_distance)
        1.0000000000000002
    """

    @rearrange_inputs
    def update(self, *inputs):
        """
        Updates the internal evaluation result with 'y_pred', 'y' and 'label_idx'.

        Args:
            inputs: 'y_pred' and 'y' (Tensor, list or numpy.ndarray), the predicted and actual images, and
                'label_idx' (int or float), the label whose region is measured.

        Raises:
            ValueError: If the number of the inputs is not 3, `label_idx` is not in `y_pred` or `y`, or `y_pred`
                and `y` have different shapes.
            TypeError: If `label_idx` is not int or float.
        """
        self._update(inputs, TypeError)

    def eval(self):
        """
        Calculate Root Mean Square Distance.

        Returns:
            numpy.float64, root mean square surface distance.

        Raises:
            RuntimeError: If the update method is not called first, an error will be reported.
        """
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        distances = self._get_surface_distance(self._y_pred_edges, self._y_edges)
        if distances.shape == (0,):
            return np.inf
        rms = (distances**2).mean()
        if not self.symmetric:
            return rms
        contrary = self._get_surface_distance(self._y_edges, self._y_pred_edges)
        if contrary.shape == (0,):
            return np.inf
        return np.sqrt(np.mean((rms, (contrary**2).mean())))
