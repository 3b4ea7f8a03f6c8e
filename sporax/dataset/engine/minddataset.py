"""``MindDataset``: a source reading MindRecord files (``mindspore.mindrecord``)."""

from __future__ import annotations

import numbers
import os

import numpy as np

from . import _random
from ._block import maybe_stack
from .datasets import Shuffle
from .errors import pipeline_error
from .samplers import DistributedSampler
from .sources import MappableSource

__all__ = ["MindDataset"]

_NP = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}


def _column_value(spec: dict, v):
    """A stored value as MindSpore's MindDataset yields it."""
    t = spec["type"]
    if t == "bytes":
        b = bytes(v)
        return np.array([b], dtype=f"S{max(1, len(b))}")
    if t == "string":
        return np.asarray(str(v))
    if "shape" in spec:
        return v
    return np.asarray(v, _NP[t])


def _padded_value(name: str, spec: dict, v):
    t = spec["type"]
    try:
        if t == "bytes":
            if isinstance(v, np.ndarray) and v.dtype.kind == "S":
                v = v.reshape(-1)[0]
            if not isinstance(v, (bytes, bytearray)):
                raise TypeError
            return _column_value(spec, v)
        if t == "string":
            if not isinstance(v, str):
                raise TypeError
            return _column_value(spec, v)
        return np.asarray(v).astype(_NP[t], copy=False)
    except (TypeError, ValueError):
        raise ValueError(f"padded_sample['{name}'] = {v!r:.60} does not match the column's type {t}.") from None


class MindDataset(MappableSource):
    """Rows of MindRecord files.

    The columns are the schema's fields (sorted by name), or ``columns_list``: scalar fields as 0-d arrays
    (``string`` as a NumPy str), ``bytes`` fields as a 1-element bytes array, array fields with the
    schema's shape.

    Args:
        dataset_files (Union[str, list[str]]): a MindRecord file (every shard of its set is read) or a list
            of files (those only, in that order).
        columns_list (list[str], optional): the columns to read, in this order. Default: ``None``, all.
        num_parallel_workers (int, optional): threads reading rows. Default: ``None`` (1).
        shuffle (Union[bool, Shuffle], optional): ``True`` or ``Shuffle.GLOBAL``: shuffle the rows of every
            file together; ``Shuffle.FILES``: shuffle the order of the files; ``Shuffle.INFILE``: shuffle the
            rows within each file; ``False``: no shuffle. Default: ``None`` (global).
        num_shards (int, optional): number of shards. Default: ``None``.
        shard_id (int, optional): this shard. Default: ``None``.
        sampler (Sampler, optional): a sampler. Default: ``None``.
        padded_sample (dict, optional): a row appended ``num_padded`` times (so that every shard gets the
            same number of rows); needs ``columns_list``. Default: ``None``.
        num_padded (int, optional): the number of padded rows. Default: ``None``.
        num_samples (int, optional): at most this many rows. Default: ``None``, all.
        cache (DatasetCache, optional): not supported. Default: ``None``.

    Raises:
        ValueError: a file does not exist, or the arguments are inconsistent.
        RuntimeError: a file is not a MindRecord file, is corrupt or truncated, or its ``.db`` is missing.
    """

    def __init__(
        self,
        dataset_files,
        columns_list=None,
        num_parallel_workers=None,
        shuffle=None,
        num_shards=None,
        shard_id=None,
        sampler=None,
        padded_sample=None,
        num_padded=None,
        num_samples=None,
        cache=None,
    ) -> None:
        from ...mindrecord.filereader import open_shard_set

        files = [dataset_files] if isinstance(dataset_files, str) else dataset_files
        if not isinstance(files, (list, tuple)) or not files or not all(isinstance(f, str) for f in files):
            raise TypeError("dataset_files should be a str or a non-empty list of str.")
        for f in files:
            if not os.path.isfile(f) or not os.access(f, os.R_OK):
                raise ValueError(f"The file {os.path.abspath(f)} does not exist or permission denied!")
        if columns_list is not None:
            if (
                not isinstance(columns_list, list)
                or not columns_list
                or not all(isinstance(c, str) for c in columns_list)
            ):
                raise TypeError("columns_list should be a non-empty list of str.")
            if len(set(columns_list)) != len(columns_list):
                raise ValueError(f"columns_list has duplicate column names: {columns_list}.")
        if padded_sample is not None:
            if not isinstance(padded_sample, dict):
                raise TypeError("padded_sample should be a dict.")
            if num_padded is None:
                raise RuntimeError("padded_sample is specified and requires num_padded as well.")
            if columns_list is None:
                raise RuntimeError("padded_sample is specified and requires columns_list as well.")
            if any(c not in padded_sample for c in columns_list):
                raise ValueError("padded_sample cannot match columns_list.")
        elif num_padded is not None:
            raise RuntimeError("num_padded is specified but padded_sample is not.")
        if num_padded is not None and (
            isinstance(num_padded, bool) or not isinstance(num_padded, numbers.Integral) or num_padded < 0
        ):
            raise ValueError(f"num_padded is invalid, num_padded={num_padded}.")
        modes = (Shuffle.GLOBAL, Shuffle.FILES, Shuffle.INFILE)
        if shuffle is None:
            mode, sh = (Shuffle.GLOBAL if sampler is None else None), None
        elif isinstance(shuffle, bool):
            mode, sh = (Shuffle.GLOBAL if shuffle else None), shuffle
        elif isinstance(shuffle, str) and shuffle in modes:
            mode, sh = Shuffle(shuffle), shuffle == Shuffle.GLOBAL
        else:
            raise TypeError(f"shuffle should be a bool or a Shuffle mode, but got {shuffle!r}.")
        self.dataset_files = dataset_files
        self.columns_list = None if columns_list is None else list(columns_list)
        self.shuffle_mode = mode
        self.num_padded = int(num_padded or 0)
        self.padded_sample = padded_sample
        try:
            self._set = open_shard_set(dataset_files)
        except (OSError, RuntimeError) as e:
            raise pipeline_error(str(e).strip()) from None
        self._schema = self._set.schema
        # Shuffle.FILES / INFILE: _indices permutes the files or rows; the (unshuffled) sampler picks
        # positions in that order
        super().__init__(num_samples, num_parallel_workers, sh, sampler, num_shards, shard_id)
        self._pad = None
        if padded_sample is not None:
            cols = self._columns()
            self._pad = [_padded_value(c, self._schema[c], padded_sample[c]) for c in cols]

    # -------------------------------------------------------------- source interface
    def _columns(self):
        names = sorted(self._schema)
        if self.columns_list is None:
            return names
        for c in self.columns_list:
            if c not in self._schema:
                raise pipeline_error(
                    f"Invalid data, column name: {c} in 'columns_list' does not exist in the MindRecord schema: {names}."
                )
        return list(self.columns_list)

    def _n(self):
        return self._set.num_rows + self.num_padded

    def _size(self):
        self._verify_padding()
        return super()._size()

    def _verify_padding(self) -> None:
        s = self._sampler
        if self.num_padded and isinstance(s, DistributedSampler) and self._n() % s.num_shards:
            raise pipeline_error(
                f"Invalid data, the size of dataset and padded samples: {self._n()} can not be divisible by the "
                f"value of 'num_shards': {s.num_shards}.\n Please adjust the value of 'num_padded'."
            )

    def _fetch_workers(self):
        return self.num_parallel_workers or 1

    def _indices(self, ctx, key):
        self._verify_padding()
        mode = self.shuffle_mode
        if mode not in (Shuffle.FILES, Shuffle.INFILE):
            return super()._indices(ctx, key)
        from ..core import config

        seed = config.get_seed() if self._sampler.is_sharded() else ctx.seed
        rng = _random.make(seed, *ctx.path, *key, 13)
        starts = self._set.starts
        parts = [np.arange(starts[k], starts[k + 1], dtype=np.int64) for k in range(len(self._set.shards))]
        if mode == Shuffle.FILES:
            parts = [parts[k] for k in rng.permutation(len(parts))]
        else:
            parts = [p[rng.permutation(len(p))] for p in parts]
        order = np.concatenate(parts + [np.arange(self._set.num_rows, self._n(), dtype=np.int64)])
        return order[self._sampler.sample(len(order), rng, None)]

    def _labels(self):
        s, col = self._sampler, None
        while s is not None and not col:
            col, s = getattr(s, "class_column", None), s.get_child()
        if not col:
            return None
        if col not in self._schema or "shape" in self._schema[col] or self._schema[col]["type"] == "bytes":
            raise pipeline_error(
                f"Invalid parameter, class_column: {col} is not a scalar column of the MindRecord files."
            )
        vals = []
        for s in self._set.shards:
            vals += [s.raw_row(i)[col] for i in range(s.num_rows)]
        if self._pad is not None and col in self._columns():
            vals += [self.padded_sample[col]] * self.num_padded
        return np.asarray(vals)

    def _fetch(self, idx):
        cols = self._columns()
        schema = self._schema
        real = self._set.num_rows
        shard_of, local = self._set.locate(np.minimum(idx, max(real - 1, 0)))
        out: list = [[] for _ in cols]
        for j, i in enumerate(idx.tolist()):
            if i >= real:
                for k in range(len(cols)):
                    out[k].append(self._pad[k])
                continue
            s = self._set.shards[int(shard_of[j])]
            r = int(local[j])
            raw = s.raw_row(r) if any(c in s.raw_names for c in cols) else {}
            blob = s.blob_row(r, cols) if any(c in s.blob_names for c in cols) else {}
            for k, c in enumerate(cols):
                v = raw[c] if c in raw else blob[c]
                out[k].append(_column_value(schema[c], v))
        return [maybe_stack(c) for c in out]
