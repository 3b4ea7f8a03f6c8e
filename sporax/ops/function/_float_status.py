"""The overflow status behind MindSpore's float-status primitives (``NPUAllocFloatStatus``,
``NPUClearFloatStatus``, ``NPUGetFloatStatus``), on every backend.

On Ascend a hardware register records every overflow since it was last cleared; a loss-scale cell
allocates a status tensor, clears it, makes it depend on the loss and the gradients
(``init = F.depend(init, grads)``), reads the register into it and sums it. sporax has no such register:
a status tensor remembers, from the moment it is allocated or cleared, whether any tensor it was made to
depend on held an inf or a NaN, which is exactly what those programs ask for. ``ops.depend`` calls
:func:`note` for a status tensor; nothing else is slowed down (one dict lookup while a status is live).
"""

from __future__ import annotations

import weakref
from typing import Any

from ..._engine import jax, jnp
from ...common.tensor import Tensor

__all__ = ["LIVE", "track", "note", "flag", "overflow"]

#: id(status tensor) -> [weak reference to it, overflow flag (a bool array) or None]
LIVE: dict[int, list[Any]] = {}


def overflow(tree: Any) -> Any:
    """A bool array: whether any float Tensor in ``tree`` holds an inf or a NaN."""
    leaves = [
        t._data
        for t in jax.tree_util.tree_leaves(tree, is_leaf=lambda v: isinstance(v, Tensor))
        if isinstance(t, Tensor) and jnp.issubdtype(t._data.dtype, jnp.inexact)
    ]
    out = jnp.zeros((), bool)
    for a in leaves:
        out = out | ~jnp.all(jnp.isfinite(a))
    return out


def track(status: Tensor) -> Tensor:
    """Start (or restart) recording overflows for ``status``."""
    key = id(status)
    if key not in LIVE:
        weakref.finalize(status, LIVE.pop, key, None)
    LIVE[key] = [weakref.ref(status), None]
    return status


def _entry(status: Any) -> Any:
    entry = LIVE.get(id(status))
    return entry if entry is not None and entry[0]() is status else None


def note(status: Any, expr: Any) -> None:
    """``ops.depend(status, expr)``: record whether ``expr`` overflowed."""
    entry = _entry(status)
    if entry is not None:
        seen = overflow(expr)
        entry[1] = seen if entry[1] is None else entry[1] | seen


def flag(status: Any) -> Any:
    """The recorded overflow of ``status`` (False when it recorded nothing)."""
    entry = _entry(status)
    return jnp.zeros((), bool) if entry is None or entry[1] is None else entry[1]
