"""Resident memory does not grow with steps (issue 17): the seed MLP's batch-1 GRAPH train step over 2,000
steps, and 50 ``Model.train`` calls. A test, not a timing: after a warm-up, the process's RSS (VmRSS) may
move by allocator noise only. The long versions (20,000 steps, 200 calls) run with SPORAX_RUN_SLOW=1:

    SPORAX_RUN_SLOW=1 python -m pytest -q -p no:cacheprovider tests/st/test_memory_growth.py
"""

from __future__ import annotations

import gc
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.dataset import NumpySlicesDataset
from sporax.train import Model

MIB = 1024 * 1024


def rss() -> int:
    gc.collect()
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


class MLP(nn.Cell):
    """Seed 000's network with its loss."""

    def __init__(self):
        super().__init__()
        self.mlp = nn.SequentialCell([nn.Dense(256, 128), nn.ReLU(), nn.Dense(128, 128), nn.ReLU(), nn.Dense(128, 10)])
        self.loss_fn = nn.CrossEntropyLoss()

    def construct(self, x, y):
        return self.loss_fn(self.mlp(x), y)


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _step_growth(steps: int) -> int:
    ms.set_seed(0)
    model = MLP()
    optimizer = nn.SGD(model.trainable_params(), 1e-3)
    grad_fn = ms.value_and_grad(model, None, optimizer.parameters)

    @ms.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((1, 256)).astype(np.float32))
    y = Tensor(np.array([3], np.int32))
    for _ in range(300):  # warm-up: compile, allocator pools
        loss = train_step(x, y)
    loss.asnumpy()
    before = rss()
    for _ in range(steps):
        loss = train_step(x, y)
    assert np.isfinite(loss.asnumpy())
    return rss() - before


def _train_growth(calls: int) -> int:
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(16, 8), nn.ReLU(), nn.Dense(8, 4)])
    rng = np.random.default_rng(0)
    data = {
        "x": rng.standard_normal((64, 16)).astype(np.float32),
        "y": rng.integers(0, 4, (64,)).astype(np.int32),
    }
    dataset = NumpySlicesDataset(data, shuffle=False).batch(16)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9))
    for _ in range(5):  # warm-up
        model.train(1, dataset, dataset_sink_mode=False)
    before = rss()
    for _ in range(calls):
        model.train(1, dataset, dataset_sink_mode=False)
    return rss() - before


def test_step_rss_flat_2000_steps(graph_mode):
    growth = _step_growth(2000)
    assert growth < 8 * MIB, f"RSS grew {growth / MIB:.1f} MiB over 2,000 steps"


def test_model_train_rss_flat_50_calls(graph_mode):
    growth = _train_growth(50)
    assert growth < 12 * MIB, f"RSS grew {growth / MIB:.1f} MiB over 50 Model.train calls"


SLOW = pytest.mark.skipif(not os.environ.get("SPORAX_RUN_SLOW"), reason="slow: set SPORAX_RUN_SLOW=1")


@SLOW
def test_step_rss_flat_20000_steps(graph_mode):
    growth = _step_growth(20000)
    assert growth < 8 * MIB, f"RSS grew {growth / MIB:.1f} MiB over 20,000 steps"


@SLOW
def test_model_train_rss_flat_200_calls(graph_mode):
    growth = _train_growth(200)
    assert growth < 12 * MIB, f"RSS grew {growth / MIB:.1f} MiB over 200 Model.train calls"
