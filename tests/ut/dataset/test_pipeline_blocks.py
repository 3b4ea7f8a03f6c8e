"""The image-file sources' block size and the warp map cache (the ImageNet-style pipeline's speed work):
outputs do not depend on the worker count, and cached warps equal the uncached arithmetic."""

import cv2
import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.vision as CV
from sporax.dataset.engine import _block, datasets_image_folders, datasets_vision
from sporax.dataset.vision import _warp


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("imgs")
    g = np.random.default_rng(0)
    for i in range(40):
        d = root / f"c{i % 2}"
        d.mkdir(exist_ok=True)
        img = g.integers(0, 256, (24 + i % 3, 30, 3), dtype=np.uint8)
        cv2.imwrite(str(d / f"{i:03d}.jpg"), img)
    return str(root)


def test_image_file_sources_use_file_blocks():
    assert _block.FILE_BLOCK_ROWS == 32 < _block.BLOCK_ROWS
    for cls in (datasets_image_folders.ImageFolderDataset, datasets_vision.CocoDataset, datasets_vision.VOCDataset):
        assert cls._block_rows == _block.FILE_BLOCK_ROWS
    assert datasets_vision.MnistDataset._block_rows == _block.BLOCK_ROWS


def _augmented(folder, workers, epochs=2):
    ds.config.set_seed(5)
    d = ds.ImageFolderDataset(folder, num_parallel_workers=workers, shuffle=True)
    ops = [
        CV.RandomCropDecodeResize(16, scale=(0.3, 1.0)),
        CV.RandomHorizontalFlip(),
        CV.RandAugment(num_ops=2, magnitude=9),
        CV.Normalize(mean=[120.0, 110.0, 100.0], std=[60.0, 50.0, 40.0]),
        CV.HWC2CHW(),
    ]
    d = d.map(operations=ops, input_columns="image", num_parallel_workers=workers).batch(8, drop_remainder=True)
    it = d.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    return [[(img.copy(), lab.copy()) for img, lab in it] for _ in range(epochs)]


def test_augmented_folder_same_for_any_worker_count(folder):
    one, two, three = (_augmented(folder, w) for w in (1, 2, 3))
    assert len(one) == 2 and len(one[0]) == 5
    for a, b, c in zip(one, two, three):
        for (ia, la), (ib, lb), (ic, lc) in zip(a, b, c):
            assert ia.shape == (8, 3, 16, 16) and ia.dtype == np.float32
            np.testing.assert_array_equal(ia, ib)
            np.testing.assert_array_equal(ia, ic)
            np.testing.assert_array_equal(la, lb)
            np.testing.assert_array_equal(la, lc)
    # the two epochs draw differently
    assert not np.array_equal(one[0][0][0], one[1][0][0])


@pytest.mark.parametrize("kind", [_warp.NEAREST, _warp.LINEAR])
def test_cached_warp_maps_equal_numpy_arithmetic(kind, monkeypatch):
    g = np.random.default_rng(1)
    img = g.integers(0, 256, (40, 36, 3), dtype=np.uint8)
    mats = [
        np.array([[1.0, 0.3, -5.0], [0.0, 1.0, 0.0]]),  # shear
        np.array([[1.0, 0.0, 7.0], [0.0, 1.0, -3.0]]),  # translate
        _warp.rotation_matrix(17.5, 19.5, 30.0),
    ]
    fill = [10.0, 20.0, 30.0]
    _warp._affine_maps.cache_clear()
    first = [_warp.warp_affine(img, m, 36, 40, kind, fill) for m in mats]
    again = [_warp.warp_affine(img, m, 36, 40, kind, fill) for m in mats]  # from the cache
    assert _warp._affine_maps.cache_info().hits >= len(mats)
    for m in mats:
        maps = _warp._affine_maps(*_inv_key(m), kind)
        assert not any(a.flags.writeable for a in maps)
    gray = _warp.warp_affine(img[..., 0], mats[2], 36, 40, kind, [5.0])
    # the same warps through the NumPy interpolation (OpenCV 4's arithmetic, no remap)
    monkeypatch.setattr(_warp, "_remap_ok", lambda src, k: False)
    for m, a, b in zip(mats, first, again):
        ref = _warp.warp_affine(img, m, 36, 40, kind, fill)
        np.testing.assert_array_equal(a, ref)
        np.testing.assert_array_equal(b, ref)
    np.testing.assert_array_equal(gray, _warp.warp_affine(img[..., 0], mats[2], 36, 40, kind, [5.0]))


def _inv_key(M):
    m = np.asarray(M, np.float64).reshape(-1)
    d = 1.0 / (m[0] * m[4] - m[1] * m[3])
    a11, a22, m1, m3 = m[4] * d, m[0] * d, -m[1] * d, -m[3] * d
    inv = (a11, m1, -a11 * m[2] - m1 * m[5], m3, a22, -m3 * m[2] - a22 * m[5])
    return tuple(float(v) for v in inv), 36, 40
