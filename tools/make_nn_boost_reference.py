"""Reference values of ``mindspore.boost`` under real MindSpore 2.10 (CPU), for tests/ut/boost.

    cd /tmp && /work/msvenv/bin/python /work/main/tools/make_nn_boost_reference.py

Writes tests/ut/boost/fixtures/boost_reference.json (settings, names, sequences) and boost_reference.npz
(values). Inputs are made from a fixed NumPy seed and stored too, so sporax runs the same steps.
"""

import importlib.util
import json
import os
import sys

import mindspore as ms
import numpy as np
from mindspore import Tensor, boost, nn
from mindspore.boost.less_batch_normalization import CommonHeadLastFN

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ut", "boost", "fixtures")
ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
js, arrays = {}, {}
rng = np.random.default_rng(0)


def reset_autoboost():
    boost.AutoBoost._instance = None


# 1. AutoBoost: the level and config dict -> boost_config and hyperparameters
_spec = importlib.util.spec_from_file_location(
    "boost_cases",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ut", "boost", "_boost_cases.py"),
)
_cases = importlib.util.module_from_spec(_spec)
sys.modules["boost_cases"] = _cases  # MindSpore's graph parser imports the module of each construct
_spec.loader.exec_module(_cases)
cases = _cases.CASES
attrs = [
    "_fn_flag",
    "_gc_flag",
    "_param_groups",
    "_freeze_type",
    "_freeze_p",
    "_total_steps",
    "gradient_groups",
    "device_number",
    "grad_accumulation_step",
    "rho",
    "gamma",
    "alpha",
    "sigma",
    "n_components",
    "timeout",
]
js["autoboost"] = {}
for key, (level, cfg) in cases.items():
    reset_autoboost()
    import copy

    import mindspore.boost.boost as bb

    saved = copy.deepcopy(bb._boost_config_level)
    b = boost.AutoBoost(level, cfg)
    js["autoboost"][key] = {
        "config": dict(b.boost_config),
        "attrs": {a: getattr(b, a) for a in attrs},
        "level": b.level,
    }
    bb._boost_config_level.clear()
    bb._boost_config_level.update(saved)
reset_autoboost()
try:
    boost.AutoBoost("O1", {"boost": {"mode": "fast"}})
except ValueError as e:
    js["autoboost_bad_mode"] = str(e)
reset_autoboost()
b1 = boost.AutoBoost("O1")
b2 = boost.AutoBoost("O0")
js["autoboost_singleton"] = [b1 is b2, b2.level]
reset_autoboost()


# 2. GradientFreeze: parameter groups and the step sequence
class Block(nn.Cell):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, has_bias=False, weight_init="normal")
        self.bn = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.bn(self.conv(x)))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.b1 = Block(2, 3)
        self.b2 = Block(3, 4)
        self.b3 = Block(4, 4)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(4 * 4 * 4, 8)
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.fc1(self.flatten(self.b3(self.b2(self.b1(x))))))


def fill(cell, key):
    """Set every Parameter from the NumPy generator (MindSpore initialises lazily: asnumpy() of a fresh
    Parameter need not be the value its first step uses), and store the values."""
    for p in cell.get_parameters():
        v = (rng.standard_normal(p.shape) * 0.3).astype(np.float32)
        p.set_data(Tensor(v))
        arrays[key + p.name] = v


net = Net()
fill(net, "init/")
gf = boost.GradientFreeze(3, 0, 0.5, 20)
groups = gf.split_parameters_groups(net, 3)
js["freeze_groups"] = [[p.name for p in g] for g in groups]
js["freeze_groups_2"] = [[p.name for p in g] for g in gf.split_parameters_groups(net, 2)]
js["freeze_seq"] = {
    f"{n}_{p}_{t}": gf.generate_freeze_index_sequence(n, 0, p, t)
    for n, p, t in [(3, 0.5, 20), (4, 0.7, 10), (1, 0.5, 5), (2, 0.9, 30)]
}
np.random.seed(3)
seq1 = gf.generate_freeze_index_sequence(4, 1, 0.7, 200)
js["freeze_interval_counts"] = [seq1.count(i) for i in range(4)]
js["freeze_interval_len"] = len(seq1)
try:
    gf.generate_freeze_index_sequence(3, 2, 0.5, 10)
except ValueError as e:
    js["freeze_bad_type"] = str(e)

# 3. FreezeOpt + BoostTrainOneStepCell: 5 steps of a given strategy
x = rng.standard_normal((4, 2, 4, 4)).astype(np.float32)
y = rng.standard_normal((4, 3)).astype(np.float32)
arrays["x"], arrays["y"] = x, y
strategy = [0, 2, 1, 2, 0]
js["strategy"] = strategy
loss_net = nn.WithLossCell(net, nn.MSELoss())
opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
fo = boost.FreezeOpt(opt, groups, strategy)
js["freezeopt_param_names"] = [[p.name for p in o.parameters] for o in fo.opts]
js["freezeopt_state_names"] = [[p.name for p in o.moments] for o in fo.opts]
reset_autoboost()
cell = boost.BoostTrainOneStepCell(loss_net, fo)
cell.set_train()
losses = []
for _ in range(4):  # (a 5th call wraps the step to 0, which MindSpore's PyNative rejects: Parameter = int)
    losses.append(float(cell(Tensor(x), Tensor(y)).asnumpy()))
arrays["freeze_losses"] = np.array(losses, np.float32)
for p in net.trainable_params():
    arrays["freeze_after/" + p.name] = p.asnumpy()
js["freeze_step_after"] = int(cell.step.asnumpy())

# 4. CommonHeadLastFN and LessBN(fn_flag)
w = rng.standard_normal((3, 5)).astype(np.float32)
b = rng.standard_normal((3,)).astype(np.float32)
xs = rng.standard_normal((2, 5)).astype(np.float32)
head = CommonHeadLastFN(5, 3, Tensor(w), Tensor(b), True)
arrays["head_w"], arrays["head_b"], arrays["head_x"] = w, b, xs
arrays["head_out"] = head(Tensor(xs)).asnumpy()


class Small(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(5, 4)
        self.fc2 = nn.Dense(4, 3)

    def construct(self, x):
        return self.fc2(self.fc1(x))


small = Small()
fill(small, "lessbn_init/")
lb = boost.LessBN(small, fn_flag=True)
js["lessbn_cells"] = {k: type(v).__name__ for k, v in small.name_cells().items()}
js["lessbn_params"] = [p.name for p in lb.trainable_params()]
js["lessbn_flags"] = sorted(k for k in small.get_flags())
arrays["lessbn_x"] = xs
arrays["lessbn_out"] = lb(Tensor(xs)).asnumpy()
for p in small.get_parameters():
    arrays["lessbn_param/" + p.name] = p.asnumpy()

# 5. ParameterProcess / OptimizerProcess
pp = boost.ParameterProcess()
plist = net.trainable_params()
pp.assign_parameter_group(plist, [3, 6])
js["comm_fusion"] = [p.comm_fusion for p in plist]
pp2 = boost.ParameterProcess()
pp2.assign_parameter_group(plist)
js["comm_fusion_default"] = [p.comm_fusion for p in plist]
conv_params = [p for p in plist if "conv" in p.name]
other = [p for p in plist if "conv" not in p.name]
origin = [
    {"params": conv_params, "lr": 0.05},
    {"params": other, "weight_decay": 0.01, "lr": 0.2},
    {"order_params": plist},
]
new = boost.ParameterProcess.generate_group_params(plist[:-2], origin)
js["generate_group_params"] = [
    {k: ([p.name for p in v] if k in ("params", "order_params") else v) for k, v in g.items()} for g in new
]
js["generate_group_params_plain"] = [
    [p.name for p in g["params"]] for g in boost.ParameterProcess.generate_group_params(plist[:2], plist)
]
opt2 = nn.Momentum(origin[:2], learning_rate=0.1, momentum=0.9)
op = boost.OptimizerProcess(opt2)
op.add_grad_centralization(net)
js["gc_groups"] = [{k: ([p.name for p in v] if k == "params" else v) for k, v in g.items()} for g in op.origin_params]
newopt = op.generate_new_optimizer()
js["gc_new_opt"] = [
    type(newopt).__name__,
    [bool(f) for f in newopt.grad_centralization_flags] if hasattr(newopt, "grad_centralization_flags") else None,
]

# 6. BoostTrainOneStepWithLossScaleCell (no groups): 3 steps with a fixed loss scale, one with an inf input
net2 = Small()
fill(net2, "ls_init/")
loss2 = nn.WithLossCell(net2, nn.MSELoss())
opt3 = nn.SGD(net2.trainable_params(), learning_rate=0.1)
reset_autoboost()
ls_cell = boost.BoostTrainOneStepWithLossScaleCell(loss2, opt3, nn.DynamicLossScaleUpdateCell(2.0**10, 2, 2))
# MindSpore's overflow checks need Ascend's float status or GPU's FloatStatus; on CPU check the gradients the
# way both do (any inf/nan)
ls_cell._get_overflow_status = lambda status, grads: ms.ops.logical_not(
    ms.ops.stack([ms.ops.isfinite(g).all() for g in grads]).all()
)
x2 = rng.standard_normal((4, 5)).astype(np.float32)
y2 = rng.standard_normal((4, 3)).astype(np.float32)
arrays["ls_x"], arrays["ls_y"] = x2, y2
outs = []
for i in range(4):
    xi = x2.copy()
    if i == 1:
        xi[0, 0] = np.inf
    loss_v, cond, scale = ls_cell(Tensor(xi), Tensor(y2))
    outs.append(
        [
            float(loss_v.asnumpy()) if np.isfinite(loss_v.asnumpy()) else -1.0,
            bool(cond.asnumpy()),
            float(scale.asnumpy()),
        ]
    )
js["ls_steps"] = outs
for p in net2.trainable_params():
    arrays["ls_after/" + p.name] = p.asnumpy()
reset_autoboost()


# 7. LessBN's BatchNorm removal (MindSpore's less_bn graph pass, GRAPH_MODE), inference outputs of a stem, two
# bottleneck blocks (convolution and identity shortcuts) and a basic block with a convolution shortcut
def residual_net():
    return _cases.residual_net(nn)


ms.set_context(mode=ms.GRAPH_MODE)
res = residual_net()
for p in res.get_parameters():
    v = rng.standard_normal(p.shape) * 0.5 + (1.0 if "gamma" in p.name or "moving_variance" in p.name else 0.0)
    v = np.abs(v) if "moving_variance" in p.name else v
    p.set_data(Tensor(v.astype(np.float32)))
    arrays["res_param/" + p.name] = v.astype(np.float32)
xr = rng.standard_normal((2, 3, 5, 5)).astype(np.float32)
arrays["res_x"] = xr
res.set_train(False)
arrays["res_plain"] = res(Tensor(xr)).asnumpy()
res2 = residual_net()
for p in res2.get_parameters():
    p.set_data(Tensor(arrays["res_param/" + p.name]))
lb_res = boost.LessBN(res2)
lb_res.set_train(False)
arrays["res_lessbn"] = lb_res(Tensor(xr)).asnumpy()
ms.set_context(mode=ms.PYNATIVE_MODE)

# 8. DimReduce: three steps on a linear least-squares model with a 2-row PCA matrix (one device)
dr_a = rng.standard_normal((6, 4)).astype(np.float32)
dr_t = rng.standard_normal((6,)).astype(np.float32)
dr_w0 = (rng.standard_normal((4,)) * 0.1).astype(np.float32)
dr_pca = np.linalg.qr(rng.standard_normal((4, 2)))[0].T.astype(np.float32)


class Lin(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(dr_w0.copy()), name="w")

    def construct(self, x, y):
        return ((ms.ops.matmul(x, self.w) - y) ** 2).mean()


lin = Lin()
dr_opt = nn.SGD(lin.trainable_params(), learning_rate=1.0)
dr_weights = dr_opt.parameters
dr_clone = ms.ParameterTuple(dr_weights).clone(prefix="weights_clone", init="same")
dr = boost.DimReduce(lin, dr_opt, dr_weights, dr_pca, 2, 0.55, 0.9, 0.001, 0.4, 0, 1)
dr_grad = ms.value_and_grad(lin, None, dr_weights)
dr_steps = []
for _ in range(3):
    dr_loss, dr_g = dr_grad(Tensor(dr_a), Tensor(dr_t))
    dr(dr_loss, dr_g, Tensor(1.0, ms.float32), dr_weights, dr_clone, Tensor(dr_a), Tensor(dr_t))
    dr_steps.append(lin.w.asnumpy().copy())
arrays.update(dr_a=dr_a, dr_t=dr_t, dr_w0=dr_w0, dr_pca=dr_pca, dr_steps=np.array(dr_steps))

# 9. THOR layers' statistics (nn.DenseThor, nn.EmbeddingThor; MindSpore's CPU/GPU path): A in the forward pass,
# G (from the gradient hook) after a backward pass of sum(out ** 2). Conv2dThor's im2col has no CPU kernel.
thor_x = rng.standard_normal((5, 3)).astype(np.float32)
thor_w = rng.standard_normal((2, 3)).astype(np.float32)
dense_thor = nn.DenseThor(3, 2, weight_init=Tensor(thor_w), has_bias=False)
ms.grad(lambda v: (dense_thor(v) ** 2).sum())(Tensor(thor_x))
emb_thor = nn.EmbeddingThor(6, 3)
thor_ids = np.array([[1, 2], [2, 5]], np.int32)
emb_table = emb_thor.embedding_table.asnumpy()
ms.grad(lambda t: (emb_thor(t) ** 2).sum())(Tensor(thor_ids))
arrays.update(
    thor_x=thor_x,
    thor_w=thor_w,
    thor_dense_a=dense_thor.matrix_a.asnumpy(),
    thor_dense_g=dense_thor.matrix_g.asnumpy(),
    thor_ids=thor_ids,
    thor_table=emb_table,
    thor_emb_a=emb_thor.matrix_a.asnumpy(),
    thor_emb_g=emb_thor.matrix_g.asnumpy(),
)

with open(os.path.join(OUT, "boost_reference.json"), "w") as f:
    json.dump(js, f, indent=1, sort_keys=True)
np.savez(os.path.join(OUT, "boost_reference.npz"), **arrays)
print("ok", len(arrays), sys.version)
