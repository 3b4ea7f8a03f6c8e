"""Small top-level helpers of ``mindspore.common``: ``swap_tensors``, ``set_recursion_limit`` and ``Symbol``."""

from __future__ import annotations

import sys
from typing import Any

from .. import _checkparam as validator
from .._checkparam import check_instance

__all__ = ["swap_tensors", "set_recursion_limit", "Symbol"]


def swap_tensors(t1: Any, t2: Any) -> None:
    """Swap the contents (value, shape, dtype, and for Parameters their Python state) of two tensors in place;
    each object keeps its identity."""
    from .tensor import Tensor

    for name, t in (("t1", t1), ("t2", t2)):
        check_instance(t, Tensor, name, "swap_tensors")
    if type(t1) is not type(t2):
        raise RuntimeError(
            f"For 'swap_tensors', both tensors must be of the same class, but got {type(t1).__name__} and "
            f"{type(t2).__name__}."
        )
    d1 = getattr(t1, "__dict__", None)
    if d1 is not None:  # a Parameter: its name, requires_grad... travel with the value
        t1.__dict__, t2.__dict__ = t2.__dict__, d1
        for slot in ("_name", "requires_grad", "layerwise_parallel", "parallel_optimizer", "_param_info"):
            a, b = getattr(t1, slot), getattr(t2, slot)
            setattr(t1, slot, b)
            setattr(t2, slot, a)
    t1._data, t2._data = t2._data, t1._data


def set_recursion_limit(recursion_limit: int = 1000) -> None:
    """The call-depth limit while a function is compiled (MindSpore's ``max_call_depth``). sporax compiles by
    tracing Python, so Python's own recursion limit is raised to it when lower."""
    recursion_limit = validator.check_positive_int(recursion_limit)
    from .. import context

    context.set_context(max_call_depth=recursion_limit)
    if sys.getrecursionlimit() < recursion_limit:
        sys.setrecursionlimit(recursion_limit)


class Symbol:
    """A symbolic dimension for a dynamic-shape input (``Tensor(shape=[Symbol(max=8, divisor=2), 3])``): its
    bounds, divisor and remainder. :meth:`accepts` checks a concrete size against it."""

    def __init__(
        self, max: int = 0, min: int = 1, divisor: int = 1, remainder: int = 0, unique: bool = False, **kwargs: Any
    ) -> None:  # noqa: A002
        for arg, value, kind in (
            ("max", max, int),
            ("min", min, int),
            ("divisor", divisor, int),
            ("remainder", remainder, int),
            ("unique", unique, bool),
        ):
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"For 'Symbol', the argument '{arg}' must be {kind.__name__}, but got {type(value)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got {divisor}")
        if remainder < 0 or remainder >= divisor:
            raise ValueError(
                f"For 'Symbol', the 'remainder' value should be in the range '[0, {divisor})', but got {remainder}"
            )
        self.max, self.min, self.divisor, self.remainder, self.unique = max, min, divisor, remainder, unique
        self.id = id(self)

    def to_dict(self) -> dict[str, int]:
        """The constraints that differ from the defaults (MindSpore's form)."""
        res: dict[str, int] = {}
        if self.max > self.min:
            res["max"] = self.max
        if self.min > self.divisor + self.remainder:
            res["min"] = self.min
        if self.divisor != 1:
            res["divisor"] = self.divisor
        if self.remainder != 0:
            res["remainder"] = self.remainder
        if self.unique:
            res["id"] = self.id
        return res

    def accepts(self, size: int) -> bool:
        """Whether a dimension of ``size`` satisfies this symbol."""
        if size < self.min or (self.max > self.min and size > self.max):
            return False
        return size % self.divisor == self.remainder

    def __str__(self) -> str:
        return str(self.to_dict())
