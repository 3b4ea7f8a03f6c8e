"""ms.load + nn.GraphCell on MindIR files written by real MindSpore 2.10 (tools/make_mindir_fixtures.py):
the examples' LeNet5, ResNet-18, LSTM sentiment classifier, Transformer LM and DCGAN, and a zoo of other
layers, outputs within 1e-5 of MindSpore's; corrupt,
truncated, encrypted or foreign files give clear errors and run nothing."""

from __future__ import annotations

import os
import pickle

import numpy as np
import pytest

import sporax as ms
from sporax import nn

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "mindir")
MODELS = ["lenet5", "resnet18", "sentiment_lstm", "transformer_lm", "zoo", "dcgan"]


def _io(name):
    with np.load(os.path.join(FIXTURES, f"{name}_io.npz")) as f:
        data = dict(f)
    inputs = [v for k, v in data.items() if not k.startswith("out")]
    outputs = [data[f"out{i}"] for i in range(sum(k.startswith("out") for k in data))]
    return inputs, outputs


@pytest.mark.parametrize("name", MODELS)
def test_mindspore_exported_models_run_on_sporax(name):
    inputs, expected = _io(name)
    graph = ms.load(os.path.join(FIXTURES, f"{name}.mindir"))
    net = nn.GraphCell(graph)
    got = net(*[ms.Tensor(x) for x in inputs])
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g.asnumpy(), e, rtol=1e-5, atol=1e-5)


def test_graph_cell_parameters_and_params_init():
    path = os.path.join(FIXTURES, "lenet5.mindir")
    inputs, expected = _io("lenet5")
    net = nn.GraphCell(ms.load(path))
    names = [n for n, _ in net.parameters_and_names()]
    assert names[:2] == ["conv1.weight", "conv2.weight"] and "fc3.bias" in names
    bias = net.parameters_dict()["fc3.bias"].asnumpy()
    shifted = nn.GraphCell(ms.load(path), params_init={"fc3.bias": ms.Tensor(bias + 1.0)})
    np.testing.assert_allclose(shifted(ms.Tensor(inputs[0])).asnumpy(), expected[0] + 1.0, rtol=1e-5, atol=1e-5)
    with pytest.raises(TypeError, match="must be a dict"):
        nn.GraphCell(ms.load(path), params_init=[1])
    with pytest.raises(TypeError, match="must be a FuncGraph"):
        nn.GraphCell(lambda x: x)
    with pytest.raises(NotImplementedError, match="obfuscation"):
        nn.GraphCell(ms.load(path), obf_random_seed=1)


def test_model_predicts_with_a_graph_cell():
    inputs, expected = _io("lenet5")
    net = nn.GraphCell(ms.load(os.path.join(FIXTURES, "lenet5.mindir")))
    got = ms.train.Model(net).predict(ms.Tensor(inputs[0]))
    np.testing.assert_allclose(got.asnumpy(), expected[0], rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="should be None when network is a GraphCell"):
        ms.train.Model(net, loss_fn=nn.MSELoss())


def test_load_argument_checks(tmp_path):
    with pytest.raises(ValueError, match="must be string"):
        ms.load(1)
    with pytest.raises(ValueError, match="should end with '.mindir'"):
        ms.load(str(tmp_path / "x.onnx"))
    with pytest.raises(ValueError, match="does not exist"):
        ms.load(str(tmp_path / "missing.mindir"))
    path = os.path.join(FIXTURES, "lenet5.mindir")
    with pytest.raises(NotImplementedError, match="dec_key"):
        ms.load(path, dec_key=b"0" * 16)
    with pytest.raises(NotImplementedError, match="obfuscation"):
        ms.load(path, obf_func=lambda x: x)


def test_truncated_corrupt_and_foreign_files_fail_clearly(tmp_path):
    with open(os.path.join(FIXTURES, "lenet5.mindir"), "rb") as fh:
        data = fh.read()
    cases = {
        "truncated": data[: len(data) // 2],
        "garbage": bytes(range(256)) * 8,
        "empty": b"",
    }
    for what, content in cases.items():
        f = tmp_path / f"{what}.mindir"
        f.write_bytes(content)
        with pytest.raises(ValueError, match=r"truncated or corrupted|holds no MindIR graph|data") as err:
            nn.GraphCell(ms.load(str(f)))
        assert str(f) in str(err.value), what


def test_flipped_bytes_never_escape_as_other_errors(tmp_path):
    with open(os.path.join(FIXTURES, "zoo.mindir"), "rb") as fh:
        data = fh.read()
    rng = np.random.default_rng(0)
    f = tmp_path / "flipped.mindir"
    for _ in range(100):
        damaged = bytearray(data)
        damaged[int(rng.integers(0, len(damaged)))] ^= 0xFF
        f.write_bytes(bytes(damaged))
        try:
            ms.load(str(f))
        except ValueError as err:
            assert str(f) in str(err)


def test_loading_never_runs_code(tmp_path):
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    f = tmp_path / "evil.mindir"
    f.write_bytes(pickle.dumps({"graph": Evil()}))
    with pytest.raises(ValueError):
        ms.load(str(f))
    assert not marker.exists()
