"""The pipeline runs on into the next epoch (a ``map`` with several workers keeps its pool and input across
epochs, as MindSpore's does): each epoch's rows equal a fresh pass's, callbacks count as before, sync_wait,
repeat, stop, errors and get_dataset_size keep their behaviour."""

import threading
import time

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.vision as vision
from sporax.dataset import DSCallback


def _threads():
    return {t for t in threading.enumerate() if t.name.startswith("sporax-dataset")}


def _wait(cond, timeout=5.0):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


def _pipeline(workers, procs=False, repeat_below=1):
    rng = np.random.default_rng(0)
    imgs = rng.integers(0, 256, (150, 10, 9, 3), dtype=np.uint8)
    d = ds.NumpySlicesDataset({"image": imgs, "label": np.arange(150)}, shuffle=True)
    if repeat_below > 1:
        d = d.repeat(repeat_below)
    d = d.map(
        [vision.RandomCrop(8, padding=1), vision.RandomHorizontalFlip(), vision.HWC2CHW()],
        input_columns="image",
        num_parallel_workers=workers,
        python_multiprocessing=procs,
    )
    return d.batch(16)


def _epochs(d, n, start=0):
    it = d.create_tuple_iterator(num_epochs=n, output_numpy=True)
    it.start_at_epoch(start)
    out = [[[np.array(c) for c in row] for row in it] for _ in range(n - start)]
    it.stop()
    return out


def _same(a, b):
    assert len(a) == len(b)
    for ea, eb in zip(a, b):
        assert len(ea) == len(eb)
        for ra, rb in zip(ea, eb):
            for x, y in zip(ra, rb):
                np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize(("workers", "procs"), [(2, False), (3, False), (2, True)])
def test_epochs_equal_fresh_passes(workers, procs):
    """Shuffle order and random draws per epoch: the same with the pipeline running ahead (several
    workers) as with one worker, and as an iterator started fresh at that epoch."""
    ds.config.set_seed(5)
    ref = _epochs(_pipeline(1), 3)
    got = _epochs(_pipeline(workers, procs), 3)
    _same(ref, got)
    assert not all(np.array_equal(a[0], b[0]) for a, b in zip(ref[0], ref[1]))  # epochs differ
    _same(ref[2:], _epochs(_pipeline(workers), 3, start=2))
    assert _wait(lambda: not _threads())


def test_repeat_below_and_above_the_map():
    ds.config.set_seed(3)
    _same(_epochs(_pipeline(1, repeat_below=2), 2), _epochs(_pipeline(2, repeat_below=2), 2))
    above = [_pipeline(w).repeat(2) for w in (1, 2)]
    _same(_epochs(above[0], 2), _epochs(above[1], 2))


class _Src:
    def __init__(self, n=20):
        self.n = n
        self.calls = 0

    def __getitem__(self, i):
        self.calls += 1
        return (np.array(i),)

    def __len__(self):
        return self.n


def _counting(num_epochs, workers=2):
    src = _Src()
    d = ds.GeneratorDataset(src, ["x"], shuffle=False).map(lambda x: x, num_parallel_workers=workers).batch(4)
    return src, d.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)


def test_runs_on_into_the_next_epoch_like_mindspore():
    """MindSpore 2.10 (num_epochs -1 or 2): the next epoch's rows are read while the consumer is still
    on this one; with num_epochs=1 nothing more is read."""
    for num_epochs in (2, -1):
        src, it = _counting(num_epochs)
        assert len(list(it)) == 5
        assert _wait(lambda: src.calls == 40)  # epoch 1 read without being asked for
        assert len(list(it)) == 5
        if num_epochs == 2:
            time.sleep(0.1)
            assert src.calls == 40  # nothing past the last epoch
            assert list(it) == []
        it.stop()
    src, it = _counting(1)
    assert len(list(it)) == 5
    time.sleep(0.1)
    assert src.calls == 20
    assert _wait(lambda: not _threads())


def test_one_worker_reads_epoch_by_epoch():
    src, it = _counting(2, workers=1)
    assert len(list(it)) == 5
    time.sleep(0.1)
    assert src.calls == 20
    it.stop()


class _CountCB(DSCallback):
    def __init__(self):
        super().__init__(step_size=2)
        self.log = []

    def ds_begin(self, c):
        self.log.append(("begin",))

    def ds_epoch_begin(self, c):
        self.log.append(("eb", c.cur_epoch_num))

    def ds_epoch_end(self, c):
        self.log.append(("ee", c.cur_epoch_num))

    def ds_step_begin(self, c):
        self.log.append(("sb", c.cur_epoch_num, c.cur_step_num_in_epoch, c.cur_step_num))


def test_callback_counts_across_epochs():
    """The same calls as MindSpore 2.10 makes (ds_begin once, each epoch's begin/end, steps numbered on
    over the epochs), made as the consumer reaches the rows."""
    cb = _CountCB()
    d = ds.NumpySlicesDataset({"x": np.arange(6)}, shuffle=False).map(lambda x: x, num_parallel_workers=2, callbacks=cb)
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [int(r[0]) for r in it] == list(range(6))
    first = [("begin",), ("eb", 1), ("sb", 1, 1, 1), ("sb", 1, 3, 3), ("sb", 1, 5, 5), ("ee", 1)]
    assert cb.log == first
    assert [int(r[0]) for r in it] == list(range(6))
    assert cb.log == first + [("eb", 2), ("sb", 2, 1, 7), ("sb", 2, 3, 9), ("sb", 2, 5, 11), ("ee", 2)]
    it.stop()


def test_sync_wait_over_epochs():
    d = ds.NumpySlicesDataset({"x": np.arange(12)}, shuffle=False)
    d = d.sync_wait(condition_name="c", num_batch=1).map(lambda x: x * 2, num_parallel_workers=2).batch(3)
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    for _ in range(2):
        got = []
        for row in it:
            got.extend(int(v) for v in row[0])
            d.sync_update(condition_name="c")
        assert got == [2 * i for i in range(12)]
    it.stop()
    assert _wait(lambda: not _threads())


def test_stop_break_and_gc_join_the_workers():
    src, it = _counting(-1)
    next(it)
    it.stop()
    assert _wait(lambda: not _threads())
    src, it = _counting(-1)
    assert len(list(it)) == 5
    del it
    assert _wait(lambda: not _threads())
    # a new iterator after a break reads epoch 0 afresh
    ds.config.set_seed(7)
    d = _pipeline(2)
    for i, _ in enumerate(d.create_tuple_iterator(num_epochs=3, output_numpy=True)):
        if i == 2:
            break
    _same(_epochs(_pipeline(1), 2), _epochs(d, 2))
    assert _wait(lambda: not _threads())


def test_error_in_next_epoch_surfaces_in_that_epoch():
    calls = [0]

    def gen():
        calls[0] += 1
        if calls[0] == 2:
            raise ValueError("second pass")
        yield from ((np.array(i),) for i in range(8))

    d = ds.GeneratorDataset(gen, ["x"]).map(lambda x: x, num_parallel_workers=2)
    it = d.create_tuple_iterator(num_epochs=3, output_numpy=True)
    assert [int(r[0]) for r in it] == list(range(8))
    with pytest.raises(RuntimeError, match="second pass"):
        list(it)
    assert _wait(lambda: not _threads())


def test_dataset_size_and_fresh_iterators_unaffected():
    ds.config.set_seed(2)
    d = _pipeline(2)
    assert d.get_dataset_size() == 10
    a = _epochs(d, 2)
    assert d.get_dataset_size() == 10
    _same(a, _epochs(d, 2))


# ---- Normalize then HWC2CHW at the end of a map: one pass, written into the block (the same values)
def _norm_chw_rows(images, mean, std, fused=True):
    d = ds.GeneratorDataset(lambda: ((im,) for im in images), ["image"], shuffle=False)
    # a row operation first (a PyFunc): the rest of the map runs row by row, as after a decode
    ops = [lambda x: x, vision.Normalize(mean, std), vision.HWC2CHW()]
    if not fused:
        ops = [lambda x: x, lambda x: vision.Normalize(mean, std)(x), lambda x: vision.HWC2CHW()(x)]  # no fusion
    d = d.map(ops, input_columns="image").batch(len(images), drop_remainder=False)
    return [r[0] for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]


@pytest.mark.parametrize(
    ("shapes", "dtype", "mean", "std"),
    [
        ([(7, 5, 3)] * 4, np.uint8, [10.5, 120, 250], [3, 0.5, 60]),
        ([(7, 5, 4)] * 3, np.uint8, [1.0], [2.0]),
        ([(6, 4, 2)] * 2, np.uint8, [5, 7], [1, 3]),
        ([(7, 5, 3)] * 3, np.float32, [0.1, 0.2, 0.3], [1, 2, 3]),
        ([(7, 5, 1)] * 2, np.uint8, [4.0], [9.0]),
    ],
)
def test_normalize_chw_tail_equals_the_two_ops(shapes, dtype, mean, std):
    rng = np.random.default_rng(1)
    images = [(rng.random(s) * 255).astype(dtype) for s in shapes]
    got, ref = _norm_chw_rows(images, mean, std), _norm_chw_rows(images, mean, std, fused=False)
    assert len(got) == len(ref) == 1
    assert got[0].dtype == ref[0].dtype == np.float32
    np.testing.assert_array_equal(got[0], ref[0])
    np.testing.assert_array_equal(got[0][0], vision.HWC2CHW()(vision.Normalize(mean, std)(images[0])))


def test_normalize_chw_tail_mixed_shapes_and_errors():
    rng = np.random.default_rng(2)
    images = [rng.integers(0, 256, s, dtype=np.uint8) for s in [(4, 3, 3), (4, 3, 3), (5, 2, 3), (4, 3, 3)]]
    d = ds.GeneratorDataset(lambda: ((im,) for im in images), ["image"], shuffle=False)
    d = d.map([lambda x: x, vision.Normalize([1, 2, 3], [4, 5, 6]), vision.HWC2CHW()], input_columns="image")
    got = [r[0] for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    for g, im in zip(got, images):
        np.testing.assert_array_equal(g, vision.HWC2CHW()(vision.Normalize([1, 2, 3], [4, 5, 6])(im)))
    bad = ds.GeneratorDataset(lambda: ((im,) for im in images), ["image"], shuffle=False)
    bad = bad.map([lambda x: x, vision.Normalize([1, 2], [4, 5]), vision.HWC2CHW()], input_columns="image")
    with pytest.raises(RuntimeError, match=r"map operation: \[Normalize\] failed"):
        list(bad.create_tuple_iterator(num_epochs=1, output_numpy=True))
