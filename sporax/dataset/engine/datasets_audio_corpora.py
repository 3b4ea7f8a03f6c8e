"""Audio corpora: GTZAN (genres), LibriTTS and TED-LIUM (releases 1 to 3, NIST SPHERE audio).

Columns, dtypes and row order follow MindSpore 2.10, checked against it on small trees
(tools/make_ms_dataset_sources_reference.py, tests/ut/dataset/test_sources_audio_corpora.py). GTZAN's fixed
train/valid/test lists were learned from MindSpore's behaviour (tools/make_ms_dataset_gtzan_splits.py).
"""

from __future__ import annotations

import os

import numpy as np

from ..._checkparam import check_dataset_dir, check_pipeline_choice
from ._block import maybe_stack
from .datasets_audio import _WavSource, read_wav
from .errors import pipeline_error

__all__ = ["GTZANDataset", "LibriTTSDataset", "TedliumDataset"]

_GENRES = ("blues", "classical", "country", "disco", "hiphop", "jazz", "metal", "pop", "reggae", "rock")
# file ids (<genre>.000NN) of each usage, as ranges
_GTZAN_SPLITS = {
    "train": {
        "blues": "29-49,73-97",
        "classical": "30-33,43-48,50-67,80-99",
        "country": "19-26,28-29,65-99",
        "disco": "5,15-20,22-37,39-45,47,49,53-54,56-57,59,61,70,73-74,89",
        "hiphop": "2-25,28-29,31-38,41-42,55-61,77-80",
        "jazz": "0-1,11-24,41,47-72",
        "metal": "2-3,5,21,24,35,46-57,59-66,69,71-72,79-80,84,86,89-99",
        "pop": "2-9,11-12,16-20,23-29,31-36,38-42,44,46,49-50,80,97-99",
        "reggae": "0-2,4,6,9,11-12,14-32,42-45,49-51,54-60,63,69",
        "rock": "0-9,16-26,57-70,91-99",
    },
    "valid": {
        "blues": "0-11,50-60",
        "classical": "0-10,68-76",
        "country": "0-7,9-18,27,41-42,45,49",
        "disco": "0,2-4,6-14,46,48,52,67-68,72,75,90,95",
        "hiphop": "81-98",
        "jazz": "2-10,25-32",
        "metal": "0-1,6-11,16-20,36-37,68,76-77,81-82",
        "pop": "10,53,55,58-62,81,83-86",
        "reggae": "61-62,70,72,74,76-78,85,92-99",
        "rock": "38,49-56,71-85",
    },
    "test": {
        "blues": "12-28,61-72,98-99",
        "classical": "11-29,34-41,49,77-79",
        "country": "30-40,43-44,46-48,50-51,53-64",
        "disco": "1,21,58,62-66,69,76-88,91-94,96-97,99",
        "hiphop": "0,26-27,30,40,43-45,51-54,62-75,99",
        "jazz": "73-99",
        "metal": "12-15,22-23,25-33,38-39,67,70,73-75,78,83,85,87-88",
        "pop": "0-1,13-14,43,63-66,69-79,82,88-96",
        "reggae": "34-40,46-48,52-53,64-68,71,79,82-84,87-90",
        "rock": "10-15,27-37,39-48,86-90",
    },
}


def _split_files(usage):
    out = []
    for genre, spec in _GTZAN_SPLITS[usage].items():
        for part in spec.split(","):
            a, _, b = part.partition("-")
            out += [(genre, f"{genre}.{i:05d}") for i in range(int(a), int(b or a) + 1)]
    return out


def _wav(path, rate, name):
    wav, r = read_wav(path)
    if r != rate:
        raise pipeline_error(f"Invalid file, sampling rate of {name} wav file must be {rate}, file path: {path}")
    return wav[:1] if wav.shape[0] > 1 else wav


class GTZANDataset(_WavSource):
    """GTZAN music genres (``<genre>/<genre>.000NN.wav`` at 22050 Hz): columns waveform (float32 ``[1, n]``),
    sample_rate (uint32) and label (the genre, str). ``usage`` train, valid or test reads the fixed split lists
    (files missing on disk are skipped); ``'all'`` (the default) every ``.wav`` of each genre folder, genres in
    the published order and files in directory order."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_pipeline_choice(usage, ("train", "valid", "test", "all"), "usage") or "all"
        self._items = []
        if self.usage == "all":
            for g in _GENRES:
                d = os.path.join(self.dataset_dir, g)
                if os.path.isdir(d):
                    for f in os.listdir(d):
                        stem, ext = os.path.splitext(f)
                        if ext == ".wav" and "." in stem:
                            self._items.append((os.path.join(d, f), g))
        else:
            for g, stem in _split_files(self.usage):
                p = os.path.join(self.dataset_dir, g, stem + ".wav")
                if os.path.exists(p):
                    self._items.append((p, g))
        if not self._items:
            raise pipeline_error(f"Invalid data, no valid data found in path:{self.dataset_dir}")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["waveform", "sample_rate", "label"]

    def _fetch(self, idx):
        items = [self._items[i] for i in idx.tolist()]
        return [
            maybe_stack([_wav(it[0], 22050, "GTZAN") for it in items]),
            np.full(len(items), 22050, np.uint32),
            maybe_stack([np.asarray(it[1]) for it in items]),
        ]


class LibriTTSDataset(_WavSource):
    """LibriTTS (``<usage>/<speaker>/<chapter>/<speaker>_<chapter>.trans.tsv`` of ``id<TAB>original<TAB>normalized``
    lines and ``<id>.wav`` at 24000 Hz): columns waveform, sample_rate (uint32), original_text, normalized_text,
    speaker_id, chapter_id (uint32) and utterance_id. ``usage``: one subset or ``'all'`` (every subset in the
    published order); folders are walked in directory order."""

    _USAGES = ("dev-clean", "dev-other", "test-clean", "test-other", "train-clean-100", "train-clean-360",
               "train-other-500")  # fmt: skip

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_pipeline_choice(usage, (*self._USAGES, "all"), "usage") or "all"
        self._items: list = []
        for u in self._USAGES if self.usage == "all" else (self.usage,):
            labels: list = []
            self._walk(os.path.join(self.dataset_dir, u), labels)
            for label in labels:
                self._read_labels(u, label)
        if not self._items:
            raise pipeline_error(
                "Invalid data, no valid data matching the dataset API LibriTTSDataset. Please check dataset API or "
                f"file path: {self.dataset_dir}."
            )
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    @classmethod
    def _walk(cls, d, labels):
        # MindSpore stops listing a folder at its first .trans.tsv file
        if not os.path.isdir(d):
            return
        for f in os.listdir(d):
            p = os.path.join(d, f)
            if os.path.isdir(p):
                cls._walk(p, labels)
            elif len(f) > 10 and f.endswith(".trans.tsv"):
                labels.append(p)
                return

    def _read_labels(self, usage, path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line in text.split("\n"):
            if not line:
                continue
            uid, _, rest = line.partition("\t")
            original, _, normalized = rest.partition("\t")
            parts = uid.split("_")
            if len(parts) != 4:
                raise pipeline_error(f"Invalid file, the file may not be a LibriTTS dataset file: {path}")
            speaker, chapter = int(parts[0]), int(parts[1])
            wav = os.path.join(self.dataset_dir, usage, str(speaker), str(chapter), uid + ".wav")
            self._items.append((wav, original, normalized, speaker, chapter, uid))

    def _columns(self):
        return ["waveform", "sample_rate", "original_text", "normalized_text", "speaker_id", "chapter_id",
                "utterance_id"]  # fmt: skip

    def _fetch(self, idx):
        items = [self._items[i] for i in idx.tolist()]
        return [
            maybe_stack([_wav(it[0], 24000, "LibriTTS") for it in items]),
            np.full(len(items), 24000, np.uint32),
            maybe_stack([np.asarray(it[1]) for it in items]),
            maybe_stack([np.asarray(it[2]) for it in items]),
            np.asarray([it[3] for it in items], np.uint32),
            np.asarray([it[4] for it in items], np.uint32),
            maybe_stack([np.asarray(it[5]) for it in items]),
        ]


def _read_sph(path, start_time, end_time):
    """``(samples float32 [1, n], sample_rate)`` of the ``[start_time, end_time)`` seconds of a 16-bit big-endian
    NIST SPHERE file (1024-byte header), scaled by 1/32767."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError:
        raise pipeline_error(f"Invalid file, failed to open file: {path}") from None
    if len(raw) < 1024:
        raise pipeline_error(
            f"Invalid data, failed to read head part from sph file: {path}, re-download dataset(make sure the data "
            "is true)."
        )
    words = raw[:1024].split(b"\0")[0].split()
    rate = int(words[words.index(b"sample_rate") + 2]) if b"sample_rate" in words else 0
    start, end = int(start_time * rate), int(end_time * rate)
    n = max(end - start, 0)
    a, b = 1024 + 2 * start, 1024 + 2 * (start + n)
    if b > len(raw):
        raise pipeline_error(
            f"Invalid data, failed to read data part from sph file: {path}, re-download dataset(make sure the data "
            "is true)."
        )
    return (np.frombuffer(raw[a:b], ">i2").astype(np.float32) / np.float32(32767.0))[None], rate


class TedliumDataset(_WavSource):
    """TED-LIUM (``<usage>/stm/<talk>.stm`` transcript lines ``talk 1 speaker start end identifier transcript``
    and ``<usage>/sph/<talk><extensions>`` audio; release3 keeps everything under ``data/``): one row per stm
    line with columns waveform (float32 ``[1, n]``, the line's time segment), sample_rate (int32), transcript,
    talk_id, speaker_id and identifier. ``usage`` train, test, dev or all for release1/2 (``'all'`` only for
    release3). Rows are ordered as MindSpore orders them: by the line number's text, then talk, then usage.

    MindSpore 2.10's SPHERE reader returns all-zero waveforms of the segment's length (its sample buffer is
    pre-sized and then appended to); sporax returns the segment's samples."""

    def __init__(self, dataset_dir, release, usage=None, extensions=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None, shard_id=None,
                 cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        if not isinstance(release, str):
            raise TypeError(
                f"Argument release with value {release!r} is not of type [<class 'str'>], but got {type(release)}."
            )
        self.release = check_pipeline_choice(release, ("release1", "release2", "release3"), "release")
        allowed = ("train", "test", "dev", "all") if self.release != "release3" else ("all",)
        self.usage = check_pipeline_choice(usage, allowed, "usage") or "all"
        self.extensions = ".sph" if extensions is None else extensions
        if self.release == "release3":
            usages = ["data"]
        else:
            usages = ["train", "test", "dev"] if self.usage == "all" else [self.usage]
        found = []
        for u in usages:
            folder = os.path.join(self.dataset_dir, u, "stm")
            if not os.path.isdir(folder):
                raise pipeline_error(f"Invalid file, failed to open folder: {folder}")
            for f in os.listdir(folder):
                if os.path.splitext(f)[1] != ".stm":
                    continue
                with open(os.path.join(folder, f), encoding="utf-8", newline="\n") as fh:
                    lines = fh.read().split("\n")
                if lines and lines[-1] == "":
                    lines.pop()
                found += [(str(k), ln.split(" ")[0], u, ln) for k, ln in enumerate(lines)]
        self._items = sorted(found, key=lambda t: t[:3])
        if not self._items:
            raise pipeline_error(
                "Invalid data, no valid data matching the dataset API TedliumDataset. Please check file path or "
                "dataset API."
            )
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["waveform", "sample_rate", "transcript", "talk_id", "speaker_id", "identifier"]

    def _row(self, item):
        _, talk, usage, line = item
        fields = line.split(" ", 6)
        if len(fields) != 7:
            raise pipeline_error("Invalid data, stm data was broken.")
        sph = os.path.join(self.dataset_dir, usage, "sph", talk + self.extensions)
        wav, rate = _read_sph(sph, float(fields[3]), float(fields[4]))
        return wav, rate, fields[6], fields[0], fields[2], fields[5]

    def _fetch(self, idx):
        rows = [self._row(self._items[i]) for i in idx.tolist()]
        return [
            maybe_stack([r[0] for r in rows]),
            np.asarray([r[1] for r in rows], np.int32),
            *(maybe_stack([np.asarray(r[k]) for r in rows]) for k in range(2, 6)),
        ]
