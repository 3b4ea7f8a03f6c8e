"""``mindspore.dataset.text`` utilities: Vocab, SentencePieceVocab, the enums, to_str/to_bytes."""

from __future__ import annotations

import collections
import enum

import numpy as np

__all__ = [
    "Vocab",
    "SentencePieceVocab",
    "JiebaMode",
    "NormalizeForm",
    "SPieceTokenizerLoadType",
    "SPieceTokenizerOutType",
    "SentencePieceModel",
    "to_str",
    "to_bytes",
]


class JiebaMode(enum.IntEnum):
    MIX = 0
    MP = 1
    HMM = 2


class NormalizeForm(enum.IntEnum):
    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


class SPieceTokenizerLoadType(enum.IntEnum):
    FILE = 0
    MODEL = 1


class SPieceTokenizerOutType(enum.IntEnum):
    STRING = 0
    INT = 1


class SentencePieceModel(enum.IntEnum):
    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


def _with_specials(words, special_tokens, special_first):
    special_tokens = list(special_tokens or [])
    if len(set(special_tokens)) != len(special_tokens):
        raise ValueError("special_tokens contains duplicate token.")
    words = [w for w in words if w not in special_tokens]
    ordered = special_tokens + words if special_first else words + special_tokens
    return {w: i for i, w in enumerate(ordered)}


class Vocab:
    """A token -> id mapping, made by :meth:`from_list`, :meth:`from_file`, :meth:`from_dict` or
    :meth:`from_dataset`."""

    def __init__(self) -> None:
        self._map: dict[str, int] = {}
        self._inv: dict[int, str] | None = None

    @classmethod
    def _of(cls, mapping):
        v = cls()
        v._map = dict(mapping)
        return v

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """Ids in list order (the special tokens first or last)."""
        if not isinstance(word_list, list) or not all(isinstance(w, str) for w in word_list):
            raise TypeError("word_list should be a list of str.")
        if len(set(word_list)) != len(word_list):
            raise ValueError("word_list contains duplicate word.")
        if not isinstance(special_first, bool):
            raise TypeError("special_first should be a bool.")
        return cls._of(_with_specials(word_list, special_tokens, special_first))

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None, special_first=True):
        """One word per line (the part before ``delimiter``), the first ``vocab_size`` lines."""
        words = []
        with open(file_path, encoding="utf-8") as f:
            for line in f:
                w = line.rstrip("\r\n")
                if delimiter:
                    w = w.split(delimiter)[0]
                if w and w not in words:
                    words.append(w)
                if vocab_size is not None and len(words) >= vocab_size:
                    break
        return cls._of(_with_specials(words, special_tokens, special_first))

    @classmethod
    def from_dict(cls, word_dict):
        """The given ``{word: id}``."""
        if not isinstance(word_dict, dict):
            raise TypeError("word_dict should be a dict.")
        for k, i in word_dict.items():
            if not isinstance(k, str) or isinstance(i, bool) or not isinstance(i, int) or i < 0:
                raise ValueError("word_dict should map str to non-negative int ids.")
        return cls._of(word_dict)

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None, special_tokens=None, special_first=True):
        """The words of ``columns`` of a dataset, by decreasing frequency (ties: first seen), those with a count
        in ``freq_range``, at most ``top_k``."""
        cols = dataset.get_col_names() if columns is None else ([columns] if isinstance(columns, str) else columns)
        counts: collections.Counter = collections.Counter()
        for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
            for c in cols:
                for w in np.asarray(row[c]).ravel().tolist():
                    counts[w.decode() if isinstance(w, bytes) else str(w)] += 1
        lo, hi = freq_range if freq_range is not None else (1, None)
        words = [
            w for w, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if n >= lo and (hi is None or n <= hi)
        ]
        if top_k is not None:
            words = words[:top_k]
        return cls._of(_with_specials(words, special_tokens, special_first))

    def vocab(self) -> dict:
        """The ``{word: id}`` mapping."""
        return dict(self._map)

    def tokens_to_ids(self, tokens):
        """Id of each token (-1 when unknown)."""
        if isinstance(tokens, str):
            return self._map.get(tokens, -1)
        return [self._map.get(t, -1) for t in tokens]

    def ids_to_tokens(self, ids):
        """Token of each id (``''`` when unknown)."""
        if self._inv is None:
            self._inv = {i: w for w, i in self._map.items()}
        if isinstance(ids, (int, np.integer)):
            return self._inv.get(int(ids), "")
        return [self._inv.get(int(i), "") for i in ids]


class SentencePieceVocab:
    """A SentencePiece model (needs the ``sentencepiece`` package: ``pip install sentencepiece``)."""

    def __init__(self) -> None:
        self.model_proto: bytes | None = None

    @staticmethod
    def _spm():
        try:
            import sentencepiece
        except ImportError:
            raise ImportError(
                "SentencePieceVocab needs the sentencepiece package: pip install sentencepiece "
                "(or pip install 'sporax[text]')."
            ) from None
        return sentencepiece

    @classmethod
    def _train(cls, sentences, vocab_size, character_coverage, model_type, params):
        import io

        spm = cls._spm()
        model = io.BytesIO()
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(sentences),
            model_writer=model,
            vocab_size=vocab_size,
            character_coverage=character_coverage,
            model_type=SentencePieceModel(model_type).name.lower(),
            **(params or {}),
        )
        v = cls()
        v.model_proto = model.getvalue()
        return v

    @classmethod
    def from_file(cls, file_path, vocab_size, character_coverage, model_type, params):
        """Train on the lines of ``file_path`` (a list of files)."""
        lines = []
        for p in file_path:
            with open(p, encoding="utf-8") as f:
                lines.extend(ln.rstrip("\n") for ln in f)
        return cls._train(lines, vocab_size, character_coverage, model_type, params)

    @classmethod
    def from_dataset(cls, dataset, col_names, vocab_size, character_coverage, model_type, params):
        """Train on the strings of ``col_names`` of a dataset."""
        lines = []
        for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
            for c in col_names:
                lines.extend(str(s) for s in np.asarray(row[c]).ravel().tolist())
        return cls._train(lines, vocab_size, character_coverage, model_type, params)

    @classmethod
    def save_model(cls, vocab, path, filename):
        """Write the model to ``path/filename``."""
        import os

        with open(os.path.join(path, filename), "wb") as f:
            f.write(vocab.model_proto)


def to_str(array, encoding="utf8"):
    """A NumPy array of bytes as an array of str."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"input should be a NumPy array. Got {type(array)}.")
    return np.char.decode(array, encoding) if array.dtype.kind == "S" else array.astype(str)


def to_bytes(array, encoding="utf8"):
    """A NumPy array of str as an array of bytes."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"input should be a NumPy array. Got {type(array)}.")
    return np.char.encode(array, encoding) if array.dtype.kind == "U" else np.asarray(array, dtype=bytes)
