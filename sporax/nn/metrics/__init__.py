"""Metrics: measure a model's performance on an evaluation dataset.

MindSpore 2.x's public path is ``mindspore.train.metrics`` (``sporax.train.metrics`` re-exports this package);
the code lives here, at MindSpore 1.x's path ``mindspore.nn.metrics``, so that both ``nn`` and ``train`` reach it
by a downward import (metrics need only NumPy, ``_checkparam`` and ``Tensor``)."""

from .accuracy import Accuracy
from .auc import auc
from .bleu_score import BleuScore
from .confusion_matrix import ConfusionMatrix, ConfusionMatrixMetric
from .cosine_similarity import CosineSimilarity
from .dice import Dice
from .error import MAE, MSE
from .fbeta import F1, Fbeta
from .hausdorff_distance import HausdorffDistance
from .loss import Loss
from .mean_surface_distance import MeanSurfaceDistance
from .metric import Metric, rearrange_inputs
from .occlusion_sensitivity import OcclusionSensitivity
from .perplexity import Perplexity
from .precision import Precision
from .recall import Recall
from .roc import ROC
from .root_mean_square_surface_distance import RootMeanSquareDistance
from .topk import Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy

__all__ = [
    "names",
    "get_metric_fn",
    "Accuracy",
    "MAE",
    "MSE",
    "Metric",
    "rearrange_inputs",
    "Precision",
    "HausdorffDistance",
    "Recall",
    "Fbeta",
    "BleuScore",
    "CosineSimilarity",
    "OcclusionSensitivity",
    "F1",
    "Dice",
    "ROC",
    "auc",
    "TopKCategoricalAccuracy",
    "Top1CategoricalAccuracy",
    "Top5CategoricalAccuracy",
    "Loss",
    "MeanSurfaceDistance",
    "RootMeanSquareDistance",
    "Perplexity",
    "ConfusionMatrix",
    "ConfusionMatrixMetric",
]

TRAIN_METRICS_ALL = list(__all__)  # ``mindspore.train.metrics.__all__``; ``nn.metrics`` also names get_metrics
__all__ += ["get_metrics"]

__factory__ = {
    "accuracy": Accuracy,
    "acc": Accuracy,
    "precision": Precision,
    "recall": Recall,
    "F1": F1,
    "dice": Dice,
    "roc": ROC,
    "auc": auc,
    "bleu_score": BleuScore,
    "cosine_similarity": CosineSimilarity,
    "occlusion_sensitivity": OcclusionSensitivity,
    "topk": TopKCategoricalAccuracy,
    "hausdorff_distance": HausdorffDistance,
    "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy,
    "mae": MAE,
    "mse": MSE,
    "loss": Loss,
    "mean_surface_distance": MeanSurfaceDistance,
    "root_mean_square_distance": RootMeanSquareDistance,
    "perplexity": Perplexity,
    "confusion_matrix": ConfusionMatrix,
    "confusion_matrix_metric": ConfusionMatrixMetric,
}


def names():
    """
    Gets all names of the metric methods.

    Returns:
        List, the name list of metric methods.

    Examples:
        >>> from sporax import train
        >>> print(train.names())  # doctest: +NORMALIZE_WHITESPACE
        ['F1', 'acc', 'accuracy', 'auc', 'bleu_score', 'confusion_matrix', 'confusion_matrix_metric',
        'cosine_similarity', 'dice', 'hausdorff_distance', 'loss', 'mae', 'mean_surface_distance', 'mse',
        'occlusion_sensitivity', 'perplexity', 'precision', 'recall', 'roc', 'root_mean_square_distance',
        'top_1_accuracy', 'top_5_accuracy', 'topk']
    """
    return sorted(__factory__.keys())


def get_metric_fn(name, *args, **kwargs):
    """
    Gets the metric method based on the input name.

    Args:
        name (str): The name of metric method (see :func:`names`).
        args: Arguments for the metric function.
        kwargs: Keyword arguments for the metric function.

    Returns:
        Metric object, class instance of the metric method.

    Raises:
        KeyError: If `name` is not a supported metric.

    Examples:
        >>> from sporax.train import get_metric_fn
        >>> metric = get_metric_fn('precision', eval_type='classification')
    """
    if name not in __factory__:
        raise KeyError(
            f"For 'get_metric_fn', unsupported metric {name}, please refer to official website "
            "for more details about supported metrics."
        )
    return __factory__[name](*args, **kwargs)


def get_metrics(metrics):
    """
    Get metrics used in evaluation.

    Args:
        metrics (Union[dict, set]): Dict or set of metrics to be evaluated by the model during training and
            testing, e.g. ``{'accuracy', 'recall'}``.

    Returns:
        dict, the key is metric name, the value is class instance of metric method.

    Raises:
        TypeError: If the type of argument 'metrics' is not None, dict or set.
    """
    if metrics is None:
        return metrics
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(
                    "For 'get_metrics', if 'metrics' is dict, the key in 'metrics' must be string and "
                    f"value in 'metrics' must be Metric, but got key:{type(name)}, value:{type(metric)}."
                )
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"For 'get_metrics', the argument 'metrics' must be None, dict or set, but got {metrics}")
