"""Face and object-detection corpora read from their published layouts: LFW (faces, people and pairs),
KITTI (2D object detection) and WIDER FACE.

Column names, dtypes, shapes and row order follow MindSpore 2.10, checked against it on small files in each
layout (tools/make_ms_dataset_sources_reference.py, tests/ut/dataset/test_sources_detection.py).
"""

from __future__ import annotations

import os

import numpy as np

from ..._checkparam import check_dataset_dir as _check_dir
from ..._checkparam import check_dataset_usage as _check_usage
from ._block import maybe_stack
from .datasets_image_folders import _check_bool, _ImageRows
from .datasets_vision import _read_image
from .errors import pipeline_error

__all__ = ["KITTIDataset", "LFWDataset", "WIDERFaceDataset"]


def _check_choice(value, allowed, name):
    if value is not None and (not isinstance(value, str) or value not in allowed):
        if not isinstance(value, str):
            raise TypeError(
                f"Argument {name} with value {value!r} is not of type [<class 'str'>], but got {type(value)}."
            )
        raise ValueError(f"Input {name} is not within the valid set of {list(allowed)}.")
    return value


def _tokens(path: str) -> list[list[str]]:
    try:
        with open(path, encoding="utf-8") as f:
            return [ln.split() for ln in f.read().splitlines()]
    except OSError:
        raise pipeline_error(f"Invalid file, failed to open file: {path}") from None


# ---------------------------------------------------------------------------------------- LFW
class LFWDataset(_ImageRows):
    """Labeled Faces in the Wild: images ``<image folder>/<name>/<name>_<nnnn>.jpg`` (image folder ``lfw``,
    ``lfw_funneled`` or ``lfw-deepfunneled`` by ``image_set``), lists ``people*.txt`` / ``pairs*.txt`` and
    ``lfw-names.txt``. ``task='people'``: image, label (uint32: the person's line in ``lfw-names.txt``);
    ``task='pairs'``: image1, image2, label (uint32: 1 same person, 0 not). ``usage``: ``'10fold'``
    (``people.txt`` / ``pairs.txt``), ``'train'`` (``*DevTrain.txt``), ``'test'`` (``*DevTest.txt``) or
    ``'all'`` (train then test)."""

    _FOLDERS = {"original": "lfw", "funneled": "lfw_funneled", "deepfunneled": "lfw-deepfunneled"}

    def __init__(self, dataset_dir, task=None, usage=None, image_set=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None) -> None:  # fmt: skip
        self.dataset_dir = _check_dir(dataset_dir)
        self.task = _check_choice(task, ("people", "pairs"), "task") or "people"
        self.usage = _check_choice(usage, ("10fold", "train", "test", "all"), "usage") or "all"
        self.image_set = _check_choice(image_set, tuple(self._FOLDERS), "image_set") or "funneled"
        self.decode = bool(_check_bool(decode, "decode"))
        self._COLUMNS = ["image", "label"] if self.task == "people" else ["image1", "image2", "label"]
        files = []
        if self.usage == "10fold":
            files.append(f"{self.task}.txt")
        if self.usage in ("train", "all"):
            files.append(f"{self.task}DevTrain.txt")
        if self.usage in ("test", "all"):
            files.append(f"{self.task}DevTest.txt")
        self._root = os.path.join(self.dataset_dir, self._FOLDERS[self.image_set])
        self._items = []
        for f in files:
            lines = [t for t in _tokens(os.path.join(self.dataset_dir, f))]
            if not lines:
                raise pipeline_error(f"Invalid file, LFW annotation file is empty. Check file path: {self.dataset_dir}")
            (self._people if self.task == "people" else self._pairs)(lines)
        names = _tokens(os.path.join(self.dataset_dir, "lfw-names.txt"))
        self._index = {t[0]: i for i, t in enumerate(names) if t}
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _image(self, name, number):
        return os.path.join(self._root, name, f"{name}_{int(number):04d}.jpg")

    def _people(self, lines):
        folds, begin = (int(lines[0][0]), 1) if self.usage == "10fold" else (1, 0)
        for _ in range(folds):
            n = int(lines[begin][0])
            for name, count in (t[:2] for t in lines[begin + 1 : begin + n + 1]):
                self._items += [(self._image(name, k), name) for k in range(1, int(count) + 1)]
            begin += n + 1

    def _pairs(self, lines):
        folds, n = (int(lines[0][0]), int(lines[0][1])) if self.usage == "10fold" else (1, int(lines[0][0]))
        begin = 1
        for _ in range(folds):
            for t in lines[begin : begin + n]:
                self._items.append((self._image(t[0], t[1]), self._image(t[0], t[2]), 1))
            for t in lines[begin + n : begin + 2 * n]:
                self._items.append((self._image(t[0], t[1]), self._image(t[2], t[3]), 0))
            begin += 2 * n

    def _fetch(self, idx):
        items = [self._items[i] for i in idx.tolist()]
        if self.task == "people":
            return [
                maybe_stack([_read_image(it[0], self.decode) for it in items]),
                np.asarray([self._index.get(it[1], 0) for it in items], np.uint32),
            ]
        return [
            maybe_stack([_read_image(it[0], self.decode) for it in items]),
            maybe_stack([_read_image(it[1], self.decode) for it in items]),
            np.asarray([it[2] for it in items], np.uint32),
        ]


# ---------------------------------------------------------------------------------------- KITTI
class KITTIDataset(_ImageRows):
    """KITTI object detection: ``data_object_image_2/{training,testing}/image_2/<nnnnnn>.png`` and
    ``data_object_label_2/training/label_2/<nnnnnn>.txt`` (15 fields a line: type, truncated, occluded, alpha,
    bbox (4), dimensions (3), location (3), rotation_y). ``usage='train'`` (the default): image, label (uint32
    ``[n, 1]``, the type's rank among every type in the label files), truncated (float32 ``[n, 1]``), occluded
    (uint32 ``[n, 1]``), alpha (float32 ``[n, 1]``), bbox (float32 ``[n, 4]``), dimensions, location (float32
    ``[n, 3]``), rotation_y (float32 ``[n, 1]``); images whose label file has no object are left out.
    ``usage='test'``: image only. Image ids run ``000000`` up to the number of files in the image folder."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = _check_dir(dataset_dir)
        self.usage = _check_choice(usage, ("train", "test"), "usage") or "train"
        self.decode = bool(_check_bool(decode, "decode"))
        split = "training" if self.usage == "train" else "testing"
        image_dir = os.path.join(self.dataset_dir, "data_object_image_2", split, "image_2")
        if not os.path.isdir(image_dir):
            raise pipeline_error(f"Invalid path, failed to open KITTI image dir: {image_dir}, permission denied.")
        ids = [f"{i:06d}" for i in range(len(os.listdir(image_dir)))]
        self._items = [(os.path.join(image_dir, f"{i}.png"), None) for i in ids]
        if self.usage == "train":
            self._COLUMNS = ["image", "label", "truncated", "occluded", "alpha", "bbox", "dimensions", "location",
                             "rotation_y"]  # fmt: skip
            label_dir = os.path.join(self.dataset_dir, "data_object_label_2", "training", "label_2")
            kept, names = [], set()
            for (img, _), i in zip(self._items, ids):
                path = os.path.join(label_dir, f"{i}.txt")
                if not os.path.exists(path):
                    raise pipeline_error(f"Invalid path, {path} does not exist.")
                objs = [(t[0], np.asarray([float(v) for v in t[1:15]], np.float32)) for t in _tokens(path) if t]
                if objs:
                    kept.append((img, objs))
                    names.update(o[0] for o in objs)
            self._label_index = {n: k for k, n in enumerate(sorted(names))}
            self._items = kept
            if not kept:
                raise pipeline_error(
                    "Invalid data, no valid data matching the dataset API KITTIDataset. Please check file path or "
                    "dataset API."
                )
        else:
            self._COLUMNS = ["image"]
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _extra(self, item):
        if self.usage == "test":
            return []
        objs = item[1]
        v = np.stack([o[1] for o in objs]).astype(np.float32)
        if v.shape[1] != 14:
            raise pipeline_error(
                f"Invalid file, the format of the annotation file is not as expected, got {v.shape[1]} parameters."
            )
        label = np.asarray([[self._label_index[o[0]]] for o in objs], np.uint32)
        occluded = v[:, 1:2].astype(np.int64).astype(np.uint32)
        return [label, v[:, 0:1], occluded, v[:, 2:3], v[:, 3:7], v[:, 7:10], v[:, 10:13], v[:, 13:14]]


# ---------------------------------------------------------------------------------------- WIDER FACE
class WIDERFaceDataset(_ImageRows):
    """WIDER FACE: ``WIDER_{train,val,test}/images/<event>/<name>.jpg`` and
    ``wider_face_split/wider_face_{train,val}_bbx_gt.txt`` (a file name, a box count and per box ``x y w h blur
    expression illumination invalid occlusion pose``). ``usage`` train, valid or all (train then valid): image,
    bbox (int32 ``[n, 4]``), blur, expression, illumination, occlusion, pose, invalid (int32 ``[n]``);
    ``usage='test'``: image only. Images are taken event folder by event folder in name order, each folder's files in directory order."""

    _ANNOTATIONS = ["bbox", "blur", "expression", "illumination", "occlusion", "pose", "invalid"]

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = _check_dir(dataset_dir)
        self.usage = _check_usage(usage, ("train", "test", "valid", "all"))
        self.decode = bool(_check_bool(decode, "decode"))
        splits = {"train": ["train"], "valid": ["val"], "test": ["test"], "all": ["train", "val"]}[self.usage]
        self._COLUMNS = ["image"] if self.usage == "test" else ["image", *self._ANNOTATIONS]
        self._boxes: dict = {}
        self._events: set = set()
        images = []
        for s in splits:
            folder = os.path.join(self.dataset_dir, f"WIDER_{s}", "images")
            images += self._walk(folder)
            if s != "test":
                self._read_boxes(
                    os.path.join(self.dataset_dir, "wider_face_split", f"wider_face_{s}_bbx_gt.txt"), folder
                )
        self._items = [(p, p) for p in images]
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _walk(self, folder):
        if not os.path.isdir(folder):
            raise pipeline_error(f"Invalid path, failed to open WIDERFace folder: {folder}")
        # MindSpore keeps the event folder names of every split read so far (a sorted set) and lists each
        # folder's .jpg files in directory order
        self._events.update(d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d)))
        if not self._events:
            raise pipeline_error(f"Invalid file, no subfolder found under path: {folder}")
        out = []
        for d in sorted(self._events):
            sub = os.path.join(folder, d)
            if not os.path.isdir(sub):
                raise pipeline_error(f"Invalid path, failed to open dir: {sub}")
            out += [os.path.join(sub, f) for f in os.listdir(sub) if os.path.splitext(f)[1] == ".jpg"]
        if not out:
            raise pipeline_error(f"Invalid file, no .jpg file found under path: {folder}")
        return out

    def _read_boxes(self, list_path, folder):
        lines = iter(_tokens(list_path) if os.path.exists(list_path) else [])
        for t in lines:
            path = os.path.join(folder, " ".join(t))
            try:
                n = int(next(lines)[0])
            except (StopIteration, IndexError, ValueError):
                raise pipeline_error("Invalid data, failed to read the number of bbox") from None
            rows = [next(lines, []) for _ in range(max(n, 1))]
            self._boxes[path] = [[int(v) for v in r] for r in rows]

    def _extra(self, item):
        if self.usage == "test":
            return []
        flat = np.asarray([v for r in self._boxes.get(item[1], []) for v in r], np.int64)
        if flat.size % 10:
            raise pipeline_error(
                f"Invalid parameter, only annotation with size multiple of eight are accepted, but got: {flat.size}"
            )
        a = flat.reshape(-1, 10).astype(np.int32)
        return [a[:, :4], *(a[:, k] for k in range(4, 10))]
