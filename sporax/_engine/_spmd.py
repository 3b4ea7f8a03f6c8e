"""Semi-auto parallel on XLA's SPMD partitioner (DESIGN §6): MindSpore's sharding strategies and layouts as
sharding annotations on a global device mesh.

MindSpore describes how a tensor is split in two ways, both mapped here to a ``NamedSharding``:

- a *strategy* ``(2, 1)``: dimension ``i`` cut into ``s[i]`` parts; the devices left over (``device_num /
  prod(s)``) hold copies. The mesh is ``(copies, s[0], s[1], ...)`` over the first ``device_num`` devices;
- a *layout* (``Layout((2, 2, 2), ("dp", "sp", "mp"))("dp", "mp")``): the device matrix is the mesh, its alias
  names the mesh axes, and the tensor map (MindSpore's reversed axis indices, ``-1`` for "not split") names the
  axes each dimension is cut along.

:func:`constrain` pins a traced value to such a sharding (``with_sharding_constraint``), or places a concrete
array; XLA's partitioner then splits every operation and inserts the collectives, and its sharding propagation
fills in whatever was not annotated (MindSpore's AUTO_PARALLEL strategy search). :func:`comm_bytes` counts
the bytes the collectives of a compiled program move.

In one process the mesh is the process's devices (simulated CPU devices with
``--xla_force_host_platform_device_count``); across processes started by ``sporax launch`` it is every
process's devices, in rank order.
"""

from __future__ import annotations

import contextlib
import math
import re
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

__all__ = [
    "device_count",
    "mesh",
    "sharding_for_strategy",
    "sharding_for_layout",
    "split_dim0",
    "constrain",
    "place",
    "comm_bytes",
    "gather_local",
    "register_batch_policy",
    "global_inputs",
    "stacked_inputs",
]

_meshes: dict[tuple, Mesh] = {}


def device_count() -> int:
    """The devices of the global mesh: every process's."""
    return jax.device_count()


def _devices(n: int, rank_list: Sequence[int] | None = None) -> list[Any]:
    devs = sorted(jax.devices(), key=lambda d: (d.process_index, d.id))
    if n > len(devs):
        raise ValueError(
            f"The parallel context asks for {n} devices, but this job has {len(devs)} (start more processes with "
            "'sporax launch', or simulate CPU devices with XLA_FLAGS=--xla_force_host_platform_device_count)."
        )
    if rank_list is not None:
        return [devs[r] for r in rank_list]
    return devs[:n]


def mesh(shape: Sequence[int], names: Sequence[str], rank_list: Sequence[int] | None = None) -> Mesh:
    """The mesh of ``shape`` (named ``names``) over the first ``prod(shape)`` devices (or ``rank_list``'s)."""
    key = (tuple(shape), tuple(names), tuple(rank_list) if rank_list is not None else None)
    m = _meshes.get(key)
    if m is None:
        n = math.prod(shape)
        m = _meshes[key] = Mesh(np.array(_devices(n, rank_list), dtype=object).reshape(tuple(shape)), tuple(names))
    return m


def sharding_for_strategy(strategy: Sequence[int], device_num: int) -> NamedSharding:
    """A strategy tuple (``(2, 1)``: dimension 0 cut in two) over ``device_num`` devices; the devices left over
    hold copies (MindSpore's repeated calculation, the device matrix's first axis)."""
    parts = math.prod(strategy)
    if parts < 1 or device_num % parts:
        raise ValueError(
            f"The strategy {tuple(strategy)} cuts a tensor into {parts} parts, which does not divide the "
            f"{device_num} devices."
        )
    names = ("rep", *(f"d{i}" for i in range(len(strategy))))
    m = mesh((device_num // parts, *strategy), names)
    return NamedSharding(m, PartitionSpec(*(names[i + 1] if s > 1 else None for i, s in enumerate(strategy))))


def sharding_for_layout(
    device_matrix: Sequence[int],
    alias_name: Sequence[str],
    tensor_map: Sequence[Any],
    rank_list: Sequence[int] | None = None,
) -> NamedSharding:
    """MindSpore's layout: the device matrix as the mesh, the tensor map (reversed axis indices, -1: not split,
    a tuple: split along several axes) naming each dimension's mesh axes."""
    n = len(alias_name)
    interleaved = "interleaved_parallel" in alias_name
    shape = [d for d, a in zip(device_matrix, alias_name) if a != "interleaved_parallel"]
    names = [a for a in alias_name if a != "interleaved_parallel"]
    m = mesh(shape, names, rank_list)

    def axes(entry: Any) -> Any:
        if isinstance(entry, (tuple, list)):
            got = tuple(a for a in (axes(e) for e in entry) if a is not None)
            return got or None
        if entry == -1:
            return None
        name = alias_name[n - 1 - entry]
        return None if interleaved and name == "interleaved_parallel" else name

    return NamedSharding(m, PartitionSpec(*(axes(e) for e in tensor_map)))


def split_dim0(shard_size: int, device_num: int, shape: Sequence[int]) -> NamedSharding | None:
    """Dimension 0 cut into ``shard_size`` parts, copies over the other devices (the parallel optimizer's
    layout of a weight's optimizer state); None when dimension 0 does not divide."""
    if not shape or shard_size <= 1 or shape[0] % shard_size or device_num % shard_size:
        return None
    return sharding_for_strategy((shard_size,) + (1,) * (len(shape) - 1), device_num)


def constrain(x: Any, sharding: NamedSharding) -> Any:
    """``x`` laid out as ``sharding``: an annotation while tracing, a placement for a concrete array."""
    if isinstance(x, jax.core.Tracer):
        return jax.lax.with_sharding_constraint(x, sharding)
    return place(x, sharding)


def place(x: Any, sharding: NamedSharding) -> Any:
    """A concrete array laid out as ``sharding`` (across processes: each process gives the whole array); also
    while a function is traced (the placement happens now, not in the program)."""
    if getattr(x, "sharding", None) == sharding:
        return x
    with jax.ensure_compile_time_eval():
        if jax.process_count() == 1 or not getattr(x, "is_fully_addressable", True):
            return jax.device_put(x, sharding)
        x = np.asarray(x)
        return jax.make_array_from_callback(x.shape, sharding, lambda idx: x[idx])


_batch_policy: list[Any] = [None]  # () -> devices a step's inputs are split over (0: not split); see below
_tls = threading.local()  # .batch_axis: the inputs' batch axis (1 for a sink's stacked batches)


@contextlib.contextmanager
def stacked_inputs() -> Iterator[None]:
    """The compiled calls inside take stacked batches (a dataset sink's ``(steps, batch, ...)``): their batch
    is axis 1."""
    prev = getattr(_tls, "batch_axis", 0)
    _tls.batch_axis = 1
    try:
        yield
    finally:
        _tls.batch_axis = prev


def register_batch_policy(fn: Any) -> None:
    """``fn()``: over how many devices the inputs of a compiled step are one batch split along dimension 0,
    each process giving its part (0: every process gives the whole inputs). ``sporax.ops._sharding``
    registers MindSpore's rule (semi-auto parallel with ``full_batch=False``)."""
    _batch_policy[0] = fn


def global_inputs(xs: list[Any]) -> list[Any]:
    """A compiled step's inputs laid out as the batch policy says (MindSpore's dataset layout): a device
    count ``n``: each input split along its batch axis (0; 1 under :func:`stacked_inputs`) over ``n`` devices;
    ``(n, strategies)``: input ``i`` split as ``strategies[i]``. Across processes each process's inputs are its part (rank order); in one process the
    whole inputs are laid out (an input the layout does not divide stays as it is). The inputs themselves
    when the policy says 0."""
    if _batch_policy[0] is None:
        return xs
    policy = _batch_policy[0]()
    if not policy:
        return xs
    n, strategies = policy if isinstance(policy, tuple) else (policy, None)
    axis = getattr(_tls, "batch_axis", 0)
    out = []
    for i, x in enumerate(xs):
        ndim = np.ndim(x)
        if strategies is not None:
            if i >= len(strategies) or len(strategies[i]) != ndim - axis:
                out.append(x)
                continue
            strategy = (1,) * axis + tuple(strategies[i])
        else:
            strategy = tuple(n if d == axis else 1 for d in range(ndim)) if ndim > axis else ()
        if not ndim or math.prod(strategy) <= 1:
            out.append(x)
            continue
        sharding = sharding_for_strategy(strategy, n)
        if jax.process_count() > 1:
            if getattr(x, "is_fully_addressable", True):
                x = jax.make_array_from_process_local_data(sharding, np.asarray(x))
        elif all(d % s == 0 for d, s in zip(np.shape(x), strategy)):
            x = jax.device_put(x, sharding)
        out.append(x)
    return out


def gather_local(x: Any) -> Any:
    """A sharded array as one whole host array, on every process."""
    if getattr(x, "is_fully_addressable", True):
        return x
    from jax.experimental import multihost_utils

    return multihost_utils.process_allgather(x, tiled=True)


# ---------------------------------------------------------------- communication volume of a compiled program
_KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute")
_COLLECTIVE = re.compile(
    r"=\s*(?P<type>.*?)\s+(?P<op>" + "|".join(_KINDS) + r")(?P<start>-start)?\((?P<operands>[^)]*)\)"
)
_ARRAY = re.compile(r"(pred|s8|u8|s16|u16|bf16|f16|s32|u32|f32|s64|u64|f64|c64|c128)\[([0-9,]*)\]")
_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "bf16": 2, "f16": 2, "s32": 4, "u32": 4, "f32": 4}
_BYTES.update({"s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16})


def comm_bytes(hlo_text: str) -> dict[str, int]:
    """Bytes each kind of collective produces per device in an (SPMD-partitioned) HLO module's text: the
    result shapes of its ``all-reduce``, ``all-gather``, ``reduce-scatter``, ``all-to-all`` and
    ``collective-permute`` instructions (an async ``-start`` counted by its result)."""
    out: dict[str, int] = {}
    for line in hlo_text.splitlines():
        m = _COLLECTIVE.search(line)
        if m is None:
            continue
        op = m.group("op")
        arrays = [
            _BYTES[t] * math.prod(int(d) for d in dims.split(",") if d) for t, dims in _ARRAY.findall(m.group("type"))
        ]
        operands = [o.strip().split(" ")[-1] for o in m.group("operands").split(",") if o.strip()]
        if m.group("start") and op in ("all-gather", "collective-permute") and len(arrays) == 2 * len(operands):
            arrays = arrays[len(operands) :]  # an async start's type is (operands, results)
        out[op] = out.get(op, 0) + sum(arrays)
    return out
