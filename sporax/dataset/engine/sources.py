"""Source datasets: GeneratorDataset, NumpySlicesDataset, MnistDataset, Cifar10/100Dataset, ImageFolderDataset."""

from __future__ import annotations

import gzip
import numbers
import os
import struct
import threading

import numpy as np

from ..._checkparam import check_dataset_dir, check_dataset_usage
from . import _random
from ._block import BLOCK_ROWS, Block, maybe_stack, to_np
from ._exec import ordered_map
from .datasets import Dataset
from .errors import pipeline_error, wrap_user_call
from .samplers import BuiltinSampler, select_sampler

__all__ = [
    "MappableSource",
    "GeneratorDataset",
    "NumpySlicesDataset",
    "MnistDataset",
    "Cifar10Dataset",
    "Cifar100Dataset",
    "ImageFolderDataset",
]


class MappableSource(Dataset):
    """A source with random access: a sampler picks the rows, the source reads them by index."""

    def __init__(
        self, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None, shard_id=None
    ) -> None:
        super().__init__((), num_parallel_workers)
        if shuffle is not None and not isinstance(shuffle, bool):
            raise TypeError(f"shuffle must be a bool, but got {type(shuffle).__name__}.")
        if num_samples is not None and (
            isinstance(num_samples, bool) or not isinstance(num_samples, numbers.Integral) or num_samples < 0
        ):
            raise ValueError(f"num_samples should be a non-negative integer, but got {num_samples!r}.")
        self.num_samples = None if num_samples is None else int(num_samples)
        self._args = {"shuffle": shuffle, "num_shards": num_shards, "shard_id": shard_id}
        self._sampler: BuiltinSampler = select_sampler(num_samples, sampler, shuffle, num_shards, shard_id)
        if sampler is not None and num_samples and getattr(self._sampler, "num_samples", None) is None:
            self._sampler.num_samples = self.num_samples

    # subclasses
    def _n(self) -> int:
        raise NotImplementedError

    def _fetch(self, idx: np.ndarray) -> list:
        """Columns of the rows ``idx``."""
        raise NotImplementedError

    def _labels(self):
        """The class label of every row (PKSampler), or ``None``."""
        return None

    def use_sampler(self, new_sampler) -> None:
        """Replace the sampler."""
        self._sampler = select_sampler(None, new_sampler, None, None, None)
        self._dataset_size = None

    def add_sampler(self, new_sampler) -> None:
        self.use_sampler(new_sampler)

    def _size(self):
        try:
            return self._sampler.sample_count(self._n())
        except NotImplementedError:
            return None

    def _indices(self, ctx, key) -> np.ndarray:
        s = self._sampler
        # every shard must draw the same permutation: use the configured seed, set or not
        from ..core import config

        seed = config.get_seed() if s.is_sharded() else ctx.seed
        rng = _random.make(seed, *ctx.path, *key, 11)
        return s.sample(self._n(), rng, self._labels() if _needs_labels(s) else None)

    def _fetch_block(self, item) -> Block:
        start, idx = item
        return Block(self._fetch(idx), len(idx), start)

    def _iter(self, ctx, key):
        idx = self._indices(ctx, key)
        chunks = ((a, idx[a : a + BLOCK_ROWS]) for a in range(0, len(idx), BLOCK_ROWS))
        yield from ordered_map(chunks, self._fetch_block, self._fetch_workers(), ctx, processes=self._fetch_processes())

    def _fetch_workers(self) -> int:
        return 1

    def _fetch_processes(self) -> bool:
        return False


def _needs_labels(s) -> bool:
    while s is not None:
        if getattr(s, "class_column", None):
            return True
        s = s.get_child()
    return False


# ====================================================================== generator
def _row_values(item, ncols: int, names) -> tuple:
    if isinstance(item, dict):
        item = tuple(item.values())
    elif not isinstance(item, tuple):
        if isinstance(item, list) and ncols > 1 and len(item) == ncols:
            item = tuple(item)
        else:
            item = (item,)
    if len(item) != ncols:
        raise pipeline_error(
            "Invalid Python function, the 'source' of 'GeneratorDataset' should return same number of NumPy arrays "
            f"as specified in column_names, the size of column_names is:{ncols} and number of returned NumPy array "
            f"is:{len(item)}"
        )
    return item


class GeneratorDataset(MappableSource):
    """A dataset read from Python: a random-access object (``__getitem__`` and ``__len__``), an iterable, or a
    generator function.

    Args:
        source (Union[Callable, Iterable, Random Accessible]): the data.
        column_names (Union[str, list[str]], optional): column names. Default: ``None`` (then ``schema`` is needed).
        column_types (list[mindspore.dtype], optional): column dtypes. Default: ``None``, as produced.
        schema (Union[str, Schema], optional): a schema giving names and types. Default: ``None``.
        num_samples (int, optional): at most this many rows. Default: ``None``, all.
        num_parallel_workers (int, optional): workers reading a random-access source. Default: 1.
        shuffle (bool, optional): shuffle (random-access sources). Default: ``None`` (``True``).
        sampler (Union[Sampler, Iterable], optional): a sampler (random-access sources). Default: ``None``.
        num_shards (int, optional): number of shards. Default: ``None``.
        shard_id (int, optional): this shard. Default: ``None``.
        python_multiprocessing (bool, optional): read in worker processes. Default: ``True``.
        max_rowsize (int, optional): accepted for compatibility. Default: ``None``.
    """

    def __init__(
        self,
        source,
        column_names=None,
        column_types=None,
        schema=None,
        num_samples=None,
        num_parallel_workers=1,
        shuffle=None,
        sampler=None,
        num_shards=None,
        shard_id=None,
        python_multiprocessing=True,
        max_rowsize=None,
        batch_sampler=None,
        collate_fn=None,
    ) -> None:
        self.source = source
        self._random_access = (
            hasattr(source, "__getitem__")
            and hasattr(source, "__len__")
            and not callable(getattr(source, "__next__", None))
        )
        if not self._random_access and not callable(source) and not hasattr(source, "__iter__"):
            raise TypeError(
                "Input `source` function of GeneratorDataset should be callable, iterable or random accessible, commonly it should implement one of the method like yield, __getitem__ or __next__(__iter__)."
            )
        if not self._random_access and (sampler is not None or shuffle or num_shards is not None):
            raise ValueError(
                "sampler, shuffle and sharding are not supported by GeneratorDataset with an iterable source (it needs __getitem__ and __len__)."
            )
        if schema is not None:
            from .schema import Schema

            sch = schema if isinstance(schema, Schema) else Schema(schema)
            column_names = [c["name"] for c in sch.columns]
            column_types = [c["type"] for c in sch.columns]
        names = [column_names] if isinstance(column_names, str) else column_names
        if not names or not all(isinstance(c, str) for c in names):
            raise ValueError("Neither columns_names nor schema are provided.")
        if len(set(names)) != len(names):
            raise ValueError(f"column_names has duplicate names: {names}.")
        self.column_names = list(names)
        if column_types is not None and len(column_types) != len(self.column_names):
            raise ValueError("column_types must have as many entries as column_names.")
        from ...common import dtype as mstype

        self._np_types = (
            None if column_types is None else [None if t is None else mstype.to_np(t) for t in column_types]
        )
        super().__init__(
            num_samples, num_parallel_workers, shuffle if self._random_access else False, sampler, num_shards, shard_id
        )
        self.python_multiprocessing = bool(python_multiprocessing)
        self._lock = threading.Lock()

    def _columns(self):
        return list(self.column_names)

    def _workers(self):
        return self.num_parallel_workers or 1

    def _fetch_workers(self):
        return self._workers()

    def _fetch_processes(self):
        return self.python_multiprocessing and self._workers() > 1

    def _n(self):
        if not self._random_access:
            raise NotImplementedError
        return len(self.source)

    def _size(self):
        if not self._random_access:
            return None if self.num_samples is None else None
        return super()._size()

    def _convert(self, rows: list) -> list:
        ncols = len(self.column_names)
        cols: list = [[] for _ in range(ncols)]
        for item in rows:
            vals = _row_values(item, ncols, self.column_names)
            for k in range(ncols):
                cols[k].append(to_np(vals[k]))
        if self._np_types is not None:
            for k, t in enumerate(self._np_types):
                if t is not None:
                    cols[k] = [np.asarray(v).astype(t, copy=False) for v in cols[k]]
        return [maybe_stack(c) for c in cols]

    def _fetch(self, idx):
        rows = []
        src = self.source
        for i in idx.tolist():
            try:
                rows.append(src[i])
            except Exception as e:
                raise wrap_user_call(e, "") from None
        return self._convert(rows)

    def _iter(self, ctx, key):
        if self._random_access:
            yield from super()._iter(ctx, key)
            return
        src = self.source
        try:
            it = iter(src() if callable(src) and not hasattr(src, "__iter__") else src)
        except Exception as e:
            from ._exec import raise_failure

            raise_failure(wrap_user_call(e, ""))
        limit = self.num_samples or None
        start = 0
        while limit is None or start < limit:
            rows = []
            k = BLOCK_ROWS if limit is None else min(BLOCK_ROWS, limit - start)
            try:
                for _ in range(k):
                    rows.append(next(it))
            except StopIteration:
                pass
            except Exception as e:
                from ._exec import raise_failure

                raise_failure(wrap_user_call(e, ""))
            if not rows:
                return
            yield Block(self._convert(rows), len(rows), start)
            start += len(rows)
            if len(rows) < k:
                return


# ====================================================================== numpy slices
class NumpySlicesDataset(GeneratorDataset):
    """Rows sliced from arrays along their first axis.

    Args:
        data (Union[list, tuple, dict, numpy.ndarray]): a list or array (one column), a tuple (one column per
            element) or a dict (``{name: array}``).
        column_names (list[str], optional): column names. Default: ``column_0``, ``column_1``... (dict keys).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as for GeneratorDataset.
    """

    def __init__(
        self,
        data,
        column_names=None,
        num_samples=None,
        num_parallel_workers=1,
        shuffle=None,
        sampler=None,
        num_shards=None,
        shard_id=None,
    ) -> None:
        if isinstance(data, dict):
            names = [str(k) for k in data]
            arrays = [np.asarray(v) for v in data.values()]
        elif isinstance(data, tuple):
            names = [f"column_{i}" for i in range(len(data))]
            arrays = [np.asarray(v) for v in data]
        elif isinstance(data, (list, np.ndarray)):
            names = ["column_0"]
            arrays = [np.asarray(data)]
        elif hasattr(data, "to_dict") and hasattr(data, "columns"):  # pandas.DataFrame
            names = [str(c) for c in data.columns]
            arrays = [np.asarray(data[c]) for c in data.columns]
        else:
            raise TypeError(
                f"Unsupported data type {type(data).__name__} for NumpySlicesDataset: use a list, tuple, dict or numpy.ndarray."
            )
        if column_names is not None:
            cn = [column_names] if isinstance(column_names, str) else list(column_names)
            if len(cn) != len(arrays):
                raise ValueError(f"NumpySlicesDataset: {len(cn)} column_names for {len(arrays)} columns.")
            names = cn
        for a in arrays:
            if a.ndim == 0:
                raise ValueError("NumpySlicesDataset: every column must have at least one dimension to slice.")
            if a.dtype == object:
                raise TypeError("NumpySlicesDataset: columns must be rectangular numeric or string arrays.")
        lens = {len(a) for a in arrays}
        if len(lens) > 1:
            raise ValueError(f"NumpySlicesDataset: columns have different lengths {sorted(lens)}.")
        self._arrays = [np.ascontiguousarray(a) for a in arrays]
        super().__init__(
            _Slices(self._arrays),
            column_names=names,
            num_samples=num_samples,
            num_parallel_workers=num_parallel_workers,
            shuffle=shuffle,
            sampler=sampler,
            num_shards=num_shards,
            shard_id=shard_id,
            python_multiprocessing=False,
        )

    def _fetch(self, idx):
        return [a[idx] for a in self._arrays]


class _Slices:
    def __init__(self, arrays) -> None:
        self.arrays = arrays

    def __len__(self) -> int:
        return len(self.arrays[0])

    def __getitem__(self, i):
        return tuple(a[i] for a in self.arrays)


# ====================================================================== file helpers
_cache: dict = {}
_cache_lock = threading.Lock()


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise pipeline_error(f"Invalid file, failed to decompress {path}: {e}") from None
    return data


def _cached(key, load):
    try:
        st = os.stat(key[1])
        full = (*key, st.st_mtime_ns, st.st_size)
    except OSError:
        full = key
    with _cache_lock:
        hit = _cache.get(full)
    if hit is not None:
        return hit
    val = load()
    with _cache_lock:
        if len(_cache) > 16:
            _cache.clear()
        _cache[full] = val
    return val


# ====================================================================== MNIST
def _find(d: str, base: str) -> str | None:
    for name in (base, base + ".gz", base.replace("-idx", ".idx"), base.replace("-idx", ".idx") + ".gz"):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return p
    return None


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
        self.extensions = tuple(e.lower() for e in extensions) if extensions else None
        self.decode = bool(decode)
        classes = sorted(e.name for e in os.scandir(self.dataset_dir) if e.is_dir())
        if class_indexing is not None:
            if not isinstance(class_indexing, dict):
                raise TypeError("class_indexing must be a dict of {class name: label}.")
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
