"""Point-to-point and object communication of ``mindspore.ops`` / ``mint.distributed``: ``send``/``recv``,
``isend``/``irecv``, ``P2POp``/``batch_isend_irecv``, the ``*_object*`` collectives and ``TCPStore``.

Messages travel through the coordination service's key-value store of ``sporax launch``'s process group
(``_engine/_p2p``): a send returns at once (the store holds the message), a receive blocks until the
message from that rank with that tag arrives. Objects are pickled (only unpickle objects from ranks of
your own job, as with any pickle).
"""

from __future__ import annotations

import pickle
import threading
import time
from datetime import timedelta
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import _p2p, _parallel
from ...common.tensor import Tensor
from .._utils import arr, jnp, wrap
from .comm_func import CommHandle, group_of, inplace

__all__ = [
    "send",
    "recv",
    "isend",
    "irecv",
    "P2POp",
    "batch_isend_irecv",
    "all_gather_object",
    "broadcast_object_list",
    "gather_object",
    "scatter_object_list",
    "send_object_list",
    "recv_object_list",
    "TCPStore",
]


_OBJECT_TAG = 2**31 - 1  # the tag of send_object_list / recv_object_list messages


def _peer(value: Any, name: str, what: str) -> int:
    return validator.check_comm_peer(value, _parallel.size(), _parallel.rank(), what, name)


def _received(tensor: Tensor, data: bytes, name: str) -> Any:
    a = _p2p.decode(data)
    if tuple(a.shape) != tuple(tensor.shape):
        raise ValueError(
            f"For '{name}', the received shape {tuple(a.shape)} differs from the tensor's {tuple(tensor.shape)}."
        )
    return jnp.asarray(a).astype(arr(tensor).dtype)


def send(tensor: Tensor, dst: int = 0, group: Any = None, tag: int = 0) -> int:
    """Send `tensor` to rank `dst` (matched by a ``recv`` there with the same tag); returns 0."""
    validator.check_comm_tensor(tensor, Tensor, "send")
    group_of(group)
    _peer(dst, "send", "dst")
    _p2p.send_bytes(_p2p.encode(np.asarray(arr(tensor))), dst, validator.check_comm_tag(tag, "send"))
    return 0


def recv(tensor: Tensor, src: int = 0, group: Any = None, tag: int = 0) -> Any:
    """Receive into `tensor` (its shape and dtype) what rank `src` sent with `tag`. In place (the default)
    returns 0; with ``set_comm_ops_inplace(False)`` returns the received Tensor and leaves `tensor` alone."""
    validator.check_comm_tensor(tensor, Tensor, "recv")
    group_of(group)
    _peer(src, "recv", "src")
    value = _received(tensor, _p2p.recv_bytes(src, validator.check_comm_tag(tag, "recv")), "recv")
    if inplace("recv"):
        tensor.assign_value(wrap(value))
        return 0
    return wrap(value)


def isend(tensor: Tensor, dst: int = 0, group: Any = None, tag: int = 0) -> CommHandle:
    """Send `tensor` to rank `dst` without waiting; returns a handle (the message is queued at once)."""
    send(tensor, dst, group, tag)
    return CommHandle()


def irecv(tensor: Tensor, src: int = 0, group: Any = None, tag: int = 0) -> Any:
    """Start receiving into `tensor` from rank `src`; ``handle.wait()`` blocks until it arrived and is
    written. In place (the default) returns the handle; else ``(output, handle)`` (valid after wait)."""
    validator.check_comm_tensor(tensor, Tensor, "irecv")
    group_of(group)
    _peer(src, "irecv", "src")
    validator.check_comm_tag(tag, "irecv")
    box: dict[str, Any] = {}
    out = Tensor(np.zeros(tuple(tensor.shape), np.asarray(arr(tensor)).dtype)) if not inplace("irecv") else tensor

    def run() -> None:
        try:
            box["data"] = _p2p.recv_bytes(src, tag)
        except Exception as err:  # noqa: BLE001  (re-raised by wait)
            box["error"] = err

    worker = threading.Thread(target=run, daemon=True)
    worker.start()

    def finish() -> None:
        worker.join()
        if "error" in box:
            raise box["error"]
        out.assign_value(wrap(_received(tensor, box["data"], "irecv")))

    handle = CommHandle(out, on_wait=finish)
    return handle if inplace("irecv") else (out, handle)


class P2POp:
    """One point-to-point operation for :func:`batch_isend_irecv`: `op` is ``"isend"``/``"irecv"`` (or the
    functions ``isend``/``irecv``), `peer` the other rank.

    Raises:
        TypeError: If `op` is not a str or function, or `tensor` is not a Tensor.
        ValueError: If `op` is not ``isend``/``irecv``.
    """

    def __init__(self, op: Any, tensor: Tensor, peer: int, group: Any = None, tag: int = 0) -> None:
        if not (isinstance(op, str) or callable(op)):
            raise TypeError(f"op must be type of string or function, but got type of {type(op)}")
        name = op if isinstance(op, str) else getattr(op, "__name__", None)
        if name not in ("isend", "irecv"):
            raise ValueError(f"Expected ``op`` to be of type ``isend`` or `irecv``, but got {name}")
        if not isinstance(tensor, Tensor):
            raise TypeError(f"Expected ``tensor`` to be type of tensor, but got {type(tensor)}")
        self.op, self.tensor, self.peer, self.group, self.tag = name, tensor, peer, group, tag


def batch_isend_irecv(p2p_op_list: Any) -> list[CommHandle]:
    """Run the sends, then the receives, of `p2p_op_list`; returns one handle (its ``wait`` finishes the
    receives)."""
    if not isinstance(p2p_op_list, list | tuple) or not p2p_op_list:
        raise TypeError(f"p2p_op_list must be a non-empty list of P2POp, but got {p2p_op_list!r}.")
    if not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise TypeError("All elements in p2p_op_list must be P2POp.")
    for p in p2p_op_list:
        if p.op == "isend":
            send(p.tensor, p.peer, p.group, p.tag)
    recvs = [irecv(p.tensor, p.peer, p.group, p.tag) for p in p2p_op_list if p.op == "irecv"]
    handles = [h if isinstance(h, CommHandle) else h[1] for h in recvs]

    def finish() -> None:
        for h in handles:
            h.wait()

    return [CommHandle(on_wait=finish)]


# ------------------------------------------------------------------------------ object collectives
def all_gather_object(object_list: list, obj: Any, group: Any = None) -> None:
    """Every rank's `obj` into `object_list` (as long as the group), in rank order."""
    validator.check_arg_list(object_list, "object_list", "all_gather_object")
    group_of(group)
    n = _parallel.size()
    if len(object_list) != n:
        raise TypeError(
            f"For 'all_gather_object', the length of 'object_list' must be {n}, but got {len(object_list)}."
        )
    for i, data in enumerate(_p2p.exchange_all(pickle.dumps(obj), "all_gather_object")):
        object_list[i] = pickle.loads(data)


def broadcast_object_list(object_list: list, src: int = 0, group: Any = None, device: Any = None) -> None:
    """Rank `src`'s `object_list` items, on every rank (in place; the lists have the same length)."""
    validator.check_arg_list(object_list, "object_list", "broadcast_object_list")
    validator.check_comm_rank(src, _parallel.size(), "src", "broadcast_object_list")
    group_of(group)
    mine = pickle.dumps(list(object_list)) if _parallel.rank() == src else b""
    got = pickle.loads(_p2p.exchange_all(mine, "broadcast_object_list")[src])
    object_list[:] = got[: len(object_list)] if len(object_list) else got


def gather_object(obj: Any, object_gather_list: Any = None, dst: int = 0, group: Any = None) -> None:
    """Every rank's `obj` into rank `dst`'s `object_gather_list` (None on the other ranks)."""
    validator.check_comm_rank(dst, _parallel.size(), "dst", "gather_object")
    group_of(group)
    n = _parallel.size()
    if _parallel.rank() == dst:
        validator.check_arg_list(object_gather_list, "object_gather_list", "gather_object")
        if len(object_gather_list) != n:
            raise TypeError(f"For 'gather_object', the length of 'object_gather_list' must be {n}.")
    got = _p2p.exchange_all(pickle.dumps(obj), "gather_object")
    if _parallel.rank() == dst:
        for i, data in enumerate(got):
            object_gather_list[i] = pickle.loads(data)


def scatter_object_list(
    scatter_object_output_list: list, scatter_object_input_list: Any, src: int = 0, group: Any = None
) -> None:
    """Rank `src`'s ``scatter_object_input_list[i]`` into rank `i`'s ``scatter_object_output_list[0]``."""
    validator.check_arg_list(scatter_object_output_list, "scatter_object_output_list", "scatter_object_list")
    if not scatter_object_output_list:
        raise TypeError("For 'scatter_object_list', the 'scatter_object_output_list' must not be empty.")
    validator.check_comm_rank(src, _parallel.size(), "src", "scatter_object_list")
    group_of(group)
    n, r = _parallel.size(), _parallel.rank()
    if r == src:
        validator.check_arg_list(scatter_object_input_list, "scatter_object_input_list", "scatter_object_list")
        if len(scatter_object_input_list) != n:
            raise TypeError(f"For 'scatter_object_list', the length of 'scatter_object_input_list' must be {n}.")
    mine = pickle.dumps(list(scatter_object_input_list)) if r == src else b""
    scatter_object_output_list[0] = pickle.loads(_p2p.exchange_all(mine, "scatter_object_list")[src])[r]


def send_object_list(object_list: list, dst: int, group: Any = None, device: Any = None) -> None:
    """Send the objects of `object_list` to rank `dst` (matched by ``recv_object_list`` there)."""
    validator.check_arg_list(object_list, "object_list", "send_object_list")
    group_of(group)
    _peer(dst, "send_object_list", "dst")
    _p2p.send_bytes(pickle.dumps(list(object_list)), dst, tag=_OBJECT_TAG)


def recv_object_list(object_list: list, src: int = 0, group: Any = None, device: Any = None) -> None:
    """Receive into `object_list` (same length) the objects rank `src` sent with ``send_object_list``."""
    validator.check_arg_list(object_list, "object_list", "recv_object_list")
    group_of(group)
    _peer(src, "recv_object_list", "src")
    got = pickle.loads(_p2p.recv_bytes(src, tag=_OBJECT_TAG))
    object_list[: len(got)] = got[: len(object_list)]


# ------------------------------------------------------------------------------------------ TCPStore
class TCPStore:
    """A key-value store shared by the ranks: the coordination service of ``sporax launch``'s process
    group (one process: a store in this process). `host_name`/`port`/`is_master` and the server options
    are accepted: the launcher's coordinator is the server. Values are bytes (str values are encoded).

    Methods: ``set(key, value)``, ``get(key)`` (waits up to `timeout` for the key), ``add(key, amount)``
    (an integer counter, returns the new value), ``delete_key(key)``.
    """

    _local: dict[str, bytes] = {}

    def __init__(
        self,
        host_name: str,
        port: int,
        world_size: Any = None,
        is_master: bool = False,
        timeout: timedelta = timedelta(seconds=300),
        wait_for_workers: bool = True,
        multi_tenant: bool = False,
        master_listen_fd: Any = None,
        use_libuv: bool = True,
    ) -> None:
        if not isinstance(host_name, str):
            raise TypeError(f"For 'TCPStore', the 'host_name' must be str, but got {type(host_name)}.")
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise ValueError(f"For 'TCPStore', the 'port' must be an int in [0, 65535], but got {port!r}.")
        if not isinstance(timeout, timedelta):
            raise TypeError(f"For 'TCPStore', the 'timeout' must be a datetime.timedelta, but got {type(timeout)}.")
        self.host_name, self.port, self.world_size, self.is_master = host_name, port, world_size, is_master
        self.timeout = timeout

    @staticmethod
    def _key(key: Any) -> str:
        if not isinstance(key, str):
            raise TypeError(f"For 'TCPStore', the key must be str, but got {type(key)}.")
        return f"sporax/store/{key}"

    def _shared(self) -> bool:
        return _parallel.size() > 1

    def set(self, key: str, value: Any) -> None:
        data = value.encode() if isinstance(value, str) else bytes(value)
        if self._shared():
            _p2p._client().key_value_set_bytes(self._key(key), data, allow_overwrite=True)
        else:
            self._local[self._key(key)] = data

    def get(self, key: str) -> bytes:
        k = self._key(key)
        if self._shared():
            return bytes(_p2p._client().blocking_key_value_get_bytes(k, int(self.timeout.total_seconds() * 1000)))
        deadline = time.monotonic() + self.timeout.total_seconds()
        while k not in self._local:
            if time.monotonic() > deadline:
                raise RuntimeError(f"For 'TCPStore.get', the key '{key}' was not set within the timeout.")
            time.sleep(0.01)
        return self._local[k]

    def add(self, key: str, amount: int) -> int:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise TypeError(f"For 'TCPStore.add', the 'amount' must be int, but got {type(amount)}.")
        k = self._key(key)
        if self._shared():
            return int(_p2p._client().key_value_increment(k, amount))
        value = int(self._local.get(k, b"0")) + amount
        self._local[k] = str(value).encode()
        return value

    def delete_key(self, key: str) -> bool:
        k = self._key(key)
        if self._shared():
            _p2p._client().key_value_delete(k)
            return True
        return self._local.pop(k, None) is not None
