"""Text sources: :class:`TextFileDataset` (one row per non-empty line)."""

from __future__ import annotations

import numpy as np

from ._file_source import FileRowSource, find_files, read_text

__all__ = ["TextFileDataset"]


class TextFileDataset(FileRowSource):
    """One row per non-empty line of text files: column ``text`` (str).

    Args:
        dataset_files (Union[str, list[str]]): files or a glob pattern.
        num_samples (int, optional): at most this many rows. Default: ``None``, all.
        num_parallel_workers (int, optional): readers (their rows interleave). Default: from ``ds.config``.
        shuffle (Union[bool, Shuffle], optional): ``Shuffle.GLOBAL``/``True``, ``Shuffle.FILES``,
            ``Shuffle.INFILE`` or ``False``. Default: ``Shuffle.GLOBAL``.
        num_shards (int, optional): number of shards. Default: ``None``.
        shard_id (int, optional): this shard. Default: ``None``.
        cache (DatasetCache, optional): kept for compatibility. Default: ``None``.

    Raises:
        ValueError: no file matches ``dataset_files``.
        RuntimeError: ``num_shards`` without ``shard_id`` or the reverse.
    """

    def __init__(
        self,
        dataset_files,
        num_samples=None,
        num_parallel_workers=None,
        shuffle="global",
        num_shards=None,
        shard_id=None,
        cache=None,
    ) -> None:
        files = find_files(dataset_files)
        self.dataset_files = files
        super().__init__(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _columns(self):
        return ["text"]

    def _read_file(self, path):
        return [[np.asarray(line)] for line in read_text(path).splitlines() if line]
