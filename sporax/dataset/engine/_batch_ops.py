"""``batch``, ``padded_batch`` and ``bucket_batch_by_length``: rows stacked into batches (with
``per_batch_map``, padding, a callable batch size, buckets by length)."""

from __future__ import annotations

import numbers

import numpy as np

from ..._checkparam import check_batch_size, check_bucket_args, check_column_names, check_pipeline_type
from ._block import Block, batch_column, concat, to_np
from ._exec import ordered_map
from .datasets import BatchInfo, Dataset, debug_serial, output_layout
from .errors import WorkerFailure, pipeline_error, wrap_user_call

# ====================================================================== batch
__all__ = ["BatchDataset", "PaddedBatchDataset", "BucketBatchByLengthDataset"]


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
        out[i][tuple(slice(0, s) for s in a.shape)] = a
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
        batch_size = check_batch_size(batch_size)
        check_pipeline_type(drop_remainder, bool, "drop_remainder")
        check_pipeline_type(python_multiprocessing, bool, "python_multiprocessing")
        if pad_info is not None:
            check_pipeline_type(pad_info, dict, "pad_info")
        if per_batch_map is not None and not callable(per_batch_map):
            raise ValueError(f"Input operations should be callable Python function, but got: {per_batch_map}")
        self.batch_size = batch_size
        self.drop_remainder = drop_remainder
        self.per_batch_map = per_batch_map
        self.input_columns = check_column_names(input_columns, "input_columns")
        self.output_columns = check_column_names(output_columns, "output_columns")
        if (self.input_columns or self.output_columns) and per_batch_map is None:
            pass
        self.pad_info = pad_info
        self.python_multiprocessing = python_multiprocessing
        self._padded = pad_info is not None

    def _workers(self):
        return self.num_parallel_workers or 1

    def _layout(self):
        cols = self.children[0]._columns()
        if self.per_batch_map is None:
            return cols, None, cols
        ins = self.input_columns or cols
        outs = self.output_columns or ins
        names, layout = output_layout(cols, ins, outs)
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

        # ds.config's debug mode: the calling thread, no processes (MindSpore's warning where they were asked for)
        workers = 1 if debug_serial(self.python_multiprocessing, "batch operation") else self._workers()
        try:
            yield from ordered_map(groups(), run, workers, ctx, processes=self.python_multiprocessing and workers > 1)
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
        self.column_names, self.boundaries, self.sizes = check_bucket_args(
            column_names,
            bucket_boundaries,
            bucket_batch_sizes,
            element_length_function,
            pad_to_bucket_boundary,
            drop_remainder,
        )
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
                    # MindSpore 2.10: every unspecified dimension (None) of a given pad shape becomes the
                    # bucket's boundary minus 1; a pad shape of None pads to the batch's longest row
                    if self.pad_to_bucket_boundary and shape is not None and any(d in (None, -1) for d in shape):
                        if bucket >= len(self.boundaries):
                            raise pipeline_error(
                                "Invalid data, pad_to_bucket_boundary needs a bounded bucket; a row is longer than the last boundary."
                            )
                        shape = [self.boundaries[bucket] - 1 if d in (None, -1) else d for d in shape]
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
