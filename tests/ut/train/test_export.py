"""ms.export: MINDIR (MindSpore's operators; real MindSpore 2.10 loads these files: tools/make_mindir_fixtures.py
--check, recorded in docs/deploy.md) and sporax's STABLEHLO, each loaded back with ms.load + nn.GraphCell;
save_mindir / load_mindir; argument errors and unmapped operations."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import stat

import numpy as np
import pytest

import sporax as ms
from sporax import compat, nn, ops
from sporax.common._proto import mind_ir_pb2

ROOT = pathlib.Path(__file__).resolve().parents[3]


class SmallNet(nn.Cell):
    """Conv (padded, strided) + BatchNorm + ReLU + max-pool + Dense, and a second output."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, stride=2, pad_mode="pad", padding=1, has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 2 * 2, 3)

    def construct(self, x):
        y = self.pool(ops.relu(self.bn(self.conv(x))))
        logits = self.fc(self.flatten(y))
        return logits, ops.softmax(logits, -1)


@pytest.fixture(scope="module")
def small():
    ms.set_seed(0)
    net = SmallNet()
    net.set_train(False)
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 2, 8, 8)).astype(np.float32))
    return net, x, [o.asnumpy() for o in net(x)]


@pytest.mark.parametrize("fmt", ["MINDIR", "STABLEHLO"])
def test_export_and_load_back(tmp_path, small, fmt):
    net, x, expected = small
    ms.export(net, x, file_name=str(tmp_path / "net"), file_format=fmt)
    path = tmp_path / f"net.{fmt.lower()}"
    assert path.exists() and stat.S_IMODE(os.stat(path).st_mode) == stat.S_IRUSR  # read-only, as MindSpore
    loaded = nn.GraphCell(ms.load(str(path)))
    got = loaded(x)
    assert isinstance(got, tuple) and len(got) == 2
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g.asnumpy(), e, rtol=1e-5, atol=1e-6)
    assert sorted(n for n, _ in loaded.parameters_and_names()) == sorted(p.name for p in net.get_parameters())
    ms.export(net, x, file_name=str(path), file_format=fmt)  # overwrites its own read-only file
    if fmt == "STABLEHLO":  # one program for every XLA platform
        import zipfile

        import jax

        with zipfile.ZipFile(path) as z:
            assert set(jax.export.deserialize(bytearray(z.read("program.bin"))).platforms) >= {"cpu", "cuda", "tpu"}


def test_large_models_split_weights_out(tmp_path, small, monkeypatch):
    """Past 1 GiB of weights MindSpore writes <name>_graph.mindir + <name>_variables/data_0 (external data);
    MindSpore 2.10 loads sporax's split files and sporax loads MindSpore's (checked by hand, docs/deploy.md)."""
    from sporax.train import _mindir_write

    net, x, expected = small
    monkeypatch.setattr(_mindir_write, "SPLIT_BYTES", 0)
    ms.export(net, x, file_name=str(tmp_path / "big"), file_format="MINDIR")
    assert sorted(os.listdir(tmp_path)) == ["big_graph.mindir", "big_variables"]
    data = (tmp_path / "big_variables" / "data_0").read_bytes()
    assert data[:1] == b"\x01" and len(data) % 64 == 0
    model = mind_ir_pb2.ModelProto.FromString((tmp_path / "big_graph.mindir").read_bytes())
    assert all(p.external_data.location == os.path.join("big_variables", "data_0") for p in model.graph.parameter)
    got = nn.GraphCell(ms.load(str(tmp_path / "big_graph.mindir")))(x)
    np.testing.assert_allclose(got[0].asnumpy(), expected[0], rtol=1e-5, atol=1e-6)


def test_mindir_uses_mindspore_operators(tmp_path, small):
    net, x, _ = small
    ms.export(net, x, file_name=str(tmp_path / "net.mindir"), file_format="MINDIR")
    model = mind_ir_pb2.ModelProto.FromString((tmp_path / "net.mindir").read_bytes())
    ops_used = {p.op_type for p in model.primitives}
    assert {"Conv2D", "MaxPool", "MatMul"} <= ops_used
    conv = next(p for p in model.primitives if p.op_type == "Conv2D")
    attrs = {a.name: a for a in conv.attribute}
    assert attrs["pad_mode"].s == b"pad" and [v.ints[0] for v in attrs["pad"].values] == [1, 1, 1, 1]
    assert [v.ints[0] for v in attrs["stride"].values] == [1, 1, 2, 2]
    refs = {p.ref_key for p in model.graph.parameter}
    assert {"conv.weight", "conv.bias", "bn.moving_mean", "fc.weight"} <= refs
    assert model.mind_ir_version == 3 and model.little_endian


def test_stablehlo_dynamic_batch(tmp_path, small):
    net, _, _ = small
    ms.export(
        net, ms.Tensor(shape=[None, 2, 8, 8], dtype=ms.float32), file_name=str(tmp_path / "d"), file_format="STABLEHLO"
    )
    loaded = nn.GraphCell(ms.load(str(tmp_path / "d.stablehlo")))
    for batch in (1, 3):
        x = ms.Tensor(np.random.default_rng(batch).standard_normal((batch, 2, 8, 8)).astype(np.float32))
        np.testing.assert_allclose(loaded(x)[0].asnumpy(), net(x)[0].asnumpy(), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="dynamic dimension"):
        ms.export(
            net, ms.Tensor(shape=[None, 2, 8, 8], dtype=ms.float32), file_name=str(tmp_path / "d"), file_format="MINDIR"
        )


def test_unmapped_operation_names_it(tmp_path):
    class Sorter(nn.Cell):
        def construct(self, x):
            return ops.sort(x)[0]

    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    with pytest.raises(TypeError, match="'sort'.*no MindSpore operator mapped"):
        ms.export(Sorter(), x, file_name=str(tmp_path / "s"), file_format="MINDIR")
    ms.export(Sorter(), x, file_name=str(tmp_path / "s"), file_format="STABLEHLO")  # StableHLO keeps everything
    np.testing.assert_allclose(nn.GraphCell(ms.load(str(tmp_path / "s.stablehlo")))(x).asnumpy(), x.asnumpy())


def test_export_argument_errors(tmp_path, small):
    net, x, _ = small
    with pytest.raises(ValueError, match="'file_format' must be one of"):
        ms.export(net, x, file_name=str(tmp_path / "n"), file_format="PB")
    with pytest.raises(ValueError, match="AIR"):
        ms.export(net, x, file_name=str(tmp_path / "n"), file_format="AIR")
    with pytest.raises(NotImplementedError, match="enc_key"):
        ms.export(net, x, file_name=str(tmp_path / "n"), file_format="MINDIR", enc_key=b"0" * 16)
    with pytest.raises(NotImplementedError, match="obfuscation"):
        ms.export(net, x, file_name=str(tmp_path / "n"), file_format="MINDIR", obf_func=None)
    with pytest.raises(ValueError, match="is illegal"):
        ms.export(net, x, file_name=str(tmp_path / "bad name"), file_format="MINDIR")
    with pytest.raises(ValueError, match="cannot be a directory"):
        ms.export(net, x, file_name=str(tmp_path) + "/", file_format="MINDIR")


def test_corrupt_stablehlo_file(tmp_path, small):
    net, x, _ = small
    ms.export(net, x, file_name=str(tmp_path / "n"), file_format="STABLEHLO")
    data = (tmp_path / "n.stablehlo").read_bytes()
    bad = tmp_path / "bad.stablehlo"
    bad.write_bytes(data[: len(data) // 3])
    with pytest.raises(ValueError, match="truncated or corrupted"):
        ms.load(str(bad))


def test_save_and_load_mindir_edit_the_model(tmp_path, small):
    net, x, expected = small
    ms.export(net, x, file_name=str(tmp_path / "n"), file_format="MINDIR")
    model = ms.load_mindir(str(tmp_path / "n.mindir"))
    assert isinstance(model, mind_ir_pb2.ModelProto)
    model.user_info["author"] = "sporax"
    ms.save_mindir(model, str(tmp_path / "edited"))
    again = ms.common.load_mindir(str(tmp_path / "edited.mindir"))
    assert again.user_info["author"] == "sporax"
    got = nn.GraphCell(ms.load(str(tmp_path / "edited.mindir")))(x)
    np.testing.assert_allclose(got[0].asnumpy(), expected[0], rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match="must be ModelProto"):
        ms.save_mindir({"graph": 1}, str(tmp_path / "x"))
    (tmp_path / "junk.mindir").write_bytes(b"\xff" * 10)
    with pytest.raises(ValueError):
        ms.load_mindir(str(tmp_path / "junk.mindir"))


def test_export_split_mindir(tmp_path, small):
    net, x, expected = small
    ms.export(net, x, file_name=str(tmp_path / "n"), file_format="MINDIR")
    whole = nn.GraphCell(ms.export_split_mindir(str(tmp_path / "n.mindir"), device_num=1, rank_id=0))
    np.testing.assert_allclose(whole(x)[0].asnumpy(), expected[0], rtol=1e-5, atol=1e-6)
    with pytest.raises(RuntimeError, match="auto-parallel"):
        ms.export_split_mindir(str(tmp_path / "n.mindir"), device_num=8, rank_id=0)
    with pytest.raises(ValueError, match="should end with '.mindir'"):
        ms.train.export_split_mindir(str(tmp_path / "n.onnx"))
    with pytest.raises(ValueError, match="rank_id"):
        ms.export_split_mindir(str(tmp_path / "n.mindir"), device_num=2, rank_id=2)


@pytest.fixture(scope="module")
def tool():
    """tools/make_mindir_fixtures.py (it builds the examples' models), ``mindspore`` aliased to sporax."""
    compat.alias_mindspore()
    spec = importlib.util.spec_from_file_location("mindir_tool", ROOT / "tools" / "make_mindir_fixtures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    yield mod
    compat.unalias_mindspore()


@pytest.mark.skipif(not os.environ.get("SPORAX_RUN_SLOW"), reason="slow (six models, two formats): SPORAX_RUN_SLOW=1")
@pytest.mark.parametrize("name", ["lenet5", "resnet18", "sentiment_lstm", "transformer_lm", "zoo", "dcgan"])
@pytest.mark.parametrize("fmt", ["MINDIR", "STABLEHLO"])
def test_example_models_round_trip(tmp_path, tool, name, fmt):
    spec = tool.SPECS[name]
    net = tool.build(spec)
    inputs = spec.inputs(np.random.default_rng(0))
    expected = tool.run(net, inputs)
    tensors = [ms.Tensor(v) for v in inputs.values()]
    ms.export(net, *tensors, file_name=str(tmp_path / name), file_format=fmt)
    got = nn.GraphCell(ms.load(str(tmp_path / f"{name}.{fmt.lower()}")))(*tensors)
    got = got if isinstance(got, tuple) else (got,)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g.asnumpy(), e, rtol=1e-5, atol=1e-5)
