"""One epoch of the main job on the full MNIST: the input pipeline + LeNet5 + Model.train, sporax against real
MindSpore 2.10 side by side.

    .venv/bin/python bench/bench_lenet_epoch.py [--mnist ../shared/data/mnist] [--epochs 2] [--cpus 0,1]
                                                [--sink-mode] [--runs 1]

Both sides run the very same script, examples/lenet_mnist.py (MnistDataset -> Resize(32, 32) -> Rescale ->
Rescale -> HWC2CHW -> TypeCast -> shuffle(10000) -> batch(32), LeNet5, Momentum(0.01, 0.9), GRAPH_MODE,
TimeMonitor/ModelCheckpoint/LossMonitor, then an evaluation): sporax under ``python -m sporax run``, MindSpore
under /work/ms-venv/bin/python (or $MS_PYTHON) when it exists. Each in its own process, one after the other,
pinned with ``taskset -c CPUS`` to the same cores. The MNIST files are gunzipped to a temporary folder first
(MindSpore reads only uncompressed IDX files). The time of an epoch is TimeMonitor's ``Train epoch time``;
the first epoch includes compilation on both sides, so the steady epoch (the best of the later ones) is what
the ratio compares.

    .venv/bin/python bench/bench_lenet_epoch.py --scan-check [--cpus 1]

times, in one process, the LeNet5 batch-32 train step called once per batch (what sink mode's "loop" strategy
does on CPU) against the same step inside ``scan_steps`` (one compiled program per sink, the "scan" strategy),
alternating rounds, median per side (DESIGN §5: XLA:CPU runs convolutions slowly inside loops).
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXAMPLE = os.path.join(ROOT, "examples", "lenet_mnist.py")
from _common import MS_PYTHON  # noqa: E402  (/work/msvenv or $MS_PYTHON)


def raw_mnist(src: str, dst: str) -> str:
    """MNIST's train/ and test/ folders with uncompressed IDX files."""
    for split in ("train", "test"):
        os.makedirs(os.path.join(dst, split), exist_ok=True)
        for name in os.listdir(os.path.join(src, split)):
            path = os.path.join(src, split, name)
            out = os.path.join(dst, split, name[:-3] if name.endswith(".gz") else name)
            if name.endswith(".gz"):
                with gzip.open(path, "rb") as f, open(out, "wb") as g:
                    shutil.copyfileobj(f, g)
            else:
                shutil.copyfile(path, out)
    return dst


def run(label: str, cmd: list[str], cpus: str, workdir: str) -> dict:
    full = ["taskset", "-c", cpus, *cmd] if shutil.which("taskset") else cmd
    print(f"[{label}] {' '.join(full)}", flush=True)
    load = os.getloadavg()[0]
    r = subprocess.run(full, capture_output=True, text=True, cwd=workdir)
    if r.returncode != 0:
        print(r.stdout[-2000:], r.stderr[-4000:], sep="\n")
        raise SystemExit(f"[{label}] failed with exit code {r.returncode}")
    epochs = [float(v) / 1000 for v in re.findall(r"Train epoch time: ([0-9.]+) ms", r.stdout)]
    acc = re.findall(r"Accuracy:\{'Accuracy': (?:np\.float64\()?([0-9.]+)", r.stdout)
    res = {"epochs": epochs, "accuracy": float(acc[-1]) if acc else None}
    # the machine's load before and after: other processes on these cores slow both sides (MindSpore's
    # spinning thread pools far more than XLA)
    print(
        f"[{label}] epoch seconds: {', '.join(f'{e:.2f}' for e in epochs)}; test accuracy {res['accuracy']}; "
        f"load average {load:.1f} -> {os.getloadavg()[0]:.1f}"
    )
    return res


def steady(epochs: list[float]) -> float:
    return min(epochs[1:]) if len(epochs) > 1 else epochs[0]


def scan_check(steps: int = 50, rounds: int = 5) -> None:
    import statistics
    import time

    import numpy as np

    sys.path.insert(0, os.path.join(ROOT, "examples"))
    import sporax as ms
    from sporax import Tensor, nn
    from sporax._engine import scan_steps
    from sporax.compat import alias_mindspore

    alias_mindspore()
    from lenet_mnist import LeNet5

    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    train.set_train()
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((steps, 32, 1, 32, 32)).astype(np.float32)
    ys = rng.integers(0, 10, (steps, 32)).astype(np.int32)
    rows = [(Tensor(x), Tensor(y)) for x, y in zip(xs, ys, strict=True)]
    stacked = (Tensor(xs), Tensor(ys))
    sink = ms.jit(lambda a, b: scan_steps(lambda r: train(*r), (a, b)))

    def loop() -> None:
        for r in rows:
            out = train(*r)
        out.asnumpy()

    def scan() -> None:
        sink(*stacked).asnumpy()

    loop(), scan()  # compile
    times: dict[str, list[float]] = {"loop": [], "scan": []}
    for _ in range(rounds):
        for name, fn in (("loop", loop), ("scan", scan)):
            t = time.perf_counter()
            fn()
            times[name].append((time.perf_counter() - t) / steps * 1e3)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"LeNet5 batch 32 train step, {steps} steps per round, median of {rounds} rounds:")
    print(f"  a compiled step per batch: {med['loop']:.2f} ms/step")
    print(f"  inside scan_steps:         {med['scan']:.2f} ms/step   (scan / loop = {med['scan'] / med['loop']:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mnist", default=os.path.join(os.path.dirname(ROOT), "shared", "data", "mnist"))
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--cpus", default="0,1")
    parser.add_argument("--sink-mode", action="store_true", help="sporax side with dataset_sink_mode=True")
    parser.add_argument("--runs", type=int, default=1, help="runs per side, alternating; the best counts")
    parser.add_argument("--no-mindspore", action="store_true")
    parser.add_argument("--scan-check", action="store_true", help="time the step inside and outside scan_steps")
    args = parser.parse_args()
    if args.scan_check:
        if shutil.which("taskset") and os.environ.get("_SPORAX_PINNED") != "1":
            env = dict(os.environ, _SPORAX_PINNED="1")
            cmd = ["taskset", "-c", args.cpus, sys.executable, os.path.abspath(__file__), "--scan-check"]
            raise SystemExit(subprocess.call(cmd, env=env))
        scan_check()
        return

    with tempfile.TemporaryDirectory() as tmp:
        data = raw_mnist(args.mnist, os.path.join(tmp, "mnist"))
        common = [EXAMPLE, "--epochs", str(args.epochs), "--data-dir", data, "--ckpt-dir", os.path.join(tmp, "ckpt")]
        sides = {
            "sporax": [sys.executable, "-m", "sporax", "run", *common, *(["--sink-mode"] if args.sink_mode else [])]
        }
        if not args.no_mindspore and os.path.exists(MS_PYTHON):
            sides["mindspore"] = [MS_PYTHON, *common]
        results: dict[str, list[dict]] = {k: [] for k in sides}
        for _ in range(args.runs):
            for label, cmd in sides.items():
                results[label].append(run(label, cmd, args.cpus, tmp))

    print()
    print(f"LeNet5, full MNIST (60000 images, 1875 steps of 32), pinned to CPUs {args.cpus}, {args.epochs} epochs")
    best = {}
    for label, runs in results.items():
        first = min(r["epochs"][0] for r in runs)
        best[label] = min(steady(r["epochs"]) for r in runs)
        print(
            f"  {label:<10} first epoch {first:7.2f} s   steady epoch {best[label]:7.2f} s   accuracy {runs[-1]['accuracy']}"
        )
    if "mindspore" in best:
        print(f"  ratio sporax / MindSpore (steady epoch): {best['sporax'] / best['mindspore']:.2f}")


if __name__ == "__main__":
    main()
