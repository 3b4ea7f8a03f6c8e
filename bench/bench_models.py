"""Train steps of the four example models (examples/*.py) on sporax against the same models in PyTorch CPU, on
the same shapes, pinned to one core, in one run.

Each model's sporax step is the example's own (the example imported with ``mindspore`` aliased to sporax):

- ``lstm``: examples/sentiment_lstm_glove.py, its ``value_and_grad`` + Adam ``@jit`` step (2-layer
  bidirectional LSTM, ``seq_length`` given, all sentences full length); PyTorch: the same layers, ``nn.LSTM``
  on the padded batch, Adam.
- ``transformer``: examples/transformer_lm.py, ``TrainOneStepCell`` + ``AdamWeightDecay`` (2 pre-norm encoder
  layers, causal mask, dropout 0.1); PyTorch: ``nn.TransformerEncoder`` with the same layers, AdamW.
- ``resnet18``: examples/resnet18_cifar10.py's network in ``TrainOneStepCell(WithLossCell)`` with its Momentum
  (weight decay on the weights); PyTorch: the same ResNet-18 (CIFAR stem), SGD momentum.
- ``dcgan``: examples/dcgan_mnist.py's discriminator step then generator step (two Adams); PyTorch: the same
  two steps.

The PyTorch side runs in its own venv (``/work/venvs/torch``, or ``--torch-python``) as a subprocess of this
script, which inherits the CPU affinity: run the whole thing under ``taskset -c 1``. Rounds alternate (a sporax
round of N steps, then a PyTorch round of N steps, ...) and the per-side median time per step is reported
with the ratio sporax / PyTorch (below 1: sporax is faster). Without the PyTorch venv only sporax is timed.

    taskset -c 1 python bench/bench_models.py [--models lstm,transformer,resnet18,dcgan] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
TORCH_PYTHON = "/work/venvs/torch/bin/python"

# The shapes both sides run (the examples' defaults unless said).
CONFIGS = {
    "lstm": {"batch": 32, "seq": 32, "vocab": 5000, "embed": 100, "hidden": 128, "steps": 20},
    "transformer": {"batch": 32, "seq": 64, "vocab": 61, "d_model": 128, "nhead": 4, "layers": 2, "steps": 10},
    "resnet18": {"batch": 16, "width": 32, "steps": 3},
    "dcgan": {"batch": 64, "nz": 100, "ngf": 32, "ndf": 32, "steps": 10},
}


def batch_inputs(name: str, cfg: dict) -> dict[str, np.ndarray]:
    """The same random inputs on both sides (seeded NumPy)."""
    rng = np.random.default_rng(0)
    b = cfg["batch"]
    if name == "lstm":
        return {
            "ids": rng.integers(2, cfg["vocab"], (b, cfg["seq"])).astype(np.int32),
            "length": np.full((b,), cfg["seq"], np.int32),
            "label": rng.integers(0, 2, (b,)).astype(np.int32),
            "table": rng.standard_normal((cfg["vocab"], cfg["embed"])).astype(np.float32),
        }
    if name == "transformer":
        ids = rng.integers(0, cfg["vocab"], (b, cfg["seq"] + 1)).astype(np.int32)
        return {"ids": ids[:, :-1].copy(), "targets": ids[:, 1:].copy()}
    if name in ("mlp", "lenet"):
        shape = (b, 256) if name == "mlp" else (b, 1, 32, 32)
        return {
            "x": rng.standard_normal(shape).astype(np.float32),
            "y": rng.integers(0, 10, (b,)).astype(np.int32),
        }
    if name == "resnet18":
        return {
            "x": rng.standard_normal((b, 3, 32, 32)).astype(np.float32),
            "y": rng.integers(0, 10, (b,)).astype(np.int32),
        }
    return {
        "real": np.tanh(rng.standard_normal((b, 1, 28, 28))).astype(np.float32),
        "latent": rng.standard_normal((b, cfg["nz"], 1, 1)).astype(np.float32),
    }


# ------------------------------------------------------------------------------------------- sporax side
def small_cells(nn):
    """bench_train_step.py's MLP (seed 000's network) and ModelZoo's LeNet5 with their losses, built on the
    given ``nn`` (sporax's or MindSpore's)."""

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mlp = nn.SequentialCell(
                [nn.Dense(256, 128), nn.ReLU(), nn.Dense(128, 128), nn.ReLU(), nn.Dense(128, 10)]
            )
            self.loss_fn = nn.CrossEntropyLoss()

        def construct(self, x, y):
            return self.loss_fn(self.mlp(x), y)

    class LeNet5(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(400, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, 10)
            self.loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

        def construct(self, x, y):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.loss_fn(self.fc3(x), y)

    return MLP, LeNet5


def small_sides(case: str, ms, lr: float = 1e-3) -> dict:
    """The seed's ``@jit`` train step of a small case (``mlp_b1``, ``mlp_b256``, ``lenet_b32``) on ``ms``
    (sporax or MindSpore): ``graph``, ``pynative`` (the undecorated function), ``step``, ``batch``, ``net``."""
    from_name = {"mlp_b1": ("mlp", 1), "mlp_b256": ("mlp", 256), "lenet_b32": ("lenet", 32)}
    model, b = from_name[case]
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    rng = np.random.RandomState(0)
    xs = rng.randn(*((b, 256) if model == "mlp" else (b, 1, 32, 32))).astype(np.float32)
    ys = rng.randint(0, 10, b).astype(np.int32)
    mlp, lenet = small_cells(ms.nn)
    net = mlp() if model == "mlp" else lenet()
    optimizer = ms.nn.SGD(net.trainable_params(), lr)
    grad_fn = ms.value_and_grad(net, None, optimizer.parameters)

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    step = ms.jit(train_step)
    x, y = ms.Tensor(xs), ms.Tensor(ys)
    return {
        "graph": lambda: step(x, y),
        "pynative": lambda: train_step(x, y),
        "step": step,
        "batch": (x, y),
        "net": net,
        "optimizer": optimizer,
    }


def sporax_sides(name: str, cfg: dict) -> dict:
    """The example model's train step on sporax (``mindspore`` aliased to it): see :func:`example_sides`."""
    from sporax import compat

    compat.alias_mindspore()
    return example_sides(name, cfg)


def example_sides(name: str, cfg: dict) -> dict:
    """The example model's train step: ``graph`` (zero-argument, one step in GRAPH_MODE, returns the loss),
    ``pynative`` (the same step run eagerly: call it in PYNATIVE_MODE), ``step`` (the step taking the batch
    Tensors ``batch``, for sinking), ``net`` (the network). Built on whatever ``mindspore`` imports: sporax
    after :func:`sporax_sides`'s alias, real MindSpore in its venv."""
    import importlib.util

    import mindspore as ms
    from mindspore import nn

    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    example = {
        "lstm": "sentiment_lstm_glove",
        "transformer": "transformer_lm",
        "resnet18": "resnet18_cifar10",
        "dcgan": "dcgan_mnist",
    }[name]
    spec = importlib.util.spec_from_file_location(example, os.path.join(ROOT, "examples", f"{example}.py"))
    ex = importlib.util.module_from_spec(spec)
    sys.modules[example] = ex  # MindSpore's graph parser imports the module of the functions it compiles
    spec.loader.exec_module(ex)
    data = {k: ms.Tensor(v) for k, v in batch_inputs(name, cfg).items()}
    if name == "lstm":
        net = ex.SentimentNet(cfg["vocab"], cfg["embed"], cfg["hidden"], 2, 2, data.pop("table").asnumpy(), 0.0)
        step = ex.make_train_step(net, lr=0.01)
        batch = (data["ids"], data["length"], data["label"])
        eager = step.__wrapped__
    elif name == "transformer":
        net, step = ex.build(cfg["vocab"], cfg["d_model"], cfg["nhead"], cfg["layers"], 4 * cfg["d_model"], cfg["seq"])
        step.set_train()  # dropout 0.1 on, as the example's train() runs it (and PyTorch's net.train())
        batch = (data["ids"], data["targets"])
        eager = step
    elif name == "resnet18":
        net = ex.resnet18(10, cfg["width"])
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), ex.optimizer(net, 0.1))
        step.set_train()
        batch = (data["x"], data["y"])
        eager = step
    else:
        _, dcgan = ex.build(cfg["nz"], cfg["ngf"], cfg["ndf"])

        def step(real, latent):
            return dcgan(real, latent)[0]

        batch = (data["real"], data["latent"])
        eager = step
        net = dcgan
    return {
        "graph": lambda: step(*batch),
        "pynative": lambda: eager(*batch),
        "step": step,
        "batch": batch,
        "net": net,
    }


def sporax_step(name: str, cfg: dict):
    """A zero-argument function running one train step of the example model and returning its loss."""
    return sporax_sides(name, cfg)["graph"]


# ------------------------------------------------------------------------------------------ PyTorch side
def torch_step(name: str, cfg: dict):
    """The same model and step in PyTorch (runs in the PyTorch venv). ``cfg`` may name a ``device`` (default
    ``"cpu"``) and an ``amp`` dtype (``"bf16"``, or ``"fp16"`` with a ``GradScaler``) for ``torch.autocast``."""
    import torch
    from torch import nn

    torch.manual_seed(0)
    device = cfg.get("device", "cpu")
    data = {k: torch.from_numpy(v).to(device) for k, v in batch_inputs(name, cfg).items()}
    if name == "lstm":

        class SentimentNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.embedding = nn.Embedding.from_pretrained(data.pop("table"), freeze=True)
                self.encoder = nn.LSTM(cfg["embed"], cfg["hidden"], num_layers=2, batch_first=True, bidirectional=True)
                self.decoder = nn.Linear(2 * cfg["hidden"], 2)

            def forward(self, ids):
                _, (h, _) = self.encoder(self.embedding(ids))
                return self.decoder(torch.cat((h[-2], h[-1]), 1))

        net = SentimentNet()
        opt = torch.optim.Adam([p for p in net.parameters() if p.requires_grad], lr=0.01)
        ids, label = data["ids"].long(), data["label"].long()

        def loss_fn():
            return nn.functional.cross_entropy(net(ids), label)

    elif name == "transformer":

        class TransformerLM(nn.Module):
            def __init__(self):
                super().__init__()
                d = cfg["d_model"]
                self.tok_emb = nn.Embedding(cfg["vocab"], d)
                self.pos_emb = nn.Embedding(cfg["seq"], d)
                self.dropout = nn.Dropout(0.1)
                layer = nn.TransformerEncoderLayer(
                    d, cfg["nhead"], 4 * d, 0.1, activation="gelu", batch_first=True, norm_first=True
                )
                self.encoder = nn.TransformerEncoder(
                    layer, cfg["layers"], norm=nn.LayerNorm(d), enable_nested_tensor=False
                )
                self.head = nn.Linear(d, cfg["vocab"])
                self.register_buffer("mask", torch.triu(torch.ones(cfg["seq"], cfg["seq"], dtype=torch.bool), 1))
                self.register_buffer("positions", torch.arange(cfg["seq"]))

            def forward(self, ids):
                x = self.dropout(self.tok_emb(ids) + self.pos_emb(self.positions))
                return self.head(self.encoder(x, mask=self.mask))

        net = TransformerLM()
        decay = [p for p in net.parameters() if p.ndim > 1]
        other = [p for p in net.parameters() if p.ndim <= 1]
        opt = torch.optim.AdamW(
            [{"params": decay, "weight_decay": 0.01}, {"params": other, "weight_decay": 0.0}],
            lr=3e-3,
            betas=(0.9, 0.99),
        )
        ids, targets = data["ids"].long(), data["targets"].long()

        def loss_fn():
            return nn.functional.cross_entropy(net(ids).reshape(-1, cfg["vocab"]), targets.reshape(-1))

    elif name == "resnet18":
        net = torch_resnet18(cfg["width"])
        decay = [p for n, p in net.named_parameters() if p.ndim > 1]
        other = [p for n, p in net.named_parameters() if p.ndim <= 1]
        opt = torch.optim.SGD([{"params": decay, "weight_decay": 1e-4}, {"params": other}], lr=0.1, momentum=0.9)
        x, y = data["x"], data["y"].long()

        def loss_fn():
            return nn.functional.cross_entropy(net(x), y)

    elif name in ("mlp", "lenet"):
        net = torch_small(name)
        opt = torch.optim.SGD(net.parameters(), lr=1e-3)
        x, y = data["x"], data["y"].long()

        def loss_fn():
            return nn.functional.cross_entropy(net(x), y)

    else:
        return torch_dcgan_step(cfg, data)
    net.train()
    net.to(device)  # the parameters keep their identity: the optimizer built above still holds them
    if cfg.get("compile"):
        net = torch.compile(net)
    if cfg.get("amp"):
        return _autocast_step(cfg["amp"], device, opt, loss_fn)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn()
        loss.backward()
        opt.step()
        return loss

    return step


def _autocast_step(amp: str, device: str, opt, loss_fn):
    """PyTorch's mixed-precision step: the forward and the loss under ``torch.autocast`` in bfloat16, or in
    float16 with a ``GradScaler`` (dynamic loss scaling, the update skipped on overflow)."""
    import torch

    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}[amp]
    scaler = torch.amp.GradScaler(device) if amp == "fp16" else None

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast(device, dtype=dtype):
            loss = loss_fn()
        if scaler is None:
            loss.backward()
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        return loss

    return step


def torch_small(name):
    """bench_train_step.py's MLP (seed 000) and LeNet5 in PyTorch."""
    from torch import nn

    if name == "mlp":
        return nn.Sequential(nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10))
    return nn.Sequential(
        nn.Conv2d(1, 6, 5),
        nn.ReLU(),
        nn.MaxPool2d(2, 2),
        nn.Conv2d(6, 16, 5),
        nn.ReLU(),
        nn.MaxPool2d(2, 2),
        nn.Flatten(),
        nn.Linear(400, 120),
        nn.ReLU(),
        nn.Linear(120, 84),
        nn.ReLU(),
        nn.Linear(84, 10),
    )


def torch_resnet18(width):
    from torch import nn

    def bn(c):
        return nn.BatchNorm2d(c, momentum=0.1, eps=1e-5)

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = bn(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = bn(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), bn(cout))

        def forward(self, x):
            out = self.bn2(self.conv2(nn.functional.relu(self.bn1(self.conv1(x)))))
            return nn.functional.relu(out + (x if self.down is None else self.down(x)))

    chans = [width, width * 2, width * 4, width * 8]
    layers = [nn.Conv2d(3, width, 3, 1, 1, bias=False), bn(width), nn.ReLU()]
    cin = width
    for cout, stride in zip(chans, [1, 2, 2, 2]):
        layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
        cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(chans[-1], 10)]
    return nn.Sequential(*layers)


def torch_dcgan_step(cfg, data):
    import torch
    from torch import nn

    nz, ngf, ndf = cfg["nz"], cfg["ngf"], cfg["ndf"]
    gen = nn.Sequential(
        nn.ConvTranspose2d(nz, ngf * 4, 7, 1, 0, bias=False),
        nn.BatchNorm2d(ngf * 4),
        nn.ReLU(),
        nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
        nn.BatchNorm2d(ngf * 2),
        nn.ReLU(),
        nn.ConvTranspose2d(ngf * 2, 1, 4, 2, 1, bias=False),
        nn.Tanh(),
    )
    disc = nn.Sequential(
        nn.Conv2d(1, ndf, 4, 2, 1, bias=False),
        nn.LeakyReLU(0.2),
        nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
        nn.BatchNorm2d(ndf * 2),
        nn.LeakyReLU(0.2),
        nn.Conv2d(ndf * 2, 1, 7, 1, 0, bias=False),
        nn.Flatten(),
    )
    opt_d = torch.optim.Adam(disc.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()
    real, latent = data["real"], data["latent"]

    def step():
        opt_d.zero_grad(set_to_none=True)
        out_real, out_fake = disc(real), disc(gen(latent).detach())
        loss_d = bce(out_real, torch.ones_like(out_real)) + bce(out_fake, torch.zeros_like(out_fake))
        loss_d.backward()
        opt_d.step()
        opt_g.zero_grad(set_to_none=True)
        out = disc(gen(latent))
        loss_g = bce(out, torch.ones_like(out))
        loss_g.backward()
        opt_g.step()
        return loss_d

    return step


def torch_worker() -> None:
    """Serve timing requests on stdin/stdout: {"model", "steps"[, "cfg"]} -> {"seconds", "loss"}; a ``cfg``
    (the shapes, default CONFIGS[model]) with ``"compile": true`` runs the model under ``torch.compile``.
    The first request of a configuration builds it and runs two warm-up steps (``warmup_s`` reports them:
    with torch.compile, its compile time)."""
    import resource

    import torch

    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    steps = {}
    for line in sys.stdin:
        req = json.loads(line)
        name = req["model"]
        cfg = req.get("cfg") or CONFIGS[name]
        key = json.dumps([name, cfg], sort_keys=True)
        reply = {"torch": torch.__version__}
        try:
            if key not in steps:
                start = time.perf_counter()
                steps[key] = torch_step(name, cfg)
                steps[key](), steps[key]()  # warm-up (and compile)
                reply["warmup_s"] = time.perf_counter() - start
            seconds, loss = timed(steps[key], req["steps"], lambda v: float(v.detach()))
            reply.update(seconds=seconds, loss=loss)
        except Exception as exc:  # noqa: BLE001  (reported to the driver: e.g. torch.compile without a compiler)
            reply["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        reply["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(reply), flush=True)


def timed(step, n, to_float):
    start = time.perf_counter()
    for _ in range(n):
        loss = step()
    value = to_float(loss)  # waits for the last step
    return (time.perf_counter() - start) / n, value


# ------------------------------------------------------------------------------------------------ driver
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="lstm,transformer,resnet18,dcgan")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--torch-python", default=TORCH_PYTHON)
    parser.add_argument("--torch-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.torch_worker:
        torch_worker()
        return
    os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

    worker = None
    if os.path.exists(args.torch_python):
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        worker = subprocess.Popen(
            [args.torch_python, os.path.abspath(__file__), "--torch-worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
    else:
        print(f"PyTorch venv not found ({args.torch_python}): timing sporax only.")

    def torch_round(name, n):
        worker.stdin.write(json.dumps({"model": name, "steps": n}) + "\n")
        worker.stdin.flush()
        return json.loads(worker.stdout.readline())

    affinity = sorted(os.sched_getaffinity(0))
    print(f"cores: {affinity}; rounds: {args.rounds}; median seconds per train step")
    print(f"{'model':<12} {'shapes':<58} {'sporax ms':>10} {'torch ms':>10} {'ratio':>7}")
    try:
        for name in args.models.split(","):
            cfg = CONFIGS[name]
            n = cfg["steps"]
            step = sporax_step(name, cfg)
            step().asnumpy()  # compile
            ours, theirs = [], []
            for _ in range(args.rounds):
                ours.append(timed(step, n, lambda v: float(v.asnumpy()))[0])
                if worker is not None:
                    theirs.append(torch_round(name, n)["seconds"])
            shapes = ",".join(f"{k}={v}" for k, v in cfg.items() if k != "steps")
            s = statistics.median(ours) * 1e3
            if theirs:
                t = statistics.median(theirs) * 1e3
                print(f"{name:<12} {shapes:<58} {s:>10.2f} {t:>10.2f} {s / t:>7.2f}", flush=True)
            else:
                print(f"{name:<12} {shapes:<58} {s:>10.2f} {'-':>10} {'-':>7}", flush=True)
    finally:
        if worker is not None:
            worker.stdin.close()
            worker.wait(timeout=60)


if __name__ == "__main__":
    main()
