"""Activation layers and ``get_activation``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.operations import Primitive
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
    "PReLUExt",
    "RReLU",
    "GLU",
    "HShrink",
    "SoftShrink",
    "Softmin",
    "Softmax2d",
    "Tanhshrink",
    "Threshold",
    "LogSoftmaxExt",
    "get_activation",
]


class ReLU(Cell):
    """``max(x, 0)``."""

    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Any) -> Any:
        return ops.relu(x)


class ReLU6(Cell):
    """``min(max(x, 0), 6)``."""

    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Any) -> Any:
        return ops.relu6(x)


class Sigmoid(Cell):
    """``1 / (1 + exp(-x))``."""

    def __init__(self) -> None:
        super().__init__()

    def construct(self, input_x: Any) -> Any:
        return ops.sigmoid(input_x)


class Tanh(Cell):
    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Any) -> Any:
        return ops.tanh(x)


class GELU(Cell):
    """GeLU; ``approximate=True`` (the default) uses the tanh approximation, False the exact erf form."""

    def __init__(self, approximate: bool = True) -> None:
        super().__init__()
        validator.check_bool(approximate, "approximate", "GELU")
        self.approximate = approximate

    def construct(self, x: Any) -> Any:
        return ops.gelu(x, "tanh" if self.approximate else "none")


class FastGelu(Cell):
    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Any) -> Any:
        return ops.fast_gelu(x)


class SiLU(Cell):
    """``x * sigmoid(x)``."""

    def __init__(self) -> None:
        super().__init__()

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
    def __init__(self) -> None:
        super().__init__()

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
    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Any) -> Any:
        return ops.softsign(x)


class HSwish(Cell):
    """``x * relu6(x + 3) / 6``."""

    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Any) -> Any:
        return ops.hardswish(x)


class HSigmoid(Cell):
    """``relu6(x + 3) / 6``."""

    def __init__(self) -> None:
        super().__init__()

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

    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Any) -> Any:
        return ops.mish(x)


class LogSigmoid(Cell):
    def __init__(self) -> None:
        super().__init__()

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
        validator.check_positive_int(channel, "channel", "PReLU")
        if isinstance(w, (float, np.float32)):
            value = Tensor(np.full((channel,), w, np.float32))
        elif isinstance(w, list):
            if len(w) != channel:
                raise ValueError(
                    f"For 'PReLU', the 'w' shape must be ({channel},): the length of 'w' must be equal to the "
                    f"'channel' when the 'w' is a list, "
                    f"but got the length of 'w': {len(w)}, the 'channel': {channel}."
                )
            for v in w:
                if not isinstance(v, (float, np.float32)):
                    raise ValueError(
                        f"For 'PReLU', all elements in 'w' must be float when the 'w' is a list, but got {v}."
                    )
            value = Tensor(np.asarray(w, np.float32))
        elif isinstance(w, Tensor):
            if w.dtype not in (mstype.float16, mstype.float32):
                raise ValueError(
                    f"For 'PReLU', the dtype of 'w' must be float16 or float32 when the 'w' is a tensor, but got {w.dtype}."
                )
            if len(w.shape) != 1 or w.shape[0] != channel:
                raise ValueError(
                    f"For 'PReLU', the dimension of 'w' must be 1, and the elements number should be equal to the "
                    f"'channel' when the 'w' is a tensor, but got 'w' shape {w.shape}, the 'channel' {channel}."
                )
            value = w
        else:
            raise TypeError(f"For 'PReLU', the 'w' only supported float, list and tensor, but got {type(w).__name__}.")
        self.w = Parameter(value, name="a")

    def construct(self, x: Any) -> Any:
        return ops.prelu(x, self.w)


class PReLUExt(Cell):
    """``max(0, x) + w * min(0, x)`` with ``num_parameters`` learnable slopes (Parameter ``weight``),
    all initialised to ``init``; ``dtype`` is the Parameter's dtype (float32 when None)."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, dtype: Any = None) -> None:
        super().__init__()
        value = Tensor(np.full((num_parameters,), init, np.float32), dtype=dtype)
        self.weight = Parameter(value, name="weight")

    def construct(self, input: Any) -> Any:
        return ops.prelu(input, self.weight)


class RReLU(Cell):
    """Randomized leaky ReLU: each negative element is scaled by a slope drawn from ``U(lower, upper)``."""

    def __init__(self, lower: float = 1 / 8, upper: float = 1 / 3) -> None:
        super().__init__()
        validator.check_value_type("upper", upper, [float, int], "RReLU")
        validator.check_value_type("lower", lower, [float, int], "RReLU")
        if lower > upper:
            raise ValueError(
                f"For RReLU, the value of 'upper' must be greater than or equal to 'lower', "
                f"but got upper: {upper}, lower: {lower}. "
            )
        self.lower, self.upper = lower, upper

    def construct(self, x: Any) -> Any:
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'rrelu', the input must be a Tensor, but got {type(x)}.")
        return ops.rrelu(x, self.lower, self.upper)


class GLU(Cell):
    """Gated linear unit: ``a * sigmoid(b)`` with ``a, b`` the halves of the input along ``axis``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.dim = axis

    def construct(self, x: Any) -> Any:
        return ops.glu(x, self.dim)


class HShrink(Cell):
    """``x`` where ``|x| > lambd``, else 0."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.hshrink = ops.HShrink(lambd)

    def construct(self, input: Any) -> Any:
        return self.hshrink(input)


class SoftShrink(Cell):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.softshrink = ops.SoftShrink(lambd)

    def construct(self, input: Any) -> Any:
        return self.softshrink(input)


class Softmin(Cell):
    """``softmax(-x)`` along ``axis``."""

    def __init__(self, axis: Any = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Any) -> Any:
        return ops.softmin(x, self.axis)


class Softmax2d(Cell):
    """Softmax over the channel axis (-3) of a ``(C, H, W)`` or ``(N, C, H, W)`` input."""

    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Any) -> Any:
        if x.ndim not in (3, 4):
            raise ValueError(f"For 'Softmax2d', the in_shape must have 3 or 4 dims, but got {x.ndim}.")
        return ops.softmax(x, -3)


class Tanhshrink(Cell):
    """``x - tanh(x)``."""

    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Any) -> Any:
        return ops.tanhshrink(x)


class Threshold(Cell):
    """``x`` where ``x > threshold``, ``value`` elsewhere."""

    def __init__(self, threshold: float, value: float) -> None:
        super().__init__()
        self.threshold, self.value = threshold, value

    def construct(self, input_x: Any) -> Any:
        return ops.threshold(input_x, self.threshold, self.value)


class LogSoftmaxExt(Cell):
    """Log-softmax along ``dim``; ``dim=None`` takes axis 0 for 0-, 1- and 3-D inputs, else 1."""

    def __init__(self, dim: Any = None) -> None:
        super().__init__()
        self.dim = dim

    def construct(self, x: Any) -> Any:
        return ops.LogSoftmaxExt()(x, self.dim)


_ACTIVATIONS: dict[str, type[Cell]] = {
    "softmin": Softmin,
    "softmax": Softmax,
    "softmax2d": Softmax2d,
    "logsoftmax": LogSoftmax,
    "logsoftmaxExt": LogSoftmaxExt,
    "relu": ReLU,
    "relu6": ReLU6,
    "rrelu": RReLU,
    "silu": SiLU,
    "tanh": Tanh,
    "tanhshrink": Tanhshrink,
    "hardtanh": Hardtanh,
    "gelu": GELU,
    "fast_gelu": FastGelu,
    "elu": ELU,
    "sigmoid": Sigmoid,
    "softsign": Softsign,
    "prelu": PReLU,
    "preluExt": PReLUExt,
    "leakyrelu": LeakyReLU,
    "hswish": HSwish,
    "hsigmoid": HSigmoid,
    "logsigmoid": LogSigmoid,
    "softshrink": SoftShrink,
    "hshrink": HShrink,
    "threshold": Threshold,
    "mish": Mish,
}


def get_activation(name: str | None, prim_name: str | None = None) -> Cell | None:
    """The activation Cell for ``name`` (MindSpore's keys: ``'relu'``, ``'gelu'``, ``'softmax'``,
    ``'logsoftmaxExt'``...); None for None. ``'threshold'`` needs arguments, so it raises TypeError as in
    MindSpore."""
    if name is None:
        return None
    msg = f"For '{prim_name}', the" if prim_name else "The"
    if not isinstance(name, str) or name not in _ACTIVATIONS:
        raise KeyError(f"{msg} 'name' must be in {list(_ACTIVATIONS)}, but got {name}.")
    return _ACTIVATIONS[name]()


def _bn_act_activation(activation: Any, alpha: float, cls_name: str) -> Any:
    """The activation of DenseBnAct / Conv2dBnAct: ``'leakyrelu'`` (with ``alpha``), another name, a Cell, a
    Primitive or None."""
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    act = get_activation(activation, cls_name) if isinstance(activation, str) else activation
    if activation is not None and not isinstance(act, (Cell, Primitive)):
        raise TypeError(
            f"For '{cls_name}', the 'activation' must be str or Cell or Primitive, but got {type(activation).__name__}."
        )
    return act
