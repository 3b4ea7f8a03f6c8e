"""Reference outputs of MindSpore 2.10's dataset.text operations (issue 16).

    cd /tmp && /work/msvenv/bin/python /work/main/tools/make_ms_dataset_text_reference.py
Writes tests/ut/dataset/fixtures/ms_text_reference.json: for each case, the output as nested lists.
"""

import json
import os

import mindspore as ms
import mindspore.dataset.text as T
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "ut", "dataset", "fixtures", "ms_text_reference.json")

S = "Hello  World, I'm   Testing\tBERT-like 分词 tokenizers! ÀÉÎ ﬁ café"
WORDS = ["welcome", "to", "beijing", "!"]


def jl(x):
    if isinstance(x, (tuple, list)):
        return [jl(v) for v in x]
    a = np.asarray(x)
    if a.dtype.kind in "SUO":
        return (
            np.vectorize(lambda s: s.decode() if isinstance(s, bytes) else str(s), otypes=[object])(a).tolist()
            if a.ndim
            else str(a)
        )
    return a.tolist()


def main():
    vocab = T.Vocab.from_list(
        [
            "[PAD]",
            "[UNK]",
            "[CLS]",
            "[SEP]",
            "hello",
            "world",
            "want",
            "##want",
            "##ed",
            "un",
            "runn",
            "##ing",
            ",",
            "i",
            "'",
            "m",
            "testing",
            "bert",
            "-",
            "like",
            "分",
            "词",
            "!",
            "to",
            "beijing",
            "welcome",
        ]
    )
    cases = {
        "whitespace": T.WhitespaceTokenizer()(S),
        "whitespace_offsets": T.WhitespaceTokenizer(with_offsets=True)(S),
        "unicode_char": T.UnicodeCharTokenizer()("ab 分词"),
        "unicode_char_offsets": T.UnicodeCharTokenizer(True)("ab 分词"),
        "unicode_script": T.UnicodeScriptTokenizer()(S),
        "unicode_script_ws": T.UnicodeScriptTokenizer(keep_whitespace=True)("ab  cd分词12!"),
        "regex_tok": T.RegexTokenizer(r"\s+")(S),
        "regex_tok_keep": T.RegexTokenizer(r"\s+|,", r"\s+")("a b,c  d"),
        "basic": T.BasicTokenizer()(S),
        "basic_lower": T.BasicTokenizer(lower_case=True)(S),
        "basic_keep_ws": T.BasicTokenizer(keep_whitespace=True)("a  b,c"),
        "casefold": T.CaseFold()(S),
        "nfkc": T.NormalizeUTF8(T.NormalizeForm.NFKC)(S),
        "nfd": T.NormalizeUTF8(T.NormalizeForm.NFD)("café ÀÉ"),
        "regex_replace": T.RegexReplace(r"\s+", "_")(S),
        "regex_replace_one": T.RegexReplace(r"\s+", "_", False)(S),
        "wordpiece": T.WordpieceTokenizer(vocab)(np.array(["unwanted", "running", "hello", "xyz"])),
        "wordpiece_offsets": T.WordpieceTokenizer(vocab, with_offsets=True)(np.array(["unwanted", "running"])),
        "bert": T.BertTokenizer(vocab, lower_case=True)("Hello World, I'm testing BERT-like 分词!"),
        "lookup": T.Lookup(vocab, "[UNK]")(np.array(["hello", "nope", "world"])),
        "lookup_int64": T.Lookup(vocab, "[UNK]", ms.int64)(np.array(["to", "beijing"])),
        "ngram": T.Ngram(2)(np.array(WORDS)),
        "ngram_pad": T.Ngram([2, 3], ("_", 1), ("_", 2), "-")(np.array(WORDS)),
        "sliding": T.SlidingWindow(2, 0)(np.array([1, 2, 3, 4, 5])),
        "to_number": T.ToNumber(ms.int32)(np.array(["1", "-2", "30"])),
        "to_number_float": T.ToNumber(ms.float32)(np.array(["1.5", "-2e3"])),
        "truncate": T.Truncate(2)(np.array(WORDS)),
        "truncate_pair": T.TruncateSequencePair(5)(np.array([1, 2, 3, 4]), np.array([5, 6, 7])),
        "add_token_begin": T.AddToken("[CLS]", True)(np.array(WORDS)),
        "add_token_end": T.AddToken("[SEP]", False)(np.array(WORDS)),
        "to_str": T.to_str(np.array([b"ab", "分词".encode()])),
        "vocab_ids": vocab.tokens_to_ids(["hello", "nope"]),
        "vocab_tokens": vocab.ids_to_tokens([4, 5, 99]),
        "vocab_size": vocab.vocab(),
    }
    out = {k: jl(v) for k, v in cases.items()}
    v2 = T.Vocab.from_list(["a", "b"], special_tokens=["<pad>", "<unk>"], special_first=True)
    out["vocab_special_first"] = v2.vocab()
    v3 = T.Vocab.from_dict({"x": 3, "y": 7})
    out["vocab_dict"] = v3.vocab()
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=0)
    print("wrote", OUT, len(out))


if __name__ == "__main__":
    main()
