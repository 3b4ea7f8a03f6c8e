"""Sources that read rows from a list of files (CSV, text, TFRecord and the text corpora), with MindSpore's
order: each shard takes ``ceil(rows / num_shards)`` consecutive rows of the files in order (wrapping around),
cut into per-file segments; ``num_parallel_workers`` readers take the segments in turn (segment ``i`` to
reader ``i % workers``) and their rows are interleaved one at a time. ``shuffle`` permutes the files
(``Shuffle.FILES``), the rows of each file (``Shuffle.INFILE``) or both and then every row (``True`` /
``Shuffle.GLOBAL``), anew each epoch."""

from __future__ import annotations

import numpy as np

from ..._checkparam import check_shards, check_source_num_samples
from . import _random
from ._block import BLOCK_ROWS, Block, maybe_stack
from .datasets import Dataset, Shuffle
from .errors import pipeline_error


def shuffle_mode(shuffle):
    """``None`` (no shuffle) or a :class:`Shuffle` mode from the ``shuffle`` argument."""
    if shuffle is None or shuffle is True:
        return Shuffle.GLOBAL
    if shuffle is False:
        return None
    if isinstance(shuffle, str) and shuffle in (m.value for m in Shuffle):
        m = Shuffle(shuffle)
        return None if m is Shuffle.FALSE else (Shuffle.GLOBAL if m is Shuffle.ADAPTIVE else m)
    raise TypeError(
        "shuffle must be of boolean or enum of 'Shuffle' values like 'Shuffle.GLOBAL' or 'Shuffle.FILES' or 'Shuffle.INFILE'."
    )


class FileRowSource(Dataset):
    """Base of the file-list sources: subclasses give ``_files`` and ``_read_file(path) -> list of rows``."""

    def __init__(self, files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id) -> None:
        super().__init__((), num_parallel_workers)
        check_source_num_samples(num_samples)
        check_shards(num_shards, shard_id)
        self._files = files
        self.num_samples = num_samples or None
        self._mode = shuffle_mode(shuffle)
        self.num_shards = num_shards
        self.shard_id = shard_id
        self._rows_cache: dict = {}
        self._args = {"shuffle": shuffle if isinstance(shuffle, (bool, type(None))) else str(shuffle)}
        self._shuffles = self._mode is not None

    # subclasses
    def _read_file(self, path: str) -> list:
        raise NotImplementedError

    def _rows(self, path: str) -> list:
        rows = self._rows_cache.get(path)
        if rows is None:
            rows = self._rows_cache[path] = self._read_file(path)
        return rows

    def _segments(self) -> list[tuple[int, int, int]]:
        counts = [len(self._rows(f)) for f in self._files]
        if self.num_shards is None:
            return [(i, 0, c) for i, c in enumerate(counts) if c]
        total = sum(counts)
        if total == 0:
            return []
        per = -(-total // self.num_shards)
        start = self.shard_id * per
        segs, need, pos = [], per, start % total
        offsets = np.cumsum([0, *counts])
        while need > 0:
            fi = int(np.searchsorted(offsets, pos, side="right") - 1)
            a = pos - offsets[fi]
            take = min(need, counts[fi] - a)
            segs.append((fi, int(a), int(a + take)))
            need -= take
            pos = (pos + take) % total
        return segs

    def _size(self):
        n = sum(b - a for _, a, b in self._segments())
        return min(n, self.num_samples) if self.num_samples else n

    def _iter(self, ctx, key):
        segs = self._segments()
        rng = _random.make(ctx.seed, *ctx.path, *key, 13)
        mode = self._mode
        if mode in (Shuffle.FILES, Shuffle.GLOBAL):
            segs = [segs[i] for i in rng.permutation(len(segs))]
        workers = max(1, min(self._workers(), len(segs)))
        streams = []
        for w in range(workers):
            rows = []
            for fi, a, b in segs[w::workers]:
                part = self._rows(self._files[fi])[a:b]
                if mode in (Shuffle.INFILE, Shuffle.GLOBAL):
                    part = [part[i] for i in rng.permutation(len(part))]
                rows.extend(part)
            streams.append(rows)
        order: list = []
        longest = max((len(s) for s in streams), default=0)
        for i in range(longest):
            order.extend(s[i] for s in streams if i < len(s))
        if mode is Shuffle.GLOBAL:
            order = [order[i] for i in rng.permutation(len(order))]
        if self.num_samples:
            order = order[: self.num_samples]
        ncols = len(self._columns())
        for a in range(0, len(order), BLOCK_ROWS):
            chunk = order[a : a + BLOCK_ROWS]
            yield Block([maybe_stack([r[k] for r in chunk]) for k in range(ncols)], len(chunk), a)


def read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise pipeline_error(f"Invalid file, failed to open {path}: {e}") from None
