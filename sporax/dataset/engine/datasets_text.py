"""Text sources: :class:`TextFileDataset` (one row per non-empty line)."""

from __future__ import annotations

import numpy as np

from ._block import maybe_stack
from ._file_source import FileRowSource, find_files, read_text
from .sources import MappableSource

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


# ---------------------------------------------------------------------- text corpora in CSV and line files
class _Corpus(FileRowSource):
    """A corpus of ``dataset_dir`` files chosen by ``usage`` (``'all'``: every file, in name order)."""

    _FILES: dict = {}
    _COLUMNS: list = ["text"]
    _CSV = False

    def _setup(self, dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id):
        import os

        from ..._checkparam import check_dataset_dir, check_dataset_usage

        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, (*self._FILES, "all"))
        names = sorted(f for fs in self._FILES.values() for f in fs) if self.usage == "all" else self._FILES[self.usage]
        files = [os.path.join(self.dataset_dir, n) for n in names]
        for f in files:
            if not os.path.isfile(f):
                raise ValueError(f"The file {f} does not exist or permission denied!")
        super().__init__(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _columns(self):
        return list(self._COLUMNS)

    def _read_file(self, path):
        text = read_text(path)
        if not self._CSV:
            return [[np.asarray(line)] for line in text.splitlines() if line]
        import csv
        import io

        return [[np.asarray(v) for v in row] for row in csv.reader(io.StringIO(text)) if row]


def _corpus(name, files, columns, csv_format, doc, order="workers_first"):
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle="global",
                 num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        self._setup(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def __init_shuffle_first__(self, dataset_dir, usage=None, num_samples=None, shuffle="global", num_shards=None,
                               shard_id=None, num_parallel_workers=None, cache=None) -> None:  # fmt: skip
        self._setup(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    init = __init__ if order == "workers_first" else __init_shuffle_first__
    return type(name, (_Corpus,), {"__init__": init, "_FILES": files, "_COLUMNS": columns, "_CSV": csv_format,
                                   "__doc__": doc, "__module__": __name__})  # fmt: skip


_TT = {"train": ["train.csv"], "test": ["test.csv"]}
AGNewsDataset = _corpus(
    "AGNewsDataset",
    _TT,
    ["index", "title", "description"],
    True,
    "AG News (``train.csv``/``test.csv``): columns index, title, description (str).",
)
AmazonReviewDataset = _corpus(
    "AmazonReviewDataset",
    _TT,
    ["label", "title", "content"],
    True,
    "Amazon Review polarity/full: columns label, title, content (str).",
)
DBpediaDataset = _corpus(
    "DBpediaDataset", _TT, ["class", "title", "content"], True, "DBpedia ontology: columns class, title, content (str)."
)
SogouNewsDataset = _corpus(
    "SogouNewsDataset",
    _TT,
    ["index", "title", "content"],
    True,
    "Sogou News: columns index, title, content (str).",
    "shuffle_first",
)
YahooAnswersDataset = _corpus(
    "YahooAnswersDataset",
    _TT,
    ["class", "title", "content", "answer"],
    True,
    "Yahoo! Answers: columns class, title, content, answer (str).",
)
YelpReviewDataset = _corpus(
    "YelpReviewDataset",
    _TT,
    ["label", "text"],
    True,
    "Yelp Review polarity/full: columns label, text (str).",
    "shuffle_first",
)
PennTreebankDataset = _corpus("PennTreebankDataset", {"train": ["ptb.train.txt"], "valid": ["ptb.valid.txt"],
                              "test": ["ptb.test.txt"]}, ["text"], False,
                              "Penn Treebank (``ptb.<usage>.txt``): one row per non-empty line, column text.")  # fmt: skip
WikiTextDataset = _corpus("WikiTextDataset", {"train": ["wiki.train.tokens"], "valid": ["wiki.valid.tokens"],
                          "test": ["wiki.test.tokens"]}, ["text"], False,
                          "WikiText-2/103 (``wiki.<usage>.tokens``): one row per non-empty line, column text.")  # fmt: skip


class EnWik9Dataset(_Corpus):
    """The first 10^9 bytes of English Wikipedia (file ``enwik9``): one row per non-empty line, column text."""

    _FILES = {"all": ["enwik9"]}

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=True, num_shards=None,
                 shard_id=None, cache=None) -> None:  # fmt: skip
        self._setup(dataset_dir, "all", num_samples, num_parallel_workers, shuffle, num_shards, shard_id)


__all__ += [
    "AGNewsDataset",
    "AmazonReviewDataset",
    "DBpediaDataset",
    "SogouNewsDataset",
    "YahooAnswersDataset",
    "YelpReviewDataset",
    "PennTreebankDataset",
    "WikiTextDataset",
    "EnWik9Dataset",
]


class SST2Dataset(_Corpus):
    """GLUE SST-2 (``train.tsv``, ``dev.tsv``, ``test.tsv``; usage train, dev or test): columns sentence, label
    (str), or sentence alone for test."""

    _FILES = {"train": ["train.tsv"], "dev": ["dev.tsv"], "test": ["test.tsv"]}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle="global",
                 num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        usage = "train" if usage is None else usage
        if usage not in self._FILES:
            raise ValueError(f"Input usage is not within the valid set of {list(self._FILES)}.")
        self._setup(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _columns(self):
        return ["sentence"] if self.usage == "test" else ["sentence", "label"]

    def _read_file(self, path):
        lines = read_text(path).splitlines()[1:]
        rows = []
        for ln in lines:
            if not ln:
                continue
            parts = ln.split("\t")
            rows.append(
                [np.asarray(parts[1])] if self.usage == "test" else [np.asarray(parts[0]), np.asarray(parts[1])]
            )
        return rows


class IMDBDataset(MappableSource):
    """The IMDB review corpus (``aclImdb`` layout: ``<usage>/pos/*.txt`` and ``<usage>/neg/*.txt``): columns text
    (str) and label (int32; 1 positive, 0 negative)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        import os

        from ..._checkparam import check_dataset_dir, check_dataset_usage

        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, ("train", "test", "all"))
        files, labels = [], []
        for u in ["train", "test"] if self.usage == "all" else [self.usage]:
            for sub, lab in (("pos", 1), ("neg", 0)):
                d = os.path.join(self.dataset_dir, u, sub)
                if os.path.isdir(d):
                    for n in sorted(os.listdir(d)):
                        if n.endswith(".txt"):
                            files.append(os.path.join(d, n))
                            labels.append(lab)
        self._files, self._label_arr = files, np.asarray(labels, np.int32)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)

    def _columns(self):
        return ["text", "label"]

    def _n(self):
        return len(self._files)

    def _labels(self):
        return self._label_arr

    def _fetch(self, idx):
        texts = [np.asarray(read_text(self._files[i]).rstrip("\n")) for i in idx.tolist()]
        return [maybe_stack(texts), self._label_arr[idx]]


__all__ += ["SST2Dataset", "IMDBDataset"]
