"""Make the MNIST subset shipped in ``sporax/data/mnist`` (what ``examples/lenet_mnist.py`` trains on by default).

    python tools/make_mnist_subset.py [--src ../shared/data/mnist] [--out sporax/data/mnist] [--train 6000] [--test 1000]

Reads the full MNIST (gzipped or raw IDX files in ``SRC/train`` and ``SRC/test``), takes a reproducible random
subset of each split (NumPy ``default_rng(0)``, kept in the original order), and writes gzipped IDX files with
MNIST's names (``train/train-images-idx3-ubyte.gz``...) plus a README with the dataset's attribution. The
gzip headers carry no time stamp or file name, so the output is byte-identical from run to run.
"""

from __future__ import annotations

import argparse
import gzip
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

FILES = {
    "train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
}

README = """# MNIST subset

A random subset of the MNIST database of handwritten digits: {n_train} of the 60,000 training images and
{n_test} of the 10,000 test images, with their labels, as gzipped IDX files under MNIST's file names
(`train/train-images-idx3-ubyte.gz`, `train/train-labels-idx1-ubyte.gz`, `test/t10k-images-idx3-ubyte.gz`,
`test/t10k-labels-idx1-ubyte.gz`). `examples/lenet_mnist.py` trains on it when no `--data-dir` is given.

MNIST is by Yann LeCun, Corinna Cortes and Christopher J.C. Burges (http://yann.lecun.com/exdb/mnist/),
licensed under the Creative Commons Attribution-Share Alike 3.0 license (CC BY-SA 3.0,
https://creativecommons.org/licenses/by-sa/3.0/). This subset is distributed under the same license.

Made by `tools/make_mnist_subset.py` (NumPy `default_rng(0)` picks the images; their order is kept).
"""


def _read(path: str) -> bytes:
    for candidate in (path, path + ".gz"):
        if os.path.exists(candidate):
            with open(candidate, "rb") as f:
                data = f.read()
            return gzip.decompress(data) if candidate.endswith(".gz") else data
    raise FileNotFoundError(f"MNIST file not found: {path}[.gz]")


def read_images(path: str) -> np.ndarray:
    data = _read(path)
    magic, n, h, w = struct.unpack(">IIII", data[:16])
    if magic != 2051:
        raise ValueError(f"{path}: not an IDX image file (magic {magic}).")
    return np.frombuffer(data, np.uint8, n * h * w, 16).reshape(n, h, w)


def read_labels(path: str) -> np.ndarray:
    data = _read(path)
    magic, n = struct.unpack(">II", data[:8])
    if magic != 2049:
        raise ValueError(f"{path}: not an IDX label file (magic {magic}).")
    return np.frombuffer(data, np.uint8, n, 8)


def _write_gz(path: str, payload: bytes) -> None:
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as f:
        f.write(payload)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", default=os.path.join(os.path.dirname(ROOT), "shared", "data", "mnist"))
    parser.add_argument("--out", default=os.path.join(ROOT, "sporax", "data", "mnist"))
    parser.add_argument("--train", type=int, default=6000)
    parser.add_argument("--test", type=int, default=1000)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    for split, n in (("train", args.train), ("test", args.test)):
        img_name, lbl_name = FILES[split]
        images = read_images(os.path.join(args.src, split, img_name))
        labels = read_labels(os.path.join(args.src, split, lbl_name))
        keep = np.sort(rng.choice(len(images), size=n, replace=False))
        images, labels = images[keep], labels[keep]
        out = os.path.join(args.out, split)
        os.makedirs(out, exist_ok=True)
        _write_gz(os.path.join(out, img_name + ".gz"), struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
        _write_gz(os.path.join(out, lbl_name + ".gz"), struct.pack(">II", 2049, n) + labels.tobytes())
        print(f"{split}: {n} images, labels per class {np.bincount(labels, minlength=10).tolist()}")
    with open(os.path.join(args.out, "README.md"), "w") as f:
        f.write(README.format(n_train=args.train, n_test=args.test))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
