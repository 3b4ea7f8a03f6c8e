"""Learning-rate schedules (``mindspore.nn.learning_rate_schedule``): Cells called with the global step.

An optimizer given one of these calls it with its ``global_step`` Parameter (Int32, shape ``[1]``) every
step; called directly with a 0-d step it returns a 0-d Float32 Tensor.
"""

from __future__ import annotations

import math
from typing import Any

from .. import _checkparam as validator
from .. import ops
from ..common import dtype as mstype
from ..common.tensor import Tensor
from .cell import Cell

__all__ = [
    "LearningRateSchedule",
    "ExponentialDecayLR",
    "NaturalExpDecayLR",
    "InverseDecayLR",
    "CosineDecayLR",
    "PolynomialDecayLR",
    "WarmUpLR",
]


def _step(global_step: Any) -> Tensor:
    if not isinstance(global_step, Tensor):
        global_step = Tensor(global_step, mstype.int32)
    return ops.cast(global_step, mstype.float32)


class LearningRateSchedule(Cell):
    """Base class of learning-rate schedules.

    Inputs:
        - **global_step** (Tensor) - The current step number.

    Outputs:
        Tensor. The learning rate of the current step.
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, global_step: Any) -> Any:
        raise NotImplementedError(f"For '{type(self).__name__}', the method 'construct' must be defined.")


class _DecayLR(LearningRateSchedule):
    """The decay schedules' shared arguments (learning_rate, decay_rate, decay_steps, is_stair) and checks."""

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int, is_stair: bool = False) -> None:
        super().__init__()
        validator.check_lr_decay(learning_rate, decay_rate, is_stair, self.cls_name, decay_steps=decay_steps)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair


class ExponentialDecayLR(_DecayLR):
    r"""Exponential decay: :math:`lr * decay\_rate^{p}`, :math:`p = step / decay\_steps` (floored if
    `is_stair`).

    Args:
        learning_rate (float): The initial learning rate.
        decay_rate (float): The decay rate.
        decay_steps (int): Number of steps to decay over.
        is_stair (bool): Decay once every `decay_steps` steps. Default: ``False``.

    Examples:
        >>> import sporax as ms
        >>> from sporax import Tensor, nn
        >>> print(nn.ExponentialDecayLR(0.1, 0.9, 4)(Tensor(2, ms.int32)))
        0.094868325
    """

    def construct(self, global_step: Any) -> Tensor:
        p = _step(global_step) / self.decay_steps
        if self.is_stair:
            p = ops.floor(p)
        return self.learning_rate * ops.pow(Tensor(self.decay_rate, mstype.float32), p)


class NaturalExpDecayLR(_DecayLR):
    r"""Natural exponential decay: :math:`lr * e^{-decay\_rate * p}` with :math:`p = step`, or, if
    `is_stair`, :math:`p = floor(step / decay\_steps) * decay\_steps` (MindSpore's definition).

    Args:
        learning_rate (float): The initial learning rate.
        decay_rate (float): The decay rate.
        decay_steps (int): Number of steps to decay over.
        is_stair (bool): Decay once every `decay_steps` steps. Default: ``False``.

    Examples:
        >>> import sporax as ms
        >>> from sporax import Tensor, nn
        >>> print(nn.NaturalExpDecayLR(0.1, 0.9, 4, True)(Tensor(2, ms.int32)))
        0.1
    """

    def construct(self, global_step: Any) -> Tensor:
        p = _step(global_step)
        if self.is_stair:
            p = ops.floor(p / self.decay_steps) * self.decay_steps
        return self.learning_rate * ops.pow(Tensor(math.e, mstype.float32), -self.decay_rate * p)


class InverseDecayLR(_DecayLR):
    r"""Inverse-time decay: :math:`lr / (1 + decay\_rate * p)`, :math:`p = step / decay\_steps` (floored
    if `is_stair`).

    Args:
        learning_rate (float): The initial learning rate.
        decay_rate (float): The decay rate.
        decay_steps (int): Number of steps to decay over.
        is_stair (bool): Decay once every `decay_steps` steps. Default: ``False``.

    Examples:
        >>> import sporax as ms
        >>> from sporax import Tensor, nn
        >>> print(nn.InverseDecayLR(0.1, 0.9, 4, True)(Tensor(2, ms.int32)))
        0.1
    """

    def construct(self, global_step: Any) -> Tensor:
        p = _step(global_step) / self.decay_steps
        if self.is_stair:
            p = ops.floor(p)
        return self.learning_rate / (1.0 + self.decay_rate * p)


class CosineDecayLR(LearningRateSchedule):
    r"""Cosine decay: :math:`min\_lr + 0.5 (max\_lr - min\_lr)(1 + cos(\pi \min(step, decay\_steps) /
    decay\_steps))`.

    Args:
        min_lr (float): The minimum learning rate.
        max_lr (float): The maximum learning rate.
        decay_steps (int): Number of steps to decay over.

    Examples:
        >>> import sporax as ms
        >>> from sporax import Tensor, nn
        >>> print(nn.CosineDecayLR(0.01, 0.1, 4)(Tensor(2, ms.int32)))
        0.055
    """

    def __init__(self, min_lr: float, max_lr: float, decay_steps: int) -> None:
        super().__init__()
        if not isinstance(min_lr, float):
            raise TypeError(
                f"For 'CosineDecayLR', the argument 'min_lr' must be type of float, but got 'min_lr' type: "
                f"{type(min_lr)}."
            )
        validator.check_non_negative_float(min_lr, "min_lr", self.cls_name)
        validator.check_positive_float(max_lr, "max_lr", self.cls_name)
        validator.check_positive_int(decay_steps, "decay_steps", self.cls_name)
        if min_lr >= max_lr:
            raise ValueError(
                "For 'CosineDecayLR', the 'max_lr' must be greater than the 'min_lr', but got 'max_lr' value: "
                f"{max_lr}, 'min_lr' value: {min_lr}."
            )
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.decay_steps = decay_steps
        self.math_pi = math.pi
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step: Any) -> Tensor:
        p = ops.minimum(_step(global_step), float(self.decay_steps))
        return self.min_lr + self.delta * (1.0 + ops.cos(self.math_pi * p / self.decay_steps))


class PolynomialDecayLR(LearningRateSchedule):
    r"""Polynomial decay: :math:`(lr - end\_lr)(1 - s / d)^{power} + end\_lr` with
    :math:`s = \min(step, decay\_steps)`, :math:`d = decay\_steps`; if `update_decay_steps`,
    :math:`s = step` and :math:`d = decay\_steps \cdot \max(ceil(step / decay\_steps), 1)`.

    Args:
        learning_rate (float): The initial learning rate.
        end_learning_rate (float): The final learning rate.
        decay_steps (int): Number of steps to decay over.
        power (float): The power of the polynomial; must be greater than 0.
        update_decay_steps (bool): Restart the decay every `decay_steps` steps. Default: ``False``.

    Examples:
        >>> import sporax as ms
        >>> from sporax import Tensor, nn
        >>> print(nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5)(Tensor(2, ms.int32)))
        0.07363961
    """

    def __init__(
        self,
        learning_rate: float,
        end_learning_rate: float,
        decay_steps: int,
        power: float,
        update_decay_steps: bool = False,
    ) -> None:
        super().__init__()
        validator.check_positive_float(learning_rate, "learning_rate", self.cls_name)
        if not isinstance(end_learning_rate, float):
            raise TypeError(
                "For 'PolynomialDecayLR', the argument 'end_learning_rate' must be type of float, but got "
                f"'end_learning_rate' type: {type(end_learning_rate)}."
            )
        validator.check_non_negative_float(end_learning_rate, "end_learning_rate", self.cls_name)
        validator.check_positive_int(decay_steps, "decay_steps", self.cls_name)
        validator.check_arg_type("update_decay_steps", update_decay_steps, [bool], self.cls_name)
        validator.check_positive_float(power, "power", self.cls_name)
        self.decay_steps = decay_steps
        self.start_learning_rate = learning_rate
        self.end_learning_rate = end_learning_rate
        self.diff_learning_rate = learning_rate - end_learning_rate
        self.power = power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step: Any) -> Tensor:
        step = _step(global_step)
        if self.update_decay_steps:
            decay = self.decay_steps * ops.maximum(ops.ceil(step / self.decay_steps), 1.0)
        else:
            step = ops.minimum(step, float(self.decay_steps))
            decay = self.decay_steps
        p = step / decay
        return self.diff_learning_rate * ops.pow(1.0 - p, self.power) + self.end_learning_rate


class WarmUpLR(LearningRateSchedule):
    r"""Linear warm-up: :math:`lr \cdot \min(step, warmup\_steps) / warmup\_steps`.

    Args:
        learning_rate (float): The learning rate at the end of the warm-up.
        warmup_steps (int): Number of warm-up steps.

    Examples:
        >>> import sporax as ms
        >>> from sporax import Tensor, nn
        >>> print(nn.WarmUpLR(0.1, 2)(Tensor(2, ms.int32)))
        0.1
    """

    def __init__(self, learning_rate: float, warmup_steps: int) -> None:
        super().__init__()
        if not isinstance(learning_rate, float):
            raise TypeError(
                "For 'WarmUpLR', the argument 'learning_rate' must be type of float, but got 'learning_rate' "
                f"type: {type(learning_rate)}."
            )
        validator.check_non_negative_float(learning_rate, "learning_rate", self.cls_name)
        validator.check_positive_int(warmup_steps, "warmup_steps", self.cls_name)
        self.warmup_steps = warmup_steps
        self.learning_rate = learning_rate

    def construct(self, global_step: Any) -> Tensor:
        percent = ops.minimum(_step(global_step), float(self.warmup_steps)) / self.warmup_steps
        return self.learning_rate * percent
