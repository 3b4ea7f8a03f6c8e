"""Convolution/pooling lowerings on XLA:CPU, side by side: a train step (GRAPH_MODE ``@jit`` around
``value_and_grad`` + SGD), per step and inside ``scan_steps`` (sink mode). Models: ``lenet`` (LeNet5,
batch 32, 1x32x32) and ``cnn`` (four 3x3 convs of 16/32 channels on 3x32x32, batch 32, one max-pool).

Variants (DESIGN §5; ``sporax.ops._lowering.force_lowering``):

* ``plain``: ``lax.conv`` NCHW + ``reduce_window`` max-pool (autodiff: ``select_and_scatter``);
* ``laxconv``: ``lax.conv`` + the reshape max-pool with its mask VJP (the state before the CPU lowerings);
* ``gemm-noopt``: every conv as im2col + GEMM with a GEMM-written VJP, reshape max-pool, no compiler
  options;
* ``nhwc``: every conv as canonical NHWC/HWIO Eigen convolutions with a canonical VJP;
* ``auto``: what CPU runs by default (per conv: ``gemm`` for small im2col matrices, ``nhwc`` above),
  compiled with the options the lowerings request (YNNPACK library fusion for dots/convs only).

``plain``, ``laxconv`` and ``gemm-noopt`` compile without any compiler options.
All variants start from the same weights and must agree (loss and weights after the timed steps).
Timing rounds alternate between variants (this machine is shared); per-variant medians of process CPU
time (not wall time, which other processes inflate) are reported. Run pinned to one core:

    taskset -c 1 python bench/bench_conv.py
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import jax
import numpy as np

import sporax as ms
from sporax import Tensor, nn
from sporax._engine import scan_steps
from sporax.ops._lowering import force_lowering

VARIANTS = {  # conv lowering, max-pool lowering, compiler options (None: what the lowerings request)
    "plain": ("plain", "plain", {}),
    "laxconv": ("plain", "reshape", {}),
    "gemm-noopt": ("gemm", None, {}),
    "nhwc": ("nhwc", None, None),
    "auto": (None, None, None),
}


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


class CNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, has_bias=True)
        self.c2 = nn.Conv2d(16, 16, 3, has_bias=True)
        self.c3 = nn.Conv2d(16, 32, 3, stride=2, has_bias=True)
        self.c4 = nn.Conv2d(32, 32, 3, has_bias=True)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(32 * 8 * 8, 10)
        self.loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, x, y):
        h = self.relu(self.c2(self.relu(self.c1(x))))
        h = self.pool(self.relu(self.c4(self.relu(self.c3(h)))))
        return self.loss_fn(self.fc(self.flatten(h)), y)


MODELS = {"lenet": (LeNet5, (1, 32, 32)), "cnn": (CNN, (3, 32, 32))}


class Runner:
    """One variant: a per-step function and a sink function, traced under its lowering."""

    def __init__(self, name: str, model: type, init: dict, lr: float = 1e-2) -> None:
        self.name = name
        self.conv, self.pool, options = VARIANTS[name]
        self.net = model()
        for p in self.net.trainable_params():
            p.set_data(Tensor(init[p.name]))
        opt = nn.SGD(self.net.trainable_params(), lr)
        grad_fn = ms.value_and_grad(self.net, None, opt.parameters)

        def body(x, y):
            loss, grads = grad_fn(x, y)
            opt(grads)
            return loss

        self.step = ms.jit(body)
        self.sink = ms.jit(lambda xs, ys: scan_steps(lambda row: body(*row), (xs, ys)))
        for f in (self.step, self.sink):
            f.__sporax_jit__.compiler_options = options

    def __call__(self, fn, *args):
        with force_lowering(conv=self.conv, maxpool=self.pool):
            return fn(*args)

    def weights(self) -> dict:
        return {p.name: p.asnumpy() for p in self.net.trainable_params()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=list(MODELS), default="lenet")
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS))
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--steps", type=int, default=0, help="steps per timing round (per step and per sink)")
    ap.add_argument("--batch", type=int, default=32)
    args = ap.parse_args()
    print(f"jax {jax.__version__}, backend {jax.default_backend()}, affinity {sorted(os.sched_getaffinity(0))}")
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    model, chw = MODELS[args.model]
    init = {p.name: p.asnumpy() for p in model().trainable_params()}
    rng = np.random.RandomState(0)
    n = args.steps or {"lenet": 40, "cnn": 6}[args.model]
    xs = rng.randn(n, args.batch, *chw).astype(np.float32)
    ys = rng.randint(0, 10, (n, args.batch)).astype(np.int32)
    x, y, txs, tys = Tensor(xs[0]), Tensor(ys[0]), Tensor(xs), Tensor(ys)

    runners = [Runner(v, model, init) for v in args.variants]
    # numerics: the same first loss, then the same weights after one sink of n steps
    losses = [float(r(r.step, x, y)) for r in runners]
    for r in runners:
        for p in r.net.trainable_params():
            p.set_data(Tensor(init[p.name]))
    sinks = [r(r.sink, txs, tys).asnumpy() for r in runners]
    ref_w = runners[0].weights()
    for r, loss, s in zip(runners, losses, sinks):
        if not np.isclose(loss, losses[0], rtol=1e-5):
            raise SystemExit(f"{r.name}: first loss {loss} differs from {runners[0].name}'s {losses[0]}")
        np.testing.assert_allclose(s, sinks[0], rtol=2e-4, atol=1e-5, err_msg=f"{r.name}: sink losses")
        for k, v in r.weights().items():
            np.testing.assert_allclose(v, ref_w[k], rtol=2e-3, atol=2e-5, err_msg=f"{r.name}: {k} after a sink")
    print(f"numerics agree: first loss {losses[0]:.6f}, {n}-step sink losses and weights")

    cpu = {r.name: ([], []) for r in runners}
    wall = {r.name: ([], []) for r in runners}
    for _ in range(args.rounds):
        for r in runners:
            for k, (fn, a) in enumerate(((r.step, (x, y)), (r.sink, (txs, tys)))):
                reps = n if k == 0 else 1
                t, c = time.perf_counter(), time.process_time()
                for _ in range(reps):
                    out = r(fn, *a)
                out.asnumpy()
                cpu[r.name][k].append((time.process_time() - c) / n)
                wall[r.name][k].append((time.perf_counter() - t) / n)
    print(f"{'variant':<10}{'step ms (cpu)':>15}{'scan ms/step':>14}{'step ms (wall)':>16}{'scan (wall)':>13}")
    for r in runners:
        med = [statistics.median(v) * 1e3 for v in (*cpu[r.name], *wall[r.name])]
        print(f"{r.name:<10}{med[0]:>15.2f}{med[1]:>14.2f}{med[2]:>16.2f}{med[3]:>13.2f}")
    ms.set_context(mode=ms.PYNATIVE_MODE)


if __name__ == "__main__":
    main()
