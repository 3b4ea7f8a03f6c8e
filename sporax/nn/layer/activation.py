"""Activation layers."""

from __future__ import annotations

from typing import Any

from ... import ops
from ..cell import Cell

__all__ = ["ReLU"]


class ReLU(Cell):
    def construct(self, x: Any) -> Any:
        return ops.relu(x)
