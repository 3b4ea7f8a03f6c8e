"""Learns MindSpore 2.10's fixed GTZAN train/valid/test split lists by observation: writes a GTZAN tree holding
every ``<genre>.000NN.wav`` file (tiny 22050 Hz PCM files), asks MindSpore's GTZANDataset which files each usage
reads, and prints them as the compact per-genre ranges kept in sporax/dataset/engine/_gtzan_splits.py.

    (cd /tmp && /work/msvenv/bin/python <repo>/tools/make_ms_dataset_gtzan_splits.py /tmp/gtzan_tree)
"""

import os
import sys
import wave

import numpy as np

GENRES = ("blues", "classical", "country", "disco", "hiphop", "jazz", "metal", "pop", "reggae", "rock")


def build(root):
    for g in GENRES:
        os.makedirs(os.path.join(root, g), exist_ok=True)
        for i in range(100):
            with wave.open(os.path.join(root, g, f"{g}.{i:05d}.wav"), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(22050)
                w.writeframes(np.asarray([GENRES.index(g), i], "<i2").tobytes())


def ranges(ids):
    out, start = [], None
    for k, i in enumerate(ids):
        if start is None:
            start = i
        if k + 1 == len(ids) or ids[k + 1] != i + 1:
            out.append(f"{start}" if start == i else f"{start}-{i}")
            start = None
    return ",".join(out)


def main(root):
    import mindspore.dataset as ds

    build(root)
    for usage in ("train", "valid", "test"):
        d = ds.GTZANDataset(root, usage=usage, shuffle=False)
        order = []
        for wav, _, label in d.create_tuple_iterator(output_numpy=True):
            g = GENRES.index(str(label))
            assert round(float(wav[0, 0]) * 32767) == g
            order.append((g, round(float(wav[0, 1]) * 32767)))
        assert order == sorted(order)  # genre by genre, ids ascending
        per = {g: [i for gg, i in order if GENRES[gg] == g] for g in GENRES}
        print(f'    "{usage}": {{' + ", ".join(f'"{g}": "{ranges(v)}"' for g, v in per.items() if v) + "},")


if __name__ == "__main__":
    main(sys.argv[1])
