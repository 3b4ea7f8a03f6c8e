"""Text sources: :class:`TextFileDataset` (one row per non-empty line)."""

from __future__ import annotations

import numpy as np

from ..._checkparam import check_dataset_dir, check_dataset_file, check_dataset_files, check_dataset_usage
from ._block import maybe_stack
from ._file_source import FileRowSource, read_text
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
        files = check_dataset_files(dataset_files)
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

        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, (*self._FILES, "all"))
        names = sorted(f for fs in self._FILES.values() for f in fs) if self.usage == "all" else self._FILES[self.usage]
        files = [os.path.join(self.dataset_dir, n) for n in names]
        for f in files:
            check_dataset_file(f)
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


class _TaggedCorpus(_Corpus):
    """Sentences of ``token tag tag`` lines, a blank line after each: one row per sentence, one str array per
    column. (MindSpore 2.10 drops a last sentence that no blank line ends; sporax keeps it.)"""

    def _read_file(self, path):
        rows, cur = [], []
        ncol = len(self._COLUMNS)

        def flush():
            if cur:
                rows.append([np.asarray([t[k] for t in cur]) for k in range(ncol)])
                cur.clear()

        for ln in read_text(path).splitlines():
            parts = ln.split()
            if not parts:
                flush()
                continue
            if len(parts) != ncol:
                from .errors import pipeline_error

                raise pipeline_error(
                    f"Invalid file content, each line should contain {ncol} columns, representing "
                    f"{', '.join(self._COLUMNS)}: {path}."
                )
            cur.append(parts)
        flush()
        return rows


def _tagged(name, files, columns, doc):
    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle="global", num_shards=None, shard_id=None,
                 num_parallel_workers=None, cache=None) -> None:  # fmt: skip
        self._setup(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    return type(name, (_TaggedCorpus,), {"__init__": __init__, "_FILES": files, "_COLUMNS": columns, "__doc__": doc,
                                         "__module__": __name__})  # fmt: skip


CoNLL2000Dataset = _tagged("CoNLL2000Dataset", {"train": ["train.txt"], "test": ["test.txt"]},
                           ["word", "pos_tag", "chunk_tag"],
                           "CoNLL-2000 chunking (``train.txt``/``test.txt``): columns word, pos_tag, chunk_tag.")  # fmt: skip
UDPOSDataset = _tagged("UDPOSDataset", {"train": ["en-ud-tag.v2.train.txt"], "valid": ["en-ud-tag.v2.dev.txt"],
                       "test": ["en-ud-tag.v2.test.txt"]}, ["word", "universal", "stanford"],
                       "UD English POS (``en-ud-tag.v2.<split>.txt``): columns word, universal, stanford.")  # fmt: skip


class SQuADDataset(_Corpus):
    """SQuAD 1.1/2.0 (``train-v1.1.json``/``dev-v1.1.json`` or the v2.0 files): one row per question: context,
    question (str), text (str array of the answers) and answer_start (uint32 array); an unanswerable question
    gives ``['']`` and ``[4294967295]``."""

    _FILES = {"train": ["train-v1.1.json", "train-v2.0.json"], "dev": ["dev-v1.1.json", "dev-v2.0.json"]}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle="global",
                 num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        import os

        d = check_dataset_dir(dataset_dir)
        usage = check_dataset_usage(usage, ("train", "dev", "all"))
        names = [n for u in (("train", "dev") if usage == "all" else (usage,)) for n in self._FILES[u]]
        files = [os.path.join(d, n) for n in names if os.path.isfile(os.path.join(d, n))]
        if not files:
            raise ValueError(f"No SQuAD file for usage {usage} in {d}.")
        self.dataset_dir, self.usage = d, usage
        FileRowSource.__init__(self, files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _columns(self):
        return ["context", "question", "text", "answer_start"]

    def _read_file(self, path):
        import json

        rows = []
        for art in json.loads(read_text(path)).get("data", []):
            for para in art.get("paragraphs", []):
                for qa in para.get("qas", []):
                    ans = qa.get("answers", [])
                    texts = [a["text"] for a in ans] or [""]
                    starts = [a["answer_start"] for a in ans] or [2**32 - 1]
                    rows.append([np.asarray(para["context"]), np.asarray(qa["question"]), np.asarray(texts),
                                 np.asarray(starts, np.uint32)])  # fmt: skip
        return rows


__all__ += ["CoNLL2000Dataset", "UDPOSDataset", "SQuADDataset"]


class Multi30kDataset(FileRowSource):
    """Multi30k English-German pairs (``training/train.<lang>``, ``validation/val.<lang>``,
    ``mmt16_task1_test/test.<lang>``, line ``i`` of one language file pairing with line ``i`` of the other):
    columns text and translation (str), in ``language_pair`` order (default ``['en', 'de']``). ``usage``: train,
    valid, test or all (the three splits' rows interleaved, as MindSpore's readers do)."""

    _FILES = {"test": ("mmt16_task1_test", "test"), "train": ("training", "train"), "valid": ("validation", "val")}

    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        import os

        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_dataset_usage(usage, ("train", "test", "valid", "all"))
        if language_pair is not None:
            if not isinstance(language_pair, (list, tuple)):
                raise TypeError(
                    f"Argument language_pair with value {language_pair!r} is not of type [<class 'list'>, "
                    f"<class 'tuple'>], but got {type(language_pair)}."
                )
            if len(language_pair) != 2:
                raise ValueError(f"language_pair should be a list or tuple of length 2, but got {len(language_pair)}")
            if list(language_pair) not in (["en", "de"], ["de", "en"]):
                raise ValueError(f"language_pair can only be ['en', 'de'] or ['en', 'de'], but got {language_pair}")
        self.language_pair = ["en", "de"] if language_pair is None else list(language_pair)
        files = []
        for u in sorted(self._FILES) if self.usage == "all" else [self.usage]:
            folder, stem = self._FILES[u]
            base = os.path.join(self.dataset_dir, folder, stem)
            for lang in ("en", "de"):
                check_dataset_file(f"{base}.{lang}")
            files.append(base)
        super().__init__(files, num_samples, num_parallel_workers, "global" if shuffle is None else shuffle,
                         num_shards, shard_id)  # fmt: skip

    def _columns(self):
        return ["text", "translation"]

    def _read_file(self, path):
        src, dst = (read_text(f"{path}.{lang}").splitlines() for lang in self.language_pair)
        return [[np.asarray(a), np.asarray(b)] for a, b in zip(src, dst)]


__all__ += ["Multi30kDataset"]
