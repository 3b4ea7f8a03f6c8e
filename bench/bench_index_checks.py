"""The cost of the index checks compiled into a train step (issue 13): a LeNet5 step with and without them.

Inside a compiled program an out-of-range class index (or gather index) is an error flag the program returns;
sporax reads it after the step and raises naming the op, the index and the bound (``sporax/_engine/_checks.py``).
``SPORAX_INDEX_CHECKS=0`` compiles programs without the checks. This compares the two programs of the same
step: LeNet5 (MindSpore's ModelZoo net) with ``SoftmaxCrossEntropyWithLogits(sparse=True)`` (its labels are the
checked indices) and Momentum, ``TrainOneStepCell`` compiled by sporax, the loss read after every step (as a
loop printing it does). Rounds alternate between the sides; the median per side and the ratio are reported.

    taskset -c 1 env OMP_NUM_THREADS=1 python bench/bench_index_checks.py
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import numpy as np

import sporax as ms
from sporax import nn


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


def make_step(checks: bool):
    """A compiled LeNet5 train step, built (and compiled) with the checks on or off."""
    os.environ["SPORAX_INDEX_CHECKS"] = "1" if checks else "0"
    ms.set_seed(1)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    step.set_train()
    return step


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=101)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((args.batch, 1, 32, 32), dtype=np.float32))
    y = ms.Tensor(rng.integers(0, 10, args.batch).astype(np.int32))
    steps = {"checks off": make_step(False), "checks on": make_step(True)}
    for name, step in steps.items():  # compile each side with its own setting, then warm up
        os.environ["SPORAX_INDEX_CHECKS"] = "1" if name == "checks on" else "0"
        for _ in range(5):
            step(x, y).asnumpy()
    times: dict[str, list[float]] = {k: [] for k in steps}
    for r in range(args.rounds):  # short rounds, alternating sides: the shared machine's drift cancels
        order = list(steps) if r % 2 == 0 else list(reversed(steps))
        for name in order:
            step = steps[name]
            t0 = time.perf_counter()
            for _ in range(args.steps):
                step(x, y).asnumpy()
            times[name].append((time.perf_counter() - t0) / args.steps)
    off = statistics.median(times["checks off"])
    on = statistics.median(times["checks on"])
    # each round's two sides ran back to back: the median of their ratios is the least sensitive to load
    paired = statistics.median(a / b for a, b in zip(times["checks on"], times["checks off"], strict=True))
    print(f"LeNet5 train step, batch {args.batch}: checks off {off * 1e3:.3f} ms, checks on {on * 1e3:.3f} ms")
    print(f"ratio on/off: {on / off:.4f} ({(on / off - 1) * 100:+.2f} %); paired rounds: {(paired - 1) * 100:+.2f} %")
    # on a loaded machine the fast tail is the least disturbed: the 10th percentile of each side
    p10 = {k: sorted(v)[len(v) // 10] for k, v in times.items()}
    print(f"10th percentile: off {p10['checks off'] * 1e3:.3f} ms, on {p10['checks on'] * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
