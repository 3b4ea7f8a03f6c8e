"""IMDBDataset, SST2Dataset, YesNoDataset, SemeionDataset, ManifestDataset on small files in their real layouts;
expected rows are MindSpore 2.10's output on the same files."""

import json
import wave

import cv2
import numpy as np

import sporax.dataset as ds


def _rows(d):
    return [[x.tolist() for x in r] for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def test_imdb_and_sst2(tmp_path):
    for u, pos, neg in (("train", "great movie", "bad"), ("test", "ok fine", "awful")):
        (tmp_path / "imdb" / u / "pos").mkdir(parents=True)
        (tmp_path / "imdb" / u / "neg").mkdir(parents=True)
        (tmp_path / "imdb" / u / "pos" / "0_9.txt").write_text(pos + "\n")
        (tmp_path / "imdb" / u / "neg" / "1_2.txt").write_text(neg + "\n")
    d = ds.IMDBDataset(str(tmp_path / "imdb"), usage="all", shuffle=False)
    assert d.get_col_names() == ["text", "label"]
    assert _rows(d) == [["great movie", 1], ["bad", 0], ["ok fine", 1], ["awful", 0]]
    assert next(iter(d.create_tuple_iterator(output_numpy=True)))[1].dtype == np.int32
    sst = tmp_path / "sst"
    sst.mkdir()
    (sst / "train.tsv").write_text("sentence\tlabel\nhide new secretions \t0\ncontains no wit \t0\ngood fun \t1\n")
    (sst / "dev.tsv").write_text("sentence\tlabel\nnice \t1\n")
    (sst / "test.tsv").write_text("index\tsentence\n0\tit is good\n")
    tr = ds.SST2Dataset(str(sst), usage="train", shuffle=False)
    assert tr.get_col_names() == ["sentence", "label"] and _rows(tr)[0] == ["hide new secretions ", "0"]
    te = ds.SST2Dataset(str(sst), usage="test", shuffle=False)
    assert te.get_col_names() == ["sentence"] and _rows(te) == [["it is good"]]


def test_yesno(tmp_path):
    for name in ["0_1_0_0_1_0_1_1", "1_1_1_0_0_0_1_0"]:
        with wave.open(str(tmp_path / f"{name}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(8000)
            w.writeframes((np.arange(10, dtype=np.int16) * 1000 - 3000).tobytes())
    d = ds.YesNoDataset(str(tmp_path), shuffle=False)
    assert d.get_col_names() == ["waveform", "sample_rate", "label"]
    rows = list(d.create_tuple_iterator(output_numpy=True))
    assert rows[0][0].shape == (1, 10) and rows[0][0].dtype == np.float32
    np.testing.assert_allclose(rows[0][0][0, :2], [-0.09155552834272385, -0.06103701889514923], rtol=1e-6)
    assert int(rows[0][1]) == 8000 and rows[1][2].tolist() == [1, 1, 1, 0, 0, 0, 1, 0]


def test_semeion_and_manifest(tmp_path):
    lines = []
    for i in range(3):
        px = (np.arange(256) % (i + 2) == 0).astype(float)
        lab = [0] * 10
        lab[i] = 1
        lines.append(" ".join(f"{v:.4f}" for v in px) + " " + " ".join(str(v) for v in lab) + " ")
    (tmp_path / "semeion.data").write_text("\n".join(lines) + "\n")
    s = ds.SemeionDataset(str(tmp_path), shuffle=False)
    rows = list(s.create_tuple_iterator(output_numpy=True))
    assert rows[1][0].shape == (16, 16) and rows[1][0].ravel()[:4].tolist() == [1, 0, 0, 1]
    assert [int(r[1]) for r in rows] == [0, 1, 2] and rows[0][1].dtype == np.uint32
    cv2.imwrite(str(tmp_path / "a.jpg"), np.zeros((4, 4, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "b.jpg"), np.full((4, 4, 3), 9, np.uint8))
    m = tmp_path / "m.json"
    m.write_text(
        json.dumps({"source": str(tmp_path / "a.jpg"), "usage": "train", "annotation": [{"name": "cat"}]}) + "\n"
        + json.dumps({"source": str(tmp_path / "b.jpg"), "usage": "train", "annotation": [{"name": "dog"}]}) + "\n"
        + json.dumps({"source": str(tmp_path / "b.jpg"), "usage": "eval", "annotation": [{"name": "dog"}]}) + "\n"
    )  # fmt: skip
    d = ds.ManifestDataset(str(m), shuffle=False)
    assert d.get_class_indexing() == {"cat": 0, "dog": 1} and [r[1] for r in _rows(d)] == [0, 1]
    dec = ds.ManifestDataset(str(m), usage="eval", decode=True, shuffle=False)
    assert next(iter(dec.create_tuple_iterator(output_numpy=True)))[0].shape == (4, 4, 3)


def _wav(path, n=6, rate=22050):
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes((np.arange(n, dtype=np.int16) * 100).tobytes())


def test_caltech256_food101(tmp_path):
    for d, files in (
        ("001.ak47", ["001_0001.jpg"]),
        ("002.bat", ["002_0001.jpg", "002_0002.jpg"]),
        ("257.clutter", ["257_0001.jpg"]),
    ):
        (tmp_path / "c" / d).mkdir(parents=True)
        for f in files:
            cv2.imwrite(str(tmp_path / "c" / d / f), np.zeros((4, 4, 3), np.uint8))
    c = ds.Caltech256Dataset(str(tmp_path / "c"), shuffle=False)
    assert c.get_col_names() == ["image", "label"] and [r[1] for r in _rows(c)] == [0, 1, 1, 2]
    food = tmp_path / "food"
    for cls in ("apple_pie", "bibimbap"):
        (food / "images" / cls).mkdir(parents=True)
        for i in range(2):
            cv2.imwrite(str(food / "images" / cls / f"{i}.jpg"), np.full((4, 4, 3), i, np.uint8))
    (food / "meta").mkdir()
    (food / "meta" / "train.txt").write_text("apple_pie/0\nbibimbap/1\n")
    (food / "meta" / "test.txt").write_text("apple_pie/1\nbibimbap/0\n")
    f = ds.Food101Dataset(str(food), usage="all", shuffle=False, decode=True)
    rows = list(f.create_tuple_iterator(output_numpy=True))
    assert [str(r[1]) for r in rows] == ["apple_pie", "bibimbap", "apple_pie", "bibimbap"] and rows[0][0].shape == (
        4,
        4,
        3,
    )


def test_ljspeech_speechcommands(tmp_path):
    (tmp_path / "lj" / "wavs").mkdir(parents=True)
    _wav(tmp_path / "lj" / "wavs" / "LJ001-0001.wav")
    _wav(tmp_path / "lj" / "wavs" / "LJ001-0002.wav")
    (tmp_path / "lj" / "metadata.csv").write_text("LJ001-0001|Printing, in the only sense|Printing, in the only sense\n"
                                                   "LJ001-0002|in being comparatively modern.|in being comparatively modern.\n")  # fmt: skip
    lj = ds.LJSpeechDataset(str(tmp_path / "lj"), shuffle=False)
    assert lj.get_col_names() == ["waveform", "sample_rate", "transcription", "normalized_transcription"]
    r = _rows(lj)[1]
    assert r[1:] == [22050, "in being comparatively modern.", "in being comparatively modern."]
    np.testing.assert_allclose(r[0][0][:2], [0.0, 0.0030518509447574615], rtol=1e-6)
    sc = tmp_path / "sc"
    for d in ("yes", "no", "_background_noise_"):
        (sc / d).mkdir(parents=True)
    for rel in ("yes/0a7c2a8d_nohash_0.wav", "no/0b09edd3_nohash_1.wav", "yes/0b09edd3_nohash_0.wav"):
        _wav(sc / rel, rate=16000)
    (sc / "validation_list.txt").write_text("no/0b09edd3_nohash_1.wav\n")
    (sc / "testing_list.txt").write_text("yes/0b09edd3_nohash_0.wav\n")
    alls = ds.SpeechCommandsDataset(str(sc), usage="all", shuffle=False)
    assert [r[2:] for r in _rows(alls)] == [["no", "0b09edd3", 1], ["yes", "0a7c2a8d", 0], ["yes", "0b09edd3", 0]]
    assert [r[2:] for r in _rows(ds.SpeechCommandsDataset(str(sc), usage="train", shuffle=False))] == [
        ["yes", "0a7c2a8d", 0]
    ]
    assert ds.SpeechCommandsDataset(str(sc), usage="valid").get_dataset_size() == 1


def test_stl10_svhn(tmp_path):
    from scipy.io import savemat

    x = (np.arange(2 * 3 * 96 * 96) % 251).astype(np.uint8)
    (tmp_path / "train_X.bin").write_bytes(x.tobytes())
    (tmp_path / "train_y.bin").write_bytes(bytes([3, 10]))
    stl = ds.STL10Dataset(str(tmp_path), usage="train", shuffle=False)
    rows = list(stl.create_tuple_iterator(output_numpy=True))
    assert rows[0][0].shape == (96, 96, 3) and rows[0][0].ravel()[:5].tolist() == [0, 180, 109, 96, 25]
    assert rows[1][0].ravel()[-3:].tolist() == [217, 146, 75] and [int(r[1]) for r in rows] == [2, 9]
    sv = (np.arange(32 * 32 * 3 * 2) % 200).astype(np.uint8).reshape(32, 32, 3, 2)
    savemat(str(tmp_path / "train_32x32.mat"), {"X": sv, "y": np.array([[10], [3]], np.uint8)})
    d = ds.SVHNDataset(str(tmp_path), usage="train", shuffle=False)
    rows = list(d.create_tuple_iterator(output_numpy=True))
    assert rows[1][0].ravel()[:5].tolist() == [1, 3, 5, 7, 9] and [int(r[1]) for r in rows] == [0, 3]
    assert rows[0][1].dtype == np.uint32


def test_cmu_arctic(tmp_path):
    root = tmp_path / "cmu_us_aew_arctic"
    (root / "wav").mkdir(parents=True)
    (root / "etc").mkdir()
    _wav(root / "wav" / "arctic_a0001.wav", rate=16000)
    _wav(root / "wav" / "arctic_a0002.wav", rate=16000)
    (root / "etc" / "txt.done.data").write_text(
        '( arctic_a0001 "Author of the danger trail, Philip Steels, etc." )\n( arctic_a0002 "Not at this particular case, Tom." )\n'
    )
    d = ds.CMUArcticDataset(str(tmp_path), name="aew", shuffle=False)
    assert d.get_col_names() == ["waveform", "sample_rate", "transcript", "utterance_id"]
    rows = list(d.create_tuple_iterator(output_numpy=True))
    assert rows[0][1].dtype == np.uint32 and int(rows[0][1]) == 16000
    assert [str(r[2]) for r in rows] == [
        "Author of the danger trail, Philip Steels, etc.",
        "Not at this particular case, Tom.",
    ]
    assert [str(r[3]) for r in rows] == ["a0001", "a0002"]


def test_flickr_div2k(tmp_path):
    (tmp_path / "imgs").mkdir()
    for n in ("1000_a.jpg", "2000_b.jpg"):
        cv2.imwrite(str(tmp_path / "imgs" / n), np.zeros((4, 4, 3), np.uint8))
    (tmp_path / "ann.txt").write_text("1000_a.jpg#0\tA child .\n1000_a.jpg#1\tA girl .\n2000_b.jpg#0\tA dog .\n")
    f = ds.FlickrDataset(str(tmp_path / "imgs"), str(tmp_path / "ann.txt"), shuffle=False)
    assert f.get_col_names() == ["image", "annotation"] and [r[1] for r in _rows(f)] == [
        ["A child .", "A girl ."],
        ["A dog ."],
    ]
    hr, lr = tmp_path / "DIV2K_train_HR", tmp_path / "DIV2K_train_LR_bicubic" / "X2"
    hr.mkdir()
    lr.mkdir(parents=True)
    for i in (1, 2):
        cv2.imwrite(str(hr / f"{i:04d}.png"), np.full((8, 8, 3), i, np.uint8))
        cv2.imwrite(str(lr / f"{i:04d}x2.png"), np.full((4, 4, 3), i, np.uint8))
    d = ds.DIV2KDataset(str(tmp_path), usage="train", downgrade="bicubic", scale=2, shuffle=False, decode=True)
    rows = list(d.create_tuple_iterator(output_numpy=True))
    assert (
        d.get_col_names() == ["hr_image", "lr_image"]
        and rows[1][0].shape == (8, 8, 3)
        and rows[1][1].shape == (4, 4, 3)
    )
    assert int(rows[1][0][0, 0, 0]) == 2


def test_sun397(tmp_path):
    for c in ("a/abbey", "b/bakery"):
        (tmp_path / c).mkdir(parents=True)
        for i in range(2):
            cv2.imwrite(str(tmp_path / c / f"sun_{i}.jpg"), np.zeros((4, 4, 3), np.uint8))
    (tmp_path / "ClassName.txt").write_text("/a/abbey\n/b/bakery\n")
    d = ds.SUN397Dataset(str(tmp_path), shuffle=False)
    rows = list(d.create_tuple_iterator(output_numpy=True))
    assert d.get_col_names() == ["image", "label"] and [int(r[1]) for r in rows] == [0, 0, 1, 1]
    assert rows[0][1].dtype == np.uint32


def test_celeba(tmp_path):
    for i in (1, 2, 3):
        cv2.imwrite(str(tmp_path / f"{i:06d}.jpg"), np.zeros((4, 4, 3), np.uint8))
    (tmp_path / "list_attr_celeba.txt").write_text(
        "3\n5_o_Clock_Shadow Arched_Eyebrows Bald\n000001.jpg -1  1 -1\n000002.jpg  1 -1 -1\n000003.jpg -1 -1  1\n"
    )
    (tmp_path / "list_eval_partition.txt").write_text("000001.jpg 0\n000002.jpg 1\n000003.jpg 2\n")
    d = ds.CelebADataset(str(tmp_path), shuffle=False)
    rows = list(d.create_tuple_iterator(output_numpy=True))
    assert d.get_col_names() == ["image", "attr"] and [r[1].tolist() for r in rows] == [[0, 1, 0], [1, 0, 0], [0, 0, 1]]
    assert rows[0][1].dtype == np.uint32
    v = ds.CelebADataset(str(tmp_path), usage="valid", shuffle=False)
    assert [r[1].tolist() for r in v.create_tuple_iterator(output_numpy=True)] == [[1, 0, 0]]
