"""Activation operator classes added to ``mindspore.ops`` (``ops.HShrink(lambd)``, ``ops.SoftShrink``,
``ops.Softsign()``, ``ops.LogSoftmaxExt()``, the deprecated ``ops.Gelu``/``ops.FastGelu``).

Each class keeps its construction arguments as attributes and calls the functional op.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..function import activation_func as AF
from ..function import nn_func as NF
from ._primitive import Primitive

__all__ = ["Gelu", "FastGelu", "HShrink", "SoftShrink", "Softsign", "LogSoftmaxExt", "GLU"]


class Gelu(Primitive):
    """Deprecated name of ``ops.GeLU``: GeLU with the tanh approximation (as MindSpore's kernel)."""

    def __init__(self) -> None:
        super().__init__("Gelu")

    def __call__(self, x: Any) -> Any:
        return AF.gelu(x, "tanh")


class FastGelu(Primitive):
    """Deprecated name of ``ops.FastGeLU``."""

    def __init__(self) -> None:
        super().__init__("FastGelu")

    def __call__(self, x: Any) -> Any:
        return AF.fast_gelu(x)


class _Shrink(Primitive):
    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        validator.check_value_type("lambd", lambd, [float], self.name)
        self.lambd = lambd
        self.attrs["lambd"] = lambd


class HShrink(_Shrink):
    """``x`` where ``|x| > lambd``, else 0."""

    def __call__(self, input_x: Any) -> Any:
        return AF.hardshrink(input_x, self.lambd)


class SoftShrink(_Shrink):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""

    def __call__(self, input_x: Any) -> Any:
        return AF.softshrink(input_x, self.lambd)


class Softsign(Primitive):
    """``x / (1 + |x|)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any) -> Any:
        return AF.softsign(input_x)


def legacy_softmax_dim(ndim: int) -> int:
    """The axis a softmax takes when none is given (PyTorch's rule, which mint follows)."""
    return 0 if ndim in (0, 1, 3) else 1


class LogSoftmaxExt(Primitive):
    """``log_softmax(input, dim)``; ``dim=None`` takes axis 0 for 0-, 1- and 3-D inputs, else 1;
    ``dtype`` casts the input first."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, dim: Any = None, dtype: Any = None) -> Any:
        if dtype is not None:
            input = input.astype(dtype)
        if dim is None:
            dim = legacy_softmax_dim(input.ndim)
        return NF.log_softmax(input, dim)


class GLU(Primitive):
    """``GLU(axis=-1)(x)``: the gated linear unit ``a * sigmoid(b)`` of the two halves of ``x`` along ``axis``
    (:func:`ops.glu`)."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        validator.check_value_type("axis", axis, [int], self.name)
        self.add_prim_attr("axis", axis)
        self.axis = axis

    def __call__(self, x: Any) -> Any:
        shape = getattr(x, "shape", ())
        if shape and -len(shape) <= self.axis < len(shape) and shape[self.axis] % 2:
            raise RuntimeError(
                f"For GLU, halving dimension must be even, but dimension {self.axis} is size {shape[self.axis]}."
            )
        return AF.glu(x, self.axis)
