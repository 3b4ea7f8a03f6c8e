"""XLA's cost analysis of the programs a :class:`~._jit.StatefulJit` has compiled (``flops_collection``).

A StatefulJit keeps one entry per input signature; the signature's dynamic inputs are the ``(shape, dtype)``
pairs of its cache key, and the implicit state is read from the holders the entry binds. The program is
lowered again for those abstract values and compiled; XLA's ``cost_analysis()`` of the executable gives
the floating-point operations of one call.
"""

from __future__ import annotations

from typing import Any

import jax

from ._jit import _Retrace

__all__ = ["program_flops"]


def _aval(x: Any) -> jax.ShapeDtypeStruct:
    return jax.ShapeDtypeStruct(x.shape, x.dtype)


def _entry_flops(key: Any, entry: Any) -> float:
    _treedef, dyn_pos, skey, _epoch = key
    dyn = [jax.ShapeDtypeStruct(*skey[i]) for i in dyn_pos]
    values = [_aval(h._stored) for h in entry.state]
    nd = entry.n_donated
    try:
        # lowered without the error record (an empty one): the index checks' own arithmetic is not counted
        lowered = entry.compiled.lower(values[:nd], values[nd:], dyn)
    except _Retrace:
        # tracing again read state the program never bound (a Cell switched to training since it was built:
        # its dropout reads a seed): the trace made when the entry was built, record included
        lowered = entry.traced.lower()
    cost = lowered.compile().cost_analysis()
    if isinstance(cost, list | tuple):  # older jaxlib: one dict per computation
        cost = cost[0] if cost else {}
    return float((cost or {}).get("flops", 0.0))


def program_flops(sjit: Any) -> float | None:
    """The FLOPs of one call of the program ``sjit`` compiled last (None if it has compiled nothing or
    runs eagerly)."""
    if sjit.eager or not sjit._cache:
        return None
    key, entry = list(sjit._cache.items())[-1]
    if entry.data_parallel:
        return None
    return _entry_flops(key, entry)
