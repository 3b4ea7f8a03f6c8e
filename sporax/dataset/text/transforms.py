"""``mindspore.dataset.text`` operations: tokenizers (whitespace, unicode char/script, regex, BERT basic and
wordpiece, Jieba, SentencePiece, Python), Lookup, Ngram, SlidingWindow, ToNumber, Truncate(SequencePair),
AddToken, CaseFold, NormalizeUTF8, RegexReplace, FilterWikipediaXML and the word vectors. Tokens are str
arrays; ``with_offsets=True`` adds the UTF-8 byte offsets (uint32) of each token's start and end."""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from ..._checkparam import check_ngram_pad, check_pipeline_int, check_pipeline_type
from ...common import dtype as mstype
from ..transforms.transforms import TensorOperation
from .utils import JiebaMode, NormalizeForm, SPieceTokenizerLoadType, SPieceTokenizerOutType, Vocab

__all__ = [
    "WhitespaceTokenizer",
    "UnicodeCharTokenizer",
    "UnicodeScriptTokenizer",
    "RegexTokenizer",
    "BasicTokenizer",
    "WordpieceTokenizer",
    "BertTokenizer",
    "JiebaTokenizer",
    "SentencePieceTokenizer",
    "PythonTokenizer",
    "Lookup",
    "Ngram",
    "SlidingWindow",
    "ToNumber",
    "Truncate",
    "TruncateSequencePair",
    "AddToken",
    "CaseFold",
    "NormalizeUTF8",
    "RegexReplace",
    "FilterWikipediaXML",
    "Vectors",
    "GloVe",
    "FastText",
    "CharNGram",
    "ToVectors",
]


def _text(x, name) -> str:
    a = np.asarray(x)
    if a.ndim != 0 or a.dtype.kind not in "SU":
        raise RuntimeError(f"{name}: the input should be scalar string tensor, but got rank {a.ndim} {a.dtype}.")
    v = a.item()
    return v.decode("utf-8") if isinstance(v, bytes) else v


def _strings(x, name):
    a = np.asarray(x)
    if a.dtype.kind not in "SU":
        raise RuntimeError(f"{name}: the input tensor should be of string type, but got {a.dtype}.")
    return a


class _Tokenizer(TensorOperation):
    with_offsets = False

    def _spans(self, s: str) -> list[tuple[int, int]]:
        raise NotImplementedError

    def _apply(self, x):
        s = _text(x, type(self).__name__)
        spans = self._spans(s)
        toks = [s[a:b] for a, b in spans] or [""]
        out = np.asarray(toks)
        if not self.with_offsets:
            return out
        byte = np.cumsum([0] + [len(c.encode("utf-8")) for c in s])
        starts = np.asarray([byte[a] for a, _ in spans] or [0], np.uint32)
        ends = np.asarray([byte[b] for _, b in spans] or [0], np.uint32)
        return out, starts, ends


class WhitespaceTokenizer(_Tokenizer):
    """Split on ICU whitespace."""

    def __init__(self, with_offsets=False) -> None:
        self.with_offsets = check_pipeline_type(with_offsets, bool, "with_offsets")

    def _spans(self, s):
        return [m.span() for m in re.finditer(r"\S+", s)]


class UnicodeCharTokenizer(_Tokenizer):
    """One token per character."""

    def __init__(self, with_offsets=False) -> None:
        self.with_offsets = check_pipeline_type(with_offsets, bool, "with_offsets")

    def _spans(self, s):
        return [(i, i + 1) for i in range(len(s))]


def _script(c: str) -> str:
    cat = unicodedata.category(c)
    if cat.startswith("M"):
        return "Inherited"
    if not cat.startswith("L"):
        return "Common"
    name = unicodedata.name(c, "")
    first = name.split(" ")[0]
    return "Han" if first in ("CJK",) else first


class UnicodeScriptTokenizer(_Tokenizer):
    """Split where the Unicode script changes (whitespace dropped unless ``keep_whitespace``)."""

    def __init__(self, keep_whitespace=False, with_offsets=False) -> None:
        self.keep_whitespace = check_pipeline_type(keep_whitespace, bool, "keep_whitespace")
        self.with_offsets = check_pipeline_type(with_offsets, bool, "with_offsets")

    def _spans(self, s):
        spans, start, cur = [], None, None
        for i, c in enumerate(s):
            key = "space" if c.isspace() else _script(c)
            if key == "Inherited" and cur is not None:
                continue
            if key != cur:
                if start is not None:
                    spans.append((start, i, cur))
                start, cur = i, key
        if start is not None:
            spans.append((start, len(s), cur))
        return [(a, b) for a, b, k in spans if k != "space" or self.keep_whitespace]


class RegexTokenizer(_Tokenizer):
    """Split on matches of ``delim_pattern``; matches of ``keep_delim_pattern`` are kept as tokens."""

    def __init__(self, delim_pattern, keep_delim_pattern="", with_offsets=False) -> None:
        if not isinstance(delim_pattern, str) or not isinstance(keep_delim_pattern, str):
            raise TypeError("delim_pattern and keep_delim_pattern should be str.")
        self.delim_pattern, self.keep_delim_pattern = delim_pattern, keep_delim_pattern
        self.with_offsets = check_pipeline_type(with_offsets, bool, "with_offsets")
        self._delim, self._keep = (
            re.compile(delim_pattern),
            re.compile(keep_delim_pattern) if keep_delim_pattern else None,
        )

    def _spans(self, s):
        spans, pos = [], 0
        for m in self._delim.finditer(s):
            if m.start() == m.end():
                continue
            if m.start() > pos:
                spans.append((pos, m.start()))
            if self._keep is not None and self._keep.fullmatch(m.group()):
                spans.append(m.span())
            pos = m.end()
        if pos < len(s):
            spans.append((pos, len(s)))
        return spans


def _is_punct(c):
    cp = ord(c)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(c).startswith("P")


def _is_cjk(c):
    cp = ord(c)
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
            or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)  # fmt: skip


_NORMS = {NormalizeForm.NFC: "NFC", NormalizeForm.NFKC: "NFKC", NormalizeForm.NFD: "NFD", NormalizeForm.NFKD: "NFKD"}
_UNUSED = re.compile(r"\[(?:UNK|CLS|SEP|PAD|MASK|unused\d+)\]")


class BasicTokenizer(_Tokenizer):
    """BERT's basic tokenizer: split on whitespace and punctuation, one token per CJK character;
    ``lower_case`` case-folds and strips accents; ``[UNK]``-style tokens kept whole with
    ``preserve_unused_token``."""

    def __init__(
        self, lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
        preserve_unused_token=True, with_offsets=False,
    ) -> None:  # fmt: skip
        self.lower_case = check_pipeline_type(lower_case, bool, "lower_case")
        self.keep_whitespace = check_pipeline_type(keep_whitespace, bool, "keep_whitespace")
        self.normalization_form = NormalizeForm(normalization_form)
        self.preserve_unused_token = check_pipeline_type(preserve_unused_token, bool, "preserve_unused_token")
        self.with_offsets = check_pipeline_type(with_offsets, bool, "with_offsets")

    def _prepare(self, s):
        if self.lower_case:
            s = "".join(c for c in unicodedata.normalize("NFD", s.casefold()) if unicodedata.category(c) != "Mn")
        elif self.normalization_form in _NORMS:
            s = unicodedata.normalize(_NORMS[self.normalization_form], s)
        return s

    def _apply(self, x):
        s = self._prepare(_text(x, type(self).__name__))
        spans = self._spans(s)
        out = np.asarray([s[a:b] for a, b in spans] or [""])
        if not self.with_offsets:
            return out
        byte = np.cumsum([0] + [len(c.encode("utf-8")) for c in s])
        return (
            out,
            np.asarray([byte[a] for a, _ in spans] or [0], np.uint32),
            np.asarray([byte[b] for _, b in spans] or [0], np.uint32),
        )

    def _spans(self, s):
        keep = {m.start(): m.end() for m in _UNUSED.finditer(s)} if self.preserve_unused_token else {}
        spans, start, i = [], None, 0
        while i < len(s):
            c = s[i]
            if i in keep:
                if start is not None:
                    spans.append((start, i))
                    start = None
                spans.append((i, keep[i]))
                i = keep[i]
                continue
            if c.isspace() or unicodedata.category(c) in ("Cc", "Cf"):
                if start is not None:
                    spans.append((start, i))
                    start = None
                if c.isspace() and self.keep_whitespace:
                    j = i
                    while j < len(s) and s[j].isspace():
                        j += 1
                    spans.append((i, j))
                    i = j
                    continue
            elif _is_punct(c) or _is_cjk(c):
                if start is not None:
                    spans.append((start, i))
                    start = None
                spans.append((i, i + 1))
            elif start is None:
                start = i
            i += 1
        if start is not None:
            spans.append((start, len(s)))
        return spans


class WordpieceTokenizer(TensorOperation):
    """Greedy longest-match-first sub-words of each token (``suffix_indicator`` marks continuations); a token
    with no split, or longer than ``max_bytes_per_token``, becomes ``unknown_token`` (itself when ``''``)."""

    def __init__(
        self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]", with_offsets=False
    ) -> None:
        self.vocab = check_pipeline_type(vocab, Vocab, "vocab", "[<class 'Vocab'>]", got=False)
        self.suffix_indicator, self.unknown_token = suffix_indicator, unknown_token
        self.max_bytes_per_token = check_pipeline_int(max_bytes_per_token, "max_bytes_per_token", 0, 2**31 - 1)
        self.with_offsets = check_pipeline_type(with_offsets, bool, "with_offsets")

    def _pieces(self, word):
        m = self.vocab._map
        if len(word.encode("utf-8")) > self.max_bytes_per_token:
            return [(self.unknown_token or word, 0, len(word.encode()))]
        out, start = [], 0
        while start < len(word):
            end, cur = len(word), None
            while start < end:
                sub = word[start:end] if start == 0 else self.suffix_indicator + word[start:end]
                if sub in m:
                    cur = sub
                    break
                end -= 1
            if cur is None:
                return [(self.unknown_token or word, 0, len(word.encode()))]
            out.append((cur, len(word[:start].encode()), len(word[:end].encode())))
            start = end
        return out

    def _apply(self, x):
        words = _strings(x, "WordpieceTokenizer").ravel().tolist()
        pieces = [p for w in words for p in self._pieces(w.decode() if isinstance(w, bytes) else w)]
        out = np.asarray([p[0] for p in pieces])
        if not self.with_offsets:
            return out
        return out, np.asarray([p[1] for p in pieces], np.uint32), np.asarray([p[2] for p in pieces], np.uint32)


class BertTokenizer(TensorOperation):
    """:class:`BasicTokenizer` then :class:`WordpieceTokenizer`."""

    def __init__(
        self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]", lower_case=False,
        keep_whitespace=False, normalization_form=NormalizeForm.NONE, preserve_unused_token=True, with_offsets=False,
    ) -> None:  # fmt: skip
        self._basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form, preserve_unused_token, True)
        self._wp = WordpieceTokenizer(vocab, suffix_indicator, max_bytes_per_token, unknown_token, True)
        self.vocab, self.suffix_indicator, self.unknown_token = vocab, suffix_indicator, unknown_token
        self.max_bytes_per_token, self.lower_case = max_bytes_per_token, lower_case
        self.keep_whitespace, self.normalization_form = keep_whitespace, NormalizeForm(normalization_form)
        self.preserve_unused_token, self.with_offsets = (
            preserve_unused_token,
            check_pipeline_type(with_offsets, bool, "with_offsets"),
        )

    def _apply(self, x):
        toks, starts, _ = self._basic._apply(x)
        out, s_out, e_out = [], [], []
        for t, s0 in zip(toks.tolist(), starts.tolist()):
            for p, a, b in self._wp._pieces(t):
                out.append(p)
                s_out.append(s0 + a)
                e_out.append(s0 + b)
        arr = np.asarray(out)
        return (arr, np.asarray(s_out, np.uint32), np.asarray(e_out, np.uint32)) if self.with_offsets else arr


class JiebaTokenizer(_Tokenizer):
    """Chinese word segmentation with the ``jieba`` package (``pip install jieba``), from its HMM and MP
    dictionary files."""

    def __init__(self, hmm_path, mp_path, mode=JiebaMode.MIX, with_offsets=False) -> None:
        import os

        for p in (hmm_path, mp_path):
            if not isinstance(p, str) or not os.path.exists(p):
                raise ValueError(f"The file {p} does not exist or permission denied!")
        try:
            import jieba
        except ImportError:
            raise ImportError(
                "JiebaTokenizer needs the jieba package: pip install jieba (or 'sporax[text]')."
            ) from None
        self.hmm_path, self.mp_path, self.mode = hmm_path, mp_path, JiebaMode(mode)
        self.with_offsets = check_pipeline_type(with_offsets, bool, "with_offsets")
        self._jieba = jieba.Tokenizer(dictionary=mp_path)
        self._words: list = []

    def add_word(self, word, freq=None) -> None:
        """Add ``word`` to the dictionary."""
        self._jieba.add_word(word, freq)

    def add_dict(self, user_dict) -> None:
        """Add the words of a dict ``{word: freq}`` or a file."""
        if isinstance(user_dict, dict):
            for w, f in user_dict.items():
                self.add_word(w, f)
        else:
            self._jieba.load_userdict(user_dict)

    def _spans(self, s):
        hmm = self.mode != JiebaMode.MP
        return [(a, b) for _, a, b in self._jieba.tokenize(s, HMM=hmm)]


class SentencePieceTokenizer(TensorOperation):
    """Tokenize with a SentencePiece model (a :class:`SentencePieceVocab` or a model file; needs the
    ``sentencepiece`` package), to pieces (``STRING``) or ids (``INT``)."""

    def __init__(self, mode, out_type) -> None:
        from .utils import SentencePieceVocab

        spm = SentencePieceVocab._spm()
        self.mode, self.out_type = mode, SPieceTokenizerOutType(out_type)
        if isinstance(mode, str):
            self._sp = spm.SentencePieceProcessor(model_file=mode)
        elif isinstance(mode, SentencePieceVocab):
            self._sp = spm.SentencePieceProcessor(model_proto=mode.model_proto)
        else:
            raise TypeError("mode should be a model file path or a SentencePieceVocab.")
        self._load = SPieceTokenizerLoadType.FILE if isinstance(mode, str) else SPieceTokenizerLoadType.MODEL

    def _apply(self, x):
        s = _text(x, "SentencePieceTokenizer")
        if self.out_type == SPieceTokenizerOutType.INT:
            return np.asarray(self._sp.encode(s, out_type=int), np.int32)
        return np.asarray(self._sp.encode(s, out_type=str))


class PythonTokenizer(TensorOperation):
    """Tokenize with a Python function ``str -> list of str``."""

    def __init__(self, tokenizer) -> None:
        if not callable(tokenizer):
            raise TypeError("tokenizer is not a callable Python function.")
        self.tokenizer = tokenizer

    def _apply(self, x):
        return np.asarray(self.tokenizer(_text(x, "PythonTokenizer")), dtype=str)


class Lookup(TensorOperation):
    """Ids of the tokens in ``vocab`` (``unknown_token``'s id for the others), as ``data_type``."""

    def __init__(self, vocab, unknown_token=None, data_type=mstype.int32) -> None:
        self.vocab = check_pipeline_type(vocab, Vocab, "vocab", "[<class 'Vocab'>]", got=False)
        if unknown_token is not None and unknown_token not in vocab._map:
            raise ValueError(f"Lookup: {unknown_token} doesn't exist in vocab.")
        self.unknown_token, self.data_type = unknown_token, data_type
        self._np = np.dtype(mstype.to_np(data_type))

    def _apply(self, x):
        a = _strings(x, "Lookup")
        m = self.vocab._map
        unk = m.get(self.unknown_token, None) if self.unknown_token is not None else None
        out = []
        for w in a.ravel().tolist():
            w = w.decode() if isinstance(w, bytes) else w
            i = m.get(w, unk)
            if i is None:
                raise RuntimeError(f"Lookup: {w} doesn't exist in vocab and no unknown_token is specified.")
            out.append(i)
        return np.asarray(out, self._np).reshape(a.shape)


class Ngram(TensorOperation):
    """The ``n``-grams (for each n of ``n``) of a 1-D string array, joined by ``separator``, the sequence padded
    with ``left_pad`` / ``right_pad`` (token, width; at most n - 1 used)."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" ") -> None:
        ns = [n] if isinstance(n, int) else list(n)
        for k in ns:
            check_pipeline_int(k, "gram", 1, 2**31 - 1)
        self.n, self.left_pad, self.right_pad = (
            ns,
            check_ngram_pad(left_pad, "left_pad"),
            check_ngram_pad(right_pad, "right_pad"),
        )
        if not isinstance(separator, str):
            raise TypeError("separator should be a str.")
        self.separator = separator

    def _apply(self, x):
        a = _strings(x, "Ngram")
        if a.ndim != 1:
            raise RuntimeError(f"Ngram: input should be a 1-D tensor, but got rank {a.ndim}.")
        words = [w.decode() if isinstance(w, bytes) else w for w in a.tolist()]
        out = []
        for n in self.n:
            seq = (
                [self.left_pad[0]] * min(self.left_pad[1], n - 1)
                + words
                + [self.right_pad[0]] * min(self.right_pad[1], n - 1)
            )
            out.extend(self.separator.join(seq[i : i + n]) for i in range(len(seq) - n + 1))
        return np.asarray(out, dtype=str)


class SlidingWindow(TensorOperation):
    """Windows of ``width`` consecutive elements along ``axis`` of a 1-D array (shape ``[n - width + 1, width]``)."""

    def __init__(self, width, axis=0) -> None:
        self.width = check_pipeline_int(width, "width", 1, 2**31 - 1)
        self.axis = check_pipeline_type(axis, int, "axis", got=False)

    def _apply(self, x):
        a = np.asarray(x)
        if a.ndim != 1:
            raise RuntimeError(f"SlidingWindow: SlidingWindow supports 1D input only for now, but got {a.ndim}D.")
        n = a.shape[0] - self.width + 1
        if n <= 0:
            return np.zeros((0, self.width), a.dtype)
        return np.stack([a[i : i + self.width] for i in range(n)])


class ToNumber(TensorOperation):
    """Parse strings as numbers of ``data_type``."""

    def __init__(self, data_type) -> None:
        self.data_type = data_type
        self._np = np.dtype(mstype.to_np(data_type))
        if self._np.kind not in "iuf":
            raise TypeError(f"data_type: {data_type} is not numeric data type.")

    def _apply(self, x):
        a = _strings(x, "ToNumber")
        vals = []
        for s in a.ravel().tolist():
            s = s.decode() if isinstance(s, bytes) else s
            try:
                v = float(s) if self._np.kind == "f" else int(s)
            except ValueError:
                raise RuntimeError(f'ToNumber: string input "{s}" is not a valid {self._np.name} number.') from None
            if self._np.kind in "iu" and not np.iinfo(self._np).min <= v <= np.iinfo(self._np).max:
                raise RuntimeError(f'ToNumber: string input "{s}" will be out of bounds if cast to {self._np.name}.')
            vals.append(v)
        return np.asarray(vals, self._np).reshape(a.shape)


class Truncate(TensorOperation):
    """Keep the first ``max_seq_len`` elements (last axis)."""

    def __init__(self, max_seq_len) -> None:
        self.max_seq_len = check_pipeline_int(max_seq_len, "max_seq_len", 1, 2**31 - 1)

    def _apply(self, x):
        a = np.asarray(x)
        if a.ndim not in (1, 2):
            raise RuntimeError(f"Truncate: the input tensor should be of dimension 1 or 2, but got {a.ndim}.")
        return a[..., : self.max_seq_len].copy()


class TruncateSequencePair(TensorOperation):
    """Truncate two sequences, the longer first, until their total length is at most ``max_length``."""

    def __init__(self, max_length) -> None:
        self.max_length = check_pipeline_int(max_length, "max_length", 0, 2**31 - 1)

    def __call__(self, *args):
        if len(args) != 2:
            raise TypeError("TruncateSequencePair takes two columns.")
        a, b = np.asarray(args[0]), np.asarray(args[1])
        la, lb = len(a), len(b)
        while la + lb > self.max_length:
            if la > lb:
                la -= 1
            else:
                lb -= 1
        return a[:la].copy(), b[:lb].copy()


class AddToken(TensorOperation):
    """Add ``token`` at the beginning (``begin=True``) or the end of a 1-D string array."""

    def __init__(self, token, begin=True) -> None:
        self.token = check_pipeline_type(token, str, "token", got=False)
        self.begin = check_pipeline_type(begin, bool, "begin")

    def _apply(self, x):
        a = _strings(x, "AddToken")
        words = [w.decode() if isinstance(w, bytes) else w for w in a.ravel().tolist()]
        return np.asarray([self.token] + words if self.begin else words + [self.token])


def _map_str(x, fn, name):
    a = _strings(x, name)
    out = [fn(s.decode() if isinstance(s, bytes) else s) for s in a.ravel().tolist()]
    return np.asarray(out).reshape(a.shape)


class CaseFold(TensorOperation):
    """Unicode case folding (more thorough than lower-casing)."""

    def _apply(self, x):
        return _map_str(x, str.casefold, "CaseFold")


class NormalizeUTF8(TensorOperation):
    """Unicode normalization (``NormalizeForm``: NFC, NFKC, NFD, NFKD or NONE)."""

    def __init__(self, normalize_form=NormalizeForm.NFKC) -> None:
        self.normalize_form = NormalizeForm(normalize_form)

    def _apply(self, x):
        form = _NORMS.get(self.normalize_form)
        return _map_str(x, (lambda s: unicodedata.normalize(form, s)) if form else (lambda s: s), "NormalizeUTF8")


class RegexReplace(TensorOperation):
    """Replace matches of ``pattern`` by ``replace`` (all, or the first with ``replace_all=False``)."""

    def __init__(self, pattern, replace, replace_all=True) -> None:
        if not isinstance(pattern, str) or not isinstance(replace, str):
            raise TypeError("pattern and replace should be str.")
        self.pattern, self.replace, self.replace_all = (
            pattern,
            replace,
            check_pipeline_type(replace_all, bool, "replace_all"),
        )
        self._re = re.compile(pattern)

    def _apply(self, x):
        return _map_str(x, lambda s: self._re.sub(self.replace, s, count=0 if self.replace_all else 1), "RegexReplace")


class FilterWikipediaXML(TensorOperation):
    """Clean Wikipedia XML text (as the fastText preprocessing): drop markup, references and links' targets,
    keep letters (lower-cased), spell digits, collapse spaces."""

    _DIGITS = {str(i): f" {w} " for i, w in enumerate("zero one two three four five six seven eight nine".split())}

    def _clean(self, s):
        s = re.sub(r"<[^>]*>", "", s)
        s = re.sub(r"&amp;", "&", s)
        s = re.sub(r"&lt;", "<", s)
        s = re.sub(r"&gt;", ">", s)
        s = re.sub(r"<ref[^<]*</ref>", "", s)
        s = re.sub(r"\[http:[^] ]*", "[", s)
        s = re.sub(r"\|thumb", "", s)
        s = re.sub(r"\|left", "", s)
        s = re.sub(r"\|right", "", s)
        s = re.sub(r"\|\d+px", "", s)
        s = re.sub(r"\[\[image:[^\[\]]*\|", "", s, flags=re.I)
        s = re.sub(r"\[\[category:([^|\]]*)[^]]*\]\]", r"[[\1]]", s, flags=re.I)
        s = re.sub(r"\[\[[a-z\-]*:[^\]]*\]\]", "", s)
        s = re.sub(r"\[\[[^\|\]]*\|", "[[", s)
        s = re.sub(r"\{\{[^\}]*\}\}", "", s)
        s = re.sub(r"\{[^\}]*\}", "", s)
        s = s.replace("[", "").replace("]", "")
        s = re.sub(r"&[^;]*;", " ", s)
        s = s.lower()
        s = "".join(self._DIGITS.get(c, c) for c in s)
        s = re.sub(r"[^a-z]", " ", s)
        return re.sub(r" +", " ", s).strip()

    def _apply(self, x):
        return _map_str(x, self._clean, "FilterWikipediaXML")


class Vectors:
    """Word vectors from a text file (one ``word v1 v2 ...`` per line), ``max_vectors`` at most."""

    def __init__(self) -> None:
        self.vectors: dict[str, np.ndarray] = {}
        self.dim = 0

    @classmethod
    def from_file(cls, file_path, max_vectors=None):
        v = cls()
        with open(file_path, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip().split(" ")
                if len(parts) < 2 or (len(parts) == 2 and not v.vectors and parts[0].isdigit()):
                    continue  # fastText's "count dim" header
                vec = np.asarray(parts[1:], np.float32)
                if v.dim and len(vec) != v.dim:
                    raise RuntimeError(f"Vectors: the dimension of vectors in {file_path} is not consistent.")
                v.dim = len(vec)
                v.vectors[parts[0]] = vec
                if max_vectors is not None and len(v.vectors) >= max_vectors:
                    break
        return v


class GloVe(Vectors):
    """GloVe vectors from their text file."""


class FastText(Vectors):
    """fastText vectors from their ``.vec`` file."""


class CharNGram(Vectors):
    """Character n-gram vectors (``1gram-a v...`` lines)."""


class ToVectors(TensorOperation):
    """The vector of each token (``unk_init`` or zeros for unknown ones; ``lower_case_backup`` retries a token
    in lower case)."""

    def __init__(self, vectors, unk_init=None, lower_case_backup=False) -> None:
        if not isinstance(vectors, Vectors):
            raise TypeError("vectors should be a Vectors, GloVe, FastText or CharNGram.")
        self.vectors, self.unk_init, self.lower_case_backup = (
            vectors,
            unk_init,
            check_pipeline_type(lower_case_backup, bool, "lower_case_backup"),
        )

    def _apply(self, x):
        a = _strings(x, "ToVectors")
        unk = np.asarray(self.unk_init if self.unk_init is not None else np.zeros(self.vectors.dim), np.float32)
        out = []
        for w in a.ravel().tolist():
            w = w.decode() if isinstance(w, bytes) else w
            v = self.vectors.vectors.get(w)
            if v is None and self.lower_case_backup:
                v = self.vectors.vectors.get(w.lower())
            out.append(unk if v is None else v)
        return np.stack(out).reshape(*a.shape, -1)
