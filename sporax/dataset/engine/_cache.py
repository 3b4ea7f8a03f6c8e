"""``DatasetCache``: sporax's stand-in for MindSpore's cache server. A source or a ``map`` given ``cache=`` keeps
the rows it produced in one full pass; later passes, and other pipelines in this process that use a cache with
the same ``session_id`` on a node of the same description (its JSON form), read them back instead of
recomputing. ``size`` (MB, 0: unlimited) bounds memory; with ``spilling=True`` what exceeds it goes to a
temporary directory on disk. ``hostname``, ``port``, ``num_connections`` and ``prefetch_size`` are kept for
compatibility (there is no server to reach)."""

from __future__ import annotations

import functools
import json
import os
import pickle
import tempfile
import threading

from ..._checkparam import check_pipeline_int, check_pipeline_type

__all__ = ["DatasetCache"]

_SESSIONS: dict[int, dict] = {}
_LOCK = threading.Lock()


class DatasetCache:
    """A cache shared by the pipelines of this process that use the same ``session_id``.

    Args:
        session_id (int): the cache session (MindSpore's ``cache_admin`` id).
        size (int, optional): memory in MB, 0 for unlimited. Default: ``0``.
        spilling (bool, optional): spill what exceeds ``size`` to disk. Default: ``False``.
        hostname, port, num_connections, prefetch_size: MindSpore's server settings, kept for compatibility.

    Raises:
        TypeError / ValueError: an argument has the wrong type or range.
    """

    def __init__(self, session_id, size=0, spilling=False, hostname=None, port=None, num_connections=None,
                 prefetch_size=None) -> None:  # fmt: skip
        self.session_id = check_pipeline_int(session_id, "session_id", 0, 2**32 - 1)
        self.size = check_pipeline_int(size, "size", 0, 2**63 - 1)
        check_pipeline_type(spilling, bool, "spilling", got=False)
        if hostname is not None:
            check_pipeline_type(hostname, str, "hostname", got=False)
        if port is not None:
            check_pipeline_int(port, "port", 1025, 65535)
        if num_connections is not None:
            check_pipeline_int(num_connections, "num_connections", 1, 2**31 - 1)
        if prefetch_size is not None:
            check_pipeline_int(prefetch_size, "prefetch_size", 1, 2**31 - 1)
        self.spilling, self.hostname, self.port = spilling, hostname, port
        self.num_connections, self.prefetch_size = num_connections, prefetch_size
        with _LOCK:
            self._store = _SESSIONS.setdefault(self.session_id, {})

    def get_stat(self):
        """``{"entries": cached nodes, "rows": cached rows, "bytes": bytes in memory}``."""
        with _LOCK:
            entries = list(self._store.values())
        return {"entries": len(entries), "rows": sum(e["rows"] for e in entries),
                "bytes": sum(e["bytes"] for e in entries)}  # fmt: skip

    def _key(self, node, key) -> str:
        from ._serialize import to_dict

        shard = (getattr(node, "num_shards", None), getattr(node, "shard_id", None))
        # Python sources are described by their object: only the same object shares cached rows
        py, stack = [], [node]
        while stack:
            n = stack.pop()
            if "source" in n.__dict__:
                py.append(id(n.__dict__["source"]))
            stack.extend(n.children)
        return json.dumps([to_dict(node), shard, py, list(key)], sort_keys=True, default=str)

    def serve(self, node, fn, ctx, key):
        k = self._key(node, key)
        with _LOCK:
            hit = self._store.get(k)
        if hit is not None:
            yield from self._load(hit)
            return
        blocks, nbytes, ok = [], 0, True
        for blk in fn(node, ctx, key):
            if ok:
                blocks.append(blk)
                nbytes += sum(getattr(c, "nbytes", 0) for c in blk.cols)
            yield blk
        entry = {"rows": sum(b.n for b in blocks), "bytes": nbytes, "blocks": blocks, "path": None}
        if self.size and nbytes > self.size * 2**20:
            if not self.spilling:
                return
            fd, path = tempfile.mkstemp(prefix="sporax_cache_", suffix=".pkl")
            with os.fdopen(fd, "wb") as f:
                pickle.dump(blocks, f, protocol=pickle.HIGHEST_PROTOCOL)
            entry.update(blocks=None, path=path, bytes=0)
        with _LOCK:
            self._store.setdefault(k, entry)

    @staticmethod
    def _load(entry):
        if entry["blocks"] is not None:
            yield from entry["blocks"]
            return
        with open(entry["path"], "rb") as f:
            yield from pickle.load(f)


def cached_iter(fn):
    """Wrap a node's ``_iter`` so that a node with a cache serves its rows from it."""

    @functools.wraps(fn)
    def _iter(self, ctx, key):
        cache = self.__dict__.get("cache")
        if cache is None:
            return fn(self, ctx, key)
        return cache.serve(self, fn, ctx, key)

    return _iter


def capture_cache(init):
    """Wrap a source's ``__init__`` so that its ``cache`` argument is checked and kept."""
    import inspect

    sig = inspect.signature(init)
    if "cache" not in sig.parameters:
        return init

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        bound = sig.bind(self, *args, **kwargs)
        cache = bound.arguments.get("cache")
        if cache is not None:
            check_pipeline_type(cache, DatasetCache, "cache", "[<class 'DatasetCache'>]", quote=True, got=False)
        init(self, *args, **kwargs)
        if cache is not None:
            self.__dict__["cache"] = cache

    return __init__
