"""Write the MindRecord fixtures of tests/ut/mindrecord with real MindSpore 2.10 (CPU).

Run under the MindSpore venv:  /work/ms-venv/bin/python tools/make_mindrecord_fixtures.py
``... make_mindrecord_fixtures.py encrypted`` writes only ``fixtures/encrypted/``: a file FileWriter encrypted
with :data:`ENC_KEY` (AES-GCM, ``set_enc_key``) and what MindSpore's FileReader reads back from it.
Writes tests/ut/mindrecord/fixtures/: the files of every case of :func:`cases` (``.mindrecord`` +
``.mindrecord.db``) and ``ms_minddataset.json``, what MindSpore's MindDataset yields for some unshuffled
sharding/padding/column settings. The tests read these files, rebuild the rows with :func:`cases` (this
module imports MindSpore only in :func:`main`) and check that sporax writes the same bytes.
"""

import json
import os
import shutil

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "ut", "mindrecord", "fixtures")
HEADER, PAGE = 1 << 14, 1 << 15


def all_types_rows(n=12):
    rng = np.random.default_rng(0)
    rows = []
    for i in range(n):
        rows.append(
            {
                "id": i,
                "i32": int(rng.integers(-(2**31), 2**31)),
                "i64": int(rng.integers(-(2**62), 2**62)) * (1 if i % 2 else -1),
                "f32": float(np.float32(rng.standard_normal())),
                "f64": float(rng.standard_normal()) * 1e10,
                "name": f"row-{i}-é" + "x" * (i * 7),
                "data": rng.integers(0, 256, i * 5 + 1, dtype=np.uint8).tobytes(),
                "a32": rng.integers(-70000, 70000, i + 1).astype(np.int32),
                "a64": (rng.integers(-(2**40), 2**40, 3) >> (i * 3)).astype(np.int64),
                "af32": rng.standard_normal((2, 3)).astype(np.float32),
                "af64": rng.standard_normal((i % 3 + 1, 2)),
                "s0": np.array(float(i) / 7),
            }
        )
    return rows


ALL_TYPES_SCHEMA = {
    "id": {"type": "int64"},
    "i32": {"type": "int32"},
    "i64": {"type": "int64"},
    "f32": {"type": "float32"},
    "f64": {"type": "float64"},
    "name": {"type": "string"},
    "data": {"type": "bytes"},
    "a32": {"type": "int32", "shape": [-1]},
    "a64": {"type": "int64", "shape": [3]},
    "af32": {"type": "float32", "shape": [2, 3]},
    "af64": {"type": "float64", "shape": [-1, 2]},
    "s0": {"type": "float64", "shape": []},
}


def cases():
    """(file name, shard_num, schema, desc, index fields, list of write_raw_data calls) of every fixture."""
    at = all_types_rows()
    pages = [{"s": "x" * 3000 + str(i), "b": bytes([i]) * (10 if i < 15 else 3000), "id": i} for i in range(25)]
    return [
        ("all_types.mindrecord", 1, ALL_TYPES_SCHEMA, "every type", ["id", "name"], [at[:5], at[5:]]),
        (
            "pages.mindrecord",
            1,
            {"s": {"type": "string"}, "b": {"type": "bytes"}, "id": {"type": "int32"}},
            "rows over several raw and blob pages",
            ["id"],
            [pages[:4], pages[4:]],
        ),
        (
            "scalars.mindrecord",
            1,
            {"x": {"type": "int64"}, "f": {"type": "float32"}, "t": {"type": "string"}},
            "",
            None,
            [[{"x": i * 37 - 500, "f": i / 3, "t": str(i)} for i in range(300)]],
        ),
        (
            "arrays.mindrecord",
            1,
            {"a": {"type": "int64", "shape": [-1]}, "img": {"type": "bytes"}},
            "blob fields only",
            None,
            [[{"a": np.arange(i + 1) * 1000, "img": bytes(range(i, i + 9))} for i in range(6)]],
        ),
        ("empty.mindrecord", 1, {"a": {"type": "float32"}}, "no rows", None, []),
        (
            "labels.mindrecord",
            1,
            {
                "file_name": {"type": "string"},
                "label": {"type": "int32"},
                "i": {"type": "int64"},
                "data": {"type": "bytes"},
            },
            "categories",
            ["file_name", "label"],
            [[{"file_name": f"f{i % 4}.jpg", "label": i % 3, "i": i, "data": bytes([i]) * 3} for i in range(20)]],
        ),
        (
            "two_shards.mindrecord",
            2,
            {"id": {"type": "int32"}, "v": {"type": "float32", "shape": [2]}},
            "two shards",
            ["id"],
            [[{"id": i, "v": np.array([i, -i], np.float32)} for i in range(9)]],
        ),
    ]


def write_case(FileWriter, folder, case):
    name, shard_num, schema, desc, index, calls = case
    w = FileWriter(os.path.join(folder, name), shard_num=shard_num, overwrite=True)
    w.set_header_size(HEADER)
    w.set_page_size(PAGE)
    w.add_schema(schema, desc)
    if index:
        w.add_index(index)
    for rows in calls:
        w.write_raw_data(rows)
    w.commit()


def minddataset_reference(ds, folder):
    """MindSpore's unshuffled MindDataset outputs on ``scalars.mindrecord`` (ids of the rows)."""
    f = os.path.join(folder, "ten.mindrecord")
    from mindspore.mindrecord import FileWriter

    w = FileWriter(f, overwrite=True)
    w.set_header_size(HEADER)
    w.set_page_size(PAGE)
    w.add_schema({"x": {"type": "int64"}, "v": {"type": "float32", "shape": [2]}}, "")
    w.write_raw_data([{"x": i, "v": np.array([i, -i], np.float32)} for i in range(10)])
    w.commit()

    def ids(**kw):
        d = ds.MindDataset(f, **kw)
        col = d.get_col_names().index("x")
        return [int(r[col]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]

    ref = {"col_names": ds.MindDataset(f).get_col_names()}
    for ns in (3, 4):
        ref[f"shards_{ns}"] = [ids(num_shards=ns, shard_id=i, shuffle=False) for i in range(ns)]
    ref["shards_3_num_samples_2"] = [ids(num_shards=3, shard_id=i, shuffle=False, num_samples=2) for i in range(3)]
    ref["num_samples_4"] = ids(shuffle=False, num_samples=4)
    ref["num_samples_40"] = ids(shuffle=False, num_samples=40)
    pad = {"x": -1, "v": np.array([9, 9], np.float32)}
    ref["padded_4_2"] = [
        ids(num_shards=4, shard_id=i, shuffle=False, columns_list=["v", "x"], padded_sample=pad, num_padded=2)
        for i in range(4)
    ]
    d = ds.MindDataset(f, columns_list=["x", "v"], shuffle=False)
    ref["columns_x_v"] = d.get_col_names()
    ref["size_shards_3"] = ds.MindDataset(f, num_shards=3, shard_id=0).get_dataset_size()
    os.remove(f)
    os.remove(f + ".db")
    return ref


def mindpage_reference():
    """MindSpore's MindPage on ``labels.mindrecord``: category info and the ids of some pages."""
    from mindspore.mindrecord import MindPage

    r = MindPage(os.path.join(OUT, "labels.mindrecord"))
    out = {"candidate_fields": r.candidate_fields}
    for field in ("label", "file_name"):
        r.category_field = field
        out[f"info_{field}"] = r.read_category_info()
        out[f"by_id_{field}"] = [[x["i"] for x in r.read_at_page_by_id(c, p, 3)] for c in range(3) for p in range(2)]
    out["by_name_f1"] = [x["i"] for x in r.read_at_page_by_name("f1.jpg", 1, 2)]
    return out


ENC_KEY = "0123456789012345"


def encrypted_rows():
    return [{"label": i, "data": bytes([i] * (i + 1)), "vec": np.array([i, -i], np.float32)} for i in range(5)]


ENCRYPTED_SCHEMA = {"label": {"type": "int32"}, "data": {"type": "bytes"}, "vec": {"type": "float32", "shape": [2]}}


def write_encrypted():
    """An encrypted file written by MindSpore's FileWriter under ``set_enc_key(ENC_KEY)``."""
    from mindspore.mindrecord import FileReader, FileWriter, set_enc_key

    out = os.path.join(OUT, "encrypted")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    set_enc_key(ENC_KEY)
    try:
        path = os.path.join(out, "enc.mindrecord")
        w = FileWriter(path, 1, overwrite=True)
        w.set_page_size(PAGE)
        w.set_header_size(HEADER)
        w.add_schema(ENCRYPTED_SCHEMA, "encrypted")
        w.write_raw_data(encrypted_rows())
        w.commit()
        r = FileReader(path)
        read = [{"label": int(x["label"]), "data": x["data"].hex(), "vec": x["vec"].tolist()} for x in r.get_next()]
        r.close()
    finally:
        set_enc_key(None)
    shutil.rmtree(os.path.join(out, ".decrypt_mindrecord"), ignore_errors=True)
    assert read == [{"label": r["label"], "data": r["data"].hex(), "vec": r["vec"].tolist()} for r in encrypted_rows()]
    print("wrote", sorted(os.listdir(out)))


def main():
    import sys

    if sys.argv[1:] == ["encrypted"]:
        write_encrypted()
        return
    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore.mindrecord import FileWriter

    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    for case in cases():
        write_case(FileWriter, OUT, case)
    ref = minddataset_reference(ds, OUT)
    ref["mindpage"] = mindpage_reference()
    ref["ms_version"] = ms.__version__
    with open(os.path.join(OUT, "ms_minddataset.json"), "w", encoding="utf-8") as f:
        json.dump(ref, f, indent=1, sort_keys=True)
    print("wrote", os.path.normpath(OUT), sorted(os.listdir(OUT)), "MindSpore", ms.__version__)


if __name__ == "__main__":
    main()
