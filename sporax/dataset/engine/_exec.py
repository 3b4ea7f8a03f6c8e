"""Parallel execution: ordered worker pools (threads or processes) and prefetch queues.

Every stage hands out work in order and takes results back in the same order, through bounded windows,
so the output does not depend on the number of workers. Stages stop and join their workers when the
consumer closes them (``break``, an exception, KeyboardInterrupt, the end of the data).
"""

from __future__ import annotations

import collections
import queue
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from .errors import WorkerFailure, user_error

_END = object()
_STOPPED = object()
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

    ``run`` is the iterator's :class:`Run` (``None`` for a one-off pass): the stages that run on into the
    next epoch live there.
    """

    __slots__ = ("seed", "path", "stop", "prefetch", "gate", "run")

    def __init__(self, seed: int, path: tuple, stop: threading.Event, prefetch: int, gate=None, run=None) -> None:
        self.seed = seed
        self.path = path
        self.stop = stop
        self.prefetch = prefetch
        self.gate = [False] if gate is None else gate
        self.run = run

    def sub(self, i: int) -> Ctx:
        return Ctx(self.seed, self.path + (i,), self.stop, self.prefetch, self.gate, self.run)


def raise_failure(f: WorkerFailure):
    raise user_error(f.stack, f.where) from None


# ------------------------------------------------------------------ processes (_proc_pool)
def _proc_result(fut):
    ok, val = fut.result()
    if not ok:
        raise user_error(*val) from None
    return val


def _pool(fn: Callable[[Any], Any], workers: int, processes: bool) -> tuple[Executor, Callable, Callable]:
    """A pool of ``workers`` threads (or processes) running ``fn``: ``(pool, submit(x) -> future, result(future))``."""
    pool: Executor
    if processes:
        from ._proc_pool import ShmProcessPool  # arrays through shared memory; ds.config's start method

        # a source's fetch method (GeneratorDataset): its max_rowsize (MB of shared memory per row)
        pool = ShmProcessPool(fn, workers, getattr(getattr(fn, "__self__", None), "max_rowsize", None))
        return pool, pool.submit, _proc_result
    tpool = ThreadPoolExecutor(workers, thread_name_prefix="sporax-dataset")
    return tpool, lambda x: tpool.submit(fn, x), lambda f: f.result()


def ordered_map(items: Iterator, fn: Callable[[Any], Any], workers: int, ctx: Ctx, processes: bool = False) -> Iterator:
    """``map(fn, items)`` on ``workers`` threads (or processes), in order, at most ``2 * workers + 2`` ahead."""
    if workers <= 1 and not processes:
        for it in items:
            yield fn(it)
        return
    window = 2 * workers + 2
    pool, submit, result = _pool(fn, workers, processes)
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


def _take(q, thread: threading.Thread, what: str, stopped: Callable[[], bool] | None = None):
    """The next ``(ok, value)`` that ``thread`` put on ``q``: the value (``_STOPPED`` once ``stopped()``), or
    its error raised."""
    while True:
        try:
            ok, x = q.get(timeout=_POLL)
        except queue.Empty:
            if stopped is not None and stopped():
                return _STOPPED
            if not thread.is_alive() and q.empty():
                raise RuntimeError(f"The dataset {what} thread ended without a result.") from None
            continue
        if ok:
            return x
        if isinstance(x, WorkerFailure):
            raise_failure(x)
        raise x


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
            x = _take(q, t, "prefetch")
            if x is _END:
                return
            yield x
    finally:
        stop.set()
        t.join()


# ------------------------------------------------------------------ across epochs
class Run:
    """One iterator's pipeline over its epochs (``num_epochs``, -1: unlimited).

    As in MindSpore, the pipeline does not stop at the end of an epoch: a stage kept here (a ``map``'s worker
    pool and the reading of its input) runs on into the next epoch while the consumer still reads this one.
    Each epoch's rows are the same as a fresh pass would make (every random draw depends only on the seed,
    the epoch and the row's position), and the consumer still receives them epoch by epoch.
    """

    def __init__(self, num_epochs: int, ahead: bool = True) -> None:
        self.num_epochs = num_epochs
        self.ahead = ahead
        self.stages: dict = {}

    def stream(self, skey, ctx: Ctx, make_source, fn, workers: int, processes: bool) -> Iterator | None:
        """The results of ``fn((path, block))`` over ``make_source(ctx)`` for the epoch of ``ctx``, from the
        stage ``skey`` (made on its first epoch, kept for the next); ``None`` where this pass is not a whole
        epoch (under a ``repeat``), may block on the consumer (``sync_wait``) or is past the last epoch."""
        epoch = ctx.path[0] if len(ctx.path) == 1 else -1
        if not self.ahead or epoch < 0 or ctx.gate[0] or (self.num_epochs != -1 and epoch >= self.num_epochs):
            return None
        st = self.stages.pop(skey, None)
        if st is not None and (st.closed or st.next_epoch != epoch):
            st.close()
            st = None
        if st is None:
            st = _AheadStage(ctx, make_source, fn, workers, processes, self.num_epochs)
        self.stages[skey] = st
        return st.epoch(epoch)

    def close(self) -> None:
        stages, self.stages = self.stages, {}
        for st in stages.values():
            st.close()


class _AheadStage:
    """``fn`` on a pool over the blocks of epoch after epoch, fed by its own thread, at most ``2 * workers + 2``
    blocks and one epoch ahead of the consumer."""

    def __init__(self, ctx: Ctx, make_source, fn, workers: int, processes: bool, limit: int) -> None:
        self.base = ctx
        self.make_source = make_source
        self.limit = limit
        self.next_epoch = ctx.path[0]  # the epoch the consumer asks for next
        self.reading = ctx.path[0]  # the epoch the consumer reads
        self.window = threading.Semaphore(2 * max(1, workers) + 2)
        self.q: queue.SimpleQueue = queue.SimpleQueue()
        self.cond = threading.Condition()
        self.halt = threading.Event()
        self.closed = False
        self.pool, self.submit, self.result = _pool(fn, max(1, workers), processes)
        self.thread = threading.Thread(target=self._feed, name="sporax-dataset-feed", daemon=True)
        self.thread.start()

    def _stopped(self) -> bool:
        return self.halt.is_set() or self.base.stop.is_set()

    def _feed(self) -> None:
        _tls.stop = self.halt
        b, e = self.base, self.next_epoch
        try:
            while self.limit == -1 or e < self.limit:
                with self.cond:
                    while e > self.reading + 1:
                        if self._stopped():
                            return
                        self.cond.wait(_POLL)
                # the stages below run epoch by epoch (no Run): this one already reads ahead for them
                it = self.make_source(Ctx(b.seed, (e,), b.stop, b.prefetch, b.gate))
                try:
                    for blk in it:
                        while not self.window.acquire(timeout=_POLL):
                            if self._stopped():
                                return
                        if self._stopped():
                            return
                        self.q.put((True, self.submit(((e,), blk))))
                finally:
                    it.close()
                self.q.put((True, _END))
                e += 1
        except BaseException as exc:  # noqa: BLE001  (handed to the consumer, in order)
            self.q.put((False, exc))

    def epoch(self, e: int) -> Iterator:
        with self.cond:
            self.reading = e
            self.cond.notify_all()
        done = False
        try:
            while True:
                x = _take(self.q, self.thread, "feeding", self._stopped)
                if x is _STOPPED:
                    return
                if x is _END:
                    done = True
                    self.next_epoch = e + 1
                    return
                try:
                    val = self.result(x)
                except WorkerFailure as failure:
                    raise_failure(failure)
                finally:
                    self.window.release()
                yield val
        finally:
            if not done:
                self.close()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.halt.set()
        with self.cond:
            self.cond.notify_all()
        if threading.current_thread() is not self.thread:
            self.thread.join()
        while not self.q.empty():
            ok, x = self.q.get_nowait()
            if ok and x is not _END:
                x.cancel()
        self.pool.shutdown(wait=True, cancel_futures=True)
