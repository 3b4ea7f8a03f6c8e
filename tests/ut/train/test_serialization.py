"""Checkpoints: MindSpore's .ckpt format (fixtures written by real MindSpore 2.10), safetensors, the save_obj
forms, filters, load_param_into_net, CRC, atomic writes, async save and clear errors for bad files."""

from __future__ import annotations

import binascii
import filecmp
import json
import os
import pickle
import stat
import struct

import ml_dtypes
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn
from sporax.train import _checkpoint_pb as pb
from sporax.train import _ckpt_format, load_checkpoint, load_checkpoint_async, load_param_into_net, save_checkpoint
from sporax.train import serialization as ser

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
DTYPES = {
    "float16": ms.float16,
    "float32": ms.float32,
    "float64": ms.float64,
    "bfloat16": ms.bfloat16,
    "int8": ms.int8,
    "int16": ms.int16,
    "int32": ms.int32,
    "int64": ms.int64,
    "uint8": ms.uint8,
    "bool": ms.bool_,
}
NET_SHAPES = {
    "conv": {"weight": (4, 1, 3, 3), "bias": (4,)},
    "bn": {"moving_mean": (4,), "moving_variance": (4,), "gamma": (4,), "beta": (4,)},
    "fc": {"weight": (3, 16), "bias": (3,)},
}


class Leaf(nn.Cell):
    def __init__(self, shapes, dtype=np.float32, fill=0.0):
        super().__init__()
        for n, s in shapes.items():
            setattr(self, n, Parameter(Tensor(np.full(s, fill, dtype)), name=n))


class SmallNet(nn.Cell):
    """The parameters of the MindSpore fixtures' Conv2d/BatchNorm2d/Dense net, by name and shape."""

    def __init__(self, dtype=np.float32, fill=0.0):
        super().__init__()
        self.conv = Leaf(NET_SHAPES["conv"], dtype, fill)
        self.bn = Leaf(NET_SHAPES["bn"], dtype, fill)
        self.fc = Leaf(NET_SHAPES["fc"], dtype, fill)


class Wrapper(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.network = net


def read(path) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def bits(x) -> bytes:
    a = x.asnumpy() if isinstance(x, Tensor) else np.asarray(x)
    return a.tobytes()


def sample(dtype_name: str, shape=(2, 3), seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype_name == "bool":
        return rng.random(shape) > 0.5
    if dtype_name == "bfloat16":
        return rng.standard_normal(shape).astype(ml_dtypes.bfloat16)
    if dtype_name.startswith("float"):
        return rng.standard_normal(shape).astype(dtype_name)
    info = np.iinfo(dtype_name)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype_name, endpoint=True)


def tensor_of(arr: np.ndarray) -> Tensor:
    return ser._to_tensor(arr)


@pytest.fixture
def manifest():
    with open(os.path.join(FIXTURES, "expected.json"), encoding="utf-8") as f:
        files = json.load(f)["files"]
    arrays = np.load(os.path.join(FIXTURES, "expected.npz"))
    return files, arrays


def _check_against_manifest(loaded, entries, arrays):
    assert list(loaded) == [e["name"] for e in entries]
    for e in entries:
        got = loaded[e["name"]]
        if "str" in e:
            assert got == e["str"]
            continue
        assert isinstance(got, Parameter) and got.name == e["name"]
        assert got.dtype == DTYPES[e["dtype"]], e["name"]
        assert list(got.shape) == e["shape"], e["name"]
        a = got.asnumpy()
        if e["dtype"] == "bfloat16":
            a = a.view(np.uint16)
        want = arrays[e["key"]]
        assert a.dtype == want.dtype and a.tobytes() == want.tobytes(), e["name"]


# ------------------------------------------------------------------------- MindSpore fixtures
@pytest.mark.parametrize("file", ["ms_net.ckpt", "ms_net_crc.ckpt", "ms_dtypes.ckpt", "ms_net.safetensors"])
def test_mindspore_fixture_loads_exactly(manifest, file):
    files, arrays = manifest
    fmt = "safetensors" if file.endswith("safetensors") else "ckpt"
    loaded = load_checkpoint(os.path.join(FIXTURES, file), format=fmt, crc_check="crc" in file or fmt != "ckpt")
    entries = files[file]
    if fmt == "safetensors":  # safetensors keeps names sorted
        entries = sorted(entries, key=lambda e: e["name"])
    _check_against_manifest(loaded, entries, arrays)


def test_mindspore_fixtures_cover_every_dtype(manifest):
    files, _ = manifest
    assert {e["dtype"] for e in files["ms_dtypes.ckpt"]} == set(DTYPES)


@pytest.mark.parametrize(
    "file,kw",
    [
        ("ms_net.ckpt", {}),
        ("ms_net_crc.ckpt", {"crc_check": True}),
        ("ms_dtypes.ckpt", {}),
        ("ms_net.safetensors", {"format": "safetensors", "crc_check": True}),
    ],
)
def test_resaving_a_mindspore_file_is_byte_identical(tmp_path, file, kw):
    fmt = kw.get("format", "ckpt")
    src = os.path.join(FIXTURES, file)
    params = load_checkpoint(src, format=fmt)
    out = str(tmp_path / file)
    save_checkpoint(params, out, **kw)
    if fmt == "ckpt":
        assert filecmp.cmp(out, src, shallow=False)
        return
    # safetensors: the metadata's key order is a hash-map order (in MindSpore too); all else is identical
    a, b = read(out), read(src)
    (na,), (nb,) = struct.unpack("<Q", a[:8]), struct.unpack("<Q", b[:8])
    assert json.loads(a[8 : 8 + na]) == json.loads(b[8 : 8 + nb])
    assert a[8 + na :] == b[8 + nb :]


def test_mindspore_fixture_into_net(manifest):
    files, arrays = manifest
    net = SmallNet()
    params = load_checkpoint(os.path.join(FIXTURES, "ms_net.ckpt"), net=net)
    for name, p in net.parameters_dict().items():
        assert p.asnumpy().tobytes() == arrays[f"ms_net.ckpt::{name}"].tobytes()
    assert params["epoch_num"].asnumpy() == 3 and params["note"] == "hello ü"
    not_loaded, ckpt_not_loaded = load_param_into_net(SmallNet(), params)
    assert not_loaded == []
    assert ckpt_not_loaded == ["epoch_num", "step_num", "lr", "flag", "note", "step_tensor"]


def test_mindspore_crc_file_damage_detected_with_or_without_crc_check(tmp_path):
    src = os.path.join(FIXTURES, "ms_net_crc.ckpt")
    plain = load_checkpoint(os.path.join(FIXTURES, "ms_net.ckpt"))
    with_crc = load_checkpoint(src)  # the trailer is recognised and skipped either way
    assert list(with_crc) == list(plain)
    data = bytearray(read(src))
    # flip a bit inside conv.weight's data: the protobuf still parses, only the CRC notices
    off = data.index(b"conv.weight") + 40
    data[off] ^= 0x10
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(bytes(data))
    # MindSpore 2.10 loads this silently unless crc_check=True; sporax verifies a checksum the file carries
    # either way (issue 13), naming the file and its parameters.
    for kw in ({}, {"crc_check": True}):
        with pytest.raises(ValueError, match=r"crc check is failed.*bad\.ckpt.*'conv\.weight'"):
            load_checkpoint(str(bad), **kw)


def test_codec_is_byte_identical_to_protobuf():
    # Checkpoint{value{tag:"w", tensor{dims:2, dims:1, tensor_type:"Float32", tensor_content:8 bytes}}}
    content = struct.pack("<2f", 1.0, -2.0)
    got = pb.encode_value("w", [2, 1], "Float32", len(content)) + content
    want = bytes.fromhex("0a1c0a01771217080208011207") + b"Float32" + bytes.fromhex("1a08") + content
    assert got == want
    (rec,) = pb.iter_values(got)
    assert rec.tag == "w" and rec.tensor.dims == (2, 1) and rec.tensor.tensor_type == "Float32"
    assert bytes(rec.tensor.content) == content


# ------------------------------------------------------------------------- round trips
@pytest.mark.parametrize("name", list(DTYPES))
@pytest.mark.parametrize("form", ["cell", "param_list", "dict_list", "dict"])
def test_round_trip_every_dtype_and_form(tmp_path, name, form):
    arr = sample(name, seed=len(name))
    other = sample("float32", (3,), seed=1)
    if form == "cell":
        net = nn.Cell()
        net.a = Parameter(tensor_of(arr), name="a")
        net.b = Parameter(tensor_of(other), name="b")
        obj = net
    elif form == "param_list":
        obj = [Parameter(tensor_of(arr), name="a"), Parameter(tensor_of(other), name="b")]
    elif form == "dict_list":
        obj = [{"name": "a", "data": tensor_of(arr)}, {"name": "b", "data": Parameter(tensor_of(other), name="x")}]
    else:
        obj = {"a": tensor_of(arr), "b": other}
    f = str(tmp_path / "m.ckpt")
    save_checkpoint(obj, f)
    got = load_checkpoint(f)
    assert list(got) == ["a", "b"]
    assert got["a"].dtype == DTYPES[name] and got["a"].shape == arr.shape
    assert bits(got["a"]) == arr.tobytes()
    assert bits(got["b"]) == other.tobytes()
    assert got["a"].name == "a" and got["a"].requires_grad


def test_special_values_are_bit_exact(tmp_path):
    f32 = np.array([np.nan, -0.0, np.inf, -np.inf, 1e-45], np.float32)
    f32[0] = np.frombuffer(b"\x01\x00\xc0\x7f", np.float32)[0]  # a NaN with a payload
    bf = np.array([0x7FC1, 0xFFA5, 0x8000, 0x0001, 0x7F80], np.uint16).view(ml_dtypes.bfloat16)
    f16 = np.array([0x7E01, 0x8000, 0x0001, 0xFC00], np.uint16).view(np.float16)
    f = str(tmp_path / "s.ckpt")
    save_checkpoint({"f32": tensor_of(f32), "bf": tensor_of(bf), "f16": tensor_of(f16)}, f)
    got = load_checkpoint(f)
    assert bits(got["f32"]) == f32.tobytes()
    assert bits(got["bf"]) == bf.tobytes()
    assert bits(got["f16"]) == f16.tobytes()


def test_scalars_and_empty_tensors(tmp_path):
    f = str(tmp_path / "s.ckpt")
    save_checkpoint({"s": Tensor(np.float64(1.5)), "e": Tensor(np.zeros((0, 3), np.int32)), "i": Tensor(7)}, f)
    got = load_checkpoint(f)
    assert got["s"].shape == () and got["s"].dtype == ms.float64 and float(got["s"].asnumpy()) == 1.5
    assert got["e"].shape == (0, 3) and got["e"].dtype == ms.int32
    assert got["i"].shape == () and got["i"].dtype == ms.int64


def test_legacy_dims_zero_scalar_is_read_as_scalar(tmp_path):
    content = np.float32(4.0).tobytes()
    f = tmp_path / "legacy.ckpt"
    f.write_bytes(pb.encode_value("x", [0], "Float32", 4) + content)
    got = load_checkpoint(str(f))
    assert got["x"].shape == () and float(got["x"].asnumpy()) == 4.0


def test_large_tensors_are_split_and_rejoined(tmp_path, monkeypatch):
    monkeypatch.setattr(_ckpt_format, "_SLICE_BYTES", 48)
    a = np.arange(35, dtype=np.float32).reshape(7, 5)
    b = np.arange(3, dtype=np.int64)
    f = str(tmp_path / "big.ckpt")
    save_checkpoint({"a": Tensor(a), "b": Tensor(b)}, f, crc_check=True)
    recs = list(pb.iter_values(read(f)[: -ser._CRC_TRAILER_LEN]))
    assert [r.tag for r in recs] == ["a", "a", "a", "b"]  # 140 bytes in 48-byte pieces, as MindSpore splits
    assert all(r.tensor.dims == (7, 5) for r in recs[:3])
    got = load_checkpoint(f, crc_check=True)
    assert bits(got["a"]) == a.tobytes() and bits(got["b"]) == b.tobytes()


def test_append_dict(tmp_path):
    net = SmallNet(fill=1.0)
    f = str(tmp_path / "a.ckpt")
    append = {
        "epoch_num": 5,
        "lr": 0.5,
        "flag": False,
        "tag": "résumé",
        "t": Tensor(np.arange(3, dtype=np.int16)),
        "p": Parameter(Tensor(np.ones(2, np.float64)), name="whatever"),
    }
    save_checkpoint(net, f, append_dict=append)
    got = load_checkpoint(f)
    assert list(got)[-6:] == list(append)
    assert got["epoch_num"].dtype == ms.int64 and int(got["epoch_num"].asnumpy()) == 5
    assert got["lr"].dtype == ms.float32 and float(got["lr"].asnumpy()) == 0.5
    assert got["flag"].dtype == ms.bool_ and not bool(got["flag"].asnumpy())
    assert got["tag"] == "résumé"
    assert got["t"].dtype == ms.int16 and got["t"].asnumpy().tolist() == [0, 1, 2]
    assert got["p"].dtype == ms.float64
    with pytest.raises(TypeError, match="append_info"):
        save_checkpoint(net, f, append_dict={"x": [1, 2]})
    with pytest.raises(TypeError, match="append_dict"):
        save_checkpoint(net, f, append_dict=[("x", 1)])


def test_empty_string_round_trips(tmp_path):
    f = str(tmp_path / "e.ckpt")
    save_checkpoint({"w": Tensor(np.ones(2, np.float32)), "s": ""}, f)
    assert load_checkpoint(f)["s"] == ""


def test_save_choice_func(tmp_path):
    net = SmallNet()
    f = str(tmp_path / "c.ckpt")
    save_checkpoint(net, f, choice_func=lambda n: n.startswith("conv"))
    assert list(load_checkpoint(f)) == ["conv.weight", "conv.bias"]
    save_checkpoint(list(net.get_parameters()), f, choice_func=lambda n: n.endswith("bias"))
    assert list(load_checkpoint(f)) == ["conv.bias", "fc.bias"]
    save_checkpoint(net.parameters_dict(), f, choice_func=lambda n: n == "fc.weight")
    assert list(load_checkpoint(f)) == ["fc.weight"]


def test_file_name_gets_the_extension_and_overwrites(tmp_path):
    save_checkpoint(SmallNet(fill=1.0), str(tmp_path / "model"))
    assert os.path.exists(tmp_path / "model.ckpt")
    save_checkpoint(SmallNet(fill=2.0), str(tmp_path / "model.ckpt"))  # replaces the read-only file
    assert float(load_checkpoint(str(tmp_path / "model.ckpt"))["fc.bias"].asnumpy()[0]) == 2.0
    assert not os.stat(tmp_path / "model.ckpt").st_mode & stat.S_IWOTH
    save_checkpoint(SmallNet(), str(tmp_path / "m2"), format="safetensors")
    assert os.path.exists(tmp_path / "m2.safetensors")
    assert sorted(os.listdir(tmp_path)) == ["m2.safetensors", "model.ckpt"]


# ------------------------------------------------------------------------- load filters
@pytest.fixture
def net_file(tmp_path):
    f = str(tmp_path / "net.ckpt")
    save_checkpoint(SmallNet(fill=3.0), f, append_dict={"epoch_num": 1})
    return f


def test_filter_prefix_specify_prefix_choice_func(net_file):
    assert list(load_checkpoint(net_file, filter_prefix=["conv", "bn", "epoch"])) == ["fc.weight", "fc.bias"]
    assert list(load_checkpoint(net_file, specify_prefix="fc")) == ["fc.weight", "fc.bias"]
    assert list(load_checkpoint(net_file, specify_prefix=("fc", "conv"), filter_prefix="fc.b")) == [
        "conv.weight",
        "conv.bias",
        "fc.weight",
    ]
    assert list(load_checkpoint(net_file, choice_func=lambda n: "bias" in n)) == ["conv.bias", "fc.bias"]
    # as in MindSpore, a prefix argument overrides choice_func
    assert list(load_checkpoint(net_file, specify_prefix="fc", choice_func=lambda n: False)) == ["fc.weight", "fc.bias"]
    with pytest.raises(ValueError, match="empty after filter"):
        load_checkpoint(net_file, specify_prefix="nothing")
    with pytest.raises(TypeError, match="filter_prefix"):
        load_checkpoint(net_file, filter_prefix=3)
    with pytest.raises(ValueError, match="can't include ''"):
        load_checkpoint(net_file, filter_prefix=["fc", ""])
    with pytest.raises(ValueError, match="can't be empty"):
        load_checkpoint(net_file, specify_prefix=[])


# ------------------------------------------------------------------------- load_param_into_net
def test_load_param_into_net_results(net_file):
    params = load_checkpoint(net_file)
    del params["fc.bias"]
    params["extra"] = Parameter(Tensor(np.ones(2, np.float32)), name="extra")
    net = SmallNet()
    not_loaded, ckpt_not_loaded = load_param_into_net(net, params)
    assert not_loaded == ["fc.bias"]
    assert ckpt_not_loaded == ["epoch_num", "extra"]
    assert float(net.conv.weight.asnumpy().ravel()[0]) == 3.0
    assert float(net.fc.bias.asnumpy()[0]) == 0.0


def test_load_param_into_net_prefix_matching_and_strict_load(net_file):
    params = load_checkpoint(net_file)
    wrapped = Wrapper(SmallNet())
    not_loaded, _ = load_param_into_net(wrapped, params, strict_load=True)
    assert len(not_loaded) == 8
    # not strict: the checkpoint's names are the net's minus a prefix ("network.")... and the reverse
    prefixed = {"network." + k: v for k, v in params.items()}
    net = SmallNet()
    not_loaded, ckpt_not_loaded = load_param_into_net(net, prefixed)
    assert not_loaded == []
    assert float(net.fc.weight.asnumpy()[0, 0]) == 3.0
    assert "network.fc.weight" in ckpt_not_loaded  # MindSpore does not update this list for prefix matches
    not_loaded, _ = load_param_into_net(SmallNet(), prefixed, strict_load=True)
    assert len(not_loaded) == 8


def test_load_param_into_net_dtype_conversion(net_file):
    params = load_checkpoint(net_file)
    net16 = SmallNet(np.float16)
    assert load_param_into_net(net16, params)[0] == []
    assert net16.fc.weight.dtype == ms.float16 and float(net16.fc.weight.asnumpy()[0, 0]) == 3.0
    with pytest.raises(RuntimeError, match="should have the same type"):
        load_param_into_net(SmallNet(np.float16), params, strict_load=True)
    with pytest.raises(RuntimeError, match="For 'load_param_into_net', conv.weight in the argument 'net'"):
        load_param_into_net(SmallNet(np.int32), params)


def test_load_param_into_net_shape_mismatch(net_file):
    params = load_checkpoint(net_file)
    params["fc.weight"] = Parameter(Tensor(np.ones((3, 15), np.float32)), name="fc.weight")
    net = SmallNet()
    with pytest.raises(RuntimeError) as err:
        load_param_into_net(net, params)
    msg = str(err.value)
    assert msg.startswith("For 'load_param_into_net', fc.weight in the argument 'net' should have the same shape")
    assert "(3, 16)" in msg and "(3, 15)" in msg
    net.fc = Leaf({"weight": (3, 16), "bias": (5,)})
    with pytest.raises(RuntimeError, match="fc.bias in the argument 'net' should have the same shape"):
        load_checkpoint(net_file, net=net)


def test_load_param_into_net_drops_trailing_unit_dims():
    net = Leaf({"w": (3, 2)})
    load_param_into_net(net, {"w": Parameter(Tensor(np.ones((3, 2, 1, 1), np.float32)), name="w")})
    assert net.w.shape == (3, 2) and float(net.w.asnumpy().sum()) == 6.0


def test_load_param_into_net_argument_errors():
    with pytest.raises(TypeError, match="should be a Cell"):
        load_param_into_net({}, {})
    with pytest.raises(TypeError, match="should be a dict"):
        load_param_into_net(SmallNet(), [])
    with pytest.raises(TypeError, match="parameter_dict"):
        load_param_into_net(SmallNet(), {"a": np.ones(2)})


# ------------------------------------------------------------------------- CRC and safetensors
def test_crc_round_trip_and_damage(tmp_path):
    f = str(tmp_path / "c.ckpt")
    save_checkpoint(SmallNet(fill=1.0), f, crc_check=True)
    data = read(f)
    body = data[: -ser._CRC_TRAILER_LEN]
    assert data[-17:-10] == b"crc_num" and int.from_bytes(data[-10:], "big") == binascii.crc32(body)
    assert list(load_checkpoint(f, crc_check=True)) == list(SmallNet().parameters_dict())
    os.chmod(f, 0o600)
    with open(f, "r+b") as fh:
        fh.seek(len(body) - 1)
        fh.write(bytes([body[-1] ^ 1]))
    with pytest.raises(ValueError, match="crc check is failed"):
        load_checkpoint(f, crc_check=True)


@pytest.mark.parametrize("crc", [False, True])
def test_safetensors_round_trip_every_dtype(tmp_path, crc):
    values = {f"t_{n}": sample(n, seed=i) for i, n in enumerate(DTYPES)}
    values["scalar"] = np.array(2.0, np.float64)
    f = str(tmp_path / "all.safetensors")
    save_checkpoint({k: tensor_of(v) for k, v in values.items()}, f, format="safetensors", crc_check=crc)
    got = load_checkpoint(f, format="safetensors", crc_check=crc)
    assert list(got) == sorted(values)
    for k, v in values.items():
        assert got[k].dtype == ms.common.dtype.from_np(v.dtype) and got[k].shape == v.shape
        assert bits(got[k]) == v.tobytes()
    net = SmallNet()
    save_checkpoint(SmallNet(fill=4.0), f, format="safetensors")
    assert load_checkpoint(f, net=net, format="safetensors", choice_func=lambda n: n.startswith("fc"))
    assert float(net.fc.weight.asnumpy()[0, 0]) == 4.0 and float(net.conv.bias.asnumpy()[0]) == 0.0


def test_safetensors_errors(tmp_path):
    f = str(tmp_path / "s.safetensors")
    with pytest.raises(TypeError, match="safetensors"):
        save_checkpoint(SmallNet(), f, format="safetensors", append_dict={"s": "text"})
    save_checkpoint(SmallNet(fill=1.0), f, format="safetensors", crc_check=True)
    data = bytearray(read(f))
    data[-1] ^= 0xFF
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="crc check has failed"):
        load_checkpoint(str(bad), format="safetensors", crc_check=True)
    for junk in (bytes(data[:-5]), b"\x00" * 4, b"\xff" * 64, struct.pack("<Q", 9) + b"{not json"):
        bad.write_bytes(junk)
        with pytest.raises(ValueError, match="may be truncated or corrupted"):
            load_checkpoint(str(bad), format="safetensors")
    with pytest.raises(ValueError, match="must same with 'format'"):
        load_checkpoint(f)


# ------------------------------------------------------------------------- atomicity and async
def _tmp_leftovers(d):
    return [n for n in os.listdir(d) if n.endswith(".tmp")]


def test_crash_midway_leaves_previous_file_intact(tmp_path, monkeypatch):
    f = str(tmp_path / "m.ckpt")
    save_checkpoint(SmallNet(fill=1.0), f)
    before = read(f)
    calls = []
    real = ser._write_chunk

    def dying_write(fh, data):
        calls.append(len(data))
        if len(calls) == 5:  # after two parameters and a half
            raise OSError("disk full (simulated)")
        real(fh, data)

    monkeypatch.setattr(_ckpt_format, "_write_chunk", dying_write)
    with pytest.raises(OSError, match="simulated"):
        save_checkpoint(SmallNet(fill=2.0), f)
    assert read(f) == before
    assert _tmp_leftovers(tmp_path) == []
    assert float(load_checkpoint(f)["fc.bias"].asnumpy()[0]) == 1.0
    calls.clear()
    with pytest.raises(OSError, match="simulated"):  # no previous file: none appears
        save_checkpoint(SmallNet(), str(tmp_path / "new.ckpt"))
    assert sorted(os.listdir(tmp_path)) == ["m.ckpt"]


def test_async_save(tmp_path, monkeypatch):
    net = SmallNet(fill=1.0)
    f = str(tmp_path / "a.ckpt")
    save_checkpoint(net, f, async_save=True)
    net.fc.bias.set_data(Tensor(np.full(3, 9.0, np.float32)))  # the save took a snapshot
    ser._wait_async_thread_save_ckpt()
    assert float(load_checkpoint(f)["fc.bias"].asnumpy()[0]) == 1.0
    save_checkpoint(net, f, async_save="thread")
    save_checkpoint(net, str(tmp_path / "b.ckpt"), async_save="process", crc_check=True)  # waits for the first
    ser._wait_async_thread_save_ckpt()
    assert float(load_checkpoint(f)["fc.bias"].asnumpy()[0]) == 9.0
    assert float(load_checkpoint(str(tmp_path / "b.ckpt"), crc_check=True)["fc.bias"].asnumpy()[0]) == 9.0

    def boom(fh, data):
        raise OSError("disk full (simulated)")

    monkeypatch.setattr(_ckpt_format, "_write_chunk", boom)
    save_checkpoint(net, f, async_save=True)
    with pytest.raises(OSError, match="simulated"):
        ser._wait_async_thread_save_ckpt()
    assert float(load_checkpoint(f)["fc.bias"].asnumpy()[0]) == 9.0
    assert _tmp_leftovers(tmp_path) == []
    with pytest.raises(ValueError, match="'process' or 'thread'"):
        save_checkpoint(net, f, async_save="fork")
    with pytest.raises(TypeError, match="async_save"):
        save_checkpoint(net, f, async_save=1)


def test_load_checkpoint_async(net_file, tmp_path):
    fut = load_checkpoint_async(net_file, specify_prefix="fc")
    assert list(fut.result()) == ["fc.weight", "fc.bias"]
    net = SmallNet()
    load_checkpoint_async(net_file, net=net).result()
    assert float(net.bn.gamma.asnumpy()[0]) == 3.0
    st = str(tmp_path / "n.safetensors")
    save_checkpoint(SmallNet(fill=2.0), st, format="safetensors")
    assert float(load_checkpoint_async(st).result()["fc.bias"].asnumpy()[0]) == 2.0
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint_async(str(tmp_path / "nope.ckpt")).result()


# ------------------------------------------------------------------------- bad files and arguments
def test_missing_file_wrong_extension_directory(tmp_path):
    missing = str(tmp_path / "missing.ckpt")
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint(missing)
    with pytest.raises(FileNotFoundError):
        load_checkpoint(missing)
    with pytest.raises(ValueError, match="must same with 'format'"):
        load_checkpoint(str(tmp_path / "m.bin"))
    with pytest.raises(ValueError, match="'.ckpt' or '.safetensors'"):
        load_checkpoint(missing, format="pt")
    os.mkdir(tmp_path / "d.ckpt")
    with pytest.raises(ValueError, match="directory"):
        load_checkpoint(str(tmp_path / "d.ckpt"))
    with pytest.raises(IsADirectoryError):
        save_checkpoint(SmallNet(), str(tmp_path / "d.ckpt"))
    with pytest.raises(TypeError, match="ckpt_file_name"):
        load_checkpoint(3)


def test_every_truncation_is_an_error_or_a_whole_value_prefix(tmp_path):
    f = str(tmp_path / "t.ckpt")
    save_checkpoint({"a": Tensor(np.arange(6, dtype=np.float32)), "b": Tensor(np.int8(3)), "c": "str"}, f)
    data = read(f)
    boundaries = set()
    pos = 0
    for rec in pb.iter_values(data):
        pos += len(pb.encode_value(rec.tag, rec.tensor.dims, rec.tensor.tensor_type, len(rec.tensor.content)))
        pos += len(rec.tensor.content)
        boundaries.add(pos)
    cut_file = tmp_path / "cut.ckpt"
    for cut in range(1, len(data)):
        cut_file.write_bytes(data[:cut])
        try:
            got = load_checkpoint(str(cut_file))
        except ValueError as err:
            assert "checkpoint file" in str(err)
            continue
        assert cut in boundaries, cut  # only a cut between whole Values is indistinguishable from a shorter file
        assert all(k in ("a", "b", "c") for k in got)
    cut_file.write_bytes(data[:30])
    with pytest.raises(ValueError, match="truncated or corrupted"):
        load_checkpoint(str(cut_file))
    cut_file.write_bytes(b"")
    with pytest.raises(ValueError, match="the file is empty"):
        load_checkpoint(str(cut_file))


def test_corrupt_files_give_clear_errors(tmp_path):
    f = tmp_path / "bad.ckpt"
    cases = {
        "garbage": b"\xff" * 40,
        "wire type 7": b"\x0f\x00",
        "huge length": b"\x0a\xff\xff\xff\xff\x0f",
        "bad dtype": pb.encode_value("x", [2], "Float128", 4) + b"\0" * 4,
        "short data": pb.encode_value("x", [2, 2], "Float32", 12) + b"\0" * 12,
        "no tag": b"\x0a\x02\x12\x00",
        "bad utf8": b"\x0a\x05\x0a\x01\xff\x12\x00",
        "no tensor_type": b"\x0a\x07\x0a\x01x\x12\x02\x1a\x00",
        "mixed pieces": pb.encode_value("x", [1], "Float32", 4)
        + b"\0" * 4
        + pb.encode_value("x", [1], "Int32", 4)
        + b"\0" * 4,
    }
    for what, data in cases.items():
        f.write_bytes(data)
        with pytest.raises(ValueError, match="truncated or corrupted") as err:
            load_checkpoint(str(f))
        assert str(f) in str(err.value), what


def test_loading_never_runs_code(tmp_path):
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    f = tmp_path / "evil.ckpt"
    f.write_bytes(pickle.dumps({"w": Evil()}))
    with pytest.raises(ValueError, match="truncated or corrupted"):
        load_checkpoint(str(f))
    assert not marker.exists()


def test_unknown_fields_packed_dims_and_map_tensors_are_read(tmp_path):
    def ld(field, payload):
        return pb._len_field(field, len(payload)) + payload

    content = np.arange(4, dtype=np.int32).tobytes()
    packed = b"".join(pb._varint(d) for d in (2, 2))
    tensor = (
        ld(1, packed)  # packed dims
        + pb._key(9, 5)
        + b"\0\0\0\0"  # unknown fixed32
        + ld(2, b"Int32")
        + pb._key(10, 3)
        + pb._key(1, 0)
        + b"\x05"
        + pb._key(10, 4)  # unknown group
        + ld(3, content)
        + pb._key(11, 1)
        + b"\0" * 8  # unknown fixed64
    )
    value = ld(1, b"w") + pb._key(7, 0) + b"\x96\x01" + ld(2, tensor) + ld(8, b"future")
    keys = np.array([1, 2], np.int64).tobytes()
    vals = np.ones((2, 3), np.float32).tobytes()
    status = np.zeros(2, np.int32).tobytes()
    mt = (
        ld(1, pb._key(1, 0) + b"\x02" + ld(2, b"int64") + ld(3, keys))
        + ld(1, pb._key(1, 0) + b"\x02" + pb._key(1, 0) + b"\x03" + ld(2, b"float32") + ld(3, vals))
        + ld(1, pb._key(1, 0) + b"\x02" + ld(2, b"int32") + ld(3, status))
    )
    mvalue = ld(1, b"emb") + ld(3, mt)
    f = tmp_path / "u.ckpt"
    f.write_bytes(ld(1, value) + pb._key(5, 0) + b"\x01" + ld(1, mvalue) + ld(1, mvalue))
    got = load_checkpoint(str(f))
    assert got["w"].shape == (2, 2) and got["w"].asnumpy().tolist() == [[0, 1], [2, 3]]
    k, v, s = got["emb"]
    assert k.tolist() == [1, 2, 1, 2] and v.shape == (4, 3) and s.dtype == np.int32
    not_loaded, ckpt_not_loaded = load_param_into_net(Leaf({"w": (2, 2)}, np.int32), got)
    assert not_loaded == [] and ckpt_not_loaded == ["emb"]


def test_save_argument_errors(tmp_path):
    f = str(tmp_path / "x.ckpt")
    with pytest.raises(TypeError, match="save_obj"):
        save_checkpoint(Tensor(1.0), f)
    with pytest.raises(TypeError, match="ckpt_file_name"):
        save_checkpoint(SmallNet(), 3)
    with pytest.raises(ValueError, match="'safetensors' or 'ckpt'"):
        save_checkpoint(SmallNet(), f, format="npz")
    with pytest.raises(NotImplementedError, match="encryption"):
        save_checkpoint(SmallNet(), f, enc_key=b"0123456789abcdef")
    with pytest.raises(NotImplementedError, match="encryption"):
        load_checkpoint(f, dec_key=b"0123456789abcdef")
    with pytest.raises(TypeError, match="integrated_save"):
        save_checkpoint(SmallNet(), f, integrated_save=1)
    with pytest.raises(TypeError, match="list of Parameter"):
        save_checkpoint([Parameter(Tensor(1.0), name="a"), Tensor(2.0)], f)
    with pytest.raises(TypeError, match="'name' and 'data'"):
        save_checkpoint([{"name": "a"}], f)
    with pytest.raises(TypeError, match="dict"):
        save_checkpoint({1: Tensor(1.0)}, f)
    assert os.listdir(tmp_path) == []


def test_missing_dir_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        save_checkpoint(SmallNet(), str(tmp_path / "no" / "dir" / "x.ckpt"))


def test_top_level_names_are_the_same_functions():
    import sporax.train as train

    assert train.save_checkpoint is ser.save_checkpoint and train.load_param_into_net is ser.load_param_into_net
