"""HausdorffDistance."""

from __future__ import annotations

import numpy as np

from ..._checkparam import check_string, check_value_type
from .metric import Metric, _scalar, rearrange_inputs


def _ndimage():
    try:
        from scipy import ndimage
    except ImportError:
        raise ImportError("HausdorffDistance needs SciPy: pip install scipy") from None
    return ndimage


class _ROISpatialData:
    """Crop the spatial dimensions of channel-first data to [roi_start, roi_end)."""

    def __init__(self, roi_start, roi_end):
        self.roi_start = np.maximum(np.asarray(roi_start, dtype=np.int64), 0)
        self.roi_end = np.maximum(np.asarray(roi_end, dtype=np.int64), self.roi_start)

    def __call__(self, data):
        sd = min(len(self.roi_start), len(self.roi_end), len(data.shape[1:]))
        slices = [slice(None)] + [slice(s, e) for s, e in zip(self.roi_start[:sd], self.roi_end[:sd])]
        return data[tuple(slices)]


class HausdorffDistance(Metric):
    r"""
    Calculates the Hausdorff distance between the edges of two binary segmentations.

    .. math::
        \begin{array}{ll} \\
                H(A, B) = \text{max}[h(A, B), h(B, A)]\\
                h(A, B) = \underset{a \in A}{\text{max}}\{\underset{b \in B}{\text{min}} \rVert a - b \rVert \}\\
                h(B, A) = \underset{b \in B}{\text{max}}\{\underset{a \in A}{\text{min}} \rVert b - a \rVert \}
        \end{array}

    Needs SciPy.

    Args:
        distance_metric (str, optional): ``"euclidean"``, ``"chessboard"`` or ``"taxicab"``.
            Default: ``"euclidean"`` .
        percentile (float, optional): A number between 0 and 100: the percentile of the distances instead of their
            maximum. Default: ``None`` .
        directed (bool, optional): If True, only h(y_pred, y) is computed, otherwise
            max(h(y_pred, y), h(y, y_pred)). Default: ``False`` .
        crop (bool, optional): Crop the inputs to the bounding box of (y_pred | y). Default: ``True`` .

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import HausdorffDistance
        >>> x = Tensor(np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]]))
        >>> y = Tensor(np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]]))
        >>> metric = HausdorffDistance()
        >>> metric.clear()
        >>> metric.update(x, y, 0)
        >>> mean_average_distance = metric.eval()
        >>> print(mean_average_distance)
        1.4142135623730951
    """

    def __init__(self, distance_metric="euclidean", percentile=None, directed=False, crop=True):
        super().__init__()
        string_list = ["euclidean", "chessboard", "taxicab"]
        distance_metric = check_value_type("distance_metric", distance_metric, [str])
        self.distance_metric = check_string(distance_metric, string_list, "distance_metric")
        self.percentile = percentile if percentile is None else check_value_type("percentile", percentile, [float])
        self.directed = directed if directed is None else check_value_type("directed", directed, [bool])
        self.crop = crop if crop is None else check_value_type("crop", crop, [bool])
        self.clear()

    @staticmethod
    def _bounding_box(image):
        """Start and end of the bounding box of the foreground (values > 0) of channel-first `image`."""
        data = np.any(image > 0, axis=0)
        nonzero_idx = np.nonzero(data)
        box_start, box_end = [], []
        for i in range(data.ndim):
            if nonzero_idx[i].size <= 0:
                raise ValueError(f"Did not find nonzero index at the spatial dim {i}")
            box_start.append(max(0, int(np.min(nonzero_idx[i]))))
            box_end.append(min(data.shape[i], int(np.max(nonzero_idx[i])) + 1))
        return box_start, box_end

    def _calculate_percent_hausdorff_distance(self, y_pred_edges, y_edges):
        """The directed Hausdorff distance (or its percentile)."""
        surface_distance = self._get_surface_distance(y_pred_edges, y_edges)
        if surface_distance.shape == (0,):
            return np.inf
        if not self.percentile:
            return surface_distance.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(surface_distance, self.percentile)
        raise ValueError(
            f"For 'HausdorffDistance', the value of the argument 'percentile' must be [0, 100], "
            f"but got {self.percentile}."
        )

    def _get_surface_distance(self, y_pred_edges, y_edges):
        """Distances from the points of `y_pred_edges` to the nearest point of `y_edges`."""
        if not np.any(y_pred_edges):
            return np.array([])
        if not np.any(y_edges):
            dis = np.inf * np.ones_like(y_edges, dtype=float)
        elif self.distance_metric == "euclidean":
            dis = _ndimage().distance_transform_edt(~y_edges)
        else:
            dis = _ndimage().distance_transform_cdt(~y_edges, metric=self.distance_metric)
        return dis[y_pred_edges]

    def _get_mask_edges_distance(self, y_pred, y):
        """The edges of both masks (the mask XOR its binary erosion)."""
        if self.crop:
            if not np.any(y_pred | y):
                return np.zeros_like(y_pred), np.zeros_like(y)
            y_pred, y = np.expand_dims(y_pred, 0), np.expand_dims(y, 0)
            box_start, box_end = self._bounding_box(y_pred | y)
            cropper = _ROISpatialData(roi_start=box_start, roi_end=box_end)
            y_pred, y = np.squeeze(cropper(y_pred)), np.squeeze(cropper(y))
        ndimage = _ndimage()
        y_pred = ndimage.binary_erosion(y_pred) ^ y_pred
        y = ndimage.binary_erosion(y) ^ y
        return y_pred, y

    def clear(self):
        """Clears the internal evaluation result."""
        self.y_pred_edges = 0
        self.y_edges = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """
        Updates the internal evaluation result with 'y_pred', 'y' and 'label_idx'.

        Args:
            inputs: 'y_pred' and 'y' (Tensor, list or numpy.ndarray), the predicted and actual images, and
                'label_idx' (int or float), the label whose region is measured.

        Raises:
            ValueError: If the number of the inputs is not 3.
            ValueError: If `label_idx` is not int or float, or not in `y_pred` or `y`.
            ValueError: If `y_pred` and `y` have different shapes.
        """
        self._is_update = True
        if len(inputs) != 3:
            raise ValueError(
                "For 'HausdorffDistance.update', it needs 3 inputs (predicted value, true value, "
                f"label index), but got {len(inputs)}."
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        label_idx = inputs[2]
        if not isinstance(label_idx, (int, float)):
            raise ValueError(
                "For 'HausdorffDistance.update', the label index (input[2]) must be int or float, "
                f"but got {type(label_idx)}."
            )
        if label_idx not in y_pred and label_idx not in y:
            raise ValueError(
                "For 'HausdorffDistance.update', the label index (input[2]) must be in predicted "
                f"value (input[0]) or true value (input[1]), but {label_idx} is not."
            )
        if y_pred.size == 0 or y_pred.shape != y.shape:
            raise ValueError(
                "For 'HausdorffDistance.update', the size of predicted value (input[0]) and true value "
                "(input[1]) must be greater than 0, in addition to that, predicted value and true "
                f"value should have the same shape, but got predicted value size: {y_pred.size}, shape: "
                f"{y_pred.shape}, true value size: {y.size}, shape: {y.shape}."
            )
        y_pred = y_pred == label_idx
        y = y == label_idx
        self.y_pred_edges, self.y_edges = self._get_mask_edges_distance(y_pred, y)

    def eval(self):
        """
        Calculate the non-directed or directed Hausdorff distance.

        Returns:
            numpy.float64, the hausdorff distance.

        Raises:
            RuntimeError: If the update method is not called first, an error will be reported.
        """
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        hd = self._calculate_percent_hausdorff_distance(self.y_pred_edges, self.y_edges)
        if self.directed:
            return _scalar(hd)
        hd2 = self._calculate_percent_hausdorff_distance(self.y_edges, self.y_pred_edges)
        return _scalar(max(hd, hd2))
