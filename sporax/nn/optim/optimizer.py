"""``Optimizer``: the base class. An optimizer is a Cell whose state (moments, step, learning rate) is
Parameters; ``optimizer(grads)`` updates every parameter in one compiled call (``_auto_jit``)."""

from __future__ import annotations

from typing import Any

from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ..cell import Cell

__all__ = ["Optimizer"]


class Optimizer(Cell):
    _auto_jit = True

    def __init__(self, learning_rate: Any, parameters: Any, weight_decay: float = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(auto_prefix=False)
        params = list(parameters) if parameters is not None else []
        if not params:
            raise ValueError(f"For '{type(self).__name__}', the argument 'params' must not be empty.")
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError(
                    f"For '{type(self).__name__}', every element of 'params' must be a Parameter, but got {type(p).__name__}."
                )
        self.parameters = ParameterTuple(params)
        self.learning_rate = Parameter(Tensor(float(learning_rate), mstype.float32), name="learning_rate")
        self.weight_decay = weight_decay
        self.loss_scale = loss_scale
        self.global_step = Parameter(Tensor([0], mstype.int32), name="global_step")

    def get_lr(self) -> Tensor:
        ops.assign_add(self.global_step, Tensor([1], mstype.int32))
        return self.learning_rate
