"""Neural-network operator classes."""

from __future__ import annotations

from typing import Any

from .. import function as F
from ._primitive import Primitive

__all__ = ["ReLU", "Softmax", "LogSoftmax"]


class ReLU(Primitive):
    def __call__(self, input_x: Any) -> Any:
        return F.relu(input_x)


class Softmax(Primitive):
    def __init__(self, axis: Any = -1) -> None:
        super().__init__()
        self.axis = axis
        self.attrs["axis"] = axis

    def __call__(self, x: Any) -> Any:
        return F.softmax(x, self.axis)


class LogSoftmax(Primitive):
    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis
        self.attrs["axis"] = axis

    def __call__(self, logits: Any) -> Any:
        return F.log_softmax(logits, self.axis)
