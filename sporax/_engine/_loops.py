"""Loops over steps with state carried: the heart of sink mode (DESIGN §4).

:func:`scan_steps` runs ``fn(x)`` once per leading slice of ``xs`` inside one ``lax.scan``. The holders
``fn`` writes (weights, optimizer moments, the step counter, the RNG key, BatchNorm statistics) are the
scan's carry; holders it only reads are closed over. Called inside a compiled function (``jit``), N
training steps become one program and one host call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax

from . import _state


def _leading(xs: Any) -> int:
    leaves = jax.tree_util.tree_leaves(xs)
    if not leaves:
        raise ValueError("scan_steps needs at least one stacked input.")
    n = leaves[0].shape[0]
    for leaf in leaves:
        if leaf.shape[0] != n:
            raise ValueError(
                f"scan_steps: every stacked input needs the same leading size, got {n} and {leaf.shape[0]}."
            )
    return n


def scan_steps(fn: Callable[[Any], Any], xs: Any) -> Any:
    """Stack of ``fn(x)`` for each ``x`` along the leading axis of ``xs`` (a pytree of Tensors/arrays),
    with Parameter writes carried from step to step and applied at the end."""
    _leading(xs)
    first = jax.tree_util.tree_map(lambda a: a[0], xs)
    found: dict[str, list[Any]] = {}

    def probe(x: Any) -> Any:
        with _state.Frame(discover=True) as fr:
            out = fn(x)
        found["writes"] = fr.changed_writes
        return [leaf for leaf in jax.tree_util.tree_leaves(out) if hasattr(leaf, "shape")]

    jax.eval_shape(probe, first)
    holders = found["writes"]
    init = [_state.read(h) for h in holders]

    def body(carry: list[Any], x: Any) -> Any:
        with _state.Frame(zip(holders, carry, strict=True)) as fr:
            out = fn(x)
        new = [fr.value(h) for h in holders]
        for h, old, v in zip(holders, carry, new, strict=True):
            if v.shape != old.shape or v.dtype != old.dtype:
                raise TypeError(
                    f"A step must keep each state's shape and dtype, but {getattr(h, 'name', 'a state')} went from "
                    f"{old.dtype}{list(old.shape)} to {v.dtype}{list(v.shape)}."
                )
        return new, out

    final, outs = jax.lax.scan(body, init, xs)
    for h, v in zip(holders, final, strict=True):
        _state.write(h, v)
    return outs
