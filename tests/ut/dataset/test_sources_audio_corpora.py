"""GTZANDataset, LibriTTSDataset and TedliumDataset on small trees in their real layouts. Columns, dtypes, row order
and values are what MindSpore 2.10 gives on the same files (tools/make_ms_dataset_sources_reference.py), except
TED-LIUM's waveform values: MindSpore 2.10's SPHERE reader returns zeros, sporax the segment's samples."""

import os
import wave

import numpy as np
import pytest

import sporax.dataset as ds

from ._sources_util import rows as _rows
from ._sources_util import write_text as _write


def _wav(path, samples, rate):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with wave.open(str(path), "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(rate)
        f.writeframes(np.asarray(samples, "<i2").tobytes())


def test_gtzan(tmp_path):
    genres = {"blues": (0, 12, 29, 30), "jazz": (5, 73, 11), "rock": (38, 10, 0)}
    for g, ids in genres.items():
        for i in ids:
            _wav(tmp_path / g / f"{g}.{i:05d}.wav", [len(g), i, -i], 22050)
    _write(tmp_path / "blues" / "notes.txt", "x")

    def read(usage):
        rows = _rows(ds.GTZANDataset(str(tmp_path), usage=usage, shuffle=False))
        return [(str(r[2]), round(float(r[0][0, 1]) * 32767)) for r in rows], rows

    got, rows = read(None)  # 'all': every wav, genre folders in the published order
    assert [g for g, _ in got] == ["blues"] * 4 + ["jazz"] * 3 + ["rock"] * 3
    assert sorted(got) == sorted((g, i) for g, ids in genres.items() for i in ids)
    w, rate, label = rows[0]
    assert w.dtype == np.float32 and w.shape == (1, 3) and rate.dtype == np.uint32 and int(rate) == 22050
    np.testing.assert_allclose(w[0], np.asarray([5, got[0][1], -got[0][1]]) / 32767, rtol=1e-6)
    # the fixed split lists (as MindSpore 2.10 reads them)
    assert read("train")[0] == [("blues", 29), ("blues", 30), ("jazz", 11), ("rock", 0)]
    assert read("valid")[0] == [("blues", 0), ("jazz", 5), ("rock", 38)]
    assert read("test")[0] == [("blues", 12), ("jazz", 73), ("rock", 10)]
    with pytest.raises(
        ValueError, match=r"Input usage is not within the valid set of \['train', 'valid', 'test', 'all'\]"
    ):
        ds.GTZANDataset(str(tmp_path), usage="dev")


def test_gtzan_split_sizes():
    from sporax.dataset.engine.datasets_audio_corpora import _split_files

    # GTZAN's filtered splits: 443 train, 197 valid, 290 test files, no file in two of them
    sizes = {u: len(_split_files(u)) for u in ("train", "valid", "test")}
    assert sizes == {"train": 443, "valid": 197, "test": 290}
    assert len({f for u in sizes for _, f in _split_files(u)}) == 930


def test_libritts(tmp_path):
    for usage, spk, ch in (("dev-clean", 84, 121123), ("test-clean", 1089, 134686), ("train-clean-100", 19, 198)):
        d = tmp_path / usage / str(spk) / str(ch)
        lines = []
        for k in range(2):
            uid = f"{spk}_{ch}_{k:06d}_{k + 1:06d}"
            _wav(d / f"{uid}.wav", [spk % 100, k, 7], 24000)
            lines.append(f"{uid}\tOriginal {usage} {k}.\tnormalized {usage} {k}")
        _write(d / f"{spk}_{ch}.trans.tsv", "\n".join(lines) + "\n")
    d = ds.LibriTTSDataset(str(tmp_path), shuffle=False)
    cols = ["waveform", "sample_rate", "original_text", "normalized_text", "speaker_id", "chapter_id", "utterance_id"]
    assert d.get_col_names() == cols and d.get_dataset_size() == 6
    rows = _rows(d)
    assert [str(r[2]) for r in rows] == [
        f"Original {u} {k}." for u in ("dev-clean", "test-clean", "train-clean-100") for k in range(2)
    ]
    w, rate, _, norm, spk, ch, uid = rows[3]
    assert w.shape == (1, 3) and w.dtype == np.float32 and np.allclose(w[0] * 32767, [89, 1, 7])
    assert rate.dtype == np.uint32 and int(rate) == 24000 and str(norm) == "normalized test-clean 1"
    assert spk.dtype == np.uint32 and (int(spk), int(ch)) == (1089, 134686) and str(uid) == "1089_134686_000001_000002"
    assert len(_rows(ds.LibriTTSDataset(str(tmp_path), usage="test-clean", shuffle=False))) == 2
    with pytest.raises(ValueError, match="Input usage is not within the valid set of"):
        ds.LibriTTSDataset(str(tmp_path), usage="clean")


def _sph(path, samples, rate):
    head = f"NIST_1A\n   1024\nsample_count -i {len(samples)}\nsample_n_bytes -i 2\nsample_rate -i {rate}\nend_head\n"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(head.encode() + b" " * (1024 - len(head)) + np.asarray(samples, ">i2").tobytes())


def test_tedlium(tmp_path):
    audio = np.arange(4000) * 7 % 2000 - 1000
    for u in ("train", "test", "dev"):
        d = tmp_path / "r1" / u
        for talk in ("TalkB", "TalkA"):
            _sph(d / "sph" / f"{talk}.sph", audio, 1000)
            n = 12 if u == "train" and talk == "TalkA" else 2
            _write(d / "stm" / f"{talk}.stm",
                   "".join(f"{talk} 1 {talk}_spk {0.25 * k:.2f} {0.25 * k + 0.5:.2f} <o,f0,male> {u} {talk} {k} \n"
                           for k in range(n)))  # fmt: skip
    t = ds.TedliumDataset(str(tmp_path / "r1"), "release1", shuffle=False)
    assert t.get_col_names() == ["waveform", "sample_rate", "transcript", "talk_id", "speaker_id", "identifier"]
    rows = _rows(t)
    # ordered by the stm line number as text ('10' before '2'), then talk, then usage
    assert [str(r[2]) for r in rows[:5]] == [
        "dev TalkA 0 ",
        "test TalkA 0 ",
        "train TalkA 0 ",
        "dev TalkB 0 ",
        "test TalkB 0 ",
    ]
    assert [str(r[2]) for r in rows[6:9]] == ["dev TalkA 1 ", "test TalkA 1 ", "train TalkA 1 "]
    assert [str(r[2]) for r in rows[12:14]] == ["train TalkA 10 ", "train TalkA 11 "]
    w, rate, _, talk, spk, ident = rows[2]
    assert w.dtype == np.float32 and w.shape == (1, 500) and rate.dtype == np.int32 and int(rate) == 1000
    assert (str(talk), str(spk), str(ident)) == ("TalkA", "TalkA_spk", "<o,f0,male>")
    np.testing.assert_allclose(w[0], audio[:500] / 32767, rtol=1e-6)
    seg = _rows(ds.TedliumDataset(str(tmp_path / "r1"), "release1", usage="dev", shuffle=False))[2][0]
    np.testing.assert_allclose(seg[0], audio[250:750] / 32767, rtol=1e-6)
    _sph(tmp_path / "r3" / "data" / "sph" / "T3.sph", np.arange(3000) % 50, 1000)
    _write(tmp_path / "r3" / "data" / "stm" / "T3.stm", "T3 1 T3 1.5 2.25 <o,f0,female> release three\n")
    ((w, _, text, *_),) = _rows(ds.TedliumDataset(str(tmp_path / "r3"), "release3", shuffle=False))
    assert w.shape == (1, 750) and str(text) == "release three"
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of \['all'\]"):
        ds.TedliumDataset(str(tmp_path / "r3"), "release3", usage="train")
    with pytest.raises(ValueError, match="Input release is not within the valid set of"):
        ds.TedliumDataset(str(tmp_path / "r3"), "release4")
