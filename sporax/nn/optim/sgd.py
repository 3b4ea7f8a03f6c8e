"""SGD."""

from __future__ import annotations

from typing import Any

from ... import ops
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(
        self,
        params: Any,
        learning_rate: Any = 0.1,
        momentum: float = 0.0,
        dampening: float = 0.0,
        weight_decay: float = 0.0,
        nesterov: bool = False,
        loss_scale: float = 1.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)

    def construct(self, gradients: Any) -> Any:
        lr = self.get_lr()
        for p, g in zip(self.parameters, gradients, strict=True):
            ops.assign(p, p - lr * g)
        return tuple(True for _ in self.parameters)
