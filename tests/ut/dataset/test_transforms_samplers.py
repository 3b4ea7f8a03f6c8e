"""Transforms against MindSpore 2.10's outputs (fixtures/ms_reference.npz) and NumPy; samplers and sharding."""

import os

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
import sporax.dataset.transforms as C
import sporax.dataset.vision as CV
from sporax.common import dtype as mstype
from sporax.dataset.vision import Inter

from .conftest import MNIST_REAL


def test_seed_pipeline_equals_mindspore(ms_ref):
    """s001's create_dataset (unshuffled) on the first 64 real MNIST test images: bit-identical to MindSpore."""
    if not os.path.isdir(MNIST_REAL):
        pytest.skip("no real MNIST")
    d = ds.MnistDataset(os.path.join(MNIST_REAL, "test"), usage="test", shuffle=False, num_samples=64)
    d = d.map(input_columns="label", operations=C.TypeCast(mstype.int32), num_parallel_workers=2)
    d = d.map(input_columns="image", operations=CV.Resize((32, 32), interpolation=Inter.LINEAR), num_parallel_workers=2)
    d = d.map(input_columns="image", operations=CV.Rescale(1.0 / 255.0, 0.0), num_parallel_workers=2)
    d = d.map(input_columns="image", operations=CV.Rescale(1 / 0.3081, -1 * 0.1307 / 0.3081), num_parallel_workers=2)
    d = d.map(input_columns="image", operations=CV.HWC2CHW(), num_parallel_workers=2)
    d = d.batch(32, drop_remainder=True)
    out = list(d.create_tuple_iterator())
    assert out[0][0].dtype == ms.float32 and out[0][0].shape == (32, 1, 32, 32) and out[0][1].dtype == ms.int32
    np.testing.assert_array_equal(np.concatenate([x[0].asnumpy() for x in out]), ms_ref["seed_images"])
    np.testing.assert_array_equal(np.concatenate([x[1].asnumpy() for x in out]), ms_ref["seed_labels"])


@pytest.mark.parametrize("mode", ["NEAREST", "BILINEAR", "AREA", "PILCUBIC"])
def test_resize_modes_equal_mindspore(ms_ref, mode):
    rgb, gray = ms_ref["rgb"], ms_ref["mnist_images"][:4]
    for key in ms_ref.files:
        if not key.startswith(f"resize_{mode}_"):
            continue
        size = key.split("_")[2]
        size = int(size) if "x" not in size else tuple(int(s) for s in size.split("x"))
        op = CV.Resize(size, Inter[mode])
        if key.endswith("_rgb"):
            np.testing.assert_array_equal(op(rgb), ms_ref[key])
        else:
            np.testing.assert_array_equal(np.stack([op(g) for g in gray]), ms_ref[key])
            if mode != "PILCUBIC":
                np.testing.assert_array_equal(op._apply_batch(gray), ms_ref[key])


def test_resize_int_size_shapes(ms_ref):
    got = [CV.Resize(8)(np.zeros(s, np.uint8)).shape[:2] for s in ((20, 30, 3), (7, 13, 3), (13, 7, 3), (10, 10, 3))]
    assert np.array_equal(np.array(got), ms_ref["resize_int_shapes"])


def test_cubic_close_to_mindspore(ms_ref):
    # OpenCV 5's bicubic rounds a few pixels differently from MindSpore's bundled OpenCV 4: at most 1 apart
    out = CV.Resize((32, 32), Inter.BICUBIC)(ms_ref["rgb"])
    assert np.abs(out.astype(int) - ms_ref["resize_BICUBIC_32x32_rgb"].astype(int)).max() <= 1


@pytest.mark.parametrize(
    "key,op",
    [
        ("rescale_u8", lambda: CV.Rescale(1 / 255.0, -0.5)),
        ("normalize_u8", lambda: CV.Normalize([121.0, 115.0, 100.0], [70.0, 68.0, 71.0])),
        ("centercrop_5x8", lambda: CV.CenterCrop((5, 8))),
        ("centercrop_20", lambda: CV.CenterCrop(20)),
        ("pad_1234", lambda: CV.Pad([1, 2, 3, 4], fill_value=7)),
        ("pad_reflect", lambda: CV.Pad(2, padding_mode=CV.Border.REFLECT)),
        ("pad_symmetric", lambda: CV.Pad(2, padding_mode=CV.Border.SYMMETRIC)),
        ("pad_edge", lambda: CV.Pad(2, padding_mode=CV.Border.EDGE)),
        ("hflip", lambda: CV.HorizontalFlip()),
        ("convert_rgb2gray", lambda: CV.ConvertColor(CV.ConvertMode.COLOR_RGB2GRAY)),
        ("totensor", lambda: CV.ToTensor()),
    ],
)
def test_vision_ops_equal_mindspore(ms_ref, key, op):
    out = op()(ms_ref["rgb"])
    assert out.dtype == ms_ref[key].dtype
    np.testing.assert_array_equal(out, ms_ref[key])


def test_normalize_chw_and_onehot(ms_ref):
    chw = (ms_ref["rgb"] / 255.0).astype(np.float32).transpose(2, 0, 1)
    np.testing.assert_array_equal(
        CV.Normalize([0.5, 0.4, 0.3], [0.2, 0.3, 0.4], is_hwc=False)(chw), ms_ref["normalize_f32_chw"]
    )
    np.testing.assert_array_equal(C.OneHot(5)(np.array([0, 3, 4])), ms_ref["onehot"])


def test_general_transforms():
    x = np.array([1, 2, 3], np.int64)
    assert C.TypeCast(mstype.float16)(x).dtype == np.float16
    assert C.TypeCast(np.int8)(x).dtype == np.int8
    np.testing.assert_array_equal(C.Fill(7)(x), [7, 7, 7])
    np.testing.assert_array_equal(C.Concatenate(0, np.array([0]), np.array([9]))(x), [0, 1, 2, 3, 9])
    a, b = C.Duplicate()(x)
    assert a is not b and np.array_equal(a, b)
    np.testing.assert_array_equal(C.Mask(C.Relational.GT, 1)(x), [False, True, True])
    np.testing.assert_array_equal(C.Slice(slice(0, 2))(x), [1, 2])
    np.testing.assert_array_equal(C.PadEnd([5], 0)(x), [1, 2, 3, 0, 0])
    np.testing.assert_array_equal(C.Compose([C.TypeCast(mstype.float32), lambda v: v * 2])(x), [2.0, 4.0, 6.0])
    vals, idx, cnt = C.Unique()(np.array([5, 1, 5, 2]))
    assert vals.tolist() == [5, 1, 2] and idx.tolist() == [0, 1, 0, 2] and cnt.tolist() == [2, 1, 1]
    ds.config.set_seed(0)
    assert C.RandomChoice([lambda v: v + 1, lambda v: v + 2])(x)[0] in (2, 3)
    np.testing.assert_array_equal(C.RandomApply([lambda v: v + 1], prob=1.0)(x), x + 1)
    np.testing.assert_array_equal(C.RandomOrder([lambda v: v + 1, lambda v: v * 1])(x), x + 1)


def test_random_vision_ops_shapes_and_seed():
    img = np.random.default_rng(0).integers(0, 256, (20, 24, 3), dtype=np.uint8)
    ds.config.set_seed(5)
    a = CV.RandomCrop(10, padding=2)(img)
    ds.config.set_seed(5)
    assert np.array_equal(a, CV.RandomCrop(10, padding=2)(img)) and a.shape == (10, 10, 3)
    assert CV.RandomResizedCrop((8, 9))(img).shape == (8, 9, 3)
    f = CV.RandomHorizontalFlip(1.0)(img)
    np.testing.assert_array_equal(f, img[:, ::-1])
    np.testing.assert_array_equal(CV.RandomVerticalFlip(1.0)(img), img[::-1])
    assert CV.RandomRotation(30)(img).shape == img.shape
    assert CV.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)(img).shape == img.shape
    np.testing.assert_array_equal(CV.RandomColorAdjust()(img), img)
    g = CV.Grayscale()(img)
    assert g.shape == (20, 24, 1)
    assert CV.HWC2CHW()(img).shape == (3, 20, 24) and CV.HWC2CHW()(img[..., 0]).shape == (20, 24)
    np.testing.assert_array_equal(CV.Crop((1, 2), (3, 4))(img), img[1:4, 2:6])
    np.testing.assert_array_equal(CV.Invert()(img), 255 - img)
    with pytest.raises(RuntimeError, match="rank"):
        CV.Resize(4)(np.zeros(5, np.uint8))


def test_decode_png_and_pil_paths():
    import cv2
    from PIL import Image

    img = np.random.default_rng(1).integers(0, 256, (6, 7, 3), dtype=np.uint8)
    ok, enc = cv2.imencode(".png", img[..., ::-1])
    np.testing.assert_array_equal(CV.Decode()(enc.reshape(-1)), img)
    pil = CV.Decode(to_pil=True)(enc.reshape(-1))
    assert isinstance(pil, Image.Image) and CV.Resize((3, 4))(pil).size == (4, 3)
    from sporax.dataset.vision import py_transforms

    t = py_transforms.ToTensor()(py_transforms.Decode()(enc.reshape(-1)))
    assert t.shape == (3, 6, 7) and t.dtype == np.float32
    with pytest.raises(RuntimeError, match="Decode"):
        CV.Decode()(np.frombuffer(b"nope", np.uint8))


def test_alias_modules():
    import sporax.dataset.transforms.c_transforms as CT
    import sporax.dataset.transforms.py_transforms as PT
    import sporax.dataset.vision.c_transforms as CVc
    from sporax.dataset.vision.utils import Inter as Inter2

    assert CVc.Resize is CV.Resize and CT.TypeCast is C.TypeCast and PT.Compose is C.Compose
    assert Inter2 is Inter and CVc.Inter.LINEAR == Inter.BILINEAR == 2


# ---------------------------------------------------------------- samplers and sharding
def ids(d):
    return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]


def src(n, **kw):
    return ds.NumpySlicesDataset({"x": np.arange(n)}, **kw)


def test_sharding_equals_mindspore(ms_ref):
    for key in ms_ref.files:
        if key.startswith("shard_"):
            _, n, shards, sid = (int(v) if v.isdigit() else v for v in key.split("_"))
            assert ids(src(n, num_shards=shards, shard_id=sid, shuffle=False)) == ms_ref[key].tolist(), key


@pytest.mark.parametrize("n,shards", [(10, 3), (12, 4), (7, 7), (3, 5), (100, 8)])
def test_shards_disjoint_covering_equal_size(n, shards):
    per = -(-n // shards)
    all_ids = []
    for sid in range(shards):
        got = ids(src(n, num_shards=shards, shard_id=sid))  # shuffled: same permutation on every shard
        assert len(got) == per == src(n, num_shards=shards, shard_id=sid).get_dataset_size()
        all_ids += got
    assert set(all_ids) == set(range(n))
    if n % shards == 0:
        assert sorted(all_ids) == list(range(n))
    else:
        assert len(all_ids) - n == per * shards - n  # only the wrapped-around rows repeat


def test_samplers():
    assert ids(src(6, sampler=ds.SequentialSampler(start_index=2, num_samples=3))) == [2, 3, 4]
    ds.config.set_seed(2)
    r = ids(src(8, sampler=ds.RandomSampler()))
    assert sorted(r) == list(range(8)) and r != list(range(8))
    assert len(ids(src(8, sampler=ds.RandomSampler(replacement=True, num_samples=20)))) == 20
    assert ids(src(8, sampler=ds.SubsetSampler([5, 1, 1]))) == [5, 1, 1]
    assert sorted(ids(src(8, sampler=ds.SubsetRandomSampler([5, 1, 3])))) == [1, 3, 5]
    w = ids(src(4, sampler=ds.WeightedRandomSampler([0, 0, 1, 0], num_samples=5)))
    assert w == [2] * 5
    d = src(10, sampler=ds.DistributedSampler(3, 1, shuffle=False))
    assert ids(d) == [1, 4, 7, 0] and d.get_dataset_size() == 4
    with pytest.raises(RuntimeError, match="Invalid sampler index"):
        ids(src(3, sampler=ds.SubsetSampler([4])))
    with pytest.raises(ValueError, match="^Conflicting arguments during sampler assignments"):  # as MindSpore
        src(3, sampler=ds.SequentialSampler(), shuffle=True)

    class Evens(ds.Sampler):
        def __iter__(self):
            return iter(range(0, self.dataset_size, 2))

    assert ids(src(7, sampler=Evens())) == [0, 2, 4, 6]
    assert ids(ds.GeneratorDataset([np.array(i) for i in range(5)], ["x"], sampler=[4, 0])) == [4, 0]


def test_pk_sampler(mnist_dir):
    path = mnist_dir[0]
    d = ds.MnistDataset(path, usage="train", sampler=ds.PKSampler(2))
    labels = [int(r[1]) for r in d.create_tuple_iterator(output_numpy=True)]
    assert labels == [c for c in range(10) for _ in range(2)]


def test_rotate_matches_mindspore(ms_ref):
    rgb, gray = ms_ref["rgb"], ms_ref["mnist_images"][0]
    frgb = (rgb / 255.0).astype(np.float32)
    n = 0
    for deg in (30, -45, 90, 17.3):
        for mode in (Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA):
            for expand in (False, True):
                key = f"rot_{deg}_{mode.name}_{int(expand)}"
                for suffix, img in (("_rgb", rgb), ("_gray", gray)):
                    out = CV.Rotate(deg, mode, expand=expand)(img)
                    assert out.dtype == np.uint8
                    np.testing.assert_array_equal(out, ms_ref[key + suffix], err_msg=key + suffix)
                    n += 1
                out = CV.Rotate(deg, mode, expand=expand)(frgb)
                np.testing.assert_allclose(out, ms_ref[key + "_f32"], rtol=0, atol=2e-6, err_msg=key)
        out = CV.Rotate(deg, Inter.BILINEAR, True, (3, 4), (10, 20, 30))(rgb)
        np.testing.assert_array_equal(out, ms_ref[f"rot_{deg}_center_fill_rgb"])
        out = CV.Rotate(deg, Inter.NEAREST, False, (3, 4), (10, 20, 30))(gray)
        np.testing.assert_array_equal(out, ms_ref[f"rot_{deg}_center_fill_gray"])
    assert n == 64
    assert CV.Rotate(30, Inter.BILINEAR, expand=True)(rgb).shape == (20, 21, 3)
    np.testing.assert_array_equal(CV.Rotate(30)(rgb), ms_ref["rotate_30"])
    np.testing.assert_array_equal(CV.Rotate(30, Inter.BILINEAR, expand=True)(rgb), ms_ref["rotate_30_expand_linear"])
    # RandomRotation over a one-angle range is that rotation
    np.testing.assert_array_equal(CV.RandomRotation((30, 30))(rgb), ms_ref["rotate_30"])
    out = CV.RandomRotation((17.3, 17.3), Inter.BICUBIC, expand=True)(gray)
    np.testing.assert_array_equal(out, ms_ref["rot_17.3_BICUBIC_1_gray"])
