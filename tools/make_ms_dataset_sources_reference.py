"""Builds small LFW, KITTI, WIDER FACE, Cityscapes, SBD, PhotoTour, CLUE, IWSLT, GTZAN, LibriTTS, TED-LIUM and LSUN trees in their real layouts and prints every row a dataset library gives
on them, so MindSpore 2.10 and sporax can be diffed (the values in tests/ut/dataset/test_sources_detection.py were
checked this way):

    python tools/make_ms_dataset_sources_reference.py build /tmp/dsref
    (cd /tmp && /work/msvenv/bin/python <repo>/tools/make_ms_dataset_sources_reference.py show mindspore /tmp/dsref) > ms.out
    python tools/make_ms_dataset_sources_reference.py show sporax /tmp/dsref > sp.out
    diff ms.out sp.out
"""

import importlib
import os
import shutil
import sys

import numpy as np


def img(path, v, shape=(5, 6, 3)):
    import cv2

    os.makedirs(os.path.dirname(path), exist_ok=True)
    a = np.full(shape, v, np.uint8)
    a[0, 0] = (v * 7) % 256
    cv2.imwrite(path, a)


def w(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(text)


def build(R):
    import cv2

    shutil.rmtree(R, ignore_errors=True)
    # LFW
    d = f"{R}/lfw"
    for j, s in enumerate(("lfw", "lfw_funneled", "lfw-deepfunneled")):
        for m, (name, n) in enumerate((("Ann_A", 2), ("Bob_B", 3), ("Cid_C", 1))):
            for k in range(1, n + 1):
                img(f"{d}/{s}/{name}/{name}_{k:04d}.jpg", 10 * k + 50 * m + 3 * j)
    w(f"{d}/lfw-names.txt", "Ann_A\t2\nBob_B\t3\nCid_C\t1\n")
    w(f"{d}/peopleDevTrain.txt", "2\nAnn_A\t2\nCid_C\t1\n")
    w(f"{d}/peopleDevTest.txt", "1\nBob_B\t3\n")
    w(f"{d}/people.txt", "2\n1\nCid_C\t1\n1\nAnn_A\t2\n")
    w(f"{d}/pairsDevTrain.txt", "1\nBob_B\t1\t3\nAnn_A\t2\tCid_C\t1\n")
    w(f"{d}/pairsDevTest.txt", "1\nAnn_A\t1\t2\nBob_B\t2\tAnn_A\t1\n")
    w(f"{d}/pairs.txt", "1\t1\nBob_B\t2\t3\nCid_C\t1\tBob_B\t1\n")
    # KITTI
    d = f"{R}/kitti"
    for i in range(3):
        img(f"{d}/data_object_image_2/training/image_2/{i:06d}.png", 20 + i)
    for i in range(2):
        img(f"{d}/data_object_image_2/testing/image_2/{i:06d}.png", 40 + i)
    w(
        f"{d}/data_object_label_2/training/label_2/000000.txt",
        "Pedestrian 0.00 0 -0.20 712.40 143.00 810.73 307.92 1.89 0.48 1.20 1.84 1.47 8.41 0.01\n"
        "Car 0.50 2 1.5 1.0 2.0 30.5 40.25 1.5 1.6 3.9 -4.2 1.7 20.1 -1.5\n",
    )
    w(f"{d}/data_object_label_2/training/label_2/000001.txt", "")
    w(
        f"{d}/data_object_label_2/training/label_2/000002.txt",
        "Cyclist 0.10 1 0.3 5 6 70 80 1.1 0.5 1.7 2.0 1.5 9.0 0.5\n",
    )
    # WIDERFace
    d = f"{R}/wider"
    img(f"{d}/WIDER_train/images/0--Parade/0_Parade_1.jpg", 60)
    img(f"{d}/WIDER_train/images/0--Parade/0_Parade_0.jpg", 61)
    img(f"{d}/WIDER_train/images/1--Handshaking/1_H_0.jpg", 62)
    img(f"{d}/WIDER_val/images/0--Parade/0_Parade_9.jpg", 63)
    img(f"{d}/WIDER_test/images/2--Demo/2_D_0.jpg", 64)
    img(f"{d}/WIDER_val/images/1--Handshaking/1_H_5.jpg", 65)
    w(
        f"{d}/wider_face_split/wider_face_train_bbx_gt.txt",
        "0--Parade/0_Parade_1.jpg\n2\n449 330 122 149 0 0 0 0 0 0 \n1 2 3 4 2 1 0 1 2 0 \n"
        "0--Parade/0_Parade_0.jpg\n0\n0 0 0 0 0 0 0 0 0 0 \n"
        "1--Handshaking/1_H_0.jpg\n1\n5 6 7 8 1 1 1 0 1 1 \n",
    )
    w(
        f"{d}/wider_face_split/wider_face_val_bbx_gt.txt",
        "0--Parade/0_Parade_9.jpg\n1\n9 9 9 9 0 1 0 0 1 0 \n1--Handshaking/1_H_5.jpg\n1\n3 3 3 3 1 0 0 0 0 1 \n",
    )

    # Cityscapes
    d = f"{R}/city"
    for split, cities in (("train", ("aachen", "bonn")), ("val", ("bonn",)), ("test", ("zurich",))):
        for c in cities:
            for i in (2, 1):
                stem = f"{c}_{i:06d}_000019"
                img(f"{d}/leftImg8bit/{split}/{c}/{stem}_leftImg8bit.png", 5 * i + len(c) + len(split))
                for kind, v in (("instanceIds", 1), ("labelIds", 2), ("color", 3)):
                    img(f"{d}/gtFine/{split}/{c}/{stem}_gtFine_{kind}.png", v + i, (5, 6))
                w(
                    f"{d}/gtFine/{split}/{c}/{stem}_gtFine_polygons.json",
                    '{"imgWidth": 6, "imgHeight": 5, "objects": [{"label": "road", "polygon": [[0, 1], [2, 3]]}]}',
                )
    # SBD
    from scipy.io import savemat
    from scipy.sparse import csc_matrix

    d = f"{R}/sbd"
    w(f"{d}/train.txt", "2008_000002\n2008_000003\n")
    w(f"{d}/val.txt", "2008_000007\n")
    w(f"{d}/train_noval.txt", "2008_000003\n")
    for k, n in enumerate(("2008_000002", "2008_000003", "2008_000007")):
        img(f"{d}/img/{n}.jpg", 100 + 10 * k)
        b = np.empty((20, 1), object)
        for c in range(20):
            m = np.zeros((5, 6), np.uint8)
            m[c % 5, (c + k) % 6] = 1
            b[c, 0] = csc_matrix(m)
        seg = (np.arange(30).reshape(5, 6) % (3 + k)).astype(np.uint8)
        os.makedirs(f"{d}/cls", exist_ok=True)
        savemat(
            f"{d}/cls/{n}.mat", {"GTcls": {"Boundaries": b, "Segmentation": seg, "CategoriesPresent": np.array([[1]])}}
        )
    # PhotoTour
    d = f"{R}/photo/liberty"
    os.makedirs(d, exist_ok=True)
    for s in range(2):
        sheet = ((np.arange(1024)[:, None] // 64 * 16 + np.arange(1024)[None, :] // 64 + 7 * s) % 256).astype(np.uint8)
        cv2.imwrite(f"{d}/patches{s:04d}.bmp", sheet)
    w(f"{d}/info.txt", "0 0\n0 0\n1 0\n2 0\n2 0\n" + "".join(f"{3 + i // 2} 0\n" for i in range(256)))
    w(f"{d}/m50_100000_100000_0.txt", "0 0 0 1 0 0 0\n2 1 0 260 3 0 0\n259 7 0 300 7 0 0\n")

    # CLUE (one JSON object a line)
    import json

    clue = {
        "AFQMC": [
            {"id": 0, "sentence1": "a1", "sentence2": "b1", "label": "0"},
            {"id": -1, "sentence1": "a2", "sentence2": "b2", "label": 2.5},
        ],
        "TNEWS": [{"id": 3, "label": "101", "label_desc": "news_story", "sentence": "s1", "keywords": "k1,k2"}],
        "IFLYTEK": [{"id": 4, "label": "11", "label_des": "app", "sentence": "s2"}],
        "CMNLI": [{"id": 5, "sentence1": "p", "sentence2": "h", "label": "neutral"}],
        "WSC": [
            {
                "target": {"span2_index": 5, "span1_index": 0, "span1_text": "x", "span2_text": "y"},
                "idx": 7,
                "label": "true",
                "text": "t",
            }
        ],
        "CSL": [{"id": 8, "abst": "ab", "keyword": ["k1", "k2"], "label": "1"}],
    }
    for k, v in clue.items():
        w(f"{R}/clue/{k}.json", "\n".join(json.dumps(r) for r in v) + "\n")

    # IWSLT: train tag files (header lines with tags) and valid/test xml files
    def xml(lang, docs, tag):
        body = "".join(
            f'<doc docid="{k}">\n<url>http://x</url>\n<talkid>{k}</talkid>\n'
            + "".join(f'<seg id="{i}"> {lang} {tag} d{k} s{i} </seg>\n' for i in range(1, n + 1))
            + "</doc>\n"
            for k, n in docs
        )
        return f'<?xml version="1.0" encoding="UTF-8"?>\n<mteval>\n<srcset setid="x" srclang="{lang}">\n{body}</srcset>\n</mteval>\n'

    def tags(lang, n):
        head = "<url>http://u</url>\n<keywords>k</keywords>\n<talkid>1</talkid>\n<title>T</title>\n"
        return head + "".join(f" {lang} train {i} \n" for i in range(n)) + "<reviewer></reviewer>\n" + f"{lang} tail\n"

    d = f"{R}/iwslt2016/texts/de/en/de-en"
    for lang in ("de", "en"):
        w(f"{d}/train.tags.de-en.{lang}", tags(lang, 3))
        w(f"{d}/IWSLT16.TED.tst2013.de-en.{lang}.xml", xml(lang, [(1, 2)], "v13"))
        w(f"{d}/IWSLT16.TED.tst2014.de-en.{lang}.xml", xml(lang, [(1, 1), (2, 2)], "t14"))
        w(f"{d}/IWSLT16.TED.dev2010.de-en.{lang}.xml", xml(lang, [(3, 1)], "d10"))
    d = f"{R}/iwslt2017/texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo"
    for lang in ("it", "nl"):
        w(f"{d}/train.tags.it-nl.{lang}", tags(lang, 2))
        w(f"{d}/IWSLT17.TED.dev2010.it-nl.{lang}.xml", xml(lang, [(1, 2)], "dev"))
        w(f"{d}/IWSLT17.TED.tst2010.it-nl.{lang}.xml", xml(lang, [(1, 1)], "tst"))

    # audio: GTZAN (a few files of three genres), LibriTTS, TED-LIUM (NIST SPHERE)
    import wave

    def wav(path, samples, rate):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with wave.open(path, "wb") as f:
            f.setnchannels(1)
            f.setsampwidth(2)
            f.setframerate(rate)
            f.writeframes(np.asarray(samples, "<i2").tobytes())

    for g, ids in (("blues", (0, 12, 29, 30)), ("jazz", (5, 73, 11)), ("rock", (38, 10, 0))):
        for i in ids:
            wav(f"{R}/gtzan/{g}/{g}.{i:05d}.wav", [len(g), i, -i], 22050)
    w(f"{R}/gtzan/blues/notes.txt", "x")
    for usage, spk, ch in (("dev-clean", 84, 121123), ("test-clean", 1089, 134686), ("train-clean-100", 19, 198)):
        d = f"{R}/libritts/{usage}/{spk}/{ch}"
        lines = []
        for k in range(2):
            uid = f"{spk}_{ch}_{k:06d}_{k + 1:06d}"
            wav(f"{d}/{uid}.wav", [spk % 100, k, 7], 24000)
            lines.append(f"{uid}\tOriginal {usage} {k}.\tnormalized {usage} {k}")
        w(f"{d}/{spk}_{ch}.trans.tsv", "\n".join(lines) + "\n")

    def sph(path, samples, rate):
        head = (
            f"NIST_1A\n   1024\nsample_count -i {len(samples)}\nsample_n_bytes -i 2\nsample_rate -i {rate}\nend_head\n"
        )
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(head.encode() + b" " * (1024 - len(head)) + np.asarray(samples, ">i2").tobytes())

    for u in ("train", "test", "dev"):
        d = f"{R}/tedlium/release1/{u}"
        for talk in ("TalkB", "TalkA"):
            sph(f"{d}/sph/{talk}.sph", np.arange(4000) * 7 % 2000 - 1000, 1000)
            n = 12 if u == "train" and talk == "TalkA" else 2
            w(
                f"{d}/stm/{talk}.stm",
                "".join(
                    f"{talk} 1 {talk}_spk {0.25 * k:.2f} {0.25 * k + 0.5:.2f} <o,f0,male> {u} {talk} {k} \n"
                    for k in range(n)
                ),
            )
    sph(f"{R}/tedlium/release3/data/sph/T3.sph", np.arange(3000) % 50, 1000)
    w(f"{R}/tedlium/release3/data/stm/T3.stm", "T3 1 T3 1.5 2.25 <o,f0,female> release three\n")

    # LSUN (exported image folders)
    v = 0
    for folder, names in (("bedroom_train", ["b.jpg", "a.jpg"]), ("bedroom_val", ["c.jpg"]), ("tower_train", ["d.jpg"]),
                          ("bridge_val", ["e.jpg"]), ("test", ["f.jpg", "g.jpg"]), ("kitchen_train_lmdb", ["h.jpg"])):  # fmt: skip
        for n in names:
            v += 20
            img(f"{R}/lsun/{folder}/{n}", v)


def cases(ds, R):
    L = f"{R}/lfw"
    lfw = [("people", "10fold", "original"), ("people", "train", "deepfunneled"), ("pairs", "all", None),
           ("pairs", "10fold", "original"), ("pairs", "test", None)]  # fmt: skip
    return {
        "lfw": [ds.LFWDataset(L, shuffle=False)]
        + [ds.LFWDataset(L, task=t, usage=u, image_set=s, shuffle=False) for t, u, s in lfw],
        "kitti": [
            ds.KITTIDataset(f"{R}/kitti", shuffle=False),
            ds.KITTIDataset(f"{R}/kitti", usage="test", shuffle=False),
        ],
        "wider": [ds.WIDERFaceDataset(f"{R}/wider", usage=u, shuffle=False) for u in ("train", "valid", "test", "all")],
        "city": [
            ds.CityscapesDataset(f"{R}/city", usage=u, task=t, shuffle=False)
            for u, t in (("train", "instance"), ("val", "semantic"), ("all", "color"), ("test", "polygon"))
        ]
        + [ds.CityscapesDataset(f"{R}/city", usage="val", task="semantic", decode=True, shuffle=False)],
        "sbd": [
            ds.SBDataset(f"{R}/sbd", task=t, usage=u, shuffle=False, decode=dec)
            for t, u, dec in (
                ("Boundaries", "all", None),
                ("Segmentation", "train", False),
                ("Segmentation", "val", True),
                ("Boundaries", "train_noval", None),
            )
        ],
        "clue": [
            ds.CLUEDataset(f"{R}/clue/{t}.json", task=t, usage=u, shuffle=False)
            for t in ("AFQMC", "TNEWS", "IFLYTEK", "CMNLI", "WSC", "CSL")
            for u in ("train", "test", "eval")
        ],
        "iwslt": [
            ds.IWSLT2016Dataset(f"{R}/iwslt2016", shuffle=False),
            ds.IWSLT2016Dataset(f"{R}/iwslt2016", usage="valid", valid_set="dev2010", shuffle=False),
            ds.IWSLT2016Dataset(f"{R}/iwslt2016", num_shards=2, shard_id=1, shuffle=False),
            ds.IWSLT2016Dataset(f"{R}/iwslt2016", num_parallel_workers=1, shuffle=False),
            ds.IWSLT2017Dataset(f"{R}/iwslt2017", language_pair=["it", "nl"], shuffle=False),
        ],
        "gtzan": [ds.GTZANDataset(f"{R}/gtzan", usage=u, shuffle=False) for u in ("all", "train", "valid", "test")],
        "libritts": [ds.LibriTTSDataset(f"{R}/libritts", usage=u, shuffle=False) for u in ("all", "test-clean")],
        "tedlium": [
            ds.TedliumDataset(f"{R}/tedlium/release1", "release1", usage=u, shuffle=False) for u in ("all", "dev")
        ]
        + [ds.TedliumDataset(f"{R}/tedlium/release3", "release3", shuffle=False)],
        "lsun": [ds.LSUNDataset(f"{R}/lsun", usage=u, shuffle=False) for u in ("all", "train", "valid")]
        + [ds.LSUNDataset(f"{R}/lsun", classes=["bedroom", "bridge"], shuffle=False)],
        "photo": [ds.PhotoTourDataset(f"{R}/photo", "liberty", usage=u, shuffle=False) for u in ("train", "test")],
    }


def _file_of(root, raw):
    for dirpath, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            p = os.path.join(dirpath, f)
            with open(p, "rb") as fh:
                if fh.read() == raw.tobytes():
                    return os.path.relpath(p, root)
    return None


def show(lib, R):
    ds = importlib.import_module(lib + ".dataset")
    for family, datasets in cases(ds, R).items():
        for i, d in enumerate(datasets):
            print("==", f"{family}{i}", d.get_col_names(), d.get_dataset_size())
            rows = list(d.create_tuple_iterator(output_numpy=True))
            for row in rows if len(rows) <= 12 else rows[:4] + rows[-4:]:
                out = []
                for r in row:
                    r = np.asarray(r)
                    if family == "tedlium" and not out:  # MindSpore 2.10 reads all-zero TED-LIUM waveforms
                        out.append((str(r.dtype), r.shape))
                    elif r.dtype == np.uint8 and r.ndim == 1:
                        out.append(("file", _file_of(R, r)))
                    elif r.size > 40:
                        out.append((str(r.dtype), r.shape, int(r.astype(np.int64).sum()), r.ravel()[:8].tolist()))
                    else:
                        out.append((str(r.dtype), r.shape, r.tolist()))
                print("  ", out)


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2])
    else:
        show(sys.argv[2], sys.argv[3])
