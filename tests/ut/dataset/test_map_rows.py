"""map's row path: once an operation of a map is not vectorised, each row goes through the rest of the map's
operations before the next row. The values equal the operations applied one at a time, rows of different
shapes stay a list, the same for any worker count, and an operation's column count is checked per row."""

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.vision as vision
from sporax.dataset.engine._block import RowStack, maybe_stack


def _rows(d):
    return [r for r in d.create_tuple_iterator(output_numpy=True)]


def test_row_ops_then_vectorised_ops_equal_one_at_a_time():
    rng = np.random.default_rng(0)
    imgs = rng.integers(0, 256, (70, 9, 11, 3), dtype=np.uint8)
    mean, std = [10.0, 20.0, 30.0], [2.0, 3.0, 4.0]
    ops = [lambda x: x[1:, :-1], vision.Normalize(mean, std), vision.HWC2CHW()]
    got = np.stack([r[0] for r in _rows(ds.NumpySlicesDataset({"i": imgs}, shuffle=False).map(ops))])
    want = np.stack([ops[2](ops[1](ops[0](im))) for im in imgs])
    assert got.dtype == np.float32 and got.shape == (70, 3, 8, 10)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("workers", [1, 3])
def test_ragged_rows_and_random_ops_same_for_any_worker_count(workers):
    def grow(x):
        return np.repeat(x, int(x[0]) % 3 + 1)

    data = np.arange(150).reshape(150, 1)
    ds.config.set_seed(5)
    d = ds.NumpySlicesDataset({"x": data}, shuffle=False)
    d = d.map([grow, lambda x: (x, x.sum())], input_columns="x", output_columns=["x", "s"], num_parallel_workers=1)
    ref = _rows(d)
    ds.config.set_seed(5)
    d = ds.NumpySlicesDataset({"x": data}, shuffle=False)
    d = d.map(
        [grow, lambda x: (x, x.sum())], input_columns="x", output_columns=["x", "s"], num_parallel_workers=workers
    )
    got = _rows(d)
    assert len(got) == 150
    for i, ((x, s), (rx, rs)) in enumerate(zip(got, ref)):
        np.testing.assert_array_equal(x, np.repeat(i, i % 3 + 1))
        assert int(s) == i * (i % 3 + 1)
        np.testing.assert_array_equal(x, rx)
        np.testing.assert_array_equal(s, rs)
    imgs = np.random.default_rng(1).integers(0, 256, (130, 8, 8, 3), dtype=np.uint8)
    out = []
    for w in (1, workers):
        ds.config.set_seed(9)
        d = ds.NumpySlicesDataset({"i": imgs}, shuffle=False).map(
            [vision.RandomHorizontalFlip(), vision.RandomVerticalFlip(), vision.HWC2CHW()], num_parallel_workers=w
        )
        out.append(np.stack([r[0] for r in _rows(d)]))
    np.testing.assert_array_equal(out[0], out[1])


def test_column_count_checked_per_row():
    d = ds.NumpySlicesDataset({"x": np.arange(5)}, shuffle=False)
    d = d.map([lambda x: x + 1, lambda x: (x, x) if int(x) < 3 else x], input_columns="x")
    with pytest.raises(RuntimeError, match=r"returned 1 columns for one row and 2 for another"):
        _rows(d)


@pytest.mark.parametrize(
    "rows",
    [
        [np.zeros((2, 3)), np.ones((2, 3))],
        [np.zeros((2, 3))],
        [np.array(1.0), np.array(2.0)],
        [np.zeros((2, 3)), np.ones((3, 3))],
        [np.zeros(2), np.ones(2, np.int32)],
        [np.zeros(2), 5],
        [np.array("ab"), np.array("c")],
        [np.array([None], dtype=object)] * 2,
    ],
)
def test_row_stack_equals_maybe_stack(rows):
    st = RowStack(len(rows))
    for v in rows:
        st.add(v)
    got, want = st.done(), maybe_stack(list(rows))
    assert type(got) is type(want)
    if isinstance(want, np.ndarray):
        assert (got.dtype, got.shape) == (want.dtype, want.shape)
        np.testing.assert_array_equal(got, want)
    else:
        assert [type(a) for a in got] == [type(b) for b in want]
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
