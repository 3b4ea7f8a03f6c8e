"""Vision sources: VOC, COCO, the MNIST family (Fashion-MNIST, KMNIST, EMNIST, QMNIST), and the synthetic
FakeImageDataset, RandomDataset and PaddedDataset."""

from __future__ import annotations

import json
import os
import struct
import xml.etree.ElementTree as ET

import numpy as np

from ..._checkparam import (
    check_class_indexing,
    check_dataset_dir,
    check_dataset_file,
    check_dataset_usage,
    check_pipeline_int,
)
from ._block import FILE_BLOCK_ROWS, maybe_stack
from .datasets_user_defined import GeneratorDataset
from .errors import pipeline_error
from .sources import MappableSource, _cached, _find, _read_bytes

__all__ = [
    "MnistDataset",
    "VOCDataset",
    "CocoDataset",
    "FashionMnistDataset",
    "KMnistDataset",
    "EMnistDataset",
    "QMnistDataset",
    "FakeImageDataset",
    "RandomDataset",
    "PaddedDataset",
]


def _read_image(path: str, decode: bool) -> np.ndarray:
    try:
        with open(path, "rb") as f:
            raw = np.frombuffer(f.read(), np.uint8)
    except OSError as e:
        raise pipeline_error(f"Invalid file, failed to read {path}: {e}") from None
    if decode:
        from ..vision.transforms import _decode

        return _decode(raw, path)
    return raw


# ====================================================================== VOC
class VOCDataset(MappableSource):
    """PASCAL VOC: ``Segmentation`` rows are ``image``, ``target`` (the class PNG); ``Detection`` rows are
    ``image``, ``bbox`` (float32 ``[N, 4]``: xmin, ymin, width, height), ``label``, ``difficult``, ``truncate``
    (uint32 ``[N, 1]``). Images are raw file bytes unless ``decode=True``. Labels follow ``class_indexing``, by
    default the sorted names of every object class in the annotations.

    Args:
        dataset_dir (str): the VOC root (``JPEGImages``, ``Annotations``, ``SegmentationClass``, ``ImageSets``).
        task (str, optional): ``'Segmentation'`` or ``'Detection'``. Default: ``'Segmentation'``.
        usage (str, optional): the list ``ImageSets/<Segmentation|Main>/<usage>.txt``. Default: ``'train'``.
        class_indexing (dict, optional): ``{class name: label}`` (Detection). Default: ``None``.
        decode (bool, optional): decode the images. Default: ``False``.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache, extra_metadata,
        decrypt: as for every source.
    """

    _block_rows = FILE_BLOCK_ROWS

    def __init__(
        self,
        dataset_dir,
        task="Segmentation",
        usage="train",
        class_indexing=None,
        num_samples=None,
        num_parallel_workers=None,
        shuffle=None,
        decode=False,
        sampler=None,
        num_shards=None,
        shard_id=None,
        cache=None,
        extra_metadata=False,
        decrypt=None,
    ) -> None:
        self.dataset_dir = check_dataset_dir(dataset_dir)
        if task not in ("Segmentation", "Detection"):
            raise ValueError("Invalid task, task should be Segmentation or Detection.")
        if task == "Segmentation" and class_indexing is not None:
            raise ValueError("class_indexing is not supported in Segmentation task.")
        self.task, self.usage, self.decode = task, usage, bool(decode)
        self.class_indexing = check_class_indexing(class_indexing)
        self.extra_metadata = extra_metadata
        sub = "Segmentation" if task == "Segmentation" else "Main"
        lst = os.path.join(self.dataset_dir, "ImageSets", sub, f"{usage}.txt")
        if not os.path.isfile(lst):
            raise ValueError(f"Invalid file, failed to open file: {lst}.")
        with open(lst, encoding="utf-8") as f:
            self._ids = [ln.strip() for ln in f if ln.strip()]
        self._ann = None
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        if self.task == "Segmentation":
            return ["image", "target"]
        return ["image", "bbox", "label", "difficult", "truncate"]

    def _n(self):
        return len(self._ids)

    def _annotations(self):
        if self._ann is None:
            ann = []
            for i in self._ids:
                p = os.path.join(self.dataset_dir, "Annotations", i + ".xml")
                try:
                    root = ET.parse(p).getroot()
                except (OSError, ET.ParseError) as e:
                    raise pipeline_error(f"Invalid file, failed to parse {p}: {e}") from None
                objs = []
                for o in root.iter("object"):
                    bb = o.find("bndbox")
                    x1, y1, x2, y2 = (float(bb.find(k).text) for k in ("xmin", "ymin", "xmax", "ymax"))
                    if min(x1, y1, x2, y2) <= 0:
                        raise pipeline_error(
                            f"Invalid bndbox, the coordinate of bndbox in {p} should be greater than 0, but got "
                            f"{{{x1:g}, {y1:g}, {x2:g}, {y2:g}}}"
                        )
                    dif, tr = o.find("difficult"), o.find("truncated")
                    objs.append(
                        (
                            o.find("name").text.strip(),
                            [x1, y1, x2 - x1, y2 - y1],
                            int(dif.text) if dif is not None else 0,
                            int(tr.text) if tr is not None else 0,
                        )
                    )
                ann.append(objs)
            self._ann = ann
        return self._ann

    def _class_indexing(self):
        if self.task != "Detection":
            raise RuntimeError("get_class_indexing is not supported in the Segmentation task of VOCDataset.")
        if self.class_indexing is not None:
            return dict(self.class_indexing)
        names = sorted({o[0] for objs in self._annotations() for o in objs})
        return {n: i for i, n in enumerate(names)}

    def _fetch(self, idx):
        jpg = [os.path.join(self.dataset_dir, "JPEGImages", self._ids[i] + ".jpg") for i in idx.tolist()]
        images = [_read_image(p, self.decode) for p in jpg]
        if self.task == "Segmentation":
            png = [os.path.join(self.dataset_dir, "SegmentationClass", self._ids[i] + ".png") for i in idx.tolist()]
            return [maybe_stack(images), maybe_stack([_read_image(p, self.decode) for p in png])]
        index, ann = self._class_indexing(), self._annotations()
        cols: list[list] = [[], [], [], []]
        for i in idx.tolist():
            objs = [o for o in ann[i] if o[0] in index]
            cols[0].append(np.asarray([o[1] for o in objs], np.float32).reshape(-1, 4))
            cols[1].append(np.asarray([[index[o[0]]] for o in objs], np.uint32).reshape(-1, 1))
            cols[2].append(np.asarray([[o[2]] for o in objs], np.uint32).reshape(-1, 1))
            cols[3].append(np.asarray([[o[3]] for o in objs], np.uint32).reshape(-1, 1))
        return [maybe_stack(images)] + [maybe_stack(c) for c in cols]


# ====================================================================== COCO
_COCO_COLUMNS = {
    "Detection": ["image", "bbox", "category_id", "iscrowd"],
    "Stuff": ["image", "segmentation", "iscrowd"],
    "Keypoint": ["image", "keypoints", "num_keypoints"],
    "Panoptic": ["image", "bbox", "category_id", "iscrowd", "area"],
    "Captioning": ["image", "captions"],
}


class CocoDataset(MappableSource):
    """MS COCO from its annotation JSON, one row per image that has annotations.

    Columns by ``task``: ``Detection``: image, bbox (float32 ``[N, 4]``), category_id, iscrowd (uint32
    ``[N, 1]``); ``Stuff``: image, segmentation (float32 ``[N, L]`` polygons padded with -1), iscrowd;
    ``Keypoint``: image, keypoints (float32 ``[N, K]``), num_keypoints; ``Panoptic``: image, bbox, category_id,
    iscrowd, area; ``Captioning``: image, captions (str ``[N, 1]``).

    Args:
        dataset_dir (str): the image folder.
        annotation_file (str): the JSON file.
        task (str, optional): one of the tasks above. Default: ``'Detection'``.
        decode (bool, optional): decode the images. Default: ``False``.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache, extra_metadata,
        decrypt: as for every source.
    """

    _block_rows = FILE_BLOCK_ROWS

    def __init__(
        self,
        dataset_dir,
        annotation_file,
        task="Detection",
        num_samples=None,
        num_parallel_workers=None,
        shuffle=None,
        decode=False,
        sampler=None,
        num_shards=None,
        shard_id=None,
        cache=None,
        extra_metadata=False,
        decrypt=None,
    ) -> None:
        self.dataset_dir = check_dataset_dir(dataset_dir)
        check_dataset_file(annotation_file)
        if task not in _COCO_COLUMNS:
            raise ValueError("Invalid task type: " + str(task) + ".")
        self.annotation_file, self.task, self.decode = annotation_file, task, bool(decode)
        self.extra_metadata = extra_metadata
        with open(annotation_file, encoding="utf-8") as f:
            spec = json.load(f)
        self._files = {im["id"]: im["file_name"] for im in spec.get("images", [])}
        per: dict = {}
        for a in spec.get("annotations", []):
            per.setdefault(a["image_id"], []).append(a)
        self._ids = [i for i in self._files if i in per]
        self._per = per
        self._cats = spec.get("categories", [])
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return list(_COCO_COLUMNS[self.task])

    def _n(self):
        return len(self._ids)

    def _class_indexing(self):
        if self.task not in ("Detection", "Panoptic"):
            raise RuntimeError("get_class_indexing is only supported in the Detection and Panoptic tasks.")
        if self.task == "Panoptic":
            return {c["name"]: [c["id"], c.get("isthing", 0)] for c in self._cats}
        return {c["name"]: [c["id"]] for c in self._cats}

    def _row(self, anns):
        t = self.task
        if t == "Captioning":
            return [np.asarray([[a["caption"]] for a in anns])]
        if t == "Panoptic":
            segs = [s for a in anns for s in a.get("segments_info", [])]
            return [
                np.asarray([s["bbox"] for s in segs], np.float32).reshape(-1, 4),
                np.asarray([[s["category_id"]] for s in segs], np.uint32).reshape(-1, 1),
                np.asarray([[s.get("iscrowd", 0)] for s in segs], np.uint32).reshape(-1, 1),
                np.asarray([[s.get("area", 0)] for s in segs], np.uint32).reshape(-1, 1),
            ]
        crowd = np.asarray([[a.get("iscrowd", 0)] for a in anns], np.uint32).reshape(-1, 1)
        if t == "Detection":
            return [
                np.asarray([a["bbox"] for a in anns], np.float32).reshape(-1, 4),
                np.asarray([[a["category_id"]] for a in anns], np.uint32).reshape(-1, 1),
                crowd,
            ]
        if t == "Stuff":
            polys = []
            for a in anns:
                seg = a.get("segmentation")
                if a.get("iscrowd", 0) and isinstance(seg, dict) and "counts" not in seg:
                    raise pipeline_error(
                        f"Invalid annotation, the attribute of 'counts' is missing in annotation file: "
                        f"{self.annotation_file}."
                    )
                polys.append([v for p in seg for v in p] if isinstance(seg, list) else list(seg.get("counts", [])))
            width = max(len(p) for p in polys)
            out = np.full((len(polys), width), -1, np.float32)
            for k, p in enumerate(polys):
                out[k, : len(p)] = p
            return [out, crowd]
        return [  # Keypoint
            np.asarray([a["keypoints"] for a in anns], np.float32).reshape(len(anns), -1),
            np.asarray([[a.get("num_keypoints", 0)] for a in anns], np.uint32).reshape(-1, 1),
        ]

    def _fetch(self, idx):
        rows = [self._row(self._per[self._ids[i]]) for i in idx.tolist()]
        images = [
            _read_image(os.path.join(self.dataset_dir, self._files[self._ids[i]]), self.decode) for i in idx.tolist()
        ]
        return [maybe_stack(images)] + [maybe_stack([r[k] for r in rows]) for k in range(len(rows[0]))] if rows else []


# ====================================================================== MNIST


def _load_idx_images(path: str) -> np.ndarray:
    data = _read_bytes(path)
    if len(data) < 16:
        raise pipeline_error(f"Invalid mnist file, failed to read the header of {path}: the file is truncated.")
    magic, n, rows, cols = struct.unpack(">IIII", data[:16])
    if magic != 2051:
        raise pipeline_error(f"Invalid mnist file, the magic number of {path} should be 2051, but got {magic}.")
    need = n * rows * cols
    if len(data) - 16 < need:
        raise pipeline_error(
            f"Invalid mnist file, truncated data length of {path} should be {need}, but got {len(data) - 16}"
        )
    return np.frombuffer(data, np.uint8, need, 16).reshape(n, rows, cols, 1)


def _load_idx_labels(path: str) -> np.ndarray:
    data = _read_bytes(path)
    if len(data) < 8:
        raise pipeline_error(f"Invalid mnist file, failed to read the header of {path}: the file is truncated.")
    magic, n = struct.unpack(">II", data[:8])
    if magic != 2049:
        raise pipeline_error(f"Invalid mnist file, the magic number of {path} should be 2049, but got {magic}.")
    if len(data) - 8 < n:
        raise pipeline_error(
            f"Invalid mnist file, truncated data length of {path} should be {n}, but got {len(data) - 8}"
        )
    return np.frombuffer(data, np.uint8, n, 8).astype(np.uint32)


class MnistDataset(MappableSource):
    """The MNIST database from its IDX files (``train-images-idx3-ubyte``... also gzipped).

    Columns ``image`` (uint8, HWC ``[28, 28, 1]``) and ``label`` (uint32 scalar).

    Args:
        dataset_dir (str): the folder holding the files.
        usage (str, optional): ``'train'`` (60,000 rows), ``'test'`` (10,000) or ``'all'``. Default: ``None`` (all).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as for every source.

    Raises:
        ValueError: ``dataset_dir`` is not a readable folder.
        RuntimeError: a file is missing, corrupt or truncated (when the data is read).
    """

    _PREFIXES = {"train": ["train"], "test": ["t10k"], "all": ["t10k", "train"]}

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
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, ("train", "test", "all"))
        self._loaded = None
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["image", "label"]

    def _data(self):
        if self._loaded is None:
            self._loaded = self._read()
        return self._loaded

    def _read(self):
        images, labels = [], []
        for p in self._PREFIXES[self.usage]:
            ip = _find(self.dataset_dir, f"{p}-images-idx3-ubyte")
            lp = _find(self.dataset_dir, f"{p}-labels-idx1-ubyte")
            if ip is None and lp is None and self.usage == "all":
                continue
            if ip is None or lp is None:
                missing = f"{p}-images-idx3-ubyte" if ip is None else f"{p}-labels-idx1-ubyte"
                raise pipeline_error(
                    f"Invalid file, failed to find mnist file: {os.path.join(self.dataset_dir, missing)}."
                )
            im = _cached(("mnist-images", ip), lambda ip=ip: _load_idx_images(ip))
            lb = _cached(("mnist-labels", lp), lambda lp=lp: _load_idx_labels(lp))
            if len(im) != len(lb):
                raise pipeline_error(
                    f"Invalid mnist file, num of images should be equal to num of labels, but got num of images: {len(im)}, num of labels: {len(lb)}."
                )
            images.append(im)
            labels.append(lb)
        if not images:
            raise pipeline_error(f"Invalid file, no mnist file found in {self.dataset_dir}.")
        if len(images) == 1:
            return images[0], labels[0]
        return np.concatenate(images), np.concatenate(labels)

    def _n(self):
        return len(self._data()[1])

    def _labels(self):
        return self._data()[1]

    def _fetch(self, idx):
        im, lb = self._data()
        return [im[idx], lb[idx]]

    def _iter(self, ctx, key):
        self._data()
        yield from super()._iter(ctx, key)


# ====================================================================== the MNIST family
class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST (the MNIST file layout): ``image`` uint8 ``[28, 28, 1]``, ``label`` uint32."""


class KMnistDataset(MnistDataset):
    """Kuzushiji-MNIST (the MNIST file layout): ``image`` uint8 ``[28, 28, 1]``, ``label`` uint32."""


class EMnistDataset(MnistDataset):
    """EMNIST split ``name`` (``byclass``, ``bymerge``, ``balanced``, ``letters``, ``digits``, ``mnist``) from
    ``emnist-<name>-<train|test>-images-idx3-ubyte`` and ``-labels-idx1-ubyte``."""

    def __init__(
        self,
        dataset_dir,
        name,
        usage=None,
        num_samples=None,
        num_parallel_workers=None,
        shuffle=None,
        sampler=None,
        num_shards=None,
        shard_id=None,
        cache=None,
    ) -> None:
        if name not in ("byclass", "bymerge", "balanced", "letters", "digits", "mnist"):
            raise ValueError(
                "Input name is not within the valid set of ['byclass', 'bymerge', 'balanced', 'letters', 'digits', 'mnist']."
            )
        self.name = name
        self._PREFIXES = {
            "train": [f"emnist-{name}-train"],
            "test": [f"emnist-{name}-test"],
            "all": [f"emnist-{name}-test", f"emnist-{name}-train"],
        }
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)


def _load_idx_int(path: str) -> np.ndarray:
    data = _read_bytes(path)
    magic, n, m = struct.unpack(">III", data[:12])
    if magic != 3074:
        raise pipeline_error(f"Invalid qmnist file, the magic number of {path} should be 3074, but got {magic}.")
    return np.frombuffer(data, ">i4", n * m, 12).reshape(n, m).astype(np.uint32)


class QMnistDataset(MnistDataset):
    """QMNIST: ``qmnist-<train|test>-images-idx3-ubyte`` and ``-labels-idx2-int`` (and ``xnist-...`` for
    ``usage='nist'``). ``compat=True``: ``label`` is the class (uint32 scalar); ``False``: the 8 label fields
    (uint32 ``[8]``). ``usage``: train, test, test10k, test50k, nist or all."""

    def __init__(
        self,
        dataset_dir,
        usage=None,
        compat=True,
        num_samples=None,
        num_parallel_workers=None,
        shuffle=None,
        sampler=None,
        num_shards=None,
        shard_id=None,
        cache=None,
    ) -> None:
        if not isinstance(compat, bool):
            raise TypeError(f"Argument compat with value {compat} is not of type [<class 'bool'>].")
        self.compat = compat
        check_dataset_usage(usage, ("train", "test", "test10k", "test50k", "nist", "all"))
        self._qusage = usage or "all"
        self.dataset_dir = check_dataset_dir(dataset_dir)
        MappableSource.__init__(self, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.usage = self._qusage
        self._loaded = None

    def _read(self):
        u = self._qusage
        parts = {"train": ["qmnist-train"], "test": ["qmnist-test"], "test10k": ["qmnist-test"]}
        parts.update(test50k=["qmnist-test"], nist=["xnist"], all=["qmnist-train", "qmnist-test"])
        ims, lbs = [], []
        for p in parts[u]:
            ip = _find(self.dataset_dir, f"{p}-images-idx3-ubyte")
            lp = _find(self.dataset_dir, f"{p}-labels-idx2-int")
            if ip is None or lp is None:
                raise pipeline_error(f"Invalid file, failed to find qmnist file {p} in {self.dataset_dir}.")

            ims.append(_cached(("qmnist-images", ip), lambda ip=ip: _load_idx_images(ip)))
            lbs.append(_cached(("qmnist-labels", lp), lambda lp=lp: _load_idx_int(lp)))
        im, lb = np.concatenate(ims), np.concatenate(lbs)
        if u == "test10k":
            im, lb = im[:10000], lb[:10000]
        elif u == "test50k":
            im, lb = im[10000:], lb[10000:]
        return im, (lb[:, 0].copy() if self.compat else lb)

    def _labels(self):
        lb = self._data()[1]
        return lb if lb.ndim == 1 else lb[:, 0]


# ====================================================================== synthetic
class FakeImageDataset(MappableSource):
    """``num_images`` random images (uint8 HWC ``image_size``) with random labels (uint32 in
    ``[0, num_classes)``); image ``i`` is drawn from the seed ``base_seed + i``, so it is the same every run."""

    def __init__(
        self,
        num_images=1000,
        image_size=(224, 224, 3),
        num_classes=10,
        base_seed=0,
        num_samples=None,
        num_parallel_workers=None,
        shuffle=None,
        sampler=None,
        num_shards=None,
        shard_id=None,
        cache=None,
    ) -> None:
        self.num_images = check_pipeline_int(num_images, "num_images", 1, 2**31 - 1)
        if not isinstance(image_size, (list, tuple)) or len(image_size) != 3:
            raise ValueError(f"image_size should be a list or tuple of length 3, but got {len(image_size)}")
        for s in image_size:
            check_pipeline_int(s, "image_size", 1, 2**31 - 1)
        self.image_size = tuple(int(s) for s in image_size)
        # MindSpore's FakeImageDataset keeps num_classes as an int attribute, shadowing Dataset.num_classes()
        self.num_classes = check_pipeline_int(num_classes, "num_classes", 1, 2**31 - 1)  # type: ignore[method-assign,assignment]
        self.base_seed = check_pipeline_int(base_seed, "base_seed", 0, 2**32 - 1)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["image", "label"]

    def _n(self):
        return self.num_images

    def _labels(self):
        return np.asarray([self._one(i)[1] for i in range(self.num_images)], np.uint32)

    def _one(self, i):
        rng = np.random.default_rng(self.base_seed + i)
        return rng.integers(0, 256, self.image_size, dtype=np.uint8), np.uint32(rng.integers(0, self.num_classes))

    def _fetch(self, idx):
        rows = [self._one(i) for i in idx.tolist()]
        return [np.stack([r[0] for r in rows]), np.asarray([r[1] for r in rows], np.uint32)]


_RANDOM_TYPES = (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
                 np.float16, np.float32, np.float64)  # fmt: skip


class RandomDataset(MappableSource):
    """Random rows: the columns of ``schema`` (names, types, shapes), or ``columns_list`` / a random number of
    columns with random types and shapes. ``total_rows`` defaults to a random count in [1, 1024]. The values
    come from the pipeline seed (``ds.config.set_seed``)."""

    def __init__(
        self,
        total_rows=None,
        schema=None,
        columns_list=None,
        num_samples=None,
        num_parallel_workers=None,
        cache=None,
        shuffle=None,
        num_shards=None,
        shard_id=None,
    ) -> None:
        from ..core import config
        from .schema import Schema

        if total_rows is not None:
            check_pipeline_int(total_rows, "total_rows", 0, 2**31 - 1)
        if isinstance(schema, str):
            schema = Schema(schema)
        rng = np.random.default_rng(config.get_seed())
        self.total_rows = int(total_rows) if total_rows else int(rng.integers(1, 1025))
        self.schema, self.columns_list = schema, columns_list
        if schema is not None:
            from ...common import dtype as mstype

            cols = [(c["name"], np.dtype(mstype.to_np(c["type"])), c["shape"] or [1]) for c in schema.columns]
            if schema.num_rows and not total_rows:
                self.total_rows = schema.num_rows
        else:
            names = list(columns_list) if columns_list else [f"c{i}" for i in range(int(rng.integers(1, 5)))]
            cols = [
                (
                    n,
                    np.dtype(_RANDOM_TYPES[rng.integers(len(_RANDOM_TYPES))]),
                    rng.integers(1, 32, rng.integers(1, 5)).tolist(),
                )
                for n in names
            ]
        if columns_list is not None and schema is not None:
            cols = [c for c in cols if c[0] in columns_list]
        self._cols = cols
        self._seed = int(rng.integers(0, 2**31))
        super().__init__(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)

    def _columns(self):
        return [c[0] for c in self._cols]

    def _n(self):
        return self.total_rows

    def _fetch(self, idx):
        out = []
        for k, (_, dt, shape) in enumerate(self._cols):
            vals = []
            for i in idx.tolist():
                rng = np.random.default_rng((self._seed, i, k))
                if dt.kind == "b":
                    vals.append(rng.integers(0, 2, shape).astype(dt))
                elif dt.kind in "iu":
                    info = np.iinfo(dt)
                    vals.append(
                        rng.integers(max(info.min, -(2**31)), min(info.max, 2**31 - 1), shape, endpoint=True).astype(dt)
                    )
                else:
                    vals.append(rng.random(shape).astype(dt))
            out.append(np.stack(vals) if vals else np.zeros((0, *shape), dt))
        return out


class PaddedDataset(GeneratorDataset):
    """Rows given as a list of dicts (the columns are the keys of the first): used with ``concat`` to pad a
    dataset to a multiple of the shard count.

    Raises:
        TypeError: ``padded_samples`` is not a list of dicts.
        ValueError: it is empty, or the dicts have different keys.
    """

    def __init__(self, padded_samples) -> None:
        if not isinstance(padded_samples, list):
            raise TypeError(f"Argument padded_samples with value {padded_samples!r} is not of type [<class 'list'>].")
        if not padded_samples:
            raise ValueError("padded_samples cannot be empty.")
        for s in padded_samples:
            if not isinstance(s, dict):
                raise TypeError("The data type of the padded_samples is not a dict.")
        names = list(padded_samples[0])
        for s in padded_samples:
            if list(s) != names:
                raise ValueError("Padded samples should have the same columns names.")
        self.padded_samples = padded_samples
        rows = [tuple(np.asarray(s[n]) for n in names) for s in padded_samples]
        super().__init__(rows, column_names=names, shuffle=False)
