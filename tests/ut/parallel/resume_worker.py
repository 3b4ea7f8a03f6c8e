"""Resume N -> M (run by test_resume_n_to_m.py in subprocesses on simulated CPU devices).

``save N DIR``: train a model-parallel MLP (column then row split over N devices) 3 steps in
SEMI_AUTO_PARALLEL, save each rank's slices and the strategy file (what every rank of a MindSpore job saves),
then train 3 more steps and print their losses.
``resume M DIR``: (a) an uninterrupted M-device run of 6 steps; (b) a fresh M-device job that loads the N
ranks' checkpoints (load_distributed_checkpoint with the N-rank strategy file) and trains 3 steps. Prints
the losses of (a)'s last 3 steps and of (b).
"""

import json
import os
import sys

import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops, parallel
from sporax.parallel import _checkpoint, _strategy

MODE, N, DIR = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = np.random.RandomState(0)
X = rng.randn(6, 16, 8).astype(np.float32)
Y = rng.randn(6, 16, 4).astype(np.float32)


class MLP(nn.Cell):
    def __init__(self, n, seed):
        super().__init__()
        r = np.random.RandomState(seed)
        self.w1 = Parameter(Tensor((r.randn(8, 16) * 0.3).astype(np.float32)), name="w1")
        self.w2 = Parameter(Tensor((r.randn(16, 4) * 0.3).astype(np.float32)), name="w2")
        self.mm1 = ops.MatMul().shard(((1, 1), (1, n)))
        self.mm2 = ops.MatMul().shard(((1, n), (n, 1)))

    def construct(self, x):
        return self.mm2(ops.relu(self.mm1(x, self.w1)), self.w2)


def job(n, seed=1):
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=n)
    net = MLP(n, seed)
    return nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))


def run(step, steps):
    return [float(step(Tensor(X[i]), Tensor(Y[i]))) for i in steps]


if MODE == "save":
    step = job(N)
    run(step, range(3))
    layouts = _strategy.save_strategy_file(step, os.path.join(DIR, "strategy.ckpt"), N)
    _checkpoint.save_rank_checkpoints(step, os.path.join(DIR, "ckpt"), "net", layouts)
    split = {k: lay.cuts() for k, lay in layouts.items() if k in ("w1", "w2")}
    print(json.dumps({"losses": run(step, range(3, 6)), "split": split}))
else:
    whole = run(job(N), range(6))[3:]
    step = job(N, seed=7)  # other initial weights: everything comes from the checkpoints
    files = [
        os.path.join(DIR, "ckpt", f"rank_{r}", f"net{r}.ckpt")
        for r in range(len(os.listdir(os.path.join(DIR, "ckpt"))))
    ]
    parallel.load_distributed_checkpoint(step, files, None, os.path.join(DIR, "strategy.ckpt"))
    print(json.dumps({"whole": whole, "resumed": run(step, range(3, 6)), "ranks": len(files)}))
