"""Data-parallel training written as MindSpore users write it; saves this rank's final weights.

usage: train.py STYLE MODE OUT_DIR
  STYLE: cell (TrainOneStepCell), functional (value_and_grad + DistributedGradReducer), model, model_sink
  MODE: graph | pynative
With one process it trains on the whole batch; with N ranks, rank i on its 1/N shard of each batch.
"""

import os
import sys

import mindspore as ms
import mindspore.dataset as ds
import numpy as np
from mindspore import Tensor, nn
from mindspore.communication import get_group_size, get_rank, init

style, mode, out_dir = sys.argv[1:4]
ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
init()
rank, size = get_rank(), get_group_size()
if size > 1:
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
ms.set_seed(1)

rng = np.random.RandomState(0)
X = rng.rand(48, 8).astype(np.float32)
Y = rng.randint(0, 3, 48).astype(np.int32)
GLOBAL_BATCH, STEPS = 8, 6


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(8, 16)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(16, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


net = Net()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)


def shard(k):
    """This rank's rows of global batch k (rank i takes rows i, i+N, ... as MindSpore's shards do)."""
    rows = np.arange(k * GLOBAL_BATCH, (k + 1) * GLOBAL_BATCH)[rank::size]
    return Tensor(X[rows]), Tensor(Y[rows])


losses = []
if style == "cell":
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    for k in range(STEPS):
        losses.append(float(step(*shard(k)).asnumpy()))
elif style == "functional":

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)
    reducer = nn.DistributedGradReducer(opt.parameters)

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(reducer(grads))
        return loss

    if mode == "graph":
        train_step = ms.jit(train_step)
    for k in range(STEPS):
        losses.append(float(train_step(*shard(k)).asnumpy()))
else:
    data = ds.NumpySlicesDataset(
        {"x": X[: STEPS * GLOBAL_BATCH], "y": Y[: STEPS * GLOBAL_BATCH]},
        shuffle=False,
        num_shards=size if size > 1 else None,
        shard_id=rank if size > 1 else None,
    ).batch(GLOBAL_BATCH // size)
    model = ms.Model(net, loss_fn, opt)
    model.train(1, data, dataset_sink_mode=style == "model_sink")

np.save(
    os.path.join(out_dir, f"w_{size}_{rank}.npy"), np.concatenate([p.asnumpy().ravel() for p in net.get_parameters()])
)
print("losses", rank, losses, flush=True)
