"""Operator classes MindSpore 2.x removed that programs still use, with MindSpore 1.x's behaviour and a
one-time DeprecationWarning naming the 2.x replacement (see :mod:`sporax._deprecated`)."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._deprecated import warn_removed
from ._primitive import Primitive

__all__ = ["ControlDepend", "Sum", "control_depend"]


class ControlDepend(Primitive):
    """MindSpore 1.x's ``ControlDepend(depend_mode=0)``: ``control_depend(src, dst)`` orders ``src`` before
    ``dst`` and returns ``src``. XLA orders state updates by data flow, so no edge is needed; use
    ``ops.Depend`` (``ops.depend``) in new code."""

    def __init__(self, depend_mode: int = 0) -> None:
        warn_removed("ops.ControlDepend", "ops.Depend")
        Primitive.__init__(self, "ControlDepend")
        validator.check_int_range(depend_mode, 0, 1, validator.INC_BOTH, "depend_mode", "ControlDepend")
        self.depend_mode = depend_mode
        self.add_prim_attr("depend_mode", depend_mode)

    def __call__(self, src: Any, dst: Any) -> Any:
        return src


def control_depend(src: Any, dst: Any) -> Any:
    """MindSpore 1.x's ``F.control_depend(src, dst)``: returns ``src`` (see :class:`ControlDepend`)."""
    warn_removed("ops.functional.control_depend", "ops.depend")
    return src


class Sum(Primitive):
    """The removed ``ops.operations.Sum``: ``Sum()(input, dim=None, keepdim=False, dtype=None)`` sums over
    ``dim`` (all dimensions when None), as ``ops.sum`` does."""

    def __init__(self) -> None:
        warn_removed("ops.operations.Sum", "ops.sum")
        Primitive.__init__(self, "Sum")

    def __call__(self, input: Any, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Any:  # noqa: A002
        from ..function import sum as _sum

        return _sum(input, dim, keepdim, dtype=dtype)
