"""``nn.Jvp`` and ``nn.Vjp``: MindSpore's deprecated cell forms of ``ops.jvp`` / ``ops.vjp``.

Called as ``Jvp(fn)(*inputs, v)``: the last argument is the tangent (one Tensor per input, a tuple for
several inputs); both return ``(output, jvp)``. ``Vjp(fn)(*inputs, v)`` takes the output cotangent last and
returns ``(output, gradients)``, a single Tensor for one input and a tuple otherwise.
"""

from __future__ import annotations

import logging
from typing import Any

from ... import ops
from ..cell import Cell

__all__ = ["Jvp", "Vjp"]

_log = logging.getLogger("sporax")


def _deprecated(name: str, new: str) -> None:
    _log.warning(
        "'%s' is deprecated from version 1.9 and will be removed in a future version, use '%s' instead.", name, new
    )


class Jvp(Cell):
    """Forward-mode derivative of ``fn``: ``Jvp(fn)(*inputs, v)`` -> ``(fn(*inputs), J(inputs) @ v)``."""

    def __init__(self, fn: Any) -> None:
        super().__init__()
        _deprecated("Jvp", "ops.jvp")
        self.fn = fn

    def construct(self, *args: Any) -> Any:
        inputs, v = args[:-1], args[-1]
        if len(inputs) == 1:
            return ops.jvp(self.fn, inputs[0], v)
        return ops.jvp(self.fn, inputs, v)


class Vjp(Cell):
    """Reverse-mode derivative of ``fn``: ``Vjp(fn)(*inputs, v)`` -> ``(fn(*inputs), v @ J(inputs))``."""

    def __init__(self, fn: Any) -> None:
        super().__init__()
        _deprecated("Vjp", "ops.vjp")
        self.fn = fn

    def construct(self, *args: Any) -> Any:
        inputs, v = args[:-1], args[-1]
        output, pullback = ops.vjp(self.fn, *inputs)
        grads = pullback(v)
        if len(inputs) == 1:
            return output, grads[0]
        return output, grads
