"""ms.export(file_format="ONNX") (the optional 'onnx' extra), checked with onnxruntime against sporax's own
outputs: a small network by default, the examples' models and a zoo network with SPORAX_RUN_SLOW=1."""

from __future__ import annotations

import builtins
import os

import numpy as np
import pytest
from test_export import SmallNet, tool  # noqa: F401  (the MINDIR tests' network, and the fixture tool)

import sporax as ms

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


def _run_onnx(path, inputs):
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return sess.run(None, {i.name: v for i, v in zip(sess.get_inputs(), inputs, strict=True)})


def test_small_network_matches_onnxruntime(tmp_path):
    ms.set_seed(0)
    net = SmallNet()
    net.set_train(False)
    x = np.random.default_rng(0).standard_normal((2, 2, 8, 8)).astype(np.float32)
    expected = [o.asnumpy() for o in net(ms.Tensor(x))]
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "net"), file_format="ONNX")
    model = onnx.load(str(tmp_path / "net.onnx"))
    assert {n.op_type for n in model.graph.node} >= {"Conv", "MaxPool", "MatMul"}
    for got, exp in zip(_run_onnx(tmp_path / "net.onnx", [x]), expected, strict=True):
        np.testing.assert_allclose(got, exp, rtol=1e-5, atol=1e-6)


def test_missing_extra_says_how_to_install(tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_onnx(name, *args, **kwargs):
        if name == "onnx":
            raise ImportError("No module named 'onnx'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_onnx)
    net = ms.nn.Dense(3, 2)
    with pytest.raises(ImportError, match=r"pip install sporax\[onnx\]"):
        ms.export(net, ms.Tensor(np.ones((1, 3), np.float32)), file_name=str(tmp_path / "d"), file_format="ONNX")


@pytest.mark.skipif(not os.environ.get("SPORAX_RUN_SLOW"), reason="slow (six models): SPORAX_RUN_SLOW=1")
@pytest.mark.parametrize("name", ["lenet5", "resnet18", "sentiment_lstm", "transformer_lm", "zoo", "dcgan"])
def test_example_models_match_onnxruntime(tmp_path, tool, name):  # noqa: F811  (the imported fixture)
    spec = tool.SPECS[name]
    net = tool.build(spec)
    inputs = spec.inputs(np.random.default_rng(0))
    expected = tool.run(net, inputs)
    ms.export(net, *[ms.Tensor(v) for v in inputs.values()], file_name=str(tmp_path / name), file_format="ONNX")
    for got, exp in zip(_run_onnx(tmp_path / f"{name}.onnx", list(inputs.values())), expected, strict=True):
        np.testing.assert_allclose(got, exp, rtol=1e-5, atol=1e-5)
