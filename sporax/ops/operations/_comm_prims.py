"""More collective primitives (MindSpore's ``ops.Reduce``, ``ops.AlltoAll``, ``ops.Send``/``ops.Receive`` ...),
each delegating to the communication functions of ``ops/function/comm_func`` and ``comm_p2p_func`` (the same
collectives as ``ops.AllReduce``). They run in PyNative; every rank makes the same collective calls in the
same order. ``Send``/``Receive``/``BatchISendIRecv``/``NeighborExchange(V2)`` are point-to-point (through the
process group's coordinator).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import _p2p, _parallel
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import arr, jnp, wrap
from ..function import comm_func as cf
from ..function import comm_p2p_func as p2p
from ._primitive import Primitive
from .comm_ops import HCCL_WORLD_COMM_GROUP, check_group

__all__ = [
    "Reduce",
    "CollectiveGather",
    "CollectiveScatter",
    "AllGatherV",
    "ReduceScatterV",
    "AlltoAll",
    "AlltoAllV",
    "AlltoAllVC",
    "_AllSwap",
    "Send",
    "Receive",
    "BatchISendIRecv",
    "NeighborExchange",
    "NeighborExchangeV2",
]


def _int(value: Any, name: str, prim: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{prim}', the '{name}' must be int, but got {type(value).__name__}.")
    return value


def _sizes(v: Any) -> list[int]:
    if isinstance(v, Tensor):
        v = np.asarray(arr(v)).tolist()
    return [int(x) for x in v]


def _flat_out(pieces: list[Any], dtype: Any) -> Tensor:
    if not pieces or sum(int(p.size) for p in pieces) == 0:
        return wrap(jnp.zeros((), dtype))
    return wrap(jnp.concatenate([jnp.ravel(p) for p in pieces]))


class Reduce(Primitive):
    """Reduces the tensor over all ranks into rank `dest_rank`; the other ranks get a tensor of shape
    ``(1,)`` (MindSpore's output shape there)."""

    def __init__(self, dest_rank: int, op: str = "sum", group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("Reduce")
        self.dest_rank = _int(dest_rank, "dest_rank", "Reduce")
        validator.check_comm_op(op, cf.REDUCE_OP_NAMES, "Reduce")
        self.op = op
        self.group = check_group(group, "Reduce")

    def __call__(self, input_x: Tensor) -> Tensor:
        validator.check_comm_tensor(input_x, Tensor, "Reduce")
        validator.check_comm_rank(self.dest_rank, _parallel.size(), "dest_rank", "Reduce")
        red = cf.reduced(arr(input_x), self.op)
        return wrap(red) if _parallel.rank() == self.dest_rank else wrap(jnp.zeros((1,), red.dtype))


class CollectiveGather(Primitive):
    """Concatenates every rank's tensor along dimension 0 on rank `dest_rank` (the others get a tensor of
    shape ``(1,)``)."""

    def __init__(self, dest_rank: int, group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("CollectiveGather")
        self.dest_rank = _int(dest_rank, "dest_rank", "CollectiveGather")
        self.group = check_group(group, "CollectiveGather")
        self.rank_size = _parallel.size()

    def __call__(self, input_x: Tensor) -> Tensor:
        validator.check_comm_tensor(input_x, Tensor, "CollectiveGather")
        validator.check_comm_rank(self.dest_rank, _parallel.size(), "dest_rank", "CollectiveGather")
        out = _parallel.collective("all_gather", arr(input_x))
        return wrap(out) if _parallel.rank() == self.dest_rank else wrap(jnp.zeros((1,), out.dtype))


class CollectiveScatter(Primitive):
    """Splits rank `src_rank`'s tensor into equal slices along dimension 0; rank `i` gets slice `i`."""

    def __init__(self, src_rank: int = 0, group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("CollectiveScatter")
        self.src_rank = _int(src_rank, "src_rank", "CollectiveScatter")
        self.group = check_group(group, "CollectiveScatter")
        self.rank_size = _parallel.size()

    def __call__(self, input_x: Tensor) -> Tensor:
        validator.check_comm_tensor(input_x, Tensor, "CollectiveScatter")
        return _scatter(input_x, self.src_rank)[0]


def _scatter(x: Tensor, src: int) -> tuple[Tensor, None]:
    validator.check_comm_rank(src, _parallel.size(), "src_rank", "CollectiveScatter")
    a = arr(x)
    n, r = _parallel.size(), _parallel.rank()
    if a.ndim == 0 or a.shape[0] % n:
        raise ValueError(
            f"For 'CollectiveScatter', the first dimension of the input must be divisible by the group size {n}, "
            f"but got shape {tuple(a.shape)}."
        )
    k = a.shape[0] // n
    return wrap(cf.broadcasted(a, src)[r * k : (r + 1) * k]), None


class AllGatherV(Primitive):
    """Gathers 1-D tensors of different lengths (``output_split_sizes[i]`` from rank `i`), concatenated."""

    def __init__(self, group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("AllGatherV")
        self.group = check_group(group, "AllGatherV")
        self.rank_size = _parallel.size()

    def __call__(self, input_x: Tensor, output_split_sizes: Any) -> Tensor:
        validator.check_comm_tensor(input_x, Tensor, "AllGatherV")
        a = jnp.ravel(arr(input_x))
        sizes = _sizes(output_split_sizes)
        n = _parallel.size()
        if len(sizes) != n or sizes[_parallel.rank()] != a.shape[0]:
            raise ValueError(
                f"For 'AllGatherV', the 'output_split_sizes' must have {n} entries with this rank's input length "
                f"{a.shape[0]} at its rank, but got {sizes}."
            )
        return _flat_out(cf.exchange([a] * n, a.dtype), a.dtype)


class ReduceScatterV(Primitive):
    """Reduces a 1-D tensor over all ranks; rank `i` gets ``input_split_sizes[i]`` elements (in order)."""

    def __init__(self, op: str = "sum", group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("ReduceScatterV")
        validator.check_comm_op(op, cf.REDUCE_OP_NAMES, "ReduceScatterV")
        self.op = op
        self.group = check_group(group, "ReduceScatterV")
        self.rank_size = _parallel.size()

    def __call__(self, input_x: Tensor, input_split_sizes: Any) -> Tensor:
        validator.check_comm_tensor(input_x, Tensor, "ReduceScatterV")
        a = jnp.ravel(arr(input_x))
        sizes = _sizes(input_split_sizes)
        n, r = _parallel.size(), _parallel.rank()
        if len(sizes) != n or sum(sizes) != a.shape[0]:
            raise ValueError(
                f"For 'ReduceScatterV', the 'input_split_sizes' must have {n} entries summing to {a.shape[0]}, "
                f"but got {sizes}."
            )
        start = sum(sizes[:r])
        return _flat_out([cf.reduced(a, self.op)[start : start + sizes[r]]], a.dtype)


class AlltoAll(Primitive):
    """Splits the input into `split_count` pieces along `split_dim`, sends piece `i` to rank `i`, and
    concatenates the pieces received along `concat_dim`, in rank order."""

    def __init__(self, split_count: int, split_dim: int, concat_dim: int, group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("AlltoAll")
        self.split_count = _int(split_count, "split_count", "AlltoAll")
        self.split_dim = _int(split_dim, "split_dim", "AlltoAll")
        self.concat_dim = _int(concat_dim, "concat_dim", "AlltoAll")
        self.group = check_group(group, "AlltoAll")

    def __call__(self, input_x: Tensor) -> Tensor:
        validator.check_comm_tensor(input_x, Tensor, "AlltoAll")
        a = arr(input_x)
        n = _parallel.size()
        if self.split_count != n:
            raise ValueError(
                f"For 'AlltoAll', the 'split_count' must be the group size {n}, but got {self.split_count}."
            )
        sd, cd = self.split_dim % a.ndim, self.concat_dim % a.ndim
        if a.shape[sd] % n:
            raise ValueError(
                f"For 'AlltoAll', the input shape[{sd}] must be divisible by 'split_count' {n}, but got {a.shape[sd]}."
            )
        pieces = jnp.split(a, n, axis=sd)
        got = cf.exchange(list(pieces), a.dtype)
        shape = pieces[0].shape
        return wrap(jnp.concatenate([g.reshape(shape) for g in got], axis=cd))


class AlltoAllV(Primitive):
    """All-to-all of a flat tensor: ``send_numel_list[j]`` elements go to rank `j` (in order),
    ``recv_numel_list[j]`` arrive from rank `j`; the output is what arrived, concatenated. `block_size`
    multiplies the counts."""

    def __init__(self, group: str = HCCL_WORLD_COMM_GROUP, block_size: int = 1) -> None:
        super().__init__("AlltoAllV")
        self.group = check_group(group, "AlltoAllV")
        self.block_size = _int(block_size, "block_size", "AlltoAllV")

    def __call__(self, input_x: Tensor, send_numel_list: Any, recv_numel_list: Any) -> Tensor:
        validator.check_comm_tensor(input_x, Tensor, "AlltoAllV")
        a = jnp.ravel(arr(input_x))
        send = [s * self.block_size for s in _sizes(send_numel_list)]
        recv = [s * self.block_size for s in _sizes(recv_numel_list)]
        n = _parallel.size()
        if len(send) != n or len(recv) != n or sum(send) != a.shape[0]:
            raise ValueError(
                f"For 'AlltoAllV', 'send_numel_list' and 'recv_numel_list' must have {n} entries and the sends must "
                f"sum to the input's {a.shape[0]} elements, but got {send} and {recv}."
            )
        starts = np.cumsum([0, *send])
        got = cf.exchange([a[starts[j] : starts[j + 1]] for j in range(n)], a.dtype)
        if [int(g.size) for g in got] != recv:
            raise ValueError(
                f"For 'AlltoAllV', received {[int(g.size) for g in got]} elements, but 'recv_numel_list' is {recv}."
            )
        return _flat_out(got, a.dtype)


class AlltoAllVC(Primitive):
    """All-to-all of a flat tensor by a global count matrix: ``send_count_matrix[i * N + j]`` elements go
    from rank `i` to rank `j` (times `block_size`). `transpose` is accepted."""

    def __init__(self, group: str = HCCL_WORLD_COMM_GROUP, block_size: int = 1, transpose: bool = False) -> None:
        super().__init__("AlltoAllVC")
        self.group = check_group(group, "AlltoAllVC")
        self.block_size = _int(block_size, "block_size", "AlltoAllVC")
        self.transpose = transpose

    def __call__(self, input_x: Tensor, send_count_matrix: Any) -> Tensor:
        validator.check_comm_tensor(input_x, Tensor, "AlltoAllVC")
        counts = [c * self.block_size for c in _sizes(send_count_matrix)]
        out = _vc(input_x, counts)[0]
        return out if int(np.prod(out.shape)) else wrap(jnp.zeros((), arr(input_x).dtype))


def _vc(x: Tensor, counts: list[int]) -> tuple[Tensor, None]:
    with cf.inplace_mode(False):
        out, _ = cf.all_to_all_v_c(None, x, counts)
    return out, None


class _AllSwap(Primitive):
    """Exchanges rows: ``send_size[j]`` rows of the input (in order, along dimension 0) go to rank `j`;
    ``recv_size[j]`` rows arrive from rank `j`, concatenated in rank order."""

    def __init__(self, group: str = HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__("_AllSwap")
        self.group = check_group(group, "_AllSwap")

    def __call__(self, tensor_in: Tensor, send_size: Any, recv_size: Any) -> Tensor:
        validator.check_comm_tensor(tensor_in, Tensor, "_AllSwap")
        with cf.inplace_mode(False):
            out, _ = cf.all_to_all_single(None, tensor_in, _sizes(recv_size), _sizes(send_size))
        return out


class Send(Primitive):
    """Sends the input to rank `dest_rank` with tag `sr_tag` (matched by ``Receive`` there); returns the input."""

    def __init__(
        self, sr_tag: int, dest_rank: int, group: str = HCCL_WORLD_COMM_GROUP, group_back: str = HCCL_WORLD_COMM_GROUP
    ) -> None:
        super().__init__("Send")
        self.sr_tag = _int(sr_tag, "sr_tag", "Send")
        self.dest_rank = _int(dest_rank, "dest_rank", "Send")
        self.group = check_group(group, "Send")
        self.group_back = group_back

    def __call__(self, input_x: Tensor) -> Tensor:
        p2p.send(input_x, self.dest_rank, None, self.sr_tag)
        return input_x


class Receive(Primitive):
    """Receives from rank `src_rank` the tensor sent with tag `sr_tag`, of `shape` and `dtype`."""

    def __init__(
        self,
        sr_tag: int,
        src_rank: int,
        shape: Any,
        dtype: Any,
        group: str = HCCL_WORLD_COMM_GROUP,
        group_back: str = HCCL_WORLD_COMM_GROUP,
    ) -> None:
        super().__init__("Receive")
        self.sr_tag = _int(sr_tag, "sr_tag", "Receive")
        self.src_rank = _int(src_rank, "src_rank", "Receive")
        if not isinstance(shape, list | tuple):
            raise TypeError(f"For 'Receive', the 'shape' must be a list or tuple, but got {type(shape).__name__}.")
        self.shape, self.dtype = list(shape), dtype
        self.group = check_group(group, "Receive")
        self.group_back = group_back

    def __call__(self, *args: Any) -> Tensor:
        buf = Tensor(np.zeros(self.shape, mstype.to_np(self.dtype)))
        with cf.inplace_mode(True):
            p2p.recv(buf, self.src_rank, None, self.sr_tag)
        return buf


class BatchISendIRecv(Primitive):
    """Sends and receives in one batch: ``op_types[k]`` (``"isend"``/``"irecv"``) with rank
    ``remote_ranks[k]``; the inputs are the tensors to send (None for receives), the outputs the received
    tensors (``receive_shapes``/``receive_dtypes``, in order) and the sent ones."""

    def __init__(
        self,
        op_types: Any,
        remote_ranks: Any,
        receive_shapes: Any = None,
        receive_dtypes: Any = None,
        group: str = HCCL_WORLD_COMM_GROUP,
    ) -> None:
        super().__init__("BatchISendIRecv")
        receive_shapes = list(receive_shapes or [])
        receive_dtypes = list(receive_dtypes or [])
        if len(receive_shapes) != len(receive_dtypes):
            raise ValueError(
                "length of receive_shapes and receive_shapes must be the same, "
                f"but got receive_shapes: {len(receive_shapes)}  and receive_dtypes: {len(receive_dtypes)}"
            )
        if len(op_types) != len(remote_ranks):
            raise ValueError("length of op_types and remote_ranks must be the same.")
        for t in op_types:
            if t not in ("isend", "irecv"):
                raise TypeError(f"For 'BatchISendIRecv', op_types must be 'isend' or 'irecv', but got {t!r}.")
        self.op_types, self.remote_ranks = list(op_types), list(remote_ranks)
        self.receive_shapes, self.receive_dtypes = receive_shapes, receive_dtypes
        self.group = check_group(group, "BatchISendIRecv")

    def __call__(self, input_x: Any) -> tuple[Tensor, ...]:
        sends = iter(x for x in input_x if x is not None)
        recv_specs = iter(zip(self.receive_shapes, self.receive_dtypes))
        ops, outs = [], []
        for kind, peer in zip(self.op_types, self.remote_ranks):
            if kind == "isend":
                t = next(sends)
            else:
                shape, dtype = next(recv_specs)
                t = Tensor(np.zeros(list(shape), mstype.to_np(dtype)))
            ops.append(p2p.P2POp(kind, t, peer))
            outs.append(t)
        if ops:
            with cf.inplace_mode(True):
                for h in p2p.batch_isend_irecv(ops):
                    h.wait()
        return tuple(outs)


class NeighborExchange(Primitive):
    """Sends ``input_x[k]`` to rank ``send_rank_ids[k]`` and receives from each rank of `recv_rank_ids` a
    tensor of ``recv_shapes[k]`` and `recv_type`; returns the received tensors."""

    def __init__(
        self,
        send_rank_ids: Any,
        recv_rank_ids: Any,
        recv_shapes: Any,
        send_shapes: Any,
        recv_type: Any,
        group: str = HCCL_WORLD_COMM_GROUP,
    ) -> None:
        super().__init__("NeighborExchange")
        self.send_rank_ids, self.recv_rank_ids = list(send_rank_ids), list(recv_rank_ids)
        self.recv_shapes, self.send_shapes = [list(s) for s in recv_shapes], [list(s) for s in send_shapes]
        if len(self.send_rank_ids) != len(self.send_shapes) or len(self.recv_rank_ids) != len(self.recv_shapes):
            raise ValueError("For 'NeighborExchange', the rank ids and shapes must have the same lengths.")
        self.recv_type = recv_type
        self.group = check_group(group, "NeighborExchange")

    def __call__(self, input_x: Any) -> tuple[Tensor, ...]:
        xs = list(input_x)
        if len(xs) != len(self.send_rank_ids):
            raise ValueError(
                f"For 'NeighborExchange', the input must have {len(self.send_rank_ids)} tensors, but got {len(xs)}."
            )
        for x, peer, shape in zip(xs, self.send_rank_ids, self.send_shapes):
            if list(x.shape) != shape:
                raise ValueError(
                    f"For 'NeighborExchange', the tensor sent to rank {peer} must have shape {shape}, but got {list(x.shape)}."
                )
            p2p.send(x, peer, None, 0)
        outs = []
        for peer, shape in zip(self.recv_rank_ids, self.recv_shapes):
            buf = Tensor(np.zeros(shape, mstype.to_np(self.recv_type)))
            with cf.inplace_mode(True):
                p2p.recv(buf, peer, None, 0)
            outs.append(buf)
        return tuple(outs)


class NeighborExchangeV2(Primitive):
    """A 2-D halo exchange of NCHW tensors with the 8 neighbours (directions: top, top-right, right,
    bottom-right, bottom, bottom-left, left, top-left; -1: none). `send_lens` / `recv_lens` are the
    ``[top, bottom, left, right]`` widths sent and received; the output is the input padded by `recv_lens`
    with the received blocks in place (corners from the diagonal neighbours, zeros where nothing is received).
    Point-to-point through the process group's coordinator, in PyNative.

    Raises:
        TypeError: If the rank lists or lens are not lists.
        ValueError: If they have the wrong length or values, or `data_format` is not ``"NCHW"``.
    """

    def __init__(
        self,
        send_rank_ids: Any,
        send_lens: Any,
        recv_rank_ids: Any,
        recv_lens: Any,
        data_format: str,
        group: str = HCCL_WORLD_COMM_GROUP,
    ) -> None:
        super().__init__("NeighborExchangeV2")
        for what, v, n in (
            ("send_rank_ids", send_rank_ids, 8),
            ("recv_rank_ids", recv_rank_ids, 8),
            ("send_lens", send_lens, 4),
            ("recv_lens", recv_lens, 4),
        ):
            if not isinstance(v, list):
                raise TypeError(f"For 'NeighborExchangeV2', the '{what}' must be a list, but got {type(v).__name__}.")
            if len(v) != n or not all(isinstance(i, int) and not isinstance(i, bool) for i in v):
                raise ValueError(f"For 'NeighborExchangeV2', the '{what}' must be a list of {n} ints, but got {v}.")
            low = -1 if what.endswith("ids") else 0
            if any(i < low for i in v):
                raise ValueError(
                    f"For 'NeighborExchangeV2', the values of '{what}' must be at least {low}, but got {v}."
                )
        if data_format != "NCHW":
            raise ValueError(f"For 'NeighborExchangeV2', the 'data_format' must be 'NCHW', but got {data_format}.")
        self.send_rank_ids, self.send_lens = list(send_rank_ids), list(send_lens)
        self.recv_rank_ids, self.recv_lens, self.data_format = list(recv_rank_ids), list(recv_lens), data_format
        self.format = data_format
        self.group = check_group(group, "NeighborExchangeV2")
        self.rank_size = _parallel.size()

    _TAG = 1 << 20  # + the sender's direction

    def __call__(self, input_x: Tensor) -> Tensor:
        validator.check_comm_tensor(input_x, Tensor, "NeighborExchangeV2")
        a = np.asarray(arr(input_x))
        if a.ndim != 4:
            raise ValueError(f"For 'NeighborExchangeV2', the input must be 4-D (NCHW), but got shape {a.shape}.")
        h, w = a.shape[2], a.shape[3]
        st, sb, sl, sr = self.send_lens
        rt, rb, rl, rr = self.recv_lens
        rows = {"t": (slice(0, st), st), "b": (slice(h - sb, h), sb), "m": (slice(0, h), h)}
        cols = {"l": (slice(0, sl), sl), "r": (slice(w - sr, w), sr), "m": (slice(0, w), w)}
        where = ["tm", "tr", "mr", "br", "bm", "bl", "ml", "tl"]  # the 8 directions as (row, col) parts
        for k, peer in enumerate(self.send_rank_ids):
            if peer != -1:
                (ri, _), (ci, _) = rows[where[k][0]], cols[where[k][1]]
                p2p._peer(peer, "NeighborExchangeV2", "send_rank_ids")
                _p2p.send_bytes(_p2p.encode(np.ascontiguousarray(a[:, :, ri, ci])), peer, self._TAG + k)
        out = np.zeros((a.shape[0], a.shape[1], h + rt + rb, w + rl + rr), a.dtype)
        out[:, :, rt : rt + h, rl : rl + w] = a
        orow = {"t": slice(0, rt), "b": slice(rt + h, rt + h + rb), "m": slice(rt, rt + h)}
        ocol = {"l": slice(0, rl), "r": slice(rl + w, rl + w + rr), "m": slice(rl, rl + w)}
        for k, peer in enumerate(self.recv_rank_ids):
            if peer != -1:
                p2p._peer(peer, "NeighborExchangeV2", "recv_rank_ids")
                block = _p2p.decode(_p2p.recv_bytes(peer, self._TAG + (k + 4) % 8))  # sent towards us
                target = out[:, :, orow[where[k][0]], ocol[where[k][1]]]
                if block.shape != target.shape:
                    raise ValueError(
                        f"For 'NeighborExchangeV2', the block from rank {peer} has shape {block.shape}, but "
                        f"'recv_lens' {self.recv_lens} gives {target.shape}."
                    )
                out[:, :, orow[where[k][0]], ocol[where[k][1]]] = block
        return wrap(jnp.asarray(out))
