"""Collective communication functions (``mindspore.communication.comm_func``): ``all_reduce``,
``all_gather_into_tensor``, ``reduce_scatter_tensor``, ``broadcast``, ``barrier``, ``reduce``,
``gather_into_tensor``, ``scatter_tensor``, the all-to-alls and point-to-point ``send``/``recv``/``isend``/
``irecv``/``batch_isend_irecv``.

They return their outputs as MindSpore's do (``(output, handle)`` for the ``async_op`` ones): the handle is
None, or with ``async_op=True`` a :class:`CommHandle` whose ``wait()`` blocks until the result is ready.
The implementations are ``ops``' (``ops/function/comm_func``, ``comm_p2p_func``, ``operations/_comm_prims``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _checkparam as validator
from .._engine import _parallel
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..ops.function import comm_func as _cf
from ..ops.function import comm_p2p_func as _p2p
from ..ops.function.comm_func import CommHandle
from ..ops.operations import _comm_prims as _prims
from ..ops.operations import comm_ops
from ..ops.operations.comm_ops import ReduceOp, check_group
from .management import GlobalComm

__all__ = [
    "CommHandle",
    "all_reduce",
    "all_gather_into_tensor",
    "reduce_scatter_tensor",
    "broadcast",
    "barrier",
    "reduce",
    "gather_into_tensor",
    "scatter_tensor",
    "send",
    "recv",
    "isend",
    "irecv",
    "P2POp",
    "batch_isend_irecv",
    "all_to_all_with_output_shape",
    "all_to_all_single_with_output_shape",
    "all_to_all_v_c",
]


def _result(output: Tensor, async_op: bool) -> tuple[Tensor, CommHandle | None]:
    return output, (CommHandle(output) if async_op else None)


def all_reduce(
    tensor: Tensor, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP, async_op: bool = False
) -> tuple[Tensor, CommHandle | None]:
    """Reduce `tensor` over all ranks (``'sum'``, ``'prod'``, ``'min'``, ``'max'``); every rank gets the result."""
    validator.check_comm_tensor(tensor, Tensor, "all_reduce")
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
    validator.check_comm_tensor(tensor, Tensor, "all_gather_into_tensor")
    check_group(group, "all_gather_into_tensor")
    return _result(comm_ops.all_gather(tensor, "all_gather_into_tensor"), async_op)


def reduce_scatter_tensor(
    tensor: Tensor, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP, async_op: bool = False
) -> tuple[Tensor, CommHandle | None]:
    """Reduce `tensor` over all ranks; rank `i` gets the `i`-th equal slice along dimension 0."""
    validator.check_comm_tensor(tensor, Tensor, "reduce_scatter_tensor")
    if not isinstance(op, str) or op not in ("sum", "prod", "min", "max"):
        raise TypeError("For reduce_scatter_tensor, the input op value must be one of sum, prod, min, max")
    check_group(group, "reduce_scatter_tensor")
    return _result(comm_ops.reduce_scatter(tensor, op, "reduce_scatter_tensor"), async_op)


def broadcast(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """Rank `src`'s tensor, on every rank."""
    validator.check_comm_tensor(tensor, Tensor, "broadcast")
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


# ----------------------------------------------------------- MindSpore 2.x's other comm_func functions
def reduce(tensor: Tensor, dst: int, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """`tensor` reduced over all ranks, on rank `dst` (the other ranks get a tensor of shape ``(1,)``)."""
    validator.check_comm_tensor(tensor, Tensor, "reduce")
    check_group(group, "reduce")
    return _prims.Reduce(dst, op)(tensor)


def gather_into_tensor(tensor: Tensor, dst: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """Every rank's `tensor` concatenated along dimension 0, on rank `dst` (others: shape ``(1,)``)."""
    validator.check_comm_tensor(tensor, Tensor, "gather_into_tensor")
    check_group(group, "gather_into_tensor")
    return _prims.CollectiveGather(dst)(tensor)


def scatter_tensor(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """Rank `src`'s `tensor` split evenly along dimension 0; this rank's slice."""
    validator.check_comm_tensor(tensor, Tensor, "scatter_tensor")
    check_group(group, "scatter_tensor")
    return _prims.CollectiveScatter(src)(tensor)


def send(tensor: Tensor, dst: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP, tag: int = 0) -> None:
    """Send `tensor` to rank `dst` (matched by ``recv`` there with the same tag)."""
    validator.check_comm_tensor(tensor, Tensor, "send")
    _p2p.send(tensor, dst, group, tag)


def recv(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP, tag: int = 0) -> Tensor:
    """What rank `src` sent with `tag`, as a new Tensor of `tensor`'s shape and dtype."""
    validator.check_comm_tensor(tensor, Tensor, "recv")
    with _cf.inplace_mode(False):
        return _p2p.recv(tensor, src, group, tag)


def isend(tensor: Tensor, dst: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP, tag: int = 0) -> Any:
    """Send `tensor` to rank `dst` without waiting; returns a handle."""
    validator.check_comm_tensor(tensor, Tensor, "isend")
    return _p2p.isend(tensor, dst, group, tag)


def irecv(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP, tag: int = 0) -> Any:
    """``(output, handle)``: `output` holds what rank `src` sent once ``handle.wait()`` returns."""
    validator.check_comm_tensor(tensor, Tensor, "irecv")
    with _cf.inplace_mode(False):
        return _p2p.irecv(tensor, src, group, tag)


class P2POp:
    """One send or receive for :func:`batch_isend_irecv`; for ``"irecv"`` `tensor` may be a shape tuple
    (with `recv_dtype`, default float32). `tag` must be 0 (as in MindSpore)."""

    def __init__(
        self, op: Any, tensor: Any, peer: int, group: Any = None, tag: int = 0, recv_dtype: Any = None
    ) -> None:
        if not (isinstance(op, str) or callable(op)):
            raise TypeError(f"op must be type of string or function, but got type of {type(op)}")
        name = op if isinstance(op, str) else getattr(op, "__name__", "")
        if name not in ("isend", "irecv"):
            raise ValueError(f"Expected ``op`` to be of type ``isend`` or `irecv``, but got {name}")
        if not isinstance(tensor, Tensor | tuple):
            raise TypeError(f"Expected ``tensor`` to be type of tuple or Tensor, but got {type(tensor)}.")
        if tag != 0:
            raise NotImplementedError("``tag`` not support yet.")
        if isinstance(peer, bool) or not isinstance(peer, int):
            raise TypeError(f"peer must be type of int, but got type of {type(peer)}")
        if recv_dtype is not None and not isinstance(recv_dtype, mstype.Type):
            raise TypeError(f"recv_dtype must be type of mindspore dtype, but got type of {type(recv_dtype)}")
        self.op, self.tensor, self.peer, self.group, self.tag, self.recv_dtype = (
            name,
            tensor,
            peer,
            group,
            tag,
            recv_dtype,
        )


def batch_isend_irecv(p2p_op_list: Any) -> tuple[Tensor, ...]:
    """Run the sends and receives of `p2p_op_list`; returns one Tensor per operation (a receive's received
    tensor, a send's tensor), in order."""
    if (
        not isinstance(p2p_op_list, list | tuple)
        or not p2p_op_list
        or not all(isinstance(p, P2POp) for p in p2p_op_list)
    ):
        raise TypeError("p2p_op_list must be a non-empty list of P2POp.")
    ops, outs = [], []
    for p in p2p_op_list:
        t = p.tensor
        if isinstance(t, tuple):
            t = Tensor(np.zeros(t, mstype.to_np(p.recv_dtype or mstype.float32)))
        elif p.op == "irecv":
            t = Tensor(np.zeros(tuple(t.shape), np.asarray(t.asnumpy()).dtype))
        ops.append(_p2p.P2POp(p.op, t, p.peer, p.group))
        outs.append(t)
    with _cf.inplace_mode(True):
        for h in _p2p.batch_isend_irecv(ops):
            h.wait()
    return tuple(outs)


def all_to_all_with_output_shape(
    output_shape_list: Any, input_tensor_list: Any, group: Any = None, async_op: bool = False
) -> tuple[tuple[Tensor, ...], CommHandle | None]:
    """``input_tensor_list[j]`` goes to rank `j`; returns the tensors received (of ``output_shape_list``'s
    shapes, or the shapes of the Tensors given there) and the handle."""
    outs = [o if isinstance(o, Tensor) else Tensor(np.zeros(tuple(o), np.float32)) for o in output_shape_list]
    if input_tensor_list and isinstance(input_tensor_list[0], Tensor):
        dt = np.asarray(input_tensor_list[0].asnumpy()).dtype
        outs = [Tensor(np.zeros(tuple(o.shape), dt)) for o in outs]
    with _cf.inplace_mode(True):
        _cf.all_to_all(outs, input_tensor_list, group, async_op)
    return tuple(outs), (CommHandle(outs[0] if outs else None) if async_op else None)


def all_to_all_single_with_output_shape(
    output_shape: Any,
    tensor: Tensor,
    output_split_sizes: Any = None,
    input_split_sizes: Any = None,
    group: Any = None,
    async_op: bool = False,
) -> tuple[Tensor, CommHandle | None]:
    """Split `tensor` along dimension 0 among the ranks (`input_split_sizes`), gather what each rank sent
    here; returns the output (of `output_shape`) and the handle."""
    with _cf.inplace_mode(False):
        out, _ = _cf.all_to_all_single(None, tensor, output_split_sizes, input_split_sizes, group)
    shape = tuple(output_shape.shape) if isinstance(output_shape, Tensor) else tuple(output_shape)
    if tuple(out.shape) != shape:
        raise ValueError(
            f"For all_to_all_single_with_output_shape, the output shape is {tuple(out.shape)}, but got {shape}."
        )
    return _result(out, async_op)


def all_to_all_v_c(
    output: Tensor, input: Tensor, send_count_matrix: Any, group: Any = None, async_op: bool = False
) -> Any:
    """All-to-all of flat pieces by a global count matrix, written into `output`; returns the handle."""
    with _cf.inplace_mode(True):
        return _cf.all_to_all_v_c(output, input, send_count_matrix, group, async_op)
