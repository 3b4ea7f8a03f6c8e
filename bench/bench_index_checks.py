"""The cost of the index checks compiled into a train step (issues 13 and 17): the same step with and without
them, and the hand-written JAX+optax twin, side by side.

Inside a compiled program an out-of-range class index (or gather index) is an error flag the program returns;
sporax reads it later, never waiting for the step at its call (at the next call, at a host read, at the end of
a loop; ``sporax/_engine/_checks.py``), and raises naming the op, the index and the bound.
``SPORAX_INDEX_CHECKS=0`` compiles programs without the checks. The cases:

- ``lenet_b32``: LeNet5 (MindSpore's ModelZoo net) with ``SoftmaxCrossEntropyWithLogits(sparse=True)`` (its
  labels are the checked indices) and Momentum, ``TrainOneStepCell`` compiled by sporax;
- ``mlp_b1``, ``mlp_b256``: the seed's MLP at batch 1 and 256 (``CrossEntropyLoss``: its labels are the checked
  indices; SGD; the ``@jit`` step of ``bench_train_step.py``; at batch 1 the per-call plumbing is most of the
  step); with its JAX+optax twin.

Each round runs ``--steps`` steps per side and waits for the last one (``--read-loss``: reads the loss after
every step instead, as a loop printing it does). Rounds alternate between the sides (the shared machine's drift
cancels); the median per side, the median of the paired per-round ratios and each side's 10th percentile are
reported, for wall time and for the process's CPU time per step (steadier on a loaded machine).

    taskset -c 1 env OMP_NUM_THREADS=1 python bench/bench_index_checks.py [--cases lenet_b32,mlp_b1,mlp_b256]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np

import sporax as ms
from sporax import nn

ENV = "SPORAX_INDEX_CHECKS"


class LeNet5(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.flatten(x)
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


def _with_checks(checks: bool, build):
    """``build()`` with the checks on or off (the switch is read when a program is built: the first call)."""
    os.environ[ENV] = "1" if checks else "0"
    side = build()
    for _ in range(5):  # compile and warm up under this setting
        side()
    _wait(side())
    return side


def _wait(out) -> None:
    getattr(out, "_data", out).block_until_ready()


def lenet_sides(batch: int) -> dict:
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((batch, 1, 32, 32), dtype=np.float32))
    y = ms.Tensor(rng.integers(0, 10, batch).astype(np.int32))

    def build():
        ms.set_seed(1)
        net = LeNet5()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
        step.set_train()
        return lambda: step(x, y)

    return {"checks off": _with_checks(False, build), "checks on": _with_checks(True, build)}


def mlp_sides(case: str) -> dict:
    from bench_train_step import build_case  # the seed's MLP @jit step and its JAX+optax twin

    sides = {"checks off": _with_checks(False, lambda: build_case(case)["graph"])}
    both = {}
    sides["checks on"] = _with_checks(True, lambda: both.update(build_case(case)) or both["graph"])
    sides["jax twin"] = both["jax"]
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return sides


def run(sides: dict, steps: int, rounds: int, read_loss: bool) -> dict[str, dict[str, list[float]]]:
    """Per side, each round's wall time per step (``wall``) and this process's CPU time per step (``cpu``: every
    thread of it, XLA's included; other processes' load on the shared machine barely moves it)."""
    times: dict[str, dict[str, list[float]]] = {k: {"wall": [], "cpu": []} for k in sides}
    names = list(sides)
    for r in range(rounds):
        for name in names if r % 2 == 0 else reversed(names):
            step = sides[name]
            t0, c0 = time.perf_counter(), time.process_time()
            if read_loss:
                for _ in range(steps):
                    np.asarray(step())
            else:
                for _ in range(steps):
                    out = step()
                _wait(out)
            times[name]["wall"].append((time.perf_counter() - t0) / steps)
            times[name]["cpu"].append((time.process_time() - c0) / steps)
    return times


def report(case: str, times: dict[str, dict[str, list[float]]]) -> None:
    unit, scale = ("us", 1e6) if case.startswith("mlp") else ("ms", 1e3)
    for clock in ("wall", "cpu"):
        t = {k: v[clock] for k, v in times.items()}
        med = {k: statistics.median(v) for k, v in t.items()}
        p10 = {k: sorted(v)[len(v) // 10] for k, v in t.items()}
        sides = ", ".join(f"{k} {med[k] * scale:.3f} {unit} (p10 {p10[k] * scale:.3f})" for k in t)
        print(f"{case} [{clock}]: {sides}")
        pairs = [("checks on", "checks off")] + [
            (k, "jax twin") for k in ("checks on", "checks off") if "jax twin" in t
        ]
        for a, b in pairs:
            paired = statistics.median(x / y for x, y in zip(t[a], t[b], strict=True))
            print(f"  {a} / {b}: medians {med[a] / med[b]:.4f}, paired rounds {paired:.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default="lenet_b32,mlp_b1")
    ap.add_argument("--batch", type=int, default=32, help="LeNet5's batch")
    ap.add_argument("--rounds", type=int, default=101)
    ap.add_argument("--read-loss", action="store_true", help="read the loss on the host after every step")
    args = ap.parse_args()
    print(f"affinity {sorted(os.sched_getaffinity(0))}, read loss every step: {args.read_loss}")
    for case in args.cases.split(","):
        sides = lenet_sides(args.batch) if case == "lenet_b32" else mlp_sides(case)
        steps = {"lenet_b32": 10, "mlp_b256": 30}.get(case, 200)
        report(case, run(sides, steps, args.rounds, args.read_loss))


if __name__ == "__main__":
    main()
