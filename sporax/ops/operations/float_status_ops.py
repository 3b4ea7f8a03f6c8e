"""MindSpore's float-status primitives (``FloatStatus``, ``NPUAllocFloatStatus``, ``NPUClearFloatStatus``,
``NPUGetFloatStatus``) with their meaning on every backend; see ``ops/function/_float_status.py``."""

from __future__ import annotations

from typing import Any

from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .. import function as F
from ..function import _float_status
from .math_ops import _NoArgs

__all__ = ["FloatStatus", "NPUAllocFloatStatus", "NPUClearFloatStatus", "NPUGetFloatStatus"]


class FloatStatus(_NoArgs):
    """``FloatStatus()(x)``: ``[1.]`` when ``x`` holds an inf or a NaN, else ``[0.]`` (Float32, shape ``(1,)``)."""

    def __call__(self, x: Any) -> Any:
        return F.reshape(F.cast(Tensor._from_data(_float_status.overflow(x)), mstype.float32), (1,))


class NPUAllocFloatStatus(_NoArgs):
    """``NPUAllocFloatStatus()()``: a Float32 status tensor of shape ``(8,)``, all zeros, that records from
    now on whether anything it is made to depend on (``ops.depend(status, grads)``) overflows; see
    :class:`NPUGetFloatStatus`. (On Ascend this is a hardware register; sporax gives it the same meaning
    on every backend.)"""

    def __call__(self) -> Any:
        return _float_status.track(F.zeros((8,), mstype.float32))


class NPUClearFloatStatus(_NoArgs):
    """``NPUClearFloatStatus()(x)``: forget the overflows ``x`` recorded (it records anew from here); returns
    zeros shaped like ``x``."""

    def __call__(self, x: Any) -> Any:
        _float_status.track(x)
        return F.zeros_like(x)


class NPUGetFloatStatus(_NoArgs):
    """``NPUGetFloatStatus()(x)``: write into the status tensor ``x`` (in place, as MindSpore does) and
    return whether an overflow was recorded since it was allocated or cleared: its first element is 1.0
    then, every element 0 otherwise, so ``sum(x) > 0`` means overflow."""

    def __call__(self, x: Any) -> Any:
        a = x._data
        flat = jnp.zeros((a.size,), a.dtype).at[0].set(_float_status.flag(x).astype(a.dtype))
        x._data = flat.reshape(a.shape)
        return x
