"""Metric base class."""

from __future__ import annotations

import functools
from abc import ABCMeta, abstractmethod

import numpy as np

from sporax.common.tensor import Tensor

_eval_types = {"classification", "multilabel"}


class float64(np.float64):  # noqa: N801 (the type name users see, as numpy's)
    """A ``numpy.float64`` that prints as under NumPy 1.x, which MindSpore runs on: ``{'acc': 0.825}`` rather
    than NumPy 2's ``{'acc': np.float64(0.825)}``. Arithmetic on it gives plain ``numpy.float64`` values."""

    def __repr__(self):
        return float.__repr__(self)


def _scalar(value):
    """A metric's scalar result: numpy.float64 values print as MindSpore's do."""
    if isinstance(value, np.float64) and not isinstance(value, float64):
        return float64(value)
    return value


def rearrange_inputs(func):
    """
    Decorator that rearranges the inputs of `update` according to the metric's `indexes` attribute.

    Args:
        func (Callable): A candidate function to be wrapped whose input will be rearranged.

    Returns:
        Callable, used to exchange metadata between functions.

    Examples:
        >>> from sporax.train import rearrange_inputs
        >>> class RearrangeInputsExample:
        ...     def __init__(self):
        ...         self._indexes = None
        ...     @property
        ...     def indexes(self):
        ...         return getattr(self, '_indexes', None)
        ...     def set_indexes(self, indexes):
        ...         self._indexes = indexes
        ...         return self
        ...     @rearrange_inputs
        ...     def update(self, *inputs):
        ...         return inputs
        >>> RearrangeInputsExample().set_indexes([1, 0]).update(5, 9)
        (9, 5)
    """

    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        inputs = inputs if not indexes else tuple(inputs[i] for i in indexes)
        return func(self, *inputs)

    return wrapper


class Metric(metaclass=ABCMeta):
    """
    Base class of metric, which is used to evaluate metrics.

    `clear`, `update` and `eval` must be overridden by subclasses: `update` accumulates intermediate results,
    `eval` computes the final result and `clear` resets the intermediate results.

    Examples:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.train import Metric
        >>> class MyMAE(Metric):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.clear()
        ...     def clear(self):
        ...         self._abs_error_sum = 0
        ...         self._samples_num = 0
        ...     def update(self, *inputs):
        ...         y_pred = self._convert_data(inputs[0])
        ...         y = self._convert_data(inputs[1])
        ...         self._abs_error_sum += np.abs(y - y_pred).sum()
        ...         self._samples_num += y.shape[0]
        ...     def eval(self):
        ...         return self._abs_error_sum / self._samples_num
        >>> x = Tensor(np.array([[0.1, 0.2, 0.6, 0.9], [0.1, 0.2, 0.6, 0.9]]).astype(np.float32))
        >>> y = Tensor(np.array([[0.1, 0.25, 0.7, 0.9], [0.1, 0.25, 0.7, 0.9]]).astype(np.float32))
        >>> metric = MyMAE()
        >>> metric.update(x, y)
        >>> result = metric.eval()
    """

    def __init__(self):
        self._indexes = None

    def _convert_data(self, data):
        """
        Convert data type to numpy array.

        Args:
            data (Object): Input data (Tensor, list or numpy.ndarray).

        Returns:
            Ndarray, data with `np.ndarray` type.
        """
        if isinstance(data, Tensor):
            data = data.asnumpy()
        elif isinstance(data, list):
            data = np.array(data)
        elif isinstance(data, np.ndarray):
            pass
        else:
            raise TypeError(
                "For 'Metric' and its derived classes, the input data type must be tensor, list or "
                f"numpy.ndarray, but got {type(data)}."
            )
        return data

    @property
    def indexes(self):
        """The current indexes value. The default value is None and can be changed by `set_indexes`."""
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes):
        """
        Rearrange the inputs of `update`.

        Given (label0, label1, logits), set the `indexes` to [2, 1] then the (logits, label1) will be the actual
        inputs of `update`.

        Note:
            When customizing a metric, decorate `update` with :func:`sporax.train.rearrange_inputs` for the
            `indexes` to take effect.

        Args:
            indexes (List(int)): The order of logits and labels to be rearranged.

        Outputs:
            :class:`Metric`, its original Class instance.

        Raises:
            ValueError: If the type of input 'indexes' is not a list or its elements are not all int.
        """
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError(
                "For 'set_indexes', the argument 'indexes' must be a list and all its elements must "
                "be int, please check whether it is correct."
            )
        self._indexes = indexes
        return self

    def __call__(self, *inputs):
        """
        Evaluate input data once (clear, update, eval).

        Args:
            inputs (tuple): The first item is a predict array, the second item is a target array.

        Returns:
            Float, compute result.
        """
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self):
        """Clear the internal evaluation result. All subclasses must override this interface."""
        raise NotImplementedError("Must define clear function to use this base class")

    @abstractmethod
    def eval(self):
        """Compute the evaluation result. All subclasses must override this interface."""
        raise NotImplementedError("Must define eval function to use this base class")

    @abstractmethod
    def update(self, *inputs):
        """
        Update the internal evaluation result. All subclasses must override this interface.

        Args:
            inputs: A variable-length input argument list, usually the logits and the corresponding labels.
        """
        raise NotImplementedError("Must define update function to use this base class")


class EvaluationBase(Metric):
    """
    Base class of evaluation (classification or multilabel).

    Args:
        eval_type (str): Type of evaluation must be in {'classification', 'multilabel'}.

    Raises:
        TypeError: If the input type is not classification or multilabel.
    """

    def __init__(self, eval_type):
        super().__init__()
        if eval_type not in _eval_types:
            raise TypeError(f"The argument 'eval_type' must be in {_eval_types}, but got {eval_type}")
        self._type = eval_type

    def _verify_shapes(self, y_pred, y):
        """Checks the shapes of y_pred and y."""
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1:
                raise ValueError(
                    "In classification case, the dimension of y_pred (predicted value) should equal to "
                    "the dimension of y (true value) add 1, but got y_pred dimension: "
                    f"{y_pred.ndim} and y dimension: {y.ndim}."
                )
            if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(
                    "In classification case, y_pred (predicted value) shape and y (true value) shape "
                    "can not match, y shape should be equal to y_pred shape that the value at index 1 "
                    "is deleted. Such as y_pred shape (1, 2, 3), then y shape should be (1, 3). "
                    f"But got y_pred shape {y_pred.shape} and y shape {y.shape}"
                )
        else:
            if y_pred.ndim != y.ndim:
                raise ValueError(
                    f"In {self._type} case, the dimension of y_pred (predicted value) should equal to the dimension"
                    f" of y (true value), but got y_pred dimension: {y_pred.ndim} and y dimension: {y.ndim}."
                )
            if y_pred.shape != y.shape:
                raise ValueError(
                    f"In {self._type} case, the shape of y_pred (predicted value) should equal to the shape of y "
                    f"(true value), but got y_pred shape: {y_pred.shape} and y shape: {y.shape}."
                )

    def _verify_multilabel_values(self, y_pred, y):
        """Checks the values of y_pred and y (0 or 1 in the multilabel case)."""
        if self._type != "classification" and not (np.equal(y_pred**2, y_pred).all() and np.equal(y**2, y).all()):
            raise ValueError(
                "In multilabel case, all elements in y_pred (predicted value) and y (true value) should "
                "be 0 or 1.Please check whether your inputs y_pred and y are correct."
            )

    def clear(self):
        """Clear the internal evaluation result."""
        raise NotImplementedError

    def update(self, *inputs):
        """Update the internal evaluation result."""
        raise NotImplementedError

    def eval(self):
        """Compute the evaluation result."""
        raise NotImplementedError


def _is_onehot(data):
    """Whether `data` is one-hot encoded along axis 1."""
    if data.ndim > 1 and np.equal(data**2, data).all():
        shp = (data.shape[0],) + data.shape[2:]
        if np.equal(np.ones(shp), data.sum(axis=1)).all():
            return True
    return False


def _binary_clf_curve(preds, target, sample_weights=None, pos_label=1):
    """True and false positives per binary classification threshold."""
    if sample_weights is not None and not isinstance(sample_weights, np.ndarray):
        sample_weights = np.array(sample_weights)
    if preds.ndim > target.ndim:
        preds = preds[:, 0]
    desc_score_indices = np.argsort(-preds, kind="stable")
    preds = preds[desc_score_indices]
    target = target[desc_score_indices]
    weight = sample_weights[desc_score_indices] if sample_weights is not None else 1.0
    distinct_value_indices = np.where(preds[1:] - preds[:-1])[0]
    threshold_idxs = np.pad(distinct_value_indices, (0, 1), constant_values=target.shape[0] - 1)
    target = np.array(target == pos_label).astype(np.int64)
    tps = np.cumsum(target * weight, axis=0)[threshold_idxs]
    if sample_weights is not None:
        fps = np.cumsum((1 - target) * weight, axis=0)[threshold_idxs]
    else:
        fps = 1 + threshold_idxs - tps
    return fps, tps, preds[threshold_idxs]
