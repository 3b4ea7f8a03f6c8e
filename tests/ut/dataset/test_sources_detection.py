"""LFWDataset, KITTIDataset and WIDERFaceDataset on small files in their real layouts. Columns, dtypes, shapes, row
order and values are what MindSpore 2.10 gives on the same files (tools/make_ms_dataset_sources_reference.py
builds these layouts and prints both libraries' rows for a diff)."""

import os

import cv2
import numpy as np
import pytest

import sporax.dataset as ds

from ._sources_util import rows as _rows
from ._sources_util import write_text as _write


def _img(path, v, ext_shape=(5, 6, 3)):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    a = np.full(ext_shape, v, np.uint8)
    a[0, 0] = (v * 7) % 256
    cv2.imwrite(str(path), a)


def _which(root, raw):
    """The file (relative to root) whose bytes are ``raw``."""
    for dirpath, _, files in os.walk(root):
        for f in files:
            p = os.path.join(dirpath, f)
            with open(p, "rb") as fh:
                if fh.read() == raw.tobytes():
                    return os.path.relpath(p, root).replace(os.sep, "/")
    return None


@pytest.fixture
def lfw(tmp_path):
    d = tmp_path / "lfw"
    for j, s in enumerate(("lfw", "lfw_funneled", "lfw-deepfunneled")):
        for m, (name, n) in enumerate((("Ann_A", 2), ("Bob_B", 3), ("Cid_C", 1))):
            for k in range(1, n + 1):
                _img(d / s / name / f"{name}_{k:04d}.jpg", 10 * k + 50 * m + 3 * j)
    _write(d / "lfw-names.txt", "Ann_A\t2\nBob_B\t3\nCid_C\t1\n")
    _write(d / "peopleDevTrain.txt", "2\nAnn_A\t2\nCid_C\t1\n")
    _write(d / "peopleDevTest.txt", "1\nBob_B\t3\n")
    _write(d / "people.txt", "2\n1\nCid_C\t1\n1\nAnn_A\t2\n")
    _write(d / "pairsDevTrain.txt", "1\nBob_B\t1\t3\nAnn_A\t2\tCid_C\t1\n")
    _write(d / "pairsDevTest.txt", "1\nAnn_A\t1\t2\nBob_B\t2\tAnn_A\t1\n")
    _write(d / "pairs.txt", "1\t1\nBob_B\t2\t3\nCid_C\t1\tBob_B\t1\n")
    return str(d)


def test_lfw_people(lfw):
    d = ds.LFWDataset(lfw, shuffle=False)
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 6
    rows = _rows(d)
    # usage 'all': peopleDevTrain then peopleDevTest; label = the name's line in lfw-names.txt
    assert [(_which(lfw, r[0]), int(r[1])) for r in rows] == [
        ("lfw_funneled/Ann_A/Ann_A_0001.jpg", 0),
        ("lfw_funneled/Ann_A/Ann_A_0002.jpg", 0),
        ("lfw_funneled/Cid_C/Cid_C_0001.jpg", 2),
        ("lfw_funneled/Bob_B/Bob_B_0001.jpg", 1),
        ("lfw_funneled/Bob_B/Bob_B_0002.jpg", 1),
        ("lfw_funneled/Bob_B/Bob_B_0003.jpg", 1),
    ]
    assert rows[0][0].dtype == np.uint8 and rows[0][1].dtype == np.uint32 and rows[0][1].shape == ()
    rows = _rows(ds.LFWDataset(lfw, task="people", usage="10fold", image_set="original", shuffle=False))
    assert [(_which(lfw, r[0]), int(r[1])) for r in rows] == [
        ("lfw/Cid_C/Cid_C_0001.jpg", 2),
        ("lfw/Ann_A/Ann_A_0001.jpg", 0),
        ("lfw/Ann_A/Ann_A_0002.jpg", 0),
    ]
    rows = _rows(ds.LFWDataset(lfw, usage="train", image_set="deepfunneled", shuffle=False, decode=True))
    assert rows[0][0].shape == (5, 6, 3) and [int(r[1]) for r in rows] == [0, 0, 2]


def test_lfw_pairs(lfw):
    d = ds.LFWDataset(lfw, task="pairs", shuffle=False)
    assert d.get_col_names() == ["image1", "image2", "label"] and d.get_dataset_size() == 4
    got = [(_which(lfw, a).split("/")[-1], _which(lfw, b).split("/")[-1], int(c)) for a, b, c in _rows(d)]
    assert got == [
        ("Bob_B_0001.jpg", "Bob_B_0003.jpg", 1),
        ("Ann_A_0002.jpg", "Cid_C_0001.jpg", 0),
        ("Ann_A_0001.jpg", "Ann_A_0002.jpg", 1),
        ("Bob_B_0002.jpg", "Ann_A_0001.jpg", 0),
    ]
    rows = _rows(ds.LFWDataset(lfw, task="pairs", usage="10fold", image_set="original", shuffle=False))
    assert [(_which(lfw, a), int(c)) for a, _, c in rows] == [
        ("lfw/Bob_B/Bob_B_0002.jpg", 1),
        ("lfw/Cid_C/Cid_C_0001.jpg", 0),
    ]
    assert rows[0][2].dtype == np.uint32
    with pytest.raises(ValueError, match=r"Input task is not within the valid set of \['people', 'pairs'\]"):
        ds.LFWDataset(lfw, task="faces")
    with pytest.raises(ValueError, match="Input image_set is not within the valid set of"):
        ds.LFWDataset(lfw, image_set="raw")


def test_kitti(tmp_path):
    d = tmp_path / "kitti"
    for i in range(3):
        _img(d / "data_object_image_2" / "training" / "image_2" / f"{i:06d}.png", 20 + i)
    for i in range(2):
        _img(d / "data_object_image_2" / "testing" / "image_2" / f"{i:06d}.png", 40 + i)
    labels = d / "data_object_label_2" / "training" / "label_2"
    _write(
        labels / "000000.txt",
        "Pedestrian 0.00 0 -0.20 712.40 143.00 810.73 307.92 1.89 0.48 1.20 1.84 1.47 8.41 0.01\n"
        "Car 0.50 2 1.5 1.0 2.0 30.5 40.25 1.5 1.6 3.9 -4.2 1.7 20.1 -1.5\n",
    )
    _write(labels / "000001.txt", "")
    _write(labels / "000002.txt", "Cyclist 0.10 1 0.3 5 6 70 80 1.1 0.5 1.7 2.0 1.5 9.0 0.5\n")
    k = ds.KITTIDataset(str(d), shuffle=False)
    cols = ["image", "label", "truncated", "occluded", "alpha", "bbox", "dimensions", "location", "rotation_y"]
    assert k.get_col_names() == cols and k.get_dataset_size() == 2  # 000001 has no object: left out
    (r0, r1) = _rows(k)
    assert _which(str(d), r0[0]).endswith("000000.png") and _which(str(d), r1[0]).endswith("000002.png")
    f32 = np.float32
    # labels: the type's rank among every type seen (Car 0, Cyclist 1, Pedestrian 2)
    want0 = [
        np.array([[2], [0]], np.uint32),
        np.array([[0.0], [0.5]], f32),
        np.array([[0], [2]], np.uint32),
        np.array([[-0.2], [1.5]], f32),
        np.array([[712.4, 143.0, 810.73, 307.92], [1.0, 2.0, 30.5, 40.25]], f32),
        np.array([[1.89, 0.48, 1.2], [1.5, 1.6, 3.9]], f32),
        np.array([[1.84, 1.47, 8.41], [-4.2, 1.7, 20.1]], f32),
        np.array([[0.01], [-1.5]], f32),
    ]
    for got, want in zip(r0[1:], want0):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    assert int(r1[1][0, 0]) == 1 and r1[5].tolist() == [[5.0, 6.0, 70.0, 80.0]]
    t = ds.KITTIDataset(str(d), usage="test", shuffle=False)
    assert t.get_col_names() == ["image"] and [_which(str(d), r[0])[-10:] for r in _rows(t)] == [
        "000000.png",
        "000001.png",
    ]
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of \['train', 'test'\]"):
        ds.KITTIDataset(str(d), usage="val")


def test_wider_face(tmp_path):
    d = tmp_path / "wider"
    _img(d / "WIDER_train" / "images" / "0--Parade" / "0_Parade_1.jpg", 60)
    _img(d / "WIDER_train" / "images" / "1--Handshaking" / "1_H_0.jpg", 62)
    _img(d / "WIDER_val" / "images" / "0--Parade" / "0_Parade_9.jpg", 63)
    _img(d / "WIDER_val" / "images" / "1--Handshaking" / "1_H_5.jpg", 65)
    _img(d / "WIDER_test" / "images" / "2--Demo" / "2_D_0.jpg", 64)
    split = d / "wider_face_split"
    _write(
        split / "wider_face_train_bbx_gt.txt",
        "0--Parade/0_Parade_1.jpg\n2\n449 330 122 149 0 0 0 0 0 0 \n1 2 3 4 2 1 0 1 2 0 \n"
        "1--Handshaking/1_H_0.jpg\n1\n5 6 7 8 1 1 1 0 1 1 \n",
    )
    _write(
        split / "wider_face_val_bbx_gt.txt",
        "0--Parade/0_Parade_9.jpg\n1\n9 9 9 9 0 1 0 0 1 0 \n1--Handshaking/1_H_5.jpg\n0\n0 0 0 0 0 0 0 0 0 0 \n",
    )
    w = ds.WIDERFaceDataset(str(d), usage="train", shuffle=False)
    names = ["image", "bbox", "blur", "expression", "illumination", "occlusion", "pose", "invalid"]
    assert w.get_col_names() == names and w.get_dataset_size() == 2
    r0, r1 = _rows(w)
    assert _which(str(d), r0[0]).endswith("0_Parade_1.jpg")
    # MindSpore gives int32 columns: bbox [n, 4], then fields 4..9 of each box line in this column order
    assert r0[1].dtype == np.int32 and r0[1].tolist() == [[449, 330, 122, 149], [1, 2, 3, 4]]
    assert [c.tolist() for c in r0[2:]] == [[0, 2], [0, 1], [0, 0], [0, 1], [0, 2], [0, 0]]
    assert [c.tolist() for c in r1[1:]] == [[[5, 6, 7, 8]], [1], [1], [1], [0], [1], [1]]
    rows = _rows(ds.WIDERFaceDataset(str(d), shuffle=False))  # 'all': train then valid
    assert [_which(str(d), r[0]).split("/")[-1] for r in rows] == [
        "0_Parade_1.jpg",
        "1_H_0.jpg",
        "0_Parade_9.jpg",
        "1_H_5.jpg",
    ]
    assert rows[3][1].tolist() == [[0, 0, 0, 0]] and rows[3][2].shape == (1,)
    t = ds.WIDERFaceDataset(str(d), usage="test", shuffle=False)
    assert t.get_col_names() == ["image"] and _which(str(d), _rows(t)[0][0]).endswith("2_D_0.jpg")
    with pytest.raises(ValueError, match="Input usage is not within the valid set of"):
        ds.WIDERFaceDataset(str(d), usage="val")


def test_cityscapes(tmp_path):
    import json

    d = tmp_path / "city"
    polygon = {"imgWidth": 6, "imgHeight": 5, "objects": [{"label": "road", "polygon": [[0, 1], [2, 3]]}]}
    v = 0
    for split, cities in (("train", ("bonn", "aachen")), ("val", ("bonn",)), ("test", ("zurich",))):
        for c in cities:
            for i in (2, 1):
                stem = f"{c}_{i:06d}_000019"
                v += 4
                _img(d / "leftImg8bit" / split / c / f"{stem}_leftImg8bit.png", v)
                for k, kind in enumerate(("instanceIds", "labelIds", "color")):
                    _img(d / "gtFine" / split / c / f"{stem}_gtFine_{kind}.png", v + k + 1, (5, 6))
                _write(d / "gtFine" / split / c / f"{stem}_gtFine_polygons.json", json.dumps(polygon))
    root = str(d)

    def files(dataset):
        return [(_which(root, a)[12:], _which(root, b)[7:]) for a, b in _rows(dataset)]

    city = ds.CityscapesDataset(root, shuffle=False)  # train, fine, instance; rows in image path order
    assert city.get_col_names() == ["image", "task"] and city.get_dataset_size() == 4
    assert files(city) == [
        (f"train/{c}/{c}_{i:06d}_000019_leftImg8bit.png", f"train/{c}/{c}_{i:06d}_000019_gtFine_instanceIds.png")
        for c in ("aachen", "bonn")
        for i in (1, 2)
    ]
    got = files(ds.CityscapesDataset(root, usage="all", task="color", shuffle=False))
    assert [g[0].split("/")[0] for g in got] == ["train"] * 4 + ["test"] * 2 + ["val"] * 2
    assert all(g[1].endswith("_gtFine_color.png") for g in got)
    rows = _rows(ds.CityscapesDataset(root, usage="test", task="polygon", shuffle=False))
    # the json re-serialised compactly with sorted keys, as MindSpore gives it
    assert str(rows[0][1]) == '{"imgHeight":5,"imgWidth":6,"objects":[{"label":"road","polygon":[[0,1],[2,3]]}]}'
    rows = _rows(ds.CityscapesDataset(root, usage="val", task="semantic", decode=True, shuffle=False))
    assert rows[0][0].shape == (5, 6, 3) and rows[0][1].shape == (5, 6, 3) and rows[0][1].dtype == np.uint8
    with pytest.raises(
        ValueError, match=r"Input usage is not within the valid set of \['train', 'train_extra', 'val', 'all'\]"
    ):
        ds.CityscapesDataset(root, usage="test", quality_mode="coarse")
    with pytest.raises(ValueError, match="Input task is not within the valid set of"):
        ds.CityscapesDataset(root, task="depth")


def test_sbd(tmp_path):
    from scipy.io import savemat
    from scipy.sparse import csc_matrix

    d = tmp_path / "sbd"
    _write(d / "train.txt", "2008_000002\n2008_000003\n")
    _write(d / "val.txt", "2008_000007\n")
    _write(d / "train_noval.txt", "2008_000003\n")
    os.makedirs(d / "cls")
    for k, n in enumerate(("2008_000002", "2008_000003", "2008_000007")):
        _img(d / "img" / f"{n}.jpg", 100 + 10 * k)
        b = np.empty((20, 1), object)
        for c in range(20):
            m = np.zeros((5, 6), np.uint8)
            m[c % 5, (c + k) % 6] = 1
            b[c, 0] = csc_matrix(m)
        seg = (np.arange(30).reshape(5, 6) % (3 + k)).astype(np.uint8)
        savemat(str(d / "cls" / f"{n}.mat"), {"GTcls": {"Boundaries": b, "Segmentation": seg, "CategoriesPresent": 1}})
    s = ds.SBDataset(str(d), shuffle=False)  # Boundaries, all = train then val
    assert s.get_col_names() == ["image", "task"] and s.get_dataset_size() == 3
    rows = _rows(s)
    assert [_which(str(d), r[0]) for r in rows] == ["img/2008_000002.jpg", "img/2008_000003.jpg", "img/2008_000007.jpg"]
    for k, r in enumerate(rows):
        assert r[1].dtype == np.uint8 and r[1].shape == (20, 5, 6) and int(r[1].sum()) == 20
        assert all(r[1][c, c % 5, (c + k) % 6] == 1 for c in range(20))
    rows = _rows(ds.SBDataset(str(d), task="Segmentation", usage="val", decode=True, shuffle=False))
    assert rows[0][0].shape == (5, 6, 3) and rows[0][1].dtype == np.uint8
    np.testing.assert_array_equal(rows[0][1], np.arange(30).reshape(5, 6) % 5)
    assert len(_rows(ds.SBDataset(str(d), usage="train_noval", shuffle=False))) == 1
    with pytest.raises(
        ValueError, match=r"Input usage is not within the valid set of \['train', 'val', 'train_noval', 'all'\]"
    ):
        ds.SBDataset(str(d), usage="test")


def test_phototour(tmp_path):
    d = tmp_path / "liberty"
    os.makedirs(d)
    for s in range(2):  # sheets of 16 x 16 patches of 64 x 64; patch value = its index on the sheet (+ 7 on sheet 1)
        sheet = ((np.arange(1024)[:, None] // 64 * 16 + np.arange(1024)[None, :] // 64 + 7 * s) % 256).astype(np.uint8)
        cv2.imwrite(str(d / f"patches{s:04d}.bmp"), sheet)
    _write(d / "info.txt", "0 0\n0 0\n1 0\n2 0\n2 0\n" + "".join(f"{3 + i // 2} 0\n" for i in range(256)))
    _write(d / "m50_100000_100000_0.txt", "0 0 0 1 0 0 0\n2 1 0 260 3 0 0\n259 7 0 300 7 0 0\n")
    p = ds.PhotoTourDataset(str(tmp_path), "liberty", shuffle=False)
    assert p.get_col_names() == ["image"] and p.get_dataset_size() == 261
    rows = _rows(p)
    assert rows[0][0].shape == (64, 64, 1) and rows[0][0].dtype == np.uint8
    assert [int(r[0][0, 0, 0]) for r in rows[254:]] == [254, 255, 7, 8, 9, 10, 11]
    assert all((r[0] == r[0][0, 0, 0]).all() for r in rows[250:])
    t = ds.PhotoTourDataset(str(tmp_path), "liberty", usage="test", shuffle=False)
    assert t.get_col_names() == ["image1", "image2", "matches"]
    got = [(int(a[0, 0, 0]), int(b[0, 0, 0]), int(m), m.dtype) for a, b, m in _rows(t)]
    assert got == [(0, 1, 1, np.uint32), (2, 11, 0, np.uint32), (10, 51, 1, np.uint32)]
    with pytest.raises(ValueError, match="Input name is not within the valid set of"):
        ds.PhotoTourDataset(str(tmp_path), "paris")


def test_lsun(tmp_path):
    v = 0
    layout = {"bedroom_train": ["b.jpg", "a.jpg"], "bedroom_val": ["c.jpg"], "tower_train": ["d.jpg"],
              "bridge_val": ["e.jpg"], "test": ["f.jpg", "g.jpg"], "kitchen_train_lmdb": ["h.jpg"], "zzz": ["i.jpg"]}  # fmt: skip
    for folder, names in layout.items():
        for n in names:
            v += 20
            _img(tmp_path / folder / n, v)
    _write(tmp_path / "bedroom_train" / "notes.txt", "x")  # every file of a folder is read

    def got(**kw):
        rows = _rows(ds.LSUNDataset(str(tmp_path), shuffle=False, **kw))
        return [(_which(str(tmp_path), r[0]), int(r[1])) for r in rows]

    d = ds.LSUNDataset(str(tmp_path), shuffle=False)
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 7
    # folders whose name holds '<class>_train' / '<class>_val', labelled by their rank in name order
    assert got() == [("bedroom_train/a.jpg", 0), ("bedroom_train/b.jpg", 0), ("bedroom_train/notes.txt", 0),
                     ("bedroom_val/c.jpg", 1), ("bridge_val/e.jpg", 2), ("kitchen_train_lmdb/h.jpg", 3),
                     ("tower_train/d.jpg", 4)]  # fmt: skip
    assert got(usage="valid") == [("bedroom_val/c.jpg", 0), ("bridge_val/e.jpg", 1)]
    assert got(usage="test") == [("test/f.jpg", 0), ("test/g.jpg", 0)]
    assert [lb for _, lb in got(usage="all", classes=["bedroom", "bridge"])] == [0, 0, 0, 1, 2]
    rows = _rows(ds.LSUNDataset(str(tmp_path), usage="valid", decode=True, shuffle=False))
    assert rows[0][0].shape == (5, 6, 3) and rows[0][1].dtype == np.uint32
    with pytest.raises(RuntimeError, match="decode failed, the image is broken or permission denied"):
        _rows(ds.LSUNDataset(str(tmp_path), usage="train", decode=True, shuffle=False))
    with pytest.raises(
        ValueError, match=r"Input usage is not within the valid set of \['train', 'test', 'valid', 'all'\]"
    ):
        ds.LSUNDataset(str(tmp_path), usage="val")
    with pytest.raises(ValueError, match="Input classes is not within the valid set of"):
        ds.LSUNDataset(str(tmp_path), classes=["cat"])
    with pytest.raises(TypeError, match="Argument classes with value bedroom is not of type"):
        ds.LSUNDataset(str(tmp_path), classes="bedroom")
