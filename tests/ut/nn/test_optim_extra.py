"""AdaMax, Adadelta, ASGD, Rprop, FTRL, ProximalAdagrad, LazyAdam, AdaFactor, LARS: MindSpore's state names,
argument checks, parameter groups, dynamic learning rates; LARS and ops.LARSUpdate against their formula
(MindSpore 2.10's CPU build has no LARSUpdate kernel)."""

import inspect

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


def make_params():
    rs = np.random.RandomState(0)
    return [
        Parameter(Tensor(rs.uniform(-1, 1, (4, 3)).astype(np.float32)), name="fc.weight"),
        Parameter(Tensor(rs.uniform(-1, 1, (3,)).astype(np.float32)), name="fc.bias"),
    ]


def grads(step):
    rs = np.random.RandomState(10 + step)
    return (Tensor(rs.uniform(-1, 1, (4, 3)).astype(np.float32)), Tensor(rs.uniform(-1, 1, (3,)).astype(np.float32)))


@pytest.mark.parametrize(
    "make, names",
    [
        (lambda p: nn.AdaMax(p), ["moment1.fc.weight", "moment2.fc.bias", "beta1_power"]),
        (lambda p: nn.Adadelta(p), ["accum.fc.weight", "accum_update.fc.bias"]),
        (lambda p: nn.ASGD(p), ["mu_fc.weight", "eta_fc.bias", "ax_.fc.weight"]),
        (lambda p: nn.Rprop(p), ["prev.fc.weight", "step_size.fc.bias"]),
        (lambda p: nn.FTRL(p), ["moments.fc.weight", "linear.fc.bias"]),
        (lambda p: nn.ProximalAdagrad(p), ["accum.fc.weight", "accum.fc.bias"]),
        (lambda p: nn.LazyAdam(p), ["moment1.fc.weight", "moment2.fc.bias", "beta1_power", "beta2_power"]),
        (
            lambda p: nn.AdaFactor(p),
            ["exp_avg.fc.weight", "exp_avg_sq_row_fc.weight", "exp_avg_sq_col_fc.weight", "exp_avg_sq_fc.bias"],
        ),
    ],
)
def test_state_names_and_signature(make, names):
    opt = make(make_params())
    have = dict(opt.parameters_and_names())
    for n in [*names, "global_step"]:
        assert n in have, (n, sorted(have))
    assert str(inspect.signature(type(opt))) == "(*args, **kwargs) -> 'None'" or "args" in str(
        inspect.signature(type(opt))
    )
    assert "params" in opt.init_params


def test_adafactor_state_shapes():
    opt = nn.AdaFactor(make_params())
    assert opt.exp_avg_sq_row[0].shape == (4,) and opt.exp_avg_sq_col[0].shape == (3,)
    assert opt.exp_avg_sq[0].shape == (1,) and opt.exp_avg_sq[1].shape == (3,)
    assert opt.step.name == "afactor_step"


@pytest.mark.parametrize(
    "make, err, msg",
    [
        (lambda p: nn.AdaMax(p, beta1=1.0), ValueError, "beta1"),
        (lambda p: nn.AdaMax(p, eps=1), TypeError, "eps"),
        (lambda p: nn.Adadelta(p, rho=1.5), ValueError, "rho"),
        (lambda p: nn.ASGD(p, lambd=1), TypeError, "lambd"),
        (lambda p: nn.Rprop(p, etas=[0.5, 1.2]), TypeError, "etas must be a tuple"),
        (lambda p: nn.Rprop(p, etas=(0.5, 0.9)), ValueError, "etaplus must be greater than 1.0"),
        (lambda p: nn.Rprop(p, step_sizes=(2.0, 1.0)), ValueError, "maximal step size"),
        (lambda p: nn.FTRL(p, lr_power=0.5), ValueError, "lr_power"),
        (lambda p: nn.FTRL(p, learning_rate=[0.1, 0.2]), ValueError, "dynamic learning rate"),
        (lambda p: nn.ProximalAdagrad(p, l1=-1.0), ValueError, "l1"),
        (lambda p: nn.LazyAdam(p, weight_decay=1), TypeError, "weight_dacay"),
        (lambda p: nn.AdaFactor(p, learning_rate=0.1), ValueError, "Cannot combine manual lr"),
        (lambda p: nn.AdaFactor(p, relative_step=False), ValueError, "learning_rate is None"),
        (lambda p: nn.AdaFactor(p, warmup_init=True, relative_step=False, learning_rate=0.1), ValueError, "warmup"),
        (lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9), epsilon=1), TypeError, "epsilon"),
    ],
)
def test_argument_checks(make, err, msg):
    with pytest.raises(err, match=msg):
        make(make_params())


@pytest.mark.parametrize("cls", [nn.AdaMax, nn.Adadelta, nn.ProximalAdagrad, nn.LazyAdam, nn.Rprop, nn.ASGD])
def test_group_lr_equals_separate(cls):
    a, b = make_params(), make_params()
    grouped = cls([{"params": [a[0]], "lr": 0.05}, {"params": [a[1]]}], learning_rate=0.01)
    w_only = cls([b[0]], learning_rate=0.05)
    b_only = cls([b[1]], learning_rate=0.01)
    for s in range(2):
        g = grads(s)
        grouped(g)
        w_only((g[0],))
        b_only((g[1],))
    for x, y in zip(a, b):
        np.testing.assert_allclose(x.asnumpy(), y.asnumpy(), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("cls", [nn.AdaMax, nn.Adadelta, nn.LazyAdam])
def test_dynamic_lr_list_and_get_lr(cls):
    lrs = [0.1, 0.05, 0.02]
    a, b = make_params(), make_params()
    dyn = cls(a, learning_rate=lrs)
    for s, lr in enumerate(lrs):
        np.testing.assert_allclose(dyn.get_lr().asnumpy(), np.float32(lr))
        dyn(grads(s))
        fixed = cls(b, learning_rate=lr)
        # a fresh fixed-rate optimizer only matches on the first step (state restarts); compare step 0 only
        if s == 0:
            fixed(grads(0))
            for x, y in zip(a, b):
                np.testing.assert_allclose(x.asnumpy(), y.asnumpy(), rtol=1e-6, atol=1e-7)
    assert dyn.global_step.asnumpy().tolist() == [3]


def np_lars_update(w, g, wd, lr, eps=1e-5, coef=0.001, clip=False):
    wn, gn = np.sqrt((w * w).sum()), np.sqrt((g * g).sum())
    c = coef * wn / (gn + wd * wn + eps) if wn > 0 and gn > 0 else 1.0
    if clip and wn > 0 and gn > 0:
        c = min(max(c / lr, 0.0), 1.0)
    return c * (g + wd * w)


@pytest.mark.parametrize("clip", [False, True])
def test_lars_update_formula(clip):
    rs = np.random.RandomState(3)
    w, g = rs.uniform(-1, 1, (4, 3)).astype(np.float32), rs.uniform(-1, 1, (4, 3)).astype(np.float32)
    op = ops.LARSUpdate(1e-5, 0.001, clip)
    out = op(Tensor(w), Tensor(g), Tensor((w * w).sum()), Tensor((g * g).sum()), 0.1, Tensor(np.float32(0.01)))
    np.testing.assert_allclose(out.asnumpy(), np_lars_update(w, g, 0.1, 0.01, clip=clip), rtol=1e-5)
    zero = op(Tensor(np.zeros_like(w)), Tensor(g), Tensor(np.float32(0)), Tensor((g * g).sum()), 0.1, 0.01)
    np.testing.assert_allclose(zero.asnumpy(), g, rtol=1e-6)
    with pytest.raises(TypeError, match="use_clip"):
        ops.LARSUpdate(use_clip=1)


def test_lars_wraps_momentum():
    params = make_params()
    inner = nn.Momentum(params, 0.1, 0.9, weight_decay=0.1, loss_scale=2.0)
    opt = nn.LARS(inner, epsilon=1e-5, coefficient=0.001)
    assert opt.lars_flag == (True, False) and inner.decay_flags == (False, False)
    w, b = (p.asnumpy().copy() for p in params)
    mw, mb = np.zeros_like(w), np.zeros_like(b)
    for s in range(3):
        gw, gb = (x.asnumpy() for x in grads(s))
        opt((Tensor(gw * 2), Tensor(gb * 2)))  # gradients of a loss scaled by 2
        uw = np_lars_update(w, gw, 0.1 * 2.0 / 2.0, 0.0)  # the decay was multiplied by the loss scale
        mw = mw * np.float32(0.9) + uw
        w = w - np.float32(0.1) * mw
        mb = mb * np.float32(0.9) + gb
        b = b - np.float32(0.1) * mb
        np.testing.assert_allclose(params[0].asnumpy(), w, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(params[1].asnumpy(), b, rtol=1e-5, atol=1e-6)
    assert opt.global_step is inner.global_step and inner.global_step.asnumpy().tolist() == [3]


def test_ftrl_l1_formula():
    # FTRL's documented shrinkage sign(linear) * l1 - linear (MindSpore's CPU kernel differs when l1 > 0)
    p = [Parameter(Tensor(np.array([0.5, -0.5, 0.01], np.float32)), name="w")]
    opt = nn.FTRL(p, learning_rate=0.1, l1=0.05, l2=0.0)
    g = np.array([0.3, -0.3, 0.0], np.float32)
    opt((Tensor(g),))
    acc = np.float32(0.1) + g * g
    lin = g - (np.sqrt(acc) - np.sqrt(np.float32(0.1))) / np.float32(0.1) * np.array([0.5, -0.5, 0.01], np.float32)
    q = np.sqrt(acc) / np.float32(0.1)
    want = np.where(np.abs(lin) > 0.05, (np.sign(lin) * 0.05 - lin) / q, 0.0)
    np.testing.assert_allclose(p[0].asnumpy(), want, rtol=1e-5, atol=1e-7)


def test_jit_training_step_with_new_optimizer():
    net = nn.Dense(3, 2)
    opt = nn.AdaMax(net.trainable_params(), 0.01)
    loss_fn = nn.MSELoss()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    x = Tensor(np.ones((4, 3), np.float32))
    y = Tensor(np.zeros((4, 2), np.float32))
    first = float(step(x, y).asnumpy())
    for _ in range(5):
        last = float(step(x, y).asnumpy())
    assert last < first and opt.global_step.asnumpy().tolist() == [6]
    assert ms.float32 == opt.beta1_power.dtype


def test_optimizer_helper_members():
    params = make_params()
    opt = nn.ProximalAdagrad(params, learning_rate=0.1)
    g = grads(0)
    assert opt.flatten_gradients(g) is g  # sporax never flattens parameters
    assert opt.broadcast_params(g) is g
    opt.target = "CPU"
    assert opt.target == "CPU"
    with pytest.raises(ValueError, match="must be one of"):
        opt.target = "TPU"
    assert opt.get_lr_parameter(params[0]).name == "learning_rate"
