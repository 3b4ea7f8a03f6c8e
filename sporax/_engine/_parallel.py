"""Data parallel across processes (DESIGN §6): the process group and the collectives.

One process is one rank with one device, as in MindSpore. The process group and the mesh are in
:mod:`._mesh` (re-exported here); :func:`initialize` joins the group and connects the ranks.

A collective (all-reduce, all-gather, broadcast ...) communicates only inside a compiled program that
runs on every rank: such a program is a ``shard_map`` over the mesh, one copy per device. Its inputs and
outputs are declared replicated (``PartitionSpec()``) with ``check_vma=False``, but each device keeps and
returns its own values; only the collectives exchange data. That is MindSpore's semantics, each rank
running its own graph on its own batch, with its own loss and its own BatchNorm statistics.
:class:`~._jit.StatefulJit` builds that program when its discovery pass meets a collective
(:func:`collective` asks for it); programs without collectives stay local to their process. An eager
collective is a small compiled program of its own. With one rank every collective is the identity.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ._jit import StatefulJit, request_data_parallel
from ._mesh import (  # noqa: F401  (the process group's API, re-exported)
    AXIS,
    ENV_COORDINATOR,
    ENV_LOCAL_RANK,
    ENV_LOCAL_SIZE,
    ENV_NUM_PROCESSES,
    ENV_PROCESS_ID,
    in_program,
    join,
    launched,
    local_rank,
    local_size,
    quiet_fds,
    rank,
    size,
    to_global,
    to_local,
    wrap_program,
)

_connected = [False]


def initialize() -> None:
    """Join the process group described by the launcher's environment and connect the ranks with a first
    collective (no-op for one process, and when already done)."""
    join()
    if _connected[0] or not launched():
        return
    _connected[0] = True
    with quiet_fds():  # the first collective connects the ranks; Gloo prints a line per rank doing it
        barrier()


# ---------------------------------------------------------------------------- the collectives
REDUCE_OPS = ("sum", "max", "min", "prod")


def collective(kind: str, x: Any, op: str = "sum", root: int = 0) -> Any:
    """One collective over all ranks: ``all_reduce`` (op), ``all_gather`` (concatenated along axis 0),
    ``reduce_scatter`` (op, then this rank's slice of axis 0), ``broadcast`` (rank ``root``'s value).

    Eager: runs a compiled program on every rank. While tracing the per-device body: the collective.
    While a StatefulJit discovers its state: asks it to build a data-parallel program (and returns a
    value of the right shape)."""
    n = size()
    if n == 1:
        return x
    if not isinstance(x, jax.core.Tracer):
        return _eager(kind, op, root)(x)
    if in_program():
        return _traced(kind, x, op, root, n)
    if not request_data_parallel():
        raise RuntimeError(
            f"sporax: a collective ('{kind}') can only run in a compiled function (GRAPH_MODE, jit, a "
            "train-step cell) or eagerly, not inside this transformation."
        )
    return _shaped_like(kind, x, n)


def _traced(kind: str, x: Any, op: str, root: int, n: int) -> Any:
    if kind == "all_reduce":
        if op == "sum":
            return lax.psum(x, AXIS)
        if op == "max":
            return lax.pmax(x, AXIS)
        if op == "min":
            return lax.pmin(x, AXIS)
        return jnp.prod(lax.all_gather(x, AXIS), axis=0).astype(x.dtype)
    if kind == "all_gather":
        return lax.all_gather(x, AXIS, tiled=True)
    if kind == "broadcast":
        return lax.all_gather(x, AXIS)[root]
    if kind == "reduce_scatter":
        if op == "sum":
            return lax.psum_scatter(x, AXIS, scatter_dimension=0, tiled=True)
        full = _traced("all_reduce", x, op, root, n)
        k = x.shape[0] // n
        return lax.dynamic_slice_in_dim(full, lax.axis_index(AXIS) * k, k, axis=0)
    raise ValueError(f"unknown collective {kind!r}")


def _shaped_like(kind: str, x: Any, n: int) -> Any:
    if kind == "all_gather":
        return jnp.concatenate([x] * n, axis=0)
    if kind == "reduce_scatter":
        return x[: x.shape[0] // n]
    return x


_programs: dict[Any, Callable[..., Any]] = {}


def _program(key: Any, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` compiled for eager calls: a program every rank runs (built the first time)."""
    prog = _programs.get(key)
    if prog is None:
        prog = _programs[key] = StatefulJit(fn, fallback="raise", name=str(key[0]))
    return prog


def _eager(kind: str, op: str, root: int) -> Callable[..., Any]:
    return _program((kind, op, root), lambda x: collective(kind, x, op, root))


def barrier() -> None:
    """Wait until every rank gets here."""
    if size() > 1:
        collective("all_reduce", jnp.zeros((), jnp.int32)).block_until_ready()


def all_reduce_sum_fused(xs: list[Any]) -> list[Any]:
    """The sums over all ranks of several arrays, with one all-reduce per dtype (the arrays flattened
    into one buffer): gradients of a whole network in one exchange."""
    if size() == 1:
        return list(xs)
    if not any(isinstance(x, jax.core.Tracer) for x in xs):
        return _program(("all_reduce_fused",), all_reduce_sum_fused)(list(xs))
    out: list[Any] = list(xs)
    by_dtype: dict[Any, list[int]] = {}
    for i, x in enumerate(xs):
        by_dtype.setdefault(jnp.result_type(x), []).append(i)
    for idx in by_dtype.values():
        flat = jnp.concatenate([jnp.ravel(xs[i]) for i in idx])
        total = collective("all_reduce", flat)
        start = 0
        for i in idx:
            n = int(np.prod(jnp.shape(xs[i])))
            out[i] = total[start : start + n].reshape(jnp.shape(xs[i]))
            start += n
    return out


def broadcast_many(xs: list[Any], root: int = 0) -> list[Any]:
    """Rank `root`'s values of several arrays, in one program."""
    if size() == 1:
        return list(xs)
    if not any(isinstance(x, jax.core.Tracer) for x in xs):
        return _program(("broadcast_many", root), lambda v: broadcast_many(v, root))(list(xs))
    return [collective("broadcast", x, root=root) for x in xs]
