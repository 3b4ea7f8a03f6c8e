"""Audio sources: :class:`YesNoDataset` (PCM WAV files read with the standard ``wave`` module)."""

from __future__ import annotations

import os
import wave
from collections.abc import Callable

import numpy as np

from ..._checkparam import check_dataset_dir, check_dataset_file
from .errors import pipeline_error
from .sources import MappableSource

__all__ = ["YesNoDataset", "read_wav"]


def read_wav(path: str) -> tuple[np.ndarray, int]:
    """``(waveform float32 [channels, samples] in [-1, 1], sample_rate)`` of a PCM WAV file (int16 divided
    by 32767, as MindSpore)."""
    try:
        with wave.open(path, "rb") as w:
            ch, width, rate, n = w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes()
            raw = w.readframes(n)
    except (OSError, wave.Error) as e:
        raise pipeline_error(f"Invalid file, failed to read the wav file {path}: {e}") from None
    if width == 2:
        data = np.frombuffer(raw, "<i2").astype(np.float32) / 32767.0
    elif width == 1:
        data = (np.frombuffer(raw, np.uint8).astype(np.float32) - 128.0) / 127.0
    elif width == 4:
        data = np.frombuffer(raw, "<i4").astype(np.float32) / 2147483647.0
    else:
        raise pipeline_error(f"Invalid file, unsupported sample width {width} in {path}.")
    return data.reshape(-1, ch).T.copy(), rate


class YesNoDataset(MappableSource):
    """The YesNo corpus: ``<8 digits joined by _>.wav`` files; columns waveform (float32 ``[1, samples]``),
    sample_rate (int32), label (int32 ``[8]``, the digits of the file name)."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self._files = sorted(f for f in os.listdir(self.dataset_dir) if f.endswith(".wav"))
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["waveform", "sample_rate", "label"]

    def _n(self):
        return len(self._files)

    def _fetch(self, idx):
        wav, rates, labels = [], [], []
        for i in idx.tolist():
            f = self._files[i]
            w, r = read_wav(os.path.join(self.dataset_dir, f))
            wav.append(w)
            rates.append(r)
            labels.append(np.asarray([int(v) for v in f[:-4].split("_")], np.int32))
        from ._block import maybe_stack

        return [maybe_stack(wav), np.asarray(rates, np.int32), maybe_stack(labels)]


class _WavSource(MappableSource):
    def _n(self):
        return len(self._items)

    def _wav_rows(self, idx, extra):
        from ._block import maybe_stack

        wav, rates, cols = [], [], None
        for i in idx.tolist():
            w, r = read_wav(self._items[i][0])
            wav.append(w)
            rates.append(r)
            vals = extra(self._items[i])
            cols = [[] for _ in vals] if cols is None else cols
            for c, v in zip(cols, vals):
                c.append(v)
        return [maybe_stack(wav), np.asarray(rates, np.int32)] + [maybe_stack(c) for c in (cols or [])]


class LJSpeechDataset(_WavSource):
    """LJ Speech (``metadata.csv`` of ``id|transcription|normalized`` and ``wavs/<id>.wav``): columns waveform,
    sample_rate, transcription, normalized_transcription."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        meta = os.path.join(self.dataset_dir, "metadata.csv")
        check_dataset_file(meta)
        with open(meta, encoding="utf-8") as f:
            parts = [ln.rstrip("\n").split("|") for ln in f if ln.strip()]
        self._items = [(os.path.join(self.dataset_dir, "wavs", p[0] + ".wav"), p[1], p[2] if len(p) > 2 else p[1])
                       for p in parts]  # fmt: skip
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["waveform", "sample_rate", "transcription", "normalized_transcription"]

    def _fetch(self, idx):
        return self._wav_rows(idx, lambda it: (np.asarray(it[1]), np.asarray(it[2])))


class SpeechCommandsDataset(_WavSource):
    """Speech Commands (``<label>/<speaker>_nohash_<n>.wav``; ``validation_list.txt`` and ``testing_list.txt``
    pick usage valid/test, the rest is train): columns waveform, sample_rate, label, speaker_id,
    utterance_number."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        from ..._checkparam import check_dataset_usage

        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, ("train", "valid", "test", "all"))

        def listed(name):
            p = os.path.join(self.dataset_dir, name)
            if not os.path.isfile(p):
                return set()
            with open(p, encoding="utf-8") as f:
                return {ln.strip() for ln in f if ln.strip()}

        valid, test = listed("validation_list.txt"), listed("testing_list.txt")
        rel: list[str] = []
        for label in sorted(os.listdir(self.dataset_dir)):
            d = os.path.join(self.dataset_dir, label)
            if not os.path.isdir(d) or label == "_background_noise_":
                continue
            rel.extend(f"{label}/{f}" for f in sorted(os.listdir(d)) if f.endswith(".wav"))
        keeps: dict[str, Callable[[str], bool]] = {"all": lambda r: True, "valid": lambda r: r in valid,
                                                   "test": lambda r: r in test,
                                                   "train": lambda r: r not in valid and r not in test}  # fmt: skip
        keep = keeps[self.usage]
        self._items = []
        for r in sorted(filter(keep, rel)):
            label, name = r.split("/")
            speaker, _, n = name[:-4].split("_")
            self._items.append((os.path.join(self.dataset_dir, r), label, speaker, int(n)))
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["waveform", "sample_rate", "label", "speaker_id", "utterance_number"]

    def _fetch(self, idx):
        return self._wav_rows(idx, lambda it: (np.asarray(it[1]), np.asarray(it[2]), np.int32(it[3])))


class CMUArcticDataset(_WavSource):
    """CMU ARCTIC (``cmu_us_<name>_arctic/etc/txt.done.data`` and ``wav/arctic_<id>.wav``): columns waveform,
    sample_rate (uint32), transcript, utterance_id."""

    _NAMES = ("aew", "ahw", "aup", "awb", "axb", "bdl", "clb", "eey", "fem", "gka", "jmk", "ksp", "ljm", "lnh",
              "rms", "rxr", "slp", "slt")  # fmt: skip

    def __init__(self, dataset_dir, name=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        import re

        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.name = "aew" if name is None else name
        if self.name not in self._NAMES:
            raise ValueError(f"Input name is not within the valid set of {list(self._NAMES)}.")
        root = os.path.join(self.dataset_dir, f"cmu_us_{self.name}_arctic")
        meta = os.path.join(root, "etc", "txt.done.data")
        check_dataset_file(meta)
        with open(meta, encoding="utf-8") as f:
            found = [re.match(r'\(\s*(\S+)\s+"(.*)"\s*\)', ln.strip()) for ln in f if ln.strip()]
        self._items = [(os.path.join(root, "wav", m.group(1) + ".wav"), m.group(2), m.group(1).split("_", 1)[-1])
                       for m in found if m]  # fmt: skip
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["waveform", "sample_rate", "transcript", "utterance_id"]

    def _fetch(self, idx):
        out = self._wav_rows(idx, lambda it: (np.asarray(it[1]), np.asarray(it[2])))
        out[1] = out[1].astype(np.uint32)
        return out


__all__ += ["LJSpeechDataset", "SpeechCommandsDataset", "CMUArcticDataset"]
