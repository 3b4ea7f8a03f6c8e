"""Activation layers and ``get_activation``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ..cell import Cell

__all__ = [
    "ReLU",
    "ReLU6",
    "Sigmoid",
    "Tanh",
    "GELU",
    "FastGelu",
    "SiLU",
    "Softmax",
    "LogSoftmax",
    "LeakyReLU",
    "ELU",
    "SeLU",
    "CELU",
    "Softplus",
    "Softsign",
    "HSwish",
    "HSigmoid",
    "Hardtanh",
    "Mish",
    "LogSigmoid",
    "PReLU",
    "get_activation",
]


class ReLU(Cell):
    """``max(x, 0)``."""

    def construct(self, x: Any) -> Any:
        return ops.relu(x)


class ReLU6(Cell):
    """``min(max(x, 0), 6)``."""

    def construct(self, x: Any) -> Any:
        return ops.relu6(x)


class Sigmoid(Cell):
    """``1 / (1 + exp(-x))``."""

    def construct(self, input_x: Any) -> Any:
        return ops.sigmoid(input_x)


class Tanh(Cell):
    def construct(self, x: Any) -> Any:
        return ops.tanh(x)


class GELU(Cell):
    """GeLU; ``approximate=True`` (the default) uses the tanh approximation, False the exact erf form."""

    def __init__(self, approximate: bool = True) -> None:
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError(f"For 'GELU', the 'approximate' must be a bool, but got {type(approximate).__name__}.")
        self.approximate = approximate

    def construct(self, x: Any) -> Any:
        return ops.gelu(x, "tanh" if self.approximate else "none")


class FastGelu(Cell):
    def construct(self, x: Any) -> Any:
        return ops.fast_gelu(x)


class SiLU(Cell):
    """``x * sigmoid(x)``."""

    def construct(self, x: Any) -> Any:
        return ops.silu(x)


class Softmax(Cell):
    """Softmax along ``axis`` (default -1)."""

    def __init__(self, axis: Any = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Any) -> Any:
        return ops.softmax(x, self.axis)


class LogSoftmax(Cell):
    """Log-softmax along ``axis`` (default -1)."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Any) -> Any:
        return ops.log_softmax(x, self.axis)


class LeakyReLU(Cell):
    """``x`` where positive, ``alpha * x`` elsewhere (default alpha 0.2)."""

    def __init__(self, alpha: float = 0.2) -> None:
        super().__init__()
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
            raise TypeError(f"For 'LeakyReLU', the 'alpha' must be a number, but got {type(alpha).__name__}.")
        self.alpha = alpha

    def construct(self, x: Any) -> Any:
        return ops.leaky_relu(x, self.alpha)


class ELU(Cell):
    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = alpha

    def construct(self, x: Any) -> Any:
        return ops.elu(x, self.alpha)


class SeLU(Cell):
    def construct(self, input_x: Any) -> Any:
        return ops.selu(input_x)


class CELU(Cell):
    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        if alpha == 0:
            raise ValueError("For 'CELU', the 'alpha' must not be 0.")
        self.alpha = alpha

    def construct(self, x: Any) -> Any:
        return ops.celu(x, self.alpha)


class Softplus(Cell):
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold``."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def construct(self, input: Any) -> Any:
        return ops.softplus(input, self.beta, self.threshold)


class Softsign(Cell):
    def construct(self, x: Any) -> Any:
        return ops.softsign(x)


class HSwish(Cell):
    """``x * relu6(x + 3) / 6``."""

    def construct(self, x: Any) -> Any:
        return ops.hardswish(x)


class HSigmoid(Cell):
    """``relu6(x + 3) / 6``."""

    def construct(self, input_x: Any) -> Any:
        return ops.hardsigmoid(input_x)


class Hardtanh(Cell):
    def __init__(self, min_val: float = -1.0, max_val: float = 1.0) -> None:
        super().__init__()
        if min_val >= max_val:
            raise ValueError(f"For 'Hardtanh', 'min_val' must be less than 'max_val', but got {min_val} and {max_val}.")
        self.min_val, self.max_val = min_val, max_val

    def construct(self, x: Any) -> Any:
        return ops.hardtanh(x, self.min_val, self.max_val)


class Mish(Cell):
    """``x * tanh(softplus(x))``."""

    def construct(self, x: Any) -> Any:
        return ops.mish(x)


class LogSigmoid(Cell):
    def construct(self, input_x: Any) -> Any:
        return ops.logsigmoid(input_x)


class PReLU(Cell):
    """``max(0, x) + w * min(0, x)`` with a learnable slope per channel (Parameter ``a``).

    Args:
        channel: number of slopes (1, or the channel number of the input). Default 1.
        w: initial slope(s): a float, a list or a Tensor of shape ``(channel,)``. Default 0.25.
    """

    def __init__(self, channel: int = 1, w: Any = 0.25) -> None:
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int) or channel < 1:
            raise ValueError(f"For 'PReLU', the 'channel' must be a positive int, but got {channel}.")
        if isinstance(w, (int, float)) and not isinstance(w, bool):
            value = Tensor(np.full((channel,), w, np.float32))
        elif isinstance(w, list):
            value = Tensor(np.asarray(w, np.float32))
        elif isinstance(w, Tensor):
            value = w
        else:
            raise TypeError(f"For 'PReLU', the 'w' must be a float, list or Tensor, but got {type(w).__name__}.")
        if value.shape not in ((channel,), (1,)):
            raise ValueError(f"For 'PReLU', the 'w' shape must be ({channel},), but got {value.shape}.")
        if value.dtype not in (mstype.float16, mstype.float32, mstype.float64):
            raise TypeError(f"For 'PReLU', the dtype of 'w' must be float, but got {value.dtype}.")
        self.w = Parameter(value, name="a")

    def construct(self, x: Any) -> Any:
        return ops.prelu(x, self.w)


_ACTIVATIONS: dict[str, type[Cell]] = {
    "softmax": Softmax,
    "logsoftmax": LogSoftmax,
    "relu": ReLU,
    "relu6": ReLU6,
    "silu": SiLU,
    "tanh": Tanh,
    "hardtanh": Hardtanh,
    "gelu": GELU,
    "fast_gelu": FastGelu,
    "elu": ELU,
    "selu": SeLU,
    "celu": CELU,
    "sigmoid": Sigmoid,
    "softsign": Softsign,
    "softplus": Softplus,
    "prelu": PReLU,
    "leakyrelu": LeakyReLU,
    "hswish": HSwish,
    "hsigmoid": HSigmoid,
    "logsigmoid": LogSigmoid,
    "mish": Mish,
}


def get_activation(name: str | None, prim_name: str | None = None) -> Cell | None:
    """The activation Cell for ``name`` (``'relu'``, ``'gelu'``, ``'softmax'``...); None for None."""
    if name is None:
        return None
    msg = f"For '{prim_name}', the" if prim_name else "The"
    if not isinstance(name, str):
        raise TypeError(f"{msg} 'name' must be a str, but got {type(name).__name__}.")
    cls = _ACTIVATIONS.get(name.lower())
    if cls is None:
        raise KeyError(f"{msg} 'name' must be in {list(_ACTIVATIONS)}, but got {name}.")
    return cls()
