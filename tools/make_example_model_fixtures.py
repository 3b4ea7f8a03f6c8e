"""Checkpoint interchange fixtures for the four example models (examples/*.py) with real MindSpore 2.10.

Each example's network code runs unmodified on both sides: the example imports ``mindspore``, which is real
MindSpore under MindSpore's interpreter and sporax under ``--side sporax`` (``sporax.compat.alias_mindspore``,
as ``sporax run`` does). Every model is built at a small width, its parameters (BatchNorm's moving statistics
included) moved off their initial values by seeded noise, and compared in eval mode (BatchNorm on its moving
statistics, no dropout).

Two steps, in this order (the second reads what the first wrote):

``python tools/make_example_model_fixtures.py --side sporax [NAME ...]``    (sporax's venv)
    writes ``tests/st/fixtures/models/<name>/sporax_model.ckpt`` with ``sporax.save_checkpoint``.

``cd /tmp && /work/msvenv/bin/python /work/main/tools/make_example_model_fixtures.py [NAME ...]``
    (MindSpore 2.10) writes ``ms_model.ckpt`` (``mindspore.save_checkpoint``), ``inputs.npz``,
    ``ms_outputs.npz`` (MindSpore's outputs for its own checkpoint) and ``ms_outputs_sporax_ckpt.npz``
    (MindSpore's outputs after ``load_checkpoint`` + ``load_param_into_net`` of sporax's file; every
    parameter must load).

tests/st/test_example_*.py load both checkpoints in sporax and compare with these outputs (1e-5).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
EXAMPLES = os.path.join(ROOT, "examples")
FIXTURES = os.path.join(ROOT, "tests", "st", "fixtures", "models")


def load_example(file_stem: str):
    """Import examples/<file_stem>.py as a module (``mindspore`` in it is whatever this process imports)."""
    spec = importlib.util.spec_from_file_location(f"example_{file_stem}", os.path.join(EXAMPLES, f"{file_stem}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def perturb(net, seed: int, scale: float = 0.05) -> None:
    """Move every parameter off its initial value by seeded noise (moving variances stay positive)."""
    import mindspore as ms

    rng = np.random.default_rng(seed)
    for p in sorted(net.get_parameters(), key=lambda q: q.name):
        v = p.asnumpy()
        noise = rng.standard_normal(v.shape).astype(v.dtype) * scale
        new = np.abs(v + noise * 10) + 0.5 if "moving_variance" in p.name else v + noise
        p.set_data(ms.Tensor(new.astype(v.dtype)))


def as_numpy(outputs) -> dict[str, np.ndarray]:
    return {k: v.asnumpy() for k, v in outputs.items()}


# ----------------------------------------------------------------------------------- the four models
class ModelSpec:
    """How one example's network is built small, which inputs it is checked on, and what it returns."""

    name = ""
    example = ""

    def build(self, mod):
        raise NotImplementedError

    def inputs(self, rng: np.random.Generator) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def run(self, net, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        raise NotImplementedError


class ResNet18(ModelSpec):
    name = "resnet18"
    example = "resnet18_cifar10"

    def build(self, mod):
        return mod.resnet18(10, width=8)

    def inputs(self, rng):
        return {"x": rng.standard_normal((4, 3, 32, 32)).astype(np.float32)}

    def run(self, net, inputs):
        import mindspore as ms

        return as_numpy({"logits": net(ms.Tensor(inputs["x"]))})


class SentimentLSTM(ModelSpec):
    name = "sentiment_lstm"
    example = "sentiment_lstm_glove"

    def build(self, mod):
        return mod.SentimentNet(20, 8, 8, num_layers=2, num_classes=2, weight=None, dropout=0.1)

    def inputs(self, rng):
        lengths = np.array([7, 5, 3, 1], np.int32)
        ids = rng.integers(1, 20, (4, 7)).astype(np.int32)
        ids[np.arange(7)[None, :] >= lengths[:, None]] = 0  # <pad>
        return {"ids": ids, "length": lengths}

    def run(self, net, inputs):
        import mindspore as ms

        ids, length = ms.Tensor(inputs["ids"]), ms.Tensor(inputs["length"])
        output, (h, c) = net.encoder(net.embedding(ids), seq_length=length)
        return as_numpy({"logits": net(ids, length), "lstm_output": output, "h": h, "c": c})


class TransformerLM(ModelSpec):
    name = "transformer_lm"
    example = "transformer_lm"

    def build(self, mod):
        return mod.TransformerLM(61, d_model=16, nhead=2, num_layers=2, dim_feedforward=32, block_size=12, dropout=0.1)

    def inputs(self, rng):
        return {
            "ids": rng.integers(0, 61, (3, 12)).astype(np.int32),
            "short_ids": rng.integers(0, 61, (2, 5)).astype(np.int32),
        }

    def run(self, net, inputs):
        import mindspore as ms

        return as_numpy({"logits": net(ms.Tensor(inputs["ids"])), "short_logits": net(ms.Tensor(inputs["short_ids"]))})


class DCGAN(ModelSpec):
    name = "dcgan"
    example = "dcgan_mnist"

    def build(self, mod):
        return mod.GAN(nz=8, ngf=4, ndf=4)

    def inputs(self, rng):
        return {
            "latent": rng.standard_normal((3, 8, 1, 1)).astype(np.float32),
            "image": np.tanh(rng.standard_normal((3, 1, 28, 28))).astype(np.float32),
        }

    def run(self, net, inputs):
        import mindspore as ms

        fake, score = net(ms.Tensor(inputs["latent"]), ms.Tensor(inputs["image"]))
        return as_numpy({"generated": fake, "score": score, "score_generated": net.discriminator(fake)})


SPECS = {s.name: s for s in (ResNet18(), SentimentLSTM(), TransformerLM(), DCGAN())}


def model_dir(name: str) -> str:
    path = os.path.join(FIXTURES, name)
    os.makedirs(path, exist_ok=True)
    return path


def fresh(spec: ModelSpec, mod, seed: int):
    import mindspore as ms

    ms.set_seed(seed)
    net = spec.build(mod)
    net.set_train(False)
    return net


def save(net, path: str) -> None:
    import mindspore as ms

    if os.path.exists(path):
        os.remove(path)  # both frameworks leave their checkpoints read-only
    ms.save_checkpoint(net, path)
    os.chmod(path, 0o644)


def outputs_for_checkpoint(spec: ModelSpec, mod, ckpt_path: str, inputs, net=None) -> dict[str, np.ndarray]:
    """`net` (default: a fresh network) loads the file (every parameter must load, none may be left over) and
    runs `inputs`."""
    import mindspore as ms

    net = fresh(spec, mod, 3) if net is None else net
    params = ms.load_checkpoint(ckpt_path)
    not_loaded, _ = ms.load_param_into_net(net, params)
    extra = sorted(set(params) - {p.name for p in net.get_parameters()})
    if not_loaded or extra:
        raise AssertionError(f"{spec.name}: {ckpt_path}: not loaded {not_loaded}, not in the network {extra}")
    return spec.run(net, inputs)


def write_sporax(spec: ModelSpec) -> None:
    net = fresh(spec, load_example(spec.example), 2)
    perturb(net, seed=2)
    save(net, os.path.join(model_dir(spec.name), "sporax_model.ckpt"))


def write_mindspore(spec: ModelSpec) -> None:
    out = model_dir(spec.name)
    mod = load_example(spec.example)
    inputs = spec.inputs(np.random.default_rng(0))
    np.savez(os.path.join(out, "inputs.npz"), **inputs)

    net = fresh(spec, mod, 1)
    perturb(net, seed=1)
    save(net, os.path.join(out, "ms_model.ckpt"))
    np.savez(os.path.join(out, "ms_outputs.npz"), **spec.run(net, inputs))

    sporax_ckpt = os.path.join(out, "sporax_model.ckpt")
    np.savez(os.path.join(out, "ms_outputs_sporax_ckpt.npz"), **outputs_for_checkpoint(spec, mod, sporax_ckpt, inputs))
    print(f"{spec.name}: wrote {sorted(os.listdir(out))}")


def compare_with_fixtures(name: str) -> dict[str, tuple[dict, dict]]:
    """For the tests (run with ``mindspore`` aliased to sporax): this side's outputs for MindSpore's and for
    sporax's committed checkpoint, each with MindSpore's recorded outputs for the same file."""
    spec, out = SPECS[name], os.path.join(FIXTURES, name)
    mod = load_example(spec.example)
    with np.load(os.path.join(out, "inputs.npz")) as f:
        inputs = dict(f)
    result, net = {}, fresh(spec, mod, 3)  # one network loads both files: one compilation
    for ckpt, recorded in (("ms_model.ckpt", "ms_outputs.npz"), ("sporax_model.ckpt", "ms_outputs_sporax_ckpt.npz")):
        with np.load(os.path.join(out, recorded)) as f:
            result[ckpt] = (outputs_for_checkpoint(spec, mod, os.path.join(out, ckpt), inputs, net), dict(f))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", choices=("mindspore", "sporax"), default="mindspore")
    parser.add_argument("names", nargs="*", default=sorted(SPECS))
    args = parser.parse_args()
    if args.side == "sporax":
        sys.path.insert(0, ROOT)
        from sporax import compat

        compat.alias_mindspore()
    import mindspore

    if args.side == "mindspore" and mindspore.__name__ != "mindspore":
        raise SystemExit("run the MindSpore side under real MindSpore 2.10")
    for name in args.names:
        (write_sporax if args.side == "sporax" else write_mindspore)(SPECS[name])


if __name__ == "__main__":
    main()
