"""``Dataset.send`` / ``Dataset.recv``: one row (a list of Tensors) sent from one rank's pipeline to others over
``mint.distributed`` point-to-point communication (MindSpore's own design, loaded on first call): first a
metadata vector (int64 ``[_META_LEN]``: the tensor count, then each tensor's rank, shape and dtype code), then
each tensor."""

from __future__ import annotations

import numpy as np

_META_LEN = 2048
_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
           "float32", "float64", "bfloat16", "complex64", "complex128")  # fmt: skip


def _flatten(items: list):
    """``[[a]] -> a``, ``[[a, b], [c]] -> [a, b, c]`` (MindSpore's single-item unwrapping)."""
    flat = [t for group in items for t in (group if isinstance(group, (list, tuple)) else [group])]
    return flat[0] if len(flat) == 1 else flat


def _next_row(dataset) -> list:
    if getattr(dataset, "_dataset_iter", None) is None:
        dataset._dataset_iter = dataset.create_tuple_iterator()
    while True:
        try:
            return list(next(dataset._dataset_iter))
        except StopIteration:
            continue


def _dtype_name(t) -> str:
    return str(t.dtype).replace("mindspore.", "").replace("sporax.", "").lower()


def send(dataset, tensor=None, dst=0, group=None) -> None:
    from ...common.tensor import Tensor
    from ...mint import distributed as dist

    dsts = [dst] if isinstance(dst, int) else list(dst)
    if tensor is not None:
        tensors = [tensor] if isinstance(tensor, Tensor) else list(tensor)
    else:
        tensors = _next_row(dataset)
        for index, item in enumerate(tensors):
            if not isinstance(item, Tensor):
                raise RuntimeError(
                    f"The data column at index: {index} is not Tensor which is not supported to send. You can remove "
                    "it using the dataset.project operation."
                )
    meta = [len(tensors)]
    for t in tensors:
        name = _dtype_name(t)
        if name not in _DTYPES:
            raise RuntimeError(f"Tensor of dtype: {t.dtype} is not supported to send.")
        meta += [len(t.shape), *t.shape, _DTYPES.index(name)]
    if len(meta) > _META_LEN:
        raise RuntimeError(f"The metadata of the data to send is longer than {_META_LEN}.")
    buf = np.zeros(_META_LEN, np.int64)
    buf[: len(meta)] = meta
    for rank in dsts:
        dist.send(Tensor(buf), rank, group)
        for t in tensors:
            dist.send(t, rank, group)


def _recv_one(src, group) -> list:
    from ...common import dtype as mstype
    from ...common.tensor import Tensor
    from ...mint import distributed as dist

    meta = Tensor(np.zeros(_META_LEN, np.int64))
    if dist.recv(meta, src, group) != 0:
        raise RuntimeError("Receive meta failed by mint.recv(...)")
    m = meta.asnumpy().tolist()
    pos, out = 1, []
    for _ in range(int(m[0])):
        ndim = int(m[pos])
        shape = [int(v) for v in m[pos + 1 : pos + 1 + ndim]]
        dtype = getattr(mstype, _DTYPES[int(m[pos + 1 + ndim])])
        pos += ndim + 2
        out.append(Tensor(np.zeros(shape), dtype=dtype))
    for t in out:
        if dist.recv(t, src, group) != 0:
            raise RuntimeError("Receive data failed by mint.recv(...)")
    return out


def recv(dataset, src=0, group=None):
    from ...mint import distributed as dist

    srcs = [src] if isinstance(src, int) else list(src)
    me = dist.get_rank()
    return _flatten([_next_row(dataset) if rank == me else _recv_one(rank, group) for rank in srcs])
