"""Optimizers: updates against NumPy float64 references of MindSpore's kernels (three steps, called as
``opt(grads)``, inside ``sporax.jit`` and op by op), groups, dynamic learning rate and weight decay,
loss scale, state names, return values and argument errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops

RTOL, ATOL = 1e-6, 1e-7
MODES = ["call", "jit", "eager"]


def f32(x: float) -> float:
    """A hyperparameter as the kernels see it (a float32 Tensor)."""
    return float(np.float32(x))


W0 = np.array([[0.5, -1.0, 1.5], [2.0, -0.25, 0.75]])
B0 = np.array([0.1, -0.2, 0.3])
GRADS = [
    (np.array([[0.1, -0.2, 0.3], [0.05, 0.4, -0.1]]), np.array([0.2, -0.1, 0.05])),
    (np.array([[-0.3, 0.1, 0.2], [0.15, -0.05, 0.25]]), np.array([-0.1, 0.3, 0.2])),
    (np.array([[0.2, 0.2, -0.4], [-0.1, 0.3, 0.05]]), np.array([0.05, 0.05, -0.3])),
]


def make_params(w_name: str = "w", b_name: str = "b") -> list[Parameter]:
    return [
        Parameter(Tensor(W0.astype(np.float32)), name=w_name),
        Parameter(Tensor(B0.astype(np.float32)), name=b_name),
    ]


def ref_params() -> list[np.ndarray]:
    return [W0.astype(np.float32).astype(np.float64), B0.astype(np.float32).astype(np.float64)]


def ref_grads(step: int) -> list[np.ndarray]:
    return [g.astype(np.float32).astype(np.float64) for g in GRADS[step]]


def tensor_grads(step: int, scale: float = 1.0) -> tuple[Tensor, ...]:
    return tuple(Tensor((g * scale).astype(np.float32)) for g in GRADS[step])


def stepper(opt: nn.Optimizer, mode: str):
    if mode == "call":
        return opt
    if mode == "jit":

        @ms.jit
        def train_step(grads):
            return opt(grads)

        return train_step
    return opt.construct


def run(opt: nn.Optimizer, mode: str, steps: int = 3, scale: float = 1.0) -> list:
    step = stepper(opt, mode)
    return [step(tensor_grads(i, scale)) for i in range(steps)]


# ------------------------------------------------------------- references
def np_sgd(lr, momentum=0.0, dampening=0.0, wd=0.0, nesterov=False, ls=1.0):
    ps, out = ref_params(), []
    for p in ps:
        accum, first = np.zeros_like(p), True
        for i in range(3):
            g = ref_grads(i)[len(out)] * f32(1.0 / ls)
            if wd > 0:
                g = g + p * f32(wd)
            if momentum > 0:
                accum = g if first else f32(momentum) * accum + (1 - f32(dampening)) * g
                first = False
                g = g + accum * f32(momentum) if nesterov else accum
            p = p - f32(lr) * g
        out.append(p)
    return out


def np_momentum(lr, momentum, wd=0.0, nesterov=False, ls=1.0, lrs=None):
    ps, out = ref_params(), []
    for k, p in enumerate(ps):
        v = np.zeros_like(p)
        for i in range(3):
            step_lr = f32(lrs[i] if lrs is not None else lr)
            g = ref_grads(i)[k] + p * f32(wd)
            v = v * f32(momentum) + g
            p = p - (g * step_lr + v * f32(momentum) * step_lr) if nesterov else p - step_lr * v
        out.append(p)
    return out


def np_adam(lr, b1, b2, eps, wd=0.0, nesterov=False, amsgrad=False):
    b1, b2, eps, lr = f32(b1), f32(b2), f32(eps), f32(lr)
    out = []
    for k, p in enumerate(ref_params()):
        m, v, vhat, b1p, b2p = np.zeros_like(p), np.zeros_like(p), np.zeros_like(p), 1.0, 1.0
        for i in range(3):
            g = ref_grads(i)[k] + p * f32(wd)
            b1p, b2p = b1p * b1, b2p * b2
            lr_t = lr * math.sqrt(1 - b2p) / (1 - b1p)
            m = m + (g - m) * (1 - b1)
            v = v + (g * g - v) * (1 - b2)
            if amsgrad:
                vhat = np.maximum(vhat, v)
                upd = m / (np.sqrt(vhat) + eps)
            elif nesterov:
                upd = (m * b1 + (1 - b1) * g) / (eps + np.sqrt(v))
            else:
                upd = m / (eps + np.sqrt(v))
            p = p - lr_t * upd
        out.append(p)
    return out


def np_adamw(lr, b1, b2, eps, wd, decay=(True, True)):
    b1, b2, eps, lr = f32(b1), f32(b2), f32(eps), f32(lr)
    out = []
    for k, p in enumerate(ref_params()):
        m, v = np.zeros_like(p), np.zeros_like(p)
        for i in range(3):
            g = ref_grads(i)[k]
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            upd = m / (eps + np.sqrt(v))
            if decay[k]:
                upd = f32(wd) * p + upd
            p = p - lr * upd
        out.append(p)
    return out


def np_rmsprop(lr, decay, momentum, eps, centered=False, wd=0.0):
    out = []
    for k, p in enumerate(ref_params()):
        ms_, mom, mg = np.ones_like(p), np.zeros_like(p), np.zeros_like(p)
        for i in range(3):
            g = ref_grads(i)[k] + p * f32(wd)
            ms_ = f32(decay) * ms_ + (1 - f32(decay)) * g * g
            denom = ms_ + f32(eps)
            if centered:
                mg = f32(decay) * mg + (1 - f32(decay)) * g
                denom = denom - mg * mg
            mom = f32(momentum) * mom + f32(lr) * g / np.sqrt(denom)
            p = p - mom
        out.append(p)
    return out


def np_adagrad(lr, accum, update_slots=True, wd=0.0):
    out = []
    for k, p in enumerate(ref_params()):
        h = np.full_like(p, f32(accum))
        for i in range(3):
            g = ref_grads(i)[k] + p * f32(wd)
            if update_slots:
                h = h + g * g
            p = p - f32(lr) * g / np.sqrt(h)
        out.append(p)
    return out


def np_lamb(lr, b1, b2, eps, wd, steps=(1, 2, 3), lrs=None):
    b1, b2, eps = f32(b1), f32(b2), f32(eps)
    out = []
    for k, p in enumerate(ref_params()):
        m, v = np.zeros_like(p), np.zeros_like(p)
        for i in range(3):
            g, t = ref_grads(i)[k], steps[i]
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            mm, vv = m / (1 - b1**t), v / (1 - b2**t)
            g_hat = mm / np.sqrt(vv + eps) + f32(wd) * p
            upd = mm / (np.sqrt(vv) + eps) + f32(wd) * p
            w_norm, g_norm = np.linalg.norm(p), np.linalg.norm(g_hat)
            ratio = w_norm / g_norm if w_norm > 0 and g_norm > 0 else 1.0
            ratio = min(max(ratio, 0.0), 10.0)
            p = p - ratio * f32(lrs[i] if lrs is not None else lr) * upd
        out.append(p)
    return out


CASES = {
    "sgd": (lambda ps: nn.SGD(ps, learning_rate=0.1), lambda: np_sgd(0.1)),
    "sgd_momentum": (
        lambda ps: nn.SGD(ps, 0.1, momentum=0.9, dampening=0.1, weight_decay=0.01),
        lambda: np_sgd(0.1, 0.9, 0.1, 0.01),
    ),
    "sgd_nesterov": (
        lambda ps: nn.SGD(ps, 0.05, momentum=0.8, nesterov=True),
        lambda: np_sgd(0.05, 0.8, nesterov=True),
    ),
    "momentum": (lambda ps: nn.Momentum(ps, 0.1, 0.9, weight_decay=0.01), lambda: np_momentum(0.1, 0.9, 0.01)),
    "momentum_nesterov": (
        lambda ps: nn.Momentum(ps, 0.1, 0.9, use_nesterov=True),
        lambda: np_momentum(0.1, 0.9, nesterov=True),
    ),
    "adam": (lambda ps: nn.Adam(ps, 0.01), lambda: np_adam(0.01, 0.9, 0.999, 1e-8)),
    "adam_nesterov_wd": (
        lambda ps: nn.Adam(ps, 0.01, beta1=0.75, beta2=0.875, eps=1e-6, use_nesterov=True, weight_decay=0.1),
        lambda: np_adam(0.01, 0.75, 0.875, 1e-6, wd=0.1, nesterov=True),
    ),
    "adam_amsgrad": (
        lambda ps: nn.Adam(ps, 0.01, beta1=0.75, beta2=0.875, use_amsgrad=True),
        lambda: np_adam(0.01, 0.75, 0.875, 1e-8, amsgrad=True),
    ),
    "adam_weight_decay": (
        lambda ps: nn.AdamWeightDecay(ps, 0.01, weight_decay=0.1),
        lambda: np_adamw(0.01, 0.9, 0.999, 1e-6, 0.1),
    ),
    "rmsprop": (
        lambda ps: nn.RMSProp(ps, 0.01, momentum=0.5, weight_decay=0.01),
        lambda: np_rmsprop(0.01, 0.9, 0.5, 1e-10, wd=0.01),
    ),
    "rmsprop_centered": (
        lambda ps: nn.RMSProp(ps, 0.01, decay=0.8, centered=True),
        lambda: np_rmsprop(0.01, 0.8, 0.0, 1e-10, centered=True),
    ),
    "adagrad": (lambda ps: nn.Adagrad(ps, accum=0.2, learning_rate=0.1), lambda: np_adagrad(0.1, 0.2)),
    "adagrad_frozen": (
        lambda ps: nn.Adagrad(ps, learning_rate=0.1, update_slots=False, weight_decay=0.05),
        lambda: np_adagrad(0.1, 0.1, update_slots=False, wd=0.05),
    ),
    "lamb": (lambda ps: nn.Lamb(ps, 0.1, weight_decay=0.01), lambda: np_lamb(0.1, 0.9, 0.999, 1e-6, 0.01)),
}


def assert_params(params, expected):
    for p, e in zip(params, expected):
        np.testing.assert_allclose(p.asnumpy(), e, rtol=RTOL, atol=ATOL, err_msg=p.name)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_update_matches_reference(case, mode):
    make, ref = CASES[case]
    params = make_params()
    opt = make(params)
    outs = run(opt, mode)
    assert all(o == (True, True) for o in outs)
    assert_params(params, ref())


# ----------------------------------------------------------- state and API
@pytest.mark.parametrize(
    "make, names",
    [
        (lambda ps: nn.SGD(ps), ["accum.w", "accum.b", "stat.w", "stat.b", "momentum"]),
        (lambda ps: nn.Momentum(ps, 0.1, 0.9), ["moments.w", "moments.b", "momentum"]),
        (
            lambda ps: nn.Adam(ps, use_amsgrad=True),
            ["moment1.w", "moment1.b", "moment2.w", "moment2.b", "vhat.w", "vhat.b", "beta1_power", "beta2_power"],
        ),
        (lambda ps: nn.AdamWeightDecay(ps), ["adam_m.w", "adam_m.b", "adam_v.w", "adam_v.b"]),
        (
            lambda ps: nn.RMSProp(ps, centered=True),
            ["mean_square.w", "mean_square.b", "moment.w", "moment.b", "mean_grad.w", "mean_grad.b"],
        ),
        (lambda ps: nn.Adagrad(ps), ["accum.w", "accum.b"]),
        (lambda ps: nn.Lamb(ps, 0.1), ["lamb_m.w", "lamb_m.b", "lamb_v.w", "lamb_v.b"]),
    ],
)
def test_state_names(make, names):
    opt = make(make_params())
    have = opt.parameters_dict()
    for n in [*names, "global_step", "learning_rate", "w", "b"]:
        assert n in have, n
    gs = opt.global_step
    assert gs.dtype == ms.int32 and gs.shape == (1,) and gs.name == "global_step"
    assert opt.learning_rate.dtype == ms.float32 and opt.learning_rate.shape == ()
    assert [p.name for p in opt.parameters] == ["w", "b"]


def test_initial_state_values():
    opt = nn.Adagrad(make_params(), accum=0.3)
    np.testing.assert_allclose(opt.accum[0].asnumpy(), np.full((2, 3), 0.3, np.float32))
    rms = nn.RMSProp(make_params())
    np.testing.assert_array_equal(rms.ms[1].asnumpy(), np.ones(3, np.float32))
    sgd = nn.SGD(make_params())
    np.testing.assert_array_equal(sgd.stat[0].asnumpy(), np.ones((2, 3), np.float32))
    adam = nn.Adam(make_params())
    assert float(adam.beta1_power.asnumpy()) == 1.0 and adam.beta1_power.shape == ()
    run(adam, "call", steps=2)
    np.testing.assert_allclose(adam.beta1_power.asnumpy(), np.float32(0.9) ** 2, rtol=1e-6)
    np.testing.assert_allclose(adam.beta2_power.asnumpy(), np.float32(0.999) ** 2, rtol=1e-6)


def test_fixed_lr_advances_global_step():
    # MindSpore 2.10 advances global_step on every step, fixed lr included (pinned in optim_reference.npz)
    opt = nn.Momentum(make_params(), 0.1, 0.9)
    run(opt, "call")
    assert opt.global_step.asnumpy().tolist() == [3]
    assert not opt.dynamic_lr and not opt.is_group and not opt.is_group_lr
    np.testing.assert_allclose(opt.get_lr().asnumpy(), np.float32(0.1))


def test_lr_int_and_tensor_scalar():
    opt = nn.SGD(make_params(), learning_rate=1)
    assert opt.learning_rate.dtype == ms.float32 and float(opt.learning_rate.asnumpy()) == 1.0
    opt = nn.SGD(make_params(), learning_rate=Tensor(0.25, ms.float64))
    assert opt.learning_rate.dtype == ms.float32 and not opt.dynamic_lr
    run(opt, "call")
    assert_params(opt.parameters, np_sgd(0.25))


# --------------------------------------------------------------- dynamic lr
@pytest.mark.parametrize("mode", ["call", "jit"])
@pytest.mark.parametrize("kind", ["list", "tensor", "tuple"])
def test_dynamic_lr_sequence(kind, mode):
    lrs = [0.1, 0.05, 0.02, 0.01]
    lr = {"list": lrs, "tuple": tuple(lrs), "tensor": Tensor(np.array(lrs, np.float32))}[kind]
    params = make_params()
    opt = nn.Momentum(params, lr, 0.9)
    assert opt.dynamic_lr
    run(opt, mode)
    assert opt.global_step.asnumpy().tolist() == [3]
    assert_params(params, np_momentum(None, 0.9, lrs=lrs))
    lr_param = opt.get_lr_parameter(params[0])
    assert isinstance(lr_param, Parameter) and lr_param.name == "learning_rate"
    np.testing.assert_allclose(lr_param.asnumpy(), np.array(lrs, np.float32))


def test_dynamic_lr_schedule_cell():
    sched = nn.ExponentialDecayLR(0.1, 0.5, 2)
    params = make_params()
    opt = nn.Momentum(params, sched, 0.9)
    assert opt.learning_rate is sched and opt.get_lr_parameter(params) == [sched, sched]
    run(opt, "jit")
    assert opt.global_step.asnumpy().tolist() == [3]
    assert_params(params, np_momentum(None, 0.9, lrs=[0.1 * 0.5 ** (i / 2) for i in range(3)]))


def test_get_lr_leaves_global_step_when_dynamic():
    # MindSpore 2.10: get_lr only reads; each step advances global_step once (optim_reference momentum_lr_list)
    opt = nn.SGD(make_params(), learning_rate=[0.3, 0.2, 0.1])
    for _ in range(3):
        lr = opt.get_lr()
        assert lr.shape == ()
        np.testing.assert_allclose(lr.asnumpy(), np.float32(0.3))
        assert opt.global_step.asnumpy().tolist() == [0]
    for i, expected in enumerate([0.3, 0.2, 0.1]):
        np.testing.assert_allclose(opt.get_lr().asnumpy(), np.float32(expected))
        opt(tensor_grads(i))
        assert opt.global_step.asnumpy().tolist() == [i + 1]


def test_rmsprop_and_lamb_advance_global_step_every_call():
    rms = nn.RMSProp(make_params(), 0.01)
    run(rms, "call", steps=2)
    assert rms.global_step.asnumpy().tolist() == [2]
    rms = nn.RMSProp(make_params(), [0.01, 0.02, 0.03, 0.04])
    run(rms, "call", steps=2)
    assert rms.global_step.asnumpy().tolist() == [2]  # MindSpore 2.10: once per step, dynamic lr or not
    lrs = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    params = make_params()
    lamb = nn.Lamb(params, lrs)
    run(lamb, "call")
    assert lamb.global_step.asnumpy().tolist() == [3]
    assert_params(params, np_lamb(None, 0.9, 0.999, 1e-6, 0.0, steps=(1, 2, 3), lrs=[0.1, 0.2, 0.3]))


def test_dynamic_lr_errors():
    with pytest.raises(ValueError, match="dimension of it should be 0 or 1"):
        nn.SGD(make_params(), Tensor(np.ones((2, 2), np.float32)))
    with pytest.raises(TypeError, match="must be int, float, Tensor, Iterable or LearningRateSchedule"):
        nn.SGD(make_params(), "0.1")
    with pytest.raises(ValueError, match="learning rate"):
        nn.SGD(make_params(), -0.1)
    with pytest.raises(ValueError, match="same size"):
        nn.SGD([{"params": make_params(), "lr": [0.1, 0.2]}], learning_rate=[0.1, 0.2, 0.3])


# --------------------------------------------------------------- groups
def conv_weight() -> Parameter:
    x = np.linspace(-1.0, 1.0, 2 * 16 * 2).reshape(2, 16, 2, 1).astype(np.float32)
    return Parameter(Tensor(x), name="conv.weight")


@pytest.mark.parametrize("mode", ["call", "jit", "eager"])
def test_group_lr_weight_decay_centralization_order(mode):
    w, b = make_params()
    cw = conv_weight()
    groups = [
        {"params": [w], "lr": 0.05, "weight_decay": 0.1},
        {"params": [b, cw], "grad_centralization": True},
        {"order_params": [cw, w, b]},
    ]
    opt = nn.Momentum(groups, learning_rate=0.1, momentum=0.9, weight_decay=0.0)
    assert opt.is_group and opt.is_group_lr and not opt.dynamic_lr
    assert [p.name for p in opt.parameters] == ["conv.weight", "w", "b"]
    assert [lr.name for lr in opt.learning_rate] == ["learning_rate", "learning_rate_group_0", "learning_rate"]
    assert opt.decay_flags == (False, True, False)
    assert opt.grad_centralization_flags == (True, False, True)
    assert float(opt.get_lr_parameter(w).asnumpy()) == np.float32(0.05)
    assert [float(x.asnumpy()) for x in opt.get_lr_parameter([b, cw])] == [np.float32(0.1)] * 2
    gcw = np.cos(np.arange(64.0)).reshape(2, 16, 2, 1).astype(np.float32)
    step = stepper(opt, mode)
    ref_cw, ref_w, ref_b = cw.asnumpy().astype(np.float64), ref_params()[0], ref_params()[1]
    vcw, vw, vb = np.zeros_like(ref_cw), np.zeros_like(ref_w), np.zeros_like(ref_b)
    for i in range(2):
        gw, gb = ref_grads(i)
        step((Tensor(gcw * (i + 1)), *tensor_grads(i)))
        g = gcw.astype(np.float64) * (i + 1)
        g = g - g.mean(axis=(1, 2, 3), keepdims=True)
        vcw = 0.9 * vcw + g
        ref_cw = ref_cw - f32(0.1) * vcw
        vw = f32(0.9) * vw + gw + f32(0.1) * ref_w
        ref_w = ref_w - f32(0.05) * vw
        vb = f32(0.9) * vb + gb  # rank 1: no centralization
        ref_b = ref_b - f32(0.1) * vb
    np.testing.assert_allclose(cw.asnumpy(), ref_cw, rtol=RTOL, atol=1e-6)
    np.testing.assert_allclose(w.asnumpy(), ref_w, rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(b.asnumpy(), ref_b, rtol=RTOL, atol=ATOL)


def test_group_dynamic_lr_mixed_with_fixed():
    w, b = make_params()
    sched = nn.PolynomialDecayLR(0.1, 0.01, 4, 2.0)
    opt = nn.SGD([{"params": [w], "lr": sched}, {"params": [b]}], learning_rate=0.2)
    assert opt.dynamic_lr and opt.is_group_lr and isinstance(opt.learning_rate, nn.CellList)
    assert opt.get_lr_parameter(w) is sched
    fixed = opt.get_lr_parameter(b)
    assert isinstance(fixed, Parameter) and fixed.name == "learning_rate"
    run(opt, "jit")
    assert opt.global_step.asnumpy().tolist() == [3]
    lr_w = [(0.1 - 0.01) * (1 - min(i, 4) / 4) ** 2 + 0.01 for i in range(3)]
    ref_w, ref_b = ref_params()
    for i in range(3):
        gw, gb = ref_grads(i)
        ref_w = ref_w - f32(lr_w[i]) * gw
        ref_b = ref_b - f32(0.2) * gb
    np.testing.assert_allclose(w.asnumpy(), ref_w, rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(b.asnumpy(), ref_b, rtol=RTOL, atol=ATOL)


def test_group_adam_weight_decay_flags():
    w, b = make_params()
    opt = nn.AdamWeightDecay([{"params": [w], "weight_decay": 0.1}, {"params": [b]}], 0.01)
    assert opt.decay_flags == (True, False)
    run(opt, "call")
    assert_params([w, b], np_adamw(0.01, 0.9, 0.999, 1e-6, 0.1, decay=(True, False)))


def test_group_errors():
    w, b = make_params()
    with pytest.raises(KeyError, match="must be one of in"):
        nn.SGD([{"params": [w], "momentum": 0.1}])
    with pytest.raises(RuntimeError, match="already exists"):
        nn.SGD([{"params": [w]}, {"params": [w]}])
    with pytest.raises(ValueError, match="length of order parameters"):
        nn.SGD([{"params": [w, b]}, {"order_params": [w]}])
    with pytest.raises(ValueError, match="should only include the 'order_params' key"):
        nn.SGD([{"params": [w]}, {"order_params": [w], "lr": 0.1}])
    with pytest.raises(TypeError, match="must be Parameter type"):
        nn.SGD([{"params": [w, 1.0]}])
    with pytest.raises(TypeError, match="gradients_centralization"):
        nn.SGD([{"params": [w], "grad_centralization": 1}])
    with pytest.raises(TypeError, match="'Parameter' or 'dict'"):
        nn.SGD([w, {"params": [b]}])


# ---------------------------------------------------- weight decay, loss scale
def test_decay_filter_skips_beta_and_gamma():
    params = make_params("bn.gamma", "bn.beta")
    opt = nn.Momentum(params, 0.1, 0.9, weight_decay=0.5)
    assert opt.decay_flags == (False, False)
    run(opt, "call")
    assert_params(params, np_momentum(0.1, 0.9))
    sgd_params = make_params("bn.gamma", "bn.beta")
    sgd = nn.SGD(sgd_params, 0.1, weight_decay=0.5)  # MindSpore 2.10's SGD uses the same filter (optim_reference)
    run(sgd, "call")
    assert_params(sgd_params, np_sgd(0.1))


@pytest.mark.parametrize(
    "make, ref",
    [
        (lambda ps: nn.Momentum(ps, 0.1, 0.9, weight_decay=0.01, loss_scale=8.0), lambda: np_momentum(0.1, 0.9, 0.01)),
        (lambda ps: nn.SGD(ps, 0.1, momentum=0.5, weight_decay=0.01, loss_scale=8), lambda: np_sgd(0.1, 0.5, wd=0.01)),
        (lambda ps: nn.Adam(ps, 0.01, loss_scale=4.0), lambda: np_adam(0.01, 0.9, 0.999, 1e-8)),
        (lambda ps: nn.RMSProp(ps, 0.01, loss_scale=2.0), lambda: np_rmsprop(0.01, 0.9, 0.0, 1e-10)),
        (lambda ps: nn.Adagrad(ps, learning_rate=0.1, loss_scale=16.0), lambda: np_adagrad(0.1, 0.1)),
    ],
)
def test_loss_scale_divides_gradients(make, ref):
    params = make_params()
    opt = make(params)
    scale = opt.loss_scale
    assert opt.need_scale and isinstance(scale, float)
    run(opt, "call", scale=scale)
    assert_params(params, ref())


def test_scale_grad_and_decay_weight_helpers():
    params = make_params()
    opt = nn.Momentum(params, 0.1, 0.9, weight_decay=0.5, loss_scale=4.0)
    grads = tensor_grads(0)
    scaled = opt.scale_grad(grads)
    np.testing.assert_allclose(scaled[0].asnumpy(), GRADS[0][0].astype(np.float32) / 4, rtol=1e-7)
    decayed = opt.decay_weight(grads)  # weight decay is stored multiplied by the loss scale
    np.testing.assert_allclose(decayed[1].asnumpy(), (GRADS[0][1] + 2.0 * B0).astype(np.float32), rtol=1e-6)
    np.testing.assert_allclose(opt.get_weight_decay().asnumpy(), np.float32(2.0))
    plain = nn.Momentum(make_params(), 0.1, 0.9)
    assert plain.scale_grad(grads) is grads and plain.decay_weight(grads) is grads
    assert plain.gradients_centralization(grads) is grads


class _StepDecay(nn.Cell):
    """Weight decay 0.1 * (step + 1)."""

    def construct(self, global_step):
        return 0.1 * (ops.cast(global_step, ms.float32).reshape(()) + 1.0)


def test_dynamic_weight_decay():
    params = make_params()
    opt = nn.Momentum(params, 0.1, 0.9, weight_decay=_StepDecay())
    assert opt.dynamic_weight_decay and not opt.dynamic_lr
    run(opt, "jit")
    assert opt.global_step.asnumpy().tolist() == [3]
    out = []
    for k, p in enumerate(ref_params()):
        v = np.zeros_like(p)
        for i in range(3):
            g = ref_grads(i)[k] + p * f32(0.1 * (i + 1))
            v = f32(0.9) * v + g
            p = p - f32(0.1) * v
        out.append(p)
    assert_params(params, out)
    with pytest.raises(TypeError, match="dynamic weight decay is currently not supported"):
        nn.SGD(make_params(), weight_decay=_StepDecay())


def test_centered_rmsprop_skips_non_positive_variance():
    params = make_params()
    opt = nn.RMSProp(params, 0.01, decay=0.5, momentum=0.5, centered=True)
    opt.mg[1].set_data(Tensor(np.full(3, 5.0, np.float32)))  # mean_grad^2 > mean_square: skipped
    opt(tensor_grads(0))
    gb = GRADS[0][1].astype(np.float32)
    np.testing.assert_array_equal(params[1].asnumpy(), B0.astype(np.float32))
    np.testing.assert_array_equal(opt.moment[1].asnumpy(), np.zeros(3, np.float32))
    np.testing.assert_allclose(opt.mg[1].asnumpy(), 5.0 + (gb - 5.0) * 0.5, rtol=1e-6)
    np.testing.assert_allclose(opt.ms[1].asnumpy(), 1.0 + (gb * gb - 1.0) * 0.5, rtol=1e-6)
    assert not np.allclose(params[0].asnumpy(), W0)


def test_float16_parameters_keep_their_dtype():
    w = Parameter(Tensor(W0.astype(np.float16)), name="w")
    opt = nn.Adam([w], 0.01)
    opt((Tensor(GRADS[0][0].astype(np.float16)),))
    assert w.dtype == ms.float16 and opt.moment1[0].dtype == ms.float16
    np.testing.assert_allclose(w.asnumpy(), W0 - 0.01 * np.sign(GRADS[0][0]), rtol=2e-3)


# ------------------------------------------------------------ integration
def test_train_one_step_cell_and_graph_mode():
    net = nn.Dense(3, 2)
    w0, b0 = net.weight.asnumpy().astype(np.float64), net.bias.asnumpy().astype(np.float64)
    loss = nn.MSELoss() if hasattr(nn, "MSELoss") else None
    x = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32)
    y = np.zeros((2, 2), np.float32)
    opt = nn.SGD(net.trainable_params(), learning_rate=0.01)

    def forward(xx, yy):
        out = net(xx)
        return ops.mean(ops.square(out - yy)) if loss is None else loss(out, yy)

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)

    @ms.jit
    def train_step(xx, yy):
        value, grads = grad_fn(xx, yy)
        opt(grads)
        return value

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        train_step(Tensor(x), Tensor(y))
        opt(tuple(ops.zeros_like(p) for p in opt.parameters))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    out = x.astype(np.float64) @ w0.T + b0
    d = 2 * (out - y) / out.size
    np.testing.assert_allclose(net.weight.asnumpy(), w0 - f32(0.01) * d.T @ x, rtol=1e-5)
    np.testing.assert_allclose(net.bias.asnumpy(), b0 - f32(0.01) * d.sum(0), rtol=1e-5)


# ------------------------------------------------------------------ errors
def test_gradient_count_and_shape_errors():
    opt = nn.Momentum(make_params(), 0.1, 0.9)
    with pytest.raises(
        ValueError,
        match=r"For 'Momentum', the number of gradients must be equal to the number of parameters 2, but got 1",
    ):
        opt(tensor_grads(0)[:1])
    with pytest.raises(ValueError, match=r"the shape of gradients\[1\]"):
        opt((tensor_grads(0)[0], Tensor(np.zeros(4, np.float32))))
    with pytest.raises(TypeError, match="must be a tuple of Tensors"):
        opt(tensor_grads(0)[0])


def test_argument_errors():
    ps = make_params
    with pytest.raises(ValueError, match="must not be empty"):
        nn.Momentum([], 0.1, 0.9)
    with pytest.raises(ValueError, match="can not be None"):
        nn.SGD(None)
    with pytest.raises(TypeError, match="must be Iterable"):
        nn.SGD(3)
    with pytest.raises(TypeError, match="'Parameter' or 'dict'"):
        nn.SGD([Tensor(1.0)])
    with pytest.raises(ValueError, match="For 'Momentum', the argument 'momentum' must be at least 0.0"):
        nn.Momentum(ps(), 0.1, -0.9)
    with pytest.raises(TypeError, match="For 'Momentum', the 'momentum' must be float"):
        nn.Momentum(ps(), 0.1, 1)
    with pytest.raises(TypeError, match="use_nesterov"):
        nn.Momentum(ps(), 0.1, 0.9, use_nesterov=1)
    with pytest.raises(ValueError, match="For 'Momentum', the 'learning rate' must be float and must >= 0"):
        nn.Momentum(ps(), -0.1, 0.9)
    with pytest.raises(ValueError, match="'loss_scale' must be float and must > 0"):
        nn.Momentum(ps(), 0.1, 0.9, loss_scale=0.0)
    with pytest.raises(TypeError, match="'loss_scale' must be float"):
        nn.Momentum(ps(), 0.1, 0.9, loss_scale="1")
    with pytest.raises(ValueError, match="'weight_decay' must be float and must >= 0"):
        nn.Momentum(ps(), 0.1, 0.9, weight_decay=-1)
    with pytest.raises(TypeError, match="'Weight_decay' must be int, float or Cell"):
        nn.Momentum(ps(), 0.1, 0.9, weight_decay="0.1")
    with pytest.raises(ValueError, match="For 'SGD', the argument 'momentum' must be at least 0.0"):
        nn.SGD(ps(), momentum=-0.1)
    with pytest.raises(ValueError, match="'dampening' must be at least 0.0"):
        nn.SGD(ps(), dampening=-0.1)
    with pytest.raises(ValueError, match="if 'nesterov' is true"):
        nn.SGD(ps(), nesterov=True)
    with pytest.raises(ValueError, match=r"For 'Adam', the 'beta1' must be in range of \(0.0, 1.0\)"):
        nn.Adam(ps(), beta1=1.0)
    with pytest.raises(TypeError, match="'beta2' must be float"):
        nn.Adam(ps(), beta2=1)
    with pytest.raises(ValueError, match="'eps' must be float and must > 0"):
        nn.AdamWeightDecay(ps(), eps=0.0)
    with pytest.raises(ValueError, match="can not both be True"):
        nn.Adam(ps(), use_lazy=True, use_offload=True)
    with pytest.raises(ValueError, match="use_amsgrad"):
        nn.Adam(ps(), use_amsgrad=True, use_lazy=True)
    with pytest.raises(ValueError, match="'epsilon' must be float and must > 0"):
        nn.RMSProp(ps(), epsilon=0.0)
    with pytest.raises(ValueError, match="'decay' must be float and must >= 0"):
        nn.RMSProp(ps(), decay=-0.5)
    with pytest.raises(TypeError, match="'centered' must be bool"):
        nn.RMSProp(ps(), centered=None)
    with pytest.raises(ValueError, match="'accum' must be float and must >= 0"):
        nn.Adagrad(ps(), accum=-0.1)
    with pytest.raises(TypeError, match="'update_slots' must be bool"):
        nn.Adagrad(ps(), update_slots=1)
    with pytest.raises(ValueError, match="'beta1' must be in range"):
        nn.Lamb(ps(), 0.1, beta1=0.0)


def test_misc_api():
    params = make_params()
    opt = nn.Adam(params, use_offload=True)
    assert opt.target == ms.get_context("device_target")
    opt.target = "CPU"
    with pytest.raises(ValueError, match="must be one of"):
        opt.target = "TPU"
    with pytest.raises(NotImplementedError):
        nn.SGD(make_params()).target = "CPU"
    assert opt.unique is True
    opt.unique = False
    with pytest.raises(TypeError, match="'unique' must be bool"):
        opt.unique = 1
    assert opt.init_args["beta1"] == 0.9 and opt.init_params["params"] is params
    with pytest.raises(ValueError, match="is not in optimizer"):
        opt.get_lr_parameter(Parameter(Tensor(1.0), name="other"))
    with pytest.raises(TypeError, match="'Parameter' or 'list'"):
        opt.get_lr_parameter((params[0],))
    off = nn.AdamOffload(make_params(), 0.01)
    run(off, "call")
    assert_params(off.parameters, np_adam(0.01, 0.9, 0.999, 1e-8))
    assert "Optimizer" in nn.__all__ and "opt_init_args_register" not in nn.__all__
    from sporax.nn.optim.momentum import Momentum
    from sporax.nn.optim.optimizer import Optimizer

    assert Momentum is nn.Momentum and issubclass(Momentum, Optimizer)
