"""Write the reference arrays of tests/ut/dataset from real MindSpore 2.10 (CPU).

Run under the MindSpore venv:  /work/ms-venv/bin/python tools/make_ms_dataset_reference.py [MNIST_DIR]
MNIST_DIR holds the gzipped IDX files (default ../shared/data/mnist); the first 64 test images are used.
Writes tests/ut/dataset/fixtures/ms_reference.npz; the tests only read that file.
"""

import gzip
import os
import shutil
import sys
import tempfile

import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.transforms as C
import mindspore.dataset.vision as CV
import numpy as np
from mindspore.common import dtype as mstype
from mindspore.dataset.vision import Inter

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "ut", "dataset", "fixtures", "ms_reference.npz")
N = 64


def seed_pipeline(path):
    """s001's create_dataset without its shuffle, on the first N test images."""
    d = ds.MnistDataset(path, usage="test", shuffle=False, num_samples=N)
    d = d.map(input_columns="label", operations=C.TypeCast(mstype.int32))
    d = d.map(input_columns="image", operations=CV.Resize((32, 32), interpolation=Inter.LINEAR))
    d = d.map(input_columns="image", operations=CV.Rescale(1.0 / 255.0, 0.0))
    d = d.map(input_columns="image", operations=CV.Rescale(1 / 0.3081, -1 * 0.1307 / 0.3081))
    d = d.map(input_columns="image", operations=CV.HWC2CHW())
    d = d.batch(32, drop_remainder=True)
    imgs, labels = zip(*[(a, b) for a, b in d.create_tuple_iterator(output_numpy=True)])
    return np.concatenate(imgs), np.concatenate(labels)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "shared", "data", "mnist")
    tmp = tempfile.mkdtemp()
    try:
        for name in ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):
            with gzip.open(os.path.join(src, "test", name + ".gz")) as f, open(os.path.join(tmp, name), "wb") as g:
                shutil.copyfileobj(f, g)
        ref = {}
        raw = list(
            ds.MnistDataset(tmp, usage="test", shuffle=False, num_samples=N).create_tuple_iterator(output_numpy=True)
        )
        ref["mnist_images"] = np.stack([r[0] for r in raw])
        ref["mnist_labels"] = np.stack([r[1] for r in raw])
        ref["seed_images"], ref["seed_labels"] = seed_pipeline(tmp)
    finally:
        shutil.rmtree(tmp)
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, (13, 17, 3)).astype(np.uint8)
    gray = ref["mnist_images"][:4]
    ref["rgb"] = rgb
    for mode in (Inter.NEAREST, Inter.LINEAR, Inter.CUBIC, Inter.AREA, Inter.PILCUBIC, Inter.ANTIALIAS):
        for size in ((32, 32), (9, 11), 20):
            key = f"resize_{mode.name}_{size if isinstance(size, int) else f'{size[0]}x{size[1]}'}"
            try:
                ref[key + "_rgb"] = CV.Resize(size, mode)(rgb)
            except Exception as e:  # noqa: BLE001
                print("skip", key, "rgb:", str(e).splitlines()[0])
            try:
                ref[key + "_gray"] = np.stack([CV.Resize(size, mode)(g) for g in gray])
            except Exception as e:  # noqa: BLE001
                print("skip", key, "gray:", str(e).splitlines()[0])
    ref["resize_int_shapes"] = np.array(
        [CV.Resize(8)(np.zeros(s, np.uint8)).shape[:2] for s in ((20, 30, 3), (7, 13, 3), (13, 7, 3), (10, 10, 3))]
    )
    ref["rescale_u8"] = CV.Rescale(1 / 255.0, -0.5)(rgb)
    ref["normalize_u8"] = CV.Normalize([121.0, 115.0, 100.0], [70.0, 68.0, 71.0])(rgb)
    ref["normalize_f32_chw"] = CV.Normalize([0.5, 0.4, 0.3], [0.2, 0.3, 0.4], is_hwc=False)(
        (rgb / 255.0).astype(np.float32).transpose(2, 0, 1)
    )
    ref["centercrop_5x8"] = CV.CenterCrop((5, 8))(rgb)
    ref["centercrop_20"] = CV.CenterCrop(20)(rgb)
    ref["pad_1234"] = CV.Pad([1, 2, 3, 4], fill_value=7)(rgb)
    ref["pad_reflect"] = CV.Pad(2, padding_mode=CV.Border.REFLECT)(rgb)
    ref["pad_symmetric"] = CV.Pad(2, padding_mode=CV.Border.SYMMETRIC)(rgb)
    ref["pad_edge"] = CV.Pad(2, padding_mode=CV.Border.EDGE)(rgb)
    ref["rotate_30"] = CV.Rotate(30)(rgb)
    ref["rotate_30_expand_linear"] = CV.Rotate(30, Inter.BILINEAR, expand=True)(rgb)
    # Rotate: every interpolation, expand, centre and fill, on RGB, grey HW1 and float images
    gray28 = ref["mnist_images"][0]
    frgb = (rgb / 255.0).astype(np.float32)
    for deg in (30, -45, 90, 17.3):
        for mode in (Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA):
            for expand in (False, True):
                key = f"rot_{deg}_{mode.name}_{int(expand)}"
                ref[key + "_rgb"] = CV.Rotate(deg, mode, expand=expand)(rgb)
                ref[key + "_gray"] = CV.Rotate(deg, mode, expand=expand)(gray28)
                ref[key + "_f32"] = CV.Rotate(deg, mode, expand=expand)(frgb)
        ref[f"rot_{deg}_center_fill_rgb"] = CV.Rotate(deg, Inter.BILINEAR, True, (3, 4), (10, 20, 30))(rgb)
        ref[f"rot_{deg}_center_fill_gray"] = CV.Rotate(deg, Inter.NEAREST, False, (3, 4), (10, 20, 30))(gray28)
    ref["hflip"] = CV.HorizontalFlip()(rgb)
    ref["onehot"] = C.OneHot(5)(np.array([0, 3, 4]))
    ref["convert_rgb2gray"] = CV.ConvertColor(CV.ConvertMode.COLOR_RGB2GRAY)(rgb)
    ref["totensor"] = CV.ToTensor()(rgb)
    # sharding of 10 and 7 rows (unshuffled): shard -> row ids
    for n, shards in ((10, 3), (7, 4), (5, 5), (3, 4)):
        for sid in range(shards):
            d = ds.GeneratorDataset(
                [(np.array(i),) for i in range(n)], ["x"], num_shards=shards, shard_id=sid, shuffle=False
            )
            ref[f"shard_{n}_{shards}_{sid}"] = np.array(
                [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)], np.int64
            )
    # map column placement
    d = ds.NumpySlicesDataset({"a": np.arange(4), "b": np.arange(4) * 10, "c": np.arange(4) * 100}, shuffle=False)
    ref["map_cols_b_xy"] = np.array(
        d.map(lambda b: (b, b), input_columns=["b"], output_columns=["x", "y"]).get_col_names()
    )
    np.savez_compressed(OUT, ms_version=np.array(ms.__version__), **ref)
    print("wrote", os.path.normpath(OUT), len(ref), "arrays, MindSpore", ms.__version__)


if __name__ == "__main__":
    main()
