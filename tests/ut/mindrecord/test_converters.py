"""MindRecord converters (MnistToMR, Cifar10ToMR, Cifar100ToMR, ImageNetToMR, CsvToMR, TFRecordToMR) on small
files in each dataset's real format, read back with MindDataset."""

import gzip
import os
import pickle
import struct

import cv2
import numpy as np
import pytest

import sporax.dataset as ds
from sporax import mindrecord
from sporax.mindrecord import (
    FAILED,
    SUCCESS,
    Cifar10ToMR,
    Cifar100ToMR,
    CsvToMR,
    FileReader,
    ImageNetToMR,
    MnistToMR,
    TFRecordToMR,
)
from sporax.mindrecord import _tfrecord as tfr


def _rows(path, columns=None):
    r = FileReader(path)
    try:
        return list(r.get_next())
    finally:
        r.close()


def test_status_values():
    assert SUCCESS == 0 and FAILED == 1 and mindrecord.MSRStatus.FAILED is FAILED


def test_mnist_to_mr(tmp_path):
    src = tmp_path / "mnist"
    src.mkdir()
    for prefix, n in (("train", 3), ("t10k", 2)):
        imgs = (np.arange(n * 28 * 28) % 200).astype(np.uint8)
        (src / f"{prefix}-images-idx3-ubyte.gz").write_bytes(
            gzip.compress(struct.pack(">IIII", 2051, n, 28, 28) + imgs.tobytes())
        )
        (src / f"{prefix}-labels-idx1-ubyte.gz").write_bytes(
            gzip.compress(struct.pack(">II", 2049, n) + bytes(range(n)))
        )
    dest = str(tmp_path / "out" / "mnist")
    os.makedirs(os.path.dirname(dest))
    assert MnistToMR(str(src), dest).transform() == SUCCESS
    train = _rows(dest + "_train.mindrecord")
    assert [r["label"] for r in train] == [0, 1, 2]
    img = cv2.imdecode(np.frombuffer(train[0]["data"], np.uint8), cv2.IMREAD_UNCHANGED)
    assert img.shape == (28, 28)
    d = ds.MindDataset(dest + "_test.mindrecord", shuffle=False)
    assert d.get_dataset_size() == 2 and sorted(d.get_col_names()) == ["data", "label"]
    with pytest.raises(ValueError, match="partition_number must be int"):
        MnistToMR(str(src), dest, "2")


def _cifar(path, names, labels_key):
    os.makedirs(path)
    for i, n in enumerate(names):
        data = np.full((2, 3072), 10 * (i + 1), np.uint8)
        d = {b"data": data}
        for k in labels_key:
            d[k] = [i, i + 1]
        with open(os.path.join(path, n), "wb") as f:
            pickle.dump(d, f)


def test_cifar_to_mr(tmp_path):
    src = str(tmp_path / "c10")
    _cifar(src, [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"], [b"labels"])
    dest = str(tmp_path / "c10.mindrecord")
    assert Cifar10ToMR(src, dest).transform(["label"]) == SUCCESS
    rows = _rows(dest)
    assert len(rows) == 10 and [r["id"] for r in rows[:3]] == [0, 1, 2] and rows[2]["label"] == 1
    assert len(_rows(dest + "_test")) == 2
    src100 = str(tmp_path / "c100")
    _cifar(src100, ["train", "test"], [b"fine_labels", b"coarse_labels"])
    dest100 = str(tmp_path / "c100.mindrecord")
    assert Cifar100ToMR(src100, dest100).transform() == SUCCESS
    r = _rows(dest100)[1]
    assert r["fine_label"] == 1 and r["coarse_label"] == 1 and isinstance(r["data"], bytes)


def test_imagenet_csv_tfrecord_to_mr(tmp_path):
    root = tmp_path / "img"
    for folder in ("n01", "n02"):
        (root / folder).mkdir(parents=True)
        cv2.imwrite(str(root / folder / "a.JPEG"), np.zeros((4, 4, 3), np.uint8))
    (tmp_path / "map.txt").write_text("n01 0\nn02 1\n")
    dest = str(tmp_path / "imagenet.mindrecord")
    assert ImageNetToMR(str(tmp_path / "map.txt"), str(root), dest).transform() == SUCCESS
    rows = _rows(dest)
    assert sorted(r["label"] for r in rows) == [0, 1] and rows[0]["file_name"].endswith("a.JPEG")

    (tmp_path / "a.csv").write_text("id,score,name,flag\n1,0.5,ab,True\n2,1.5,cd,False\n")
    dest = str(tmp_path / "csv.mindrecord")
    assert CsvToMR(str(tmp_path / "a.csv"), dest, ["id"]).transform() == SUCCESS
    rows = _rows(dest)
    assert rows[1] == {"id": 2, "score": 1.5, "name": "cd", "flag": 0}

    p = tmp_path / "a.tfrecord"
    with open(p, "wb") as f:
        for i in range(2):
            tfr.write_record(
                f, tfr.encode_example({"img": [bytes([i, 9])], "label": [i], "vec": np.array([i, 0.5], np.float32)})
            )
    dest = str(tmp_path / "tf.mindrecord")
    spec = {"img": ([], "string"), "label": ([], "int64"), "vec": ([2], "float32")}
    assert TFRecordToMR(str(p), dest, spec, ["img"]).transform() == SUCCESS
    rows = _rows(dest)
    assert rows[1]["img"] == bytes([1, 9]) and rows[1]["label"] == 1 and rows[1]["vec"].tolist() == [1.0, 0.5]
    with pytest.raises(ValueError, match="bytes_fields"):
        TFRecordToMR(str(p), dest, spec, ["nope"])
