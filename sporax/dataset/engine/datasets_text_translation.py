"""Text corpora in JSON lines and translation corpora in tag/xml files: CLUE (every task and usage), IWSLT2016 and
IWSLT2017.

Column names (CLUE: in name order), dtypes and row order follow MindSpore 2.10, checked against it on small files
(tools/make_ms_dataset_sources_reference.py, tests/ut/dataset/test_sources_translation.py).
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET

import numpy as np

from ..._checkparam import check_dataset_dir, check_dataset_files, check_language_pair, check_pipeline_choice
from ._file_source import FileRowSource, read_text
from .errors import pipeline_error

__all__ = ["CLUEDataset", "IWSLT2016Dataset", "IWSLT2017Dataset"]

# column -> key path in each JSON line, per task and usage
_AB = {"sentence1": "sentence1", "sentence2": "sentence2"}
_WSC = {k: "target/" + k for k in ("span1_index", "span2_index", "span1_text", "span2_text")}
_CLUE_KEYS = {
    ("AFQMC", "train"): {**_AB, "label": "label"},
    ("AFQMC", "test"): {"id": "id", **_AB},
    ("CMNLI", "train"): {**_AB, "label": "label"},
    ("CMNLI", "test"): {"id": "id", **_AB},
    ("CSL", "train"): {"id": "id", "abst": "abst", "keyword": "keyword", "label": "label"},
    ("CSL", "test"): {"id": "id", "abst": "abst", "keyword": "keyword"},
    ("IFLYTEK", "train"): {"label": "label", "label_des": "label_des", "sentence": "sentence"},
    ("IFLYTEK", "test"): {"id": "id", "sentence": "sentence"},
    ("TNEWS", "train"): {"label": "label", "label_desc": "label_desc", "sentence": "sentence", "keywords": "keywords"},
    ("TNEWS", "test"): {"id": "id", "sentence": "sentence", "keywords": "keywords"},
    ("WSC", "train"): {**_WSC, "idx": "idx", "label": "label", "text": "text"},
    ("WSC", "test"): {**_WSC, "idx": "idx", "text": "text"},
}


def _json_value(v):
    """A JSON value as MindSpore's reader types it: str, uint32 (non-negative int), int32, float32, or a list of str."""
    if isinstance(v, str):
        return np.asarray(v)
    if isinstance(v, bool):
        return np.asarray(v)
    if isinstance(v, int):
        return np.asarray(v, np.uint32 if v >= 0 else np.int32)
    if isinstance(v, float):
        return np.asarray(v, np.float32)
    if isinstance(v, list):
        return np.asarray([str(x) for x in v])
    return np.asarray("")


class CLUEDataset(FileRowSource):
    """CLUE benchmark files (one JSON object a line): the columns of ``task`` (AFQMC, TNEWS, IFLYTEK, CMNLI, WSC,
    CSL) and ``usage`` (train, test, eval — eval has train's columns), in column name order; strings stay str,
    non-negative integers are uint32, lists are string arrays. Files are read in name order."""

    def __init__(self, dataset_files, task="AFQMC", usage="train", num_samples=None, num_parallel_workers=None,
                 shuffle="global", num_shards=None, shard_id=None, cache=None) -> None:  # fmt: skip
        if dataset_files in ("", [], ()):
            raise ValueError(f"Input dataset_files can not be empty, but got '{dataset_files}'.")
        files = sorted(check_dataset_files(dataset_files))
        self.task = "AFQMC" if task is None else task
        if self.task not in ("AFQMC", "TNEWS", "IFLYTEK", "CMNLI", "WSC", "CSL"):
            raise ValueError("task should be 'AFQMC', 'TNEWS', 'IFLYTEK', 'CMNLI', 'WSC' or 'CSL'.")
        self.usage = "train" if usage is None else usage
        if self.usage not in ("train", "test", "eval"):
            raise ValueError("usage should be 'train', 'test' or 'eval'.")
        self.dataset_files = files
        keys = _CLUE_KEYS[self.task, "test" if self.usage == "test" else "train"]
        self._keys = sorted((col, path.split("/")) for col, path in keys.items())
        super().__init__(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _columns(self):
        return [c for c, _ in self._keys]

    def _read_file(self, path):
        rows = []
        for line in read_text(path).splitlines():
            if not line:
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                raise pipeline_error(f"Invalid file, failed to parse json file: {line}") from None
            row = []
            for _, chain in self._keys:
                cur = obj
                for k in chain:
                    if not isinstance(cur, dict) or k not in cur:
                        raise pipeline_error(f"Invalid json file, in given JSON file, failed to find key: {k}")
                    cur = cur[k]
                row.append(_json_value(cur))
            rows.append(row)
        return rows


# ---------------------------------------------------------------------------------------- IWSLT
_TAGS = ("<url", "<keywords", "<talkid", "<description", "<reviewer", "<translator", "<title", "<speaker", "<doc",
         "</doc")  # fmt: skip
_SETS = ("dev2010", "tst2010", "tst2011", "tst2012", "tst2013", "tst2014")


def _strip(text: str, ch: str) -> str:
    if not text:
        raise pipeline_error("Invalid file, read an empty line.")
    return text.strip(ch)


def _read_tags(src: str, tgt: str) -> list[str]:
    with open(src, encoding="utf-8") as a, open(tgt, encoding="utf-8") as b:
        src_lines, tgt_lines = a.read().split("\n"), b.read().split("\n")
    if src_lines and src_lines[-1] == "":
        src_lines.pop()
    out = []
    for s, t in zip(src_lines, tgt_lines):
        if not any(tag in s for tag in _TAGS) and not any(tag in t for tag in _TAGS):
            out.append(_strip(s, " ") + "#*$" + _strip(t, " "))
    return out


def _docs(path: str) -> list:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        raise pipeline_error(f"Invalid file, failed to load xml file: {path}") from None
    if len(root) == 0:
        raise pipeline_error(f"Invalid data, no first child found in {path}")
    children = list(root[0])
    first = next((i for i, e in enumerate(children) if e.tag == "doc"), None)
    if first is None:
        raise pipeline_error(f"Invalid data, no doc found in {path}")
    return children[first:]


def _segments(doc) -> list[str]:
    kids = list(doc)
    first = next((i for i, e in enumerate(kids) if e.tag == "seg"), len(kids))
    return [e.text or "" for e in kids[first:]]


def _read_xml(src: str, tgt: str) -> list[str]:
    out = []
    for ds_, dt in zip(_docs(src), _docs(tgt)):
        for s, t in zip(_segments(ds_), _segments(dt)):
            out.append(_strip(s, " ") + "#*$" + _strip(t, " "))
    return out


class _IWSLT(FileRowSource):
    """IWSLT TED talks: the train tag files (``train.tags.<src>-<tgt>.<lang>``, header lines dropped) and the
    valid/test xml files (``<seg>`` texts of each ``<doc>``) of ``language_pair``, as rows text (source) and
    translation (target), both str. ``usage``: train, valid, test or all (the default)."""

    _PREFIX = ""
    _PAIRS: tuple = ()

    def _setup(self, dataset_dir, usage, language_pair, valid_set, test_set, num_samples, num_parallel_workers,
               shuffle, num_shards, shard_id):  # fmt: skip
        self.dataset_dir = check_dataset_dir(dataset_dir)
        self.usage = check_pipeline_choice(usage, ("train", "test", "valid", "all"), "usage") or "all"
        self.language_pair = check_language_pair(language_pair, self._PAIRS)
        src, tgt = self.language_pair
        folder = self._folder(src, tgt)
        self._sources: dict = {}
        if self.usage in ("train", "all"):
            base = os.path.join(folder, f"train.tags.{src}-{tgt}.")
            self._sources[os.path.join(folder, f"train.{src}-{tgt}")] = (base + src, base + tgt)
        for use, name in (("valid", valid_set), ("test", test_set)):
            if self.usage in (use, "all"):
                base = os.path.join(folder, f"{self._PREFIX}.{name}.{src}-{tgt}.")
                self._sources[os.path.join(folder, f"{self._PREFIX}.{name}.{src}-{tgt}")] = (
                    base + src + ".xml",
                    base + tgt + ".xml",
                )
        super().__init__(list(self._sources), num_samples, num_parallel_workers,
                         "global" if shuffle is None else shuffle, num_shards, shard_id)  # fmt: skip

    def _folder(self, src, tgt):
        raise NotImplementedError

    def _columns(self):
        return ["text", "translation"]

    def _read_file(self, path):
        src, tgt = self._sources[path]
        for f in (src, tgt):
            if not os.path.isfile(f):
                raise pipeline_error(f"Invalid file, failed to open {type(self).__name__[:-7]} file: {f}")
        lines = _read_xml(src, tgt) if src.endswith(".xml") else _read_tags(src, tgt)
        rows = []
        for line in lines:
            parts = line.strip("\n").strip("\r").split("#*$")
            if parts and parts[-1] == "":
                parts.pop()
            if len(parts) == 2:
                rows.append([np.asarray(parts[0]), np.asarray(parts[1])])
        return rows


class IWSLT2016Dataset(_IWSLT):
    """IWSLT 2016 (``texts/<src>/<tgt>/<src>-<tgt>/``; xml files ``IWSLT16.TED.<set>.<src>-<tgt>.<lang>.xml``).
    ``language_pair`` default ``['de', 'en']``; ``valid_set`` default ``'tst2013'``, ``test_set`` ``'tst2014'``."""

    _PREFIX = "IWSLT16.TED"
    _PAIRS = (("en", "ar"), ("en", "ar"), ("en", "de"), ("en", "fr"), ("en", "cs"), ("ar", "en"), ("fr", "en"),
              ("de", "en"), ("cs", "en"))  # fmt: skip

    def __init__(self, dataset_dir, usage=None, language_pair=None, valid_set=None, test_set=None, num_samples=None,
                 shuffle="global", num_shards=None, shard_id=None, num_parallel_workers=None, cache=None) -> None:  # fmt: skip
        self.valid_set = check_pipeline_choice(valid_set, _SETS, "valid_set") or "tst2013"
        self.test_set = check_pipeline_choice(test_set, _SETS, "test_set") or "tst2014"
        self._setup(dataset_dir, usage, language_pair, self.valid_set, self.test_set, num_samples,
                    num_parallel_workers, shuffle, num_shards, shard_id)  # fmt: skip

    def _folder(self, src, tgt):
        return os.path.join(self.dataset_dir, "texts", src, tgt, f"{src}-{tgt}")


class IWSLT2017Dataset(_IWSLT):
    """IWSLT 2017 multilingual (``texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo/``; xml files
    ``IWSLT17.TED.<set>.<src>-<tgt>.<lang>.xml``): valid set ``dev2010``, test set ``tst2010``.
    ``language_pair`` default ``['de', 'en']``."""

    _PREFIX = "IWSLT17.TED"
    _LANGS = ("en", "de", "it", "nl", "ro")
    _PAIRS = (("en", "nl"), ("en", "de"), ("en", "it"), ("en", "ro"), ("ro", "de"), ("ro", "en"), ("ro", "nl"),
              ("ro", "it"), ("de", "ro"), ("de", "en"), ("de", "nl"), ("de", "it"), ("it", "en"), ("it", "nl"),
              ("it", "de"), ("it", "ro"), ("nl", "de"), ("nl", "en"), ("nl", "it"), ("nl", "ro"))  # fmt: skip

    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None, shuffle="global",
                 num_shards=None, shard_id=None, num_parallel_workers=None, cache=None) -> None:  # fmt: skip
        self._setup(dataset_dir, usage, language_pair, "dev2010", "tst2010", num_samples, num_parallel_workers,
                    shuffle, num_shards, shard_id)  # fmt: skip

    def _folder(self, src, tgt):
        return os.path.join(self.dataset_dir, "texts", "DeEnItNlRo", "DeEnItNlRo", "DeEnItNlRo-DeEnItNlRo")
