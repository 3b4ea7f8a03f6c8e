"""Basic layers: Dense, Flatten, Identity."""

from __future__ import annotations

import math
from typing import Any

from ... import ops
from ...common import dtype as mstype
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ..cell import Cell

__all__ = ["Dense", "Flatten", "Identity"]


class Dense(Cell):
    """``y = activation(x @ weight.T + bias)`` over the last dimension of an N-D input."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        weight_init: Any = None,
        bias_init: Any = None,
        has_bias: bool = True,
        activation: Any = None,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        self.in_channels, self.out_channels, self.has_bias = in_channels, out_channels, has_bias
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype), name="weight")
        self.bias = None
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype), name="bias")
        self.activation = activation

    def construct(self, x: Tensor) -> Tensor:
        if x.shape[-1] != self.in_channels:
            raise ValueError(f"For 'Dense', the 'x' shape[-1] must be {self.in_channels}, but got {x.shape[-1]}.")
        if x.dtype != self.weight.dtype:
            raise TypeError(
                f"For 'Dense', the dtype of 'x' must be {self.weight.dtype} (the weight's), but got {x.dtype}."
            )
        out = ops.matmul(x, self.weight.T)
        if self.bias is not None:
            out = out + self.bias
        if self.activation is not None:
            out = self.activation(out)
        return out

    def extend_repr(self) -> str:
        return f"input_channels={self.in_channels}, output_channels={self.out_channels}, has_bias={self.has_bias}"


class Flatten(Cell):
    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x: Tensor) -> Tensor:
        return ops.flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


class Identity(Cell):
    def construct(self, x: Any) -> Any:
        return x
