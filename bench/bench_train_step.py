"""A GRAPH_MODE train step (seed 000 §2.1: global model and optimizer, ``@jit`` around
``value_and_grad`` + ``optimizer(grads)``) against a hand-written ``jax.jit`` + optax step, side by side.

Both sides compute the same model from the same initial weights with plain SGD. Timing rounds
alternate between the two (this machine is noisy), and the per-side median over rounds is reported.

Run pinned to one core, as the numbers in the README were measured:

    taskset -c 1 python bench/bench_train_step.py
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import jax
import jax.numpy as jnp
import numpy as np
import optax

import sporax as ms
from sporax import Tensor, nn


class MLP(nn.Cell):
    """Seed 000's network."""

    def __init__(self):
        super().__init__()
        self.mlp = nn.SequentialCell([nn.Dense(256, 128), nn.ReLU(), nn.Dense(128, 128), nn.ReLU(), nn.Dense(128, 10)])
        self.loss_fn = nn.CrossEntropyLoss()

    def construct(self, x, y):
        return self.loss_fn(self.mlp(x), y)


class LeNet5(nn.Cell):
    """ModelZoo LeNet5 (seed 003) with its loss."""

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


# ----------------------------------------------------------------- JAX twins
def jax_mlp(p, x, y):
    h = jax.nn.relu(x @ p["mlp.0.weight"].T + p["mlp.0.bias"])
    h = jax.nn.relu(h @ p["mlp.2.weight"].T + p["mlp.2.bias"])
    o = h @ p["mlp.4.weight"].T + p["mlp.4.bias"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(o), y[:, None], 1))


def _conv(x, w, b):
    y = jax.lax.conv_general_dilated(x, w, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW"))
    return y + b[None, :, None, None]


def _pool(x):
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")


def jax_lenet(p, x, y):
    h = _pool(jax.nn.relu(_conv(x, p["conv1.weight"], p.get("conv1.bias", jnp.zeros(6, jnp.float32)))))
    h = _pool(jax.nn.relu(_conv(h, p["conv2.weight"], p.get("conv2.bias", jnp.zeros(16, jnp.float32)))))
    h = h.reshape(h.shape[0], -1)
    h = jax.nn.relu(h @ p["fc1.weight"].T + p["fc1.bias"])
    h = jax.nn.relu(h @ p["fc2.weight"].T + p["fc2.bias"])
    o = h @ p["fc3.weight"].T + p["fc3.bias"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(o), y[:, None], 1))


CASES = {
    "mlp_b1": (MLP, jax_mlp, (1, 256), np.int32),
    "mlp_b256": (MLP, jax_mlp, (256, 256), np.int32),
    "lenet_b32": (LeNet5, jax_lenet, (32, 1, 32, 32), np.int32),
}


def build_case(name: str, lr: float = 1e-3) -> dict:
    """The sides of one case, each a zero-argument callable running one train step and returning its loss:
    ``graph`` (the seed's ``@jit`` step), ``pynative`` (the same function undecorated, for PYNATIVE_MODE),
    ``jax`` (the hand-written ``jax.jit`` + optax twin); ``batch`` is the (x, y) Tensors the steps take and
    ``step`` the ``@jit`` function itself (for sinking)."""
    cell_cls, jax_loss, xshape, ydtype = CASES[name]
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    rng = np.random.RandomState(0)
    xs = rng.randn(*xshape).astype(np.float32)
    ys = rng.randint(0, 10, xshape[0]).astype(ydtype)

    model = cell_cls()
    optimizer = nn.SGD(model.trainable_params(), lr)
    grad_fn = ms.value_and_grad(model, None, optimizer.parameters)

    @ms.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    params = {p.name: jnp.asarray(p.asnumpy()) for p in model.trainable_params()}
    tx = optax.sgd(lr)
    state = {"p": params, "s": tx.init(params)}

    @jax.jit
    def jax_step(p, s, x, y):
        loss, g = jax.value_and_grad(jax_loss)(p, x, y)
        updates, s = tx.update(g, s, p)
        return optax.apply_updates(p, updates), s, loss

    x, y = Tensor(xs), Tensor(ys)
    xj, yj = jnp.asarray(xs), jnp.asarray(ys)

    def jax_side():
        state["p"], state["s"], loss = jax_step(state["p"], state["s"], xj, yj)
        return loss

    # same numbers on both sides before timing anything
    l_ours = float(train_step(x, y))
    l_ref = float(jax_side())
    if not np.isclose(l_ours, l_ref, rtol=1e-4):
        raise SystemExit(f"{name}: the two steps disagree: {l_ours} vs {l_ref}")
    return {
        "graph": lambda: train_step(x, y),
        "pynative": lambda: train_step.__wrapped__(x, y),
        "jax": jax_side,
        "batch": (x, y),
        "step": train_step,
    }


def bench_case(name: str, steps: int, rounds: int, lr: float = 1e-3) -> tuple[float, float]:
    sides = build_case(name, lr)
    ours_fn, ref_fn = sides["graph"], sides["jax"]
    for _ in range(10):
        ours_fn(), ref_fn()

    ours, ref = [], []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(steps):
            loss = ours_fn()
        loss._data.block_until_ready()
        ours.append((time.perf_counter() - t) / steps)
        t = time.perf_counter()
        for _ in range(steps):
            l_ref = ref_fn()
        l_ref.block_until_ready()
        ref.append((time.perf_counter() - t) / steps)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return statistics.median(ours) * 1e6, statistics.median(ref) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", nargs="*", default=list(CASES))
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--seconds", type=float, default=0.3, help="target time per timing round per side")
    args = ap.parse_args()
    print(f"jax {jax.__version__}, backend {jax.default_backend()}, affinity {sorted(os.sched_getaffinity(0))}")
    print(f"{'case':<12}{'sporax us/step':>16}{'jax+optax us/step':>20}{'ratio':>8}")
    for name in args.cases:
        # size the rounds from a quick probe of the reference step
        steps = {"mlp_b1": 2000, "mlp_b256": 300, "lenet_b32": 100}[name]
        steps = max(10, int(steps * args.seconds / 0.3))
        ours, ref = bench_case(name, steps, args.rounds)
        print(f"{name:<12}{ours:>16.1f}{ref:>20.1f}{ours / ref:>8.2f}")


if __name__ == "__main__":
    main()
