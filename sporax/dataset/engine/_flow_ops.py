"""Operations on the flow of rows and on columns: ``shuffle``, ``repeat``, ``take``, ``skip``, ``sync_wait``;
``project``, ``rename``, ``zip``, ``concat``."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np

from ..._checkparam import (
    check_column_names,
    check_datasets_arg,
    check_pipeline_interval,
    check_pipeline_type,
    check_positive_integer,
    pipeline_type_error,
)
from . import _random
from ._block import BLOCK_ROWS, Block, concat, item, maybe_stack
from .datasets import Dataset
from .errors import pipeline_error

# ====================================================================== shuffle / repeat / take / skip
__all__ = [
    "ShuffleDataset",
    "RepeatDataset",
    "TakeDataset",
    "SkipDataset",
    "SyncWaitDataset",
    "ProjectDataset",
    "RenameDataset",
    "ZipDataset",
    "ConcatDataset",
    "FlatMapDataset",
]


class ShuffleDataset(Dataset):
    """The result of :meth:`Dataset.shuffle`."""

    def __init__(self, child, buffer_size) -> None:
        super().__init__([child])
        self.buffer_size = check_pipeline_interval(buffer_size, "buffer_size", 2, 2**31 - 1)

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
        self.count = check_pipeline_interval(
            count,
            "count",
            -1,
            2**31 - 1,
            except_zero=True,
            message="count should be either -1 or positive integer, range[1, INT32_MAX].",
            type_name="repeat",
            type_text="[<class 'int'>, <class 'NoneType'>]",
        )

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
        self.count = check_pipeline_interval(
            count,
            "count",
            -1,
            2**31 - 1,
            except_zero=True,
            message="count should be either -1 or within the required interval of (0, {upper}], got {value}.",
        )

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
        self.count = check_pipeline_interval(count, "count", 0, 2**31 - 1)

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
        check_pipeline_type(condition_name, str, "condition_name")
        self.num_batch = check_positive_integer(num_batch, "num_batch")
        if callback is not None and not callable(callback):
            raise TypeError("callback should be callable.")
        self.condition_name = condition_name
        self.callback = callback
        self._batch_size = 1
        self._cond = threading.Condition()
        self._allowed = 0
        self._disabled = False

    _waits_for_consumer = True  # its input blocks until sync_update: nothing runs on into the next epoch

    def is_sync(self) -> bool:
        return True

    def get_sync_notifiers(self) -> dict:
        return {self.condition_name: lambda data=None: self._release(None, data)}

    def disable_sync(self) -> dict:
        with self._cond:
            self._allowed = 2**62
            self._disabled = True
            self._cond.notify_all()
        return {}

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
            self._allowed = 2**62 if self._disabled else self.num_batch * self._batch_size
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
        self.columns = check_column_names(columns, "columns")
        if self.columns is None:
            raise pipeline_type_error(columns, "[<class 'list'>, <class 'str'>]", "columns")

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
        self.input_columns = check_column_names(input_columns, "input_columns")
        self.output_columns = check_column_names(output_columns, "output_columns")
        if self.input_columns is None or self.output_columns is None:
            raise TypeError("rename: input_columns and output_columns must be given.")
        if len(self.input_columns) != len(self.output_columns):
            raise ValueError("Number of column in input_columns and output_columns is not equal.")

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
        super().__init__(tuple(check_datasets_arg(tuple(datasets), Dataset, "zip")))

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
        super().__init__(check_datasets_arg(list(datasets), Dataset, "concat"))

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


class FlatMapDataset(Dataset):
    """The result of :meth:`Dataset.flat_map`: the rows of the dataset ``func`` returns for each row."""

    def __init__(self, child, func) -> None:
        super().__init__([child])
        if not callable(func):
            raise TypeError(f"Argument func with value {func!r} is not of type [<class 'function'>].")
        self.func = func
        self._out_cols = None

    def _sub(self, row) -> Dataset:
        out = self.func(*row)
        if not isinstance(out, Dataset):
            raise TypeError("flat_map: func must return a Dataset.")
        return out

    def _columns(self):
        if self._out_cols is None:
            from .datasets import _run_blocks

            for blk in _run_blocks(self.children[0], 0, 0):
                if blk.n:
                    self._out_cols = self._sub(blk.row(0))._columns()
                    break
            else:
                self._out_cols = self.children[0]._columns()
        return self._out_cols

    def _size(self):
        return None

    def _iter(self, ctx, key):
        it = self.children[0]._iter(ctx, key + (0,))
        start, k = 0, 0
        try:
            for blk in it:
                for i in range(blk.n):
                    sub = self._sub(blk.row(i))
                    inner = sub._iter(ctx.sub(k), key + (1, k))
                    k += 1
                    try:
                        for b in inner:
                            yield Block(b.cols, b.n, start)
                            start += b.n
                    finally:
                        inner.close()
        finally:
            it.close()
