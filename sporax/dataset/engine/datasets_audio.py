"""Audio sources: :class:`YesNoDataset` (PCM WAV files read with the standard ``wave`` module)."""

from __future__ import annotations

import os
import wave

import numpy as np

from ..._checkparam import check_dataset_dir
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
