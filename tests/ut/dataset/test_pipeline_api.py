"""Dataset's pipeline API: flat_map, callbacks, shuffle/shard flags, sync notifiers, JSON form, tree hooks."""

import json

import numpy as np
import pytest

import sporax.dataset as ds


def _rows(d, col=0):
    return [r[col].tolist() for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def test_map_batch_signatures_take_kwargs():
    d = ds.NumpySlicesDataset({"a": np.arange(6)}, shuffle=False)
    m = d.map(lambda x: x * 2, ["a"], ["b"], 1, python_multiprocessing=False, max_rowsize=16)
    assert m.get_col_names() == ["b"]
    b = m.batch(4, False, None, per_batch_map=lambda x, info: ([v + 1 for v in x],), input_columns=["b"])
    assert _rows(b) == [[1, 3, 5, 7], [9, 11]]
    assert d.create_tuple_iterator.__defaults__[-1] is False


def test_flat_map():
    d = ds.NumpySlicesDataset([[0, 1], [2, 3]], shuffle=False)

    def rep(arr):
        return ds.NumpySlicesDataset(arr, shuffle=False).repeat(2)

    out = d.flat_map(rep)
    assert _rows(out) == [0, 1, 0, 1, 2, 3, 2, 3]
    with pytest.raises(TypeError):
        d.flat_map(3)


def test_ds_callback_order_and_step_size():
    events = []

    class CB(ds.DSCallback):
        def ds_begin(self, c):
            events.append("begin")

        def ds_epoch_begin(self, c):
            events.append(f"eb{c.cur_epoch_num}")

        def ds_epoch_end(self, c):
            events.append(f"ee{c.cur_epoch_num}")

        def ds_step_begin(self, c):
            events.append(f"sb{c.cur_step_num_in_epoch}/{c.cur_step_num}")

        def ds_step_end(self, c):
            events.append(f"se{c.cur_step_num_in_epoch}")

    d = ds.GeneratorDataset([1, 2], "col1", shuffle=False, num_parallel_workers=1)
    d = d.map(operations=lambda x: x, callbacks=CB())
    it = d.create_tuple_iterator(num_epochs=2)
    for _ in range(2):
        for _ in it:
            pass
    # MindSpore 2.10's documented output for this example
    assert events == [
        "begin",
        "eb1",
        "sb1/1",
        "sb2/2",
        "se1",
        "se2",
        "ee1",
        "eb2",
        "sb1/3",
        "sb2/4",
        "se1",
        "se2",
        "ee2",
    ]
    events.clear()
    d2 = ds.NumpySlicesDataset(np.arange(5), shuffle=False).map(lambda x: x, callbacks=[CB(step_size=2)])
    _rows(d2)
    assert [e for e in events if e.startswith("sb")] == ["sb1/1", "sb3/3", "sb5/5"]
    with pytest.raises(ValueError, match=r"Input step_size is not within the required interval of \[1, 2147483647\]"):
        ds.DSCallback(0)
    with pytest.raises(TypeError):
        ds.DSCallback("a")
    with pytest.raises(AttributeError, match="without overriding"):
        d.map(lambda x: x, callbacks=ds.DSCallback())


def test_flags_and_bookkeeping():
    d = ds.NumpySlicesDataset(np.arange(8), shuffle=False)
    assert not d.is_shuffled() and not d.is_sharded() and not d.is_sync()
    assert d.shuffle(4).is_shuffled()
    assert ds.NumpySlicesDataset(np.arange(8), shuffle=True).is_shuffled()
    assert ds.NumpySlicesDataset(np.arange(8), num_shards=2, shard_id=0).batch(2).is_sharded()
    s = d.sync_wait("c")
    b = s.batch(2)
    assert b.is_sync() and list(b.get_sync_notifiers()) == ["c"]
    b.disable_sync()
    assert len(_rows(b)) == 4
    d.input_indexs = (1, 0)
    assert d.batch(2).input_indexs == (1, 0)
    assert d.get_init_step() == 0
    d.set_init_step(5)
    assert d.batch(2).get_init_step() == 5
    d.copy_batch_size(7)
    assert d._batch_size == 7
    assert len(d) == 8
    tree, copy_ = d.batch(2).create_ir_tree(getter_mode=True)
    assert tree is copy_ and copy_.num_parallel_workers == 1
    assert d.pre_process(d) is d
    assert d.parse_tree() is d
    d.pre_parse(False)
    assert d.num_parallel_workers is None or d.num_parallel_workers >= 1
    d.iterator_bootstrap()
    assert d.parse() is d and d.post_parse(d) is d
    q = d.device_que(create_data_info_queue=True)
    assert int(next(q)[0].asnumpy()) == 0 and q.get_data_info()
    with pytest.raises(TypeError):
        ds.RandomSampler(1)
    assert ds.RandomSampler(shuffle=ds.Shuffle.GLOBAL).shuffle == "global"
    with pytest.raises(TypeError, match="shuffle must be valid shuffle mode"):
        ds.RandomSampler(shuffle="x")


def test_serialize_roundtrip(tmp_path):
    from sporax.dataset import vision

    img = np.zeros((2, 3, 3, 3), np.uint8)
    np_ds = ds.NumpySlicesDataset(img, shuffle=False)
    p = np_ds.map(vision.HWC2CHW()).batch(2, drop_remainder=True).repeat(2)
    tree = p.to_json()
    assert tree["op_type"] == "Repeat" and tree["count"] == 2
    assert tree["children"][0]["op_type"] == "Batch" and tree["children"][0]["batch_size"] == 2
    assert tree["children"][0]["children"][0]["operations"][0]["tensor_op_name"] == "HWC2CHW"
    f = tmp_path / "p.json"
    ds.serialize(p, str(f))
    assert json.loads(f.read_text()) == tree
    assert ds.compare(p, p) and not ds.compare(p, np_ds)
    ds.show(p)
    with pytest.raises(RuntimeError):
        ds.deserialize(input_dict=tree)  # a Python source cannot be rebuilt
    mnist = tmp_path / "m"
    mnist.mkdir()
    import struct

    (mnist / "train-images-idx3-ubyte").write_bytes(struct.pack(">IIII", 2051, 3, 2, 2) + bytes(range(12)))
    (mnist / "train-labels-idx1-ubyte").write_bytes(struct.pack(">II", 2049, 3) + bytes([0, 1, 2]))
    m = ds.MnistDataset(str(mnist), usage="train", shuffle=False).batch(2).repeat(2)
    back = ds.deserialize(json_filepath=str(ds.serialize(m, str(f)) and f))
    assert ds.compare(m, back)
    assert _rows(back, 1) == [[0, 1], [2], [0, 1], [2]]


def test_dataset_cache(tmp_path):
    calls = [0]

    def f(x):
        calls[0] += 1
        return x * 2

    c = ds.DatasetCache(session_id=7)
    d = ds.NumpySlicesDataset(np.arange(5), shuffle=False).map(f, cache=c)
    assert _rows(d) == [0, 2, 4, 6, 8] and _rows(d) == [0, 2, 4, 6, 8]
    assert calls[0] == 5 and c.get_stat()["rows"] == 5  # the second epoch reads the cache
    # another pipeline over the same files with a cache of the same session reuses the rows
    (tmp_path / "t.txt").write_text("a\nb\nc\n")
    seen = []

    def g(s):
        seen.append(str(s))
        return s

    def pipe():
        src = ds.TextFileDataset(str(tmp_path / "t.txt"), shuffle=False, cache=ds.DatasetCache(8))
        return src.map(g, cache=ds.DatasetCache(8))

    assert _rows(pipe()) == ["a", "b", "c"] and _rows(pipe()) == ["a", "b", "c"] and len(seen) == 3
    big = ds.DatasetCache(9, size=1, spilling=True)
    e = ds.FakeImageDataset(num_images=4, image_size=(512, 512, 3), shuffle=False, cache=big)
    assert len(_rows(e)) == 4 and len(_rows(e)) == 4 and big.get_stat()["entries"] == 1
    with pytest.raises(TypeError, match="is not of type"):
        ds.TextFileDataset(str(tmp_path / "t.txt"), cache="x")
    with pytest.raises(ValueError, match="Input port is not within the required interval"):
        ds.DatasetCache(1, port=80)


def test_transforms_plugin(tmp_path):
    from sporax.dataset import transforms

    lib = tmp_path / "plug.py"
    lib.write_text("def scale(x, user_args=None):\n    return x * int(user_args)\n")
    op = transforms.Plugin(str(lib), "scale", "3")
    assert op(np.array([1, 2])).tolist() == [3, 6]
    d = ds.NumpySlicesDataset(np.arange(3), shuffle=False).map(transforms.Plugin(str(lib), "scale", "2"))
    assert _rows(d) == [0, 2, 4]
    with pytest.raises(ValueError, match="does not exist"):
        transforms.Plugin(str(tmp_path / "none.so"), "f")
