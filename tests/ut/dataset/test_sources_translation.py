"""CLUEDataset, IWSLT2016Dataset and IWSLT2017Dataset on small files in their real formats. Columns, dtypes, row
order (interleaved across files as MindSpore's readers give them) and values are what MindSpore 2.10 gives on the
same files (tools/make_ms_dataset_sources_reference.py builds them and prints both libraries' rows)."""

import json

import pytest

import sporax.dataset as ds

from ._sources_util import rows as _rows
from ._sources_util import write_text as _write


def _typed(d):
    return [[(str(c.dtype) if c.dtype.kind not in "US" else "str", c.tolist()) for c in r] for r in _rows(d)]


def test_clue_tasks(tmp_path):
    recs = {
        "AFQMC": [
            {"id": 0, "sentence1": "a1", "sentence2": "b1", "label": "0"},
            {"id": -1, "sentence1": "a2", "sentence2": "b2", "label": 2.5},
        ],
        "TNEWS": [{"id": 3, "label": "101", "label_desc": "news_story", "sentence": "s1", "keywords": "k1,k2"}],
        "IFLYTEK": [{"id": 4, "label": "11", "label_des": "app", "sentence": "s2"}],
        "WSC": [
            {
                "target": {"span2_index": 5, "span1_index": 0, "span1_text": "x", "span2_text": "y"},
                "idx": 7,
                "label": "true",
                "text": "t",
            }
        ],
        "CSL": [{"id": 8, "abst": "ab", "keyword": ["k1", "k2"], "label": "1"}],
    }
    for k, v in recs.items():
        _write(tmp_path / f"{k}.json", "\n".join(json.dumps(r) for r in v) + "\n")

    def clue(task, usage):
        return ds.CLUEDataset(str(tmp_path / f"{task}.json"), task=task, usage=usage, shuffle=False)

    # columns in name order; non-negative ints uint32, negative int32, floats float32, lists of str
    d = clue("AFQMC", "train")
    assert d.get_col_names() == ["label", "sentence1", "sentence2"] and d.get_dataset_size() == 2
    assert _typed(d) == [[("str", "0"), ("str", "a1"), ("str", "b1")], [("float32", 2.5), ("str", "a2"), ("str", "b2")]]
    assert _typed(clue("AFQMC", "test"))[1] == [("int32", -1), ("str", "a2"), ("str", "b2")]
    assert _typed(clue("AFQMC", "test"))[0][0] == ("uint32", 0)
    assert clue("TNEWS", "eval").get_col_names() == ["keywords", "label", "label_desc", "sentence"]
    assert clue("TNEWS", "test").get_col_names() == ["id", "keywords", "sentence"]
    assert clue("IFLYTEK", "test").get_col_names() == ["id", "sentence"]
    assert _typed(clue("WSC", "train")) == [
        [("uint32", 7), ("str", "true"), ("uint32", 0), ("str", "x"), ("uint32", 5), ("str", "y"), ("str", "t")]
    ]
    assert clue("WSC", "test").get_col_names() == [
        "idx",
        "span1_index",
        "span1_text",
        "span2_index",
        "span2_text",
        "text",
    ]
    assert _typed(clue("CSL", "test")) == [[("str", "ab"), ("uint32", 8), ("str", ["k1", "k2"])]]
    with pytest.raises(RuntimeError, match="failed to find key: abst"):
        _rows(ds.CLUEDataset(str(tmp_path / "AFQMC.json"), task="CSL", usage="train"))
    with pytest.raises(ValueError, match="task should be 'AFQMC', 'TNEWS', 'IFLYTEK', 'CMNLI', 'WSC' or 'CSL'."):
        ds.CLUEDataset(str(tmp_path / "AFQMC.json"), task="X")
    with pytest.raises(ValueError, match="usage should be 'train', 'test' or 'eval'."):
        ds.CLUEDataset(str(tmp_path / "AFQMC.json"), usage="dev")


def test_clue_files_in_name_order_and_shards(tmp_path):
    _write(tmp_path / "x1.json", json.dumps({"sentence1": "n1", "sentence2": "m1", "label": "a"}) + "\n\n"
           + json.dumps({"sentence1": "n2", "sentence2": "m2", "label": "b"}) + "\n")  # fmt: skip
    _write(tmp_path / "x0.json", json.dumps({"sentence1": "q1", "sentence2": "r1", "label": "y"}) + "\n")
    files = [str(tmp_path / "x1.json"), str(tmp_path / "x0.json")]
    assert [str(r[1]) for r in _rows(ds.CLUEDataset(files, shuffle=False))] == ["q1", "n1", "n2"]
    assert [str(r[1]) for r in _rows(ds.CLUEDataset(files, num_shards=2, shard_id=0, shuffle=False))] == ["q1", "n1"]


def _xml(lang, docs, tag):
    body = "".join(
        f'<doc docid="{k}">\n<url>http://x</url>\n<talkid>{k}</talkid>\n'
        + "".join(f'<seg id="{i}"> {lang} {tag} d{k} s{i} </seg>\n' for i in range(1, n + 1))
        + "</doc>\n"
        for k, n in docs
    )
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<mteval>\n<srcset setid="x" srclang="{lang}">\n{body}</srcset>\n</mteval>\n'


def _tags(lang, n):
    head = "<url>http://u</url>\n<keywords>k</keywords>\n<talkid>1</talkid>\n<title>T</title>\n"
    return head + "".join(f" {lang} train {i} \n" for i in range(n)) + "<reviewer></reviewer>\n" + f"{lang} tail\n"


def test_iwslt2016(tmp_path):
    d = tmp_path / "texts" / "de" / "en" / "de-en"
    for lang in ("de", "en"):
        _write(d / f"train.tags.de-en.{lang}", _tags(lang, 3))
        _write(d / f"IWSLT16.TED.tst2013.de-en.{lang}.xml", _xml(lang, [(1, 2)], "v13"))
        _write(d / f"IWSLT16.TED.tst2014.de-en.{lang}.xml", _xml(lang, [(1, 1), (2, 2)], "t14"))
        _write(d / f"IWSLT16.TED.dev2010.de-en.{lang}.xml", _xml(lang, [(3, 1)], "d10"))
    root = str(tmp_path)

    def texts(dataset):
        return [str(r[0]) for r in _rows(dataset)]

    a = ds.IWSLT2016Dataset(root, shuffle=False)
    assert a.get_col_names() == ["text", "translation"] and a.get_dataset_size() == 9
    # 'all' reads train, valid (tst2013), test (tst2014); the default readers interleave the files' rows
    assert texts(a) == ["de train 0", "de v13 d1 s1", "de train 1", "de v13 d1 s2", "de train 2", "de tail",
                        "de t14 d1 s1", "de t14 d2 s1", "de t14 d2 s2"]  # fmt: skip
    assert [str(r[1]) for r in _rows(a)][:2] == ["en train 0", "en v13 d1 s1"]
    assert texts(ds.IWSLT2016Dataset(root, num_parallel_workers=1, shuffle=False)) == [
        "de train 0", "de train 1", "de train 2", "de tail", "de v13 d1 s1", "de v13 d1 s2", "de t14 d1 s1",
        "de t14 d2 s1", "de t14 d2 s2"]  # fmt: skip
    assert texts(ds.IWSLT2016Dataset(root, usage="valid", valid_set="dev2010", shuffle=False)) == ["de d10 d3 s1"]
    assert texts(ds.IWSLT2016Dataset(root, num_shards=2, shard_id=1, shuffle=False)) == [
        "de v13 d1 s2", "de t14 d1 s1", "de train 0", "de t14 d2 s1", "de t14 d2 s2"]  # fmt: skip
    with pytest.raises(ValueError, match=r"Input language_pair\['de', 'fr'\] is not within the valid set of"):
        ds.IWSLT2016Dataset(root, language_pair=["de", "fr"])
    with pytest.raises(ValueError, match="Input valid_set is not within the valid set of"):
        ds.IWSLT2016Dataset(root, valid_set="tst2015")


def test_iwslt2017(tmp_path):
    d = tmp_path / "texts" / "DeEnItNlRo" / "DeEnItNlRo" / "DeEnItNlRo-DeEnItNlRo"
    for lang in ("it", "nl"):
        _write(d / f"train.tags.it-nl.{lang}", _tags(lang, 2))
        _write(d / f"IWSLT17.TED.dev2010.it-nl.{lang}.xml", _xml(lang, [(1, 2)], "dev"))
        _write(d / f"IWSLT17.TED.tst2010.it-nl.{lang}.xml", _xml(lang, [(1, 1)], "tst"))
    rows = _rows(ds.IWSLT2017Dataset(str(tmp_path), language_pair=["it", "nl"], shuffle=False))
    assert [(str(a), str(b)) for a, b in rows] == [
        ("it train 0", "nl train 0"), ("it dev d1 s1", "nl dev d1 s1"), ("it train 1", "nl train 1"),
        ("it dev d1 s2", "nl dev d1 s2"), ("it tail", "nl tail"), ("it tst d1 s1", "nl tst d1 s1")]  # fmt: skip
    test = ds.IWSLT2017Dataset(str(tmp_path), usage="test", language_pair=("it", "nl"), shuffle=False)
    assert [str(r[0]) for r in _rows(test)] == ["it tst d1 s1"]
    with pytest.raises(ValueError, match="is not within the valid set of"):
        ds.IWSLT2017Dataset(str(tmp_path), language_pair=("de", "fr"))
    with pytest.raises(TypeError, match="language_pair should be a type list or tuple of length 2."):
        ds.IWSLT2017Dataset(str(tmp_path), language_pair="it-nl")
