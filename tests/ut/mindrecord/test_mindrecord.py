"""MindRecord: files written by MindSpore 2.10 read here, the same bytes written here, round trips of every
schema type and shape, and clear errors for bad schemas, bad rows, missing, renamed, corrupt and truncated
files."""

import importlib.util
import os
import shutil
import sqlite3
import struct

import numpy as np
import pytest

from sporax.mindrecord import (
    FileReader,
    FileWriter,
    MRMAddSchemaError,
    MRMDefineIndexError,
    MRMInvalidSchemaError,
    ParamTypeError,
    ParamValueError,
)
from sporax.mindrecord import _format as F

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "fixtures")
_spec = importlib.util.spec_from_file_location(
    "make_mindrecord_fixtures", os.path.join(HERE, "..", "..", "..", "tools", "make_mindrecord_fixtures.py")
)
TOOL = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(TOOL)
CASES = {c[0]: c for c in TOOL.cases()}


def read_bytes(p):
    with open(p, "rb") as f:
        return f.read()


def rows_of(case):
    return [r for call in case[5] for r in call]


def same(a, b):
    if isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    if isinstance(b, float):
        return isinstance(a, float) and a == b
    return type(a) is type(b) and a == b


def expected(schema, row):
    """A written value as FileReader yields it."""
    out = {}
    for k, s in schema.items():
        v = row[k]
        if "shape" in s:
            v = np.asarray(v, F.NP_TYPES[s["type"]]).astype(F.NP_TYPES[s["type"]].newbyteorder("="))
            v = v.reshape(s["shape"]) if s["shape"] else v.reshape(())
        elif s["type"] in ("float32", "float64"):
            v = float(v)
        out[k] = v
    return out


def write(path, schema, calls, index=None, shard_num=1, desc="d", header=1 << 14, page=1 << 15):
    w = FileWriter(str(path), shard_num=shard_num, overwrite=True)
    w.set_header_size(header)
    w.set_page_size(page)
    w.add_schema(schema, desc)
    if index:
        w.add_index(index)
    for rows in calls:
        w.write_raw_data(rows)
    w.commit()


# ====================================================================== MindSpore's files
@pytest.mark.parametrize("name", [n for n in CASES if CASES[n][1] == 1])
def test_mindspore_fixture_read(name):
    case = CASES[name]
    r = FileReader(os.path.join(FIX, name))
    assert r.schema() == F.validate_schema(case[2])
    got = list(r.get_next())
    want = [expected(case[2], row) for row in rows_of(case)]
    assert len(got) == len(want) == r.len()
    for g, w in zip(got, want):
        assert set(g) == set(w)
        for k in w:
            assert same(g[k], w[k]), (name, k, g[k], w[k])
    r.close()


@pytest.mark.parametrize("name", [n for n in CASES if CASES[n][1] == 1])
def test_sporax_writes_mindspores_bytes(tmp_path, name):
    TOOL.write_case(FileWriter, str(tmp_path), CASES[name])
    with open(os.path.join(FIX, name), "rb") as f, open(tmp_path / name, "rb") as g:
        assert f.read() == g.read()

    def dump(p):
        con = sqlite3.connect(p)
        try:
            return (
                con.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall(),
                con.execute("SELECT * FROM SHARD_NAME").fetchall(),
                [c[1:3] for c in con.execute("PRAGMA table_info(INDEXES)")],
            )
        finally:
            con.close()

    assert dump(os.path.join(FIX, name + ".db")) == dump(str(tmp_path / (name + ".db")))


def test_mindspore_two_shards():
    case = CASES["two_shards.mindrecord"]
    want = {r["id"]: expected(case[2], r) for r in rows_of(case)}
    for first in ("two_shards.mindrecord0", "two_shards.mindrecord1"):
        got = list(FileReader(os.path.join(FIX, first)).get_next())  # a str: every shard of the set
        assert sorted(g["id"] for g in got) == sorted(want)
        for g in got:
            assert all(same(g[k], want[g["id"]][k]) for k in g)
    one = [g["id"] for g in FileReader([os.path.join(FIX, "two_shards.mindrecord1")]).get_next()]
    both = [g["id"] for g in FileReader(os.path.join(FIX, "two_shards.mindrecord0")).get_next()]
    assert 0 < len(one) < 9 and both[-len(one) :] == one


def test_filereader_columns_and_order():
    r = FileReader(os.path.join(FIX, "all_types.mindrecord"), columns=["af32", "name", "id"])
    row = next(r.get_next())
    assert list(row) == ["id", "name", "af32"]  # scalar fields, then blob fields (MindSpore's order)
    r.close()
    full = next(FileReader(os.path.join(FIX, "all_types.mindrecord")).get_next())
    assert list(full) == ["f32", "f64", "i32", "i64", "id", "name", "a32", "a64", "af32", "af64", "data", "s0"]
    with pytest.raises(ParamValueError, match="nope"):
        FileReader(os.path.join(FIX, "all_types.mindrecord"), columns=["nope"])


# ====================================================================== round trips
SHAPES = [
    ("int32", [-1], lambda i: np.arange(i + 1, dtype=np.int32) * 40000 - 3),
    ("int64", [2, 2], lambda i: np.full((2, 2), -(2**50) + i, np.int64)),
    ("int64", [-1, 3], lambda i: np.arange(3 * i, dtype=np.int64).reshape(i, 3)),
    ("float32", [3], lambda i: np.array([i, -i, 0.5], np.float32)),
    ("float64", [], lambda i: np.array(i / 3)),
    ("float64", [1, -1], lambda i: np.linspace(0, 1, i + 2).reshape(1, -1)),
    ("int32", [1], lambda i: np.array([i], np.int32)),
]


@pytest.mark.parametrize("t, shape, make", SHAPES)
def test_round_trip_arrays(tmp_path, t, shape, make):
    schema = {"a": {"type": t, "shape": shape}, "k": {"type": "int32"}}
    rows = [{"a": make(i), "k": i} for i in range(6)]
    write(tmp_path / "x.mindrecord", schema, [rows[:2], rows[2:]])
    got = list(FileReader(str(tmp_path / "x.mindrecord")).get_next())
    for g, r in zip(got, rows):
        w = expected(F.validate_schema(schema), r)
        assert same(g["a"], w["a"]) and g["k"] == r["k"]


def test_round_trip_scalars_and_extremes(tmp_path):
    schema = {
        "i32": {"type": "int32"},
        "i64": {"type": "int64"},
        "f32": {"type": "float32"},
        "f64": {"type": "float64"},
        "s": {"type": "string"},
        "b": {"type": "bytes"},
    }
    vals = [
        (-(2**31), -(2**63), 0.1, 1e300, "", b""),
        (2**31 - 1, 2**63 - 1, -0.0, float("inf"), "é" * 100, b"\x00" * 70),
        (0, -33, float(np.float32(1.5)), float("nan"), "x" * 70000, bytes(range(256))),
        (np.int32(5), np.int64(-5), np.float32(2.5), np.float64(-2.5), np.str_("np"), bytearray(b"ba")),
    ]
    rows = [dict(zip(schema, v)) for v in vals]
    write(tmp_path / "s.mindrecord", schema, [rows], page=1 << 17)
    got = list(FileReader(str(tmp_path / "s.mindrecord")).get_next())
    for g, v in zip(got, vals):
        assert g["i32"] == int(v[0]) and type(g["i32"]) is int
        assert g["i64"] == int(v[1])
        assert g["f32"] == float(v[2]) and type(g["f32"]) is float
        assert g["f64"] == float(v[3]) or (np.isnan(v[3]) and np.isnan(g["f64"]))
        assert g["s"] == str(v[4]) and g["b"] == bytes(v[5])


def test_round_trip_shards_pages_and_append(tmp_path):
    schema = {"id": {"type": "int64"}, "img": {"type": "bytes"}, "v": {"type": "int32", "shape": [-1]}}
    rows = [
        {"id": i, "img": bytes([i % 256]) * (900 + 37 * i), "v": np.arange(i % 7, dtype=np.int32)} for i in range(150)
    ]
    write(tmp_path / "m.mindrecord", schema, [rows[:70], rows[70:100]], shard_num=3)
    names = sorted(os.listdir(tmp_path))
    assert names == [f"m.mindrecord{i}{e}" for i in range(3) for e in ("", ".db")]
    got = [g["id"] for g in FileReader(str(tmp_path / "m.mindrecord1")).get_next()]
    assert sorted(got) == list(range(100))
    sizes = [FileReader([str(tmp_path / f"m.mindrecord{i}")]).len() for i in range(3)]
    assert sum(sizes) == 100 and max(sizes) - min(sizes) <= 1  # balanced, consecutive chunks
    w = FileWriter.open_for_append(str(tmp_path / "m.mindrecord0"))
    w.write_raw_data(rows[100:])
    w.commit()
    got = {g["id"]: g for g in FileReader(str(tmp_path / "m.mindrecord2")).get_next()}
    assert sorted(got) == list(range(150))
    for r in rows:
        assert got[r["id"]]["img"] == r["img"] and np.array_equal(got[r["id"]]["v"], r["v"])
    con = sqlite3.connect(str(tmp_path / "m.mindrecord0.db"))
    assert (
        con.execute("SELECT COUNT(*) FROM INDEXES").fetchone()[0] == FileReader([str(tmp_path / "m.mindrecord0")]).len()
    )
    con.close()
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


def test_default_index_and_header(tmp_path):
    write(
        tmp_path / "h.mindrecord",
        {"b": {"type": "string"}, "a": {"type": "float32"}, "z": {"type": "bytes"}},
        [[{"a": 1.0, "b": "x", "z": b""}]],
    )
    h = F.read_header(str(tmp_path / "h.mindrecord"))
    assert h["_index_fields"] == ["a", "b"] and h["version"] == "3.0" and h["schema"][0]["blob_fields"] == ["z"]
    con = sqlite3.connect(str(tmp_path / "h.mindrecord.db"))
    assert con.execute("SELECT a_0, b_0 FROM INDEXES").fetchall() == [(1.0, "x")]
    con.close()


def test_int_compression_layout():
    vals = [0, 1, 127, 128, 255, 256, -1, -128, -129, 32767, 32768, -32768, -32769, 2**31 - 1, -(2**31)]
    b = F.compress_ints(np.array(vals, np.int32))
    assert b[:8] == bytes.fromhex("0000000f015059a8")
    assert np.array_equal(F.uncompress_ints(b, np.int32), vals)
    big = np.array([2**31, 2**40, -(2**63), 2**63 - 1, 0], np.int64)
    assert np.array_equal(F.uncompress_ints(F.compress_ints(big), np.int64), big)
    assert F.uncompress_ints(F.compress_ints(np.zeros(0, np.int64)), np.int64).shape == (0,)


def test_msgpack_matches_mindspore_encoding():
    assert F.pack_map({"i": 200, "f": 3.0, "s": "x"}) == bytes.fromhex("83a166ca40400000a169ccc8a173a178")
    assert F.pack_map({"i": -33}) == bytes.fromhex("81a169d0df")
    assert F.pack_map({"f": 1e-50})[3] == 0xCB
    d = {"a": -(2**63), "b": 2**64 - 1, "c": "é" * 40, "d": 0.1}
    assert F.unpack_map(F.pack_map(d)) == d


# ====================================================================== errors
def test_schema_errors():
    w = FileWriter("/tmp/never.mindrecord", overwrite=True)
    bad = [
        {},
        {"a b": {"type": "int32"}},
        {"1a": {"type": "int32"}},
        {"a": {"type": "int16"}},
        {"a": {"type": "string", "shape": [2]}},
        {"a": {"type": "bytes", "shape": [-1]}},
        {"a": {"type": "int32", "shape": [-1, -1]}},
        {"a": {"type": "int32", "shape": [0]}},
        {"a": {"type": "int32", "shape": "2"}},
        {"a": {"type": "int32", "foo": 1}},
        {"a": "int32"},
        [("a", {"type": "int32"})],
    ]
    for s in bad:
        with pytest.raises(MRMInvalidSchemaError):
            w.add_schema(s)
    assert w.add_schema({"a": {"type": "int32"}, "b": {"type": "bytes"}, "c": {"type": "float32", "shape": [2]}}) == 0
    with pytest.raises(MRMAddSchemaError):
        w.add_schema({"a": {"type": "int32"}})
    for idx in (["b"], ["c"], ["zz"]):
        with pytest.raises(MRMDefineIndexError):
            w.add_index(idx)
    with pytest.raises(ParamTypeError):
        w.add_index("a")
    with pytest.raises(ParamValueError):
        FileWriter("x.mindrecord", shard_num=0)
    with pytest.raises(ParamValueError):
        FileWriter("x.mindrecord", shard_num=1001)
    with pytest.raises(ParamValueError):
        FileWriter(3)
    with pytest.raises(RuntimeError, match="page size"):
        w.set_page_size(100)
    with pytest.raises(RuntimeError, match="header size"):
        w.set_header_size(1 << 30)


def test_row_errors_write_nothing(tmp_path):
    schema = {"a": {"type": "int32"}, "v": {"type": "float32", "shape": [2]}, "s": {"type": "string"}}
    good = {"a": 1, "v": np.zeros(2, np.float32), "s": "x"}
    bad = [
        ({"v": np.zeros(2, np.float32), "s": "x"}, "no field 'a'"),
        ({**good, "a": "1"}, "should be int32"),
        ({**good, "a": 1.5}, "should be int32"),
        ({**good, "a": True}, "should be int32"),
        ({**good, "a": 2**40}, "out of the int32 range"),
        ({**good, "v": np.zeros(2, np.float64)}, "numpy.ndarray of float32"),
        ({**good, "v": np.zeros(3, np.float32)}, "does not fit"),
        ({**good, "v": [0.0, 0.0]}, "numpy.ndarray"),
        ({**good, "s": b"x"}, "should be string"),
    ]
    for row, msg in bad:
        w = FileWriter(str(tmp_path / "r.mindrecord"))
        w.add_schema(schema)
        with pytest.raises(RuntimeError, match=msg):
            w.write_raw_data([good, row])
        del w
        assert os.listdir(tmp_path) == []
    w = FileWriter(str(tmp_path / "r.mindrecord"))
    with pytest.raises(ParamTypeError):
        w.write_raw_data({"a": 1})
    with pytest.raises(RuntimeError, match="add_schema"):
        w.write_raw_data([good])
    w.add_schema({"b": {"type": "bytes"}})
    w.set_page_size(1 << 15)
    with pytest.raises(RuntimeError, match="too small to save row 1"):
        w.write_raw_data([{"b": b"x"}, {"b": b"x" * (1 << 15)}])
    w.write_raw_data([{"b": b"ok", "ignored": 3}])
    w.commit()
    with pytest.raises(RuntimeError, match="flushed"):
        w.write_raw_data([{"b": b"x"}])
    assert [r["b"] for r in FileReader(str(tmp_path / "r.mindrecord")).get_next()] == [b"ok"]


def test_existing_files_and_atomic_commit(tmp_path):
    p = str(tmp_path / "e.mindrecord")
    write(p, {"a": {"type": "int32"}}, [[{"a": 1}]])
    before = read_bytes(p)
    w = FileWriter(p)
    w.add_schema({"a": {"type": "int32"}})
    with pytest.raises(RuntimeError, match="already exist"):
        w.write_raw_data([{"a": 2}])
    # a header that does not fit: nothing replaced, no temporary file left
    w = FileWriter(p, overwrite=True)
    w.set_header_size(1 << 14)
    w.add_schema({f"f{i}_{'x' * 60}": {"type": "int32"} for i in range(300)})
    w.write_raw_data([{f"f{i}_{'x' * 60}": i for i in range(300)}])
    with pytest.raises(RuntimeError, match="set_header_size"):
        w.commit()
    assert read_bytes(p) == before and sorted(os.listdir(tmp_path)) == ["e.mindrecord", "e.mindrecord.db"]


def test_missing_renamed_corrupt_truncated(tmp_path):
    with pytest.raises(RuntimeError, match="does not exist"):
        FileReader(str(tmp_path / "nope.mindrecord"))
    src = os.path.join(FIX, "pages.mindrecord")
    p = str(tmp_path / "pages.mindrecord")
    shutil.copy(src, p)
    with pytest.raises(RuntimeError, match=r"\.db .*does not exist"):
        FileReader(p)
    shutil.copy(src + ".db", p + ".db")
    assert FileReader(p).len() == 25
    os.rename(p, str(tmp_path / "other.mindrecord"))
    os.rename(p + ".db", str(tmp_path / "other.mindrecord.db"))
    with pytest.raises(RuntimeError, match="cannot be renamed"):
        FileReader(str(tmp_path / "other.mindrecord"))
    shutil.copy(src, p)
    shutil.copy(src + ".db", p + ".db")
    data = read_bytes(src)
    for blob, msg in [
        (b"junk" * 10, "invalid header length"),
        (b"", "shorter than a header"),
        (struct.pack("<Q", 50) + b"{" * 60, "not valid JSON"),
        (data[:200], "truncated"),
        (data[:-10], "truncated"),
        (data[: len(data) - 40000], "truncated"),
    ]:
        with open(p, "wb") as f:
            f.write(blob)
        with pytest.raises(RuntimeError, match=msg):
            list(FileReader(p).get_next())
    # a corrupt row length inside a page
    h = F.read_header(src)
    page0 = h["header_size"]
    with open(p, "wb") as f:
        f.write(data[:page0] + struct.pack("<Q", 10**9) + data[page0 + 8 :])
    with pytest.raises(RuntimeError, match="corrupt"):
        list(FileReader(p).get_next())
    # a db that is not SQLite
    shutil.copy(src, p)
    with open(p + ".db", "wb") as f:
        f.write(b"not a database" * 100)
    with pytest.raises(RuntimeError, match="not a MindRecord index"):
        FileReader(p)


def test_empty_file():
    r = FileReader(os.path.join(FIX, "empty.mindrecord"))
    assert r.len() == 0 and list(r.get_next()) == []


def test_mindpage_matches_mindspore():
    import json

    from sporax.mindrecord import MindPage, MRMDefineCategoryError

    with open(os.path.join(FIX, "ms_minddataset.json"), encoding="utf-8") as f:
        ref = json.load(f)["mindpage"]
    r = MindPage(os.path.join(FIX, "labels.mindrecord"))
    assert r.candidate_fields == ref["candidate_fields"] and r.category_field is None
    for field in ("label", "file_name"):
        r.category_field = field
        assert r.read_category_info() == ref[f"info_{field}"]
        got = [[x["i"] for x in r.read_at_page_by_id(c, p, 3)] for c in range(3) for p in range(2)]
        assert got == ref[f"by_id_{field}"]
    assert [x["i"] for x in r.read_at_page_by_name("f1.jpg", 1, 2)] == ref["by_name_f1"]
    row = r.read_at_page_by_name("f1.jpg", 0, 1)[0]
    assert row == {"file_name": "f1.jpg", "i": 1, "label": 1, "data": b"\x01\x01\x01"}
    with pytest.raises(MRMDefineCategoryError):
        r.category_field = "i"
    with pytest.raises(ParamValueError):
        r.read_at_page_by_id(0, -1, 3)
    with pytest.raises(RuntimeError, match="out of range"):
        r.read_at_page_by_id(0, 100, 3)
    with pytest.raises(RuntimeError, match="does not exist"):
        r.read_at_page_by_name("zz", 0, 3)
    r.close()
    # two shards written here: rows of shard 0, then shard 1
    case = CASES["two_shards.mindrecord"]
    m = MindPage(os.path.join(FIX, "two_shards.mindrecord0"))
    m.category_field = "id"
    info = json.loads(m.read_category_info())
    assert [c["name"] for c in info["categories"]] == [str(i) for i in range(9)] and len(rows_of(case)) == 9
    m.close()


def test_corrupt_header_entries(tmp_path):
    src = os.path.join(FIX, "scalars.mindrecord")
    data = read_bytes(src)
    n = struct.unpack("<Q", data[:8])[0]
    head = data[8 : 8 + n].decode()
    p = str(tmp_path / "scalars.mindrecord")
    shutil.copy(src + ".db", p + ".db")
    for old, new, msg in [
        ('"end_row_id":300', '"end_row_id":9999999999', "more rows than it can hold"),
        ('"page_size":32768', '"page_size":-5', "page_size"),
        ('"type":"int64"', '"type":"int16"', "invalid schema"),
        ('"index_fields":[{"index_field":"f"', '"index_fields":[{"index_field":"f;DROP"', "index_fields"),
    ]:
        assert old in head, old
        h = head.replace(old, new, 1).encode()
        with open(p, "wb") as f:
            f.write(struct.pack("<Q", len(h)) + h + data[8 + len(h) :])
        with pytest.raises(RuntimeError, match=msg):
            list(FileReader(p).get_next())
