"""ConfusionMatrixMetric & ConfusionMatrix."""

from __future__ import annotations

import numpy as np

from ..._checkparam import check_string, check_value_type
from .metric import Metric, rearrange_inputs


class ConfusionMatrix(Metric):
    """
    Computes the confusion matrix of a classification model (binary or multiclass).

    To compute metrics such as 'PPV', 'TPR' or 'TNR', use :class:`ConfusionMatrixMetric`.

    Args:
        num_classes (int): Number of classes in the dataset.
        normalize (str, optional): Normalization mode: ``"no_norm"`` (none), ``"target"`` (by true class),
            ``"prediction"`` (by predicted class) or ``"all"`` (over the whole matrix). Default: ``"no_norm"`` .
        threshold (float, optional): The threshold applied to float predictions of the same dimension as the
            labels. Default: ``0.5`` .

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import ConfusionMatrix
        >>> x = Tensor(np.array([1, 0, 1, 0]))
        >>> y = Tensor(np.array([1, 0, 0, 1]))
        >>> metric = ConfusionMatrix(num_classes=2, normalize='no_norm', threshold=0.5)
        >>> metric.clear()
        >>> metric.update(x, y)
        >>> output = metric.eval()
        >>> print(output)
        [[1. 1.]
         [1. 1.]]
    """

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        self.num_classes = check_value_type("num_classes", num_classes, [int])
        if normalize not in ["target", "prediction", "all", "no_norm"]:
            raise ValueError(
                "For 'ConfusionMatrix', the argument 'normalize' must be in "
                f"['all', 'prediction', 'label', 'no_norm'(None)], but got {normalize}."
            )
        self.normalize = normalize
        self.threshold = check_value_type("threshold", threshold, [float])
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """
        Update state with `y_pred` and `y`.

        Args:
            inputs (tuple): `y_pred` of shape :math:`(N, C, ...)` (scores) or :math:`(N, ...)` (classes or
                probabilities), and `y` of shape :math:`(N, ...)`.

        Raises:
            ValueError: If the number of inputs is not 2.
            ValueError: If the dims of `y_pred` and `y` are not equal.
        """
        if len(inputs) != 2:
            raise ValueError(
                f"For 'ConfusionMatrix.update', it needs 2 inputs (predicted value, true value), but got {len(inputs)}."
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if not (y_pred.ndim == y.ndim or y_pred.ndim == y.ndim + 1):
            raise ValueError(
                "For 'ConfusionMatrix.update', predicted value (input[0]) and true value "
                "(input[1]) should have same dimensions, or the dimension of predicted value "
                f"equals the dimension of true value add 1, but got predicted value ndim: "
                f"{y_pred.ndim}, true value ndim: {y.ndim}."
            )
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        if y_pred.ndim == y.ndim and y_pred.dtype in (np.float16, np.float32, np.float64):
            y_pred = (y_pred >= self.threshold).astype(int)
        trans = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        bincount = np.bincount(trans, minlength=self.num_classes**2)
        self.confusion_matrix += bincount.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self):
        """
        Computes confusion matrix.

        Returns:
            numpy.ndarray, the computed result.
        """
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        confusion_matrix = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return confusion_matrix
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.normalize == "target":
                matrix = confusion_matrix / confusion_matrix.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                matrix = confusion_matrix / confusion_matrix.sum(axis=0, keepdims=True)
            else:
                matrix = confusion_matrix / confusion_matrix.sum()
        matrix[np.isnan(matrix)] = 0
        return matrix


class ConfusionMatrixMetric(Metric):
    r"""
    Computes metrics derived from the confusion matrix (sensitivity, specificity, precision, ...).

    To compute only the confusion matrix, use :class:`ConfusionMatrix`.

    Args:
        skip_channel (bool, optional): Whether to skip the measurement on the first channel of the predicted
            output. Default: ``True`` .
        metric_name (str, optional): One of "sensitivity", "specificity", "precision", "negative predictive
            value", "miss rate", "fall out", "false discovery rate", "false omission rate", "prevalence
            threshold", "threat score", "accuracy", "balanced accuracy", "f1 score", "matthews correlation
            coefficient", "fowlkes mallows index", "informedness", "markedness" (or a common alias).
            Default: ``"sensitivity"`` .
        calculation_method (bool, optional): If ``True``, the measurement is computed per sample first; if not,
            the confusion matrix of all samples is accumulated first (use ``False`` for classification).
            Default: ``False`` .
        decrease (str, optional): The reduction over a batch when `calculation_method` is True: "none", "mean",
            "sum", "mean_batch", "sum_batch", "mean_channel" or "sum_channel". Default: ``"mean"`` .

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import ConfusionMatrixMetric
        >>> metric = ConfusionMatrixMetric(skip_channel=True, metric_name="tpr",
        ...                                calculation_method=False, decrease="mean")
        >>> metric.clear()
        >>> x = Tensor(np.array([[[0], [1]], [[1], [0]]]))
        >>> y = Tensor(np.array([[[0], [1]], [[0], [1]]]))
        >>> metric.update(x, y)
        >>> x = Tensor(np.array([[[0], [1]], [[1], [0]]]))
        >>> y = Tensor(np.array([[[0], [1]], [[1], [0]]]))
        >>> metric.update(x, y)
        >>> avg_output = metric.eval()
        >>> print(avg_output)
        [0.75]
    """

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False, decrease="mean"):
        super().__init__()
        self.confusion_matrix = _ConfusionMatrix(
            skip_channel=skip_channel, metric_name=metric_name, calculation_method=calculation_method, decrease=decrease
        )
        self.skip_channel = check_value_type("skip_channel", skip_channel, [bool])
        self.calculation_method = check_value_type("calculation_method", calculation_method, [bool])
        self.metric_name = check_value_type("metric_name", metric_name, [str])
        decrease_list = ["none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel"]
        decrease = check_value_type("decrease", decrease, [str])
        self.decrease = check_string(decrease, decrease_list, "decrease")
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self._total_num = 0
        self._class_num = 0
        self._total_tp = 0.0
        self._total_fp = 0.0
        self._total_tn = 0.0
        self._total_fn = 0.0

    @rearrange_inputs
    def update(self, *inputs):
        """
        Update state with predictions and targets.

        Args:
            inputs (tuple): `y_pred` and `y` (Tensor, list or numpy.ndarray), both binarized one-hot of shape
                :math:`(N, C, ...)`: :math:`(B, N)` for classification, :math:`(B, N, H, W)` or
                :math:`(B, N, H, W, D)` for segmentation.

        Raises:
            ValueError: If the number of the inputs is not 2.
        """
        if len(inputs) != 2:
            raise ValueError(
                "For 'ConfusionMatrixMetric.update', it needs 2 inputs (predicted value, true value), "
                f"but got {len(inputs)}."
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self.calculation_method:
            score, not_nans = self.confusion_matrix(y_pred, y)
            if np.size(score) != 1:
                raise ValueError(
                    "For 'ConfusionMatrixMetric.update', when 'calculation_method' is True the 'decrease' must reduce "
                    f"a batch to one value ('mean' or 'sum'), but got '{self.decrease}', which gives shape "
                    f"{np.shape(score)}."
                )
            not_nans = int(not_nans.item())
            self._total_num += score.item() * not_nans
            self._class_num += not_nans
        else:
            confusion_matrix = self.confusion_matrix(y_pred, y)
            confusion_matrix, _ = _decrease_metric(confusion_matrix, "sum")
            self._total_tp += confusion_matrix[0].item()
            self._total_fp += confusion_matrix[1].item()
            self._total_tn += confusion_matrix[2].item()
            self._total_fn += confusion_matrix[3].item()

    def eval(self):
        """
        Computes confusion matrix metric.

        Returns:
            ndarray, the computed result.
        """
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError(
                    "The 'ConfusionMatrixMetric' can not be calculated, because the number of samples "
                    "is 0, please check whether your inputs(predicted value, true value) are empty, or "
                    "has called update method before calling eval method."
                )
            return self._total_num / self._class_num
        confusion_matrix = np.array([self._total_tp, self._total_fp, self._total_tn, self._total_fn])
        return _compute_confusion_matrix_metric(self.metric_name, confusion_matrix)


class _ConfusionMatrix:
    """Confusion matrix (per sample and channel) and the metrics derived from it."""

    def __init__(self, skip_channel=True, metric_name="hit_rate", calculation_method=False, decrease="mean"):
        self.skip_channel = skip_channel
        self.metric_name = metric_name
        self.calculation_method = calculation_method
        self.decrease = decrease

    def __call__(self, y_pred, y):
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a binarized ndarray.")
        dims = y_pred.ndim
        if dims < 2:
            raise ValueError(
                f"For 'ConfusionMatrix.update', the predicted value (input[0]) must have at least 2 "
                f"dimensions, but got {dims}."
            )
        if dims == 2 or (dims == 3 and y_pred.shape[-1] == 1):
            self.calculation_method = False
        confusion_matrix = _get_confusion_matrix(y_pred=y_pred, y=y, skip_channel=self.skip_channel)
        if self.calculation_method:
            if isinstance(self.metric_name, str):
                sub_confusion_matrix = _compute_confusion_matrix_metric(self.metric_name, confusion_matrix)
                return _decrease_metric(sub_confusion_matrix, self.decrease)
            if not self.metric_name:
                raise ValueError("For 'ConfusionMatrix', the argument 'metric_name' cannot be None.")
            results = []
            for metric_name in self.metric_name:
                sub_confusion_matrix = _compute_confusion_matrix_metric(metric_name, confusion_matrix)
                chart, not_nans = _decrease_metric(sub_confusion_matrix, self.decrease)
                results.append(chart)
                results.append(not_nans)
            return results
        return confusion_matrix


def _get_confusion_matrix(y_pred, y, skip_channel=True):
    """The [B, C, 4] array of (tp, fp, tn, fn) per sample and channel."""
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    y = y.astype(float)
    y_pred = y_pred.astype(float)
    if y.shape != y_pred.shape:
        raise ValueError(f"The 'y_shape' must be equal to 'y_pred_shape': {y_pred.shape}, but got {y.shape}.")
    batch_size, n_class = y_pred.shape[:2]
    y_pred = y_pred.reshape(batch_size, n_class, -1)
    y = y.reshape(batch_size, n_class, -1)
    tp = ((y_pred + y) == 2).astype(float).sum(axis=2)
    tn = ((y_pred + y) == 0).astype(float).sum(axis=2)
    p = y.sum(axis=2)
    n = y.shape[-1] - p
    fn = p - tp
    fp = n - tn
    return np.stack([tp, fp, tn, fn], axis=-1)


def _safe_div(numerator, denominator):
    with np.errstate(divide="ignore", invalid="ignore"):
        return numerator / denominator


def _decrease_metric(chart, decrease="mean"):
    """Reduce the metric computed per sample and class (the first two dimensions)."""
    nans = np.isnan(chart)
    not_nans = (~nans).astype(float)
    chart[nans] = 0
    if decrease == "mean":
        not_nans = not_nans.sum(axis=1)
        chart = np.where(not_nans > 0, _safe_div(chart.sum(axis=1), not_nans), np.zeros(1, dtype=float))
        not_nans = (not_nans > 0).astype(float).sum(axis=0)
        chart = np.where(not_nans > 0, _safe_div(chart.sum(axis=0), not_nans), np.zeros(1, dtype=float))
    elif decrease == "sum":
        not_nans = not_nans.sum(axis=(0, 1))
        chart = np.sum(chart, axis=(0, 1))
    elif decrease == "mean_batch":
        not_nans = not_nans.sum(axis=0)
        chart = np.where(not_nans > 0, _safe_div(chart.sum(axis=0), not_nans), np.zeros(1, dtype=float))
    elif decrease == "sum_batch":
        not_nans = not_nans.sum(axis=0)
        chart = chart.sum(axis=0)
    elif decrease == "mean_channel":
        not_nans = not_nans.sum(axis=1)
        chart = np.where(not_nans > 0, _safe_div(chart.sum(axis=1), not_nans), np.zeros(1, dtype=float))
    elif decrease == "sum_channel":
        not_nans = not_nans.sum(axis=1)
        chart = chart.sum(axis=1)
    return chart, not_nans


def _where_div(num, den):
    return np.where(den > 0, _safe_div(num, den), np.array(float("nan")))


def _metric_fraction(metric, tp, fp, tn, fn):
    """(numerator, denominator) of a confusion-matrix metric."""
    p = tp + fn
    n = fp + tn
    if metric == "tpr":
        return tp, p
    if metric == "tnr":
        return tn, n
    if metric == "ppv":
        return tp, tp + fp
    if metric == "npv":
        return tn, tn + fn
    if metric == "fnr":
        return fn, p
    if metric == "fpr":
        return fp, n
    if metric == "fdr":
        return fp, fp + tp
    if metric == "for":
        return fn, fn + tn
    if metric == "pt":
        tpr, tnr = _where_div(tp, p), _where_div(tn, n)
        with np.errstate(invalid="ignore"):
            return np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0
    if metric == "ts":
        return tp, tp + fn + fp
    if metric == "acc":
        return tp + tn, p + n
    if metric == "ba":
        return _where_div(tp, p) + _where_div(tn, n), 2.0
    if metric == "f1":
        return tp * 2.0, tp * 2.0 + fn + fp
    if metric == "mcc":
        return tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    if metric == "fm":
        with np.errstate(invalid="ignore"):
            return np.sqrt(_where_div(tp, tp + fp) * _where_div(tp, p)), 1.0
    if metric == "bm":
        return _where_div(tp, p) + _where_div(tn, n) - 1.0, 1.0
    # "mk"
    return _where_div(tp, tp + fp) + _where_div(tn, tn + fn) - 1.0, 1.0


def _compute_confusion_matrix_metric(metric_name, confusion_matrix):
    """Compute a confusion-matrix metric from an array whose last dimension is (tp, fp, tn, fn)."""
    metric = _metric_info(metric_name)
    if confusion_matrix.ndim == 1:
        confusion_matrix = np.expand_dims(confusion_matrix, 0)
    if confusion_matrix.shape[-1] != 4:
        raise ValueError(
            "For 'ConfusionMatrix', the size of the last dimension of confusion_matrix must be 4, "
            f"but got {confusion_matrix.shape[-1]}."
        )
    tp = confusion_matrix[..., 0]
    fp = confusion_matrix[..., 1]
    tn = confusion_matrix[..., 2]
    fn = confusion_matrix[..., 3]
    numerator, denominator = _metric_fraction(metric, tp, fp, tn, fn)
    if isinstance(denominator, np.ndarray):
        return np.where(denominator != 0, _safe_div(numerator, denominator), np.array(float("nan")))
    return numerator / denominator


_METRIC_NAMES = {
    "sensitivity": "tpr",
    "recall": "tpr",
    "hit_rate": "tpr",
    "true_positive_rate": "tpr",
    "tpr": "tpr",
    "specificity": "tnr",
    "selectivity": "tnr",
    "true_negative_rate": "tnr",
    "tnr": "tnr",
    "precision": "ppv",
    "positive_predictive_value": "ppv",
    "ppv": "ppv",
    "negative_predictive_value": "npv",
    "npv": "npv",
    "miss_rate": "fnr",
    "false_negative_rate": "fnr",
    "fnr": "fnr",
    "fall_out": "fpr",
    "false_positive_rate": "fpr",
    "fpr": "fpr",
    "false_discovery_rate": "fdr",
    "fdr": "fdr",
    "false_omission_rate": "for",
    "for": "for",
    "prevalence_threshold": "pt",
    "pt": "pt",
    "threat_score": "ts",
    "critical_success_index": "ts",
    "ts": "ts",
    "csi": "ts",
    "accuracy": "acc",
    "acc": "acc",
    "balanced_accuracy": "ba",
    "ba": "ba",
    "f1_score": "f1",
    "f1": "f1",
    "matthews_correlation_coefficient": "mcc",
    "mcc": "mcc",
    "fowlkes_mallows_index": "fm",
    "fm": "fm",
    "informedness": "bm",
    "bookmaker_informedness": "bm",
    "bm": "bm",
    "markedness": "mk",
    "deltap": "mk",
    "mk": "mk",
}


def _metric_info(metric_name):
    """The short name of a confusion-matrix metric (spaces become underscores, case is ignored)."""
    metric_name_info = _METRIC_NAMES.get(metric_name.replace(" ", "_").lower())
    if metric_name_info is None:
        raise NotImplementedError("The metric is not implemented.")
    return metric_name_info
