"""Semi-auto parallel checks on simulated CPU devices, run in a subprocess by test_semi_auto.py (the device
count is fixed when JAX starts: ``XLA_FLAGS=--xla_force_host_platform_device_count=N``).

Each case trains a small network for a few steps twice: stand-alone (one device) and in SEMI_AUTO_PARALLEL
over all N devices with its strategies; it reports the largest weight difference, the layouts the weights
ended with, and the collectives in the compiled step (XLA's dump, ``--xla_dump_to``). Prints one JSON line.
"""

import glob
import json
import os
import sys

import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops
from sporax._engine import _spmd

N = int(sys.argv[1])
DUMP = sys.argv[2]
STEPS = 3
rng = np.random.RandomState(0)
X = rng.randn(16, 8).astype(np.float32)
Y = rng.randn(16, 4).astype(np.float32)
W1 = (rng.randn(8, 16) * 0.3).astype(np.float32)
W2 = (rng.randn(16, 4) * 0.3).astype(np.float32)


class MLP(nn.Cell):
    """Two MatMuls: the first column-split (its weight's output axis), the second row-split (its weight's
    input axis, a partial sum that XLA all-reduces)."""

    def __init__(self, s1=None, s2=None):
        super().__init__()
        self.w1 = Parameter(Tensor(W1), name="w1")
        self.w2 = Parameter(Tensor(W2), name="w2")
        self.mm1, self.mm2 = ops.MatMul(), ops.MatMul()
        if s1:
            self.mm1.shard(s1)
        if s2:
            self.mm2.shard(s2)
        self.relu = ops.ReLU()

    def construct(self, x):
        return self.mm2(self.relu(self.mm1(x, self.w1)), self.w2)


def standalone():
    ms.reset_auto_parallel_context()


def semi(**kw):
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=N, **kw)


def train(net, opt_cls=nn.Momentum, loss_scale=1.0, steps=STEPS, wrap=None):
    loss = nn.MSELoss()
    with_loss = wrap(net) if wrap else nn.WithLossCell(net, loss)
    opt = (
        opt_cls(net.trainable_params(), 0.05, 0.9) if opt_cls is nn.Momentum else opt_cls(net.trainable_params(), 0.01)
    )
    step = nn.TrainOneStepCell(with_loss, opt, sens=loss_scale)
    losses = [float(step(Tensor(X), Tensor(Y))) for _ in range(steps)]
    return losses, opt


def weights(net):
    return {p.name: p.asnumpy() for p in net.trainable_params()}


def diff(a, b):
    return max(float(np.abs(a[k] - b[k]).max()) for k in a)


def spec(p):
    s = getattr(p._stored.sharding, "spec", None)
    mesh = getattr(p._stored.sharding, "mesh", None)
    if s is None:
        return None
    # the number of parts each dimension is cut into
    return [int(np.prod([mesh.shape[a] for a in ((e,) if isinstance(e, str) else (e or ()))])) for e in s] + [1] * (
        p.ndim - len(s)
    )


def comm_of_last_step():
    """Bytes per collective kind in the newest compiled train step (XLA's dump)."""
    files = sorted(glob.glob(os.path.join(DUMP, "*after_optimizations.txt")), key=os.path.getmtime)
    text = open(files[-1]).read() if files else ""
    return _spmd.comm_bytes(text)


out = {}

# 1. tuple strategies: column split then row split (model parallel over all N devices)
standalone()
ref = MLP()
ref_losses, _ = train(ref)
# full_batch: the step's inputs come whole (by default they arrive split along the batch, as MindSpore's
# data-parallel dataset layout, and would be gathered for these strategies)
semi(full_batch=True, strategy_ckpt_config={"save_file": os.path.join(os.path.dirname(DUMP), "strategy.ckpt")})
net = MLP(((1, 1), (1, N)), ((1, N), (N, 1)))
losses, _ = train(net)
strategy_file = {
    k: [list(v.dev_matrix[0].dim), list(v.tensor_map[0].dim)]
    for k, v in ms.parallel.build_searched_strategy(os.path.join(os.path.dirname(DUMP), "strategy.ckpt")).items()
}
out["mp"] = {
    "strategy_file": strategy_file,
    "diff": diff(weights(ref), weights(net)),
    "loss_diff": float(np.abs(np.array(ref_losses) - losses).max()),
    "w1": spec(net.w1),
    "w2": spec(net.w2),
    "comm": comm_of_last_step(),
}

# 2. layouts: data parallel x model parallel on a 2 x N/2 device matrix
layout = ms.Layout((2, N // 2), ("dp", "mp"))
net = MLP((layout("dp", "None"), layout("None", "mp")), (layout("dp", "mp"), layout("mp", "None")))
losses, _ = train(net)
moved = ms.reshard(Tensor(X), layout("dp", "mp"))
out["layout"] = {
    "diff": diff(weights(ref), weights(net)),
    "w1": spec(net.w1),
    "w2": spec(net.w2),
    "reshard": spec(Parameter(moved, name="r")),
    "reshard_value": float(np.abs(moved.asnumpy() - X).max()),
}

# 3. Cell.shard with a parameter plan, and ms.shard on a function
net = MLP()
net.shard(in_strategy=((N, 1),), parameter_plan={"self.w1": (1, N)})
placed = spec(net.w1)
losses, _ = train(net)
f = ms.shard(lambda a, b: ops.matmul(a, b), in_strategy=((N, 1), (1, 1)))
prod = f(Tensor(X), Tensor(W1))
out["cell_shard"] = {
    "diff": diff(weights(ref), weights(net)),
    "placed": placed,
    "fn": float(np.abs(prod.asnumpy() - X @ W1).max()),
    "fn_cut": spec(Parameter(prod, name="p")),
}

# 4. the parallel optimizer: Adam's moments split along dimension 0 over N / 2 devices
standalone()
ref_adam = MLP()
train(ref_adam, nn.Adam)
semi(enable_parallel_optimizer=True, parallel_optimizer_config={"optimizer_weight_shard_size": N // 2})
net = MLP()
_, opt = train(net, nn.Adam)
out["opt_shard"] = {
    "diff": diff(weights(ref_adam), weights(net)),
    "moment": spec(opt.moment1[0]),
    "comm": comm_of_last_step(),
}

# 4b. the same Adam in a functional step (value_and_grad + the optimizer in jit): split at its first update
net = MLP()
adam = nn.Adam(net.trainable_params(), 0.01)
grad_fn = ms.value_and_grad(nn.WithLossCell(net, nn.MSELoss()), None, adam.parameters)


@ms.jit
def adam_step(x, y):
    loss, grads = grad_fn(x, y)
    adam(grads)
    return loss


for _ in range(STEPS):
    adam_step(Tensor(X), Tensor(Y))
out["opt_shard"]["functional_diff"] = diff(weights(ref_adam), weights(net))
out["opt_shard"]["functional_moment"] = spec(adam.moment1[0])

# 5. a 2-stage pipeline over 2 micro-batches: the loss is the sum of the micro-batches' mean losses, which is
# twice the whole batch's mean; PipelineGradReducer hands the accumulated gradient to the optimizer.
standalone()
ref_pp = MLP()
train(ref_pp, loss_scale=2.0)  # the whole batch with the loss scaled by the number of micro-batches
semi(pipeline_stages=2)
net = MLP()
net.mm1_stage = None
pp = nn.PipelineCell(nn.WithLossCell(net, nn.MSELoss()), 2)
net.pipeline_stage = 0
opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
reducer = nn.PipelineGradReducer(opt.parameters)
grad_fn = ms.value_and_grad(pp, None, opt.parameters)


@ms.jit
def pp_step(x, y):
    loss, grads = grad_fn(x, y)
    opt(reducer(grads))
    return loss


pp_losses = [float(pp_step(Tensor(X), Tensor(Y))) for _ in range(STEPS)]
mbi = nn.MicroBatchInterleaved(nn.WithLossCell(MLP(), nn.MSELoss()), 4)
out["pipeline"] = {
    "diff": diff(weights(ref_pp), weights(net)),
    "loss0": pp_losses[0],
    "interleaved": float(mbi(Tensor(X), Tensor(Y))),
}
# 6. AUTO_PARALLEL without a strategy (search_mode accepted): the inputs arrive split along the batch
# (full_batch=False, the data-parallel dataset layout) and XLA's propagation makes the step data parallel:
# the weight gradients (8 x 16 + 16 x 4 float32) are all-reduced
standalone()
ms.set_auto_parallel_context(parallel_mode="auto_parallel", search_mode="sharding_propagation", device_num=N)
net = MLP()
train(net)
out["auto"] = {"diff": diff(weights(ref), weights(net)), "comm": comm_of_last_step()}

# 6b. dataset_strategy: one strategy per step input (the inputs' layout when full_batch is off)
ms.set_auto_parallel_context(dataset_strategy=((2, N // 2), (N, 1)))
laid = _spmd.global_inputs([np.ones((8, 8), np.float32), np.ones((8, 4), np.float32), np.float32(1)])
out["dataset_strategy"] = [spec(Parameter(Tensor(a), name=f"i{i}")) for i, a in enumerate(laid[:2])]
ms.set_auto_parallel_context(dataset_strategy="data_parallel")

# 7. Model.infer_predict_layout / infer_train_layout: the strategies' layouts, weights untouched
import sporax.dataset as ds  # noqa: E402

semi()
net = MLP(((1, 1), (1, N)), ((1, N), (N, 1)))
model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.05, 0.9))
pred = model.infer_predict_layout(Tensor(X))
train_layout = model.infer_train_layout(ds.NumpySlicesDataset((X, Y), shuffle=False).batch(16))
out["infer"] = {
    "predict": {k: v[:2] for k, v in pred.items()},
    "train": {k: v[:2] for k, v in train_layout.items()},
    "unchanged": float(np.abs(net.w1.asnumpy() - W1).max()),
}
standalone()
try:
    model.infer_predict_layout(Tensor(X))
except RuntimeError as e:
    out["infer"]["standalone"] = str(e)
out["ref_loss0"] = float(nn.WithLossCell(MLP(), nn.MSELoss())(Tensor(X), Tensor(Y)))
print(json.dumps(out))
