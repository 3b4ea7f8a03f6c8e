"""Sources: GeneratorDataset, NumpySlicesDataset, MnistDataset, Cifar10/100Dataset, ImageFolderDataset."""

import os

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
from sporax.common.tensor import Tensor

from .conftest import MNIST_REAL, write_idx


def rows(d, **kw):
    return [list(r) for r in d.create_tuple_iterator(output_numpy=True, **kw)]


class RandomAccess:
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return np.full((2,), i, np.int32), np.array(i * 10)

    def __len__(self):
        return self.n


def test_generator_random_access_iterable_and_function():
    d = ds.GeneratorDataset(RandomAccess(5), ["a", "b"], shuffle=False)
    assert d.get_dataset_size() == 5 and d.get_col_names() == ["a", "b"]
    r = rows(d)
    assert [int(x[1]) for x in r] == [0, 10, 20, 30, 40]
    assert r[2][0].dtype == np.int32 and r[2][0].tolist() == [2, 2]

    def gen():
        for i in range(7):
            yield (np.array([i, i]),)

    g = ds.GeneratorDataset(gen, ["x"])
    assert [x[0].tolist() for x in rows(g)] == [[i, i] for i in range(7)]
    assert len(rows(g)) == 7
    assert g.get_dataset_size() == 7
    it = ds.GeneratorDataset(iter_obj(), ["x"])
    assert [int(x[0]) for x in rows(it)] == [0, 1, 2]


class iter_obj:
    def __iter__(self):
        return iter([np.array(0), np.array(1), np.array(2)])


def test_generator_python_values_types():
    d = ds.GeneratorDataset([(1.5, 2, True)], ["f", "i", "b"])
    r = next(d.create_tuple_iterator(output_numpy=True))
    assert [x.dtype for x in r] == [np.float64, np.int64, np.bool_]
    t = next(d.create_tuple_iterator())
    assert isinstance(t, list) and all(isinstance(x, Tensor) for x in t)
    assert t[0].dtype == ms.float64 and t[1].dtype == ms.int64


def test_generator_column_types_and_num_samples():
    d = ds.GeneratorDataset(
        RandomAccess(10), ["a", "b"], column_types=[ms.float32, ms.int32], shuffle=False, num_samples=4
    )
    r = rows(d)
    assert len(r) == 4 and d.get_dataset_size() == 4
    assert r[0][0].dtype == np.float32 and r[0][1].dtype == np.int32


def test_generator_shuffle_is_seeded():
    ds.config.set_seed(7)
    a = [int(x[1]) for x in rows(ds.GeneratorDataset(RandomAccess(20), ["a", "b"]))]
    ds.config.set_seed(7)
    b = [int(x[1]) for x in rows(ds.GeneratorDataset(RandomAccess(20), ["a", "b"]))]
    assert a == b and sorted(a) == [i * 10 for i in range(20)] and a != sorted(a)


def test_generator_wrong_column_count():
    def gen():
        yield np.array(1), np.array(2), np.array(3)

    with pytest.raises(RuntimeError, match="size of column_names is:2 and number of returned NumPy array is:3"):
        rows(ds.GeneratorDataset(gen, ["a", "b"]))


def test_generator_user_error_names_user_line():
    class Bad:
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return undefined_name  # noqa: F821

    with pytest.raises(RuntimeError) as e:
        rows(ds.GeneratorDataset(Bad(), ["x"]))
    msg = str(e.value)
    assert "Exception thrown from user defined Python function in dataset" in msg
    assert "NameError: name 'undefined_name' is not defined" in msg
    assert f'File "{__file__}"' in msg and "in __getitem__" in msg


def test_generator_errors():
    with pytest.raises(ValueError, match="column"):
        ds.GeneratorDataset(RandomAccess(3))
    with pytest.raises(TypeError):
        ds.GeneratorDataset(5, ["x"])
    with pytest.raises(ValueError):
        ds.GeneratorDataset(iter_obj(), ["x"], shuffle=True)


def test_numpy_slices_forms():
    d = ds.NumpySlicesDataset({"a": np.arange(6), "b": np.arange(12).reshape(6, 2)}, shuffle=False)
    assert d.get_col_names() == ["a", "b"]
    r = rows(d)
    assert r[3][0] == 3 and r[3][1].tolist() == [6, 7]
    assert ds.NumpySlicesDataset([1, 2, 3]).get_col_names() == ["column_0"]
    assert ds.NumpySlicesDataset((np.zeros((3, 2)), np.ones(3))).get_col_names() == ["column_0", "column_1"]
    d = ds.NumpySlicesDataset(np.arange(5), column_names=["x"], shuffle=False)
    assert [int(x[0]) for x in rows(d)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError):
        ds.NumpySlicesDataset({"a": np.arange(3), "b": np.arange(4)})


def test_mnist_layout_usage_and_gz(mnist_dir, tmp_path):
    path, train, test = mnist_dir
    d = ds.MnistDataset(path, usage="train", shuffle=False)
    r = rows(d)
    assert len(r) == 40 and d.get_col_names() == ["image", "label"]
    assert (
        r[0][0].dtype == np.uint8
        and r[0][0].shape == (28, 28, 1)
        and r[0][1].dtype == np.uint32
        and r[0][1].shape == ()
    )
    np.testing.assert_array_equal(r[5][0][..., 0], train[5])
    assert [int(x[1]) for x in rows(ds.MnistDataset(path, usage="test", shuffle=False))] == list(
        (np.arange(10) + 3) % 10
    )
    # 'all' reads t10k before train, as MindSpore does
    allr = rows(ds.MnistDataset(path, shuffle=False))
    assert len(allr) == 50
    np.testing.assert_array_equal(allr[0][0][..., 0], test[0])
    np.testing.assert_array_equal(allr[10][0][..., 0], train[0])
    gz = tmp_path / "gz"
    write_idx(str(gz), "train", train, np.arange(40) % 10, gz=True)
    np.testing.assert_array_equal(rows(ds.MnistDataset(str(gz), "train", shuffle=False))[7][0], r[7][0])
    t = next(ds.MnistDataset(path, "train", shuffle=False).create_tuple_iterator())
    assert t[1].dtype == ms.uint32


def test_mnist_real_matches_mindspore(ms_ref):
    if not os.path.isdir(MNIST_REAL):
        pytest.skip("no real MNIST")
    d = ds.MnistDataset(os.path.join(MNIST_REAL, "test"), usage="test", shuffle=False, num_samples=64)
    r = rows(d)
    np.testing.assert_array_equal(np.stack([x[0] for x in r]), ms_ref["mnist_images"])
    np.testing.assert_array_equal(np.stack([x[1] for x in r]), ms_ref["mnist_labels"])


def test_mnist_errors(tmp_path, mnist_dir):
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.MnistDataset(str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="usage"):
        ds.MnistDataset(mnist_dir[0], usage="val")
    bad = tmp_path / "trunc"
    write_idx(str(bad), "t10k", np.zeros((3, 28, 28)), [1, 2, 3])
    with open(bad / "t10k-images-idx3-ubyte", "r+b") as f:
        f.truncate(100)
    with pytest.raises(RuntimeError, match="truncated data length"):
        rows(ds.MnistDataset(str(bad), usage="test"))
    with open(bad / "t10k-images-idx3-ubyte", "wb") as f:
        f.write(b"\x00\x00\x00\x01" + bytes(20))
    with pytest.raises(RuntimeError, match="magic number"):
        rows(ds.MnistDataset(str(bad), usage="test"))
    os.remove(bad / "t10k-labels-idx1-ubyte")
    with pytest.raises(RuntimeError, match="failed to find mnist file"):
        ds.MnistDataset(str(bad), usage="test").get_dataset_size()
    gzbad = tmp_path / "gzbad"
    gzbad.mkdir()
    (gzbad / "train-images-idx3-ubyte.gz").write_bytes(b"not gzip")
    (gzbad / "train-labels-idx1-ubyte.gz").write_bytes(b"not gzip")
    with pytest.raises(RuntimeError, match="decompress"):
        rows(ds.MnistDataset(str(gzbad), usage="train"))


def _cifar_files(folder, n_per_file, labels_per_rec, names):
    rng = np.random.default_rng(1)
    os.makedirs(folder, exist_ok=True)
    out = {}
    for k, name in enumerate(names):
        lab = rng.integers(0, 10, (n_per_file, labels_per_rec), dtype=np.uint8)
        img = rng.integers(0, 256, (n_per_file, 3, 32, 32), dtype=np.uint8)
        recs = np.concatenate([lab, img.reshape(n_per_file, -1)], axis=1)
        with open(os.path.join(folder, name), "wb") as f:
            f.write(recs.tobytes())
        out[name] = (lab, img)
    return out


def test_cifar10(tmp_path):
    names = [f"data_batch_{i}.bin" for i in range(1, 6)] + ["test_batch.bin"]
    files = _cifar_files(str(tmp_path), 3, 1, names)
    d = ds.Cifar10Dataset(str(tmp_path), usage="train", shuffle=False)
    r = rows(d)
    assert len(r) == 15 and d.get_col_names() == ["image", "label"]
    lab, img = files["data_batch_2.bin"]
    np.testing.assert_array_equal(r[4][0], img[1].transpose(1, 2, 0))
    assert r[4][1] == lab[1, 0] and r[4][1].dtype == np.uint32
    assert len(rows(ds.Cifar10Dataset(str(tmp_path), usage="test"))) == 3
    assert ds.Cifar10Dataset(str(tmp_path)).get_dataset_size() == 18
    with open(tmp_path / "test_batch.bin", "ab") as f:
        f.write(b"\x01\x02")
    with pytest.raises(RuntimeError, match="Invalid cifar10 file"):
        rows(ds.Cifar10Dataset(str(tmp_path), usage="test"))


def test_cifar100(tmp_path):
    files = _cifar_files(str(tmp_path), 4, 2, ["train.bin", "test.bin"])
    d = ds.Cifar100Dataset(str(tmp_path), usage="test", shuffle=False)
    assert d.get_col_names() == ["image", "coarse_label", "fine_label"]
    r = rows(d)
    lab, img = files["test.bin"]
    assert [(int(x[1]), int(x[2])) for x in r] == [tuple(int(v) for v in row) for row in lab]
    np.testing.assert_array_equal(r[2][0], img[2].transpose(1, 2, 0))


def test_image_folder(tmp_path):
    import cv2

    rng = np.random.default_rng(0)
    imgs = {}
    for cls in ("cat", "dog"):
        (tmp_path / cls).mkdir()
        for i in range(3):
            im = rng.integers(0, 256, (5, 6, 3), dtype=np.uint8)
            cv2.imwrite(str(tmp_path / cls / f"{i}.png"), im[..., ::-1])
            imgs[(cls, i)] = im
    (tmp_path / "dog" / "notes.txt").write_text("x")
    d = ds.ImageFolderDataset(str(tmp_path), shuffle=False, decode=True)
    assert d.get_dataset_size() == 6 and d.get_class_indexing() == {"cat": 0, "dog": 1}
    r = rows(d)
    np.testing.assert_array_equal(r[4][0], imgs[("dog", 1)])
    assert [int(x[1]) for x in r] == [0, 0, 0, 1, 1, 1] and r[0][1].dtype == np.int32
    raw = rows(ds.ImageFolderDataset(str(tmp_path), shuffle=False))
    assert raw[0][0].dtype == np.uint8 and raw[0][0].ndim == 1
    np.testing.assert_array_equal(ds.vision.Decode()(raw[0][0]), imgs[("cat", 0)])
    d = ds.ImageFolderDataset(str(tmp_path), shuffle=False, class_indexing={"dog": 5}, decode=True)
    assert [int(x[1]) for x in rows(d)] == [5, 5, 5]
    (tmp_path / "cat" / "bad.png").write_bytes(b"garbage")
    with pytest.raises(RuntimeError, match="Decode"):
        rows(ds.ImageFolderDataset(str(tmp_path), shuffle=False, decode=True))
