"""Caltech101, Flowers102, Omniglot, Places365, RenderedSST2, SBU, USPS and Multi30k on small files in their real
layouts. The expected columns, dtypes, row orders and values are what MindSpore 2.10 gives on the same files
(checked by running both on these layouts)."""

import os

import cv2
import numpy as np
import pytest

import sporax.dataset as ds


def _rows(d):
    return [[np.asarray(c) for c in r] for r in d.create_tuple_iterator(output_numpy=True)]


def _img(path, v, shape=(5, 6, 3)):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    a = np.full(shape, v, np.uint8)
    cv2.imwrite(path, a)
    return a


def test_usps(tmp_path):
    rng = np.random.default_rng(0)
    vals = {}
    for name, n in (("usps", 3), ("usps.t", 2)):
        lines = []
        for i in range(n):
            v = rng.uniform(-1, 1, 256)
            vals[name, i] = v
            lines.append(f"{i + 1} " + " ".join(f"{j + 1}:{x:.6f}" for j, x in enumerate(v)) + " ")
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    d = ds.USPSDataset(str(tmp_path), shuffle=False)
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 5
    rows = _rows(d)
    # 'all' interleaves the two files' rows, as MindSpore's reader does
    order = [("usps", 0), ("usps.t", 0), ("usps", 1), ("usps.t", 1), ("usps", 2)]
    for (img, label), key in zip(rows, order):
        assert img.dtype == np.uint8 and img.shape == (16, 16, 1) and label.dtype == np.uint32
        np.testing.assert_array_equal(img.ravel(), np.trunc((np.round(vals[key], 6) + 1) * 127.5).astype(np.uint8))
        assert int(label) == key[1]
    assert [int(r[1]) for r in _rows(ds.USPSDataset(str(tmp_path), usage="test", shuffle=False))] == [0, 1]
    assert len(_rows(ds.USPSDataset(str(tmp_path), num_shards=2, shard_id=0, shuffle=False))) == 3
    with pytest.raises(ValueError, match="Input usage is not within the valid set of"):
        ds.USPSDataset(str(tmp_path), usage="valid")
    (tmp_path / "usps").write_text("1 1:0.5\n")
    with pytest.raises(RuntimeError, match="should be 257, but got 2"):
        _rows(ds.USPSDataset(str(tmp_path), usage="train"))


def test_multi30k(tmp_path):
    for sub, stem, n in (("training", "train", 3), ("validation", "val", 2), ("mmt16_task1_test", "test", 2)):
        os.makedirs(tmp_path / sub)
        for lang in ("en", "de"):
            (tmp_path / sub / f"{stem}.{lang}").write_text("".join(f"{lang} {stem} {i}\n" for i in range(n)))
    d = ds.Multi30kDataset(str(tmp_path), usage="train", shuffle=False)
    assert d.get_col_names() == ["text", "translation"]
    assert [(str(a), str(b)) for a, b in _rows(d)] == [(f"en train {i}", f"de train {i}") for i in range(3)]
    d = ds.Multi30kDataset(str(tmp_path), usage="valid", language_pair=("de", "en"), shuffle=False)
    assert [(str(a), str(b)) for a, b in _rows(d)] == [("de val 0", "en val 0"), ("de val 1", "en val 1")]
    texts = [str(r[0]) for r in _rows(ds.Multi30kDataset(str(tmp_path), shuffle=False))]
    assert texts == ["en test 0", "en train 0", "en test 1", "en train 1", "en val 0", "en train 2", "en val 1"]
    shard = [str(r[0]) for r in _rows(ds.Multi30kDataset(str(tmp_path), num_shards=2, shard_id=1, shuffle=False))]
    assert shard == ["en train 2", "en val 0", "en test 0", "en val 1"]
    with pytest.raises(ValueError, match=r"language_pair can only be \['en', 'de'\]"):
        ds.Multi30kDataset(str(tmp_path), language_pair=["en", "fr"])
    with pytest.raises(TypeError, match="language_pair"):
        ds.Multi30kDataset(str(tmp_path), language_pair="en")


def test_rendered_sst2_and_omniglot(tmp_path):
    for u, n in (("train", 2), ("valid", 1), ("test", 1)):
        for c in ("negative", "positive"):
            for i in range(n):
                _img(str(tmp_path / "sst2" / u / c / f"{i:04d}.png"), 10 + i)
    d = ds.RenderedSST2Dataset(str(tmp_path / "sst2"), usage="train", shuffle=False)
    rows = _rows(d)
    assert d.get_col_names() == ["image", "label"] and [int(r[1]) for r in rows] == [0, 0, 1, 1]
    assert rows[0][0].dtype == np.uint8 and rows[0][0].ndim == 1 and rows[0][1].dtype == np.uint32
    assert [int(r[1]) for r in _rows(ds.RenderedSST2Dataset(str(tmp_path / "sst2"), usage="val", shuffle=False))] == [
        0,
        1,
    ]
    labels = [int(r[1]) for r in _rows(ds.RenderedSST2Dataset(str(tmp_path / "sst2"), shuffle=False))]
    assert labels == [0, 1, 0, 0, 1, 1, 0, 1]  # every image in path order
    dec = _rows(ds.RenderedSST2Dataset(str(tmp_path / "sst2"), usage="test", decode=True, shuffle=False))
    assert dec[0][0].shape == (5, 6, 3) and int(dec[0][0][0, 0, 0]) == 10

    om = tmp_path / "omni"
    for a in ("Alpha", "Beta"):
        for c in ("character01", "character02"):
            for i in range(2):
                _img(str(om / "images_background" / a / c / f"{i:02d}.png"), 30 + i, (4, 4))
    for c in ("c1", "c2", "c3"):
        _img(str(om / "images_evaluation" / "Z" / c / "01.png"), 0, (3, 3))
    rows = _rows(ds.OmniglotDataset(str(om), shuffle=False))
    assert [int(r[1]) for r in rows] == [0, 0, 1, 1, 2, 2, 3, 3] and rows[0][1].dtype == np.int32
    assert [int(r[1]) for r in _rows(ds.OmniglotDataset(str(om), background=False, shuffle=False))] == [0, 1, 2]


def test_sbu_and_places365(tmp_path):
    sbu = tmp_path / "sbu"
    os.makedirs(sbu / "sbu_images")
    urls = [f"http://static.flickr.com/{k}/{n}.jpg" for k, n in ((1, "a"), (2, "b"), (3, "c"))]
    (sbu / "SBU_captioned_photo_dataset_urls.txt").write_text("\n".join(urls) + "\n")
    (sbu / "SBU_captioned_photo_dataset_captions.txt").write_text("cap a\ncap b\ncap c\n")
    _img(str(sbu / "sbu_images" / "m_1_a.jpg"), 50)
    _img(str(sbu / "sbu_images" / "m_3_c.jpg"), 60)
    d = ds.SBUDataset(str(sbu), shuffle=False, decode=True)
    rows = _rows(d)
    assert d.get_col_names() == ["image", "caption"]
    assert [str(r[1]) for r in rows] == ["cap a", "cap c"] and rows[0][0].shape == (5, 6, 3)

    pl = tmp_path / "places"
    os.makedirs(pl)
    (pl / "places365_train_standard.txt").write_text("/a/airfield/00000001.jpg 0\n/a/alcove/00000001.jpg 1\n")
    (pl / "places365_val.txt").write_text("Places365_val_00000001.jpg 1\n")
    _img(str(pl / "data_256_standard" / "a" / "airfield" / "00000001.jpg"), 70)
    _img(str(pl / "data_256_standard" / "a" / "alcove" / "00000001.jpg"), 80)
    _img(str(pl / "val_256" / "Places365_val_00000001.jpg"), 90)
    rows = _rows(ds.Places365Dataset(str(pl), shuffle=False))
    assert [int(r[1]) for r in rows] == [0, 1] and rows[0][1].dtype == np.uint32 and rows[0][0].ndim == 1
    assert [int(r[1]) for r in _rows(ds.Places365Dataset(str(pl), usage="val", shuffle=False))] == [1]
    with pytest.raises(RuntimeError, match="Places365 image: .* does not exists"):
        _rows(ds.Places365Dataset(str(pl), small=False, shuffle=False))
    with pytest.raises(ValueError, match="Input usage is not within the valid set of"):
        ds.Places365Dataset(str(pl), usage="train")


def test_caltech101_and_flowers102(tmp_path):
    from scipy.io import savemat

    c101 = tmp_path / "caltech101"
    for c, ad in (("Faces", "Faces_2"), ("Faces_easy", "Faces_3"), ("airplanes", "Airplanes_Side_2")):
        for i in (1, 2):
            _img(str(c101 / "101_ObjectCategories" / c / f"image_{i:04d}.jpg"), 100 + i)
            os.makedirs(c101 / "Annotations" / ad, exist_ok=True)
            contour = np.arange(6, dtype=np.float64).reshape(2, 3) + i
            savemat(str(c101 / "Annotations" / ad / f"annotation_{i:04d}.mat"), {"obj_contour": contour})
    _img(str(c101 / "101_ObjectCategories" / "BACKGROUND_Google" / "image_0001.jpg"), 5)
    d = ds.Caltech101Dataset(str(c101), shuffle=False)
    rows = _rows(d)
    assert d.get_col_names() == ["image", "category"]
    assert [int(r[1]) for r in rows] == [0, 0, 1, 1, 2, 2] and rows[0][1].dtype == np.int64
    rows = _rows(ds.Caltech101Dataset(str(c101), target_type="all", shuffle=False))
    np.testing.assert_array_equal(rows[1][2], np.arange(6.0).reshape(2, 3) + 2)
    idx = d.get_class_indexing()
    assert len(idx) == 101 and idx["Leopards"] == 2 and idx["airplanes"] == 5
    with pytest.raises(ValueError, match="Input target_type is not within the valid set"):
        ds.Caltech101Dataset(str(c101), target_type="bbox")

    fl = tmp_path / "flowers"
    for i in range(1, 7):
        a = _img(str(fl / "jpg" / f"image_{i:05d}.jpg"), i * 20, (4, 5, 3))
        _img(str(fl / "segmim" / f"segmim_{i:05d}.jpg"), i * 10, a.shape)
    savemat(str(fl / "imagelabels.mat"), {"labels": np.array([[3, 1, 102, 5, 7, 2]])})
    savemat(
        str(fl / "setid.mat"), {"trnid": np.array([[2, 4]]), "tstid": np.array([[1, 6]]), "valid": np.array([[5, 3]])}
    )
    rows = _rows(ds.Flowers102Dataset(str(fl), shuffle=False))
    assert [int(r[1]) for r in rows] == [0, 4, 2, 1, 6, 101] and rows[0][1].dtype == np.uint32
    d = ds.Flowers102Dataset(str(fl), task="Segmentation", usage="valid", decode=True, shuffle=False)
    rows = _rows(d)
    assert d.get_col_names() == ["image", "segmentation", "label"] and [int(r[2]) for r in rows] == [6, 101]
    assert rows[0][0].shape == (4, 5, 3) and int(rows[0][1][0, 0, 0]) == 50
    names = d.get_class_indexing()
    assert len(names) == 102 and names["pink primrose"] == 0
