"""Shared update logic of Precision and Recall."""

from __future__ import annotations

import sys

import numpy as np

from ..._checkparam import check_value_type
from .metric import EvaluationBase, _is_onehot, _scalar


class _PRBase(EvaluationBase):
    """Precision/Recall: accumulate true positives and a per-class denominator."""

    _name = ""

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.eps = sys.float_info.min
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self._class_num = 0
        if self._type == "multilabel":
            self._true_positives = np.empty(0)
            self._denominator = np.empty(0)
            self._true_positives_average = 0
            self._denominator_average = 0
        else:
            self._true_positives = 0
            self._denominator = 0

    def _denominator_of(self, y_pred, y):
        raise NotImplementedError

    def _update(self, inputs):
        name = self._name
        if len(inputs) != 2:
            raise ValueError(
                f"For '{name}.update', it needs 2 inputs (predicted value, true value), but got {len(inputs)}."
            )
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and _is_onehot(y):
            y = y.argmax(axis=1)
        self._verify_shapes(y_pred, y)
        self._verify_multilabel_values(y_pred, y)

        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(
                f"For '{name}.update', class number not match, last input predicted data contain {self._class_num} "
                f"classes, but current predicted data contain {y_pred.shape[1]} classes, please check your predicted "
                "value(inputs[0])."
            )
        class_num = self._class_num
        if self._type == "classification":
            if y.max() + 1 > class_num:
                raise ValueError(
                    f"For '{name}.update', predicted value (input[0]) should have the same classes number as true "
                    f"value (input[1]), but got predicted value classes {class_num}, true value classes "
                    f"{y.max() + 1}."
                )
            y = np.eye(class_num)[y.reshape(-1).astype(np.int64)]
            indices = y_pred.argmax(axis=1).reshape(-1)
            y_pred = np.eye(class_num)[indices]
        else:
            y_pred = y_pred.swapaxes(1, 0).reshape(class_num, -1)
            y = y.swapaxes(1, 0).reshape(class_num, -1)
        denominator = self._denominator_of(y_pred, y)
        true_positives = (y * y_pred).sum(axis=0)
        if self._type == "multilabel":
            with np.errstate(divide="ignore", invalid="ignore"):
                self._true_positives_average += np.float64(np.sum(true_positives / (denominator + self.eps)))
            self._denominator_average += len(denominator)
            self._true_positives = np.concatenate((self._true_positives, true_positives), axis=0)
            self._denominator = np.concatenate((self._denominator, denominator), axis=0)
        else:
            self._true_positives += true_positives
            self._denominator += denominator

    def _eval(self, average, what):
        if self._class_num == 0:
            raise RuntimeError(
                f"The '{self._name}' can not be calculated, because the number of samples is 0, please check "
                "whether your inputs (predicted value, true value) are empty, or has called update method before "
                "calling eval method."
            )
        check_value_type("average", average, [bool], self.__class__.__name__)
        with np.errstate(divide="ignore", invalid="ignore"):
            result = self._true_positives / (self._denominator + self.eps)
        if average:
            if self._type == "multilabel":
                result = self._true_positives_average / (self._denominator_average + self.eps)
            return _scalar(result.mean())
        return result
