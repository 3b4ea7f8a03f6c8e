"""Face, detection and segmentation corpora read from their published layouts: LFW (faces, people and pairs),
KITTI (2D object detection), WIDER FACE, Cityscapes, SBD (semantic boundaries), PhotoTour (patch matching) and
LSUN scenes (exported to image folders).

Column names, dtypes, shapes and row order follow MindSpore 2.10, checked against it on small files in each
layout (tools/make_ms_dataset_sources_reference.py, tests/ut/dataset/test_sources_detection.py).
"""

from __future__ import annotations

import os

import numpy as np

from ..._checkparam import check_dataset_dir, check_dataset_usage, check_pipeline_bool, check_pipeline_choice
from ._block import maybe_stack
from .datasets_image_folders import _ImageRows
from .datasets_vision import _read_image
from .errors import pipeline_error

__all__ = [
    "CityscapesDataset",
    "KITTIDataset",
    "LFWDataset",
    "LSUNDataset",
    "PhotoTourDataset",
    "SBDataset",
    "WIDERFaceDataset",
]


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
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.task = check_pipeline_choice(task, ("people", "pairs"), "task") or "people"
        self.usage = check_pipeline_choice(usage, ("10fold", "train", "test", "all"), "usage") or "all"
        self.image_set = check_pipeline_choice(image_set, tuple(self._FOLDERS), "image_set") or "funneled"
        self.decode = bool(check_pipeline_bool(decode, "decode"))
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
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_pipeline_choice(usage, ("train", "test"), "usage") or "train"
        self.decode = bool(check_pipeline_bool(decode, "decode"))
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
            kept: list = []
            names: set[str] = set()
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
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, ("train", "test", "valid", "all"))
        self.decode = bool(check_pipeline_bool(decode, "decode"))
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


# ---------------------------------------------------------------------------------------- Cityscapes
class CityscapesDataset(_ImageRows):
    """Cityscapes: ``leftImg8bit/<split>/<city>/<name>_leftImg8bit.png`` with ``gtFine`` / ``gtCoarse``
    ``/<split>/<city>/<name>_<gtFine|gtCoarse>_<instanceIds|labelIds|color>.png`` or ``..._polygons.json``.
    Columns image and task: the png files' bytes (uint8, decoded to HWC with ``decode=True``), or for
    ``task='polygon'`` the json file re-serialised compactly with sorted keys (a str). Rows of a split are
    ordered by image path; ``usage='all'`` reads train, test, val (fine) or train, train_extra, val (coarse)."""

    _COLUMNS = ["image", "task"]
    _SUFFIX = {
        "instance": "instanceIds.png",
        "semantic": "labelIds.png",
        "color": "color.png",
        "polygon": "polygons.json",
    }

    def __init__(self, dataset_dir, usage="train", quality_mode="fine", task="instance", num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=None, sampler=None, num_shards=None, shard_id=None,
                 cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.task = check_pipeline_choice(task, ("instance", "semantic", "polygon", "color"), "task")
        self.quality_mode = check_pipeline_choice(quality_mode, ("fine", "coarse"), "quality_mode")
        splits = ("train", "test", "val") if quality_mode == "fine" else ("train", "train_extra", "val")
        self.usage = check_pipeline_choice(usage, (*splits, "all"), "usage")
        self.decode = bool(check_pipeline_bool(decode, "decode"))
        gt = "gtFine" if self.quality_mode == "fine" else "gtCoarse"
        self._items = []
        for split in splits if self.usage == "all" else (self.usage,):
            pairs = {}
            image_dir = os.path.join(self.dataset_dir, "leftImg8bit", split)
            task_dir = os.path.join(self.dataset_dir, gt, split)
            for d in (image_dir, task_dir):
                if not os.path.isdir(d):
                    raise pipeline_error(f"Invalid path, {d} is an invalid directory path.")
            for city in os.listdir(image_dir):
                if not os.path.isdir(os.path.join(image_dir, city)):
                    continue
                for f in os.listdir(os.path.join(image_dir, city)):
                    if os.path.splitext(f)[1] != ".png":
                        continue
                    stem = f.split("_leftImg8bit")[0]
                    target = os.path.join(task_dir, city, f"{stem}_{gt}_{self._SUFFIX[self.task]}")
                    if not os.path.exists(target):
                        raise pipeline_error(f"Invalid file, {target} not found.")
                    pairs[os.path.join(image_dir, city, f)] = target
            self._items += sorted(pairs.items())
        if not self._items:
            raise pipeline_error(
                "Invalid data, no valid data matching the dataset API CityscapesDataset. Please check file path or "
                "dataset API."
            )
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _extra(self, item):
        if self.task != "polygon":
            return [_read_image(item[1], self.decode)]
        import json

        try:
            with open(item[1], encoding="utf-8") as f:
                content = json.load(f)
        except OSError:
            raise pipeline_error(f"Invalid file, failed to open json file: {item[1]}") from None
        return [np.asarray(json.dumps(content, separators=(",", ":"), sort_keys=True, ensure_ascii=False))]


# ---------------------------------------------------------------------------------------- SBD
class SBDataset(_ImageRows):
    """Semantic Boundaries Dataset: ``img/<id>.jpg``, ``cls/<id>.mat`` (a ``GTcls`` struct) and the id lists
    ``train.txt``, ``val.txt``, ``train_noval.txt`` (``usage='all'``: train then val). Columns image (the jpg
    bytes, or HWC RGB with ``decode=True``) and task: for ``'Boundaries'`` the 20 class boundary maps stacked
    ``[20, H, W]``, for ``'Segmentation'`` the ``[H, W]`` class map."""

    _COLUMNS = ["image", "task"]

    def __init__(self, dataset_dir, task="Boundaries", usage="all", num_samples=None, num_parallel_workers=1,
                 shuffle=None, decode=None, sampler=None, num_shards=None, shard_id=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_pipeline_choice(usage, ("train", "val", "train_noval", "all"), "usage") or "all"
        self.task = check_pipeline_choice(task, ("Boundaries", "Segmentation"), "task") or "Boundaries"
        self.decode = bool(check_pipeline_bool(decode, "decode"))
        names = []
        for split in ("train", "val") if self.usage == "all" else (self.usage,):
            path = os.path.join(self.dataset_dir, split + ".txt")
            if not os.path.exists(path):
                raise FileNotFoundError(f"SBDataset: {path} not found")
            with open(path, encoding="utf-8") as f:
                names += [x.strip() for x in f.readlines()]
        self._items = [
            (os.path.join(self.dataset_dir, "img", n + ".jpg"), os.path.join(self.dataset_dir, "cls", n + ".mat"))
            for n in names
        ]
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _image(self, path):
        if not self.decode:
            return np.fromfile(path, dtype=np.uint8)
        from PIL import Image

        with Image.open(path) as im:
            return np.asarray(im.convert("RGB"))

    def _fetch(self, idx):
        items = [self._items[i] for i in idx.tolist()]
        return [maybe_stack([self._image(it[0]) for it in items]), maybe_stack([self._extra(it)[0] for it in items])]

    def _extra(self, item):
        from scipy.io import loadmat

        gt = loadmat(item[1])["GTcls"][0][self.task][0]
        if self.task == "Segmentation":
            from PIL import Image

            return [np.asarray(Image.fromarray(gt))]
        return [np.concatenate([gt[i][0].toarray()[None] for i in range(20)], axis=0)]


# ---------------------------------------------------------------------------------------- PhotoTour
_PHOTOTOUR_SIZES = {"notredame": 468159, "yosemite": 633587, "liberty": 450092, "liberty_harris": 379587,
                    "yosemite_harris": 450912, "notredame_harris": 325295}  # fmt: skip


def _words(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as f:
            words = f.read().split()
    except OSError:
        raise pipeline_error(
            f"Invalid file, failed to open {path}: PhotoTour info file is damaged or permission denied."
        ) from None
    if not words:
        raise pipeline_error(f"Invalid file, the file size of {path} is unexpected, got size 0.")
    return words


class PhotoTourDataset(_ImageRows):
    """PhotoTour (Brown) patches: ``<name>/*.bmp`` (1024x1024 grey sheets of 16x16 patches of 64x64, sheets in
    name order), ``info.txt`` (a 3D point id per patch) and ``m50_100000_100000_0.txt`` (matches).
    ``usage='train'`` (the default): image ``[64, 64, 1]`` uint8 for every patch listed in ``info.txt``;
    ``usage='test'``: image1, image2 and matches (uint32: 1 when both patches show the same 3D point)."""

    def __init__(self, dataset_dir, name, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.name = check_pipeline_choice(name, tuple(_PHOTOTOUR_SIZES), "name")
        if name is None:
            raise TypeError("Argument name with value None is not of type [<class 'str'>], but got <class 'NoneType'>.")
        self.usage = check_pipeline_choice(usage, ("train", "test"), "usage") or "train"
        folder = os.path.join(self.dataset_dir, self.name)
        if not os.path.exists(folder):
            raise pipeline_error(f"{folder} does not exist.")
        self._sheets = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith("bmp"))
        self._cache: dict = {}
        if self.usage == "train":
            self._COLUMNS = ["image"]
            self._items = [(i,) for i in range(len(_words(os.path.join(folder, "info.txt"))) // 2)]
        else:
            self._COLUMNS = ["image1", "image2", "matches"]
            words = _words(os.path.join(folder, "m50_100000_100000_0.txt"))
            w = [int(v) for v in words[: len(words) // 7 * 7]]
            self._items = [(w[k], w[k + 3], np.uint32(w[k + 1] == w[k + 4])) for k in range(0, len(w), 7)]
        if not self._items:
            raise pipeline_error(
                "Invalid data, data file may not suitable to read with PhotoTourDataset API.Check file in "
                f"directory: {folder}"
            )
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _patch(self, index):
        if index >= _PHOTOTOUR_SIZES[self.name]:
            raise pipeline_error(f"[Internal ERROR] Index exceeds the maximum count of image, got: {index}")
        sheet, cell = divmod(index, 256)
        img = self._cache.get(sheet)
        if img is None:
            import cv2

            img = self._cache[sheet] = cv2.imread(self._sheets[sheet], cv2.IMREAD_GRAYSCALE)
        r, c = divmod(cell, 16)
        return np.ascontiguousarray(img[r * 64 : r * 64 + 64, c * 64 : c * 64 + 64, None])

    def _fetch(self, idx):
        items = [self._items[i] for i in idx.tolist()]
        if self.usage == "train":
            return [maybe_stack([self._patch(it[0]) for it in items])]
        return [
            maybe_stack([self._patch(it[0]) for it in items]),
            maybe_stack([self._patch(it[1]) for it in items]),
            np.asarray([it[2] for it in items], np.uint32),
        ]


# ---------------------------------------------------------------------------------------- LSUN
_LSUN_CLASSES = ("bedroom", "bridge", "church_outdoor", "classroom", "conference_room", "dining_room", "kitchen",
                 "living_room", "restaurant", "tower")  # fmt: skip


class LSUNDataset(_ImageRows):
    """LSUN scenes exported to image folders (``<class>_train/``, ``<class>_val/``, ``test/`` under
    ``dataset_dir``; a folder is taken when its name contains ``<class>_train`` or ``<class>_val``): image (the
    file's bytes, or HWC RGB with ``decode=True``) and label (uint32: the folder's rank among the folders taken).
    Every file of a folder is read, in name order. ``usage``: train, valid, test (label 0) or all (the
    default); ``classes``: a list of scene names (default all ten).

    MindSpore 2.10 reports a dataset size of 0 for ``usage='test'`` although it reads the test images; sporax
    reports their number."""

    _COLUMNS = ["image", "label"]

    def __init__(self, dataset_dir, usage=None, classes=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, ("train", "test", "valid", "all"))
        if classes is not None:
            if not isinstance(classes, list):
                raise TypeError(
                    f"Argument classes with value {classes} is not of type [<class 'list'>], but got {type(classes)}."
                )
            for c in classes:
                check_pipeline_choice(c, _LSUN_CLASSES, "classes")
        self.classes = classes
        self.decode = bool(check_pipeline_bool(decode, "decode"))
        if self.usage == "test":
            folders = ["test"]
        else:
            splits = [s for u, s in (("train", "_train"), ("valid", "_val")) if self.usage in (u, "all")]
            wanted = classes or _LSUN_CLASSES
            folders = sorted(
                name for name in os.listdir(self.dataset_dir) for s in splits for c in wanted if c + s in name
            )
        self._items = []
        for k, name in enumerate(folders):
            d = os.path.join(self.dataset_dir, name)
            if not os.path.isdir(d):
                raise pipeline_error(f"Invalid path, failed to open dir: {d}, not exists or permission denied.")
            label = np.uint32(0 if self.usage == "test" else k)
            self._items += [
                (os.path.join(d, f), label) for f in sorted(os.listdir(d)) if os.path.isfile(os.path.join(d, f))
            ]
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _labels(self):
        return np.asarray([it[1] for it in self._items], np.uint32)

    def _fetch(self, idx):
        if not self.decode:
            return super()._fetch(idx)
        images = []
        for i in idx.tolist():
            path = self._items[i][0]
            try:
                images.append(_read_image(path, True))
            except RuntimeError:
                raise pipeline_error(
                    f"Invalid image, {path} decode failed, the image is broken or permission denied."
                ) from None
        return [maybe_stack(images), np.asarray([self._items[i][1] for i in idx.tolist()], np.uint32)]
