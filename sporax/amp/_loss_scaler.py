"""Loss scalers for custom training steps: ``LossScaler``, ``StaticLossScaler``, ``DynamicLossScaler``, and
``all_finite``.

They are plain objects holding Parameters (MindSpore's ``jit_class``): used inside a compiled step, the
scale and the counter are state of that step like any Parameter.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from .. import _checkparam as validator
from .. import ops
from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor

__all__ = ["LossScaler", "StaticLossScaler", "DynamicLossScaler", "all_finite"]

_hypermap = ops.HyperMap()


def _grad_scale(scale: Any, grad: Any) -> Any:
    return grad * scale.astype(grad.dtype)


def _grad_unscale(scale: Any, grad: Any) -> Any:
    return grad * ops.reciprocal(scale).astype(grad.dtype)


def _leaves(x: Any) -> list[Any]:
    if isinstance(x, (tuple, list)):
        return [leaf for item in x for leaf in _leaves(item)]
    return [x]


def all_finite(inputs: Any) -> Tensor:
    r"""Whether every element of the inputs is finite (no inf, no nan).

    Args:
        inputs (Union(tuple(Tensor), list(Tensor), Tensor)): The tensors to check (usually the gradients).

    Returns:
        Tensor, a 0-d bool Tensor.

    Examples:
        >>> x = (Tensor(np.array([np.log(-1), 1, np.log(0)])), Tensor(np.array([1.0])))
        >>> amp.all_finite(x)
        Tensor(shape=[], dtype=Bool, value= False)
    """
    leaves = _leaves(inputs)
    for t in leaves:
        if not isinstance(t, Tensor):
            raise TypeError(
                f"For 'all_finite', the inputs must be Tensors or a tuple/list of Tensors, but got {type(t).__name__}."
            )
    if not leaves:
        return Tensor(True, mstype.bool_)
    flags = [ops.isfinite(t).all() for t in leaves]
    return ops.stack(flags).all() if len(flags) > 1 else flags[0]


class LossScaler(ABC):
    r"""Loss scaler abstract class for mixed precision training.

    Subclasses implement `scale` and `unscale` (of the loss or the gradients) and `adjust` (update the
    scale from whether the gradients are finite).
    """

    @abstractmethod
    def scale(self, inputs: Any) -> Any:
        """Scale `inputs` (the loss or the gradients) by the loss scale.

        Args:
            inputs (Union(Tensor, tuple(Tensor))): The loss or gradients.
        """
        raise NotImplementedError

    @abstractmethod
    def unscale(self, inputs: Any) -> Any:
        """Unscale `inputs` (the loss or the gradients) by the loss scale.

        Args:
            inputs (Union(Tensor, tuple(Tensor))): The loss or gradients.
        """
        raise NotImplementedError

    @abstractmethod
    def adjust(self, grads_finite: Any) -> Any:
        """Adjust the loss scale from whether the gradients are finite.

        Args:
            grads_finite (Tensor): A 0-d bool Tensor.
        """
        raise NotImplementedError


class _ParameterLossScaler(LossScaler):
    """A loss scale held in a Parameter: the shared `scale` and `unscale`."""

    def __init__(self, scale_value: Any) -> None:
        validator.check_value_type("scale_value", scale_value, [float, int])
        if scale_value < 1.0:
            raise ValueError(f"The argument 'scale_value' must be > 1, but got {scale_value}")
        self.scale_value = Parameter(Tensor(scale_value, dtype=mstype.float32), name="scale_value")

    def scale(self, inputs: Any) -> Any:
        """Multiply `inputs` by the loss scale.

        Args:
            inputs (Union(Tensor, tuple(Tensor))): The loss or gradients.

        Returns:
            Union(Tensor, tuple(Tensor)), the scaled values, in their dtypes.
        """
        return _hypermap(ops.partial(_grad_scale, self.scale_value), inputs)

    def unscale(self, inputs: Any) -> Any:
        """Divide `inputs` by the loss scale.

        Args:
            inputs (Union(Tensor, tuple(Tensor))): The loss or gradients.

        Returns:
            Union(Tensor, tuple(Tensor)), the unscaled values, in their dtypes.
        """
        return _hypermap(ops.partial(_grad_unscale, self.scale_value), inputs)

    def adjust(self, grads_finite: Any) -> Any:
        raise NotImplementedError


class StaticLossScaler(_ParameterLossScaler):
    r"""Scales and unscales the loss or gradients by a fixed value.

    Args:
        scale_value (Union(float, int)): The loss scale, at least 1.

    Examples:
        >>> loss_scaler = amp.StaticLossScaler(scale_value=2**10)
        >>> loss_scaler.scale(Tensor([1.], ms.float32))
        Tensor(shape=[1], dtype=Float32, value= [ 1.02400000e+03])
    """

    def adjust(self, grads_finite: Any) -> bool:
        """The scale is fixed: nothing to adjust.

        Returns:
            bool, False.
        """
        return False


class DynamicLossScaler(_ParameterLossScaler):
    r"""A loss scale that adapts to overflow.

    If the gradients stay finite for `scale_window` consecutive steps the scale is multiplied by
    `scale_factor` (unless that overflows); on a step whose gradients are not finite it is divided by
    `scale_factor` (at least 1) and the counter restarts.

    Args:
        scale_value (Union(float, int)): The initial loss scale, at least 1.
        scale_factor (int): The scale factor.
        scale_window (int): Consecutive finite steps before the scale increases.

    Examples:
        >>> loss_scaler = amp.DynamicLossScaler(scale_value=2**10, scale_factor=2, scale_window=1)
        >>> grads = (Tensor(np.array([np.log(-1), 1.0]), ms.float16), Tensor(np.array([0.2]), ms.float16))
        >>> grads_finite = amp.all_finite(loss_scaler.unscale(grads))
        >>> loss_scaler.adjust(grads_finite)
        True
        >>> print(loss_scaler.scale_value.asnumpy())
        512.0
    """

    def __init__(self, scale_value: Any, scale_factor: int, scale_window: int) -> None:
        super().__init__(scale_value)
        self.scale_window = validator.check_positive_int(scale_window, "scale_window")
        self.scale_factor = validator.check_positive_int(scale_factor, "scale_factor")
        self.counter = Parameter(Tensor(0, dtype=mstype.int32), name="counter")

    def adjust(self, grads_finite: Any) -> bool:
        """Update the scale and the counter from `grads_finite`.

        Args:
            grads_finite (Tensor): A 0-d bool Tensor: whether the gradients are finite.

        Returns:
            bool, True.
        """
        one = ops.ones((), self.scale_value.dtype)
        scale_mul_factor = self.scale_value * self.scale_factor
        scale_value = ops.select(
            grads_finite,
            ops.select(
                self.counter == (self.scale_window - 1),
                ops.select(ops.isfinite(scale_mul_factor), scale_mul_factor, self.scale_value),
                self.scale_value,
            ),
            ops.maximum(one, self.scale_value / self.scale_factor),
        )
        ops.assign(self.scale_value, scale_value)
        counter = ((self.counter + 1) % self.scale_window) * grads_finite
        ops.assign(self.counter, counter)
        return True
