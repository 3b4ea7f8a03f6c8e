"""Image corpora laid out as folders and list files: Caltech-101, Flowers-102, Omniglot, Places365, RenderedSST2,
SBU and the USPS digits (libsvm text files).

Each reader follows the layout MindSpore 2.10 documents; column names, dtypes and row order were checked
against MindSpore 2.10 on small files in those layouts (tests/ut/dataset/test_sources_folders.py).
"""

from __future__ import annotations

import os

import numpy as np

from ..._checkparam import (
    check_class_indexing,
    check_dataset_dir,
    check_dataset_file,
    check_dataset_usage,
    check_pipeline_bool,
    check_pipeline_choice,
    check_pipeline_type,
)
from ._block import FILE_BLOCK_ROWS, maybe_stack
from ._file_source import FileRowSource, read_text
from .datasets_vision import _read_image
from .errors import pipeline_error
from .sources import MappableSource

__all__ = [
    "ImageFolderDataset",
    "Caltech101Dataset",
    "Flowers102Dataset",
    "OmniglotDataset",
    "Places365Dataset",
    "RenderedSST2Dataset",
    "SBUDataset",
    "USPSDataset",
]


class _ImageRows(MappableSource):
    """Rows of (image file, *other columns): ``_items`` is a list of tuples whose first entry is the image path;
    ``_extra_columns`` turns the rest of each tuple into arrays."""

    _block_rows = FILE_BLOCK_ROWS

    _COLUMNS = ["image", "label"]
    _items: list
    decode = False

    def _columns(self):
        return list(self._COLUMNS)

    def _n(self):
        return len(self._items)

    def _extra(self, item) -> list:
        return [np.asarray(v) for v in item[1:]]

    def _fetch(self, idx):
        items = [self._items[i] for i in idx.tolist()]
        images = maybe_stack([_read_image(it[0], self.decode) for it in items])
        extras = [self._extra(it) for it in items]
        return [images, *(maybe_stack([e[c] for e in extras]) for c in range(len(self._COLUMNS) - 1))]


# ---------------------------------------------------------------------------------------- Caltech-101
# The published category names of the two corpora (get_class_indexing gives them whatever is on disk).
_CALTECH101_CLASSES = (
    "Faces",
    "Faces_easy",
    "Leopards",
    "Motorbikes",
    "accordion",
    "airplanes",
    "anchor",
    "ant",
    "barrel",
    "bass",
    "beaver",
    "binocular",
    "bonsai",
    "brain",
    "brontosaurus",
    "buddha",
    "butterfly",
    "camera",
    "cannon",
    "car_side",
    "ceiling_fan",
    "cellphone",
    "chair",
    "chandelier",
    "cougar_body",
    "cougar_face",
    "crab",
    "crayfish",
    "crocodile",
    "crocodile_head",
    "cup",
    "dalmatian",
    "dollar_bill",
    "dolphin",
    "dragonfly",
    "electric_guitar",
    "elephant",
    "emu",
    "euphonium",
    "ewer",
    "ferry",
    "flamingo",
    "flamingo_head",
    "garfield",
    "gerenuk",
    "gramophone",
    "grand_piano",
    "hawksbill",
    "headphone",
    "hedgehog",
    "helicopter",
    "ibis",
    "inline_skate",
    "joshua_tree",
    "kangaroo",
    "ketch",
    "lamp",
    "laptop",
    "llama",
    "lobster",
    "lotus",
    "mandolin",
    "mayfly",
    "menorah",
    "metronome",
    "minaret",
    "nautilus",
    "octopus",
    "okapi",
    "pagoda",
    "panda",
    "pigeon",
    "pizza",
    "platypus",
    "pyramid",
    "revolver",
    "rhino",
    "rooster",
    "saxophone",
    "schooner",
    "scissors",
    "scorpion",
    "sea_horse",
    "snoopy",
    "soccer_ball",
    "stapler",
    "starfish",
    "stegosaurus",
    "stop_sign",
    "strawberry",
    "sunflower",
    "tick",
    "trilobite",
    "umbrella",
    "watch",
    "water_lilly",
    "wheelchair",
    "wild_cat",
    "windsor_chair",
    "wrench",
    "yin_yang",
)
_FLOWERS102_CLASSES = (
    "pink primrose",
    "hard-leaved pocket orchid",
    "canterbury bells",
    "sweet pea",
    "english marigold",
    "tiger lily",
    "moon orchid",
    "bird of paradise",
    "monkshood",
    "globe thistle",
    "snapdragon",
    "colt's foot",
    "king protea",
    "spear thistle",
    "yellow iris",
    "globe-flower",
    "purple coneflower",
    "peruvian lily",
    "balloon flower",
    "giant white arum lily",
    "fire lily",
    "pincushion flower",
    "fritillary",
    "red ginger",
    "grape hyacinth",
    "corn poppy",
    "prince of wales feathers",
    "stemless gentian",
    "artichoke",
    "sweet william",
    "carnation",
    "garden phlox",
    "love in the mist",
    "mexican aster",
    "alpine sea holly",
    "ruby-lipped cattleya",
    "cape flower",
    "great masterwort",
    "siam tulip",
    "lenten rose",
    "barbeton daisy",
    "daffodil",
    "sword lily",
    "poinsettia",
    "bolero deep blue",
    "wallflower",
    "marigold",
    "buttercup",
    "oxeye daisy",
    "common dandelion",
    "petunia",
    "wild pansy",
    "primula",
    "sunflower",
    "pelargonium",
    "bishop of llandaff",
    "gaura",
    "geranium",
    "orange dahlia",
    "pink-yellow dahlia?",
    "cautleya spicata",
    "japanese anemone",
    "black-eyed susan",
    "silverbush",
    "californian poppy",
    "osteospermum",
    "spring crocus",
    "bearded iris",
    "windflower",
    "tree poppy",
    "gazania",
    "azalea",
    "water lily",
    "rose",
    "thorn apple",
    "morning glory",
    "passion flower",
    "lotus",
    "toad lily",
    "anthurium",
    "frangipani",
    "clematis",
    "hibiscus",
    "columbine",
    "desert-rose",
    "tree mallow",
    "magnolia",
    "cyclamen",
    "watercress",
    "canna lily",
    "hippeastrum",
    "bee balm",
    "ball moss",
    "foxglove",
    "bougainvillea",
    "camellia",
    "mallow",
    "mexican petunia",
    "bromelia",
    "blanket flower",
    "trumpet creeper",
    "blackberry lily",
)

_CALTECH101_ANNOTATION_DIRS = {
    "Faces": "Faces_2",
    "Faces_easy": "Faces_3",
    "Motorbikes": "Motorbikes_16",
    "airplanes": "Airplanes_Side_2",
}


class Caltech101Dataset(_ImageRows):
    """Caltech-101 (``101_ObjectCategories/<class>/image_<nnnn>.jpg``, contours in
    ``Annotations/<class>/annotation_<nnnn>.mat``): columns by ``target_type`` — ``'category'``: image, category
    (int64, the class's rank in name order, ``BACKGROUND_Google`` left out); ``'annotation'``: image, annotation
    (the ``obj_contour`` array of the .mat file); ``'all'``: image, category, annotation."""

    def __init__(self, dataset_dir, target_type=None, num_samples=None, num_parallel_workers=1, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.target_type = (
            check_pipeline_choice(target_type, ("category", "annotation", "all"), "target_type") or "category"
        )
        self.decode = bool(check_pipeline_bool(decode, "decode"))
        self._COLUMNS = {"category": ["image", "category"], "annotation": ["image", "annotation"]}.get(
            self.target_type, ["image", "category", "annotation"]
        )
        image_dir = os.path.join(self.dataset_dir, "101_ObjectCategories")
        classes = sorted(c for c in os.listdir(image_dir) if c != "BACKGROUND_Google")
        self._items = []
        for k, c in enumerate(classes):
            sub = os.path.join(image_dir, c)
            if not os.path.isdir(sub) or not os.access(sub, os.R_OK):
                continue
            for i in range(1, len(os.listdir(sub)) + 1):
                ann = os.path.join(
                    self.dataset_dir, "Annotations", _CALTECH101_ANNOTATION_DIRS.get(c, c), f"annotation_{i:04d}.mat"
                )
                self._items.append((os.path.join(sub, f"image_{i:04d}.jpg"), k, ann))
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _extra(self, item):
        out = []
        if self.target_type in ("category", "all"):
            out.append(np.asarray(item[1], np.int64))
        if self.target_type in ("annotation", "all"):
            from scipy.io import loadmat

            out.append(np.asarray(loadmat(check_dataset_file(item[2]))["obj_contour"]))
        return out

    def _fetch(self, idx):
        for i in idx.tolist():
            check_dataset_file(self._items[i][0])
        return super()._fetch(idx)

    def get_class_indexing(self):
        """The class name -> index mapping of Caltech-101's 101 categories."""
        return {c: i for i, c in enumerate(_CALTECH101_CLASSES)}


# ---------------------------------------------------------------------------------------- Flowers-102
class Flowers102Dataset(_ImageRows):
    """Oxford 102 Flowers (``jpg/image_<nnnnn>.jpg``, ``imagelabels.mat``, ``setid.mat``; ``segmim/`` for the
    segmentation task): ``'Classification'`` rows are image, label (uint32, 0..101); ``'Segmentation'`` rows
    are image, segmentation, label. ``usage``: train, valid, test or all (train, then test, then valid)."""

    _SETS = {"train": ["trnid"], "test": ["tstid"], "valid": ["valid"], "all": ["trnid", "tstid", "valid"]}

    def __init__(self, dataset_dir, task="Classification", usage="all", num_samples=None, num_parallel_workers=1,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None) -> None:  # fmt: skip
        from scipy.io import loadmat

        self.dataset_dir = check_dataset_dir(dataset_dir)
        check_dataset_dir(os.path.join(self.dataset_dir, "jpg"))
        self.task = check_pipeline_choice(task, ("Classification", "Segmentation"), "task") or "Classification"
        self.usage = check_dataset_usage(usage, ("train", "valid", "test", "all"))
        self.decode = bool(check_pipeline_bool(decode, "decode"))
        if self.task == "Segmentation":
            check_dataset_dir(os.path.join(self.dataset_dir, "segmim"))
            self._COLUMNS = ["image", "segmentation", "label"]
        labels = (
            loadmat(check_dataset_file(os.path.join(self.dataset_dir, "imagelabels.mat")))["labels"][0] - 1
        ).astype(np.uint32)
        setid = loadmat(check_dataset_file(os.path.join(self.dataset_dir, "setid.mat")))
        ids = [int(i) for key in self._SETS[self.usage] for i in setid[key][0].tolist()]
        self._items = []
        for i in ids:
            img = os.path.join(self.dataset_dir, "jpg", f"image_{i:05d}.jpg")
            seg = os.path.join(self.dataset_dir, "segmim", f"segmim_{i:05d}.jpg")
            self._items.append((img, seg, labels[i - 1]))
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _extra(self, item):
        label = np.asarray(item[2], np.uint32)
        if self.task == "Segmentation":
            if not os.path.exists(item[1]):
                raise RuntimeError("Can not find segmentation file: " + item[1])
            return [_read_image(item[1], self.decode), label]
        return [label]

    def _fetch(self, idx):
        for i in idx.tolist():
            if not os.path.exists(self._items[i][0]):
                raise RuntimeError("Can not find image file: " + self._items[i][0])
        return super()._fetch(idx)

    def get_class_indexing(self):
        """The class name -> index mapping of the 102 flower categories."""
        return {c: i for i, c in enumerate(_FLOWERS102_CLASSES)}


# ---------------------------------------------------------------------------------------- Omniglot
class OmniglotDataset(_ImageRows):
    """Omniglot (``images_background/<alphabet>/<character>/<nn>.png``, ``images_evaluation/...``): image and
    label (int32: the character's rank among all ``<alphabet>/<character>`` folders in name order).
    ``background=True`` (the default) reads the background set, ``False`` the evaluation set."""

    def __init__(self, dataset_dir, background=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.background = True if check_pipeline_bool(background, "background") is None else background
        self.decode = bool(check_pipeline_bool(decode, "decode"))
        root = check_dataset_dir(
            os.path.join(self.dataset_dir, "images_background" if self.background else "images_evaluation")
        )
        chars = [
            os.path.join(a, c)
            for a in sorted(os.listdir(root))
            if os.path.isdir(os.path.join(root, a))
            for c in sorted(os.listdir(os.path.join(root, a)))
            if os.path.isdir(os.path.join(root, a, c))
        ]
        self._items = [
            (os.path.join(root, ch, f), np.int32(k))
            for k, ch in enumerate(chars)
            for f in sorted(os.listdir(os.path.join(root, ch)))
            if os.path.isfile(os.path.join(root, ch, f))
        ]
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _labels(self):
        return np.asarray([it[1] for it in self._items], np.int32)


# ---------------------------------------------------------------------------------------- Places365
class Places365Dataset(_ImageRows):
    """Places365 (``places365_train_standard.txt`` / ``places365_train_challenge.txt`` / ``places365_val.txt``
    list files of ``<relative path> <label>``; images under ``data_256_standard``/``data_256_challenge``/
    ``val_256``, or the ``large`` folders when ``small=False``): image and label (uint32). ``usage``:
    train-standard (the default), train-challenge or val."""

    _LISTS = {"train-standard": "places365_train_standard.txt", "train-challenge": "places365_train_challenge.txt",
              "val": "places365_val.txt"}  # fmt: skip

    def __init__(self, dataset_dir, usage=None, small=True, decode=False, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage("train-standard" if usage is None else usage, tuple(self._LISTS))
        self.small = bool(check_pipeline_bool(small, "small"))
        self.decode = bool(check_pipeline_bool(decode, "decode"))
        size = "256" if self.small else "large"
        folder = f"val_{size}" if self.usage == "val" else f"data_{size}_{self.usage.split('-')[1]}"
        self._items = []
        for ln in read_text(check_dataset_file(os.path.join(self.dataset_dir, self._LISTS[self.usage]))).splitlines():
            if ln.strip():
                rel, label = ln.rsplit(None, 1)
                self._items.append((os.path.join(self.dataset_dir, folder, rel.lstrip("/")), np.uint32(int(label))))
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _fetch(self, idx):
        for i in idx.tolist():
            if not os.path.isfile(self._items[i][0]):
                from .errors import pipeline_error

                raise pipeline_error(f"Invalid file path, Places365 image: {self._items[i][0]} does not exists.")
        return super()._fetch(idx)


# ---------------------------------------------------------------------------------------- RenderedSST2
class RenderedSST2Dataset(_ImageRows):
    """Rendered SST-2 (``<split>/negative/*.png`` and ``<split>/positive/*.png`` with split train, valid, test):
    image and label (uint32: 0 negative, 1 positive). ``usage``: train, val, test or all (every image, in path
    order)."""

    _SPLITS = {"train": ["train"], "val": ["valid"], "test": ["test"], "all": ["test", "train", "valid"]}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, ("val", "all", "train", "test"))
        self.decode = bool(check_pipeline_bool(decode, "decode"))
        items = []
        for split in self._SPLITS[self.usage]:
            for k, cls in enumerate(("negative", "positive")):
                d = os.path.join(self.dataset_dir, split, cls)
                if os.path.isdir(d):
                    items += [(os.path.join(d, f), np.uint32(k)) for f in os.listdir(d)]
        self._items = sorted(items, key=lambda it: it[0])
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _labels(self):
        return np.asarray([it[1] for it in self._items], np.uint32)


# ---------------------------------------------------------------------------------------- SBU
class SBUDataset(_ImageRows):
    """SBU captioned photos (``SBU_captioned_photo_dataset_urls.txt``, ``..._captions.txt`` and
    ``sbu_images/m_<dir>_<file>.jpg`` for each downloaded url): image and caption (str); urls whose image is
    missing are left out."""

    _COLUMNS = ["image", "caption"]

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.decode = bool(check_pipeline_bool(decode, "decode"))
        urls = read_text(check_dataset_file(os.path.join(self.dataset_dir, "SBU_captioned_photo_dataset_urls.txt")))
        caps = read_text(check_dataset_file(os.path.join(self.dataset_dir, "SBU_captioned_photo_dataset_captions.txt")))
        images = check_dataset_dir(os.path.join(self.dataset_dir, "sbu_images"))
        self._items = []
        for url, cap in zip(urls.splitlines(), caps.splitlines()):
            parts = url.strip().split("/")
            path = os.path.join(images, "m_" + "_".join(parts[-2:]))
            if len(parts) >= 2 and os.path.isfile(path):
                self._items.append((path, cap.strip()))
        if not self._items:
            from .errors import pipeline_error

            raise pipeline_error(f"Invalid data, no valid images in {images}, check SBU dataset.")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)


# ---------------------------------------------------------------------------------------- USPS
class USPSDataset(FileRowSource):
    """USPS digits (the libsvm text files ``usps`` and ``usps.t``: a label 1..10 and 256 ``index:value`` pairs
    with values in [-1, 1] per line): image uint8 ``[16, 16, 1]`` (``(value + 1) / 2 * 255``, truncated) and
    label uint32 (0..9). ``usage``: train, test or all (the two files' rows interleaved)."""

    _FILES = {"train": ["usps"], "test": ["usps.t"], "all": ["usps", "usps.t"]}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle="global",
                 num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, ("train", "test", "all"))
        files = [check_dataset_file(os.path.join(self.dataset_dir, f)) for f in self._FILES[self.usage]]
        super().__init__(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _columns(self):
        return ["image", "label"]

    def _read_file(self, path):
        from .errors import pipeline_error

        rows = []
        for ln in read_text(path).splitlines():
            toks = ln.split()
            if not toks:
                continue
            if len(toks) != 257:
                raise pipeline_error(
                    "Invalid data, the number of split characters ':' in USPS data file is corrupted, "
                    f"should be 257, but got {len(toks)}."
                )
            vals = np.asarray([float(t.split(":", 1)[1]) for t in toks[1:]], np.float64)
            image = np.trunc((vals + 1.0) * 127.5).clip(0, 255).astype(np.uint8).reshape(16, 16, 1)
            rows.append([image, np.asarray(int(float(toks[0])) - 1, np.uint32)])
        return rows


# ====================================================================== image folder
_IMG_EXT = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp", ".gif", ".ppm", ".pgm")


class ImageFolderDataset(MappableSource):
    """Images in class folders: ``dataset_dir/<class>/<image>``. Labels follow the sorted class names
    (or ``class_indexing``).

    Columns ``image`` (the file's bytes as a uint8 array; decoded HWC RGB with ``decode=True``) and
    ``label`` (int32).

    Args:
        dataset_dir (str): the root folder.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as for every source.
        extensions (list[str], optional): file extensions to read. Default: common image extensions.
        class_indexing (dict, optional): ``{class folder: label}``. Default: sorted folder order.
        decode (bool, optional): decode the images. Default: ``False``.
    """

    _block_rows = FILE_BLOCK_ROWS

    def __init__(
        self,
        dataset_dir,
        num_samples=None,
        num_parallel_workers=None,
        shuffle=None,
        sampler=None,
        extensions=None,
        class_indexing=None,
        decode=False,
        num_shards=None,
        shard_id=None,
        cache=None,
        decrypt=None,
    ) -> None:
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.decode = check_pipeline_type(decode, bool, "decode")
        if extensions is not None:
            check_pipeline_type(extensions, (list, tuple), "extensions", "[<class 'list'>]")
        self.extensions = tuple(e.lower() for e in extensions) if extensions else None
        classes = sorted(e.name for e in os.scandir(self.dataset_dir) if e.is_dir())
        if check_class_indexing(class_indexing) is not None:
            index = dict(class_indexing)
            classes = [c for c in classes if c in index]
        else:
            index = {c: i for i, c in enumerate(classes)}
        self._index = index
        files, labels = [], []
        for c in classes:
            for root, _, names in sorted(os.walk(os.path.join(self.dataset_dir, c))):
                for n in sorted(names):
                    ext = os.path.splitext(n)[1].lower()
                    if (ext in self.extensions) if self.extensions else (ext in _IMG_EXT):
                        files.append(os.path.join(root, n))
                        labels.append(index[c])
        self._files = files
        self._label_arr = np.asarray(labels, np.int32)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["image", "label"]

    def _class_indexing(self):
        return dict(self._index)

    def _n(self):
        return len(self._files)

    def _labels(self):
        return self._label_arr

    def _fetch_workers(self):
        return self._workers() if self.decode else 1

    def _fetch(self, idx):
        images = []
        for i in idx.tolist():
            p = self._files[i]
            try:
                with open(p, "rb") as f:
                    raw = np.frombuffer(f.read(), np.uint8)
            except OSError as e:
                raise pipeline_error(f"Invalid file, failed to read {p}: {e}") from None
            if self.decode:
                from ..vision.transforms import _decode

                raw = _decode(raw, p)
            images.append(raw)
        return [maybe_stack(images) if self.decode else images, self._label_arr[idx]]

    def _iter(self, ctx, key):
        if not self._files:
            raise pipeline_error(
                f"Invalid data, no valid data matching the dataset API ImageFolderDataset. Please check dataset_dir: {self.dataset_dir}."
            )
        yield from super()._iter(ctx, key)
