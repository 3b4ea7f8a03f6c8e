"""MindDataset (against MindSpore 2.10's outputs), Dataset.save, child samplers, sync_wait/sync_update."""

import json
import os
import threading

import numpy as np
import pytest

import sporax.dataset as ds
from sporax.mindrecord import FileReader, FileWriter

MR_FIX = os.path.join(os.path.dirname(__file__), "..", "mindrecord", "fixtures")


@pytest.fixture(scope="module")
def ms_mind():
    with open(os.path.join(MR_FIX, "ms_minddataset.json"), encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture
def ten(tmp_path):
    """Ten rows, as MindSpore's reference file: x = i, v = [i, -i]."""
    p = str(tmp_path / "ten.mindrecord")
    w = FileWriter(p)
    w.add_schema({"x": {"type": "int64"}, "v": {"type": "float32", "shape": [2]}}, "")
    w.write_raw_data([{"x": i, "v": np.array([i, -i], np.float32)} for i in range(10)])
    w.commit()
    return p


def ids(d, col="x"):
    k = d.get_col_names().index(col)
    return [int(r[k]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def test_columns_values_and_types():
    d = ds.MindDataset(os.path.join(MR_FIX, "all_types.mindrecord"), shuffle=False)
    names = d.get_col_names()
    assert names == sorted(names) and len(names) == 12
    row = next(d.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert row["id"].shape == () and row["id"].dtype == np.int64
    assert row["i32"].dtype == np.int32 and row["f32"].dtype == np.float32 and row["f64"].dtype == np.float64
    assert row["name"].dtype.kind == "U" and row["name"].shape == () and str(row["name"]) == "row-0-é"
    assert row["data"].dtype.kind == "S" and row["data"].shape == (1,)
    assert row["af32"].shape == (2, 3) and row["s0"].shape == () and row["a64"].shape == (3,)
    ref = next(FileReader(os.path.join(MR_FIX, "all_types.mindrecord")).get_next())
    assert row["data"].tobytes() == ref["data"] and np.array_equal(row["a32"], ref["a32"])
    assert d.get_dataset_size() == 12
    rows = list(ds.MindDataset(os.path.join(MR_FIX, "pages.mindrecord"), shuffle=False))
    assert [int(r[1].asnumpy()) for r in rows] == list(range(25))


def test_sharding_padding_num_samples_match_mindspore(ten, ms_mind):
    assert ds.MindDataset(ten).get_col_names() == ms_mind["col_names"]
    for ns in (3, 4):
        assert [ids(ds.MindDataset(ten, num_shards=ns, shard_id=i, shuffle=False)) for i in range(ns)] == ms_mind[
            f"shards_{ns}"
        ]
    got = [ids(ds.MindDataset(ten, num_shards=3, shard_id=i, shuffle=False, num_samples=2)) for i in range(3)]
    assert got == ms_mind["shards_3_num_samples_2"]
    assert ids(ds.MindDataset(ten, shuffle=False, num_samples=4)) == ms_mind["num_samples_4"]
    assert ids(ds.MindDataset(ten, shuffle=False, num_samples=40)) == ms_mind["num_samples_40"]
    pad = {"x": -1, "v": np.array([9, 9], np.float32)}
    got = [
        ids(ds.MindDataset(ten, ["v", "x"], num_shards=4, shard_id=i, shuffle=False, padded_sample=pad, num_padded=2))
        for i in range(4)
    ]
    assert got == ms_mind["padded_4_2"]
    assert ds.MindDataset(ten, columns_list=["x", "v"]).get_col_names() == ms_mind["columns_x_v"]
    assert ds.MindDataset(ten, num_shards=3, shard_id=0).get_dataset_size() == ms_mind["size_shards_3"]


def test_shuffle_modes_and_seeds(tmp_path, ten):
    ds.config.set_seed(3)
    a = ids(ds.MindDataset(ten))
    assert sorted(a) == list(range(10)) and a != list(range(10))
    assert a == ids(ds.MindDataset(ten, shuffle=True))  # same seed, same order
    shards = [ids(ds.MindDataset(ten, num_shards=3, shard_id=i)) for i in range(3)]
    assert sorted(sum(shards, [])[:10]) != [] and set(sum(shards, [])) == set(range(10))
    assert all(len(s) == 4 for s in shards)
    # two files of 5 rows: FILES keeps rows in order inside each file, INFILE keeps the file order
    w = FileWriter(str(tmp_path / "two.mindrecord"), shard_num=2)
    w.add_schema({"x": {"type": "int64"}})
    w.write_raw_data([{"x": i} for i in range(10)])
    w.commit()
    f = str(tmp_path / "two.mindrecord0")
    seen = set()
    for seed in range(6):
        ds.config.set_seed(seed)
        got = ids(ds.MindDataset(f, shuffle=ds.Shuffle.FILES))
        assert got in ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [5, 6, 7, 8, 9, 0, 1, 2, 3, 4])
        seen.add(tuple(got))
        inf = ids(ds.MindDataset(f, shuffle=ds.Shuffle.INFILE))
        assert sorted(inf[:5]) == [0, 1, 2, 3, 4] and sorted(inf[5:]) == [5, 6, 7, 8, 9]
    assert len(seen) == 2
    assert ids(ds.MindDataset([str(tmp_path / "two.mindrecord1")], shuffle=False)) == [5, 6, 7, 8, 9]
    assert ids(ds.MindDataset([str(tmp_path / "two.mindrecord1"), f], shuffle=False)) == [5, 6, 7, 8, 9, 0, 1, 2, 3, 4]


def test_samplers_workers_and_pipeline(ten):
    assert ids(ds.MindDataset(ten, sampler=ds.SubsetSampler([7, 2, 2]))) == [7, 2, 2]
    assert ids(ds.MindDataset(ten, sampler=ds.SequentialSampler(3, 4))) == [3, 4, 5, 6]
    pk = ids(ds.MindDataset(ten, sampler=ds.PKSampler(2, class_column="x")))
    assert pk == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9]
    d = ds.MindDataset(ten, shuffle=False, num_parallel_workers=3).map(lambda v: v * 2, input_columns="v").batch(4)
    out = list(d.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert [len(b["x"]) for b in out] == [4, 4, 2] and np.array_equal(out[0]["v"][1], [2.0, -2.0])
    with pytest.raises(RuntimeError, match="sampler and shuffle"):
        ds.MindDataset(ten, sampler=ds.SequentialSampler(), shuffle=False)


def test_errors(tmp_path, ten):
    with pytest.raises(ValueError, match="does not exist"):
        ds.MindDataset(str(tmp_path / "nope.mindrecord"))
    with pytest.raises(RuntimeError, match="requires columns_list"):
        ds.MindDataset(ten, padded_sample={"x": 1}, num_padded=1)
    with pytest.raises(RuntimeError, match="requires num_padded"):
        ds.MindDataset(ten, columns_list=["x"], padded_sample={"x": 1})
    with pytest.raises(RuntimeError, match="padded_sample is not"):
        ds.MindDataset(ten, num_padded=1)
    with pytest.raises(ValueError, match="cannot match"):
        ds.MindDataset(ten, columns_list=["x", "v"], padded_sample={"x": 1}, num_padded=1)
    d = ds.MindDataset(ten, ["x"], num_shards=3, shard_id=0, shuffle=False, padded_sample={"x": 1}, num_padded=1)
    with pytest.raises(RuntimeError, match="can not be divisible"):
        d.get_dataset_size()
    with pytest.raises(RuntimeError, match="does not exist in the MindRecord schema"):
        ds.MindDataset(ten, columns_list=["zz"]).get_col_names()
    os.remove(ten + ".db")
    with pytest.raises(RuntimeError, match=r"\.db"):
        ds.MindDataset(ten)
    bad = str(tmp_path / "bad.mindrecord")
    with open(bad, "wb") as f:
        f.write(b"\x00" * 100)
    with pytest.raises(RuntimeError, match="not a MindRecord file"):
        ds.MindDataset(bad)


def test_save_round_trip(tmp_path):
    n = 9
    data = {
        "b": np.arange(n) % 2 == 0,
        "u8": np.arange(n, dtype=np.uint8),
        "i16": -np.arange(n, dtype=np.int16),
        "u32": np.arange(n, dtype=np.uint32) * 7,
        "i64": np.arange(n, dtype=np.int64) - 2**40,
        "f16": np.arange(n, dtype=np.float16) / 4,
        "f64": np.arange(n) / 3,
        "img": np.arange(n * 6, dtype=np.uint8).reshape(n, 2, 3),
        "m": np.ones((n, 3), np.float32),
        "s": np.array([f"s{i}" for i in range(n)]),
    }
    src = ds.NumpySlicesDataset(data, shuffle=False)
    p = str(tmp_path / "saved.mindrecord")
    src.save(p)
    r = FileReader(p)
    assert r.schema() == {
        "b": {"type": "int32"},
        "f16": {"type": "float32"},
        "f64": {"type": "float64"},
        "i16": {"type": "int32"},
        "i64": {"type": "int64"},
        "img": {"shape": [-1, 3], "type": "int32"},
        "m": {"shape": [-1], "type": "float32"},
        "s": {"type": "string"},
        "u32": {"type": "int64"},
        "u8": {"type": "int32"},
    }
    r.close()
    back = list(ds.MindDataset(p, shuffle=False).create_dict_iterator(output_numpy=True, num_epochs=1))
    assert len(back) == n
    for i, row in enumerate(back):
        for k, v in data.items():
            assert np.array_equal(row[k], v[i]), k
    # bytes columns survive a MindDataset -> save -> MindDataset round trip; several files
    d = ds.MindDataset(os.path.join(MR_FIX, "arrays.mindrecord"), shuffle=False)
    d.save(str(tmp_path / "again.mindrecord"), num_files=2)
    a = list(d.create_dict_iterator(output_numpy=True, num_epochs=1))
    b = list(
        ds.MindDataset(str(tmp_path / "again.mindrecord0"), shuffle=False).create_dict_iterator(
            output_numpy=True, num_epochs=1
        )
    )
    assert sorted(x["img"].tobytes() for x in a) == sorted(x["img"].tobytes() for x in b)
    with pytest.raises(RuntimeError, match="already exist"):
        d.save(str(tmp_path / "again.mindrecord"), num_files=2)
    with pytest.raises(ValueError, match=r"^tfrecord dataset format is not supported\.$"):
        d.save(str(tmp_path / "x.tfrecord"), file_type="tfrecord")


def test_child_samplers():
    d = ds.NumpySlicesDataset({"x": np.arange(12)}, shuffle=False)
    parent = ds.SequentialSampler(start_index=1, num_samples=3)
    parent.add_child(ds.SubsetSampler([10, 8, 6, 4, 2, 0]))
    d.use_sampler(parent)
    assert ids(d) == [8, 6, 4] and d.get_dataset_size() == 3
    assert parent.get_child().get_child() is None
    with pytest.raises(RuntimeError, match="already has a child"):
        parent.add_child(ds.SequentialSampler())
    with pytest.raises(TypeError):
        ds.SequentialSampler().add_child([1, 2])
    # distributed child: every shard's rows, then a random parent over them
    shards = []
    for sid in range(3):
        s = ds.RandomSampler()
        s.add_child(ds.DistributedSampler(3, sid, shuffle=False))
        dd = ds.NumpySlicesDataset({"x": np.arange(12)}, sampler=s)
        shards.append(sorted(ids(dd)))
    assert shards == [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]
    loop = ds.SequentialSampler()
    with pytest.raises(RuntimeError, match="cycle"):
        loop.add_child(loop)


def test_sync_wait_blocks_until_update():
    data = ds.NumpySlicesDataset({"x": np.arange(12)}, shuffle=False)
    got_data = []
    d = data.sync_wait("policy", num_batch=1, callback=got_data.append).map(lambda x: x + 100, input_columns="x")
    d = d.batch(3)
    it = d.create_dict_iterator(output_numpy=True, num_epochs=1)
    first = next(it)
    assert first["x"].tolist() == [100, 101, 102]
    box = []
    t = threading.Thread(target=lambda: box.append(next(it)), daemon=True)
    t.start()
    t.join(0.3)
    assert t.is_alive()  # blocked: the second batch waits for sync_update
    d.sync_update("policy", data={"loss": 1})
    t.join(5)
    assert not t.is_alive() and box[0]["x"].tolist() == [103, 104, 105] and got_data == [{"loss": 1}]
    d.sync_update("policy", num_batch=2)
    assert [next(it)["x"].tolist() for _ in range(2)] == [[106, 107, 108], [109, 110, 111]]
    it.stop()
    with pytest.raises(RuntimeError, match="Condition name not found"):
        d.sync_update("nope")
    # stopping a blocked pipeline does not hang; introspection does not block
    it = d.create_dict_iterator(output_numpy=True, num_epochs=1)
    next(it)
    it.stop()
    assert d.get_dataset_size() == 4
    assert ds.NumpySlicesDataset({"x": np.arange(5)}).filter(lambda x: True).sync_wait("c").get_dataset_size() == 5


def test_minddataset_decode_pipeline(tmp_path):
    import cv2

    rng = np.random.default_rng(4)
    imgs = [rng.integers(0, 256, (6 + i, 7, 3), dtype=np.uint8) for i in range(4)]
    encoded = [cv2.imencode(".png", im[..., ::-1])[1].tobytes() for im in imgs]
    p = str(tmp_path / "img.mindrecord")
    w = FileWriter(p)
    w.add_schema({"data": {"type": "bytes"}, "label": {"type": "int32"}})
    w.write_raw_data([{"data": e, "label": i} for i, e in enumerate(encoded)])
    w.commit()
    d = ds.MindDataset(p, shuffle=False).map(ds.vision.Decode(), input_columns="data")
    out = list(d.create_dict_iterator(output_numpy=True, num_epochs=1))
    for o, im in zip(out, imgs):
        np.testing.assert_array_equal(o["data"], im)
    np.testing.assert_array_equal(ds.vision.Decode()(encoded[0]), imgs[0])
