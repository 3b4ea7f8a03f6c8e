"""Worker processes of ``python_multiprocessing=True``: blocks through a pipe, pickled, against shared memory.

    flock /tmp/sporax_bench.lock taskset -c 1 env OMP_NUM_THREADS=1 .venv/bin/python bench/bench_dataset_mp.py
        [--rows 64] [--shape 224,224,3] [--dtype uint8] [--blocks 40] [--workers 2] [--rounds 5]

A block of ``--rows`` rows (one stacked column of ``--shape`` ``--dtype`` arrays, as a map's input and output)
goes to a worker process, which applies a cheap operation (``x + 1``, the transport is what is measured) and
sends the result back; ``--blocks`` blocks per pass, at most ``2 * workers + 2`` in flight, taken back in order
(as the pipeline's stages do). The three transports:

- ``executor``: ``concurrent.futures.ProcessPoolExecutor`` (the item and the result pickled through pipes;
  what sporax used before ``_proc_pool``),
- ``pool-pipe``: ``_proc_pool.ShmProcessPool`` with ``ds.config.set_enable_shared_mem(False)``,
- ``pool-shm``: ``_proc_pool.ShmProcessPool`` with shared memory (the default).

Each round runs every transport once (the order rotates each round); prints the median MB/s of the blocks'
data (in and out) per transport and the ratios to ``executor``. The pools start outside the timed pass.

``--map N``: instead, a whole pipeline: ``NumpySlicesDataset`` of N ``--shape`` uint8 images ->
``map(python function: to float32 / 255, python_multiprocessing=True, num_parallel_workers=--workers)`` ->
``create_tuple_iterator(output_numpy=True, num_epochs=3)`` read for its 3 epochs (the pool's start is in the
timing), with ``ds.config.set_enable_shared_mem`` True and False alternating.
"""

import argparse
import collections
import multiprocessing
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sporax.dataset as ds  # noqa: E402
from sporax.dataset.engine._block import Block  # noqa: E402
from sporax.dataset.engine._proc_pool import ShmProcessPool  # noqa: E402


def _add_one(b: Block) -> Block:
    return Block([c + 1 for c in b.cols], b.n, b.start)


def _call(b):  # the executor's task: _exec's (ok, value) convention
    return True, _add_one(b)


def _pass(submit, blocks, window: int) -> float:
    t = time.perf_counter()
    pending: collections.deque = collections.deque()
    it = iter(blocks)
    done = False
    while True:
        while not done and len(pending) < window:
            try:
                pending.append(submit(next(it)))
            except StopIteration:
                done = True
        if not pending:
            break
        ok, val = pending.popleft().result()
        assert ok and val.n == blocks[0].n
    return time.perf_counter() - t


def _to_float(x):
    return x.astype(np.float32) / 255


def _map_epoch(data, workers: int, epochs: int = 3) -> float:
    """Seconds per epoch of one iterator over ``epochs`` epochs (as a training loop reads)."""
    d = ds.NumpySlicesDataset({"x": data}, shuffle=False).map(
        _to_float, num_parallel_workers=workers, python_multiprocessing=True
    )
    t = time.perf_counter()
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    for _ in range(epochs):
        assert sum(1 for _ in it) == len(data)
    return (time.perf_counter() - t) / epochs


def bench_map(a, shape) -> None:
    data = np.random.default_rng(0).integers(0, 255, (a.map, *shape), dtype=np.uint8)
    times: dict = {True: [], False: []}
    _map_epoch(data[: 4 * a.workers], a.workers, 1)  # warm up (imports, first fork)
    for r in range(a.rounds):
        for shared in (True, False) if r % 2 == 0 else (False, True):
            ds.config._state["enable_shared_mem"] = shared
            times[shared].append(_map_epoch(data, a.workers))
    on, off = statistics.median(times[True]), statistics.median(times[False])
    print(
        f"map of {a.map} images {shape} uint8 -> float32 in {a.workers} worker processes, {a.rounds} rounds, "
        f"load {os.getloadavg()[0]:.2f}"
    )
    print(f"  shared memory on : {a.map / on:8.0f} images/s ({on * 1e3:.0f} ms/epoch)")
    print(f"  shared memory off: {a.map / off:8.0f} images/s ({off * 1e3:.0f} ms/epoch)   on/off x{off / on:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=64)
    ap.add_argument("--shape", default="224,224,3")
    ap.add_argument("--dtype", default="uint8")
    ap.add_argument("--blocks", type=int, default=40)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--map", type=int, default=0)
    a = ap.parse_args()
    shape = tuple(int(s) for s in a.shape.split(","))
    if a.map:
        bench_map(a, shape)
        return
    rng = np.random.default_rng(0)
    blocks = [
        Block([rng.integers(0, 200, (a.rows, *shape)).astype(a.dtype)], a.rows, i * a.rows) for i in range(a.blocks)
    ]
    mb = 2 * sum(b.cols[0].nbytes for b in blocks) / 1e6  # in and out
    window = 2 * a.workers + 2

    def executor():
        pool = ProcessPoolExecutor(a.workers, mp_context=multiprocessing.get_context("fork"))
        list(pool.map(int, range(a.workers)))  # the workers start now, outside the timing
        return pool, lambda b: pool.submit(_call, b)

    def shm_pool(shared):
        def make():
            ds.config._state["enable_shared_mem"] = shared
            pool = ShmProcessPool(_add_one, a.workers)
            return pool, pool.submit

        return make

    variants = {"executor": executor, "pool-pipe": shm_pool(False), "pool-shm": shm_pool(True)}
    times: dict = {k: [] for k in variants}
    names = list(variants)
    for r in range(a.rounds):
        for k in names[r % len(names) :] + names[: r % len(names)]:
            pool, submit = variants[k]()
            _pass(submit, blocks[: 2 * window], window)  # warm up: segments made, pages touched
            times[k].append(_pass(submit, blocks, window))
            pool.shutdown()
    base = statistics.median(times["executor"])
    print(
        f"{a.blocks} blocks of {a.rows} x {shape} {a.dtype} ({mb / a.blocks / 2:.1f} MB each way), "
        f"{a.workers} workers, {a.rounds} rounds, load {os.getloadavg()[0]:.2f}"
    )
    for k in names:
        t = statistics.median(times[k])
        print(f"  {k:10s} {mb / t:8.0f} MB/s   {t * 1e3:8.1f} ms/pass   x{base / t:.2f} vs executor")


if __name__ == "__main__":
    main()
