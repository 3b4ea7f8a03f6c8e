"""The dataset graph: :class:`Dataset` and its operations (``map``, ``batch``, ``shuffle``...).

A pipeline runs as a chain of generators of :class:`~._block.Block` objects. Sources cut their rows into
blocks; ``map`` applies its operations to a whole block at once where they are vectorised, row by row
otherwise, on ``num_parallel_workers`` threads (or processes, ``python_multiprocessing=True``); results
are taken back in order, so the output is the same whatever the number of workers.
"""

from __future__ import annotations

import copy
import numbers
import threading
from collections.abc import Iterator

import numpy as np

from ..core import config
from . import _random
from ._block import BLOCK_ROWS, Block, batch_column, concat, gather, item, maybe_stack, to_np
from ._exec import Ctx, ordered_map
from .errors import WorkerFailure, pipeline_error, wrap_user_call

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
    "BatchInfo",
    "Shuffle",
]


class Shuffle:
    """Shuffle levels of file-based sources (MindSpore's ``ds.Shuffle``)."""

    GLOBAL = "global"
    FILES = "files"
    INFILE = "infile"


def _as_list(x, name: str) -> list[str] | None:
    if x is None:
        return None
    if isinstance(x, str):
        return [x]
    if isinstance(x, (list, tuple)) and all(isinstance(c, str) for c in x):
        if len(set(x)) != len(x):
            raise ValueError(f"{name} has duplicate column names: {list(x)}.")
        return list(x)
    raise TypeError(f"{name} must be a str or a list of str, but got {x!r}.")


def _workers(n, name="num_parallel_workers") -> int | None:
    if n is None:
        return None
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"Input {name} is not within the required interval of [1, 2147483647].")
    return int(n)


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


class Dataset:
    """Base class of every dataset: sources and the results of operations."""

    def __init__(self, children=(), num_parallel_workers=None) -> None:
        self.children: list[Dataset] = list(children)
        self.num_parallel_workers = _workers(num_parallel_workers)
        self._dataset_size: int | None = None

    # -------------------------------------------------------------- graph interface (subclasses)
    def _columns(self) -> list[str]:
        """The output column names (validates the pipeline)."""
        return self.children[0]._columns()

    def _size(self) -> int | None:
        """Rows per epoch, or ``None`` when only iterating can tell."""
        return self.children[0]._size()

    def _iter(self, ctx: Ctx, key: tuple) -> Iterator[Block]:
        raise NotImplementedError

    def _workers(self) -> int:
        return self.num_parallel_workers or config.get_num_parallel_workers()

    # -------------------------------------------------------------- operations
    def map(
        self,
        operations=None,
        input_columns=None,
        output_columns=None,
        column_order=None,
        num_parallel_workers=None,
        python_multiprocessing=False,
        cache=None,
        callbacks=None,
        max_rowsize=16,
        offload=None,
    ) -> MapDataset:
        """Apply ``operations`` (a transform, a callable, or a list run in sequence) to ``input_columns``.

        Args:
            operations (Union[Callable, list]): the operations.
            input_columns (Union[str, list[str]], optional): their input columns. Default: the first column.
            output_columns (Union[str, list[str]], optional): names of their outputs. Default: ``input_columns``.
            num_parallel_workers (int, optional): workers. Default: ``ds.config.get_num_parallel_workers()``.
            python_multiprocessing (bool, optional): run Python callables in worker processes. Default: ``False``.

        Returns:
            MapDataset.
        """
        return MapDataset(
            self, operations, input_columns, output_columns, column_order, num_parallel_workers, python_multiprocessing
        )

    def batch(
        self,
        batch_size,
        drop_remainder=False,
        num_parallel_workers=None,
        per_batch_map=None,
        input_columns=None,
        output_columns=None,
        column_order=None,
        pad_info=None,
        python_multiprocessing=False,
        max_rowsize=16,
    ) -> BatchDataset:
        """Stack ``batch_size`` consecutive rows into one row.

        Args:
            batch_size (Union[int, Callable]): rows per batch, or a callable taking a :class:`BatchInfo`.
            drop_remainder (bool, optional): drop the last, smaller batch. Default: ``False``.
            num_parallel_workers (int, optional): workers. Default: ``None``.
            per_batch_map (Callable, optional): ``f(col_1, ..., col_n, batch_info)`` -> tuple of columns,
                each column a list of the rows' arrays. Default: ``None``.
            input_columns (Union[str, list[str]], optional): the columns given to ``per_batch_map``.
            output_columns (Union[str, list[str]], optional): names of its outputs.

        Returns:
            BatchDataset.
        """
        out = BatchDataset(
            self,
            batch_size,
            drop_remainder,
            num_parallel_workers,
            per_batch_map,
            input_columns,
            output_columns,
            pad_info,
            python_multiprocessing,
        )
        for d in self._walk():
            if isinstance(d, BatchDataset):
                break
            if isinstance(d, SyncWaitDataset):
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
        return PaddedBatchDataset(self, batch_size, drop_remainder, num_parallel_workers, pad_info)

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
        return BucketBatchByLengthDataset(
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
        return ShuffleDataset(self, buffer_size)

    def repeat(self, count=None) -> RepeatDataset:
        """Repeat the dataset ``count`` times (``None`` or -1: forever)."""
        return RepeatDataset(self, count)

    def take(self, count=-1) -> TakeDataset:
        """The first ``count`` rows (-1: all)."""
        return TakeDataset(self, count)

    def skip(self, count) -> SkipDataset:
        """All rows but the first ``count``."""
        return SkipDataset(self, count)

    def project(self, columns) -> ProjectDataset:
        """Keep ``columns``, in that order."""
        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns) -> RenameDataset:
        """Rename ``input_columns`` to ``output_columns``."""
        return RenameDataset(self, input_columns, output_columns)

    def zip(self, datasets) -> ZipDataset:
        """Rows side by side with the rows of ``datasets`` (as many rows as the shortest)."""
        if isinstance(datasets, Dataset):
            datasets = (datasets,)
        return ZipDataset((self, *datasets))

    def concat(self, datasets) -> ConcatDataset:
        """The rows of this dataset, then those of ``datasets``."""
        if isinstance(datasets, Dataset):
            datasets = [datasets]
        return ConcatDataset([self, *datasets])

    def __add__(self, other: Dataset) -> ConcatDataset:
        return self.concat(other)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None) -> FilterDataset:
        """Keep the rows for which ``predicate(*columns)`` is true."""
        return FilterDataset(self, predicate, input_columns, num_parallel_workers)

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
        return SyncWaitDataset(self, condition_name, num_batch, callback)

    def sync_update(self, condition_name, num_batch=None, data=None) -> None:
        """Release the pipeline blocked by ``sync_wait(condition_name)``.

        Args:
            condition_name (str): the condition.
            num_batch (int, optional): batches to release. Default: ``None``, the ``num_batch`` of ``sync_wait``.
            data (Any, optional): handed to the callback of ``sync_wait``. Default: ``None``.

        Raises:
            RuntimeError: no ``sync_wait`` of that name in the pipeline.
        """
        if num_batch is not None and (
            isinstance(num_batch, bool) or not isinstance(num_batch, numbers.Integral) or num_batch < 1
        ):
            raise ValueError(f"num_batch should be a positive integer, but got {num_batch!r}.")
        stack, seen = [self], set()
        while stack:
            d = stack.pop()
            if id(d) in seen:
                continue
            seen.add(id(d))
            if isinstance(d, SyncWaitDataset) and d.condition_name == condition_name:
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

    def split(self, sizes, randomize=True) -> list[Dataset]:
        """Split into datasets of the given sizes (row counts, or fractions summing to 1).

        Args:
            sizes (Union[list[int], list[float]]): the sizes.
            randomize (bool, optional): assign rows at random (random-access sources only). Default: ``True``.

        Returns:
            list[Dataset].
        """
        n = self.get_dataset_size()
        sizes = _split_sizes(sizes, n)
        from .sources import MappableSource

        if isinstance(self, MappableSource):
            from .samplers import SubsetRandomSampler, SubsetSampler

            base = self._sampler
            rows = base.sample(self._n(), _random.make(config.get_seed(), 0, 17), self._labels())
            if randomize:
                rows = rows[_random.make(config.get_seed(), 1, 17).permutation(len(rows))]
            out, i = [], 0
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
        out, i = [], 0
        for s in sizes:
            out.append(self.skip(i).take(s) if i else self.take(s))
            i += s
        return out

    # -------------------------------------------------------------- iteration
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=True):
        """An iterator over rows as lists of Tensors (NumPy arrays with ``output_numpy=True``).

        Args:
            columns (list[str], optional): the columns, in this order. Default: all.
            num_epochs (int, optional): epochs the iterator can run (-1: unlimited). Default: -1.
            output_numpy (bool, optional): yield NumPy arrays. Default: ``False``.
            do_copy (bool, optional): kept for compatibility. Default: ``True``.

        Returns:
            TupleIterator.
        """
        from .iterators import TupleIterator

        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
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

        if file_type != "mindrecord":
            raise ValueError(f"Unsupported file_type {file_type!r}: only 'mindrecord' is supported.")
        if not isinstance(file_name, str) or not file_name:
            raise TypeError("file_name should be a non-empty str.")
        if isinstance(num_files, bool) or not isinstance(num_files, numbers.Integral) or not 1 <= num_files <= 1000:
            raise ValueError(f"Input num_files is not within the required interval of [1, 1000], got {num_files!r}.")
        from .iterators import TupleIterator

        names = self.get_col_names()
        it = TupleIterator(self, None, 1, True, True)
        writer, kinds, buf = None, None, []
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
            if isinstance(d, BatchDataset):
                return d.batch_size if isinstance(d.batch_size, int) else -1
        return 1

    def get_repeat_count(self) -> int:
        """The count of the last ``repeat`` (1 without one)."""
        for d in self._walk():
            if isinstance(d, RepeatDataset):
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
    schema, kinds = {}, []
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
    if not isinstance(datasets, tuple) or not datasets:
        raise TypeError("zip: datasets must be a non-empty tuple of Dataset.")
    return ZipDataset(datasets)


def _split_sizes(sizes, n: int) -> list[int]:
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise TypeError("sizes must be a non-empty list of int or float.")
    if all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError("sizes must be positive integers.")
        if sum(sizes) != n:
            raise RuntimeError(f"Sum of split sizes {sum(sizes)} is not equal to dataset size {n}.")
        return [int(s) for s in sizes]
    if all(isinstance(s, float) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
            raise ValueError("split fractions must be in (0, 1] and sum to 1.")
        out = [int(round(s * n)) for s in sizes]
        diff = n - sum(out)
        if diff > 0:
            out[0] += diff
        elif diff < 0:
            for i, s in enumerate(out):
                if s + diff >= 1:
                    out[i] += diff
                    break
        if any(s <= 0 for s in out):
            raise RuntimeError(f"A split of size 0 from {sizes} on a dataset of {n} rows.")
        return out
    raise TypeError("sizes must be all int or all float.")


def _run_blocks(ds: Dataset, epoch: int, seed: int | None = None) -> Iterator[Block]:
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


# ====================================================================== map
class _MapStep:
    """One ``map``: its operations and where its inputs come from and its outputs go."""

    def __init__(self, ops, in_idx, layout, n_out, out_names) -> None:
        self.ops = ops
        self.in_idx = in_idx
        self.layout = layout
        self.n_out = n_out
        self.out_names = out_names
        self.random = any(getattr(op, "_random", False) or not _is_builtin_op(op) for op in ops)

    def apply(self, cols: list, n: int) -> list:
        cur = [cols[i] for i in self.in_idx]
        for op in self.ops:
            cur = _apply_op(op, cur, n)
        if len(cur) != self.n_out:
            raise pipeline_error(
                "Invalid columns, the number of columns returned in 'map' operations should match the number of "
                f"'output_columns', but got the number of columns returned in 'map' operations: {len(cur)}, "
                f"the number of 'output_columns': {self.n_out}."
            )
        return [cols[j] if kind == 0 else cur[j] for kind, j in self.layout]


def _apply_op(op, cols: list, n: int) -> list:
    builtin = _is_builtin_op(op)
    if builtin and len(cols) == 1 and isinstance(cols[0], np.ndarray):
        out = op._apply_batch(cols[0])
        if out is not NotImplemented:
            return [out]
    outs: list | None = None
    for i in range(n):
        args = [item(c, i) for c in cols]
        try:
            r = op(*args)
        except Exception as e:
            if builtin:
                raise pipeline_error(f"map operation: [{type(op).__name__}] failed. {e}") from e
            raise wrap_user_call(e, "map operation: [PyFunc] failed.") from None
        r = r if isinstance(r, tuple) else (r,)
        if outs is None:
            outs = [[] for _ in r]
        elif len(r) != len(outs):
            raise pipeline_error(
                f"map operation: [{_op_name(op)}] returned {len(r)} columns for one row and {len(outs)} for another."
            )
        for o, v in zip(outs, r):
            o.append(to_np(v))
    if outs is None:
        return [[] for _ in cols]
    return [maybe_stack(o) for o in outs]


class MapDataset(Dataset):
    """The result of :meth:`Dataset.map`."""

    def __init__(
        self,
        child,
        operations,
        input_columns,
        output_columns,
        column_order,
        num_parallel_workers,
        python_multiprocessing,
    ) -> None:
        super().__init__([child], num_parallel_workers)
        if operations is None:
            raise ValueError("map: operations must be given.")
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        for op in ops:
            if not callable(op):
                raise TypeError(f"map: operation {op!r} is not callable.")
        self.operations = ops
        self.input_columns = _as_list(input_columns, "input_columns")
        self.output_columns = _as_list(output_columns, "output_columns")
        self.column_order = _as_list(column_order, "column_order")
        self.python_multiprocessing = bool(python_multiprocessing)

    def _step(self) -> tuple[_MapStep, list[str]]:
        cols = self.children[0]._columns()
        ins = self.input_columns or cols[:1]
        for c in ins:
            if c not in cols:
                raise pipeline_error(
                    f"Invalid parameter, input column name: {c} doesn't exist in the dataset columns {cols}."
                )
        outs = self.output_columns or ins
        in_idx = [cols.index(c) for c in ins]
        if len(outs) == len(ins):
            pos = {cols.index(c): k for k, c in enumerate(ins)}
            names = [outs[pos[i]] if i in pos else c for i, c in enumerate(cols)]
            layout = [(1, pos[i]) if i in pos else (0, i) for i in range(len(cols))]
        else:
            rest = [i for i, c in enumerate(cols) if c not in ins]
            names = list(outs) + [cols[i] for i in rest]
            layout = [(1, k) for k in range(len(outs))] + [(0, i) for i in rest]
        if len(set(names)) != len(names):
            raise pipeline_error(f"Invalid parameter, duplicate column names after map: {names}.")
        step = _MapStep(self.operations, in_idx, layout, len(outs), names)
        if self.column_order is not None:
            for c in self.column_order:
                if c not in names:
                    raise pipeline_error(f"Invalid column, column name: {c} does not exist.")
            order = [names.index(c) for c in self.column_order]
            step.layout = [step.layout[i] for i in order]
            names = list(self.column_order)
        return step, names

    def _columns(self):
        return self._step()[1]

    def _fusable_child(self):
        c = self.children[0]
        if isinstance(c, MapDataset) and c.python_multiprocessing == self.python_multiprocessing:
            return c
        return None

    def _iter(self, ctx, key):
        # fuse a chain of maps into one stage: one pass over each block, one hand-off between threads
        chain, node, nkey = [], self, key
        while True:
            chain.append((node._step()[0], nkey))
            nxt = node._fusable_child()
            if nxt is None:
                break
            node, nkey = nxt, nkey + (0,)
        chain.reverse()
        workers = max(n._workers() for n in self._fused_nodes())
        source = node.children[0]._iter(ctx, nkey + (0,))
        seed, path = ctx.seed, ctx.path

        def run(block: Block) -> Block:
            cols = block.cols
            for step, skey in chain:
                if step.random:
                    with _random.use(_random.make(seed, *path, *skey, block.start, 7)):
                        cols = step.apply(cols, block.n)
                else:
                    cols = step.apply(cols, block.n)
            return Block(cols, block.n, block.start)

        try:
            yield from ordered_map(source, run, workers, ctx, processes=self.python_multiprocessing and workers > 1)
        finally:
            source.close()

    def _fused_nodes(self):
        node = self
        while node is not None:
            yield node
            node = node._fusable_child()


# ====================================================================== batch
def _pad_rows(rows: list, shape, value, name: str) -> np.ndarray:
    arrs = [to_np(r) for r in rows]
    nd = arrs[0].ndim
    if any(a.ndim != nd for a in arrs):
        raise pipeline_error(f"Invalid data, rows of column '{name}' have different ranks and cannot be padded.")
    target = [max(a.shape[d] for a in arrs) for d in range(nd)]
    if shape is not None:
        shape = list(shape)
        if len(shape) != nd:
            raise pipeline_error(
                f"Invalid pad_info, the rank of pad shape of column '{name}' is {len(shape)}, but the rows have rank {nd}."
            )
        for d, s in enumerate(shape):
            if s is not None and s != -1:
                if s < target[d]:
                    raise pipeline_error(
                        f"Invalid pad_info, pad shape {shape} of column '{name}' is smaller than a row of shape {arrs[0].shape}."
                    )
                target[d] = s
    out = np.full([len(arrs), *target], value if value is not None else 0, dtype=arrs[0].dtype)
    for i, a in enumerate(arrs):
        out[(i, *tuple(slice(0, s) for s in a.shape))] = a
    return out


class BatchDataset(Dataset):
    """The result of :meth:`Dataset.batch`."""

    def __init__(
        self,
        child,
        batch_size,
        drop_remainder=False,
        num_parallel_workers=None,
        per_batch_map=None,
        input_columns=None,
        output_columns=None,
        pad_info=None,
        python_multiprocessing=False,
    ) -> None:
        super().__init__([child], num_parallel_workers)
        if callable(batch_size):
            pass
        elif (
            isinstance(batch_size, bool)
            or not isinstance(batch_size, numbers.Integral)
            or not 1 <= batch_size <= 2**31 - 1
        ):
            raise ValueError(
                f"Input batch_size is not within the required interval of [1, 2147483647], got {batch_size!r}."
            )
        else:
            batch_size = int(batch_size)
        if not isinstance(drop_remainder, bool):
            raise TypeError("drop_remainder must be a bool.")
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError("per_batch_map must be callable.")
        self.batch_size = batch_size
        self.drop_remainder = drop_remainder
        self.per_batch_map = per_batch_map
        self.input_columns = _as_list(input_columns, "input_columns")
        self.output_columns = _as_list(output_columns, "output_columns")
        if (self.input_columns or self.output_columns) and per_batch_map is None:
            pass
        self.pad_info = pad_info
        self.python_multiprocessing = bool(python_multiprocessing)
        self._padded = pad_info is not None

    def _workers(self):
        return self.num_parallel_workers or 1

    def _layout(self):
        cols = self.children[0]._columns()
        if self.per_batch_map is None:
            return cols, None, cols
        ins = self.input_columns or cols
        for c in ins:
            if c not in cols:
                raise pipeline_error(
                    f"Invalid parameter, input column name: {c} doesn't exist in the dataset columns {cols}."
                )
        outs = self.output_columns or ins
        if len(outs) == len(ins):
            pos = {cols.index(c): k for k, c in enumerate(ins)}
            names = [outs[pos[i]] if i in pos else c for i, c in enumerate(cols)]
            layout = [(1, pos[i]) if i in pos else (0, i) for i in range(len(cols))]
        else:
            rest = [i for i, c in enumerate(cols) if c not in ins]
            names = list(outs) + [cols[i] for i in rest]
            layout = [(1, k) for k in range(len(outs))] + [(0, i) for i in rest]
        return cols, ([cols.index(c) for c in ins], layout, len(outs)), names

    def _columns(self):
        names = self._layout()[2]
        if self.pad_info:
            for c in self.pad_info:
                if c not in names:
                    raise pipeline_error(f"Invalid pad_info, column name: {c} does not exist.")
        return names

    def _size(self):
        n = self.children[0]._size()
        if n is None or callable(self.batch_size) or self.per_batch_map is not None and False:
            return None
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def _finish(self, cols_in: list, names: list[str], pbm, info: BatchInfo) -> list:
        """Rows of a batch (one column piece per column) -> the batch row."""
        if pbm is not None:
            in_idx, layout, n_out = pbm
            args = [list(cols_in[i]) for i in in_idx]
            try:
                res = self.per_batch_map(*args, info)
            except Exception as e:
                raise wrap_user_call(e, "batch operation: [per_batch_map] failed.") from None
            res = res if isinstance(res, tuple) else (res,)
            if len(res) != n_out:
                raise pipeline_error(
                    "Invalid per_batch_map, the number of columns returned in 'per_batch_map' function should be "
                    f"{n_out} , but got: {len(res)}"
                )
            res = [r if isinstance(r, np.ndarray) else [to_np(v) for v in r] for r in res]
            cols_in = [cols_in[j] if kind == 0 else res[j] for kind, j in layout]
        out = []
        for c, name in zip(cols_in, names):
            if self._padded and (self.pad_info == {} or name in (self.pad_info or {})):
                shape, value = (self.pad_info or {}).get(name, (None, 0))
                out.append(_pad_rows(list(c), shape, value, name))
            else:
                out.append(batch_column(c, name))
        return out

    def _iter(self, ctx, key):
        cols_names, pbm, names = self._layout()
        names_in = cols_names
        child = self.children[0]._iter(ctx, key + (0,))
        epoch = ctx.path[0] if ctx.path else 0

        def groups():
            pieces: list = []
            have = 0
            bnum = 0
            size = self._bs(bnum, epoch)
            for blk in child:
                a = 0
                while a < blk.n:
                    take = min(size - have, blk.n - a)
                    pieces.append([c[a : a + take] for c in blk.cols])
                    have += take
                    a += take
                    if have == size:
                        yield bnum, pieces
                        bnum += 1
                        pieces, have = [], 0
                        size = self._bs(bnum, epoch)
            if have and not self.drop_remainder:
                yield bnum, pieces

        def run(item):
            bnum, pieces = item
            cols = [concat([p[k] for p in pieces]) for k in range(len(names_in))]
            out = self._finish(cols, names if pbm is None else names_in, pbm, BatchInfo(bnum, epoch))
            return Block([o[None] if isinstance(o, np.ndarray) else [o] for o in out], 1, bnum)

        try:
            yield from ordered_map(
                groups(), run, self._workers(), ctx, processes=self.python_multiprocessing and self._workers() > 1
            )
        finally:
            child.close()

    def _bs(self, bnum: int, epoch: int) -> int:
        if not callable(self.batch_size):
            return self.batch_size
        try:
            b = self.batch_size(BatchInfo(bnum, epoch))
        except Exception as e:
            raise wrap_user_call(e, "batch operation: [batch_size] failed.") from None
        if not isinstance(b, numbers.Integral) or b < 1:
            raise pipeline_error(
                f"Invalid batch_size returned by the callable: {b!r}, it should be a positive integer."
            )
        return int(b)


class PaddedBatchDataset(BatchDataset):
    """The result of :meth:`Dataset.padded_batch`."""

    def __init__(self, child, batch_size, drop_remainder=False, num_parallel_workers=None, pad_info=None) -> None:
        super().__init__(
            child, batch_size, drop_remainder, num_parallel_workers, pad_info=pad_info if pad_info is not None else {}
        )
        self._padded = True


class BucketBatchByLengthDataset(Dataset):
    """The result of :meth:`Dataset.bucket_batch_by_length`."""

    def __init__(
        self,
        child,
        column_names,
        bucket_boundaries,
        bucket_batch_sizes,
        element_length_function,
        pad_info,
        pad_to_bucket_boundary,
        drop_remainder,
    ) -> None:
        super().__init__([child])
        self.column_names = _as_list(column_names, "column_names")
        b = list(bucket_boundaries)
        if (
            not b
            or any(not isinstance(x, numbers.Integral) or x <= 0 for x in b)
            or any(x >= y for x, y in zip(b, b[1:]))
        ):
            raise ValueError("bucket_boundaries must be a non-empty list of positive, strictly increasing integers.")
        s = list(bucket_batch_sizes)
        if len(s) != len(b) + 1 or any(not isinstance(x, numbers.Integral) or x <= 0 for x in s):
            raise ValueError("bucket_batch_sizes must hold len(bucket_boundaries) + 1 positive integers.")
        if element_length_function is None and len(self.column_names) != 1:
            raise ValueError("element_length_function must be given when column_names holds more than one column.")
        self.boundaries, self.sizes = b, s
        self.length_fn = element_length_function
        self.pad_info = pad_info
        self.pad_to_bucket_boundary = pad_to_bucket_boundary
        self.drop_remainder = drop_remainder

    def _columns(self):
        cols = self.children[0]._columns()
        for c in self.column_names:
            if c not in cols:
                raise pipeline_error(f"Invalid column, column name: {c} does not exist.")
        return cols

    def _size(self):
        return None

    def _iter(self, ctx, key):
        names = self._columns()
        idx = [names.index(c) for c in self.column_names]
        buckets: list[list] = [[] for _ in self.sizes]
        child = self.children[0]._iter(ctx, key + (0,))
        nb = 0

        def emit(rows, bucket):
            cols = [[r[k] for r in rows] for k in range(len(names))]
            out = []
            for k, name in enumerate(names):
                if self.pad_info is not None and name in self.pad_info:
                    shape, value = self.pad_info[name]
                    if self.pad_to_bucket_boundary and shape is None:
                        if bucket >= len(self.boundaries):
                            raise pipeline_error(
                                "Invalid data, pad_to_bucket_boundary needs a bounded bucket; a row is longer than the last boundary."
                            )
                        shape = [self.boundaries[bucket] - 1] + [None] * (to_np(cols[k][0]).ndim - 1)
                    out.append(_pad_rows(cols[k], shape, value, name))
                else:
                    out.append(batch_column(cols[k], name))
            return out

        try:
            for blk in child:
                for i in range(blk.n):
                    row = blk.row(i)
                    try:
                        L = self.length_fn(*[row[j] for j in idx]) if self.length_fn else to_np(row[idx[0]]).shape[0]
                    except Exception as e:
                        raise wrap_user_call(e, "bucket_batch_by_length: [element_length_function] failed.") from None
                    bi = int(np.searchsorted(self.boundaries, int(L), side="right"))
                    buckets[bi].append(row)
                    if len(buckets[bi]) == self.sizes[bi]:
                        yield Block([[c] for c in emit(buckets[bi], bi)], 1, nb)
                        nb += 1
                        buckets[bi] = []
            if not self.drop_remainder:
                for bi, rows in enumerate(buckets):
                    if rows:
                        yield Block([[c] for c in emit(rows, bi)], 1, nb)
                        nb += 1
        except WorkerFailure as f:
            from ._exec import raise_failure

            raise_failure(f)
        finally:
            child.close()


# ====================================================================== shuffle / repeat / take / skip
class ShuffleDataset(Dataset):
    """The result of :meth:`Dataset.shuffle`."""

    def __init__(self, child, buffer_size) -> None:
        super().__init__([child])
        if (
            isinstance(buffer_size, bool)
            or not isinstance(buffer_size, numbers.Integral)
            or not 2 <= buffer_size <= 2**31 - 1
        ):
            raise ValueError(
                f"Input buffer_size is not within the required interval of [2, 2147483647], got {buffer_size!r}."
            )
        self.buffer_size = int(buffer_size)

    def _iter(self, ctx, key):
        rng = _random.make(ctx.seed, *ctx.path, *key, 3)
        child = self.children[0]._iter(ctx, key + (0,))
        buf: list = []
        out: list = []
        start = 0
        ncols = None
        cap = self.buffer_size

        def flush():
            nonlocal out, start
            cols = [_gather_rows(out, k) for k in range(ncols)]
            b = Block(cols, len(out), start)
            start += len(out)
            out = []
            return b

        try:
            draws = iter(())
            for blk in child:
                if ncols is None:
                    ncols = len(blk.cols)
                for i in range(blk.n):
                    if len(buf) < cap:
                        buf.append((blk, i))
                        continue
                    j = next(draws, None)
                    if j is None:
                        draws = iter(rng.integers(0, cap, 4096).tolist())
                        j = next(draws)
                    out.append(buf[j])
                    buf[j] = (blk, i)
                    if len(out) == BLOCK_ROWS:
                        yield flush()
            for j in rng.permutation(len(buf)).tolist():
                out.append(buf[j])
                if len(out) == BLOCK_ROWS:
                    yield flush()
            if out:
                yield flush()
        finally:
            child.close()


def _gather_rows(refs: list, k: int):
    """Column ``k`` of rows ``(block, index)`` from several blocks, stacked when the blocks' columns are."""
    first = refs[0][0].cols[k]
    if isinstance(first, np.ndarray):
        tail = (first.shape[1:], first.dtype)
        if all(isinstance(b.cols[k], np.ndarray) and (b.cols[k].shape[1:], b.cols[k].dtype) == tail for b, _ in refs):
            out = np.empty((len(refs), *tail[0]), tail[1])
            for j, (b, i) in enumerate(refs):
                out[j] = b.cols[k][i]
            return out
    return maybe_stack([item(b.cols[k], i) for b, i in refs])


class RepeatDataset(Dataset):
    """The result of :meth:`Dataset.repeat`."""

    def __init__(self, child, count=None) -> None:
        super().__init__([child])
        if count is None:
            count = -1
        if isinstance(count, bool) or not isinstance(count, numbers.Integral) or count == 0 or count < -1:
            raise ValueError(
                f"Input count is not within the required interval of [-1, 2147483647] (and not 0), got {count!r}."
            )
        self.count = int(count)

    def _size(self):
        n = self.children[0]._size()
        if self.count == -1 or n is None:
            return None if n is None or n else 0
        return n * self.count

    def get_dataset_size(self):
        if self.count == -1:
            return -1 if self.children[0].get_dataset_size() else 0
        return super().get_dataset_size()

    def _iter(self, ctx, key):
        r = 0
        start = 0
        while self.count == -1 or r < self.count:
            it = self.children[0]._iter(ctx.sub(r), key + (0,))
            got = 0
            try:
                for blk in it:
                    got += blk.n
                    yield Block(blk.cols, blk.n, start)
                    start += blk.n
            finally:
                it.close()
            if not got:
                return
            r += 1


class TakeDataset(Dataset):
    """The result of :meth:`Dataset.take`."""

    def __init__(self, child, count=-1) -> None:
        super().__init__([child])
        if isinstance(count, bool) or not isinstance(count, numbers.Integral) or count < -1 or count == 0:
            raise ValueError(
                f"Input count is not within the required interval of [-1, 2147483647] (and not 0), got {count!r}."
            )
        self.count = int(count)

    def _size(self):
        n = self.children[0]._size()
        if self.count == -1:
            return n
        return None if n is None else min(n, self.count)

    def _iter(self, ctx, key):
        it = self.children[0]._iter(ctx, key + (0,))
        left = self.count
        try:
            if left == -1:
                yield from it
                return
            for blk in it:
                if blk.n >= left:
                    yield Block([c[:left] for c in blk.cols], left, blk.start)
                    return
                left -= blk.n
                yield blk
        finally:
            it.close()


class SkipDataset(Dataset):
    """The result of :meth:`Dataset.skip`."""

    def __init__(self, child, count) -> None:
        super().__init__([child])
        if isinstance(count, bool) or not isinstance(count, numbers.Integral) or count < 0:
            raise ValueError(f"Input count is not within the required interval of [0, 2147483647], got {count!r}.")
        self.count = int(count)

    def _size(self):
        n = self.children[0]._size()
        return None if n is None else max(0, n - self.count)

    def _iter(self, ctx, key):
        it = self.children[0]._iter(ctx, key + (0,))
        left = self.count
        try:
            for blk in it:
                if left >= blk.n:
                    left -= blk.n
                    continue
                if left:
                    blk = Block([c[left:] for c in blk.cols], blk.n - left, blk.start + left)
                    left = 0
                yield blk
        finally:
            it.close()


class SyncWaitDataset(Dataset):
    """The result of :meth:`Dataset.sync_wait`."""

    def __init__(self, child, condition_name, num_batch=1, callback=None) -> None:
        super().__init__([child])
        if not isinstance(condition_name, str):
            raise TypeError(f"condition_name should be a str, but got {type(condition_name).__name__}.")
        if isinstance(num_batch, bool) or not isinstance(num_batch, numbers.Integral) or num_batch < 1:
            raise ValueError(f"num_batch should be a positive integer, but got {num_batch!r}.")
        if callback is not None and not callable(callback):
            raise TypeError("callback should be callable.")
        self.condition_name = condition_name
        self.num_batch = int(num_batch)
        self.callback = callback
        self._batch_size = 1
        self._cond = threading.Condition()
        self._allowed = 0

    def _release(self, num_batch, data) -> None:
        if self.callback is not None:
            self.callback(data)
        with self._cond:
            self._allowed += (num_batch or self.num_batch) * self._batch_size
            self._cond.notify_all()

    def _iter(self, ctx, key):
        from ._exec import stopping

        ctx.gate[0] = True
        with self._cond:
            self._allowed = self.num_batch * self._batch_size
        passed = 0
        it = self.children[0]._iter(ctx, key + (0,))
        try:
            for blk in it:
                a = 0
                while a < blk.n:
                    with self._cond:
                        while self._allowed <= passed:
                            s = stopping(ctx)
                            if s is None:  # introspection (no consumer to call sync_update): do not block
                                self._allowed = passed + blk.n - a
                                break
                            if s:
                                return
                            self._cond.wait(0.05)
                        take = min(blk.n - a, self._allowed - passed)
                    passed += take
                    if a == 0 and take == blk.n:
                        yield blk
                    else:
                        yield Block([c[a : a + take] for c in blk.cols], take, blk.start + a)
                    a += take
        finally:
            it.close()


# ====================================================================== columns
class ProjectDataset(Dataset):
    """The result of :meth:`Dataset.project`."""

    def __init__(self, child, columns) -> None:
        super().__init__([child])
        self.columns = _as_list(columns, "columns")
        if not self.columns:
            raise ValueError("project: columns must not be empty.")

    def _columns(self):
        cols = self.children[0]._columns()
        for c in self.columns:
            if c not in cols:
                raise pipeline_error(f"Invalid column, column name: {c} does not exist.")
        return list(self.columns)

    def _iter(self, ctx, key):
        cols = self.children[0]._columns()
        idx = [cols.index(c) for c in self.columns]
        it = self.children[0]._iter(ctx, key + (0,))
        try:
            for blk in it:
                yield Block([blk.cols[i] for i in idx], blk.n, blk.start)
        finally:
            it.close()


class RenameDataset(Dataset):
    """The result of :meth:`Dataset.rename`."""

    def __init__(self, child, input_columns, output_columns) -> None:
        super().__init__([child])
        self.input_columns = _as_list(input_columns, "input_columns")
        self.output_columns = _as_list(output_columns, "output_columns")
        if len(self.input_columns) != len(self.output_columns):
            raise ValueError("rename: input_columns and output_columns must have the same length.")

    def _columns(self):
        cols = self.children[0]._columns()
        for c in self.input_columns:
            if c not in cols:
                raise pipeline_error(f"Invalid column, column to be renamed does not exist: {c}.")
        m = dict(zip(self.input_columns, self.output_columns))
        out = [m.get(c, c) for c in cols]
        if len(set(out)) != len(out):
            raise pipeline_error(f"Invalid column, duplicate column names after rename: {out}.")
        return out

    def _iter(self, ctx, key):
        return self.children[0]._iter(ctx, key + (0,))


class _RowReader:
    """Reads a block stream ``k`` rows at a time."""

    def __init__(self, it: Iterator[Block]) -> None:
        self.it = it
        self.cur: Block | None = None
        self.pos = 0

    def read(self, k: int) -> list | None:
        pieces, have = [], 0
        while have < k:
            if self.cur is None or self.pos >= self.cur.n:
                self.cur = next(self.it, None)
                self.pos = 0
                if self.cur is None:
                    break
                continue
            t = min(k - have, self.cur.n - self.pos)
            pieces.append([c[self.pos : self.pos + t] for c in self.cur.cols])
            self.pos += t
            have += t
        if not have:
            return None
        return [have, [concat([p[j] for p in pieces]) for j in range(len(pieces[0]))]]


class ZipDataset(Dataset):
    """The result of :meth:`Dataset.zip`."""

    def __init__(self, datasets) -> None:
        datasets = tuple(datasets)
        if len(datasets) < 1 or not all(isinstance(d, Dataset) for d in datasets):
            raise TypeError("zip: datasets must be a tuple of Dataset.")
        super().__init__(datasets)

    def _columns(self):
        out: list[str] = []
        for d in self.children:
            for c in d._columns():
                if c in out:
                    raise pipeline_error(
                        f"Invalid data, duplicate column name: {c} in the zipped datasets; rename it first."
                    )
                out.append(c)
        return out

    def _size(self):
        sizes = [d._size() for d in self.children]
        return None if any(s is None for s in sizes) else min(sizes)

    def _iter(self, ctx, key):
        its = [d._iter(ctx, key + (k,)) for k, d in enumerate(self.children)]
        readers = [_RowReader(it) for it in its]
        start = 0
        try:
            while True:
                parts = [r.read(BLOCK_ROWS) for r in readers]
                if any(p is None for p in parts):
                    return
                m = min(p[0] for p in parts)
                cols = []
                for p in parts:
                    cols.extend(c[:m] for c in p[1])
                yield Block(cols, m, start)
                start += m
                if m < BLOCK_ROWS:
                    return
        finally:
            for it in its:
                it.close()


class ConcatDataset(Dataset):
    """The result of :meth:`Dataset.concat`."""

    def __init__(self, datasets) -> None:
        if not all(isinstance(d, Dataset) for d in datasets):
            raise TypeError("concat: datasets must be Dataset objects.")
        super().__init__(datasets)

    def _columns(self):
        first = self.children[0]._columns()
        for d in self.children[1:]:
            if d._columns() != first:
                raise pipeline_error(
                    f"Invalid data, the column names of the concatenated datasets differ: {first} vs {d._columns()}."
                )
        return first

    def _size(self):
        sizes = [d._size() for d in self.children]
        return None if any(s is None for s in sizes) else sum(sizes)

    def _iter(self, ctx, key):
        start = 0
        for k, d in enumerate(self.children):
            it = d._iter(ctx, key + (k,))
            try:
                for blk in it:
                    yield Block(blk.cols, blk.n, start)
                    start += blk.n
            finally:
                it.close()


class FilterDataset(Dataset):
    """The result of :meth:`Dataset.filter`."""

    def __init__(self, child, predicate, input_columns=None, num_parallel_workers=None) -> None:
        super().__init__([child], num_parallel_workers)
        if not callable(predicate):
            raise TypeError("filter: predicate must be callable.")
        self.predicate = predicate
        self.input_columns = _as_list(input_columns, "input_columns")

    def _columns(self):
        cols = self.children[0]._columns()
        for c in self.input_columns or []:
            if c not in cols:
                raise pipeline_error(
                    f"Invalid parameter, input column name: {c} doesn't exist in the dataset columns {cols}."
                )
        return cols

    def _size(self):
        return None

    def _iter(self, ctx, key):
        cols = self._columns()
        idx = [cols.index(c) for c in self.input_columns] if self.input_columns else list(range(len(cols)))
        child = self.children[0]._iter(ctx, key + (0,))

        def run(blk: Block):
            keep = []
            for i in range(blk.n):
                try:
                    ok = self.predicate(*[item(blk.cols[j], i) for j in idx])
                except Exception as e:
                    raise wrap_user_call(e, "filter operation: [predicate] failed.") from None
                if bool(np.asarray(ok)):
                    keep.append(i)
            if len(keep) == blk.n:
                return blk
            return Block([gather(c, keep) for c in blk.cols], len(keep), blk.start)

        start = 0
        try:
            for blk in ordered_map(child, run, self._workers(), ctx):
                if blk.n:
                    yield Block(blk.cols, blk.n, start)
                    start += blk.n
        finally:
            child.close()
