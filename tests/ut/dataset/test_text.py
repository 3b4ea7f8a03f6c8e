"""dataset.text against MindSpore 2.10's outputs (tools/make_ms_dataset_text_reference.py wrote
fixtures/ms_text_reference.json)."""

import ast
import json
import os

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.text as T
from sporax.common import dtype as mstype

with open(os.path.join(os.path.dirname(__file__), "fixtures", "ms_text_reference.json"), encoding="utf-8") as _f:
    REF = json.load(_f)

S = "Hello  World, I'm   Testing\tBERT-like 分词 tokenizers! ÀÉÎ ﬁ café"
WORDS = ["welcome", "to", "beijing", "!"]
VOCAB = T.Vocab.from_list(
    ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "want", "##want", "##ed", "un", "runn", "##ing", ",", "i",
     "'", "m", "testing", "bert", "-", "like", "分", "词", "!", "to", "beijing", "welcome"]
)  # fmt: skip


def jl(x):
    if isinstance(x, tuple):
        return [jl(v) for v in x]
    a = np.asarray(x)
    return a.tolist() if a.dtype.kind not in "SU" else (np.char.decode(a) if a.dtype.kind == "S" else a).tolist()


CASES = {
    "whitespace": lambda: T.WhitespaceTokenizer()(S),
    "whitespace_offsets": lambda: T.WhitespaceTokenizer(with_offsets=True)(S),
    "unicode_char": lambda: T.UnicodeCharTokenizer()("ab 分词"),
    "unicode_char_offsets": lambda: T.UnicodeCharTokenizer(True)("ab 分词"),
    "unicode_script": lambda: T.UnicodeScriptTokenizer()(S),
    "unicode_script_ws": lambda: T.UnicodeScriptTokenizer(keep_whitespace=True)("ab  cd分词12!"),
    "regex_tok": lambda: T.RegexTokenizer(r"\s+")(S),
    "regex_tok_keep": lambda: T.RegexTokenizer(r"\s+|,", r"\s+")("a b,c  d"),
    "basic": lambda: T.BasicTokenizer()(S),
    "basic_lower": lambda: T.BasicTokenizer(lower_case=True)(S),
    "basic_keep_ws": lambda: T.BasicTokenizer(keep_whitespace=True)("a  b,c"),
    "casefold": lambda: T.CaseFold()(S),
    "nfkc": lambda: T.NormalizeUTF8(T.NormalizeForm.NFKC)(S),
    "nfd": lambda: T.NormalizeUTF8(T.NormalizeForm.NFD)("café ÀÉ"),
    "regex_replace": lambda: T.RegexReplace(r"\s+", "_")(S),
    "regex_replace_one": lambda: T.RegexReplace(r"\s+", "_", False)(S),
    "wordpiece": lambda: T.WordpieceTokenizer(VOCAB)(np.array(["unwanted", "running", "hello", "xyz"])),
    "wordpiece_offsets": lambda: T.WordpieceTokenizer(VOCAB, with_offsets=True)(np.array(["unwanted", "running"])),
    "bert": lambda: T.BertTokenizer(VOCAB, lower_case=True)("Hello World, I'm testing BERT-like 分词!"),
    "lookup": lambda: T.Lookup(VOCAB, "[UNK]")(np.array(["hello", "nope", "world"])),
    "lookup_int64": lambda: T.Lookup(VOCAB, "[UNK]", mstype.int64)(np.array(["to", "beijing"])),
    "ngram": lambda: T.Ngram(2)(np.array(WORDS)),
    "ngram_pad": lambda: T.Ngram([2, 3], ("_", 1), ("_", 2), "-")(np.array(WORDS)),
    "sliding": lambda: T.SlidingWindow(2, 0)(np.array([1, 2, 3, 4, 5])),
    "to_number": lambda: T.ToNumber(mstype.int32)(np.array(["1", "-2", "30"])),
    "to_number_float": lambda: T.ToNumber(mstype.float32)(np.array(["1.5", "-2e3"])),
    "truncate": lambda: T.Truncate(2)(np.array(WORDS)),
    "truncate_pair": lambda: T.TruncateSequencePair(5)(np.array([1, 2, 3, 4]), np.array([5, 6, 7])),
    "add_token_begin": lambda: T.AddToken("[CLS]", True)(np.array(WORDS)),
    "add_token_end": lambda: T.AddToken("[SEP]", False)(np.array(WORDS)),
    "to_str": lambda: T.to_str(np.array([b"ab", "分词".encode()])),
    "vocab_ids": lambda: VOCAB.tokens_to_ids(["hello", "nope"]),
    "vocab_tokens": lambda: VOCAB.ids_to_tokens([4, 5, 99]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_equal_to_mindspore(name):
    assert jl(CASES[name]()) == REF[name]


def test_dtypes_and_vocab():
    assert T.Lookup(VOCAB, "[UNK]", mstype.int64)(np.array(["to"])).dtype == np.int64
    assert T.Lookup(VOCAB)(np.array(["to"])).dtype == np.int32
    assert T.WhitespaceTokenizer(True)("a b")[1].dtype == np.uint32
    assert VOCAB.vocab() == ast.literal_eval(REF["vocab_size"])
    v2 = T.Vocab.from_list(["a", "b"], special_tokens=["<pad>", "<unk>"], special_first=True)
    assert v2.vocab() == REF["vocab_special_first"]
    assert T.Vocab.from_dict({"x": 3, "y": 7}).vocab() == REF["vocab_dict"]
    d = ds.NumpySlicesDataset(["a b b", "c b a"], column_names=["text"], shuffle=False)
    d = d.map(T.WhitespaceTokenizer(), ["text"])
    v = T.Vocab.from_dataset(d, ["text"], special_tokens=["<unk>"], special_first=True)
    assert v.vocab() == {"<unk>": 0, "b": 1, "a": 2, "c": 3}
    assert T.to_bytes(np.array(["ab"])).tolist() == [b"ab"]
    with pytest.raises(ValueError, match="doesn't exist in vocab"):
        T.Lookup(VOCAB, "<nope>")
    with pytest.raises(RuntimeError, match="is not a valid int32 number"):
        T.ToNumber(mstype.int32)(np.array(["x"]))
    with pytest.raises(RuntimeError, match="SlidingWindow supports 1D input only"):
        T.SlidingWindow(2)(np.zeros((2, 2)))


def test_pipeline_and_other_ops(tmp_path):
    d = ds.NumpySlicesDataset(["Hello World", "Good  day"], column_names=["text"], shuffle=False)
    d = d.map([T.CaseFold(), T.WhitespaceTokenizer(), T.Lookup(T.Vocab.from_list(["hello", "world", "good", "day"]))])
    assert [r[0].tolist() for r in d.create_tuple_iterator(output_numpy=True)] == [[0, 1], [2, 3]]
    assert T.PythonTokenizer(lambda s: s.split("-"))("a-b").tolist() == ["a", "b"]
    assert T.FilterWikipediaXML()("<b>Hello</b> [[World]] 42") == np.array("hello world four two")
    f = tmp_path / "vec.txt"
    f.write_text("a 1 2\nB 3 4\n")
    for cls in (T.Vectors, T.GloVe, T.FastText, T.CharNGram):
        vec = cls.from_file(str(f))
        out = T.ToVectors(vec, lower_case_backup=True)(np.array(["a", "b", "z"]))
        assert out.tolist() == [[1, 2], [0, 0], [0, 0]]
    assert T.ToVectors(T.Vectors.from_file(str(f)), unk_init=[9, 9])(np.array(["B", "q"])).tolist() == [[3, 4], [9, 9]]
    voc = tmp_path / "vocab.txt"
    voc.write_text("x,1\ny,2\nz,3\n")
    assert T.Vocab.from_file(str(voc), ",", 2, ["<s>"], False).vocab() == {"x": 0, "y": 1, "<s>": 2}
    assert T.JiebaMode.MP == 1 and T.SPieceTokenizerLoadType.MODEL == 1 and T.SPieceTokenizerOutType.INT == 1
    assert T.SentencePieceModel.WORD == 3
    for name in ("JiebaTokenizer", "SentencePieceTokenizer", "SentencePieceVocab"):
        assert callable(getattr(T, name))
