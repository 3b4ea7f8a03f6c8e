"""Per-step communication volume of semi-auto parallel strategies for a 4-layer MLP, on simulated CPU devices,
against the analytic figure.

One train step (loss and gradients in one pass with ``value_and_grad``, then a Momentum update) of a 4-layer
MLP (batch B, width H, float32, no biases) is compiled in SEMI_AUTO_PARALLEL over N devices with one of these
strategies. The bytes each device receives per step are counted from the collectives of the compiled,
SPMD-partitioned program (XLA's HLO dump: the result shapes of all-reduce / all-gather / reduce-scatter /
all-to-all / collective-permute, ``sporax._engine._spmd.comm_bytes``) and compared with:

- data parallel (the batch split over N, weights copied): the weight gradients all-reduced, 4 H^2 floats;
- sharded optimizer (data parallel + ``enable_parallel_optimizer``: each device keeps and updates 1/N of each
  weight's Momentum state and of the weight): the new weights all-gathered, 4 H^2 floats, and the gradients
  reduced: XLA:CPU all-reduces them (4 H^2) and slices; a reduce-scatter (4 H^2 / N) where the backend
  prefers it;
- column model parallel (every weight split along its output axis): each layer but the first all-gathers
  its input activations in the forward pass and all-reduces their gradient in the backward pass,
  3 B H + 3 B H floats;
- column/row (Megatron: layers alternate column and row splits): each row-split layer all-reduces its
  partial output (2 B H), each column-split layer but the first all-reduces its input gradient (1 B H).

The step is given the whole batch (``full_batch=True``; by default the batch arrives split over the devices,
MindSpore's data-parallel dataset layout, and the model-parallel strategies add the gathering of the input).
The loss's all-reduce (4 bytes) is measured and not in the analytic column; "ratio" compares the collectives
the analytic figure names.

    python bench/bench_parallel_comm.py [N]      # N simulated devices (default 4)
"""

from __future__ import annotations

import glob
import os
import sys
import tempfile

N = int(sys.argv[1]) if len(sys.argv) > 1 else 4
DUMP = tempfile.mkdtemp(prefix="sporax_comm_")
os.environ["XLA_FLAGS"] = (
    os.environ.get("XLA_FLAGS", "")
    + f" --xla_force_host_platform_device_count={N} --xla_dump_to={DUMP} --xla_dump_hlo_as_text"
)

import numpy as np  # noqa: E402

import sporax as ms  # noqa: E402
from sporax import Parameter, Tensor, nn, ops  # noqa: E402
from sporax._engine import _spmd  # noqa: E402
from sporax.parallel._shard import shard_optimizer_state  # noqa: E402

B, H, LAYERS = 64, 256, 4
F32 = 4


class MLP(nn.Cell):
    def __init__(self, strategies):
        super().__init__()
        r = np.random.RandomState(0)
        self.weights = [
            Parameter(Tensor((r.randn(H, H) / np.sqrt(H)).astype(np.float32)), name=f"w{i}") for i in range(LAYERS)
        ]
        for i, p in enumerate(self.weights):
            setattr(self, f"w{i}", p)
        self.mms = [ops.MatMul().shard(s) if s else ops.MatMul() for s in strategies]

    def construct(self, x):
        for i in range(LAYERS):
            x = self.mms[i](x, getattr(self, f"w{i}"))
            if i < LAYERS - 1:
                x = ops.relu(x)
        return x


def measure(strategies, **ctx):
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=N, full_batch=True, **ctx)
    net = MLP(strategies)
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    shard_optimizer_state(opt)  # what TrainOneStepCell does; this step computes the loss once (value_and_grad)
    grad_fn = ms.value_and_grad(nn.WithLossCell(net, nn.MSELoss()), None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    before = set(glob.glob(os.path.join(DUMP, "*after_optimizations.txt")))
    rng = np.random.RandomState(1)
    for _ in range(2):  # the second step runs on the layouts the first one left (the steady state)
        step(Tensor(rng.randn(B, H).astype(np.float32)), Tensor(rng.randn(B, H).astype(np.float32)))
    new = sorted(set(glob.glob(os.path.join(DUMP, "*jit_run*after_optimizations.txt"))) - before)
    with open(new[-1]) as f:  # the step compiled last
        text = f.read()
    return _spmd.comm_bytes(text)


def main() -> None:
    weights = LAYERS * H * H * F32
    act = B * H * F32
    dp = ((N, 1), (1, 1))
    col = ((1, 1), (1, N))
    row = ((1, N), (N, 1))
    cases = [
        ("data parallel", [dp] * LAYERS, {}, {"all-reduce": weights}),
        ("sharded optimizer", [dp] * LAYERS, {"enable_parallel_optimizer": True},
         {"all-gather": weights, "all-reduce": weights}),
        ("column model parallel", [col] * LAYERS, {}, {"all-gather": (LAYERS - 1) * act, "all-reduce": (LAYERS - 1) * act}),
        ("column/row (Megatron)", [col, row] * (LAYERS // 2), {}, {"all-reduce": (LAYERS // 2) * act + (LAYERS // 2 - 1) * act}),
    ]  # fmt: skip
    print(f"4-layer MLP, batch {B}, width {H}, float32, {N} simulated CPU devices; bytes per device per step")
    print(f"{'strategy':24s} {'measured':>10s} {'analytic':>10s}  ratio  by collective")
    for name, strategies, ctx, analytic in cases:
        got = measure(strategies, **ctx)
        want = sum(analytic.values())
        main_kinds = sum(got.get(k, 0) for k in analytic)  # the loss scalar (4 bytes) is not in the analytic figure
        detail = ", ".join(f"{k} {v:,}" for k, v in sorted(got.items()))
        print(f"{name:24s} {sum(got.values()):>10,} {want:>10,}  {main_kinds / want:5.3f}  {detail}")


if __name__ == "__main__":
    main()
