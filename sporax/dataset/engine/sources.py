"""The base of the random-access sources (:class:`MappableSource`: a sampler picks the rows, the source reads
them by index) and the file helpers the sources share (whole-file reads, a loaded-file cache, IDX names)."""

from __future__ import annotations

import gzip
import os
import threading

import numpy as np

from ..._checkparam import check_source_num_samples
from . import _random
from ._block import BLOCK_ROWS, Block
from ._exec import ordered_map
from .datasets import Dataset
from .errors import pipeline_error
from .samplers import BuiltinSampler, select_sampler

__all__ = ["MappableSource"]


class MappableSource(Dataset):
    """A source with random access: a sampler picks the rows, the source reads them by index."""

    #: the sampler/sharding arguments are checked with GeneratorDataset's messages, not the folder sources'
    _generator_checks = False
    #: rows per block (``FILE_BLOCK_ROWS`` for the sources that read one image file per row)
    _block_rows = BLOCK_ROWS

    def __init__(
        self, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None, shard_id=None
    ) -> None:
        super().__init__((), num_parallel_workers)
        self.num_samples = check_source_num_samples(num_samples)
        self._args = {"shuffle": shuffle, "num_shards": num_shards, "shard_id": shard_id}
        self._sampler: BuiltinSampler = select_sampler(
            num_samples, sampler, shuffle, num_shards, shard_id, self._generator_checks
        )
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
        k = self._block_rows
        chunks = ((a, idx[a : a + k]) for a in range(0, len(idx), k))
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


def _find(d: str, base: str) -> str | None:
    for name in (base, base + ".gz", base.replace("-idx", ".idx"), base.replace("-idx", ".idx") + ".gz"):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return p
    return None
