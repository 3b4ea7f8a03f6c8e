"""User-defined sources (MindSpore's ``datasets_user_defined``): :class:`GeneratorDataset` over a Python
random-access object, iterable or generator function, and :class:`NumpySlicesDataset` over in-memory arrays."""

from __future__ import annotations

import logging
import os
import threading

import numpy as np

from ..._checkparam import check_column_names, check_pipeline_interval, check_pipeline_type, pipeline_type_error
from ..core import config
from ._block import BLOCK_ROWS, Block, maybe_stack, to_np
from .datasets import debug_serial
from .errors import pipeline_error, wrap_user_call
from .sources import MappableSource

__all__ = ["GeneratorDataset", "NumpySlicesDataset"]

_log = logging.getLogger("sporax")


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


def _verify_shm_room(workers: int, max_rowsize: int) -> None:
    """MindSpore's check before it starts a GeneratorDataset's worker processes with a fixed ``max_rowsize`` (MB):
    their shared memory (per worker, ``prefetch_size`` rows, at most ``4 * prefetch_size / workers`` and at least 2,
    plus 2) must stay under 80% of what /dev/shm has free."""
    if max_rowsize == -1 or not os.path.isdir("/dev/shm"):
        return
    queue = config.get_prefetch_size()
    queue = max(2, min(queue, queue * 4 // workers))
    need = workers * (queue + 2) * max_rowsize * 1024 * 1024
    st = os.statvfs("/dev/shm")
    free = st.f_bavail * st.f_frsize
    if need >= 0.8 * free:
        raise RuntimeError(
            f"Insufficient shared memory available. Required: {need}, Available: {free}. The required memory can't "
            "exceed 80% of the available shared memory, it's recommended to reduce memory usage by following "
            "methods:\n1. reduce value of parameter max_rowsize or num_parallel_workers.\n2. reduce prefetch size "
            "by set_prefetch_size().\n3. disable shared memory by set_enable_shared_mem()."
        )


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
        max_rowsize (int, optional): deprecated. MB of shared memory per row for the worker processes; a row over
            it goes through a pipe instead, with MindSpore's warning. Default: ``None`` (sized to the data).

    In debug mode (``ds.config.set_debug_mode(True)``) the rows are read in the calling thread, one after the
    other, with MindSpore's warning at construction where ``python_multiprocessing`` is on.
    """

    _generator_checks = True

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
        names = check_column_names(column_names, "column_names")
        if schema is not None:
            from .schema import Schema

            sch = schema if isinstance(schema, Schema) else Schema(schema)
            names = [c["name"] for c in sch.columns]
            column_types = [c["type"] for c in sch.columns]
        if not names:
            raise ValueError("Neither columns_names nor schema are provided.")
        if max_rowsize is not None:
            _log.warning("'max_rowsize' is deprecated from version 2.8.0 and will be removed in a future version.")
            check_pipeline_interval(max_rowsize, "max_rowsize", -1, 2**31 - 1)
        check_pipeline_type(python_multiprocessing, bool, "python_multiprocessing")
        debug_serial(python_multiprocessing, "GeneratorDataset")
        self.column_names = names
        if column_types is not None and len(column_types) != len(self.column_names):
            raise ValueError("column_types must have as many entries as column_names.")
        from ...common import dtype as mstype

        self._np_types = (
            None if column_types is None else [None if t is None else mstype.to_np(t) for t in column_types]
        )
        super().__init__(
            num_samples, num_parallel_workers, shuffle if self._random_access else False, sampler, num_shards, shard_id
        )
        self.python_multiprocessing = python_multiprocessing
        self.max_rowsize = -1 if max_rowsize is None else int(max_rowsize)  # read by the worker pool (_exec._pool)
        self._lock = threading.Lock()

    def _columns(self):
        return list(self.column_names)

    def _workers(self):
        return self.num_parallel_workers or 1

    def _fetch_workers(self):
        return 1 if config.get_debug_mode() else self._workers()

    def _fetch_processes(self):
        return self.python_multiprocessing and self._fetch_workers() > 1

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
            if self._fetch_processes() and config._shared_mem():
                try:
                    _verify_shm_room(self._fetch_workers(), self.max_rowsize)
                except RuntimeError as e:
                    from ._exec import raise_failure

                    raise_failure(wrap_user_call(e, ""))  # MindSpore raises it where it starts the workers
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
            raise pipeline_type_error(
                data, "[<class 'list'>, <class 'tuple'>, <class 'dict'>, <class 'numpy.ndarray'>]", "data"
            )
        if (not isinstance(data, np.ndarray) or data.ndim) and not len(data):
            raise ValueError("Argument data cannot be empty")
        cn = check_column_names(column_names, "column_names")
        if cn is not None:
            if len(cn) != len(arrays):
                tail = " as data is list" if isinstance(data, (list, np.ndarray)) else ""
                raise ValueError(f"Num of input column names is {len(cn)}, but required is {len(arrays)}{tail}.")
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
        debug_serial(True, "GeneratorDataset")  # MindSpore's NumpySlicesDataset asks for multiprocessing
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
