"""``mint.distributed`` (``mindspore.mint.distributed``): PyTorch-style collective communication over the
process group ``sporax launch -n N`` starts, on the same collectives as ``sporax.communication``.

Every function works in place: results are written into the tensors given and the function returns the
handle (None unless ``async_op=True``; ``send``/``recv`` return 0). They share their implementation with
``ops.all_reduce``, ``ops.send`` ... (``ops/function/comm_func``, ``comm_p2p_func``); see there for how each
collective runs. Only the world group exists on GPU and CPU (``new_group`` of every rank returns it).
"""

from __future__ import annotations

from typing import Any

from .. import _checkparam as validator
from .._engine import _parallel
from ..common.tensor import Tensor
from ..ops.function import comm_func as _cf
from ..ops.function import comm_p2p_func as _p2p
from ..ops.function.comm_func import (
    destroy_process_group,
    get_backend,
    get_global_rank,
    get_group_rank,
    get_process_group_ranks,
    get_rank,
    get_world_size,
    init_process_group,
    is_available,
    is_initialized,
    new_group,
)
from ..ops.function.comm_p2p_func import (
    P2POp,
    all_gather_object,
    broadcast_object_list,
    gather_object,
    scatter_object_list,
    send_object_list,
)

__all__ = [
    "init_process_group",
    "destroy_process_group",
    "get_rank",
    "get_world_size",
    "new_group",
    "get_backend",
    "get_global_rank",
    "get_process_group_ranks",
    "get_group_rank",
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
    "send_object_list",
    "recv_object_list",
    "gather",
    "scatter",
    "all_gather",
    "reduce_scatter",
    "barrier",
    "broadcast",
    "reduce",
    "P2POp",
    "batch_isend_irecv",
    "all_gather_object",
    "broadcast_object_list",
    "gather_object",
    "scatter_object_list",
    "is_available",
    "is_initialized",
]


def all_reduce(tensor: Tensor, op: str = "sum", group: Any = None, async_op: bool = False) -> Any:
    """Reduce `tensor` over all ranks in place (``"sum"``, ``"prod"``, ``"min"``, ``"max"``, ``"avg"``)."""
    with _cf.inplace_mode(True):
        return _cf.all_reduce(tensor, op, group, async_op)


def all_gather_into_tensor(
    output_tensor: Tensor, input_tensor: Tensor, group: Any = None, async_op: bool = False
) -> Any:
    """Every rank's `input_tensor`, concatenated along dimension 0 into `output_tensor`."""
    with _cf.inplace_mode(True):
        return _cf.all_gather_into_tensor(output_tensor, input_tensor, group, async_op)


def all_gather_into_tensor_uneven(
    output: Tensor, input: Tensor, output_split_sizes: Any = None, group: Any = None, async_op: bool = False
) -> Any:
    """Every rank's `input` (first dimensions may differ), concatenated along dimension 0 into `output`."""
    with _cf.inplace_mode(True):
        return _cf.all_gather_into_tensor_uneven(output, input, output_split_sizes, group, async_op)


def all_to_all(output_tensor_list: Any, input_tensor_list: Any, group: Any = None, async_op: bool = False) -> Any:
    """``input_tensor_list[j]`` goes to rank `j`; rank `j`'s piece for this rank lands in ``output_tensor_list[j]``."""
    with _cf.inplace_mode(True):
        return _cf.all_to_all(output_tensor_list, input_tensor_list, group, async_op)


def all_to_all_single(
    output: Tensor,
    input: Tensor,
    output_split_sizes: Any = None,
    input_split_sizes: Any = None,
    group: Any = None,
    async_op: bool = False,
) -> Any:
    """Split `input` along dimension 0 among the ranks and gather the pieces sent here into `output`."""
    with _cf.inplace_mode(True):
        return _cf.all_to_all_single(output, input, output_split_sizes, input_split_sizes, group, async_op)


def reduce_scatter_tensor(
    output: Tensor, input: Tensor, op: str = "sum", group: Any = None, async_op: bool = False
) -> Any:
    """Reduce `input` over all ranks; this rank's equal slice of dimension 0 goes into `output`."""
    with _cf.inplace_mode(True):
        return _cf.reduce_scatter_tensor(output, input, op, group, async_op)


def reduce_scatter_tensor_uneven(
    output: Tensor,
    input: Tensor,
    input_split_sizes: Any = None,
    op: str = "sum",
    group: Any = None,
    async_op: bool = False,
) -> Any:
    """Reduce `input` over all ranks; this rank's ``input_split_sizes[rank]`` rows go into `output`."""
    with _cf.inplace_mode(True):
        return _cf.reduce_scatter_tensor_uneven(output, input, input_split_sizes, op, group, async_op)


def isend(tensor: Tensor, dst: int = 0, group: Any = None, tag: int = 0) -> Any:
    """Send `tensor` to rank `dst` without waiting; returns a handle."""
    return _p2p.isend(tensor, dst, group, tag)


def irecv(tensor: Tensor, src: int = 0, group: Any = None, tag: int = 0) -> Any:
    """Receive into `tensor` from rank `src`; the handle's ``wait()`` completes it."""
    with _cf.inplace_mode(True):
        return _p2p.irecv(tensor, src, group, tag)


def send(tensor: Tensor, dst: int = 0, group: Any = None, tag: int = 0) -> int:
    """Send `tensor` to rank `dst`; returns 0."""
    return _p2p.send(tensor, dst, group, tag)


def recv(tensor: Tensor, src: int = 0, group: Any = None, tag: int = 0) -> int:
    """Receive into `tensor` what rank `src` sent; returns 0."""
    with _cf.inplace_mode(True):
        return _p2p.recv(tensor, src, group, tag)


def recv_object_list(object_list: list, src: int = 0, group: Any = None, device: Any = None) -> None:
    """Receive into `object_list` the objects rank `src` sent with ``send_object_list``."""
    return _p2p.recv_object_list(object_list, src, group, device)


def gather(tensor: Tensor, gather_list: Any, dst: int = 0, group: Any = None, async_op: bool = False) -> Any:
    """Every rank's `tensor` into rank `dst`'s `gather_list` (one tensor per rank; ignored elsewhere)."""
    validator.check_comm_tensor(tensor, Tensor, "gather")
    validator.check_comm_rank(dst, _parallel.size(), "dst", "gather")
    _cf.group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    n = _parallel.size()
    mine = _parallel.rank() == dst
    if mine:
        outs = validator.check_comm_tensor_list(gather_list, Tensor, "gather", "gather_list")
        if len(outs) != n:
            raise TypeError(f"For gather, the length of 'gather_list' must be the group size {n}, but got {len(outs)}.")
    g = _cf.gathered(tensor._data)
    with _cf.inplace_mode(True):
        return _cf.result("gather", [_cf.wrap(g[i]) for i in range(n)], gather_list if mine else None, async_op)


def scatter(tensor: Tensor, scatter_list: Any, src: int = 0, group: Any = None, async_op: bool = False) -> Any:
    """Rank `src`'s ``scatter_list[i]`` into rank `i`'s `tensor` (`scatter_list` is used on `src` only)."""
    validator.check_comm_tensor(tensor, Tensor, "scatter")
    validator.check_comm_rank(src, _parallel.size(), "src", "scatter")
    _cf.group_of(group)
    validator.check_arg_bool(async_op, "async_op")
    n, r = _parallel.size(), _parallel.rank()
    if r == src:
        ins = validator.check_comm_tensor_list(scatter_list, Tensor, "scatter", "scatter_list")
        if len(ins) != n:
            raise TypeError(
                f"For scatter, the length of 'scatter_list' must be the group size {n}, but got {len(ins)}."
            )
        stacked = _cf.jnp.stack([t._data.astype(tensor._data.dtype) for t in ins])
    else:
        stacked = _cf.jnp.zeros((n, *tensor.shape), tensor._data.dtype)
    out = _cf.wrap(_cf.broadcasted(stacked, src)[r])
    with _cf.inplace_mode(True):
        return _cf.result("scatter", out, tensor, async_op)


def all_gather(tensor_list: Any, tensor: Tensor, group: Any = None, async_op: bool = False) -> Any:
    """Every rank's `tensor` into `tensor_list`, in rank order."""
    with _cf.inplace_mode(True):
        return _cf.all_gather(tensor_list, tensor, group, async_op)


def reduce_scatter(output: Tensor, input_list: Any, op: str = "sum", group: Any = None, async_op: bool = False) -> Any:
    """Reduce the `i`-th tensors of `input_list` over all ranks into rank `i`'s `output`."""
    with _cf.inplace_mode(True):
        return _cf.reduce_scatter(output, input_list, op, group, async_op)


def barrier(group: Any = None, async_op: bool = False, device_ids: Any = None) -> Any:
    """Block until every rank has called it."""
    return _cf.barrier(group, async_op, device_ids)


def broadcast(tensor: Tensor, src: int, group: Any = None, async_op: bool = False) -> Any:
    """Rank `src`'s `tensor`, written into every rank's `tensor`."""
    with _cf.inplace_mode(True):
        return _cf.broadcast(tensor, src, group, async_op)


def reduce(tensor: Tensor, dst: int, op: str = "sum", group: Any = None, async_op: bool = False) -> Any:
    """Reduce `tensor` over all ranks into rank `dst`'s `tensor`."""
    with _cf.inplace_mode(True):
        return _cf.reduce(tensor, dst, op, group, async_op)


def batch_isend_irecv(p2p_op_list: Any) -> Any:
    """Run the sends and receives of `p2p_op_list` (``P2POp``); returns one handle whose ``wait`` finishes them."""
    with _cf.inplace_mode(True):
        return _p2p.batch_isend_irecv(p2p_op_list)
