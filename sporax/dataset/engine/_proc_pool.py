"""Worker processes of ``python_multiprocessing=True`` (``GeneratorDataset``, ``map``, ``batch``).

:class:`ShmProcessPool` is the executor of the pipeline's process stages: ``submit(x)`` gives a future of
``(True, fn(x))`` or ``(False, (stack, where))``. Its processes start with
``ds.config.get_multiprocessing_start_method()`` (``"fork"`` or ``"spawn"``: then ``fn`` travels pickled by
``_fn_pickle``, and the worker gets the parent's seed, video backend and error samples mode).

Arrays travel through shared memory (``ds.config.set_enable_shared_mem``, on by default): an item or result
is pickled with its NumPy arrays left out, and the arrays are copied into a shared memory segment; only the
small remainder goes through the pipe. Segments are made once and reused: the parent owns them all (a worker
reports each one it makes with the result written in it), offers a free one with each task for its result,
copies results out as they arrive, and unlinks every segment when the pool closes, also after an error. With
``max_rowsize`` (MB per row) a result larger than ``max_rowsize * rows`` goes through the pipe instead, with
MindSpore's warning (once); ``None`` or ``-1`` sizes segments to the data.

Workers leave when the parent is gone; a worker that dies fails the waiting futures; a pool that gives no result
for ``ds.config.get_multiprocessing_timeout_interval()`` seconds logs MindSpore's waiting warning.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import logging
import multiprocessing
import os
import pickle
import queue
import signal
import threading
import time
import warnings
import weakref
from collections.abc import Callable
from concurrent.futures import Executor, Future
from multiprocessing import resource_tracker, shared_memory
from typing import Any

import numpy as np

from ..core import config
from .errors import WorkerFailure, format_user_exception

__all__ = ["ShmProcessPool", "shm_prefix", "sweep"]

_POLL = 0.05
_ALIGN = 64
_MIN_SHARED = 10000  # bytes: a smaller array rides in the pipe (MindSpore's threshold)
_log = logging.getLogger("sporax")
_pool_ids = itertools.count()
_warned: set = set()  # the warnings of _pack given already (their text before the first ':')
_WORKER_MAPS = 32  # segments a worker keeps mapped
_live: weakref.WeakSet = weakref.WeakSet()  # the pools not shut down yet


@atexit.register
def _shutdown_all() -> None:
    """At interpreter exit, the pools still open (an iterator left unfinished) stop and unlink their segments."""
    for pool in list(_live):
        with contextlib.suppress(Exception):
            pool.shutdown(wait=True, cancel_futures=True)


def shm_prefix(pid: int | None = None) -> str:
    """The name prefix of the shared memory segments of the pools of process ``pid`` (default: this one)."""
    return f"spx_ds_{os.getpid() if pid is None else pid}_"


# ------------------------------------------------------------------ packing
def _pack(obj, seg, cache: dict, new_name: Callable[[], str], limit: tuple[int, int] | None):
    """``obj`` as a message: ``("b", pickled)`` or ``("p", obj[, warning])`` (through the pipe), or
    ``("s", skeleton, name, size, made, table)`` with its large arrays in segment ``name`` (``seg``, an offered
    ``(name, size)``, when it fits; else a new segment, ``made``). ``limit``: ``(bytes per row, rows)``."""
    arrays: list = []

    def pid(o):
        if type(o) is np.ndarray and o.dtype.kind not in "OV" and o.nbytes >= _MIN_SHARED:
            arrays.append(o)
            return len(arrays) - 1
        return None

    buf = _io_bytes()
    p = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    p.persistent_id = pid  # type: ignore[method-assign]
    p.dump(obj)
    if not arrays:
        return ("b", buf.getvalue())
    offsets, total = [], 0
    for a in arrays:
        offsets.append(total)
        total += -(-a.nbytes // _ALIGN) * _ALIGN
    if limit is not None and total > limit[0] * limit[1]:
        note = (
            "Using shared memory queue, but rowsize is larger than allocated memory max_rowsize: "
            f"{limit[0] / 1024 / 1024}MB, current rowsize: {total / limit[1] / 1024 / 1024}MB."
        )
        return ("p", obj, note)
    made = False
    if seg is not None and seg[1] >= total:
        name, size = seg
        shm = _attach(cache, name)
    else:
        size = max(total + total // 4, 1 << 16)
        made_shm = _create(new_name(), size)
        if made_shm is None:  # no room in /dev/shm: the pipe
            note = (
                f"Failed to allocate {size / 1024 / 1024:.1f}MB of shared memory (/dev/shm is full or too small): "
                "the dataset worker processes send their data through a pipe instead, which is slower."
            )
            return ("p", obj, note)
        shm, name, made = made_shm, made_shm.name, True
        cache[name] = shm
    table = []
    for a, off in zip(arrays, offsets):
        np.ndarray(a.shape, a.dtype, buffer=shm.buf, offset=off)[...] = a
        table.append((off, a.dtype.str, a.shape))
    return ("s", buf.getvalue(), name, size, made, table)


def _unpack(msg, cache: dict):
    """The object of a message of :func:`_pack`, its arrays copied out of the segment."""
    if msg[0] == "p":
        if (
            len(msg) > 2 and msg[2].split(":")[0] not in _warned
        ):  # a row over max_rowsize, no room: said once per process
            _warned.add(msg[2].split(":")[0])
            _log.warning(msg[2])
        return msg[1]
    if msg[0] == "b":
        return pickle.loads(msg[1])
    _, skeleton, name, _size, _made, table = msg
    shm = _attach(cache, name)
    arrays = [np.ndarray(shape, np.dtype(dt), buffer=shm.buf, offset=off).copy() for off, dt, shape in table]
    u = pickle.Unpickler(_io_bytes(skeleton))
    u.persistent_load = arrays.__getitem__  # type: ignore[assignment]
    return u.load()


def _io_bytes(data: bytes | None = None):
    import io

    return io.BytesIO() if data is None else io.BytesIO(data)


def _attach(cache: dict, name: str) -> shared_memory.SharedMemory:
    """Segment ``name``, mapped once per process (``cache``: name -> segment, most recently used last)."""
    shm = cache.pop(name, None)
    if shm is None:
        shm = shared_memory.SharedMemory(name)
    cache[name] = shm
    return shm


def _create(name: str, size: int) -> shared_memory.SharedMemory | None:
    """A new segment of ``size`` bytes with its pages reserved (``None`` when /dev/shm has no room: writing to a
    tmpfs page that cannot be had would kill the process with SIGBUS)."""
    try:
        shm = shared_memory.SharedMemory(name, create=True, size=size)
    except OSError:
        return None
    fd = getattr(shm, "_fd", -1)
    if fd >= 0 and hasattr(os, "posix_fallocate"):
        try:
            os.posix_fallocate(fd, 0, size)
        except OSError:
            _release(shm, unlink=True)
            return None
    return shm


def _release(shm, unlink: bool) -> None:
    with contextlib.suppress(Exception):
        shm.close()
    if unlink:
        with contextlib.suppress(FileNotFoundError):
            shm.unlink()


def sweep(prefix: str) -> int:
    """Unlink the leftover segments whose names start with ``prefix`` (a worker killed after making one and
    before reporting it); the number unlinked."""
    root = "/dev/shm"
    if not os.path.isdir(root):
        return 0
    n = 0
    for name in os.listdir(root):
        if name.startswith(prefix):
            with contextlib.suppress(FileNotFoundError):
                shared_memory.SharedMemory(name).unlink()
                n += 1
    return n


# ------------------------------------------------------------------ worker
def _worker(fn, tasks, results, parent: int, prefix: str, use_shm: bool, settings: dict | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if settings is not None:  # spawn: the parent's pipeline settings and the function, pickled
        from ._fn_pickle import loads

        config._state.update(settings)
        fn = loads(fn)
    cache: dict = {}
    count = itertools.count()
    new_name = lambda: f"{prefix}{os.getpid()}_{next(count)}"
    try:
        while True:
            try:
                msg = tasks.get(timeout=1.0)
            except queue.Empty:
                if os.getppid() != parent:  # the parent is gone
                    return
                continue
            if msg is None:
                return
            tid, payload, seg, limit = msg
            try:
                val: tuple = (True, fn(_unpack(payload, cache)))
            except WorkerFailure as e:
                val = (False, (e.stack, e.where))
            except BaseException as e:  # noqa: BLE001  (handed to the parent)
                val = (False, (format_user_exception(e), ""))
            out = _pack(val, seg, cache, new_name, limit) if use_shm else ("p", val)
            while len(cache) > _WORKER_MAPS:  # the segments this worker used longest ago (the parent may
                _release(cache.pop(next(iter(cache))), unlink=False)  # have unlinked them: free their pages)
            try:
                results.put((tid, out))
            except Exception as e:  # noqa: BLE001  (an unpicklable result)
                results.put((tid, ("p", (False, (format_user_exception(e), "")))))
    finally:
        for shm in cache.values():
            _release(shm, unlink=False)


# ------------------------------------------------------------------ parent
class ShmProcessPool(Executor):
    """``workers`` processes running ``fn``: ``submit(x)`` returns a future of ``(True, fn(x))``, or of
    ``(False, (stack, where))`` where ``fn`` raised (``_exec``'s convention for process results)."""

    def __init__(self, fn: Callable[[Any], Any], workers: int, max_rowsize=None) -> None:
        method = config.get_multiprocessing_start_method()
        mp: Any = multiprocessing.get_context(method)
        self.prefix = f"{shm_prefix()}{next(_pool_ids)}_"
        self.use_shm = config._shared_mem()
        self.rowsize = _out_rowsize(max_rowsize)
        self.tasks = mp.Queue()
        self.results = mp.Queue()
        self.lock = threading.Lock()
        self.cache: dict = {}  # name -> attached segment (every segment this pool knows of)
        self.free: list = []  # (name, size) of the segments not in use, smallest first
        self.max_free = 4 * workers + 8
        self.inflight: dict = {}  # task id -> (future, input segment, offered segment)
        self.ids = itertools.count()
        self.names = itertools.count()
        self.closed = False
        self.wait = [time.monotonic(), 1]  # since when results are awaited, and the next warning's multiple
        # one resource tracker for the parent and its workers (forked workers would each start their own): the
        # segments a worker makes and the parent unlinks are registered and unregistered in one place, and the
        # tracker unlinks what is left if the parent is killed
        resource_tracker.ensure_running()
        settings = None
        target: Any = fn
        if method == "spawn":
            from ._fn_pickle import dumps

            target = dumps(fn)
            settings = {k: config._state[k] for k in ("seed", "video_backend", "error_samples_mode")}
        args = (target, self.tasks, self.results, os.getpid(), self.prefix, self.use_shm, settings)
        self.procs = [mp.Process(target=_worker, args=args, daemon=True) for _ in range(workers)]
        with warnings.catch_warnings():
            # the workers run NumPy and the user's Python only, never JAX: JAX's warning about forking a
            # multithreaded process does not apply to them
            warnings.filterwarnings("ignore", message=r"os\.fork\(\) was called", category=RuntimeWarning)
            for p in self.procs:
                p.start()
        self.collector = threading.Thread(target=self._collect, name="sporax-dataset-results", daemon=True)
        self.collector.start()
        _live.add(self)

    # -------------------------------------------------------------- segments (under self.lock)
    def _take(self):
        return self.free.pop() if self.free else None

    def _give(self, seg) -> None:
        self.free.append(seg)
        self.free.sort(key=lambda s: s[1])
        if len(self.free) > self.max_free:
            name, _ = self.free.pop(0)
            _release(self.cache.pop(name), unlink=True)

    # -------------------------------------------------------------- Executor
    def submit(self, x, /, *args, **kwargs) -> Future:  # type: ignore[override]  # one item, no extra args
        fut: Future = Future()
        with self.lock:
            if self.closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            tid = next(self.ids)
            seg_in = offer = None
            if self.use_shm:
                seg = self._take()
                payload = _pack(x, seg, self.cache, lambda: f"{self.prefix}p_{next(self.names)}", None)
                if payload[0] == "s":
                    seg_in = (payload[2], payload[3])
                if seg is not None and seg_in != seg:
                    self._give(seg)
                offer = self._take()
            else:
                payload = ("p", x)
            limit = None if self.rowsize is None else (self.rowsize, _rows(x))
            if not self.inflight:
                self.wait = [time.monotonic(), 1]
            self.inflight[tid] = (fut, seg_in, offer)
        self.tasks.put((tid, payload, offer, limit))
        return fut

    def _collect(self) -> None:
        while True:
            try:
                tid, msg = self.results.get(timeout=_POLL)
            except queue.Empty:
                if self.closed:
                    return
                dead = [p for p in self.procs if not p.is_alive() and p.exitcode not in (0, None)]
                if dead:
                    self._fail_all(dead[0])
                    return
                self._stuck_warning()
                continue
            except (EOFError, OSError):
                return
            self.wait = [time.monotonic(), 1]
            with self.lock:
                entry = self.inflight.pop(tid, None)
                if entry is None:
                    continue
                fut, seg_in, offer = entry
                try:
                    val = _unpack(msg, self.cache)
                except BaseException as e:  # noqa: BLE001  (handed to the consumer)
                    val = (False, (format_user_exception(e), ""))
                for seg in (seg_in, offer):
                    if seg is not None and not (msg[0] == "s" and msg[2] == seg[0]):
                        self._give(seg)
                if msg[0] == "s":
                    self._give((msg[2], msg[3]))
            if fut.set_running_or_notify_cancel():
                fut.set_result(val)

    def _stuck_warning(self) -> None:
        """MindSpore's warning when the pool has given no result for ``multiprocessing_timeout_interval`` seconds
        (then again after each further interval)."""
        since, count = self.wait
        waited = time.monotonic() - since
        if self.inflight and waited >= count * config.get_multiprocessing_timeout_interval():
            self.wait[1] = count + 1
            pids = [p.pid for p in self.procs]
            _log.warning(
                f"Has been waiting for data from dataset worker processes {pids} for more than {int(waited)} "
                "seconds. Please check if the user defined Python function has a dead loop, or is processing "
                "too slowly."
            )

    def _fail_all(self, proc) -> None:
        err = RuntimeError(
            f"A dataset worker process (pid {proc.pid}) exited unexpectedly with exit code {proc.exitcode}."
        )
        with self.lock:
            entries, self.inflight = list(self.inflight.values()), {}
        for fut, _, _ in entries:
            if fut.set_running_or_notify_cancel():
                fut.set_exception(err)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self.lock:
            if self.closed:
                return
            self.closed = True
            entries = list(self.inflight.values()) if cancel_futures else []
        for fut, _, _ in entries:
            fut.cancel()
        for _ in self.procs:
            with contextlib.suppress(Exception):
                self.tasks.put(None)
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
                p.join(timeout=5)
        self.collector.join(timeout=5)
        with self.lock:
            # results nobody read: their segments are the pool's too
            with contextlib.suppress(Exception):
                while True:
                    _, msg = self.results.get(timeout=0.01)
                    if msg[0] == "s":
                        with contextlib.suppress(Exception):
                            _attach(self.cache, msg[2])
            for shm in self.cache.values():
                _release(shm, unlink=True)
            self.cache.clear()
            self.free.clear()
            for fut, _, _ in self.inflight.values():
                fut.cancel()
            self.inflight.clear()
        sweep(self.prefix)
        for q in (self.tasks, self.results):
            q.cancel_join_thread()
            q.close()


def _rows(x) -> int:
    """The rows of a task (a Block or a source's row indices, or a tuple ending with one)."""
    blk = x[-1] if isinstance(x, tuple) and x else x
    n = len(blk) if isinstance(blk, np.ndarray) and blk.ndim == 1 else getattr(blk, "n", 1)
    return max(1, n or 1)


def _out_rowsize(max_rowsize) -> int | None:
    """Bytes per row of a result from ``max_rowsize`` (MB; a list gives [input, output]); None: sized to the data."""
    mb = max_rowsize[-1] if isinstance(max_rowsize, (list, tuple)) else max_rowsize
    return None if mb in (None, -1) else int(mb) * 1024 * 1024
