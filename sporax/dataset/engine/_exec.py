"""Parallel execution: ordered worker pools (threads or processes) and prefetch queues.

Every stage hands out work in order and takes results back in the same order, through bounded windows,
so the output does not depend on the number of workers. Stages stop and join their workers when the
consumer closes them (``break``, an exception, KeyboardInterrupt, the end of the data).
"""

from __future__ import annotations

import collections
import multiprocessing
import queue
import signal
import threading
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from .errors import WorkerFailure, user_error

_END = object()
_POLL = 0.05
_tls = threading.local()


def stopping(ctx: Ctx) -> bool | None:
    """Whether the run is being stopped; ``None`` outside a prefetch thread (nobody to wait for)."""
    stop = getattr(_tls, "stop", None)
    if stop is None:
        return None
    return stop.is_set() or ctx.stop.is_set()


class Ctx:
    """One run of a pipeline: its seed, the pass (epoch and repeat indices) and the stop flag.

    ``gate[0]`` is set by a ``sync_wait`` stage: its input may block until the consumer calls
    ``sync_update``, so stages read no further ahead than they need (else they would wait for rows the
    consumer never gets to ask for).
    """

    __slots__ = ("seed", "path", "stop", "prefetch", "gate")

    def __init__(self, seed: int, path: tuple, stop: threading.Event, prefetch: int, gate=None) -> None:
        self.seed = seed
        self.path = path
        self.stop = stop
        self.prefetch = prefetch
        self.gate = [False] if gate is None else gate

    def sub(self, i: int) -> Ctx:
        return Ctx(self.seed, self.path + (i,), self.stop, self.prefetch, self.gate)


def raise_failure(f: WorkerFailure):
    raise user_error(f.stack, f.where) from None


# ------------------------------------------------------------------ processes
_proc_fn: list = [None]


def _proc_init(fn) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _proc_fn[0] = fn


def _proc_call(arg):
    try:
        return True, _proc_fn[0](arg)
    except WorkerFailure as e:
        return False, (e.stack, e.where)
    except BaseException as e:  # noqa: BLE001
        from .errors import format_user_exception

        return False, (format_user_exception(e), "")


def _proc_result(fut):
    ok, val = fut.result()
    if not ok:
        raise user_error(*val) from None
    return val


def ordered_map(items: Iterator, fn: Callable[[Any], Any], workers: int, ctx: Ctx, processes: bool = False) -> Iterator:
    """``map(fn, items)`` on ``workers`` threads (or processes), in order, at most ``2 * workers + 2`` ahead."""
    if workers <= 1 and not processes:
        for it in items:
            yield fn(it)
        return
    window = 2 * workers + 2
    pool: Executor
    if processes:
        pool = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("fork"), initializer=_proc_init, initargs=(fn,)
        )
        started = [False]

        def submit(x):
            if started[0]:
                return pool.submit(_proc_call, x)
            # the workers fork on the first submit. They run NumPy and the user's Python only, never JAX, so
            # JAX's warning about forking a multithreaded process does not apply to them.
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=r"os\.fork\(\) was called", category=RuntimeWarning)
                f = pool.submit(_proc_call, x)
            started[0] = True
            return f

        result = _proc_result
    else:
        pool = ThreadPoolExecutor(workers, thread_name_prefix="sporax-dataset")
        submit = lambda x: pool.submit(fn, x)
        result = lambda f: f.result()
    pending: collections.deque = collections.deque()
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < (1 if ctx.gate[0] else window):
                try:
                    x = next(items)
                except StopIteration:
                    exhausted = True
                    break
                pending.append(submit(x))
            if not pending:
                return
            fut = pending.popleft()
            try:
                val = result(fut)
            except WorkerFailure as failure:
                raise_failure(failure)
            yield val
    finally:
        for f in pending:
            f.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def prefetch(make_iter: Callable[[], Iterator], size: int, ctx: Ctx) -> Iterator:
    """Run ``make_iter()`` in a background thread, ``size`` items ahead of the consumer."""
    q: queue.Queue = queue.Queue(maxsize=max(1, size))
    stop = threading.Event()

    def run() -> None:
        it = None
        _tls.stop = stop
        try:
            it = make_iter()
            for x in it:
                while True:
                    if stop.is_set() or ctx.stop.is_set():
                        return
                    try:
                        q.put((True, x), timeout=_POLL)
                        break
                    except queue.Full:
                        continue
            _put((True, _END))
        except BaseException as e:  # noqa: BLE001  (handed to the consumer)
            _put((False, e))
        finally:
            if it is not None and hasattr(it, "close"):
                it.close()

    def _put(item) -> None:
        while not (stop.is_set() or ctx.stop.is_set()):
            try:
                q.put(item, timeout=_POLL)
                return
            except queue.Full:
                continue

    t = threading.Thread(target=run, name="sporax-dataset-prefetch", daemon=True)
    t.start()
    try:
        while True:
            try:
                ok, x = q.get(timeout=_POLL)
            except queue.Empty:
                if not t.is_alive() and q.empty():
                    raise RuntimeError("The dataset prefetch thread ended without a result.") from None
                continue
            if not ok:
                if isinstance(x, WorkerFailure):
                    raise_failure(x)
                raise x
            if x is _END:
                return
            yield x
    finally:
        stop.set()
        t.join()
