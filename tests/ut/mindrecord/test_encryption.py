"""MindRecord encryption (set_enc_key / set_enc_mode / set_dec_mode): a file MindSpore 2.10 encrypted
(tests/ut/mindrecord/fixtures/encrypted, written by ``tools/make_mindrecord_fixtures.py encrypted``) reads here,
files written here are stored in the same layout (MindSpore 2.10 reads them back: checked when the fixture was
made), and every misuse fails with MindSpore's message."""

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("cryptography")

import sporax.dataset as ds  # noqa: E402
from sporax.mindrecord import FileReader, FileWriter, set_dec_mode, set_enc_key, set_enc_mode  # noqa: E402
from sporax.mindrecord import config as mr_config  # noqa: E402

FIX = os.path.join(os.path.dirname(__file__), "fixtures", "encrypted")
KEY = "0123456789012345"
ROWS = [{"label": i, "data": bytes([i] * (i + 1)), "vec": np.array([i, -i], np.float32)} for i in range(5)]
SCHEMA = {"label": {"type": "int32"}, "data": {"type": "bytes"}, "vec": {"type": "float32", "shape": [2]}}


@pytest.fixture(autouse=True)
def _reset():
    yield
    set_enc_key(None)
    set_enc_mode("AES-GCM")
    set_dec_mode(None)


def _read(path):
    r = FileReader(path)
    try:
        return [(int(x["label"]), bytes(x["data"]), np.asarray(x["vec"]).tolist()) for x in r.get_next()]
    finally:
        r.close()


EXPECTED = [(r["label"], r["data"], r["vec"].tolist()) for r in ROWS]


def test_reads_mindspore_encrypted_file(tmp_path):
    with pytest.raises(RuntimeError, match="The mindrecord file is encrypted. You need to configure"):
        FileReader(os.path.join(FIX, "enc.mindrecord"))
    set_enc_key(KEY)
    assert _read(os.path.join(FIX, "enc.mindrecord")) == EXPECTED
    rows = list(
        ds.MindDataset(os.path.join(FIX, "enc.mindrecord"), shuffle=False).create_dict_iterator(output_numpy=True)
    )
    assert [int(r["label"]) for r in rows] == [0, 1, 2, 3, 4]
    set_enc_key("0123456789abcdef")
    with pytest.raises(RuntimeError, match="please check if enc_key and enc_mode / dec_mode is valid"):
        FileReader(os.path.join(FIX, "enc.mindrecord"))


def _write(path, rows=ROWS):
    w = FileWriter(path, 1, overwrite=True)
    w.add_schema(SCHEMA, "t")
    w.write_raw_data(rows)
    w.commit()


def test_write_encrypted_round_trip_and_append(tmp_path):
    set_enc_key(KEY)
    p = str(tmp_path / "a.mindrecord")
    _write(p)
    for f in (p, p + ".db"):
        raw = Path(f).read_bytes()
        assert raw.endswith(b"\x00\x00\x00\x00AES-GCMENCRYPT")
        assert b"SHARD_NAME" not in raw  # nothing readable is left in the clear
    assert _read(p) == EXPECTED
    w = FileWriter.open_for_append(p)
    w.write_raw_data([{"label": 9, "data": b"z", "vec": np.array([9, -9], np.float32)}])
    w.commit()
    assert _read(p)[-1] == (9, b"z", [9.0, -9.0]) and len(_read(p)) == 6
    set_enc_key(None)
    with pytest.raises(RuntimeError, match="is encrypted"):
        FileReader(p)
    q = str(tmp_path / "plain.mindrecord")
    _write(q)
    set_enc_key(KEY)
    with pytest.raises(RuntimeError, match=r"The mindrecord file is not encrypted. You can set"):
        FileReader(q)


def test_same_layout_as_mindspore(tmp_path):
    """Both writers' files have the same block layout: the fixture's first block parses with sporax's reader of
    one block, and sporax's block is laid out field by field as MindSpore's."""
    raw = Path(FIX, "enc.mindrecord").read_bytes()
    n = int.from_bytes(raw[:4], "big")
    rec = raw[4 : 4 + n]
    assert rec[:4] == (0x7F3A5ED8).to_bytes(4, "little")
    body_len = int.from_bytes(rec[20:24], "little")
    assert body_len == n - 24 and int.from_bytes(rec[24:28], "little") == 16
    set_enc_key(KEY)
    mine = mr_config._encrypt_block(mr_config._aesgcm(KEY), b"x" * 11)
    assert len(mine) == 59 and int.from_bytes(mine[20:24], "little") == 35 and mine[:4] == rec[:4]
    assert mr_config._decrypt_block(mr_config._aesgcm(KEY), mine, "m") == b"x" * 11


def test_user_functions_and_argument_checks(tmp_path):
    def enc(src, size, dst, key):
        dst.write(bytes(b ^ 0x5A for b in src.read(size)))

    def dec(src, size, dst, key):
        data = src.read(size)[: -(4 + 7)]  # MindSpore hands over the zero length and the mode too
        dst.write(bytes(b ^ 0x5A for b in data))

    set_enc_key(KEY)
    set_enc_mode(enc)
    p = str(tmp_path / "u.mindrecord")
    _write(p)
    assert Path(p).read_bytes().endswith(b"UDF-ENCENCRYPT")
    with pytest.raises(RuntimeError, match="custom encryption, so you must also define custom decryption"):
        FileReader(p)
    set_dec_mode(dec)
    assert _read(p) == EXPECTED
    with pytest.raises(ValueError, match="The length of input enc_key is not 16, 24, 32."):
        set_enc_key("short")
    with pytest.raises(ValueError, match="The input enc_key is not str."):
        set_enc_key(b"0123456789012345")
    with pytest.raises(ValueError, match="The input enc_mode is invalid."):
        set_enc_mode("SM4-CBC")
    with pytest.raises(ValueError, match="The input dec_mode is not str."):
        set_dec_mode(3)
    shutil.rmtree(tmp_path)
