"""Parallel execution: same output whatever the worker count, user errors from workers, clean shutdown."""

import multiprocessing
import threading
import time

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.vision as vision


def _threads():
    return {t for t in threading.enumerate() if t.name.startswith("sporax-dataset")}


def _wait_no_workers(timeout=5.0):
    end = time.time() + timeout
    while time.time() < end:
        if not _threads() and not multiprocessing.active_children():
            return True
        time.sleep(0.02)
    return False


def pipeline(workers, multiprocessing_=False):
    rng = np.random.default_rng(0)
    imgs = rng.integers(0, 256, (300, 12, 10, 3), dtype=np.uint8)
    d = ds.NumpySlicesDataset({"image": imgs, "label": np.arange(300)})
    d = d.map(
        [vision.RandomCrop(8, padding=1), vision.RandomHorizontalFlip(), vision.Resize((6, 7)), vision.HWC2CHW()],
        input_columns="image",
        num_parallel_workers=workers,
    )
    d = d.map(
        lambda x: x * 2 + np.random.default_rng(int(x)).integers(3),
        input_columns="label",
        num_parallel_workers=workers,
        python_multiprocessing=multiprocessing_,
    )
    return d.shuffle(50).batch(16, num_parallel_workers=workers)


def batches(d, epochs=2):
    it = d.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    return [[(a.copy(), b.copy()) for a, b in it] for _ in range(epochs)]


def test_same_batches_1_and_4_workers():
    ds.config.set_seed(11)
    one = batches(pipeline(1))
    ds.config.set_seed(11)
    four = batches(pipeline(4))
    assert len(one[0]) == 19
    for e in range(2):
        for (a1, b1), (a4, b4) in zip(one[e], four[e]):
            np.testing.assert_array_equal(a1, a4)
            np.testing.assert_array_equal(b1, b4)
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(one[0], one[1]))  # new randomness per epoch
    assert _wait_no_workers()


def test_process_workers_same_as_threads():
    ds.config.set_seed(5)
    a = batches(pipeline(1), 1)
    ds.config.set_seed(5)
    b = batches(pipeline(3, multiprocessing_=True), 1)
    for (x1, y1), (x2, y2) in zip(a[0], b[0]):
        np.testing.assert_array_equal(x1, x2)
        np.testing.assert_array_equal(y1, y2)
    assert _wait_no_workers()


def _fail_on_7(x):
    if int(x) == 7:
        raise KeyError("row seven")
    return x


@pytest.mark.parametrize("procs", [False, True])
def test_worker_error_surfaces(procs):
    d = ds.NumpySlicesDataset({"a": np.arange(200)}, shuffle=False).map(
        _fail_on_7, num_parallel_workers=3, python_multiprocessing=procs
    )
    with pytest.raises(RuntimeError) as e:
        for _ in d.create_tuple_iterator(output_numpy=True):
            pass
    msg = str(e.value)
    assert "KeyError: 'row seven'" in msg and "in _fail_on_7" in msg and __file__ in msg
    assert _wait_no_workers()


def test_generator_source_parallel_random_access():
    class Src:
        def __len__(self):
            return 500

        def __getitem__(self, i):
            return np.array([i, i * i])

    for procs in (False, True):
        d = ds.GeneratorDataset(Src(), ["x"], shuffle=False, num_parallel_workers=4, python_multiprocessing=procs)
        got = [r[0].tolist() for r in d.create_tuple_iterator(output_numpy=True)]
        assert got == [[i, i * i] for i in range(500)]
    assert _wait_no_workers()


def test_break_stops_workers():
    d = (
        ds.NumpySlicesDataset({"a": np.arange(10000)}, shuffle=False)
        .map(lambda x: x + 1, num_parallel_workers=4)
        .batch(4)
    )
    for i, _ in enumerate(d.create_tuple_iterator(output_numpy=True)):
        if i == 3:
            break
    assert _wait_no_workers()
    it = d.create_tuple_iterator(output_numpy=True)
    next(it)
    it.stop()
    assert _wait_no_workers()


def test_keyboard_interrupt_stops_workers():
    def slow(x):
        if int(x) == 50:
            raise KeyboardInterrupt
        return x

    d = ds.NumpySlicesDataset({"a": np.arange(1000)}, shuffle=False).map(slow, num_parallel_workers=2)
    with pytest.raises(KeyboardInterrupt):
        for _ in d.create_tuple_iterator(output_numpy=True):
            pass
    assert _wait_no_workers()


def test_exception_in_loop_body_stops_workers():
    d = ds.NumpySlicesDataset({"a": np.arange(5000)}, shuffle=False).map(
        lambda x: x, num_parallel_workers=3, python_multiprocessing=True
    )
    with pytest.raises(ZeroDivisionError):
        for _ in d.create_tuple_iterator(output_numpy=True):
            1 / 0  # noqa: B018
    assert _wait_no_workers()


def test_vectorised_path_equals_row_path():
    rng = np.random.default_rng(2)
    imgs = rng.integers(0, 256, (70, 28, 28, 1), dtype=np.uint8)
    ops = [vision.Resize((32, 32)), vision.Rescale(1 / 255, 0), vision.Normalize([0.1], [0.3]), vision.HWC2CHW()]
    fast = np.stack(
        [
            r[0]
            for r in ds.NumpySlicesDataset({"i": imgs}, shuffle=False).map(ops).create_tuple_iterator(output_numpy=True)
        ]
    )
    slow = np.stack([ops[3](ops[2](ops[1](ops[0](im)))) for im in imgs])
    np.testing.assert_array_equal(fast, slow)
