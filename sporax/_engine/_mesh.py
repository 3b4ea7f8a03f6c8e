"""The process group and the device mesh (DESIGN §6): who this rank is, and programs over all ranks.

One process is one rank with one device, as in MindSpore. ``sporax launch`` starts the processes with the
coordinator's address in the environment; :func:`join` joins them with ``jax.distributed`` and builds a
one-axis mesh (``"dp"``) of the ranks' devices, in rank order. :func:`wrap_program` makes a function one
copy per rank over that mesh (a ``shard_map``), which :class:`~._jit.StatefulJit` uses when a traced
function meets a collective. The collectives themselves are in :mod:`._parallel` (above ``_jit``: an eager
collective is a small compiled program of its own); this module sits below both.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from . import _progress

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


def join() -> None:
    """Join the process group described by the launcher's environment (no-op for one process, and when
    already joined). Must run before the first computation: ``sporax._engine`` calls it at import under
    the launcher; :func:`._parallel.initialize` then connects the ranks with a first collective."""
    if _world["started"]:
        return
    _world["started"] = True
    if not launched():
        return
    size = int(os.environ[ENV_NUM_PROCESSES])
    rank = int(os.environ[ENV_PROCESS_ID])
    local_rank = int(os.environ.get(ENV_LOCAL_RANK, "0"))
    # The launcher's hang detection counts joining as this rank's first collective (_progress), and the
    # cluster's start waits as long as msrun's --cluster_time_out (MS_TOPO_TIMEOUT; 0 or negative: without end),
    # a little longer than the launcher, so that the launcher names a rank that never joined.
    _progress.entered("joining the process group")
    topo = int(os.environ.get("MS_TOPO_TIMEOUT", "300"))
    try:
        jax.distributed.initialize(
            coordinator_address=os.environ[ENV_COORDINATOR],
            num_processes=size,
            process_id=rank,
            local_device_ids=[local_rank] if _has_gpu_plugin() else None,
            initialization_timeout=topo + 30 if topo > 0 else 10**7,
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


@contextlib.contextmanager
def quiet_fds() -> Iterator[None]:
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


def in_program() -> bool:
    """Whether the per-device body of a data-parallel program is being traced (collectives are bound)."""
    return bool(getattr(_tls, "bound", False))
