"""Small helpers of the source tests (test_sources_detection/translation/audio_corpora): writing files of the real
layouts and reading a dataset's rows."""

import os

import numpy as np


def write_text(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def rows(dataset):
    return [[np.asarray(c) for c in r] for r in dataset.create_tuple_iterator(output_numpy=True)]
