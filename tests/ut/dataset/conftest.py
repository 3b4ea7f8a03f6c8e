"""Fixtures of the dataset tests: small MNIST/CIFAR files in their real layouts, the MindSpore reference."""

import gzip
import os
import struct

import numpy as np
import pytest

import sporax.dataset as ds

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
MNIST_REAL = "/work/shared/data/mnist"


@pytest.fixture(autouse=True)
def _dataset_config():
    seed, workers, prefetch = (
        ds.config._state["seed"],
        ds.config.get_num_parallel_workers(),
        ds.config.get_prefetch_size(),
    )
    yield
    ds.config._state["seed"] = seed
    ds.config.set_num_parallel_workers(workers)
    ds.config.set_prefetch_size(prefetch)


@pytest.fixture(scope="session")
def ms_ref():
    return np.load(os.path.join(FIXTURES, "ms_reference.npz"))


def write_idx(folder, prefix, images, labels, gz=False):
    os.makedirs(folder, exist_ok=True)
    im = struct.pack(">IIII", 2051, len(images), 28, 28) + np.asarray(images, np.uint8).tobytes()
    lb = struct.pack(">II", 2049, len(labels)) + np.asarray(labels, np.uint8).tobytes()
    for name, data in ((f"{prefix}-images-idx3-ubyte", im), (f"{prefix}-labels-idx1-ubyte", lb)):
        path = os.path.join(folder, name + (".gz" if gz else ""))
        with open(path, "wb") as f:
            f.write(gzip.compress(data) if gz else data)


@pytest.fixture
def mnist_dir(tmp_path):
    rng = np.random.default_rng(0)
    train = rng.integers(0, 256, (40, 28, 28), dtype=np.uint8)
    test = rng.integers(0, 256, (10, 28, 28), dtype=np.uint8)
    write_idx(str(tmp_path), "train", train, np.arange(40) % 10)
    write_idx(str(tmp_path), "t10k", test, (np.arange(10) + 3) % 10)
    return str(tmp_path), train, test
