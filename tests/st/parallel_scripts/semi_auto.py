"""Semi-auto parallel across processes: run by tests/st/test_semi_auto_processes.py under `sporax launch -n 2`
(each process one CPU device, the mesh spanning both) and as one stand-alone process. A column- then
row-split MLP trains 3 steps with Momentum (every rank feeding the whole batch, full_batch=True; then each
rank its part of it, MindSpore's default), then with Adam and the parallel optimizer, a 2-stage pipeline, and Model.train
with a dataset sink; rank 0 (or the single process) saves the whole weights, gathered from the ranks."""

import os
import sys

import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops
from sporax._engine import _spmd
from sporax.communication import get_group_size, get_rank, init

OUT = sys.argv[1]
init()
n = get_group_size()
rng = np.random.RandomState(0)
X, Y = rng.randn(16, 8).astype(np.float32), rng.randn(16, 4).astype(np.float32)


class MLP(nn.Cell):
    def __init__(self, split):
        super().__init__()
        r = np.random.RandomState(1)
        self.w1 = Parameter(Tensor((r.randn(8, 16) * 0.3).astype(np.float32)), name="w1")
        self.w2 = Parameter(Tensor((r.randn(16, 4) * 0.3).astype(np.float32)), name="w2")
        self.mm1 = ops.MatMul().shard(((1, 1), (1, split))) if split > 1 else ops.MatMul()
        self.mm2 = ops.MatMul().shard(((1, split), (split, 1))) if split > 1 else ops.MatMul()

    def construct(self, x):
        return self.mm2(ops.relu(self.mm1(x, self.w1)), self.w2)


def train(opt_cls, full_batch, **ctx):
    """With full_batch every rank feeds the whole batch; without (MindSpore's default) each rank feeds its
    part, rank r rows [r * 16 / n, (r + 1) * 16 / n) (its dataset shard)."""
    ms.reset_auto_parallel_context()
    if n > 1:
        ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=n, full_batch=full_batch, **ctx)
    net = MLP(n)
    params = net.trainable_params()
    opt = opt_cls(params, 0.05, 0.9) if opt_cls is nn.Momentum else opt_cls(params, 0.01)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    rows = slice(None) if full_batch else slice(get_rank() * 16 // n, (get_rank() + 1) * 16 // n)
    for _ in range(3):
        step(Tensor(X[rows]), Tensor(Y[rows]))
    name = f"{opt_cls.__name__}_{'full' if full_batch else 'part'}"
    return {f"{name}_{p.name}": np.asarray(_spmd.gather_local(p._stored)) for p in params}


def train_pipeline():
    """A 2-stage pipeline over 2 micro-batches (PipelineCell, PipelineGradReducer), whole batch on each rank;
    one process trains the same PipelineCell."""
    ms.reset_auto_parallel_context()
    if n > 1:
        ms.set_auto_parallel_context(
            parallel_mode="semi_auto_parallel", device_num=n, full_batch=True, pipeline_stages=2
        )
    net = MLP(n)
    pp = nn.PipelineCell(nn.WithLossCell(net, nn.MSELoss()), 2)
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    reducer = nn.PipelineGradReducer(opt.parameters)
    grad_fn = ms.value_and_grad(pp, None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(reducer(grads))
        return loss

    for _ in range(3):
        step(Tensor(X), Tensor(Y))
    return {f"Pipeline_{p.name}": np.asarray(_spmd.gather_local(p._stored)) for p in net.trainable_params()}


def train_sink():
    """Model.train with a dataset sink: each rank reads its shard of every batch (num_shards / shard_id), the
    sink stacks the batches, and the step takes the ranks' parts as one batch (full_batch=False)."""
    import sporax.dataset as ds

    ms.reset_auto_parallel_context()
    if n > 1:
        ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=n)
    net = MLP(n)
    model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    data = ds.NumpySlicesDataset((X, Y), shuffle=False, num_shards=n, shard_id=get_rank()).batch(8 // n)
    model.train(1, data, dataset_sink_mode=True)
    return {f"Sink_{p.name}": np.asarray(_spmd.gather_local(p._stored)) for p in net.trainable_params()}


weights = {
    **train_sink(),
    **train_pipeline(),
    **train(nn.Momentum, True),
    **train(nn.Momentum, False),
    **train(nn.Adam, False, enable_parallel_optimizer=True),
}
if get_rank() == 0:
    np.savez(os.path.join(OUT, f"semi_{n}.npz"), **weights)
print("done", get_rank(), flush=True)
