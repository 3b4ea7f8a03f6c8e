"""Data parallel across processes (DESIGN §6): the process group and the collectives.

One process is one rank with one device, as in MindSpore. ``sporax launch`` starts the processes with the
coordinator's address in the environment; :func:`initialize` joins them with ``jax.distributed`` and
builds a one-axis mesh (``"dp"``) of the ranks' devices, in rank order.

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

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import Mesh, NamedSharding, PartitionSpec

AXIS = "dp"

# Set by `sporax launch` for each process it starts.
ENV_COORDINATOR = "SPORAX_COORDINATOR"
ENV_NUM_PROCESSES = "SPORAX_NUM_PROCESSES"
ENV_PROCESS_ID = "SPORAX_PROCESS_ID"
ENV_LOCAL_RANK = "SPORAX_LOCAL_RANK"
ENV_LOCAL_SIZE = "SPORAX_LOCAL_SIZE"

_world: dict[str, Any] = {"started": False, "rank": 0, "size": 1, "local_rank": 0, "local_size": 1}
_mesh: list[Any] = [None, None]  # Mesh, replicated NamedSharding
_tls = threading.local()  # .bound: tracing the per-device body of a data-parallel program


def launched() -> bool:
    """Whether this process was started by ``sporax launch`` (with a coordinator to join)."""
    return ENV_COORDINATOR in os.environ and int(os.environ.get(ENV_NUM_PROCESSES, "1")) > 1


def initialize() -> None:
    """Join the process group described by the launcher's environment (no-op for one process, and when
    already joined). Must run before the first computation: ``sporax run`` calls it under the launcher."""
    if _world["started"]:
        return
    _world["started"] = True
    if not launched():
        return
    size = int(os.environ[ENV_NUM_PROCESSES])
    rank = int(os.environ[ENV_PROCESS_ID])
    local_rank = int(os.environ.get(ENV_LOCAL_RANK, "0"))
    try:
        jax.distributed.initialize(
            coordinator_address=os.environ[ENV_COORDINATOR],
            num_processes=size,
            process_id=rank,
            local_device_ids=[local_rank] if _has_gpu_plugin() else None,
        )
    except RuntimeError as err:
        raise RuntimeError(
            f"sporax: rank {rank} of {size} could not join the process group at {os.environ[ENV_COORDINATOR]}: {err}"
        ) from None
    first: dict[int, Any] = {}
    for d in sorted(jax.devices(), key=lambda d: (d.process_index, d.id)):
        first.setdefault(d.process_index, d)
    devices = [first[p] for p in sorted(first)]
    mesh = Mesh(np.array(devices), (AXIS,))
    _mesh[0], _mesh[1] = mesh, NamedSharding(mesh, PartitionSpec())
    _world.update(
        rank=jax.process_index(),
        size=jax.process_count(),
        local_rank=local_rank,
        local_size=int(os.environ.get(ENV_LOCAL_SIZE, "1")),
    )
    with _quiet_fds():  # the first collective connects the ranks; Gloo prints a line per rank doing it
        barrier()


@contextlib.contextmanager
def _quiet_fds() -> Iterator[None]:
    """Silence what native code writes to stdout and stderr."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


def _has_gpu_plugin() -> bool:
    import importlib.util

    return any(importlib.util.find_spec(m) is not None for m in ("jax_cuda13_plugin", "jax_cuda12_plugin"))


def rank() -> int:
    return int(_world["rank"])


def size() -> int:
    return int(_world["size"])


def local_rank() -> int:
    return int(_world["local_rank"])


def local_size() -> int:
    return int(_world["local_size"])


# ---------------------------------------------------------------------- programs over the mesh
def wrap_program(body: Callable[..., Any]) -> Callable[..., Any]:
    """``body`` (any positional pytrees in, a pytree out) as one copy per rank, collectives bound."""

    def per_device(*args: Any) -> Any:
        prev = getattr(_tls, "bound", False)
        _tls.bound = True
        try:
            return body(*args)
        finally:
            _tls.bound = prev

    def call(*args: Any) -> Any:
        spec = tuple(PartitionSpec() for _ in args)
        return jax.shard_map(per_device, mesh=_mesh[0], in_specs=spec, out_specs=PartitionSpec(), check_vma=False)(
            *args
        )

    return call


def to_global(x: Any) -> Any:
    """This rank's array as its part of a mesh-wide array (no copy)."""
    return jax.make_array_from_single_device_arrays(x.shape, _mesh[1], [x])


def to_local(x: Any) -> Any:
    """This rank's part of a mesh-wide array."""
    return x.addressable_data(0)


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
    if getattr(_tls, "bound", False):
        return _traced(kind, x, op, root, n)
    from ._jit import request_data_parallel

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
        from ._jit import StatefulJit

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
