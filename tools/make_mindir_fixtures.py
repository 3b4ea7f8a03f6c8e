"""MINDIR interchange with real MindSpore 2.10, both directions, for the example models.

The networks are the examples' own code (``examples/*.py``), built small and perturbed as
``tools/make_example_model_fixtures.py`` builds them (that module supplies the model specs); ``mindspore`` in
them is real MindSpore under MindSpore's interpreter and sporax under ``--side sporax``.

``cd /tmp && /work/msvenv/bin/python /work/main/tools/make_mindir_fixtures.py [NAME ...]``
    (MindSpore 2.10) MindSpore -> sporax: writes ``tests/ut/train/fixtures/mindir/<name>.mindir``
    (``mindspore.export``) and ``<name>_io.npz`` (inputs, MindSpore's outputs). ``test_mindir_load.py``
    loads them with ``sporax.load`` + ``nn.GraphCell`` and compares (1e-5).

``python tools/make_mindir_fixtures.py --side sporax [NAME ...]``    (sporax's venv)
    sporax -> MindSpore, step 1: ``sporax.export`` of each model to ``/tmp/sporax_mindir/<name>.mindir``
    with sporax's outputs in ``<name>_io.npz``.

``cd /tmp && /work/msvenv/bin/python /work/main/tools/make_mindir_fixtures.py --check /tmp/sporax_mindir [NAME ...]``
    step 2 (MindSpore 2.10): ``mindspore.load`` + ``nn.GraphCell`` of sporax's files, outputs compared with
    sporax's; prints one line per model (recorded in docs/deploy.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
FIXTURES = os.path.join(ROOT, "tests", "ut", "train", "fixtures", "mindir")
SPORAX_OUT = "/tmp/sporax_mindir"


def _example_fixtures():
    spec = importlib.util.spec_from_file_location(
        "make_example_model_fixtures", os.path.join(ROOT, "tools", "make_example_model_fixtures.py")
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


EX = _example_fixtures()


class LeNet5(EX.ModelSpec):
    name = "lenet5"
    example = "lenet_mnist"

    def build(self, mod):
        return mod.LeNet5(10, 1)

    def inputs(self, rng):
        return {"x": rng.standard_normal((2, 1, 32, 32)).astype(np.float32)}


class ResNet18(EX.ResNet18):
    def inputs(self, rng):
        return {"x": rng.standard_normal((2, 3, 32, 32)).astype(np.float32)}


class SentimentLSTM(EX.SentimentLSTM):
    def inputs(self, rng):
        lengths = np.array([6, 3], np.int32)
        ids = rng.integers(1, 20, (2, 6)).astype(np.int32)
        ids[np.arange(6)[None, :] >= lengths[:, None]] = 0
        return {"ids": ids, "length": lengths}


class TransformerLM(getattr(EX, "TransformerLM", EX.ModelSpec)):
    name = "transformer_lm"
    example = "transformer_lm"

    def inputs(self, rng):
        return {"ids": rng.integers(0, 61, (2, 12)).astype(np.int32)}


def _zoo_net():
    """Layers and ops beyond the four models (both frameworks build it from this one definition)."""
    import mindspore as ms
    from mindspore import nn, ops

    class ZooNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, pad_mode="same", has_bias=True)
            self.bn = nn.BatchNorm2d(8)
            self.avg = nn.AvgPool2d(2, 2)
            self.gelu = nn.GELU()
            self.silu = nn.SiLU()
            self.leaky = nn.LeakyReLU(0.1)
            self.conv1d = nn.Conv1d(8, 4, 3, pad_mode="pad", padding=1, has_bias=True)
            self.elu = nn.ELU()
            self.ln = nn.LayerNorm((4,), begin_norm_axis=-1, begin_params_axis=-1)
            self.emb = nn.Embedding(10, 4)
            self.drop = nn.Dropout(p=0.5)
            self.dense = nn.Dense(32, 5)
            self.hswish = nn.HSwish()

        def construct(self, x, ids):
            y = self.gelu(self.bn(self.conv(x)))
            y = self.avg(y)
            y = self.leaky(y) + self.silu(y)
            y = ops.mean(y, axis=2)
            y = self.elu(self.conv1d(y))
            y = self.ln(ops.transpose(y, (0, 2, 1)))
            y = self.drop(y + self.emb(ids))
            z = self.dense(ops.reshape(y, (y.shape[0], -1)))
            w = self.hswish(z) * ops.sigmoid(z) - ops.exp(-ops.abs(z))
            return ops.tanh(z), ops.softmax(z, -1), ops.sqrt(ops.abs(w) + 1.0), ops.maximum(z, ms.Tensor(0.5))

    return ZooNet()


class Zoo(EX.ModelSpec):
    name = "zoo"

    def build(self, mod):
        return _zoo_net()

    def inputs(self, rng):
        return {
            "x": rng.standard_normal((2, 3, 16, 16)).astype(np.float32),
            "ids": rng.integers(0, 10, (2, 8)).astype(np.int32),
        }


SPECS = {s.name: s for s in (LeNet5(), ResNet18(), SentimentLSTM(), TransformerLM(), Zoo())}
for _name, _spec in getattr(EX, "SPECS", {}).items():
    SPECS.setdefault(_name, _spec)
DEFAULT = [n for n in ("lenet5", "resnet18", "sentiment_lstm", "transformer_lm", "zoo", "dcgan") if n in SPECS]


def load_example(stem: str):
    """examples/<stem>.py as a module registered in ``sys.modules`` (MindSpore's graph compiler looks its
    globals up by module name)."""
    mod = EX.load_example(stem)
    sys.modules[mod.__name__] = mod
    return mod


def build(spec):
    net = EX.fresh(spec, load_example(spec.example) if spec.example else None, 1)
    EX.perturb(net, seed=1)
    return net


def run(net, inputs):
    import mindspore as ms

    out = net(*[ms.Tensor(v) for v in inputs.values()])
    out = out if isinstance(out, (tuple, list)) else (out,)
    return [o.asnumpy() for o in out]


def write(spec, folder: str) -> None:
    """Export ``spec``'s model to ``folder/<name>.mindir`` with its inputs and outputs."""
    import mindspore as ms

    os.makedirs(folder, exist_ok=True)
    net = build(spec)
    inputs = spec.inputs(np.random.default_rng(0))
    path = os.path.join(folder, f"{spec.name}.mindir")
    if os.path.exists(path):
        os.chmod(path, 0o644)
    ms.export(net, *[ms.Tensor(v) for v in inputs.values()], file_name=path, file_format="MINDIR")
    os.chmod(path, 0o644)
    outs = run(net, inputs)
    np.savez(os.path.join(folder, f"{spec.name}_io.npz"), **inputs, **{f"out{i}": o for i, o in enumerate(outs)})
    print(f"{spec.name}: wrote {path} ({os.path.getsize(path)} bytes), outputs {[o.shape for o in outs]}")


def check(spec, folder: str) -> None:
    """MindSpore loads sporax's export of ``spec``'s model and runs its inputs."""
    import mindspore as ms

    path = os.path.join(folder, f"{spec.name}.mindir")
    with np.load(os.path.join(folder, f"{spec.name}_io.npz")) as f:
        data = dict(f)
    inputs = [v for k, v in data.items() if not k.startswith("out")]
    expected = [data[f"out{i}"] for i in range(sum(k.startswith("out") for k in data))]
    net = ms.nn.GraphCell(ms.load(path))
    got = net(*[ms.Tensor(v) for v in inputs])
    got = got if isinstance(got, (tuple, list)) else (got,)
    diff = max(float(np.abs(g.asnumpy() - e).max()) for g, e in zip(got, expected, strict=True))
    status = "OK" if diff <= 1e-5 else "MISMATCH"
    print(f"{spec.name}: MindSpore {ms.__version__} loaded sporax's MINDIR; max |diff| = {diff:.3g} ({status})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", choices=("mindspore", "sporax"), default="mindspore")
    parser.add_argument("--check", metavar="DIR", help="MindSpore side: load sporax's exports in DIR and compare")
    parser.add_argument("names", nargs="*", default=DEFAULT)
    args = parser.parse_args()
    if args.side == "sporax":
        sys.path.insert(0, ROOT)
        from sporax import compat

        compat.alias_mindspore()
    import mindspore

    if args.side == "mindspore" and mindspore.__name__ != "mindspore":
        raise SystemExit("run the MindSpore side under real MindSpore 2.10")
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    for name in args.names:
        if args.check:
            check(SPECS[name], args.check)
        else:
            write(SPECS[name], SPORAX_OUT if args.side == "sporax" else FIXTURES)


if __name__ == "__main__":
    main()
