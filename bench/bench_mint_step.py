"""A train step written in `mint` against the same step written with `nn`/`ops`, side by side (issue 15: the
mint dialect is a thin layer, so both should compile to the same speed).

The seed MLP (256 -> 128 -> 128 -> 10, ReLU, cross entropy), one `@jit` step around `value_and_grad` and the
optimizer: `mint.nn.Linear` + `mint.nn.functional.cross_entropy` + `mint.optim.AdamW` on one side,
`nn.Dense` + `nn.CrossEntropyLoss` + `nn.AdamWeightDecay` on the other (the same per-parameter work: two
moments, decoupled weight decay). Rounds alternate between the sides; the median per side is reported.

    taskset -c 1 python bench/bench_mint_step.py
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import numpy as np

import sporax as ms
from sporax import mint, nn
from sporax.mint.nn import functional as F


class MintMLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = mint.nn.Linear(256, 128)
        self.fc2 = mint.nn.Linear(128, 128)
        self.fc3 = mint.nn.Linear(128, 10)

    def construct(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


class NnMLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mlp = nn.SequentialCell([nn.Dense(256, 128), nn.ReLU(), nn.Dense(128, 128), nn.ReLU(), nn.Dense(128, 10)])

    def construct(self, x):
        return self.mlp(x)


def make_mint_step():
    net = MintMLP()
    opt = mint.optim.AdamW(net.trainable_params(), lr=1e-3)
    grad_fn = ms.value_and_grad(lambda x, y: F.cross_entropy(net(x), y), None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    return step


def make_nn_step():
    net = NnMLP()
    loss_fn = nn.CrossEntropyLoss()
    opt = nn.AdamWeightDecay(net.trainable_params(), learning_rate=1e-3, weight_decay=1e-2)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    return step


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--steps", type=int, default=50)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((args.batch, 256)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, args.batch).astype(np.int32))
    sides = {"mint": make_mint_step(), "nn": make_nn_step()}
    for step in sides.values():
        for _ in range(20):
            step(x, y).asnumpy()
    times: dict[str, list[float]] = {k: [] for k in sides}
    for _ in range(args.rounds):
        for name, step in sides.items():
            t0 = time.perf_counter()
            for _ in range(args.steps):
                loss = step(x, y)
            loss.asnumpy()
            times[name].append((time.perf_counter() - t0) / args.steps * 1e6)
    m, n = statistics.median(times["mint"]), statistics.median(times["nn"])
    print(f"MLP batch {args.batch}: mint {m:.1f} us/step, nn {n:.1f} us/step, mint/nn {m / n:.3f}")


if __name__ == "__main__":
    main()
