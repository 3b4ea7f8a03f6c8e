"""CSVDataset, TextFileDataset, TFRecordDataset, VOCDataset, CocoDataset, the MNIST family, FakeImageDataset,
RandomDataset, PaddedDataset on small files in their real formats, written here. Expected values are what
MindSpore 2.10 returns on the same files (row order, sharding, dtypes, shapes)."""

import gzip
import json
import os
import struct

import cv2
import numpy as np
import pytest

import sporax.dataset as ds
from sporax.mindrecord import _tfrecord as tfr


def _rows(d):
    return [[x.tolist() for x in r] for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def _types(d):
    r = next(iter(d.create_tuple_iterator(output_numpy=True, num_epochs=1)))
    return [(x.dtype.str, x.shape) for x in r]


def test_csv(tmp_path):
    p = tmp_path / "a.csv"
    p.write_text('x,y,z\n1,2.5,hi\n3,,"a,b"\n')
    d = ds.CSVDataset([str(p)], column_defaults=[0, 7.0, ""], shuffle=False)
    assert d.get_col_names() == ["x", "y", "z"]
    assert _rows(d) == [[1, 2.5, "hi"], [3, 7.0, "a,b"]]
    assert [t[0] for t in _types(d)] == ["<i4", "<f4", "<U2"]
    d = ds.CSVDataset(str(p), column_names=["p", "q", "r"], shuffle=False)  # the header line is data then
    assert _rows(d)[0] == ["x", "y", "z"] and d.get_dataset_size() == 3
    with pytest.raises(ValueError, match="field_delim is invalid"):
        ds.CSVDataset([str(p)], field_delim="ab")
    with pytest.raises(TypeError, match="column type in column_defaults is invalid"):
        ds.CSVDataset([str(p)], column_defaults=[[1]])
    bad = tmp_path / "b.csv"
    bad.write_text("x\nabc\n")
    with pytest.raises(RuntimeError, match="type does not match"):
        _rows(ds.CSVDataset([str(bad)], column_defaults=[0]))


def _text_files(tmp_path):
    fs = []
    for i, n in enumerate([3, 1, 4]):
        f = tmp_path / f"f{i}.txt"
        f.write_text("".join(f"f{i}r{j}\n" for j in range(n)) + ("\n" if i == 0 else ""))
        fs.append(str(f))
    return fs


def test_textfile_order_and_shards(tmp_path):
    fs = _text_files(tmp_path)
    flat = lambda d: [r[0] for r in _rows(d)]  # noqa: E731
    d1 = ds.TextFileDataset(fs, shuffle=False, num_parallel_workers=1)
    assert flat(d1) == ["f0r0", "f0r1", "f0r2", "f1r0", "f2r0", "f2r1", "f2r2", "f2r3"]
    assert d1.get_col_names() == ["text"] and d1.get_dataset_size() == 8
    d2 = ds.TextFileDataset(fs, shuffle=False, num_parallel_workers=2)
    assert flat(d2) == ["f0r0", "f1r0", "f0r1", "f0r2", "f2r0", "f2r1", "f2r2", "f2r3"]
    assert flat(ds.TextFileDataset(fs, num_samples=5, shuffle=False, num_parallel_workers=2))[-1] == "f2r0"
    expect = {
        3: [["f0r0", "f0r1", "f0r2"], ["f1r0", "f2r0", "f2r1"], ["f2r2", "f0r0", "f2r3"]],
        2: [["f0r0", "f1r0", "f0r1", "f0r2"], ["f2r0", "f2r1", "f2r2", "f2r3"]],
        4: [["f0r0", "f0r1"], ["f0r2", "f1r0"], ["f2r0", "f2r1"], ["f2r2", "f2r3"]],
    }
    for n, shards in expect.items():
        for s, want in enumerate(shards):
            got = flat(ds.TextFileDataset(fs, shuffle=False, num_shards=n, shard_id=s, num_parallel_workers=2))
            assert got == want, (n, s)
    shuffled = ds.TextFileDataset(fs, shuffle=ds.Shuffle.INFILE)
    assert shuffled.is_shuffled() and sorted(flat(shuffled)) == sorted(flat(d1))
    assert sorted(flat(ds.TextFileDataset(fs, shuffle=True))) == sorted(flat(d1))
    with pytest.raises(ValueError, match="did not match any files"):
        ds.TextFileDataset(str(tmp_path / "nofile.txt"))
    with pytest.raises(RuntimeError, match="num_shards is specified and currently requires shard_id as well"):
        ds.TextFileDataset(fs, num_shards=2)


def test_tfrecord(tmp_path):
    p = tmp_path / "a.tfrecord"
    with open(p, "wb") as f:
        for i in range(3):
            ex = {
                "img": [bytes([i, 1, 2])],
                "lab": [i, i + 1],
                "val": np.array([0.5 * i, 1.5], np.float32),
                "s": [b"ab"],
            }
            tfr.write_record(f, tfr.encode_example(ex))
    d = ds.TFRecordDataset([str(p)], shuffle=False)
    assert d.get_col_names() == ["img", "lab", "s", "val"] and d.get_dataset_size() == 3
    assert _rows(d)[1] == [[1, 1, 2], [1, 2], [97, 98], [0.5, 1.5]]
    assert [t[0] for t in _types(d)] == ["|u1", "<i8", "|u1", "<f4"]
    schema = ds.Schema()
    schema.add_column("lab", de_type="int32", shape=[2])
    schema.add_column("val", de_type="float32", shape=[1, 2])
    d = ds.TFRecordDataset(str(p), schema=schema, shuffle=False)
    assert _rows(d)[2] == [[2, 3], [[1.0, 1.5]]] and _types(d) == [("<i4", (2,)), ("<f4", (1, 2))]
    d = ds.TFRecordDataset([str(p)], columns_list=["val", "img"], shuffle=False)
    assert _rows(d)[0] == [[0.0, 1.5], [0, 1, 2]]
    gz = tmp_path / "a.tfrecord.gz"
    gz.write_bytes(gzip.compress(p.read_bytes()))
    assert len(_rows(ds.TFRecordDataset([str(gz)], compression_type="GZIP", shuffle=False))) == 3
    raw = bytearray(p.read_bytes())
    raw[20] ^= 0xFF
    (tmp_path / "bad.tfrecord").write_bytes(bytes(raw))
    with pytest.raises(RuntimeError, match="CRC"):
        _rows(ds.TFRecordDataset([str(tmp_path / "bad.tfrecord")], columns_list=["lab"]))
    # the CRC-32C check value of "123456789" and TFRecord's mask
    assert tfr.crc32c(b"123456789") == 0xE3069283
    with pytest.raises(ValueError):
        ds.TFRecordDataset([str(p)], compression_type="LZ4")


def test_sporax_imports_and_trains_without_google_crc32c():
    # google-crc32c is imported when a TFRecord or summary file is read or written (an image without it, as
    # the GPU machine's, still imports sporax, its dataset and train packages)
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['google_crc32c'] = None\n"
        "import sporax, sporax.dataset, sporax.train, sporax.mindrecord\n"
        "from sporax.mindrecord import _tfrecord\n"
        "try:\n    _tfrecord.crc32c(b'1')\nexcept ImportError:\n    print('lazy')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "lazy"


def _make_voc(root):
    for d in ["ImageSets/Main", "ImageSets/Segmentation", "JPEGImages", "SegmentationClass", "Annotations"]:
        os.makedirs(os.path.join(root, d), exist_ok=True)
    ids = ["2007_000001", "2007_000002"]
    for k, i in enumerate(ids):
        cv2.imwrite(os.path.join(root, "JPEGImages", i + ".jpg"), np.full((6, 8, 3), 40 * (k + 1), np.uint8))
        cv2.imwrite(os.path.join(root, "SegmentationClass", i + ".png"), np.full((6, 8, 3), k, np.uint8))
        objs = [("dog", 1, 2, 5, 4, 0, 1), ("cat", 1, 1, 3, 3, 1, 0)] if k == 0 else [("person", 2, 1, 7, 5, 0, 0)]
        xml = "<annotation><size><width>8</width><height>6</height><depth>3</depth></size>"
        for name, x1, y1, x2, y2, diff, trunc in objs:
            xml += (
                f"<object><name>{name}</name><difficult>{diff}</difficult><truncated>{trunc}</truncated>"
                f"<bndbox><xmin>{x1}</xmin><ymin>{y1}</ymin><xmax>{x2}</xmax><ymax>{y2}</ymax></bndbox></object>"
            )
        with open(os.path.join(root, "Annotations", i + ".xml"), "w") as f:
            f.write(xml + "</annotation>")
    for t in ["Main", "Segmentation"]:
        with open(os.path.join(root, "ImageSets", t, "train.txt"), "w") as f:
            f.write("\n".join(ids) + "\n")


def test_voc(tmp_path):
    root = str(tmp_path / "voc")
    _make_voc(root)
    d = ds.VOCDataset(root, task="Detection", usage="train", shuffle=False)
    assert d.get_col_names() == ["image", "bbox", "label", "difficult", "truncate"]
    assert d.get_class_indexing() == {"cat": 0, "dog": 1, "person": 2}
    rows = _rows(d)
    assert rows[0][1:] == [[[1.0, 2.0, 4.0, 2.0], [1.0, 1.0, 2.0, 2.0]], [[1], [0]], [[0], [1]], [[1], [0]]]
    assert rows[1][1:] == [[[2.0, 1.0, 5.0, 4.0]], [[2]], [[0]], [[0]]]
    assert _types(d)[2] == ("<u4", (2, 1))
    d = ds.VOCDataset(root, task="Detection", shuffle=False, class_indexing={"dog": 5, "cat": 1, "person": 0})
    assert _rows(d)[0][2] == [[5], [1]]
    seg = ds.VOCDataset(root, task="Segmentation", usage="train", shuffle=False, decode=True)
    r = next(iter(seg.create_tuple_iterator(output_numpy=True, num_epochs=1)))
    assert r[0].shape == (6, 8, 3) and r[0][0, 0].tolist() == [40, 40, 40] and r[1].max() == 0
    with pytest.raises(ValueError, match="Invalid task"):
        ds.VOCDataset(root, task="Caption")


def _make_coco(root):
    os.makedirs(os.path.join(root, "images"), exist_ok=True)
    for k in range(2):
        cv2.imwrite(os.path.join(root, "images", f"{k}.jpg"), np.full((6, 8, 3), 50 * (k + 1), np.uint8))
    images = [{"id": 10, "file_name": "0.jpg"}, {"id": 11, "file_name": "1.jpg"}]
    anns = [
        {"id": 1, "image_id": 10, "category_id": 3, "bbox": [1, 2, 3, 2], "iscrowd": 0,
         "segmentation": [[1, 2, 4, 2, 4, 4]], "keypoints": [1, 2, 2, 3, 3, 1], "num_keypoints": 2},
        {"id": 2, "image_id": 10, "category_id": 5, "bbox": [0, 0, 2, 2], "iscrowd": 0,
         "segmentation": [[0, 0, 2, 0, 2, 2, 0, 2]], "keypoints": [0, 0, 0, 1, 1, 2], "num_keypoints": 1},
        {"id": 3, "image_id": 11, "category_id": 3, "bbox": [2, 1, 4, 3], "iscrowd": 0,
         "segmentation": [[2, 1, 6, 1, 6, 4]], "keypoints": [5, 5, 2, 0, 0, 0], "num_keypoints": 1},
    ]  # fmt: skip
    cats = [{"id": 3, "name": "cat"}, {"id": 5, "name": "dog"}]
    with open(os.path.join(root, "ann.json"), "w") as f:
        json.dump({"images": images, "annotations": anns, "categories": cats}, f)
    caps = [
        {"image_id": 10, "caption": "a cat"},
        {"image_id": 10, "caption": "two"},
        {"image_id": 11, "caption": "dog"},
    ]
    with open(os.path.join(root, "cap.json"), "w") as f:
        json.dump({"images": images, "annotations": caps}, f)
    pan = [
        {"image_id": 10, "segments_info": [{"category_id": 3, "iscrowd": 0, "bbox": [1, 2, 3, 2], "area": 6}]},
        {"image_id": 11, "segments_info": [{"category_id": 5, "iscrowd": 1, "bbox": [0, 0, 2, 2], "area": 4}]},
    ]
    pcats = [{"id": 3, "name": "cat", "isthing": 1}, {"id": 5, "name": "dog", "isthing": 0}]
    with open(os.path.join(root, "pan.json"), "w") as f:
        json.dump({"images": images, "annotations": pan, "categories": pcats}, f)


def test_coco(tmp_path):
    root = str(tmp_path / "coco")
    _make_coco(root)
    img, ann = os.path.join(root, "images"), os.path.join(root, "ann.json")
    d = ds.CocoDataset(img, ann, task="Detection", shuffle=False)
    assert d.get_col_names() == ["image", "bbox", "category_id", "iscrowd"]
    assert d.get_class_indexing() == {"cat": [3], "dog": [5]}
    assert _rows(d)[0][1:] == [[[1.0, 2.0, 3.0, 2.0], [0.0, 0.0, 2.0, 2.0]], [[3], [5]], [[0], [0]]]
    st = _rows(ds.CocoDataset(img, ann, task="Stuff", shuffle=False))
    assert st[0][1] == [[1.0, 2.0, 4.0, 2.0, 4.0, 4.0, -1.0, -1.0], [0.0, 0.0, 2.0, 0.0, 2.0, 2.0, 0.0, 2.0]]
    kp = _rows(ds.CocoDataset(img, ann, task="Keypoint", shuffle=False))
    assert kp[1][1:] == [[[5.0, 5.0, 2.0, 0.0, 0.0, 0.0]], [[1]]]
    cap = _rows(ds.CocoDataset(img, os.path.join(root, "cap.json"), task="Captioning", shuffle=False))
    assert cap[0][1] == [["a cat"], ["two"]]
    pan = ds.CocoDataset(img, os.path.join(root, "pan.json"), task="Panoptic", shuffle=False)
    assert _rows(pan)[1][1:] == [[[0.0, 0.0, 2.0, 2.0]], [[5]], [[1]], [[4]]]
    assert pan.get_class_indexing() == {"cat": [3, 1], "dog": [5, 0]}


def _idx(path, arr, magic):
    hdr = struct.pack(">I", magic) + b"".join(struct.pack(">I", s) for s in arr.shape)
    path.write_bytes(hdr + arr.astype(">i4" if magic == 3074 else np.uint8).tobytes())


def test_mnist_family(tmp_path):
    im = np.arange(3 * 28 * 28, dtype=np.int64).reshape(3, 28, 28) % 251
    lb = np.array([4, 1, 7])
    for cls in (ds.FashionMnistDataset, ds.KMnistDataset):
        _idx(tmp_path / "train-images-idx3-ubyte", im, 2051)
        _idx(tmp_path / "train-labels-idx1-ubyte", lb, 2049)
        d = cls(str(tmp_path), usage="train", shuffle=False)
        assert [r[1] for r in _rows(d)] == [4, 1, 7] and _types(d) == [("|u1", (28, 28, 1)), ("<u4", ())]
    _idx(tmp_path / "emnist-letters-test-images-idx3-ubyte", im, 2051)
    _idx(tmp_path / "emnist-letters-test-labels-idx1-ubyte", lb, 2049)
    e = ds.EMnistDataset(str(tmp_path), "letters", usage="test", shuffle=False)
    assert [r[1] for r in _rows(e)] == [4, 1, 7]
    with pytest.raises(ValueError, match="Input name is not within the valid set"):
        ds.EMnistDataset(str(tmp_path), "nope")
    _idx(tmp_path / "qmnist-train-images-idx3-ubyte", im, 2051)
    q = np.stack([lb, lb + 100, np.zeros(3, int), np.arange(3), np.ones(3, int), lb, lb, lb], 1)
    _idx(tmp_path / "qmnist-train-labels-idx2-int", q, 3074)
    assert [r[1] for r in _rows(ds.QMnistDataset(str(tmp_path), "train", shuffle=False))] == [4, 1, 7]
    full = _rows(ds.QMnistDataset(str(tmp_path), "train", compat=False, shuffle=False))
    assert full[0][1] == [4, 104, 0, 0, 1, 4, 4, 4]


def test_synthetic_sources():
    f = ds.FakeImageDataset(num_images=4, image_size=(2, 3, 3), num_classes=5, base_seed=1, shuffle=False)
    rows = _rows(f)
    assert len(rows) == 4 and _types(f) == [("|u1", (2, 3, 3)), ("<u4", ())] and all(0 <= r[1] < 5 for r in rows)
    assert rows == _rows(
        ds.FakeImageDataset(num_images=4, image_size=(2, 3, 3), num_classes=5, base_seed=1, shuffle=False)
    )
    with pytest.raises(ValueError, match="image_size should be a list or tuple of length 3, but got 2"):
        ds.FakeImageDataset(image_size=(2, 2))
    with pytest.raises(ValueError, match=r"Input num_images is not within the required interval of \[1, 2147483647\]"):
        ds.FakeImageDataset(num_images=0)
    p = ds.PaddedDataset(
        [{"image": np.zeros(3, np.uint8), "label": np.array(1)}, {"image": np.ones(2, np.uint8), "label": np.array(2)}]
    )
    assert p.get_col_names() == ["image", "label"] and _rows(p) == [[[0, 0, 0], 1], [[1, 1], 2]]
    with pytest.raises(ValueError, match="padded_samples cannot be empty"):
        ds.PaddedDataset([])
    schema = ds.Schema()
    schema.add_column("image", de_type="uint8", shape=[2, 2])
    schema.add_column("label", de_type="int32", shape=[1])
    r = ds.RandomDataset(schema=schema, total_rows=3, shuffle=False)
    assert r.get_col_names() == ["image", "label"] and r.get_dataset_size() == 3
    assert _types(r) == [("|u1", (2, 2)), ("<i4", (1,))]
    r2 = ds.RandomDataset(total_rows=2, columns_list=["a", "b"])
    assert r2.get_col_names() == ["a", "b"] and len(_rows(r2)) == 2
