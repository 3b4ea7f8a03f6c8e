"""Data-parallel LeNet5 train step: one process vs `sporax launch -n N` (GRAPH_MODE, batch 32 per rank).

    python bench/bench_data_parallel.py [--ranks 2] [--steps 200]

Prints ms/step of each rank and images/s of the whole run, for 1 process and for N ranks, measured one
after the other in this run. Each rank is a separate process with its own XLA:CPU thread pool, and the
gradients are averaged with one Gloo all-reduce per step.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

STEP_SCRIPT = r"""
import sys, time
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor
from mindspore.communication import init, get_rank, get_group_size
sys.path.insert(0, {examples!r})
from lenet_mnist import LeNet5
ms.set_context(mode=ms.GRAPH_MODE)
init()
if get_group_size() > 1:
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
ms.set_seed(1)
net = LeNet5()
loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
rng = np.random.RandomState(get_rank())
x = Tensor(rng.rand(32, 1, 32, 32).astype(np.float32)); y = Tensor(rng.randint(0, 10, 32).astype(np.int32))
for _ in range(10):
    step(x, y)
t = time.perf_counter()
for _ in range({steps}):
    out = step(x, y)
out.asnumpy()
print("RESULT", get_rank(), (time.perf_counter() - t) / {steps} * 1e3, flush=True)
"""


def run(cmd: list[str]) -> list[float]:
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [float(v) for v in re.findall(r"RESULT \d+ (\S+)", out)]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--steps", type=int, default=200)
    a = p.parse_args()
    examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "examples")
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "step.py")
        with open(script, "w") as f:
            f.write(STEP_SCRIPT.format(examples=os.path.abspath(examples), steps=a.steps))
        one = run([sys.executable, "-m", "sporax", "run", script])
        many = run([sys.executable, "-m", "sporax", "launch", "-n", str(a.ranks), script])
    print(f"cores: {os.cpu_count()}")
    print(f"1 process : {one[0]:.2f} ms/step, {32 / one[0] * 1e3:.0f} images/s")
    slowest = max(many)
    print(
        f"{a.ranks} ranks   : {', '.join(f'{v:.2f}' for v in many)} ms/step, "
        f"{32 * a.ranks / slowest * 1e3:.0f} images/s ({32 * a.ranks / slowest / (32 / one[0]):.2f}x)"
    )


if __name__ == "__main__":
    main()
