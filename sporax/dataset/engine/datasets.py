"""The dataset graph: :class:`Dataset` and its operations (``map``, ``batch``, ``shuffle``...).

A pipeline runs as a chain of generators of :class:`~._block.Block` objects. Sources cut their rows into
blocks; ``map`` applies its operations to a whole block at once where they are vectorised, row by row
otherwise, on ``num_parallel_workers`` threads (or processes, ``python_multiprocessing=True``); results
are taken back in order, so the output is the same whatever the number of workers.
"""

from __future__ import annotations

import copy
import enum
import logging
import threading
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._checkparam import (
    check_datasets_arg,
    check_ds_callbacks,
    check_max_rowsize,
    check_num_parallel_workers,
    check_pipeline_interval,
    check_pipeline_type,
    check_positive_integer,
    check_split_sizes,
)
from ..core import config
from . import _random
from ._block import Block
from ._exec import Ctx
from ._pipeline_info import PipelineInfo
from .errors import pipeline_error

_log = logging.getLogger("sporax")


def debug_serial(python_multiprocessing: bool, what: str) -> bool:
    """Whether ``ds.config``'s debug mode is on: then a ``map``, ``batch`` or ``GeneratorDataset`` runs in the
    calling thread, without worker threads or processes, as in MindSpore; where ``python_multiprocessing`` was
    asked for, MindSpore's warning that it is ignored for ``what`` is logged."""
    if not config.get_debug_mode():
        return False
    if python_multiprocessing:
        _log.warning(
            f"Python multiprocessing is not supported in debug mode. Ignoring Python multiprocessing for {what}."
        )
    return True


def max_rowsize_form(max_rowsize, batch_size=1) -> list:
    """``max_rowsize`` of ``map`` / ``batch`` (checked, with MindSpore's deprecation warning) in MindSpore's
    stored form ``[in, out]`` (MB per row; a batch's int is per row of its input, so times ``batch_size``; -1:
    sized to the data). MindSpore 2.10 keeps it and sizes the shared memory of these stages to the data; so
    does sporax (only ``GeneratorDataset``'s ``max_rowsize`` limits its worker processes' shared memory)."""
    if max_rowsize is not None:
        _log.warning("'max_rowsize' is deprecated from version 2.8.0 and will be removed in a future version.")
    max_rowsize = check_max_rowsize(max_rowsize)
    if max_rowsize is None:
        return [-1, -1]
    scale = batch_size if isinstance(batch_size, int) else 1
    if isinstance(max_rowsize, int):
        return [max_rowsize * scale] * 2 if max_rowsize != -1 else [-1, -1]
    return [m * scale if m != -1 else -1 for m in max_rowsize]


if TYPE_CHECKING:
    from ._batch_ops import BatchDataset, BucketBatchByLengthDataset, PaddedBatchDataset
    from ._flow_ops import (
        ConcatDataset,
        FlatMapDataset,
        ProjectDataset,
        RenameDataset,
        RepeatDataset,
        ShuffleDataset,
        SkipDataset,
        SyncWaitDataset,
        TakeDataset,
        ZipDataset,
    )
    from ._map_ops import FilterDataset, MapDataset


__all__ = [
    "Dataset",
    "MapDataset",
    "BatchDataset",
    "PaddedBatchDataset",
    "BucketBatchByLengthDataset",
    "ShuffleDataset",
    "RepeatDataset",
    "TakeDataset",
    "SkipDataset",
    "ProjectDataset",
    "RenameDataset",
    "ZipDataset",
    "ConcatDataset",
    "FilterDataset",
    "SyncWaitDataset",
    "FlatMapDataset",
    "BatchInfo",
    "Shuffle",
]


class Shuffle(str, enum.Enum):  # noqa: UP042  (MindSpore's class)
    """Shuffle levels of file-based sources (MindSpore's ``ds.Shuffle``): ``FALSE`` (none), ``ADAPTIVE`` and
    ``GLOBAL`` (files and rows), ``PARTIAL`` (rows, every million), ``FILES`` (the file order only),
    ``INFILE`` (rows within each file, files in order)."""

    FALSE = "false"
    ADAPTIVE = "adaptive"
    GLOBAL = "global"
    PARTIAL = "partial"
    FILES = "files"
    INFILE = "infile"


def output_layout(cols: list[str], ins: list[str], outs: list[str]) -> tuple[list[str], list[tuple[int, int]]]:
    """The columns after an operation that reads ``ins`` of ``cols`` and writes ``outs`` (``map``, ``batch``'s
    ``per_batch_map``): their names, and where each comes from, ``(0, i)`` the input's column ``i`` or ``(1, k)``
    the operation's output ``k``. Outputs as many as inputs take their places; otherwise they come first."""
    for c in ins:
        if c not in cols:
            raise pipeline_error(
                f"Invalid parameter, input column name: {c} doesn't exist in the dataset columns {cols}."
            )
    if len(outs) == len(ins):
        pos = {cols.index(c): k for k, c in enumerate(ins)}
        names = [outs[pos[i]] if i in pos else c for i, c in enumerate(cols)]
        layout = [(1, pos[i]) if i in pos else (0, i) for i in range(len(cols))]
    else:
        rest = [i for i, c in enumerate(cols) if c not in ins]
        names = list(outs) + [cols[i] for i in rest]
        layout = [(1, k) for k in range(len(outs))] + [(0, i) for i in rest]
    return names, layout


def _is_builtin_op(op) -> bool:
    from ..transforms.transforms import TensorOperation

    return isinstance(op, TensorOperation)


def _op_name(op) -> str:
    return type(op).__name__ if _is_builtin_op(op) else "PyFunc"


class BatchInfo:
    """What ``per_batch_map`` and a callable ``batch_size`` are told about the batch."""

    def __init__(self, batch_num: int, epoch_num: int) -> None:
        self._batch_num = batch_num
        self._epoch_num = epoch_num

    def get_batch_num(self) -> int:
        """Index of this batch within the epoch."""
        return self._batch_num

    def get_epoch_num(self) -> int:
        """Index of the epoch."""
        return self._epoch_num


class Dataset(PipelineInfo):
    """Base class of every dataset: sources and the results of operations."""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        from ._cache import cached_iter, capture_cache

        if "_iter" in cls.__dict__:
            cls._iter = cached_iter(cls.__dict__["_iter"])  # type: ignore[method-assign]  # the class's own _iter, wrapped
        if "__init__" in cls.__dict__:
            cls.__init__ = capture_cache(cls.__dict__["__init__"])  # type: ignore[method-assign]  # wrapped likewise

    def __init__(self, children=(), num_parallel_workers=None) -> None:
        self.children: list[Dataset] = list(children)
        self.num_parallel_workers = check_num_parallel_workers(num_parallel_workers)
        self._dataset_size: int | None = None

    # -------------------------------------------------------------- graph interface (subclasses)
    def _columns(self) -> list[str]:
        """The output column names (validates the pipeline)."""
        return self.children[0]._columns()

    def _size(self) -> int | None:
        """Rows per epoch, or ``None`` when only iterating can tell."""
        return self.children[0]._size()

    def _iter(self, ctx: Ctx, key: tuple) -> Generator[Block, None, None]:
        raise NotImplementedError

    def _workers(self) -> int:
        return self.num_parallel_workers or config.get_num_parallel_workers()

    # -------------------------------------------------------------- operations
    def map(
        self, operations, input_columns=None, output_columns=None, num_parallel_workers=None, **kwargs
    ) -> MapDataset:
        """Apply ``operations`` (a transform, a callable, or a list run in sequence) to ``input_columns``.

        Args:
            operations (Union[Callable, list]): the operations.
            input_columns (Union[str, list[str]], optional): their input columns. Default: the first column.
            output_columns (Union[str, list[str]], optional): names of their outputs. Default: ``input_columns``.
            num_parallel_workers (int, optional): workers. Default: ``ds.config.get_num_parallel_workers()``.
            **kwargs: ``python_multiprocessing`` (run Python callables in worker processes, default ``False``),
                ``max_rowsize`` (deprecated; kept as ``[in, out]`` MB per row, shared memory is sized to the data as
                in MindSpore 2.10), ``cache``, ``callbacks`` (a :class:`DSCallback` or a list), ``offload``.

        Returns:
            MapDataset.
        """
        out = _op("MapDataset")(
            self,
            operations,
            input_columns,
            output_columns,
            kwargs.get("column_order"),
            num_parallel_workers,
            kwargs.get("python_multiprocessing", False),
        )
        out.max_rowsize = max_rowsize_form(kwargs.get("max_rowsize"))
        if kwargs.get("cache") is not None:
            from ._cache import DatasetCache

            cache = kwargs["cache"]
            check_pipeline_type(cache, DatasetCache, "cache", "[<class 'DatasetCache'>]")
            out.__dict__["cache"] = cache
        callbacks = kwargs.get("callbacks")
        if callbacks is not None:
            from ._callbacks import DSCallback

            out._ds_callbacks = check_ds_callbacks(callbacks, DSCallback)
        return out

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs) -> BatchDataset:
        """Stack ``batch_size`` consecutive rows into one row.

        Args:
            batch_size (Union[int, Callable]): rows per batch, or a callable taking a :class:`BatchInfo`.
            drop_remainder (bool, optional): drop the last, smaller batch. Default: ``False``.
            num_parallel_workers (int, optional): workers. Default: ``None``.
            **kwargs: ``per_batch_map`` (``f(col_1, ..., col_n, batch_info)`` -> tuple of columns, each column a
                list of the rows' arrays), ``input_columns`` (the columns given to ``per_batch_map``),
                ``output_columns`` (names of its outputs), ``python_multiprocessing``, ``max_rowsize`` (deprecated, as
                for :meth:`map`; an int is per row, times ``batch_size``).

        Returns:
            BatchDataset.
        """
        out = _op("BatchDataset")(
            self,
            batch_size,
            drop_remainder,
            num_parallel_workers,
            kwargs.get("per_batch_map"),
            kwargs.get("input_columns"),
            kwargs.get("output_columns"),
            kwargs.get("pad_info"),
            kwargs.get("python_multiprocessing", False),
        )
        out.max_rowsize = max_rowsize_form(kwargs.get("max_rowsize"), batch_size)
        for d in self._walk():
            if isinstance(d, _op("BatchDataset")):
                break
            if isinstance(d, _op("SyncWaitDataset")):
                d._batch_size = batch_size if isinstance(batch_size, int) else 1
                break
        return out

    def padded_batch(
        self, batch_size, drop_remainder=False, num_parallel_workers=None, pad_info=None
    ) -> PaddedBatchDataset:
        """Batch rows of different shapes, padding each column to the largest row (or ``pad_info``'s shape).

        Args:
            batch_size (Union[int, Callable]): rows per batch.
            drop_remainder (bool, optional): drop the last, smaller batch. Default: ``False``.
            pad_info (dict, optional): ``{column: (shape or None, pad_value)}``. Default: every column to the
                largest row, with 0.

        Returns:
            PaddedBatchDataset.
        """
        return _op("PaddedBatchDataset")(self, batch_size, drop_remainder, num_parallel_workers, pad_info)

    def bucket_batch_by_length(
        self,
        column_names,
        bucket_boundaries,
        bucket_batch_sizes,
        element_length_function=None,
        pad_info=None,
        pad_to_bucket_boundary=False,
        drop_remainder=False,
    ) -> BucketBatchByLengthDataset:
        """Batch rows of similar length together: a row of length ``L`` goes to the bucket ``i`` with
        ``bucket_boundaries[i-1] <= L < bucket_boundaries[i]``, which emits a batch of ``bucket_batch_sizes[i]``.

        Returns:
            BucketBatchByLengthDataset.
        """
        return _op("BucketBatchByLengthDataset")(
            self,
            column_names,
            bucket_boundaries,
            bucket_batch_sizes,
            element_length_function,
            pad_info,
            pad_to_bucket_boundary,
            drop_remainder,
        )

    def shuffle(self, buffer_size) -> ShuffleDataset:
        """Shuffle rows through a buffer of ``buffer_size`` rows (a new order every epoch).

        Returns:
            ShuffleDataset.
        """
        return _op("ShuffleDataset")(self, buffer_size)

    def repeat(self, count=None) -> RepeatDataset:
        """Repeat the dataset ``count`` times (``None`` or -1: forever)."""
        return _op("RepeatDataset")(self, count)

    def take(self, count=-1) -> TakeDataset:
        """The first ``count`` rows (-1: all)."""
        return _op("TakeDataset")(self, count)

    def skip(self, count) -> SkipDataset:
        """All rows but the first ``count``."""
        return _op("SkipDataset")(self, count)

    def project(self, columns) -> ProjectDataset:
        """Keep ``columns``, in that order."""
        return _op("ProjectDataset")(self, columns)

    def rename(self, input_columns, output_columns) -> RenameDataset:
        """Rename ``input_columns`` to ``output_columns``."""
        return _op("RenameDataset")(self, input_columns, output_columns)

    def zip(self, datasets) -> ZipDataset:
        """Rows side by side with the rows of ``datasets`` (as many rows as the shortest)."""
        return _op("ZipDataset")((self, *check_datasets_arg(datasets, Dataset, "zip")))

    def concat(self, datasets) -> ConcatDataset:
        """The rows of this dataset, then those of ``datasets``."""
        return _op("ConcatDataset")([self, *check_datasets_arg(datasets, Dataset, "concat")])

    def __add__(self, other: Dataset) -> ConcatDataset:
        return self.concat(other)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None) -> FilterDataset:
        """Keep the rows for which ``predicate(*columns)`` is true."""
        return _op("FilterDataset")(self, predicate, input_columns, num_parallel_workers)

    def sync_wait(self, condition_name, num_batch=1, callback=None) -> SyncWaitDataset:
        """Block the pipeline at this point until :meth:`sync_update` is called: ``num_batch`` batches (of the
        ``batch`` that follows) pass at the start of each epoch, then ``num_batch`` more per ``sync_update``.

        Args:
            condition_name (str): the name ``sync_update`` refers to.
            num_batch (int, optional): batches released at a time. Default: ``1``.
            callback (Callable, optional): called with ``sync_update``'s ``data``. Default: ``None``.

        Returns:
            SyncWaitDataset.
        """
        return _op("SyncWaitDataset")(self, condition_name, num_batch, callback)

    def send(self, tensor=None, dst=0, group=None) -> None:
        """Send ``tensor`` (a Tensor or a list of them; default: this dataset's next row) to rank(s) ``dst`` over
        ``mint.distributed`` (``group`` default: the world group); received there by :meth:`recv`."""
        from ._send_recv import send

        send(self, tensor, dst, group)

    def recv(self, src=0, group=None):
        """Receive what rank(s) ``src`` sent with :meth:`send` (this rank's own id: this dataset's next row): a
        Tensor, or a list of them."""
        from ._send_recv import recv

        return recv(self, src, group)

    def sync_update(self, condition_name, num_batch=None, data=None) -> None:
        """Release the pipeline blocked by ``sync_wait(condition_name)``.

        Args:
            condition_name (str): the condition.
            num_batch (int, optional): batches to release. Default: ``None``, the ``num_batch`` of ``sync_wait``.
            data (Any, optional): handed to the callback of ``sync_wait``. Default: ``None``.

        Raises:
            RuntimeError: no ``sync_wait`` of that name in the pipeline.
        """
        if num_batch is not None:
            check_positive_integer(num_batch, "num_batch")
        stack, seen = [self], set()
        while stack:
            d = stack.pop()
            if id(d) in seen:
                continue
            seen.add(id(d))
            if isinstance(d, _op("SyncWaitDataset")) and d.condition_name == condition_name:
                d._release(num_batch, data)
                return
            stack.extend(d.children)
        raise RuntimeError(f"Condition name not found: {condition_name!r} (add it with sync_wait).")

    def apply(self, apply_func) -> Dataset:
        """``apply_func(self)``, which must return a Dataset."""
        out = apply_func(self)
        if not isinstance(out, Dataset):
            raise TypeError("apply_func must return a dataset.")
        return out

    def flat_map(self, func) -> Dataset:
        """For each row, the rows of the dataset ``func(*row)`` returns, one after the other."""
        return _op("FlatMapDataset")(self, func)

    def split(self, sizes, randomize=True) -> list[Dataset]:
        """Split into datasets of the given sizes (row counts, or fractions summing to 1).

        Args:
            sizes (Union[list[int], list[float]]): the sizes.
            randomize (bool, optional): assign rows at random (random-access sources only). Default: ``True``.

        Returns:
            list[Dataset].
        """
        check_pipeline_type(randomize, bool, "randomize")
        n = self.get_dataset_size()
        sizes = check_split_sizes(sizes, n)
        from .sources import MappableSource

        out: list[Dataset] = []
        i = 0
        if isinstance(self, MappableSource):
            from .samplers import SubsetRandomSampler, SubsetSampler

            base = self._sampler
            rows = base.sample(self._n(), _random.make(config.get_seed(), 0, 17), self._labels())
            if randomize:
                rows = rows[_random.make(config.get_seed(), 1, 17).permutation(len(rows))]
            for s in sizes:
                d = copy.copy(self)
                d._dataset_size = None
                part = rows[i : i + s]
                d._sampler = SubsetRandomSampler(part) if randomize else SubsetSampler(part)
                out.append(d)
                i += s
            return out
        if randomize:
            raise RuntimeError("Dataset.split with randomize=True is only supported on random-access source datasets.")
        for s in sizes:
            out.append(self.skip(i).take(s) if i else self.take(s))
            i += s
        return out

    # -------------------------------------------------------------- iteration
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        """An iterator over rows as lists of Tensors (NumPy arrays with ``output_numpy=True``).

        Args:
            columns (list[str], optional): the columns, in this order. Default: all.
            num_epochs (int, optional): epochs the iterator can run (-1: unlimited). Default: -1.
            output_numpy (bool, optional): yield NumPy arrays. Default: ``False``.
            do_copy (bool, optional): kept for compatibility (rows are always fresh arrays). Default: ``False``.

        Returns:
            TupleIterator.
        """
        from .iterators import TupleIterator

        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False):
        """An iterator over rows as ``{column: Tensor}`` dicts (NumPy arrays with ``output_numpy=True``).

        Returns:
            DictIterator.
        """
        from .iterators import DictIterator

        return DictIterator(self, None, num_epochs, output_numpy, do_copy)

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    def save(self, file_name, num_files=1, file_type="mindrecord") -> None:
        """Write the rows of one epoch to MindRecord files, readable by :class:`MindDataset`. Column types
        are cast as MindSpore does: bool, (u)int8, (u)int16 and int32 to int32; uint32, int64 and uint64 to
        int64; float16 and float32 to float32; float64; str to string; bytes to bytes. Arrays keep their
        shape, the first dimension variable.

        Args:
            file_name (str): path of the file (``file_name0``... for several files).
            num_files (int, optional): number of files, in [1, 1000]. Default: ``1``.
            file_type (str, optional): ``'mindrecord'`` only. Default: ``'mindrecord'``.

        Raises:
            ValueError: an argument is invalid.
            RuntimeError: the files exist, the dataset is empty, or a column cannot be stored.
        """
        from ...mindrecord import FileWriter

        num_files = check_pipeline_interval(
            num_files, "num_files", 1, 1000, message="num_files should between 0 and 1000."
        )
        check_pipeline_type(file_name, str, "file_name")
        check_pipeline_type(file_type, str, "file_type")
        if file_type != "mindrecord":
            raise ValueError(f"{file_type} dataset format is not supported.")
        from .iterators import TupleIterator

        names = self.get_col_names()
        it = TupleIterator(self, None, 1, True, True)
        writer, buf = None, []
        kinds: list[str] = []
        try:
            for row in it:
                if writer is None:
                    schema, kinds = _save_schema(names, row)
                    writer = FileWriter(file_name, shard_num=int(num_files))
                    writer.add_schema(schema, "saved by Dataset.save")
                buf.append({n: _save_value(n, k, v) for n, k, v in zip(names, kinds, row)})
                if len(buf) >= 1024:
                    writer.write_raw_data(buf)
                    buf = []
        finally:
            it.stop()
        if writer is None:
            raise RuntimeError("Dataset.save: the dataset is empty, there is nothing to save.")
        if buf:
            writer.write_raw_data(buf)
        writer.commit()

    # -------------------------------------------------------------- introspection
    def get_col_names(self) -> list[str]:
        """The output column names."""
        return list(self._columns())

    def get_dataset_size(self) -> int:
        """Number of rows (batches, after ``batch``) in one epoch."""
        if self._dataset_size is None:
            n = self._size()
            if n is None:
                n = sum(b.n for b in _run_blocks(self, epoch=0))
            self._dataset_size = n
        return self._dataset_size

    def _first_row(self) -> list:
        from .iterators import TupleIterator

        it = TupleIterator(self, None, 1, True, True)
        try:
            return next(it)
        except StopIteration:
            raise RuntimeError("The dataset is empty: cannot get its output shapes or types.") from None
        finally:
            it.stop()

    def output_shapes(self, estimate=False) -> list[list[int]]:
        """Shapes of the columns of the first row."""
        return [list(np.shape(x)) for x in self._first_row()]

    def output_types(self) -> list:
        """NumPy dtypes of the columns of the first row."""
        return [np.asarray(x).dtype for x in self._first_row()]

    def get_batch_size(self) -> int:
        """The batch size of the last ``batch`` (1 without one)."""
        for d in self._walk():
            if isinstance(d, _op("BatchDataset")):
                return d.batch_size if isinstance(d.batch_size, int) else -1
        return 1

    def get_repeat_count(self) -> int:
        """The count of the last ``repeat`` (1 without one)."""
        for d in self._walk():
            if isinstance(d, _op("RepeatDataset")):
                return d.count
        return 1

    def get_class_indexing(self) -> dict:
        """``{class name: label}`` of a class-folder source."""
        for d in self._walk():
            f = getattr(d, "_class_indexing", None)
            if f is not None:
                return f()
        raise RuntimeError("get_class_indexing is only supported by ImageFolderDataset-like sources.")

    def num_classes(self):
        try:
            return len(self.get_class_indexing())
        except RuntimeError:
            return None

    def reset(self) -> None:
        """Forget cached sizes."""
        self._dataset_size = None

    def _walk(self):
        """This node, then its first ancestors."""
        d = self
        while d is not None:
            yield d
            d = d.children[0] if d.children else None

    def __deepcopy__(self, memo):
        new = copy.copy(self)
        memo[id(self)] = new
        new.children = [copy.deepcopy(c, memo) for c in self.children]
        return new


_SAVE_TYPES = {
    "b": "int32",
    "i1": "int32",
    "u1": "int32",
    "i2": "int32",
    "u2": "int32",
    "i4": "int32",
    "u4": "int64",
    "i8": "int64",
    "u8": "int64",
    "f2": "float32",
    "f4": "float32",
    "f8": "float64",
}


def _save_schema(names: list[str], row: list) -> tuple[dict, list]:
    """The MindRecord schema of ``Dataset.save`` from the first row, and how to convert each column."""
    schema: dict[str, dict] = {}
    kinds: list[str] = []
    for n, v in zip(names, row):
        v = np.asarray(v)
        if v.dtype.kind == "U":
            if v.size != 1:
                raise RuntimeError(f"Dataset.save: column '{n}' holds a multi-dimensional string, not supported.")
            schema[n], kind = {"type": "string"}, "string"
        elif v.dtype.kind == "S":
            if v.size != 1:
                raise RuntimeError(f"Dataset.save: column '{n}' holds multi-dimensional bytes, not supported.")
            schema[n], kind = {"type": "bytes"}, "bytes"
        else:
            key = "b" if v.dtype.kind == "b" else f"{v.dtype.kind}{v.dtype.itemsize}"
            t = _SAVE_TYPES.get(key)
            if t is None:
                raise RuntimeError(f"Dataset.save: column '{n}' of type {v.dtype} cannot be saved to MindRecord.")
            schema[n] = {"type": t} if v.ndim == 0 else {"type": t, "shape": [-1, *v.shape[1:]]}
            kind = t if v.ndim == 0 else "array:" + t
        kinds.append(kind)
    return schema, kinds


def _save_value(name: str, kind: str, v):
    v = np.asarray(v)
    if kind == "string":
        return str(v.reshape(-1)[0])
    if kind == "bytes":
        return v.tobytes() if v.size == 1 else bytes(v.reshape(-1)[0])
    if kind.startswith("array:"):
        if v.ndim == 0:
            raise RuntimeError(f"Dataset.save: column '{name}' is an array in the first row but not in another.")
        return np.ascontiguousarray(
            v, {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}[kind[6:]]
        )
    if v.size != 1:
        raise RuntimeError(f"Dataset.save: column '{name}' is a scalar in the first row but not in another.")
    v = v.reshape(-1)[0]
    return float(v) if kind.startswith("float") else int(v)


def zip_datasets(datasets) -> ZipDataset:
    """Zip a tuple of datasets: rows side by side, as many as the shortest has."""
    return _op("ZipDataset")(tuple(check_datasets_arg(datasets, Dataset, "ds.zip")))


def _run_blocks(ds: Dataset, epoch: int, seed: int | None = None) -> Generator[Block, None, None]:
    """One epoch of ``ds``'s blocks in this thread (introspection)."""
    if seed is None:
        seed = config._seed_or_none()
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
    ds._columns()
    ctx = Ctx(seed, (epoch,), threading.Event(), config.get_prefetch_size())
    it = ds._iter(ctx, ())
    try:
        yield from it
    finally:
        it.close()


# ---- the operations' classes (MapDataset, BatchDataset...): they subclass Dataset, so their modules
# (_map_ops, _batch_ops, _flow_ops) import this one, and Dataset's methods reach them here on first use:
# the one late import of the dataset graph. MindSpore's path datasets.MapDataset resolves here too.
_OP_CLASSES: dict[str, type] = {}


def _op(name: str) -> Any:
    if not _OP_CLASSES:
        from . import _batch_ops, _flow_ops, _map_ops

        for mod in (_map_ops, _batch_ops, _flow_ops):
            _OP_CLASSES.update((n, getattr(mod, n)) for n in mod.__all__)
    return _OP_CLASSES[name]


def __getattr__(name: str) -> Any:
    if name.endswith("Dataset") and name != "Dataset":
        try:
            return _op(name)
        except KeyError:
            pass
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
