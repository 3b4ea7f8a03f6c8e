"""Blocks of rows: the unit of work of the pipeline.

A block holds ``n`` consecutive rows as a list of columns. A column is either one NumPy array whose first
axis indexes the rows (a "stacked" column: vectorised transforms apply to it at once) or a Python list of
``n`` per-row arrays (ragged data).
"""

from __future__ import annotations

import numbers

import numpy as np

from .errors import pipeline_error

BLOCK_ROWS = 64
# rows per block of a source that reads one image file per row (ImageFolderDataset and the like): their
# decoded and augmented rows are large (a 224x224x3 float32 image is 600 KB), and the pipeline holds a few
# blocks per worker at once; 32 rows keep that working set near MindSpore's, whose first epoch otherwise
# pays for hundreds of MB of fresh pages (measured: bench_dataset.py --pipeline imagenet, 2 workers), and
# match the usual batch of 32 (a batch is then one block: no copy)
FILE_BLOCK_ROWS = 32


class Block:
    __slots__ = ("cols", "n", "start")

    def __init__(self, cols: list, n: int, start: int = 0) -> None:
        self.cols = cols
        self.n = n
        self.start = start

    def row(self, i: int) -> list:
        return [item(c, i) for c in self.cols]


def item(col, i: int):
    """Row ``i`` of a column (a 0-d array, not a NumPy scalar, for a stacked column of scalars)."""
    return col[i, ...] if isinstance(col, np.ndarray) else col[i]


def to_np(value) -> np.ndarray:
    """One value of a row as a NumPy array, with MindSpore's conversions."""
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, (bool, np.bool_)):
        return np.asarray(value, np.bool_)
    if isinstance(value, np.generic):
        return np.asarray(value)
    if isinstance(value, numbers.Integral):
        return np.asarray(value, np.int64)
    if isinstance(value, numbers.Real):
        return np.asarray(value, np.float64)
    if isinstance(value, (str, bytes)):
        return np.asarray(value)
    asnumpy = getattr(value, "asnumpy", None)
    if asnumpy is not None:
        return asnumpy()
    if hasattr(value, "__array__") or isinstance(value, (list, tuple)):
        arr = np.asarray(value)
        if arr.dtype == object:
            raise TypeError(
                f"Invalid data, a row value of type {type(value).__name__} cannot be converted to a NumPy array."
            )
        return arr
    # PIL images and other objects pass through untouched (py_transforms chains)
    return value


def maybe_stack(rows: list):
    """Stack per-row arrays into one array when they share shape and dtype; else keep the list."""
    if len(rows) < 2:
        if rows and isinstance(rows[0], np.ndarray):
            return rows[0][None]
        return rows
    first = rows[0]
    if not isinstance(first, np.ndarray) or first.dtype == object:
        return rows
    shape, dtype = first.shape, first.dtype
    for r in rows:
        if not isinstance(r, np.ndarray) or r.shape != shape or r.dtype != dtype:
            return rows
    return np.stack(rows)


class RowStack:
    """Collects the ``n`` rows of one column as they are made, into one array while they share shape and dtype
    (each row is copied in while it is still in the cache; the same result as ``maybe_stack`` of the rows)."""

    __slots__ = ("n", "arr", "rows", "k")

    def __init__(self, n: int) -> None:
        self.n = n
        self.arr: np.ndarray | None = None
        self.rows: list | None = None
        self.k = 0

    def add(self, v) -> None:
        arr = self.arr
        if arr is not None:
            if isinstance(v, np.ndarray) and v.shape == arr.shape[1:] and v.dtype == arr.dtype:
                arr[self.k] = v
                self.k += 1
                return
            self.rows = [arr[i, ...] for i in range(self.k)]
            self.arr = None
        elif self.rows is None:
            if self.n == 1 and isinstance(v, np.ndarray):
                self.arr = v[None]
                self.k = 1
                return
            if self.n > 1 and isinstance(v, np.ndarray) and v.dtype != object:
                self.arr = np.empty((self.n, *v.shape), v.dtype)
                self.arr[0] = v
                self.k = 1
                return
            self.rows = []
        self.rows.append(v)

    def slot(self) -> np.ndarray | None:
        """Where the next row goes once the rows share one array (an operation may write it there itself:
        then :meth:`filled`), else ``None``."""
        return self.arr[self.k] if self.arr is not None and self.k < self.n else None

    def filled(self) -> None:
        """The row at :meth:`slot` was written in place."""
        self.k += 1

    def done(self):
        return self.arr if self.arr is not None else self.rows


def gather(col, idx):
    if isinstance(col, np.ndarray):
        return col[idx]
    return [col[i] for i in idx]


def slice_col(col, a: int, b: int):
    return col[a:b]


def concat(pieces: list):
    """Concatenate pieces of one column (arrays or lists) into one column."""
    if len(pieces) == 1:
        return pieces[0]
    if all(isinstance(p, np.ndarray) for p in pieces):
        t = pieces[0].shape[1:], pieces[0].dtype
        if all((p.shape[1:], p.dtype) == t for p in pieces):
            return np.concatenate(pieces)
    out: list = []
    for p in pieces:
        out.extend(list(p))
    return out


def batch_column(col, name: str) -> np.ndarray:
    """Rows of one column -> one batch array (``batch``): every row must have the same shape."""
    if isinstance(col, np.ndarray):
        return col
    shape = None
    for r in col:
        if not isinstance(r, np.ndarray):
            r = to_np(r)
        if shape is None:
            shape = r.shape
        elif r.shape != shape:
            raise pipeline_error(
                "Inconsistent batch shapes, batch operation expects same shape for each data row, but got "
                f"inconsistent shape in column '{name}', expected shape for this column is:{_fmt(shape)}, "
                f"got shape:{_fmt(r.shape)}"
            )
    arrs = [r if isinstance(r, np.ndarray) else to_np(r) for r in col]
    if arrs and arrs[0].dtype.kind in "US":
        return np.array(arrs)
    return np.stack(arrs)


def _fmt(shape) -> str:
    return "<" + ",".join(str(s) for s in shape) + ">"
