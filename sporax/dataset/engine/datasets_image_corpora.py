"""Image corpora read from folders, list files and binary files: Semeion, Manifest, Caltech-256, Food-101,
STL-10, SVHN, Flickr, DIV2K, SUN397."""

from __future__ import annotations

import json
import os

import numpy as np

from ..._checkparam import check_class_indexing, check_dataset_dir, check_dataset_file, check_dataset_usage
from ._block import FILE_BLOCK_ROWS, maybe_stack
from .datasets_vision import _read_image
from .errors import pipeline_error
from .sources import MappableSource, _cached, _read_bytes

__all__ = [
    "Cifar10Dataset",
    "Cifar100Dataset",
    "SemeionDataset",
    "ManifestDataset",
    "Caltech256Dataset",
    "Food101Dataset",
    "STL10Dataset",
    "SVHNDataset",
    "FlickrDataset",
    "DIV2KDataset",
    "SUN397Dataset",
    "CelebADataset",
]


class _ArrayRows(MappableSource):
    """A source read whole into memory: ``_images`` and ``_label_arr``, one row each."""

    _images: np.ndarray
    _label_arr: np.ndarray

    def _columns(self):
        return ["image", "label"]

    def _n(self):
        return len(self._images)

    def _labels(self):
        return self._label_arr

    def _fetch(self, idx):
        return [np.ascontiguousarray(self._images[idx]), self._label_arr[idx]]


class SemeionDataset(_ArrayRows):
    """Semeion handwritten digits (``semeion.data``: 256 pixel values and a one-hot label per line): image uint8
    ``[16, 16]``, label uint32."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        p = os.path.join(self.dataset_dir, "semeion.data")
        check_dataset_file(p)
        with open(p, encoding="utf-8") as f:
            vals = np.asarray([[float(v) for v in ln.split()] for ln in f if ln.strip()], np.float64)
        self._images = np.rint(vals[:, :256]).astype(np.uint8).reshape(-1, 16, 16)
        self._label_arr = vals[:, 256:266].argmax(1).astype(np.uint32)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)


class ManifestDataset(MappableSource):
    """A manifest file (one JSON object per line: ``source`` image path, ``usage``, ``annotation`` list of
    ``{"name": class}``): image (the file's bytes, decoded with ``decode``), label int32 by ``class_indexing``
    (default: sorted class names)."""

    _block_rows = FILE_BLOCK_ROWS

    def __init__(self, dataset_file, usage="train", num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, class_indexing=None, decode=False, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        check_dataset_file(dataset_file)
        if usage not in ("train", "eval", "inference"):
            raise ValueError("Input usage is not within the valid set of ['train', 'eval', 'inference'].")
        self.dataset_file, self.usage, self.decode = dataset_file, usage, bool(decode)
        self.class_indexing = check_class_indexing(class_indexing)
        items = []
        with open(dataset_file, encoding="utf-8") as f:
            for ln in f:
                if ln.strip():
                    obj = json.loads(ln)
                    if obj.get("usage", "train").lower() == usage:
                        names = [a.get("name") for a in obj.get("annotation", []) if a.get("name") is not None]
                        items.append((obj["source"], names[0] if names else None))
        names = sorted({n for _, n in items if n is not None})
        self._index = dict(class_indexing) if class_indexing is not None else {n: i for i, n in enumerate(names)}
        self._items = [(s, n) for s, n in items if n in self._index]
        self._label_arr = np.asarray([self._index[n] for _, n in self._items], np.int32)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["image", "label"]

    def _class_indexing(self):
        return dict(self._index)

    def _n(self):
        return len(self._items)

    def _labels(self):
        return self._label_arr

    def _fetch(self, idx):
        images = [_read_image(self._items[i][0], self.decode) for i in idx.tolist()]
        return [maybe_stack(images), self._label_arr[idx]]


class _FileList(MappableSource):
    _block_rows = FILE_BLOCK_ROWS

    def _n(self):
        return len(self._items)

    def _columns(self):
        return ["image", "label"]

    def _fetch(self, idx):
        images = [_read_image(self._items[i][0], self.decode) for i in idx.tolist()]
        return [maybe_stack(images), maybe_stack([np.asarray(self._items[i][1]) for i in idx.tolist()])]


class Caltech256Dataset(_FileList):
    """Caltech-256 (``<nnn>.<class>/<image>.jpg`` folders): image (bytes, or decoded) and label (int32, the
    folder's rank in name order)."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir, self.decode = check_dataset_dir(dataset_dir), bool(decode)
        folders = sorted(e.name for e in os.scandir(self.dataset_dir) if e.is_dir())
        self._items = [(os.path.join(self.dataset_dir, d, f), np.int32(k)) for k, d in enumerate(folders)
                       for f in sorted(os.listdir(os.path.join(self.dataset_dir, d)))
                       if f.lower().endswith((".jpg", ".jpeg"))]  # fmt: skip
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)


class Food101Dataset(_FileList):
    """Food-101 (``images/<class>/<id>.jpg`` with ``meta/train.txt`` and ``meta/test.txt``): image and label
    (str, the class name); usage train, test or all (train then test)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir, self.decode = check_dataset_dir(dataset_dir), bool(decode)
        self.usage = check_dataset_usage(usage, ("train", "test", "all"))
        self._items = []
        for u in ["train", "test"] if self.usage == "all" else [self.usage]:
            p = os.path.join(self.dataset_dir, "meta", f"{u}.txt")
            check_dataset_file(p)
            with open(p, encoding="utf-8") as f:
                for ln in f:
                    if ln.strip():
                        rel = ln.strip()
                        self._items.append((os.path.join(self.dataset_dir, "images", rel + ".jpg"), rel.split("/")[0]))
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)


class STL10Dataset(_ArrayRows):
    """STL-10's binary files (``<split>_X.bin`` images stored column-major, ``<split>_y.bin`` labels 1..10):
    image uint8 ``[96, 96, 3]``, label int32 (0..9, -1 for unlabeled). Usage train, test, unlabeled,
    train+unlabeled or all."""

    _SPLITS = {"train": ["train"], "test": ["test"], "unlabeled": ["unlabeled"],
               "train+unlabeled": ["train", "unlabeled"], "all": ["train", "test", "unlabeled"]}  # fmt: skip

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, tuple(self._SPLITS))
        images, labels = [], []
        for sp in self._SPLITS[self.usage]:
            xp = os.path.join(self.dataset_dir, f"{sp}_X.bin")
            check_dataset_file(xp)
            x = np.fromfile(xp, np.uint8).reshape(-1, 3, 96, 96).transpose(0, 3, 2, 1)
            yp = os.path.join(self.dataset_dir, f"{sp}_y.bin")
            y = np.fromfile(yp, np.uint8).astype(np.int32) - 1 if os.path.isfile(yp) else np.full(len(x), -1, np.int32)
            images.append(x)
            labels.append(y)
        self._images, self._label_arr = np.concatenate(images), np.concatenate(labels)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)


class SVHNDataset(STL10Dataset):
    """SVHN's cropped digits (``<usage>_32x32.mat``, read with SciPy): image uint8 ``[32, 32, 3]``, label uint32
    (digit 0 stored as 10 becomes 0). Usage train, test, extra or all."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None) -> None:  # fmt: skip
        from scipy.io import loadmat

        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, ("train", "test", "extra", "all"))
        images, labels = [], []
        for sp in ["train", "test", "extra"] if self.usage == "all" else [self.usage]:
            p = os.path.join(self.dataset_dir, f"{sp}_32x32.mat")
            check_dataset_file(p)
            m = loadmat(p)
            images.append(np.ascontiguousarray(np.moveaxis(m["X"], -1, 0)).astype(np.uint8))
            labels.append((m["y"].ravel() % 10).astype(np.uint32))
        self._images, self._label_arr = np.concatenate(images), np.concatenate(labels)
        MappableSource.__init__(self, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)


class FlickrDataset(MappableSource):
    """Flickr8k/30k: ``annotation_file`` lines ``<image>#<n>\\t<caption>``; columns image (bytes, decoded with
    ``decode``) and annotation (str array of the image's captions, in file order)."""

    _block_rows = FILE_BLOCK_ROWS

    def __init__(self, dataset_dir, annotation_file, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=None, sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        check_dataset_file(annotation_file)
        self.annotation_file, self.decode = annotation_file, bool(decode)
        caps: dict = {}
        with open(annotation_file, encoding="utf-8") as f:
            for ln in f:
                if "\t" in ln:
                    key, cap = ln.rstrip("\n").split("\t", 1)
                    caps.setdefault(key.split("#")[0], []).append(cap)
        self._items = [(os.path.join(self.dataset_dir, k), v) for k, v in caps.items()]
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["image", "annotation"]

    def _n(self):
        return len(self._items)

    def _fetch(self, idx):
        items = [self._items[i] for i in idx.tolist()]
        return [maybe_stack([_read_image(p, self.decode) for p, _ in items]),
                maybe_stack([np.asarray(c) for _, c in items])]  # fmt: skip


class DIV2KDataset(MappableSource):
    """DIV2K super-resolution pairs: ``DIV2K_<usage>_HR/<id>.png`` and the low-resolution image of
    ``downgrade`` and ``scale`` (``DIV2K_<usage>_LR_<downgrade>/X<scale>/<id>x<scale>.png``; ``mild``,
    ``difficult``, ``wild``: ``DIV2K_<usage>_LR_<downgrade>/<id>x4<m|d|w>.png``): columns hr_image, lr_image."""

    _block_rows = FILE_BLOCK_ROWS

    def __init__(self, dataset_dir, usage="train", downgrade="bicubic", scale=2, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=None, sampler=None, num_shards=None, shard_id=None,
                 cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, ("train", "valid", "all"))
        if downgrade not in ("bicubic", "unknown", "mild", "difficult", "wild"):
            raise ValueError(
                "Input downgrade is not within the valid set of ['bicubic', 'unknown', 'mild', 'difficult', 'wild']."
            )
        if (
            scale not in (2, 3, 4, 8)
            or (scale == 8 and downgrade != "bicubic")
            or (downgrade in ("mild", "difficult", "wild") and scale != 4)
        ):
            raise ValueError(f"DIV2KDataset: scale {scale} is not available with downgrade {downgrade}.")
        self.downgrade, self.scale, self.decode = downgrade, scale, bool(decode)
        self._items = []
        for u in ["train", "valid"] if self.usage == "all" else [self.usage]:
            hr = os.path.join(self.dataset_dir, f"DIV2K_{u}_HR")
            if not os.path.isdir(hr):
                raise ValueError(f"The folder {hr} does not exist or is not a directory or permission denied!")
            lr_root = os.path.join(self.dataset_dir, f"DIV2K_{u}_LR_{downgrade}")
            for f in sorted(os.listdir(hr)):
                if not f.endswith(".png"):
                    continue
                stem = f[:-4]
                if downgrade in ("bicubic", "unknown"):
                    lr = os.path.join(lr_root, f"X{scale}", f"{stem}x{scale}.png")
                else:
                    lr = os.path.join(lr_root, f"{stem}x4{downgrade[0]}.png")
                self._items.append((os.path.join(hr, f), lr))
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["hr_image", "lr_image"]

    def _n(self):
        return len(self._items)

    def _fetch(self, idx):
        items = [self._items[i] for i in idx.tolist()]
        return [maybe_stack([_read_image(h, self.decode) for h, _ in items]),
                maybe_stack([_read_image(lr, self.decode) for _, lr in items])]  # fmt: skip


class SUN397Dataset(_FileList):
    """SUN397 scenes: ``ClassName.txt`` lists the classes (``/a/abbey``), images under ``<class>/*.jpg``; image
    (bytes, decoded with ``decode``) and label (uint32, the class's line number)."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir, self.decode = check_dataset_dir(dataset_dir), bool(decode)
        names = os.path.join(self.dataset_dir, "ClassName.txt")
        check_dataset_file(names)
        with open(names, encoding="utf-8") as f:
            classes = [ln.strip().lstrip("/") for ln in f if ln.strip()]
        self._items = []
        for k, c in enumerate(classes):
            d = os.path.join(self.dataset_dir, c)
            if os.path.isdir(d):
                self._items += [
                    (os.path.join(d, n), np.uint32(k)) for n in sorted(os.listdir(d)) if n.lower().endswith(".jpg")
                ]
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)


class CelebADataset(MappableSource):
    """CelebA: images in ``dataset_dir``, ``list_attr_celeba.txt`` (count, attribute names, then ``<image> ±1 ...``)
    and ``list_eval_partition.txt`` (0 train, 1 valid, 2 test): columns image (bytes, decoded with ``decode``) and
    attr (uint32, -1 as 0)."""

    _block_rows = FILE_BLOCK_ROWS

    def __init__(self, dataset_dir, num_parallel_workers=None, shuffle=None, usage="all", sampler=None, decode=False,
                 extensions=None, num_samples=None, num_shards=None, shard_id=None, cache=None, decrypt=None) -> None:  # fmt: skip
        self.dataset_dir, self.decode = check_dataset_dir(dataset_dir), bool(decode)
        self.usage = check_dataset_usage(usage, ("train", "valid", "test", "all"))
        self.extensions = tuple(e.lower() for e in extensions) if extensions else None
        attr = os.path.join(self.dataset_dir, "list_attr_celeba.txt")
        check_dataset_file(attr)
        with open(attr, encoding="utf-8") as f:
            lines = [ln.split() for ln in f.read().splitlines()[2:] if ln.strip()]
        part = {}
        pp = os.path.join(self.dataset_dir, "list_eval_partition.txt")
        if self.usage != "all" and os.path.isfile(pp):
            with open(pp, encoding="utf-8") as f:
                part = dict(ln.split()[:2] for ln in f if ln.strip())
        want = {"train": "0", "valid": "1", "test": "2"}.get(self.usage)
        self._items = [(os.path.join(self.dataset_dir, p[0]), np.asarray([int(v) > 0 for v in p[1:]], np.uint32))
                       for p in lines if (want is None or part.get(p[0]) == want)
                       and (self.extensions is None or os.path.splitext(p[0])[1].lower() in self.extensions)]  # fmt: skip
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["image", "attr"]

    def _n(self):
        return len(self._items)

    def _fetch(self, idx):
        items = [self._items[i] for i in idx.tolist()]
        return [maybe_stack([_read_image(p, self.decode) for p, _ in items]), np.stack([a for _, a in items])]


# ====================================================================== CIFAR
class _CifarBase(MappableSource):
    _REC_LABELS = 1
    _NAME: str  # the subclass's: "cifar10" / "cifar100"

    def __init__(
        self, dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id
    ) -> None:
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, ("train", "test", "all"))
        self._loaded = None
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _files(self) -> list[str]:
        raise NotImplementedError

    def _load(self, path: str):
        data = _read_bytes(path)
        rec = self._REC_LABELS + 3072
        if not data or len(data) % rec:
            raise pipeline_error(
                f"Invalid {self._NAME} file, failed to read data from: {path}: its size {len(data)} is not a multiple of "
                f"the record size {rec} (make sure it is the {self._NAME.upper()} binary version)."
            )
        raw = np.frombuffer(data, np.uint8).reshape(-1, rec)
        images = np.ascontiguousarray(raw[:, self._REC_LABELS :].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
        labels = raw[:, : self._REC_LABELS].astype(np.uint32)
        return images, labels

    def _data(self):
        if self._loaded is None:
            self._loaded = self._read()
        return self._loaded

    def _read(self):
        files = self._files()
        if not files:
            raise pipeline_error(
                f"Invalid file, no {self._NAME} file found in {self.dataset_dir} for usage '{self.usage}'."
            )
        parts = [_cached((self._NAME, f), lambda f=f: self._load(f)) for f in files]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def _n(self):
        return len(self._data()[0])

    def _labels(self):
        return self._data()[1][:, -1]

    def _iter(self, ctx, key):
        self._data()
        yield from super()._iter(ctx, key)


class Cifar10Dataset(_CifarBase):
    """CIFAR-10 from its binary files (``data_batch_1.bin``..``data_batch_5.bin``, ``test_batch.bin``).

    Columns ``image`` (uint8 HWC ``[32, 32, 3]``) and ``label`` (uint32).

    Args:
        dataset_dir (str): the folder holding the files.
        usage (str, optional): ``'train'``, ``'test'`` or ``'all'``. Default: ``None`` (all).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as for every source.
    """

    _NAME = "cifar10"

    def __init__(
        self,
        dataset_dir,
        usage=None,
        num_samples=None,
        num_parallel_workers=None,
        shuffle=None,
        sampler=None,
        num_shards=None,
        shard_id=None,
        cache=None,
    ) -> None:
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["image", "label"]

    def _files(self):
        names = sorted(os.listdir(self.dataset_dir))
        train = [n for n in names if n.startswith("data_batch") and n.endswith(".bin")]
        test = [n for n in names if n.startswith("test_batch") and n.endswith(".bin")]
        pick = {"train": train, "test": test, "all": train + test}[self.usage]
        return [os.path.join(self.dataset_dir, n) for n in pick]

    def _fetch(self, idx):
        im, lb = self._data()
        return [im[idx], lb[idx, 0]]


class Cifar100Dataset(_CifarBase):
    """CIFAR-100 from its binary files (``train.bin``, ``test.bin``).

    Columns ``image`` (uint8 HWC ``[32, 32, 3]``), ``coarse_label`` and ``fine_label`` (uint32).
    """

    _NAME = "cifar100"
    _REC_LABELS = 2

    def __init__(
        self,
        dataset_dir,
        usage=None,
        num_samples=None,
        num_parallel_workers=None,
        shuffle=None,
        sampler=None,
        num_shards=None,
        shard_id=None,
        cache=None,
    ) -> None:
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["image", "coarse_label", "fine_label"]

    def _files(self):
        pick = {"train": ["train.bin"], "test": ["test.bin"], "all": ["train.bin", "test.bin"]}[self.usage]
        return [os.path.join(self.dataset_dir, n) for n in pick if os.path.isfile(os.path.join(self.dataset_dir, n))]

    def _fetch(self, idx):
        im, lb = self._data()
        return [im[idx], lb[idx, 0], lb[idx, 1]]
