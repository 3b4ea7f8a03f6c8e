"""Shared code of the surface-distance metrics (MeanSurfaceDistance, RootMeanSquareDistance)."""

from __future__ import annotations

import numpy as np

from ..._checkparam import check_string, check_value_type
from .hausdorff_distance import _ndimage
from .metric import Metric

_DISTANCE_METRICS = ["euclidean", "chessboard", "taxicab"]


class _SurfaceDistance(Metric):
    """Edges of two binary masks and the distances between them."""

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        super().__init__()
        self.distance_metric_list = list(_DISTANCE_METRICS)
        distance_metric = check_value_type("distance_metric", distance_metric, [str])
        self.distance_metric = check_string(distance_metric, self.distance_metric_list, "distance_metric")
        self.symmetric = check_value_type("symmetric", symmetric, [bool])
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self._y_pred_edges = 0
        self._y_edges = 0
        self._is_update = False

    def _get_surface_distance(self, y_pred_edges, y_edges):
        """Distances from the points of `y_pred_edges` to the nearest point of `y_edges`."""
        if not np.any(y_pred_edges):
            return np.array([])
        if not np.any(y_edges):
            dis = np.full(y_edges.shape, np.inf)
        elif self.distance_metric == "euclidean":
            dis = _ndimage().distance_transform_edt(~y_edges)
        else:
            dis = _ndimage().distance_transform_cdt(~y_edges, metric=self.distance_metric)
        return dis[y_pred_edges]

    def _update(self, inputs, label_type_error):
        name = self.__class__.__name__
        if len(inputs) != 3:
            raise ValueError(
                f"For '{name}.update', it needs 3 inputs (predicted value, true value, label index), "
                f"but got {len(inputs)}."
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        label_idx = inputs[2]
        if not isinstance(label_idx, (int, float)):
            raise label_type_error(
                f"For '{name}.update', the label index (input[2]) must be int or float, but got {type(label_idx)}."
            )
        if label_idx not in y_pred and label_idx not in y:
            raise ValueError(
                f"For '{name}.update', the label index (input[2]) must be in predicted value (input[0]) or true "
                f"value (input[1]), but {label_idx} is not."
            )
        if y_pred.size == 0 or y_pred.shape != y.shape:
            raise ValueError(
                f"For '{name}.update', the size of predicted value (input[0]) and true value (input[1]) must be "
                "greater than 0, in addition to that, predicted value and true value must have the same shape, "
                f"but got predicted value size: {y_pred.size}, shape: {y_pred.shape}, true value size: {y.size}, "
                f"shape: {y.shape}."
            )
        if y_pred.dtype != bool:
            y_pred = y_pred == label_idx
        if y.dtype != bool:
            y = y == label_idx
        ndimage = _ndimage()
        self._y_pred_edges = ndimage.binary_erosion(y_pred) ^ y_pred
        self._y_edges = ndimage.binary_erosion(y) ^ y
        self._is_update = True
