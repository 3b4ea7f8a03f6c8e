"""XLA's cost analysis of the programs a :class:`~._jit.StatefulJit` has compiled (``flops_collection``).

A StatefulJit keeps one entry per input signature, and with it the trace made when the entry was built. The
cost analysis replays that trace (:func:`~._jit.record_free`: the user's code is not run again, so a Cell
switched to training since, or state the program never bound, changes nothing) with the index checks' error
record as an empty constant (their bookkeeping is not the network's arithmetic: the count is MindSpore's),
lowers it for the entry's abstract inputs and compiles it with the entry's XLA options; XLA's ``cost_analysis()`` of the executable gives
the floating-point operations of one call.
"""

from __future__ import annotations

from typing import Any

import jax

from ._jit import record_free

__all__ = ["program_flops"]


def _aval(x: Any) -> jax.ShapeDtypeStruct:
    return jax.ShapeDtypeStruct(x.shape, x.dtype)


def _entry_flops(key: Any, entry: Any) -> float:
    _tree, dyn_pos, skey, _epoch = key
    dyn = [jax.ShapeDtypeStruct(*skey[i]) for i in dyn_pos]
    values = [_aval(h._stored) for h in entry.state]
    nd = entry.n_donated
    lowered = jax.jit(record_free(entry), compiler_options=entry.options or None).lower(values[:nd], values[nd:], dyn)
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
