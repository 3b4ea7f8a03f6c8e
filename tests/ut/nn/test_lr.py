"""Learning-rate schedule Cells and dynamic_lr lists against hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.nn import dynamic_lr, learning_rate_schedule


def lr_at(schedule, step: int, as_param_shape: bool = False) -> float:
    x = Tensor(np.array([step], np.int32)) if as_param_shape else Tensor(step, ms.int32)
    out = schedule(x)
    assert out.dtype == ms.float32
    assert out.shape == ((1,) if as_param_shape else ())
    return float(out.asnumpy().reshape(()))


# ------------------------------------------------------------------- cells
@pytest.mark.parametrize(
    "schedule, expected",
    [
        (nn.ExponentialDecayLR(0.1, 0.9, 4), lambda s: 0.1 * 0.9 ** (s / 4)),
        (nn.ExponentialDecayLR(0.1, 0.9, 4, is_stair=True), lambda s: 0.1 * 0.9 ** (s // 4)),
        (nn.NaturalExpDecayLR(0.1, 0.9, 4), lambda s: 0.1 * math.exp(-0.9 * s)),
        (nn.NaturalExpDecayLR(0.1, 0.9, 4, True), lambda s: 0.1 * math.exp(-0.9 * (s // 4) * 4)),
        (nn.InverseDecayLR(0.1, 0.5, 4), lambda s: 0.1 / (1 + 0.5 * s / 4)),
        (nn.InverseDecayLR(0.1, 0.5, 4, True), lambda s: 0.1 / (1 + 0.5 * (s // 4))),
        (nn.CosineDecayLR(0.01, 0.1, 4), lambda s: 0.01 + 0.045 * (1 + math.cos(math.pi * min(s, 4) / 4))),
        (nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5), lambda s: 0.09 * (1 - min(s, 4) / 4) ** 0.5 + 0.01),
        (
            nn.PolynomialDecayLR(0.1, 0.01, 4, 2.0, update_decay_steps=True),
            lambda s: 0.09 * (1 - s / (4 * max(math.ceil(s / 4), 1))) ** 2.0 + 0.01,
        ),
        (nn.WarmUpLR(0.1, 4), lambda s: 0.1 * min(s, 4) / 4),
    ],
)
def test_schedule_values(schedule, expected):
    assert isinstance(schedule, learning_rate_schedule.LearningRateSchedule)
    for s in range(11):
        np.testing.assert_allclose(lr_at(schedule, s), expected(s), rtol=2e-6, atol=1e-9, err_msg=f"step {s}")
    np.testing.assert_allclose(lr_at(schedule, 5, as_param_shape=True), expected(5), rtol=2e-6)


def test_docstring_values():
    step = Tensor(2, ms.int32)
    np.testing.assert_allclose(float(nn.ExponentialDecayLR(0.1, 0.9, 4)(step).asnumpy()), 0.09486833, rtol=1e-7)
    assert float(nn.NaturalExpDecayLR(0.1, 0.9, 4, True)(step).asnumpy()) == np.float32(0.1)
    assert float(nn.InverseDecayLR(0.1, 0.9, 4, True)(step).asnumpy()) == np.float32(0.1)
    np.testing.assert_allclose(float(nn.CosineDecayLR(0.01, 0.1, 4)(step).asnumpy()), 0.055, rtol=1e-6)
    np.testing.assert_allclose(float(nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5)(step).asnumpy()), 0.07363961, rtol=1e-6)
    assert float(nn.WarmUpLR(0.1, 2)(step).asnumpy()) == np.float32(0.1)


def test_schedule_in_graph_mode_and_jit():
    sched = nn.CosineDecayLR(0.0, 1.0, 10)

    @ms.jit
    def f(step):
        return sched(step)

    np.testing.assert_allclose(float(f(Tensor(5, ms.int32)).asnumpy()), 0.5, atol=1e-7)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_allclose(lr_at(sched, 10), 0.0, atol=1e-7)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_base_class():
    class Half(nn.LearningRateSchedule):
        def construct(self, global_step):
            return ms.ops.cast(global_step, ms.float32) * 0.5

    assert lr_at(Half(), 3) == 1.5
    with pytest.raises(NotImplementedError):
        nn.LearningRateSchedule()(Tensor(1, ms.int32))


@pytest.mark.parametrize(
    "make, exc, match",
    [
        (lambda: nn.ExponentialDecayLR(0.1, 0.9, 0), ValueError, "'decay_steps' must be int and must > 0"),
        (lambda: nn.ExponentialDecayLR(0.1, 0.9, 2.0), TypeError, "'decay_steps' must be int"),
        (
            lambda: nn.ExponentialDecayLR(1, 0.9, 2),
            TypeError,
            "For 'ExponentialDecayLR', the 'learning_rate' must be float",
        ),
        (lambda: nn.NaturalExpDecayLR(0.1, -0.9, 2), ValueError, "'decay_rate' must be float and must > 0"),
        (lambda: nn.InverseDecayLR(0.1, 0.9, 2, is_stair=1), TypeError, "'is_stair' must be bool"),
        (lambda: nn.CosineDecayLR(0, 0.1, 2), TypeError, "'min_lr' must be type of float"),
        (lambda: nn.CosineDecayLR(0.2, 0.1, 2), ValueError, "'max_lr' must be greater than the 'min_lr'"),
        (lambda: nn.CosineDecayLR(-0.1, 0.1, 2), ValueError, "'min_lr' must be float and must >= 0"),
        (lambda: nn.PolynomialDecayLR(0.1, 0, 2, 1.0), TypeError, "'end_learning_rate' must be type of float"),
        (lambda: nn.PolynomialDecayLR(0.1, 0.01, 2, 0.0), ValueError, "'power' must be float and must > 0"),
        (lambda: nn.PolynomialDecayLR(0.1, 0.01, 2, 1.0, update_decay_steps=None), TypeError, "update_decay_steps"),
        (lambda: nn.WarmUpLR(1, 2), TypeError, "'learning_rate' must be type of float"),
        (lambda: nn.WarmUpLR(0.1, 0), ValueError, "'warmup_steps' must be int and must > 0"),
    ],
)
def test_schedule_errors(make, exc, match):
    with pytest.raises(exc, match=match):
        make()


# --------------------------------------------------------------- dynamic_lr
def test_piecewise_constant_lr():
    assert nn.piecewise_constant_lr([2, 5, 6], [0.1, 0.05, 0.01]) == [0.1, 0.1, 0.05, 0.05, 0.05, 0.01]
    assert nn.piecewise_constant_lr((1,), (0.3,)) == [0.3]
    with pytest.raises(ValueError, match="size of 'milestone' must be same"):
        nn.piecewise_constant_lr([1, 2], [0.1])
    with pytest.raises(ValueError, match=r"milestone\[1\] must be greater than milestone\[0\]"):
        nn.piecewise_constant_lr([3, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"'milestone\[0\]' must be int and must > 0"):
        nn.piecewise_constant_lr([0], [0.1])
    with pytest.raises(TypeError, match=r"'learning_rates\[0\]' must be float"):
        nn.piecewise_constant_lr([1], [1])
    with pytest.raises(TypeError, match="'milestone' must be"):
        nn.piecewise_constant_lr(3, [0.1])


def test_exponential_decay_lr():
    # step_per_epoch 2, decay_epoch 2: epochs 0,0,1,1,2,2
    assert nn.exponential_decay_lr(0.1, 0.9, 6, 2, 2) == [
        0.1,
        0.1,
        0.1 * 0.9**0.5,
        0.1 * 0.9**0.5,
        0.1 * 0.9,
        0.1 * 0.9,
    ]
    assert nn.exponential_decay_lr(0.1, 0.9, 6, 2, 2, True) == [0.1, 0.1, 0.1, 0.1, 0.1 * 0.9, 0.1 * 0.9]


def test_natural_exp_decay_lr():
    e = math.e
    assert nn.natural_exp_decay_lr(0.1, 0.5, 4, 1, 2) == [0.1, 0.1 * e**-0.5, 0.1 * e**-1.0, 0.1 * e**-1.5]
    # stair: the epoch is rounded down to a multiple of decay_epoch
    assert nn.natural_exp_decay_lr(0.1, 0.5, 6, 2, 2, True) == [0.1, 0.1, 0.1, 0.1, 0.1 * e**-1.0, 0.1 * e**-1.0]


def test_inverse_decay_lr():
    assert nn.inverse_decay_lr(0.1, 0.5, 4, 1, 1) == [0.1, 0.1 / 1.5, 0.1 / 2.0, 0.1 / 2.5]
    assert nn.inverse_decay_lr(0.1, 0.5, 6, 1, 2, True) == [0.1, 0.1, 0.1 / 1.5, 0.1 / 1.5, 0.05, 0.05]
    assert nn.inverse_decay_lr(0.1, 0.5, 3, 1, 2) == [0.1, 0.1 / 1.25, 0.1 / 1.5]


def test_cosine_decay_lr():
    lr = nn.cosine_decay_lr(0.01, 0.1, 6, 1, 2)
    delta = 0.5 * (0.1 - 0.01)
    assert lr[:2] == [0.01 + delta * 2.0, 0.01 + delta * (1 + math.cos(math.pi / 2))]
    assert lr[2:] == [0.01 + delta * (1 + math.cos(math.pi))] * 4  # clamped at decay_epoch
    np.testing.assert_allclose(lr, [0.1, 0.055, 0.01, 0.01, 0.01, 0.01], rtol=1e-12)


def test_polynomial_decay_lr():
    lr = nn.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 2.0)
    delta = 0.1 - 0.01
    assert lr == [delta * (1 - e / 2) ** 2.0 + 0.01 for e in (0, 1, 2, 2, 2, 2)]
    # update_decay_epoch: the decay horizon grows to the next multiple of decay_epoch
    lr = nn.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 1.0, update_decay_epoch=True)
    horizons = [2, 2, 2, 4, 4, 6]
    assert lr == [delta * (1 - e / d) ** 1.0 + 0.01 for e, d in zip(range(6), horizons)]
    np.testing.assert_allclose(lr, [0.1, 0.055, 0.01, 0.0325, 0.01, 0.025], rtol=1e-12)


def test_warmup_lr():
    assert nn.warmup_lr(0.1, 6, 2, 2) == [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]
    assert nn.warmup_lr(0.0, 2, 1, 1) == [0.0, 0.0]


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: nn.exponential_decay_lr(0.1, 0.9, 0, 1, 1), ValueError, "'total_step' must be int and must > 0"),
        (lambda: nn.exponential_decay_lr(0.1, 0.9, 3, 1.0, 1), TypeError, "'step_per_epoch' must be int"),
        (lambda: nn.natural_exp_decay_lr(0.1, 0.9, 3, 1, 0), ValueError, "'decay_epoch' must be int and must > 0"),
        (lambda: nn.inverse_decay_lr(1, 0.9, 3, 1, 1), TypeError, "'learning_rate' must be float"),
        (lambda: nn.inverse_decay_lr(0.1, 0.0, 3, 1, 1), ValueError, "'decay_rate' must be float and must > 0"),
        (lambda: nn.exponential_decay_lr(0.1, 0.9, 3, 1, 1, is_stair="no"), TypeError, "'is_stair' must be bool"),
        (lambda: nn.cosine_decay_lr(1, 2.0, 3, 1, 1), TypeError, "'min_lr' must be type of float"),
        (lambda: nn.cosine_decay_lr(0.5, 0.5, 3, 1, 1), ValueError, "'max_lr' must be greater than the 'min_lr'"),
        (lambda: nn.polynomial_decay_lr(0.1, 1, 3, 1, 1, 1.0), TypeError, "'end_learning_rate' must be type of float"),
        (lambda: nn.polynomial_decay_lr(0.1, 0.0, 3, 1, 1, -1.0), ValueError, "'power' must be float and must > 0"),
        (lambda: nn.warmup_lr(1, 3, 1, 1), TypeError, "'learning_rate' must be type of float"),
        (lambda: nn.warmup_lr(0.1, 3, 1, 0), ValueError, "'warmup_epoch' must be int and must > 0"),
    ],
)
def test_dynamic_lr_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_module_paths_and_exports():
    names = [
        "piecewise_constant_lr",
        "exponential_decay_lr",
        "natural_exp_decay_lr",
        "inverse_decay_lr",
        "cosine_decay_lr",
        "polynomial_decay_lr",
        "warmup_lr",
    ]
    for name in names:
        assert getattr(nn, name) is getattr(dynamic_lr, name) and name in nn.__all__
    for name in learning_rate_schedule.__all__:
        assert getattr(nn, name) is getattr(learning_rate_schedule, name) and name in nn.__all__


def test_dynamic_lr_list_drives_optimizer():
    w = ms.Parameter(Tensor(np.ones(2, np.float32)), name="w")
    lr = nn.warmup_lr(0.2, 4, 1, 2)  # [0.0, 0.1, 0.2, 0.2]
    opt = nn.SGD([w], learning_rate=lr)
    for _ in range(4):
        opt((Tensor(np.ones(2, np.float32)),))
    np.testing.assert_allclose(w.asnumpy(), 1.0 - np.float32(0.1) - 2 * np.float32(0.2), rtol=1e-6)
