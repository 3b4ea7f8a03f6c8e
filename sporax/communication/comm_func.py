"""Collective communication functions (``mindspore.communication.comm_func``): ``all_reduce``,
``all_gather_into_tensor``, ``reduce_scatter_tensor``, ``broadcast``, ``barrier``.

They return ``(output, handle)`` as MindSpore's do (``broadcast`` returns the output): the handle is
None, or with ``async_op=True`` a :class:`CommHandle` whose ``wait()`` blocks until the result is ready.
"""

from __future__ import annotations

from typing import Any

from .._engine import _parallel
from ..common.tensor import Tensor
from ..ops.operations import comm_ops
from ..ops.operations.comm_ops import ReduceOp, check_group
from .management import GlobalComm

__all__ = ["CommHandle", "all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor", "broadcast", "barrier"]


class CommHandle:
    """The handle of an asynchronous collective: ``wait()`` blocks until its output is computed."""

    def __init__(self, output: Tensor | None = None) -> None:
        self._output = output

    def wait(self) -> None:
        if self._output is not None:
            self._output._data.block_until_ready()


def _check_tensor(tensor: Any, name: str) -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {name}, the input tensor must be tensor")


def _result(output: Tensor, async_op: bool) -> tuple[Tensor, CommHandle | None]:
    return output, (CommHandle(output) if async_op else None)


def all_reduce(
    tensor: Tensor, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP, async_op: bool = False
) -> tuple[Tensor, CommHandle | None]:
    """Reduce `tensor` over all ranks (``'sum'``, ``'prod'``, ``'min'``, ``'max'``); every rank gets the result."""
    _check_tensor(tensor, "all_reduce")
    if not isinstance(op, str):
        raise TypeError("For all_reduce, the input op type must be str")
    if op not in ("sum", "prod", "min", "max"):
        raise TypeError("For all_reduce, the input op value must be one of sum, prod, min, max")
    check_group(group, "all_reduce")
    return _result(comm_ops.all_reduce(tensor, op, "all_reduce"), async_op)


def all_gather_into_tensor(
    tensor: Tensor, group: str = GlobalComm.WORLD_COMM_GROUP, async_op: bool = False
) -> tuple[Tensor, CommHandle | None]:
    """The tensors of all ranks concatenated along dimension 0, in rank order."""
    _check_tensor(tensor, "all_gather_into_tensor")
    check_group(group, "all_gather_into_tensor")
    return _result(comm_ops.all_gather(tensor, "all_gather_into_tensor"), async_op)


def reduce_scatter_tensor(
    tensor: Tensor, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP, async_op: bool = False
) -> tuple[Tensor, CommHandle | None]:
    """Reduce `tensor` over all ranks; rank `i` gets the `i`-th equal slice along dimension 0."""
    _check_tensor(tensor, "reduce_scatter_tensor")
    if not isinstance(op, str) or op not in ("sum", "prod", "min", "max"):
        raise TypeError("For reduce_scatter_tensor, the input op value must be one of sum, prod, min, max")
    check_group(group, "reduce_scatter_tensor")
    return _result(comm_ops.reduce_scatter(tensor, op, "reduce_scatter_tensor"), async_op)


def broadcast(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """Rank `src`'s tensor, on every rank."""
    _check_tensor(tensor, "broadcast")
    if isinstance(src, bool) or not isinstance(src, int):
        raise TypeError("For broadcast, the src must be int")
    check_group(group, "broadcast")
    return comm_ops.broadcast(tensor, src, "broadcast")


def barrier(group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
    """Block until every rank has called it."""
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")
    check_group(group, "barrier")
    _parallel.barrier()
