"""Point-to-point messages between ranks, and Python objects for the object collectives.

XLA's collectives run inside one program that every rank executes, so a ``send`` on one rank matched by a
``recv`` on another (different calls on different ranks) cannot be an XLA collective. They go through the
key-value store of the coordination service that ``jax.distributed`` runs for the process group (the
``sporax launch`` coordinator): the sender stores the message under a key naming (source, destination,
tag, sequence number), the receiver blocks until it appears and deletes it. This is a control-plane
channel: right for objects, small tensors and pipelines' activations of modest size, not a bandwidth path.
With one process there is no peer (a rank cannot send to itself).
"""

from __future__ import annotations

import io
import itertools
import threading
from collections import defaultdict
from typing import Any

import numpy as np

from . import _parallel

PREFIX = "sporax/p2p"
TIMEOUT_MS = 300_000

_lock = threading.Lock()
_send_seq: dict[tuple[int, int], itertools.count] = defaultdict(itertools.count)
_recv_seq: dict[tuple[int, int], itertools.count] = defaultdict(itertools.count)
_coll_seq = itertools.count()


def _client() -> Any:
    from jax._src import distributed

    client = distributed.global_state.client
    if client is None:
        raise RuntimeError(
            "sporax: point-to-point communication needs the process group of 'sporax launch -n N' "
            "(this process runs alone)."
        )
    return client


def encode(a: Any) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.asarray(a), allow_pickle=False)
    return buf.getvalue()


def decode(b: bytes) -> np.ndarray:
    return np.load(io.BytesIO(b), allow_pickle=False)


def _key(src: int, dst: int, tag: int, seq: int) -> str:
    return f"{PREFIX}/{src}/{dst}/{tag}/{seq}"


def send_bytes(data: bytes, dst: int, tag: int = 0) -> None:
    """Queue `data` for rank `dst` (returns at once: the store keeps it until received)."""
    src = _parallel.rank()
    with _lock:
        seq = next(_send_seq[(dst, tag)])
    _client().key_value_set_bytes(_key(src, dst, tag, seq), data)


def recv_bytes(src: int, tag: int = 0, timeout_ms: int = TIMEOUT_MS) -> bytes:
    """The next message from rank `src` with `tag` (blocks until it arrives)."""
    dst = _parallel.rank()
    with _lock:
        seq = next(_recv_seq[(src, tag)])
    client = _client()
    key = _key(src, dst, tag, seq)
    data = client.blocking_key_value_get_bytes(key, timeout_ms)
    client.key_value_delete(key)
    return bytes(data)


def exchange_all(data: bytes, name: str) -> list[bytes]:
    """Every rank's `data`, in rank order (all ranks call it in the same order)."""
    n, r = _parallel.size(), _parallel.rank()
    if n == 1:
        return [data]
    seq = next(_coll_seq)
    client = _client()
    base = f"sporax/coll/{name}/{seq}"
    client.key_value_set_bytes(f"{base}/{r}", data)
    out = [bytes(client.blocking_key_value_get_bytes(f"{base}/{i}", TIMEOUT_MS)) for i in range(n)]
    client.wait_at_barrier(f"{base}/done", TIMEOUT_MS)
    client.key_value_delete(f"{base}/{r}")
    return out


def barrier(name: str = "barrier") -> None:
    """Every rank reaches this point (through the coordinator, no device program)."""
    if _parallel.size() > 1:
        _client().wait_at_barrier(f"sporax/bar/{name}/{next(_coll_seq)}", TIMEOUT_MS)
