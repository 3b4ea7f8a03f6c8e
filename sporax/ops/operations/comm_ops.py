"""Collective communication primitives (MindSpore's ``ops.AllReduce``, ``ops.AllGather``, ``ops.ReduceScatter``,
``ops.Broadcast``, ``ops.Barrier``, ``ops.ReduceOp``).

They work over the world group of the processes ``sporax launch`` started (see ``_engine/_parallel``), in
PyNative (each call is a small program run on every rank) and inside compiled functions (the function
becomes one program per rank with the collective in it). Every rank must make the same calls in the
same order. With one process they return their input.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._engine import _parallel
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import arr, wrap
from ._primitive import Primitive

__all__ = ["ReduceOp", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Barrier"]

_REDUCE_OPS = ("sum", "max", "min", "prod")

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
WORLD_GROUPS = (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)


class GlobalComm:
    """World communication information: ``BACKEND``, ``WORLD_COMM_GROUP``, ``INITED``, ``CHECK_ENVS``
    (``communication.init`` and ``init_process_group`` set them)."""

    BACKEND = "mccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


class ReduceOp:
    """Operation options for reducing tensors: ``SUM``, ``MAX``, ``MIN``, ``PROD``, ``AVG`` (strings)."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"


def check_group(group: Any, op: str) -> str:
    """The group's name; only the world group exists (:func:`~sporax._checkparam.check_comm_group`)."""
    return validator.check_comm_group(group, WORLD_GROUPS, op)


def _tensor(x: Any, name: str) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got {type(x).__name__}.")
    return arr(x)


def all_reduce(x: Tensor, op: str = ReduceOp.SUM, name: str = "AllReduce") -> Tensor:
    return wrap(_parallel.collective("all_reduce", _tensor(x, name), op))


def all_reduce_sum_fused(tensors: Any) -> tuple[Tensor, ...]:
    """The sums over all ranks of several tensors in one exchange per dtype (DistributedGradReducer)."""
    return tuple(wrap(a) for a in _parallel.all_reduce_sum_fused([arr(t) for t in tensors]))


def broadcast_parameters(parameters: Any, root: int = 0) -> None:
    """Set each Parameter to rank `root`'s value, on every rank (one exchange)."""
    params = list(parameters)
    values = _parallel.broadcast_many([arr(p) for p in params], root)
    for p, v in zip(params, values, strict=True):
        p.set_data(wrap(v))


def all_gather(x: Tensor, name: str = "AllGather") -> Tensor:
    a = _tensor(x, name)
    if a.ndim == 0:
        raise ValueError(f"For '{name}', the input must have at least 1 dimension, but got a 0-d Tensor.")
    return wrap(_parallel.collective("all_gather", a))


def reduce_scatter(x: Tensor, op: str = ReduceOp.SUM, name: str = "ReduceScatter") -> Tensor:
    a = _tensor(x, name)
    n = _parallel.size()
    if a.ndim == 0 or a.shape[0] % n:
        raise ValueError(
            f"For '{name}', the first dimension of the input must be divisible by the group size {n}, "
            f"but got shape {tuple(a.shape)}."
        )
    return wrap(_parallel.collective("reduce_scatter", a, op))


def broadcast(x: Tensor, root: int, name: str = "Broadcast") -> Tensor:
    a = _tensor(x, name)
    n = _parallel.size()
    if isinstance(root, bool) or not isinstance(root, int) or not 0 <= root < n:
        raise ValueError(f"For '{name}', the 'root_rank' must be an int in [0, {n}), but got {root!r}.")
    return wrap(_parallel.collective("broadcast", a, root=root))


class AllReduce(Primitive):
    """Reduces the tensor over all ranks (``op``: ``ReduceOp.SUM``, ``MAX``, ``MIN``, ``PROD``); every rank
    gets the result.

    Args:
        op (str): The reduction. Default: ``ReduceOp.SUM``.
        group (str): The communication group (the world group). Default: ``GlobalComm.WORLD_COMM_GROUP``.

    Inputs:
        - **input_x** (Tensor) - The same shape and dtype on every rank.

    Outputs:
        Tensor, the reduction, with the shape and dtype of `input_x`.
    """

    def __init__(self, op: str = ReduceOp.SUM, group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("AllReduce")
        self.op = validator.check_one_of(op, _REDUCE_OPS, "op", self.name, str_only=True)
        self.group = check_group(group, self.name)
        self.add_prim_attr("group", self.group)
        self.add_prim_attr("fusion", 0)

    def __call__(self, input_x: Tensor) -> Tensor:
        return all_reduce(input_x, self.op, self.name)


class AllGather(Primitive):
    """Concatenates the tensors of all ranks along dimension 0, in rank order.

    Outputs:
        Tensor of shape :math:`(N \\times x_1, x_2, ...)` for `N` ranks.
    """

    def __init__(self, group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("AllGather")
        self.group = check_group(group, self.name)
        self.rank_size = _parallel.size()
        self.add_prim_attr("rank_size", self.rank_size)
        self.add_prim_attr("group", self.group)

    def __call__(self, input_x: Tensor) -> Tensor:
        return all_gather(input_x, self.name)


class ReduceScatter(Primitive):
    """Reduces the tensor over all ranks, then gives rank `i` the `i`-th of `N` equal slices along
    dimension 0."""

    def __init__(self, op: str = ReduceOp.SUM, group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("ReduceScatter")
        self.op = validator.check_one_of(op, _REDUCE_OPS, "op", self.name, str_only=True)
        self.group = check_group(group, self.name)
        self.rank_size = _parallel.size()
        self.add_prim_attr("rank_size", self.rank_size)
        self.add_prim_attr("group", self.group)

    def __call__(self, input_x: Tensor) -> Tensor:
        return reduce_scatter(input_x, self.op, self.name)


class Broadcast(Primitive):
    """Every rank gets rank `root_rank`'s tensors.

    Inputs:
        - **input_x** (tuple[Tensor]) - The tensors (the same shapes and dtypes on every rank).

    Outputs:
        tuple[Tensor], rank `root_rank`'s tensors.
    """

    def __init__(self, root_rank: int, group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("Broadcast")
        if isinstance(root_rank, bool) or not isinstance(root_rank, int):
            raise TypeError(f"For 'Broadcast', the 'root_rank' must be int, but got {type(root_rank).__name__}.")
        self.root_rank = root_rank
        self.group = check_group(group, self.name)
        self.add_prim_attr("group", self.group)

    def __call__(self, input_x: Any) -> tuple[Tensor, ...]:
        if not isinstance(input_x, (tuple, list)):
            raise TypeError(f"For 'Broadcast', the input must be a tuple of Tensors, but got {type(input_x).__name__}.")
        return tuple(broadcast(x, self.root_rank, self.name) for x in input_x)


class Barrier(Primitive):
    """Blocks until every rank has called it."""

    def __init__(self, group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("Barrier")
        self.group = check_group(group, self.name)

    def __call__(self) -> Tensor:
        _parallel.barrier()
        return Tensor([0.0], mstype.float32)
