"""mindspore.boost against real MindSpore 2.10 (fixtures from tools/make_nn_boost_reference.py) and NumPy:
AutoBoost's levels and config dict, GradientFreeze's groups and sequences, FreezeOpt + BoostTrainOneStepCell
(the right layers frozen per step), LessBN, ParameterProcess / OptimizerProcess, the loss-scale step,
AdaSum's combination, DimReduce's step, GroupLossScaleManager's per-group gradient scales."""

import json
import os

import numpy as np
import pytest
from _boost_cases import CASES
from _boost_cases import residual_net as _residual_net

import sporax as ms
from sporax import Parameter, Tensor, boost, nn, ops
from sporax.boost import boost as boost_mod
from sporax.boost.less_batch_normalization import CommonHeadLastFN
from sporax.nn.optim.adasum import adasum_rounds as _adasum_rounds

FIX = os.path.join(os.path.dirname(__file__), "fixtures")
with open(os.path.join(FIX, "boost_reference.json"), encoding="utf-8") as _f:
    REF = json.load(_f)
ARR = np.load(os.path.join(FIX, "boost_reference.npz"))


@pytest.fixture(autouse=True)
def _fresh_autoboost():
    boost.AutoBoost._instance = None
    yield
    boost.AutoBoost._instance = None


@pytest.mark.parametrize("case", sorted(CASES))
def test_autoboost_levels_and_config_dict(case):
    level, cfg = CASES[case]
    b = boost.AutoBoost(level, cfg)
    want = REF["autoboost"][case]
    assert b.level == want["level"]
    assert b.boost_config == want["config"]
    for attr, value in want["attrs"].items():
        assert getattr(b, attr) == value, attr
    assert boost_mod._boost_config_level["O1"]["less_bn"] is True  # the level table is not changed


def test_autoboost_singleton_and_bad_mode():
    b1 = boost.AutoBoost("O1")
    b2 = boost.AutoBoost("O0")
    assert [b1 is b2, b2.level] == REF["autoboost_singleton"]
    boost.AutoBoost._instance = None
    with pytest.raises(ValueError) as e:
        boost.AutoBoost("O1", {"boost": {"mode": "fast"}})
    assert str(e.value) == REF["autoboost_bad_mode"]


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


def ref_net():
    net = Net()
    for p in net.get_parameters():
        p.set_data(Tensor(ARR["init/" + p.name]))
    return net


def names(params):
    return [p.name for p in params]


def test_gradient_freeze_groups_and_sequences():
    gf = boost.GradientFreeze(3, 0, 0.5, 20)
    net = ref_net()
    assert [names(g) for g in gf.split_parameters_groups(net, 3)] == REF["freeze_groups"]
    assert [names(g) for g in gf.split_parameters_groups(net, 2)] == REF["freeze_groups_2"]
    for key, want in REF["freeze_seq"].items():
        n, p, t = key.split("_")
        assert gf.generate_freeze_index_sequence(int(n), 0, float(p), int(t)) == want, key
    np.random.seed(3)  # the interval strategy draws with NumPy's global generator, as MindSpore does
    seq = gf.generate_freeze_index_sequence(4, 1, 0.7, 200)
    assert len(seq) == REF["freeze_interval_len"]
    assert [seq.count(i) for i in range(4)] == REF["freeze_interval_counts"]
    with pytest.raises(ValueError) as e:
        gf.generate_freeze_index_sequence(3, 2, 0.5, 10)
    assert str(e.value) == REF["freeze_bad_type"]


def test_freeze_opt_and_boost_step_freeze_the_named_layers():
    net = ref_net()
    groups = boost.GradientFreeze(3, 0, 0.5, 20).split_parameters_groups(net, 3)
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    strategy = REF["strategy"]
    fo = boost.FreezeOpt(opt, groups, strategy)
    assert [names(o.parameters) for o in fo.opts] == REF["freezeopt_param_names"]
    assert [names(o.moments) for o in fo.opts] == REF["freezeopt_state_names"]
    cell = boost.BoostTrainOneStepCell(loss_net, fo)
    cell.set_train()
    x, y = Tensor(ARR["x"]), Tensor(ARR["y"])
    losses = []
    for step in range(4):
        before = {p.name: p.asnumpy().copy() for p in net.trainable_params()}
        losses.append(float(cell(x, y).asnumpy()))
        trained = set(names(fo.opts[strategy[step]].parameters))
        for p in net.trainable_params():  # only the group the strategy names moves
            moved = not np.array_equal(before[p.name], p.asnumpy())
            assert moved == (p.name in trained), (step, p.name)
    np.testing.assert_allclose(losses, ARR["freeze_losses"], rtol=1e-5, atol=1e-6)
    for p in net.trainable_params():
        np.testing.assert_allclose(p.asnumpy(), ARR["freeze_after/" + p.name], rtol=1e-4, atol=1e-5)
    assert int(cell.step.asnumpy()) == REF["freeze_step_after"]
    cell(x, y)  # the 5th step wraps to the start of the sequence
    assert int(cell.step.asnumpy()) == 0


def test_freeze_opt_errors_and_freeze_cell():
    net = ref_net()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    with pytest.raises(TypeError, match="must be an Optimizer instance"):
        boost.FreezeOpt(net)
    with pytest.raises(ValueError, match="'train_parameter_groups' must also be specified"):
        boost.FreezeOpt(opt, None, [0, 1])
    with pytest.raises(TypeError, match="should be tuple or list"):
        boost.FreezeOpt(opt, "abc", None)
    with pytest.raises(ValueError, match="should be int number"):
        boost.FreezeOpt(opt, [net.trainable_params()], [0.5])
    small = Small()
    w0 = [p.asnumpy().copy() for p in small.trainable_params()]
    fo = boost.FreezeOpt(nn.SGD(small.trainable_params(), 0.1))
    assert len(fo.opts) == 1 and fo.train_strategy is None
    grad = ops.GradOperation(get_by_list=True, sens_param=True)
    loss_net = nn.WithLossCell(small, nn.MSELoss())
    nets = boost.freeze_cell(False, loss_net, fo, 1.0, grad, False)
    assert len(nets) == 1
    x, y = Tensor(np.ones((2, 5), np.float32)), Tensor(np.zeros((2, 3), np.float32))
    gs = ms.grad(loss_net, None, small.trainable_params())(x, y)
    nets[0](x, y)
    for p, w, g in zip(small.trainable_params(), w0, gs):
        np.testing.assert_allclose(p.asnumpy(), w - 0.1 * g.asnumpy(), rtol=1e-5, atol=1e-6)


def test_common_head_last_fn_against_mindspore_and_numpy():
    head = CommonHeadLastFN(5, 3, Tensor(ARR["head_w"]), Tensor(ARR["head_b"]), True)
    out = head(Tensor(ARR["head_x"])).asnumpy()
    np.testing.assert_allclose(out, ARR["head_out"], rtol=1e-5, atol=1e-6)
    x, w = ARR["head_x"], ARR["head_w"]
    xn = x / np.sqrt(np.maximum((x**2).sum(1, keepdims=True), 1e-4))
    wn = w / np.sqrt(np.maximum((w**2).sum(1, keepdims=True), 1e-4))
    np.testing.assert_allclose(out, xn @ wn.T + ARR["head_b"], rtol=1e-5, atol=1e-6)
    g = ms.grad(lambda a: head(a).sum())(Tensor(x)).asnumpy()  # gradient by finite differences
    eps, num = 1e-3, np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        num[i] = (head(Tensor(x + d)).asnumpy().sum() - head(Tensor(x - d)).asnumpy().sum()) / (2 * eps)
    np.testing.assert_allclose(g, num, rtol=2e-2, atol=2e-3)


class Small(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(5, 4)
        self.fc2 = nn.Dense(4, 3)

    def construct(self, x):
        return self.fc2(self.fc1(x))


def test_less_bn_fn_flag_converts_the_last_dense():
    small = Small()
    lb = boost.LessBN(small, fn_flag=True)
    assert {k: type(v).__name__ for k, v in small.name_cells().items()} == REF["lessbn_cells"]
    assert names(lb.trainable_params()) == REF["lessbn_params"]
    assert sorted(small.get_flags()) == REF["lessbn_flags"]
    for p in small.get_parameters():
        p.set_data(Tensor(ARR["lessbn_param/" + p.name]))
    np.testing.assert_allclose(lb(Tensor(ARR["lessbn_x"])).asnumpy(), ARR["lessbn_out"], rtol=1e-5, atol=1e-6)
    lb2 = boost.LessBN(small, fn_flag=True)  # already flagged: nothing changes
    assert names(lb2.network.trainable_params()) == names(small.trainable_params())


def residual_net():
    return _residual_net(nn)


def test_less_bn_removes_the_batchnorms_mindspore_removes():
    net = residual_net()
    for p in net.get_parameters():
        p.set_data(Tensor(ARR["res_param/" + p.name]))
    net.set_train(False)
    x = Tensor(ARR["res_x"])
    np.testing.assert_allclose(net(x).asnumpy(), ARR["res_plain"], rtol=1e-5, atol=1e-5)
    before = len(net.trainable_params())
    lb = boost.LessBN(net)
    first, second, basic = list(net.cells())[2:]
    # the first bottleneck of the stage (MindSpore's pattern 3): bn1, bn2 and the shortcut's BatchNorm go
    assert isinstance(first.bn1, nn.Identity) and isinstance(first.bn2, nn.Identity)
    assert isinstance(first.down_sample_layer[1], nn.Identity) and isinstance(first.bn3, nn.BatchNorm2d)
    # an identity shortcut (the cell's own input) and the basic block match no pattern
    assert all(isinstance(b, nn.BatchNorm2d) for b in (second.bn1, second.bn2, second.bn3, basic.bn1, basic.bn2))
    assert len(net.trainable_params()) == before - 6
    lb.set_train(False)
    np.testing.assert_allclose(lb(x).asnumpy(), ARR["res_lessbn"], rtol=1e-5, atol=1e-5)


def test_parameter_process_and_optimizer_process():
    net = ref_net()
    fo = boost.FreezeOpt(nn.Momentum(net.trainable_params(), 0.1, 0.9))  # renames as MindSpore does
    plist = net.trainable_params()
    boost.ParameterProcess().assign_parameter_group(plist, [3, 6])
    assert [p.comm_fusion for p in plist] == REF["comm_fusion"]
    boost.ParameterProcess().assign_parameter_group(plist)
    assert [p.comm_fusion for p in plist] == REF["comm_fusion_default"]
    conv = [p for p in plist if "conv" in p.name]
    other = [p for p in plist if "conv" not in p.name]
    origin = [{"params": conv, "lr": 0.05}, {"params": other, "weight_decay": 0.01, "lr": 0.2}, {"order_params": plist}]

    def show(groups, keys=("params", "order_params")):
        return [{k: (names(v) if k in keys else v) for k, v in g.items()} for g in groups]

    assert show(boost.ParameterProcess.generate_group_params(plist[:-2], origin)) == REF["generate_group_params"]
    assert [names(g["params"]) for g in boost.ParameterProcess.generate_group_params(plist[:2], plist)] == REF[
        "generate_group_params_plain"
    ]
    op = boost.OptimizerProcess(nn.Momentum(origin[:2], learning_rate=0.1, momentum=0.9))
    op.add_grad_centralization(net)
    assert show(op.origin_params) == REF["gc_groups"]
    new = op.generate_new_optimizer()
    assert [type(new).__name__, list(new.grad_centralization_flags)] == REF["gc_new_opt"]
    with pytest.raises(ValueError, match="empty parameter list"):
        boost.ParameterProcess.generate_group_params(plist, [])
    assert fo.groups_num == 1


def test_boost_loss_scale_step_against_mindspore():
    net = Small()
    for p in net.get_parameters():
        p.set_data(Tensor(ARR["ls_init/" + p.name]))
    cell = boost.BoostTrainOneStepWithLossScaleCell(
        nn.WithLossCell(net, nn.MSELoss()),
        nn.SGD(net.trainable_params(), learning_rate=0.1),
        nn.DynamicLossScaleUpdateCell(2.0**10, 2, 2),
    )
    for i, (want_loss, want_cond, want_scale) in enumerate(REF["ls_steps"]):
        x = ARR["ls_x"].copy()
        if i == 1:
            x[0, 0] = np.inf
        loss, cond, scale = cell(Tensor(x), Tensor(ARR["ls_y"]))
        assert bool(cond.asnumpy()) == want_cond
        assert float(scale.asnumpy()) == want_scale
        if want_loss >= 0:
            np.testing.assert_allclose(float(loss.asnumpy()), want_loss, rtol=1e-5)
    for p in net.trainable_params():
        np.testing.assert_allclose(p.asnumpy(), ARR["ls_after/" + p.name], rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match="must be Cell or Tensor"):
        boost.BoostTrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), cell.optimizer, 3)


def test_boost_step_gradient_accumulation():
    boost.AutoBoost(
        "O0",
        {"boost": {"mode": "manual", "grad_accumulation": True}, "grad_accumulation": {"grad_accumulation_step": 2}},
    )
    net = Small()
    w0 = {p.name: p.asnumpy().copy() for p in net.trainable_params()}
    cell = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.5))
    rng = np.random.default_rng(1)
    batches = [
        (rng.standard_normal((3, 5)).astype(np.float32), rng.standard_normal((3, 3)).astype(np.float32))
        for _ in range(2)
    ]
    grad_fn = ms.value_and_grad(nn.WithLossCell(net, nn.MSELoss()), None, net.trainable_params())
    gs = [[g.asnumpy() for g in grad_fn(Tensor(a), Tensor(b))[1]] for a, b in batches]
    cell(Tensor(batches[0][0]), Tensor(batches[0][1]))
    for p in net.trainable_params():  # the first call only accumulates
        np.testing.assert_array_equal(p.asnumpy(), w0[p.name])
    cell(Tensor(batches[1][0]), Tensor(batches[1][1]))
    for i, p in enumerate(net.trainable_params()):
        np.testing.assert_allclose(p.asnumpy(), w0[p.name] - 0.5 * (gs[0][i] + gs[1][i]) / 2, rtol=1e-5, atol=1e-6)
    assert int(cell.accumulation_step.asnumpy()) == 0
    assert all(not a.asnumpy().any() for a in cell.grad_accumulation)


def np_adasum(a, b):
    dot = (a * b).sum() + 1e-12
    return (1 - dot / (2 * ((a * a).sum() + 1e-12))) * a + (1 - dot / (2 * ((b * b).sum() + 1e-12))) * b


def test_adasum_combination_against_numpy():
    rng = np.random.default_rng(2)
    ups = [rng.standard_normal((4, 3)).astype(np.float32) for _ in range(4)]
    got = _adasum_rounds([Tensor(u) for u in ups], [4, 3]).asnumpy()
    want = np_adasum(np_adasum(ups[0], ups[1]), np_adasum(ups[2], ups[3]))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    # orthogonal updates add, equal ones average
    e1, e2 = np.eye(2, dtype=np.float32)
    np.testing.assert_allclose(_adasum_rounds([Tensor(e1), Tensor(e2)], [2]).asnumpy(), e1 + e2, atol=1e-6)
    np.testing.assert_allclose(_adasum_rounds([Tensor(e1), Tensor(e1)], [2]).asnumpy(), e1, atol=1e-6)
    # a shape that cannot be halved is averaged
    one = [np.array([[2.0]], np.float32), np.array([[4.0]], np.float32)]
    np.testing.assert_allclose(_adasum_rounds([Tensor(u) for u in one], [1, 1]).asnumpy(), [[3.0]])


def test_adasum_cell_one_group():
    params = [Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")]
    old = [Parameter(Tensor(np.full((2, 2), 3.0, np.float32)), name="old_w")]
    ada = boost.AdaSum(0, 1, 1, params)
    assert ada.calc_times == 0 and len(ada.broadcast_list) == 1
    ada((Tensor(np.full((2, 2), 0.5, np.float32)),), params, old)
    np.testing.assert_allclose(params[0].asnumpy(), np.full((2, 2), 2.5))


def np_dim_reduce_step(w, grad_fn, loss_fn, pca, state, rho=0.55, gamma=0.9, alpha=0.001, sigma=0.4):
    """One DimReduce step in NumPy (the formulas of MindSpore's DimReduce, one device)."""
    loss, g = loss_fn(w), grad_fn(w)
    gk = pca @ g.reshape(-1, 1)
    bk = state["bk"]
    if state["init"]:
        yk = gk - state["gk_last"]
        gy = (yk.T @ state["sk"]).item()
        if gy > 1e-20:
            t1 = np.eye(len(gk)) - (yk / gy) @ state["sk"].T
            bk = t1.T @ bk @ t1 + (state["sk"] / gy) @ state["sk"].T
    state["init"] = True
    dk = -bk @ gk
    dn = (pca.T @ dk).reshape(w.shape)
    proj = (pca.T @ gk).reshape(w.shape)
    found_rho = 0.0
    for r in (1.0, rho):
        if loss + sigma * r * (gk.T @ dk).item() > loss_fn(w + r * dn):
            found_rho = r
            state["sk"] = r * dk
            break
    if found_rho:
        state["gk_last"], state["bk"] = gk, bk
    state["mom"] = gamma * state["mom"] + g - proj
    return w - (alpha * state["mom"] - found_rho * dn)


def test_dim_reduce_against_mindspore_and_numpy():
    a, t, w0, pca = ARR["dr_a"], ARR["dr_t"], ARR["dr_w0"], ARR["dr_pca"]  # pca: 2 orthonormal rows

    class Lin(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(w0.copy()), name="w")

        def construct(self, x, y):
            return ((ops.matmul(x, self.w) - y) ** 2).mean()

    net = Lin()
    opt = nn.SGD(net.trainable_params(), learning_rate=1)
    weights = opt.parameters
    clone = weights.clone(prefix="weights_clone", init="same")
    dr = boost.DimReduce(net, opt, weights, pca, 2, 0.55, 0.9, 0.001, 0.4, 0, 1)
    grad_fn = ms.value_and_grad(net, None, weights)
    state = {"bk": np.eye(2), "init": False, "gk_last": np.zeros((2, 1)), "sk": np.zeros((2, 1)), "mom": 0}
    w = w0.astype(np.float64)
    for step in range(3):
        loss, grads = grad_fn(Tensor(a), Tensor(t))
        dr(loss, grads, Tensor(1.0, ms.float32), weights, clone, Tensor(a), Tensor(t))
        w = np_dim_reduce_step(
            w,
            lambda v: 2 * a.T @ (a @ v - t) / len(t),
            lambda v: float(((a @ v - t) ** 2).mean()),
            pca.astype(np.float64),
            state,
        )
        np.testing.assert_allclose(net.w.asnumpy(), w, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(net.w.asnumpy(), ARR["dr_steps"][step], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(clone[0].asnumpy(), net.w.asnumpy())


def test_group_loss_scale_manager_scales_gradients_per_group():
    mgr = boost.GroupLossScaleManager(8.0, [])
    mgr.set_loss_scale_status(2, 8.0)
    assert [float(p.asnumpy()) for p in mgr.dynamic_loss_scale] == [1.0, 8.0, 8.0, 1.0]
    mgr.update_loss_scale_status(0, Tensor(0.5, ms.float32))
    assert float(mgr.dynamic_loss_scale[1].asnumpy()) == 4.0
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(mgr(x, 1, 2).asnumpy(), x.asnumpy())  # identity forward
    g = ms.grad(lambda v: (mgr(v, 1, 2) * 3).sum())(x).asnumpy()
    np.testing.assert_allclose(g, [3 * 4.0 / 8.0] * 2)  # dout * scale[1] / scale[2]
    assert mgr.get_loss_scale() == 8.0 and mgr.get_update_cell() is mgr


class GroupNet(nn.Cell):
    def __init__(self, mgr):
        super().__init__()
        self.fc1 = nn.Dense(3, 4)
        self.fc2 = nn.Dense(4, 2)
        self.mgr = mgr

    def construct(self, x):
        x = self.mgr(x, 0, 1)
        x = self.fc1(x)
        x = self.mgr(x, 1, 2)
        x = self.fc2(x)
        return self.mgr(x, 2, 3)


def test_boost_loss_scale_groups_step():
    boost.AutoBoost("O0", {"boost": {"mode": "manual", "loss_scale_group": True}})
    mgr = boost.GroupLossScaleManager(16.0, [])
    net = GroupNet(mgr)
    mgr.loss_scale_groups = [net.fc1.trainable_params(), net.fc2.trainable_params()]
    w0 = [p.asnumpy().copy() for p in net.trainable_params()]
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    cell = boost.BoostTrainOneStepWithLossScaleCell(loss_net, nn.SGD(net.trainable_params(), 0.1), mgr)
    x = Tensor(np.ones((2, 3), np.float32))
    y = Tensor(np.zeros((2, 2), np.float32))
    # the manager in the network scales the gradients of both groups by 16 (and the input's back by 1/16)
    ref_grads = [g.asnumpy() for g in ms.grad(loss_net, None, net.trainable_params())(x, y)]
    loss, cond, scale = cell(x, y)
    assert int(cond.asnumpy()) == 0
    grow = 2 ** (1 / 1000)
    np.testing.assert_allclose(float(scale.asnumpy()), 16.0 * grow, rtol=1e-6)
    # each group's gradients are divided by its new scale (MindSpore's rule)
    for p, w, g in zip(net.trainable_params(), w0, ref_grads):
        np.testing.assert_allclose(p.asnumpy(), w - 0.1 * g / (16.0 * grow), rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match="enhanced amp Cell"):
        boost.BoostTrainOneStepWithLossScaleCell(loss_net, cell.optimizer, Tensor(1.0))


def test_autoboost_o1_end_to_end():
    b = boost.AutoBoost("O1", {"grad_freeze": {"param_groups": 2, "total_steps": 10, "freeze_type": 0}})
    net = ref_net()
    opt = nn.Momentum([{"params": net.trainable_params(), "lr": 0.05}], learning_rate=0.1, momentum=0.9)
    new_net, new_opt = b.network_auto_process_train(net, opt)
    assert isinstance(new_net, boost.LessBN) and isinstance(new_opt, boost.FreezeOpt)
    assert type(net.fc2).__name__ == "CommonHeadLastFN"  # fn_flag: the last Dense is normalized
    assert len(new_opt.opts) == 2 and new_opt.opts[0].grad_centralization_flags[0]  # gc on the conv weight
    cell = boost.BoostTrainOneStepCell(nn.WithLossCell(new_net, nn.MSELoss()), new_opt)
    cell.set_train()
    losses = [float(cell(Tensor(ARR["x"]), Tensor(ARR["y"])).asnumpy()) for _ in range(3)]
    assert all(np.isfinite(losses))
    assert isinstance(b.network_auto_process_eval(net), boost.LessBN)


def test_autoboost_dim_reduce_end_to_end(tmp_path):
    rng = np.random.default_rng(4)
    net = Small()
    n_weights = sum(int(np.prod(p.shape)) for p in net.trainable_params())
    pca = np.linalg.qr(rng.standard_normal((n_weights, 3)))[0].T
    np.save(tmp_path / "pca.npy", pca)
    b = boost.AutoBoost(
        "O0",
        {
            "boost": {"mode": "manual", "dim_reduce": True},
            "dim_reduce": {"pca_mat_path": str(tmp_path / "pca.npy"), "n_components": 3, "timeout": 5},
        },
    )
    _, opt = b.network_auto_process_train(net, None)
    assert isinstance(opt, nn.SGD) and opt.dim_reduce is True
    np.testing.assert_allclose(np.load(b.local_pca_mat_path), pca)  # rank 0 of 1 holds every row
    cell = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    assert cell.enable_dim_reduce
    x = Tensor(rng.standard_normal((6, 5)).astype(np.float32))
    y = Tensor(rng.standard_normal((6, 3)).astype(np.float32))
    losses = [float(cell(x, y).asnumpy()) for _ in range(4)]
    assert losses[-1] < losses[0]
    assert b.network_auto_process_eval(net) is net


def test_pca_of_saved_weights(tmp_path):
    import sporax.train  # noqa: F401  (registers the checkpoint loader boost uses)
    from sporax.boost.base import _compute_pca_mat, _load_weights

    net = Small()
    for i in range(4):
        for p in net.trainable_params():
            p.set_data(
                Tensor(np.full(p.shape, float(i) + 0.1 * np.arange(int(np.prod(p.shape))).reshape(p.shape), np.float32))
            )
        ms.save_checkpoint(net, str(tmp_path / f"w{i}.ckpt"))
    data = _load_weights(str(tmp_path), net)
    assert data.shape == (4, sum(int(np.prod(p.shape)) for p in net.trainable_params()))
    comp = _compute_pca_mat(data.copy(), 1, randomized=False)
    centered = data - data.mean(0)
    u, s, vt = np.linalg.svd(centered, full_matrices=False)
    np.testing.assert_allclose(np.abs(comp[0]), np.abs(vt[0]), rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="less than: n_component"):
        _compute_pca_mat(data, 9)


def test_boost_steps_compile_in_graph_mode(recwarn):
    ms.set_context(mode=ms.GRAPH_MODE)
    x, y = Tensor(np.ones((2, 5), np.float32)), Tensor(np.zeros((2, 3), np.float32))
    net = Small()
    cell = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    losses = [float(cell(x, y).asnumpy()) for _ in range(3)]
    assert losses[2] < losses[1] < losses[0]
    net = Small()
    groups = boost.GradientFreeze(2, 0, 0.5, 10).split_parameters_groups(net, 2)
    cell = boost.BoostTrainOneStepCell(
        nn.WithLossCell(net, nn.MSELoss()), boost.FreezeOpt(nn.SGD(net.trainable_params(), 0.1), groups, [0, 1, 1])
    )
    for want in (1, 2, 0, 1):  # the step index walks the strategy and wraps
        cell(x, y)
        assert int(cell.step.asnumpy()) == want
    net = Small()
    cell = boost.BoostTrainOneStepWithLossScaleCell(
        nn.WithLossCell(net, nn.MSELoss()),
        nn.SGD(net.trainable_params(), 0.1),
        nn.DynamicLossScaleUpdateCell(1024.0, 2, 2),
    )
    scales = [float(cell(x, y)[2].asnumpy()) for _ in range(3)]
    assert scales == [1024.0, 2048.0, 2048.0]
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]  # compiled, no eager fallback


def test_adasum_two_ranks(tmp_path):
    """boost.AdaSum across 2 processes of `sporax launch -n 2` (scripts/adasum_two_ranks.py)."""
    import pathlib
    import subprocess
    import sys

    script = pathlib.Path(__file__).parent / "scripts" / "adasum_two_ranks.py"
    r = subprocess.run(
        [sys.executable, "-m", "sporax", "launch", "-n", "2", "--log-dir", "logs", str(script)],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    logs = [(tmp_path / "logs" / f"worker_{i}.log").read_text() for i in range(2)]
    assert r.returncode == 0, r.stderr[-2000:] + logs[0][-2000:] + logs[1][-2000:]
    for i, text in enumerate(logs):
        o = json.loads(next(line for line in text.splitlines() if line.startswith("{")))
        assert o["rank"] == i and o["size"] == 2 and o["calc_times"] == 1
        assert o["err"] < 1e-5, o
