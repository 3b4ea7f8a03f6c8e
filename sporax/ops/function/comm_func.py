"""Collective communication functions of ``mindspore.ops`` (``ops.all_reduce``, ``ops.all_gather``,
``ops.init_process_group`` ...), which ``mint.distributed`` shares: the process group and the tensor
collectives. Point-to-point and object functions are in ``comm_p2p_func``.

They run over the world group of the processes ``sporax launch`` started, on the same collectives as
``ops.AllReduce`` and ``communication.comm_func`` (``_engine/_parallel``): each call is a small program run
on every rank (every rank must make the same calls in the same order, with the same shapes). Gather,
scatter, all-to-all and the uneven forms are built from all-gather and broadcast (padding to the largest
piece where sizes differ), so they move more bytes than dedicated kernels would; their results are exact.

As in MindSpore 2.10 they work in place by default: the result is written into the output tensor given
(or `tensor`) and the function returns the handle (None unless ``async_op=True``).
``set_comm_ops_inplace(False)`` makes the ``ops`` functions return ``(output, handle)`` instead and leave
their arguments alone; ``mint.distributed`` always works in place.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import _parallel
from ...common.tensor import Tensor
from .._utils import arr, jnp, wrap
from ..operations.comm_ops import GlobalComm, check_group

__all__ = [
    "set_comm_ops_inplace",
    "is_available",
    "is_initialized",
    "init_process_group",
    "destroy_process_group",
    "get_rank",
    "get_world_size",
    "new_group",
    "get_backend",
    "get_global_rank",
    "get_group_rank",
    "get_process_group_ranks",
    "all_reduce",
    "all_gather_into_tensor",
    "all_gather_into_tensor_uneven",
    "reduce_scatter_tensor",
    "reduce_scatter_tensor_uneven",
    "reduce",
    "broadcast",
    "barrier",
    "all_gather",
    "reduce_scatter",
    "gather_into_tensor",
    "scatter_tensor",
    "all_to_all",
    "all_to_all_single",
    "all_to_all_v_c",
]

_COMM_FUNCS = (
    "all_reduce",
    "all_gather_into_tensor",
    "all_gather_into_tensor_uneven",
    "all_to_all",
    "all_to_all_single",
    "reduce_scatter_tensor",
    "reduce_scatter_tensor_uneven",
    "isend",
    "irecv",
    "send",
    "recv",
    "gather",
    "scatter",
    "all_gather",
    "reduce_scatter",
    "barrier",
    "broadcast",
    "reduce",
    "batch_isend_irecv",
    "all_gather_object",
    "broadcast_object_list",
    "gather_object",
    "scatter_object_list",
    "send_object_list",
    "recv_object_list",
    "gather_into_tensor",
    "scatter_tensor",
    "all_to_all_v_c",
)
_INPLACE = dict.fromkeys(_COMM_FUNCS, True)
REDUCE_OP_NAMES = ("sum", "prod", "min", "max", "avg")


class CommHandle:
    """The handle of an asynchronous collective: :meth:`wait` blocks until its results are computed (and,
    for a receive, written into the tensor given)."""

    def __init__(self, outputs: Any = None, on_wait: Any = None) -> None:
        self._outputs = outputs
        self._on_wait = on_wait

    def wait(self) -> None:
        if self._on_wait is not None:
            fn, self._on_wait = self._on_wait, None
            fn()
        outs = self._outputs if isinstance(self._outputs, list | tuple) else [self._outputs]
        for o in outs:
            if isinstance(o, Tensor):
                o._data.block_until_ready()


def set_comm_ops_inplace(is_enable: bool, func_list: Any = None) -> None:
    """Whether the ``ops`` communication functions (all of them, or those named in `func_list`) write their
    result in place (the default) or return ``(output, handle)``.

    Raises:
        TypeError: If `is_enable` is not a bool, or `func_list` is not a list/tuple.
        ValueError: If `func_list` names an unknown function.
    """
    if not isinstance(is_enable, bool):
        raise TypeError(
            "For 'set_comm_ops_inplace', the argument 'is_enable' must be type of bool, "
            f"but got 'is_enable' type : {type(is_enable)}."
        )
    if func_list is None:
        for k in _INPLACE:
            _INPLACE[k] = is_enable
        return
    if not isinstance(func_list, list | tuple):
        raise TypeError(f"Expected list or tuple, but got {type(func_list)}.")
    for name in func_list:
        if name not in _INPLACE:
            raise ValueError(f"The function name in `func_list` must be correct, but got {name}.")
        _INPLACE[name] = is_enable


_mode = threading.local()


def inplace(name: str) -> bool:
    forced = getattr(_mode, "inplace", None)
    return forced if forced is not None else _INPLACE.get(name, False)


@contextlib.contextmanager
def inplace_mode(value: bool) -> Iterator[None]:
    """Within the block every communication function works in place (True) or returns its outputs (False),
    whatever ``set_comm_ops_inplace`` says: ``mint.distributed`` always works in place, primitives never."""
    prev = getattr(_mode, "inplace", None)
    _mode.inplace = value
    try:
        yield
    finally:
        _mode.inplace = prev


# ------------------------------------------------------------------------------------------ checks
def group_of(group: Any) -> str:
    if group is None:
        group = GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"The argument 'group' must be type of string, but got 'group' type : {type(group)}.")
    return check_group(group, "group")


def write(t: Tensor, value: Any, name: str) -> None:
    """Write `value` into tensor `t` (the in-place form)."""
    value = jnp.asarray(value)
    if tuple(value.shape) != tuple(t.shape):
        raise ValueError(f"For {name}, the output tensor shape must be {tuple(value.shape)}, but got {tuple(t.shape)}.")
    t.assign_value(wrap(value.astype(arr(t).dtype)))


def result(name: str, outputs: Any, targets: Any, async_op: bool, inplace_: bool | None = None) -> Any:
    """In place: write `outputs` into `targets`, return the handle. Else ``(outputs, handle)``."""
    handle = CommHandle(outputs) if async_op else None
    if inplace_ if inplace_ is not None else inplace(name):
        if targets is not None:
            if isinstance(targets, list | tuple):
                for t, o in zip(targets, outputs, strict=True):
                    write(t, arr(o), name)
            else:
                write(targets, arr(outputs), name)
        return handle
    return outputs, handle


# --------------------------------------------------------------------------- the engine's collectives
def reduced(a: Any, op: str) -> Any:
    """`a` reduced over all ranks (``avg``: the sum divided by the number of ranks)."""
    n = _parallel.size()
    if op == "avg":
        s = _parallel.collective("all_reduce", a, "sum")
        return (s / n).astype(a.dtype) if jnp.issubdtype(a.dtype, jnp.inexact) else s // n
    return _parallel.collective("all_reduce", a, op)


def gathered(a: Any) -> Any:
    """Every rank's `a` stacked along a new axis 0, in rank order."""
    return _parallel.collective("all_gather", a[None])


def broadcasted(a: Any, src: int) -> Any:
    return _parallel.collective("broadcast", a, root=src)


def exchange(send: list[Any], dtype: Any) -> list[Any]:
    """All-to-all of flat arrays: ``send[d]`` goes to rank ``d``; returns what each rank sent here, in rank
    order. Pieces may differ in size (padded to the largest in one all-gather)."""
    n, r = _parallel.size(), _parallel.rank()
    sizes = np.array([int(np.prod(np.shape(s))) for s in send], np.int64)
    all_sizes = np.asarray(gathered(jnp.asarray(sizes)))  # [src, dst]
    m = max(int(all_sizes.max()), 1)
    pad = jnp.stack([jnp.pad(jnp.ravel(jnp.asarray(s, dtype)), (0, m - int(k))) for s, k in zip(send, sizes)])
    got = gathered(pad)  # [src, dst, m]
    return [got[s, r, : int(all_sizes[s, r])] for s in range(n)]


# ------------------------------------------------------------------------------- the process group
def is_available() -> bool:
    """Whether distributed communication is available: always (over ``sporax launch``'s process group)."""
    return True


def is_initialized() -> bool:
    """Whether the default process group has been initialised (``init_process_group`` or ``init``)."""
    return bool(GlobalComm.INITED)


def init_process_group(
    backend: str = "hccl",
    init_method: Any = None,
    timeout: Any = None,
    world_size: int = -1,
    rank: int = -1,
    store: Any = None,
    group_name: str = "",
    pg_options: Any = None,
    device_id: Any = None,
) -> None:
    """Join the process group of the ranks ``sporax launch -n N`` started (one rank without it); the backend
    is the platform's (NCCL on GPU, Gloo on CPU). `init_method`, `store`, `timeout`, `pg_options` and
    `device_id` are accepted: the launcher's coordinator is the rendezvous, each rank has its device.

    Raises:
        TypeError: If `backend` is not a str or `world_size`/`rank` are not ints.
        ValueError: If `backend` is not ``"hccl"``/``"nccl"``/``"mccl"``, or `world_size`/`rank` disagree with
            the launched group.
    """
    if not isinstance(backend, str):
        raise TypeError(f"For 'init_process_group', the argument 'backend' must be a string, but got {type(backend)}.")
    if backend not in ("hccl", "nccl", "mccl"):
        raise ValueError(
            f"For 'init_process_group', the argument 'backend' must be one of hccl, nccl, mccl, but got {backend}."
        )
    for what, v in (("world_size", world_size), ("rank", rank)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"For 'init_process_group', the argument '{what}' must be type of int, but got {type(v)}.")
    if group_name and not isinstance(group_name, str):
        raise TypeError(
            f"For 'init_process_group', the argument 'group_name' must be a string, but got {type(group_name)}."
        )
    _parallel.initialize()
    from ..._engine import jax

    gpu = jax.default_backend() == "gpu"
    GlobalComm.BACKEND = "nccl" if gpu else "mccl"
    GlobalComm.WORLD_COMM_GROUP = "nccl_world_group" if gpu else "mccl_world_group"
    GlobalComm.INITED = True
    if world_size not in (-1, _parallel.size()):
        raise ValueError(f"world_size is wrong, please using default value or setting: {_parallel.size()}")
    if rank not in (-1, _parallel.rank()):
        raise ValueError(
            f"For 'init_process_group', the argument 'rank' is {rank}, but this process is rank {_parallel.rank()}."
        )


def destroy_process_group(group: Any = None) -> None:
    """Release the world group (`group` None or the world group's name); the processes stay joined."""
    if group is not None and not isinstance(group, str):
        raise TypeError(
            "For 'destroy_group', the argument 'group' must be type of string or None, "
            f"but got 'group' type : {type(group)}."
        )
    group_of(group)
    GlobalComm.INITED = False


def get_rank(group: Any = None) -> int:
    """This process's rank in `group`."""
    if group is not None and not isinstance(group, str):
        raise TypeError(
            f"For 'get_rank', the argument 'group' must be type of string, but got 'group' type : {type(group)}."
        )
    group_of(group)
    return _parallel.rank()


def get_world_size(group: Any = None) -> int:
    """The number of ranks in `group`."""
    if group is not None and not isinstance(group, str):
        raise TypeError(
            f"For 'get_world_size', the argument 'group' must be type of string, but got 'group' type : {type(group)}."
        )
    group_of(group)
    return _parallel.size()


def new_group(
    ranks: Any = None,
    timeout: Any = None,
    backend: Any = None,
    pg_options: Any = None,
    use_local_synchronization: bool = False,
    group_desc: Any = None,
) -> str:
    """The name of a group of `ranks`. Only the world group exists on GPU and CPU (as ``create_group``):
    `ranks` None or every rank gives the world group's name.

    Raises:
        TypeError: If `ranks` is not a list/tuple of ints.
        RuntimeError: If `ranks` is a proper subset of the ranks.
    """
    if ranks is None:
        return GlobalComm.WORLD_COMM_GROUP
    if not isinstance(ranks, list | tuple) or not all(isinstance(r, int) and not isinstance(r, bool) for r in ranks):
        raise TypeError(f"For 'new_group', the argument 'ranks' must be a list or tuple of int, but got {ranks}.")
    if sorted(set(ranks)) == list(range(_parallel.size())):
        return GlobalComm.WORLD_COMM_GROUP
    raise RuntimeError(
        "For 'new_group', user communication groups are not supported on GPU and CPU (as in MindSpore): "
        "sporax's collectives run over the world group."
    )


def get_backend(group: Any = None) -> str:
    """The communication backend of `group` (``"nccl"`` on GPU, ``"mccl"`` on CPU, as MindSpore names it)."""
    group_of(group)
    return str(GlobalComm.BACKEND)


def get_global_rank(group: Any, group_rank: int) -> int:
    """The world rank of `group_rank` in `group` (the same number: only the world group exists)."""
    if not isinstance(group_rank, int) or isinstance(group_rank, bool):
        raise TypeError(
            f"For 'get_global_rank', the argument 'group_rank' must be type of int, but got {type(group_rank)}."
        )
    group_of(group)
    return validator.check_comm_rank(group_rank, _parallel.size(), "group_rank", "get_global_rank")


def get_group_rank(group: Any, global_rank: int) -> int:
    """The rank in `group` of world rank `global_rank` (the same number: only the world group exists)."""
    if not isinstance(global_rank, int) or isinstance(global_rank, bool):
        raise TypeError(
            f"For 'get_group_rank', the argument 'global_rank' must be type of int, but got {type(global_rank)}."
        )
    group_of(group)
    return validator.check_comm_rank(global_rank, _parallel.size(), "global_rank", "get_group_rank")


def get_process_group_ranks(group: Any = None) -> list[int]:
    """The world ranks in `group`."""
    group_of(group)
    return list(range(_parallel.size()))


# --------------------------------------------------------------------------------- the collectives
def all_reduce(tensor: Tensor, op: str = "sum", group: Any = None, async_op: bool = False) -> Any:
    """Reduce `tensor` over all ranks (``"sum"``, ``"prod"``, ``"min"``, ``"max"``, ``"avg"``); every rank
    gets the result (in `tensor`, or returned)."""
    validator.check_comm_tensor(tensor, Tensor, "all_reduce")
    validator.check_comm_op(op, REDUCE_OP_NAMES, "all_reduce")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    return result("all_reduce", wrap(reduced(arr(tensor), op)), tensor, async_op)


def all_gather_into_tensor(output_tensor: Any, input_tensor: Tensor, group: Any = None, async_op: bool = False) -> Any:
    """Every rank's `input_tensor` concatenated along dimension 0, in rank order."""
    validator.check_comm_tensor(input_tensor, Tensor, "all_gather_into_tensor")
    if inplace("all_gather_into_tensor"):
        validator.check_comm_tensor(output_tensor, Tensor, "all_gather_into_tensor", "output tensor")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    out = wrap(_parallel.collective("all_gather", arr(input_tensor)))
    return result("all_gather_into_tensor", out, output_tensor, async_op)


def all_gather_into_tensor_uneven(
    output: Any, input: Tensor, output_split_sizes: Any = None, group: Any = None, async_op: bool = False
) -> Any:
    """Every rank's `input` concatenated along dimension 0, where ranks' first dimensions may differ
    (`output_split_sizes[i]` rows from rank `i`; None: equal)."""
    validator.check_comm_tensor(input, Tensor, "all_gather_into_tensor_uneven")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    a = arr(input)
    n = _parallel.size()
    pieces = exchange([a] * n, a.dtype)
    rest = tuple(a.shape[1:])
    rows = [int(np.prod(p.shape)) // max(int(np.prod(rest)), 1) for p in pieces]
    if output_split_sizes is not None and list(output_split_sizes) != rows:
        raise ValueError(
            f"For all_gather_into_tensor_uneven, the output_split_sizes must be {rows}, but got {list(output_split_sizes)}."
        )
    out = wrap(jnp.concatenate([p.reshape((k, *rest)) for p, k in zip(pieces, rows)], axis=0))
    return result("all_gather_into_tensor_uneven", out, output, async_op)


def reduce_scatter_tensor(
    output: Any, input: Tensor, op: str = "sum", group: Any = None, async_op: bool = False
) -> Any:
    """Reduce `input` over all ranks; rank `i` gets the `i`-th of `N` equal slices along dimension 0."""
    validator.check_comm_tensor(input, Tensor, "reduce_scatter_tensor")
    validator.check_comm_op(op, REDUCE_OP_NAMES, "reduce_scatter_tensor")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    a = arr(input)
    n, r = _parallel.size(), _parallel.rank()
    if a.ndim == 0 or a.shape[0] % n:
        raise ValueError(
            f"For reduce_scatter_tensor, the first dimension of the input must be divisible by the group size {n}, "
            f"but got shape {tuple(a.shape)}."
        )
    if op in ("sum", "max", "min", "prod"):
        out = _parallel.collective("reduce_scatter", a, op)
    else:
        k = a.shape[0] // n
        out = reduced(a, op)[r * k : (r + 1) * k]
    return result("reduce_scatter_tensor", wrap(out), output, async_op)


def reduce_scatter_tensor_uneven(
    output: Any,
    input: Tensor,
    input_split_sizes: Any = None,
    op: str = "sum",
    group: Any = None,
    async_op: bool = False,
) -> Any:
    """Reduce `input` over all ranks; rank `i` gets rows ``input_split_sizes[i]`` (None: equal slices)."""
    validator.check_comm_tensor(input, Tensor, "reduce_scatter_tensor_uneven")
    validator.check_comm_op(op, REDUCE_OP_NAMES, "reduce_scatter_tensor_uneven")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    a = arr(input)
    n, r = _parallel.size(), _parallel.rank()
    sizes = list(input_split_sizes) if input_split_sizes else [a.shape[0] // n] * n
    if len(sizes) != n or sum(sizes) != a.shape[0]:
        raise ValueError(
            f"For reduce_scatter_tensor_uneven, the input_split_sizes must have {n} entries summing to "
            f"{a.shape[0]}, but got {sizes}."
        )
    start = sum(sizes[:r])
    out = wrap(reduced(a, op)[start : start + sizes[r]])
    return result("reduce_scatter_tensor_uneven", out, output, async_op)


def reduce(tensor: Tensor, dst: int, op: str = "sum", group: Any = None, async_op: bool = False) -> Any:
    """Reduce `tensor` over all ranks into rank `dst` (the other ranks' `tensor` is left unchanged)."""
    validator.check_comm_tensor(tensor, Tensor, "reduce")
    validator.check_comm_op(op, REDUCE_OP_NAMES, "reduce")
    validator.check_comm_rank(dst, _parallel.size(), "dst", "reduce")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    red = wrap(reduced(arr(tensor), op))
    if inplace("reduce"):
        return result("reduce", red, tensor if _parallel.rank() == dst else None, async_op)
    return result("reduce", red if _parallel.rank() == dst else tensor, None, async_op)


def broadcast(tensor: Tensor, src: int, group: Any = None, async_op: bool = False) -> Any:
    """Rank `src`'s `tensor`, on every rank."""
    validator.check_comm_tensor(tensor, Tensor, "broadcast")
    validator.check_comm_rank(src, _parallel.size(), "src", "broadcast")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    return result("broadcast", wrap(broadcasted(arr(tensor), src)), tensor, async_op)


def barrier(group: Any = None, async_op: bool = False, device_ids: Any = None) -> Any:
    """Block until every rank has called it (`device_ids` is accepted: one device per rank)."""
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    _parallel.barrier()
    return CommHandle() if async_op else None


def all_gather(tensor_list: Any, tensor: Tensor, group: Any = None, async_op: bool = False) -> Any:
    """Every rank's `tensor`, into `tensor_list` (one tensor per rank, in rank order)."""
    validator.check_comm_tensor(tensor, Tensor, "all_gather")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    n = _parallel.size()
    if inplace("all_gather"):
        outs = validator.check_comm_tensor_list(tensor_list, Tensor, "all_gather", "tensor_list")
        if len(outs) != n:
            raise TypeError(
                f"For all_gather, the length of 'tensor_list' must be the group size {n}, but got {len(outs)}."
            )
    g = gathered(arr(tensor))
    return result("all_gather", [wrap(g[i]) for i in range(n)], tensor_list, async_op)


def reduce_scatter(output: Any, input_list: Any, op: str = "sum", group: Any = None, async_op: bool = False) -> Any:
    """Reduce the `i`-th tensors of `input_list` over all ranks into rank `i`'s `output`."""
    ins = validator.check_comm_tensor_list(input_list, Tensor, "reduce_scatter", "input_list")
    validator.check_comm_op(op, REDUCE_OP_NAMES, "reduce_scatter")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    n, r = _parallel.size(), _parallel.rank()
    if len(ins) != n:
        raise TypeError(
            f"For reduce_scatter, the length of 'input_list' must be the group size {n}, but got {len(ins)}."
        )
    out = wrap(reduced(jnp.stack([arr(t) for t in ins]), op)[r])
    return result("reduce_scatter", out, output, async_op)


def gather_into_tensor(
    output_tensor: Any, input_tensor: Tensor, dst: int = 0, group: Any = None, async_op: bool = False
) -> Any:
    """Every rank's `input_tensor` concatenated along dimension 0 on rank `dst` (its `output_tensor`);
    other ranks' outputs are left unchanged."""
    validator.check_comm_tensor(input_tensor, Tensor, "gather_into_tensor")
    validator.check_comm_rank(dst, _parallel.size(), "dst", "gather_into_tensor")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    out = wrap(_parallel.collective("all_gather", arr(input_tensor)))
    mine = _parallel.rank() == dst
    if inplace("gather_into_tensor"):
        return result("gather_into_tensor", out, output_tensor if mine else None, async_op)
    return result("gather_into_tensor", out if mine else wrap(jnp.zeros((0,), arr(input_tensor).dtype)), None, async_op)


def scatter_tensor(
    output_tensor: Any, input_tensor: Tensor, src: int = 0, group: Any = None, async_op: bool = False
) -> Any:
    """Rank `src`'s `input_tensor` split into `N` equal slices along dimension 0; rank `i` gets slice `i`
    (every rank passes an `input_tensor` of the same shape; only `src`'s values are used)."""
    validator.check_comm_tensor(input_tensor, Tensor, "scatter_tensor")
    validator.check_comm_rank(src, _parallel.size(), "src", "scatter_tensor")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    a = arr(input_tensor)
    n, r = _parallel.size(), _parallel.rank()
    if a.ndim == 0 or a.shape[0] % n:
        raise ValueError(
            f"For scatter_tensor, the first dimension of the input must be divisible by the group size {n}, "
            f"but got shape {tuple(a.shape)}."
        )
    k = a.shape[0] // n
    out = wrap(broadcasted(a, src)[r * k : (r + 1) * k])
    return result("scatter_tensor", out, output_tensor, async_op)


def all_to_all(output_tensor_list: Any, input_tensor_list: Any, group: Any = None, async_op: bool = False) -> Any:
    """Rank `i` sends ``input_tensor_list[j]`` to rank `j` and receives rank `j`'s ``input_tensor_list[i]``
    into ``output_tensor_list[j]`` (shapes may differ per pair; the output list gives them)."""
    ins = validator.check_comm_tensor_list(input_tensor_list, Tensor, "all_to_all", "input_tensor_list")
    outs = validator.check_comm_tensor_list(output_tensor_list, Tensor, "all_to_all", "output_tensor_list")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    n = _parallel.size()
    if len(ins) != n or len(outs) != n:
        raise TypeError(f"For all_to_all, the lengths of the tensor lists must be the group size {n}.")
    dtype = arr(ins[0]).dtype
    got = exchange([arr(t) for t in ins], dtype)
    res = [wrap(g.reshape(tuple(o.shape))) for g, o in zip(got, outs)]
    return result("all_to_all", res, outs, async_op)


def _splits(split: Any, total: int, n: int, name: str, what: str) -> list[int]:
    if split is None or len(split) == 0:
        if total % n:
            raise ValueError(f"For {name}, the first dimension {total} must be divisible by the group size {n}.")
        return [total // n] * n
    split = [int(s) for s in split]
    if len(split) != n or sum(split) != total:
        raise ValueError(f"For {name}, the '{what}' must have {n} entries summing to {total}, but got {split}.")
    return split


def all_to_all_single(
    output: Any,
    input: Tensor,
    output_split_sizes: Any = None,
    input_split_sizes: Any = None,
    group: Any = None,
    async_op: bool = False,
) -> Any:
    """Split `input` along dimension 0 (`input_split_sizes`, or equally), send piece `j` to rank `j`, and
    concatenate the pieces received, in rank order, into `output` (`output_split_sizes` rows each)."""
    validator.check_comm_tensor(input, Tensor, "all_to_all_single")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    a = arr(input)
    n = _parallel.size()
    rest = tuple(a.shape[1:])
    ins = _splits(input_split_sizes, a.shape[0], n, "all_to_all_single", "input_split_sizes")
    starts = np.cumsum([0, *ins])
    got = exchange([a[starts[i] : starts[i + 1]] for i in range(n)], a.dtype)
    width = max(int(np.prod(rest)), 1)
    rows = [int(g.shape[0]) // width for g in got]
    if output_split_sizes is not None and len(output_split_sizes) and [int(s) for s in output_split_sizes] != rows:
        raise ValueError(
            f"For all_to_all_single, the 'output_split_sizes' must be {rows}, but got {list(output_split_sizes)}."
        )
    out = wrap(jnp.concatenate([g.reshape((k, *rest)) for g, k in zip(got, rows)], axis=0))
    return result("all_to_all_single", out, output, async_op)


def all_to_all_v_c(
    output: Any, input: Tensor, send_count_matrix: Any, group: Any = None, async_op: bool = False
) -> Any:
    """All-to-all of flat pieces: ``send_count_matrix[i * N + j]`` elements go from rank `i` to rank `j`
    (taken in order from the flattened `input`); the pieces received are concatenated, in rank order."""
    validator.check_comm_tensor(input, Tensor, "all_to_all_v_c")
    group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    n, r = _parallel.size(), _parallel.rank()
    counts = [int(c) for c in np.ravel(np.asarray(send_count_matrix))]
    if len(counts) != n * n:
        raise ValueError(
            f"For all_to_all_v_c, the 'send_count_matrix' must have {n * n} entries, but got {len(counts)}."
        )
    a = jnp.ravel(arr(input))
    mine = counts[r * n : (r + 1) * n]
    if sum(mine) != a.shape[0]:
        raise ValueError(f"For all_to_all_v_c, the input has {a.shape[0]} elements, but row {r} sends {sum(mine)}.")
    starts = np.cumsum([0, *mine])
    got = exchange([a[starts[j] : starts[j + 1]] for j in range(n)], a.dtype)
    out = wrap(jnp.concatenate(got))
    return result("all_to_all_v_c", out, output, async_op)
