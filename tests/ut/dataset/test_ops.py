"""Dataset operations, iterators and introspection, against NumPy."""

import numpy as np
import pytest

import sporax.dataset as ds
from sporax.common.tensor import Tensor


def nums(n=10, **kw):
    return ds.NumpySlicesDataset({"a": np.arange(n), "b": np.arange(n) * 10}, shuffle=False, **kw)


def col(d, k=0):
    return [np.asarray(r[k]).tolist() for r in d.create_tuple_iterator(output_numpy=True)]


def test_map_callable_list_and_columns():
    d = nums().map(lambda x: x + 1, input_columns="a")
    assert col(d) == list(range(1, 11)) and d.get_col_names() == ["a", "b"]
    d = nums().map([lambda x: x * 2, lambda x: x + 1], input_columns=["b"])
    assert col(d, 1) == [i * 20 + 1 for i in range(10)]
    # fewer/more outputs: outputs first, then the other columns (MindSpore's order)
    d = nums().map(lambda b: (b, b + 1), input_columns=["b"], output_columns=["x", "y"])
    assert d.get_col_names() == ["x", "y", "a"]
    assert col(d, 1) == [i * 10 + 1 for i in range(10)]
    d = nums().map(lambda a: a * 3, input_columns=["a"], output_columns=["z"])
    assert d.get_col_names() == ["z", "b"]
    d = nums().map(lambda a, b: a + b, input_columns=["a", "b"], output_columns=["s"])
    assert d.get_col_names() == ["s"] and col(d) == [i * 11 for i in range(10)]


def test_map_column_names_like_mindspore(ms_ref):
    d = ds.NumpySlicesDataset({"a": np.arange(4), "b": np.arange(4) * 10, "c": np.arange(4) * 100}, shuffle=False)
    assert (
        d.map(lambda b: (b, b), input_columns=["b"], output_columns=["x", "y"]).get_col_names()
        == ms_ref["map_cols_b_xy"].tolist()
    )


def test_map_errors():
    with pytest.raises(RuntimeError, match="input column name: q doesn't exist"):
        col(nums().map(lambda x: x, input_columns=["q"]))
    with pytest.raises(RuntimeError, match="number of columns returned in 'map' operations should match"):
        col(nums().map(lambda x: (x, x), input_columns=["a"]))

    def boom(x):
        raise ValueError("boom at row")

    with pytest.raises(RuntimeError) as e:
        col(nums().map(boom, input_columns=["a"]))
    assert "ValueError: boom at row" in str(e.value) and "in boom" in str(e.value)


def test_batch_and_sizes():
    d = nums(10).batch(3)
    assert d.get_dataset_size() == 4 and d.get_batch_size() == 3
    b = col(d)
    assert b == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert nums(10).batch(3, drop_remainder=True).get_dataset_size() == 3
    assert col(nums(10).batch(3, drop_remainder=True))[-1] == [6, 7, 8]
    with pytest.raises(ValueError):
        nums().batch(0)


def test_batch_inconsistent_shapes():
    d = ds.GeneratorDataset([(np.zeros(i + 1),) for i in range(3)], ["x"], shuffle=False).batch(3)
    with pytest.raises(RuntimeError, match="Inconsistent batch shapes"):
        col(d)


def test_batch_per_batch_map_and_callable_size():
    def pbm(a, b, info):
        return [x * 2 for x in a], [x + info.get_batch_num() for x in b]

    d = nums(6).batch(2, per_batch_map=pbm, input_columns=["a", "b"])
    out = [[x.tolist() for x in r] for r in d.create_tuple_iterator(output_numpy=True)]
    assert out == [[[0, 2], [0, 10]], [[4, 6], [21, 31]], [[8, 10], [42, 52]]]
    d = nums(6).batch(
        2,
        per_batch_map=lambda a, info: ([x for x in a], [x * 0 for x in a]),
        input_columns=["a"],
        output_columns=["a", "z"],
    )
    assert d.get_col_names() == ["a", "z", "b"]
    with pytest.raises(RuntimeError, match="should be 1 , but got: 2"):
        col(nums(4).batch(2, per_batch_map=lambda a, info: (a, a), input_columns=["a"]))
    d = nums(10).batch(lambda info: info.get_batch_num() + 1)
    assert col(d) == [[0], [1, 2], [3, 4, 5], [6, 7, 8, 9]]


def test_padded_batch_and_bucket():
    src = ds.GeneratorDataset([(np.arange(n),) for n in (1, 3, 2, 5, 4)], ["x"], shuffle=False)
    b = [r[0] for r in src.padded_batch(2).create_tuple_iterator(output_numpy=True)]
    np.testing.assert_array_equal(b[0], [[0, 0, 0], [0, 1, 2]])
    np.testing.assert_array_equal(b[2], [[0, 1, 2, 3]])
    b = [r[0] for r in src.padded_batch(5, pad_info={"x": ([6], -1)}).create_tuple_iterator(output_numpy=True)]
    assert b[0].shape == (5, 6) and b[0][0].tolist() == [0, -1, -1, -1, -1, -1]
    bb = src.bucket_batch_by_length(["x"], [3], [2, 2], pad_info={"x": (None, 0)})
    out = [r[0].tolist() for r in bb.create_tuple_iterator(output_numpy=True)]
    assert out == [[[0, 0], [0, 1]], [[0, 1, 2, 0, 0], [0, 1, 2, 3, 4]], [[0, 1, 2, 3]]]


def test_shuffle_seeded_and_epochs():
    ds.config.set_seed(3)
    d = nums(50).shuffle(8)
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    e1 = [int(r[0]) for r in it]
    e2 = [int(r[0]) for r in it]
    assert sorted(e1) == list(range(50)) and sorted(e2) == list(range(50)) and e1 != e2 and e1 != list(range(50))
    assert list(it) == []  # num_epochs=2 reached
    ds.config.set_seed(3)
    assert [int(r[0]) for r in nums(50).shuffle(8).create_tuple_iterator(output_numpy=True)] == e1
    # buffer semantics: a row can only move earlier by at most buffer_size - 1 positions
    assert all(v <= i + 7 for i, v in enumerate(e1))
    with pytest.raises(ValueError):
        nums().shuffle(1)


def test_repeat_take_skip():
    assert col(nums(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert nums(3).repeat(2).get_dataset_size() == 6 and nums(3).repeat(2).get_repeat_count() == 2
    assert col(nums(10).take(4)) == [0, 1, 2, 3] and nums(10).take(4).get_dataset_size() == 4
    assert col(nums(10).skip(7)) == [7, 8, 9] and nums(10).skip(7).get_dataset_size() == 3
    assert col(nums(3).repeat(3).skip(2).take(3)) == [2, 0, 1]
    assert col(nums(200).batch(7).take(2))[1] == list(range(7, 14))
    d = nums(3).repeat()
    out = []
    for r in d.create_tuple_iterator(output_numpy=True):
        out.append(int(r[0]))
        if len(out) == 8:
            break
    assert out == [0, 1, 2, 0, 1, 2, 0, 1]


def test_project_rename_zip_concat():
    d = nums().project(["b"])
    assert d.get_col_names() == ["b"] and col(d)[:2] == [0, 10]
    with pytest.raises(RuntimeError, match="column name: q does not exist"):
        nums().project(["q"]).get_col_names()
    r = nums().rename(["a"], ["x"])
    assert r.get_col_names() == ["x", "b"]
    with pytest.raises(RuntimeError, match="does not exist"):
        nums().rename(["q"], ["r"]).get_col_names()
    z = ds.zip((nums(5).project("a"), nums(3).rename(["a", "b"], ["c", "d"])))
    assert z.get_col_names() == ["a", "c", "d"] and z.get_dataset_size() == 3 and col(z, 2) == [0, 10, 20]
    with pytest.raises(RuntimeError, match="duplicate column name"):
        nums().zip(nums()).get_col_names()
    c = nums(2) + nums(3)
    assert col(c) == [0, 1, 0, 1, 2] and c.get_dataset_size() == 5
    with pytest.raises(RuntimeError, match="column names"):
        (nums(2) + nums(2).project("a")).get_col_names()


def test_filter_and_size():
    f = nums(10).filter(lambda a: a % 3 == 0, input_columns=["a"])
    assert col(f) == [0, 3, 6, 9] and f.get_dataset_size() == 4


def test_split_sizes_and_random():
    parts = nums(10).split([0.33, 0.33, 0.34], randomize=False)
    assert [p.get_dataset_size() for p in parts] == [4, 3, 3]
    parts = nums(10).split([3, 7], randomize=False)
    assert col(parts[0]) == [0, 1, 2] and col(parts[1]) == list(range(3, 10))
    ds.config.set_seed(1)
    a, b = ds.NumpySlicesDataset({"a": np.arange(20)}).split([5, 15])
    va, vb = col(a), col(b)
    assert sorted(va + vb) == list(range(20)) and len(va) == 5
    with pytest.raises(RuntimeError, match="Sum of split sizes"):
        nums(10).split([3, 3])
    with pytest.raises(RuntimeError, match="randomize"):
        nums(10).map(lambda x: x).split([5, 5])


def test_iterators_and_introspection():
    d = nums(4).map(lambda a: a.astype(np.float32), input_columns="a")
    r = next(d.create_tuple_iterator())
    assert isinstance(r, list) and isinstance(r[0], Tensor) and r[0].shape == ()
    dct = next(d.create_dict_iterator())
    assert set(dct) == {"a", "b"} and isinstance(dct["b"], Tensor)
    dn = next(d.create_dict_iterator(output_numpy=True))
    assert isinstance(dn["a"], np.ndarray) and dn["a"].dtype == np.float32
    assert next(iter(d))[1].asnumpy() == 0
    assert d.output_types() == [np.float32, np.int64] and d.output_shapes() == [[], []]
    assert nums(4).batch(2).output_shapes() == [[2], [2]]
    only = next(d.create_tuple_iterator(columns=["b"], output_numpy=True))
    assert len(only) == 1
    with pytest.raises(RuntimeError, match="RootNode: num_epochs should be either -1 or positive integer"):
        d.create_tuple_iterator(num_epochs=0)
    strs = ds.GeneratorDataset([("x",), ("yy",)], ["s"], shuffle=False)
    assert next(strs.create_tuple_iterator())[0].tolist() == "x"


def test_config():
    ds.config.set_seed(123)
    assert ds.config.get_seed() == 123 and ds.get_seed() == 123
    ds.config.set_num_parallel_workers(3)
    assert ds.config.get_num_parallel_workers() == 3
    ds.config.set_prefetch_size(4)
    assert ds.config.get_prefetch_size() == 4
    with pytest.raises(ValueError):
        ds.config.set_num_parallel_workers(0)
    with pytest.raises(TypeError):
        ds.config.set_seed("1")
