"""Dynamic learning rates (``mindspore.nn.dynamic_lr``): per-step learning rates as Python lists, to pass
as an optimizer's ``learning_rate``. Step ``i`` belongs to epoch ``floor(i / step_per_epoch)``."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .. import _checkparam as validator

__all__ = [
    "piecewise_constant_lr",
    "exponential_decay_lr",
    "natural_exp_decay_lr",
    "inverse_decay_lr",
    "cosine_decay_lr",
    "polynomial_decay_lr",
    "warmup_lr",
]


def piecewise_constant_lr(milestone: Any, learning_rates: Any) -> list[float]:
    r"""Piecewise constant learning rate: ``learning_rates[t]`` for steps in ``[milestone[t-1], milestone[t])``.

    Args:
        milestone (Union[list[int], tuple[int]]): Increasing step milestones, each greater than 0.
        learning_rates (Union[list[float], tuple[float]]): One learning rate per milestone.

    Returns:
        list[float], of size ``milestone[-1]``.

    Examples:
        >>> from sporax import nn
        >>> nn.piecewise_constant_lr([2, 5], [0.1, 0.05])
        [0.1, 0.1, 0.05, 0.05, 0.05]
    """
    validator.check_arg_type("milestone", milestone, (tuple, list))
    validator.check_arg_type("learning_rates", learning_rates, (tuple, list))
    if len(milestone) != len(learning_rates):
        raise ValueError(
            "For 'piecewise_constant_lr', the size of 'milestone' must be same with the size of 'learning_rates', "
            f"but got 'milestone' size: {len(milestone)}, 'learning_rates' size: {len(learning_rates)}."
        )
    lr: list[float] = []
    last_item = 0
    for i, item in enumerate(milestone):
        validator.check_positive_int(item, f"milestone[{i}]")
        validator.check_arg_type(f"learning_rates[{i}]", learning_rates[i], float)
        if item < last_item:
            raise ValueError(
                f"For 'piecewise_constant_lr', the value of milestone[{i}] must be greater than "
                f"milestone[{i - 1}], but got milestone[{i}]: {milestone[i]}, milestone[{i - 1}]: {milestone[i - 1]}."
            )
        lr += [learning_rates[i]] * (item - last_item)
        last_item = item
    return lr


def _per_step(total_step: int, step_per_epoch: int, lr_of_epoch: Callable[[int], float]) -> list[float]:
    """The learning rate of each of ``total_step`` steps: ``lr_of_epoch`` of the step's epoch."""
    return [lr_of_epoch(math.floor(i / step_per_epoch)) for i in range(total_step)]


def exponential_decay_lr(
    learning_rate: float,
    decay_rate: float,
    total_step: int,
    step_per_epoch: int,
    decay_epoch: int,
    is_stair: bool = False,
) -> list[float]:
    r"""``learning_rate * decay_rate ** (epoch / decay_epoch)`` per step (the exponent floored if `is_stair`).

    Args:
        learning_rate (float): The initial learning rate.
        decay_rate (float): The decay rate.
        total_step (int): The number of steps.
        step_per_epoch (int): Steps per epoch.
        decay_epoch (int): Number of epochs to decay over.
        is_stair (bool): Decay once every `decay_epoch` epochs. Default: ``False``.

    Returns:
        list[float], of size `total_step`.
    """
    validator.check_lr_decay(
        learning_rate,
        decay_rate,
        is_stair,
        total_step=total_step,
        step_per_epoch=step_per_epoch,
        decay_epoch=decay_epoch,
    )
    if is_stair:
        return _per_step(
            total_step, step_per_epoch, lambda e: learning_rate * decay_rate ** math.floor(e / decay_epoch)
        )
    return _per_step(total_step, step_per_epoch, lambda e: learning_rate * decay_rate ** (e / decay_epoch))


def natural_exp_decay_lr(
    learning_rate: float,
    decay_rate: float,
    total_step: int,
    step_per_epoch: int,
    decay_epoch: int,
    is_stair: bool = False,
) -> list[float]:
    r"""``learning_rate * e ** (-decay_rate * epoch)`` per step; if `is_stair` the epoch is rounded down to a
    multiple of `decay_epoch`.

    Args:
        learning_rate (float): The initial learning rate.
        decay_rate (float): The decay rate.
        total_step (int): The number of steps.
        step_per_epoch (int): Steps per epoch.
        decay_epoch (int): Number of epochs to decay over.
        is_stair (bool): Decay once every `decay_epoch` epochs. Default: ``False``.

    Returns:
        list[float], of size `total_step`.
    """
    validator.check_lr_decay(
        learning_rate,
        decay_rate,
        is_stair,
        total_step=total_step,
        step_per_epoch=step_per_epoch,
        decay_epoch=decay_epoch,
    )
    if is_stair:
        return _per_step(
            total_step,
            step_per_epoch,
            lambda e: learning_rate * math.e ** (-decay_rate * math.floor(e / decay_epoch) * decay_epoch),
        )
    return _per_step(total_step, step_per_epoch, lambda e: learning_rate * math.e ** (-decay_rate * e))


def inverse_decay_lr(
    learning_rate: float,
    decay_rate: float,
    total_step: int,
    step_per_epoch: int,
    decay_epoch: int,
    is_stair: bool = False,
) -> list[float]:
    r"""``learning_rate / (1 + decay_rate * epoch / decay_epoch)`` per step (the ratio floored if `is_stair`).

    Args:
        learning_rate (float): The initial learning rate.
        decay_rate (float): The decay rate.
        total_step (int): The number of steps.
        step_per_epoch (int): Steps per epoch.
        decay_epoch (int): Number of epochs to decay over.
        is_stair (bool): Decay once every `decay_epoch` epochs. Default: ``False``.

    Returns:
        list[float], of size `total_step`.
    """
    validator.check_lr_decay(
        learning_rate,
        decay_rate,
        is_stair,
        total_step=total_step,
        step_per_epoch=step_per_epoch,
        decay_epoch=decay_epoch,
    )
    if is_stair:
        return _per_step(
            total_step, step_per_epoch, lambda e: learning_rate / (1 + decay_rate * math.floor(e / decay_epoch))
        )
    return _per_step(total_step, step_per_epoch, lambda e: learning_rate / (1 + decay_rate * e / decay_epoch))


def cosine_decay_lr(
    min_lr: float, max_lr: float, total_step: int, step_per_epoch: int, decay_epoch: int
) -> list[float]:
    r"""``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(epoch, decay_epoch) / decay_epoch))`` per step.

    Args:
        min_lr (float): The minimum learning rate.
        max_lr (float): The maximum learning rate.
        total_step (int): The number of steps.
        step_per_epoch (int): Steps per epoch.
        decay_epoch (int): Number of epochs to decay over.

    Returns:
        list[float], of size `total_step`.
    """
    if not isinstance(min_lr, float):
        raise TypeError(
            f"For 'cosine_decay_lr', the argument 'min_lr' must be type of float, but got 'min_lr' type: {type(min_lr)}."
        )
    validator.check_non_negative_float(min_lr, "min_lr")
    validator.check_positive_float(max_lr, "max_lr")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    validator.check_positive_int(decay_epoch, "decay_epoch")
    if min_lr >= max_lr:
        raise ValueError(
            "For 'cosine_decay_lr', the 'max_lr' must be greater than the 'min_lr', but got 'max_lr' value: "
            f"{max_lr}, 'min_lr' value: {min_lr}."
        )
    delta = 0.5 * (max_lr - min_lr)
    return _per_step(
        total_step,
        step_per_epoch,
        lambda e: min_lr + delta * (1 + math.cos(math.pi * min(e, decay_epoch) / decay_epoch)),
    )


def polynomial_decay_lr(
    learning_rate: float,
    end_learning_rate: float,
    total_step: int,
    step_per_epoch: int,
    decay_epoch: int,
    power: float,
    update_decay_epoch: bool = False,
) -> list[float]:
    r"""``(learning_rate - end_learning_rate) * (1 - e / d) ** power + end_learning_rate`` per step, with
    ``e = min(epoch, decay_epoch)`` and ``d = decay_epoch``; if `update_decay_epoch`, ``e = epoch`` and
    ``d = decay_epoch * max(ceil(epoch / decay_epoch), 1)``.

    Args:
        learning_rate (float): The initial learning rate.
        end_learning_rate (float): The final learning rate.
        total_step (int): The number of steps.
        step_per_epoch (int): Steps per epoch.
        decay_epoch (int): Number of epochs to decay over.
        power (float): The power of the polynomial; must be greater than 0.
        update_decay_epoch (bool): Restart the decay every `decay_epoch` epochs. Default: ``False``.

    Returns:
        list[float], of size `total_step`.
    """
    validator.check_positive_float(learning_rate, "learning_rate")
    if not isinstance(end_learning_rate, float):
        raise TypeError(
            "For 'polynomial_decay_lr', the argument 'end_learning_rate' must be type of float, but got "
            f"'end_learning_rate' type: {type(end_learning_rate)}."
        )
    validator.check_non_negative_float(end_learning_rate, "end_learning_rate")
    validator.check_positive_float(power, "power")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    validator.check_positive_int(decay_epoch, "decay_epoch")
    validator.check_arg_type("update_decay_epoch", update_decay_epoch, [bool])
    delta = learning_rate - end_learning_rate
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if update_decay_epoch:
            decay, tmp = decay_epoch * max(math.ceil(epoch / decay_epoch), 1), epoch
        else:
            decay, tmp = decay_epoch, min(decay_epoch, epoch)
        lr.append(delta * (1 - tmp / decay) ** power + end_learning_rate)
    return lr


def warmup_lr(learning_rate: float, total_step: int, step_per_epoch: int, warmup_epoch: int) -> list[float]:
    r"""``learning_rate * min(epoch, warmup_epoch) / warmup_epoch`` per step.

    Args:
        learning_rate (float): The learning rate at the end of the warm-up.
        total_step (int): The number of steps.
        step_per_epoch (int): Steps per epoch.
        warmup_epoch (int): Number of warm-up epochs.

    Returns:
        list[float], of size `total_step`.
    """
    if not isinstance(learning_rate, float):
        raise TypeError(
            "For 'warmup_lr', the argument 'learning_rate' must be type of float, but got 'learning_rate' type: "
            f"{type(learning_rate)}."
        )
    validator.check_non_negative_float(learning_rate, "learning_rate")
    validator.check_positive_int(warmup_epoch, "warmup_epoch")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    return _per_step(total_step, step_per_epoch, lambda e: learning_rate * min(warmup_epoch, e) / warmup_epoch)
