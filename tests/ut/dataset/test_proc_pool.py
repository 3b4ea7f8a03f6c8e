"""The worker processes of ``python_multiprocessing=True`` (sporax/dataset/engine/_proc_pool.py): arrays through
shared memory (``ds.config.set_enable_shared_mem``, ``max_rowsize``), ``fork`` and ``spawn``
(``ds.config.set_multiprocessing_start_method``), errors, and no shared memory segment left behind after a normal
end, a cancel, a worker killed or the parent killed."""

import copy
import logging
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import sporax.dataset as ds
from sporax.dataset.engine import _fn_pickle
from sporax.dataset.engine._block import Block
from sporax.dataset.engine._proc_pool import ShmProcessPool, shm_prefix

pytestmark = pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="POSIX shared memory in /dev/shm")


@pytest.fixture(autouse=True)
def _restore_config():
    saved = copy.copy(ds.config._state)
    yield
    ds.config._state.clear()
    ds.config._state.update(saved)


def _segments(pid=None) -> list:
    return [n for n in os.listdir("/dev/shm") if n.startswith(shm_prefix(pid))]


def _block(i: int) -> Block:
    rng = np.random.default_rng(i)
    return Block(
        [
            rng.random((4, 32, 32, 3), np.float32),  # stacked, in shared memory
            [np.full((k + 1, 50), i, np.int64) for k in range(4)],  # ragged rows
            np.array(["a", "bb", "c", "d"]),  # strings (small: through the pipe)
            np.arange(4, dtype=np.int32),  # small
        ],
        4,
        i * 4,
    )


def _double(b: Block) -> Block:
    return Block([c * 2 if isinstance(c, np.ndarray) and c.dtype.kind != "U" else c for c in b.cols], b.n, b.start)


def _fail_on_2(x):
    if x.start == 8:
        raise ValueError("block two")
    return x


def _check(res, i):
    ok, val = res
    assert ok
    want = _double(_block(i))
    assert val.n == 4 and val.start == i * 4
    for a, b in zip(val.cols, want.cols):
        if isinstance(b, list):
            assert all(np.array_equal(x, y) for x, y in zip(a, b))
        else:
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("shared", [True, False])
def test_round_trip(shared):
    ds.config._state["enable_shared_mem"] = shared
    pool = ShmProcessPool(_double, 2)
    try:
        futs = [pool.submit(_block(i)) for i in range(12)]
        for i, f in enumerate(futs):
            _check(f.result(timeout=60), i)
        assert bool(_segments()) is shared  # the segments exist while the pool lives
        # segments are reused: no more than the blocks in flight (and their results) at a time
        assert len(pool.cache) <= 2 * 12
        more = [pool.submit(_block(i)) for i in range(12)]
        before = set(pool.cache)
        for i, f in enumerate(more):
            _check(f.result(timeout=60), i)
        assert not shared or set(pool.cache) <= before | set(pool.cache)
    finally:
        pool.shutdown()
    assert _segments() == []


def test_segments_bounded_when_sizes_grow():
    pool = ShmProcessPool(_double, 2)
    try:
        for k in range(1, 25):  # each block larger than the segments made so far
            blk = Block([np.ones((2, 100 * k, 100), np.float32)], 2)
            ok, val = pool.submit(blk).result(timeout=60)
            assert ok and val.cols[0].shape == (2, 100 * k, 100) and float(val.cols[0][1, -1, -1]) == 2.0
            assert len(_segments()) <= pool.max_free + 2
    finally:
        pool.shutdown()
    assert _segments() == []


def test_no_room_in_dev_shm_falls_back_to_the_pipe(caplog, monkeypatch):
    from sporax.dataset.engine import _proc_pool

    monkeypatch.setattr(_proc_pool, "_warned", set())
    monkeypatch.setattr(_proc_pool, "_create", lambda name, size: None)  # inherited by the forked workers
    pool = ShmProcessPool(_double, 2)
    try:
        with caplog.at_level(logging.WARNING, logger="sporax"):
            for i in range(3):
                _check(pool.submit(_block(i)).result(timeout=60), i)
    finally:
        pool.shutdown()
    assert caplog.text.count("Failed to allocate") == 1
    assert "through a pipe instead" in caplog.text


def test_user_error_is_returned():
    pool = ShmProcessPool(_fail_on_2, 2)
    try:
        res = [pool.submit(_block(i)).result(timeout=60) for i in range(4)]
    finally:
        pool.shutdown()
    assert [ok for ok, _ in res] == [True, True, False, True]
    stack, _where = res[2][1]
    assert "ValueError: block two" in stack
    assert _segments() == []


def test_cancel_and_shutdown_leave_no_segment():
    pool = ShmProcessPool(lambda b: (time.sleep(0.05), b)[1], 2)
    futs = [pool.submit(_block(i)) for i in range(10)]
    futs[0].result(timeout=60)
    pool.shutdown(wait=True, cancel_futures=True)
    assert _segments() == []
    with pytest.raises(RuntimeError, match="after shutdown"):
        pool.submit(_block(0))


def test_worker_killed():
    pool = ShmProcessPool(lambda b: (time.sleep(0.2), b)[1], 2)
    try:
        futs = [pool.submit(_block(i)) for i in range(6)]
        time.sleep(0.1)
        os.kill(pool.procs[0].pid, signal.SIGKILL)
        with pytest.raises(RuntimeError, match="exited unexpectedly with exit code -9"):
            for f in futs:
                f.result(timeout=60)
    finally:
        pool.shutdown()
    assert _segments() == []


def test_stuck_worker_warning(caplog):
    ds.config.set_multiprocessing_timeout_interval(1)
    pool = ShmProcessPool(lambda x: (time.sleep(1.6), x)[1], 1)
    try:
        with caplog.at_level(logging.WARNING, logger="sporax"):
            assert pool.submit(7).result(timeout=60) == (True, 7)
    finally:
        pool.shutdown()
    assert "Has been waiting for data from dataset worker processes [" in caplog.text
    assert "for more than 1 seconds." in caplog.text


def test_max_rowsize_forms():
    from sporax.dataset.engine._proc_pool import _out_rowsize

    assert _out_rowsize(None) is None and _out_rowsize(-1) is None  # sized to the data
    assert _out_rowsize(6) == 6 * 1024 * 1024
    assert _out_rowsize([2, 8]) == 8 * 1024 * 1024  # [input, output]: results use the second
    assert _out_rowsize([2, -1]) is None


def test_max_rowsize_falls_back_to_the_pipe(caplog, monkeypatch):
    from sporax.dataset.engine import _proc_pool

    monkeypatch.setattr(_proc_pool, "_warned", set())
    big = Block([np.ones((2, 1024, 1024), np.float32)], 2, 0)  # 4 MB a row
    pool = ShmProcessPool(lambda b: b, 1, max_rowsize=1)
    try:
        with caplog.at_level(logging.WARNING, logger="sporax"):
            ok, val = pool.submit(big).result(timeout=60)
    finally:
        pool.shutdown()
    assert ok and np.array_equal(val.cols[0], big.cols[0])
    assert "Using shared memory queue, but rowsize is larger than allocated memory max_rowsize: 1.0MB" in caplog.text


def test_map_with_processes_matches_threads():
    d = ds.NumpySlicesDataset({"x": np.arange(200 * 48, dtype=np.float32).reshape(200, 48)}, shuffle=False)

    def f(x):
        return x * 3 + 1, x.sum()

    def rows(procs):
        m = d.map(f, output_columns=["a", "b"], num_parallel_workers=2, python_multiprocessing=procs)
        return [[c.tolist() for c in r] for r in m.create_tuple_iterator(output_numpy=True, num_epochs=1)]

    assert rows(True) == rows(False)
    assert _segments() == []


def test_spawn_start_method():
    ds.config.set_multiprocessing_start_method("spawn")
    ds.config.set_video_backend("Ascend")
    k = 5

    def local(b):  # a closure: sent by value to the spawned interpreter
        cols = [c * k if isinstance(c, np.ndarray) and c.dtype.kind != "U" else c for c in b.cols]
        return ds.config.get_video_backend(), Block(cols, b.n)

    pool = ShmProcessPool(local, 1)
    try:
        ok, (backend, val) = pool.submit(_block(3)).result(timeout=120)
    finally:
        pool.shutdown()
    assert ok and backend == "Ascend"  # the parent's setting, as MindSpore hands it to spawned workers
    np.testing.assert_array_equal(val.cols[0], _block(3).cols[0] * 5)
    assert _segments() == []


def test_fn_pickle_closures_and_locks():
    lock = threading.Lock()
    base = 10

    def outer(y):
        def inner(z):
            return z + y + base

        return inner

    f = _fn_pickle.loads(_fn_pickle.dumps((outer(2), lambda v: v * base, lock, threading.Event())))
    assert f[0](1) == 13 and f[1](3) == 30
    assert isinstance(f[2], type(threading.Lock())) and not f[2].locked()
    assert isinstance(f[3], threading.Event)
    assert _fn_pickle.loads(_fn_pickle.dumps(np.add)) is np.add  # importable objects by reference

    def fact(n):  # refers to itself through its closure
        return 1 if n <= 1 else n * fact(n - 1)

    assert _fn_pickle.loads(_fn_pickle.dumps(fact))(5) == 120


def test_exit_with_open_pool_leaves_no_segment(tmp_path):
    script = tmp_path / "child.py"
    script.write_text(
        textwrap.dedent(
            """
            import os
            import numpy as np
            import sporax.dataset as ds
            d = ds.NumpySlicesDataset({"x": np.ones((64, 64, 64), np.float32)}, shuffle=False)
            it = d.map(lambda x: x + 1, num_parallel_workers=2, python_multiprocessing=True).create_tuple_iterator()
            next(it)  # the iterator is left open at exit
            print(os.getpid(), flush=True)
            """
        )
    )
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    pid = int(r.stdout.split()[-1])
    assert _segments(pid) == []
    assert "leaked shared_memory" not in r.stderr


def test_parent_killed_leaves_no_segment(tmp_path):
    script = tmp_path / "child.py"
    script.write_text(
        textwrap.dedent(
            """
            import os, sys, time
            import numpy as np
            from sporax.dataset.engine._block import Block
            from sporax.dataset.engine._proc_pool import ShmProcessPool
            pool = ShmProcessPool(lambda b: b, 2)
            for i in range(4):
                pool.submit(Block([np.ones((4, 64, 64), np.float32)], 4)).result()
            print(os.getpid(), flush=True)
            time.sleep(60)
            """
        )
    )
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        pid = int(p.stdout.readline())
        assert _segments(pid)  # the pool's segments while it lives
        os.kill(pid, signal.SIGKILL)
        p.wait(timeout=30)
        deadline = time.time() + 30
        while _segments(pid) and time.time() < deadline:
            time.sleep(0.2)
        assert _segments(pid) == []  # unlinked by the resource tracker once the workers saw the parent go
    finally:
        if p.poll() is None:
            p.kill()
            p.wait(timeout=30)
        p.stdout.close()
