"""The optimizer-update primitive cases of tests/ut/nn/test_optim_ops.py and tools/make_optim_ops_reference.py,
written once: ``cases(ops, Tensor)`` builds them with sporax's or MindSpore's ``ops`` and ``Tensor``.

Each case: (constructor, [(parameter name, initial values)], the other inputs after the parameters).
"""

import numpy as np


def arr(seed, lo=-1.0, hi=1.0):
    return np.random.RandomState(seed).uniform(lo, hi, (2, 3)).astype(np.float32)


def cases(ops, Tensor):
    def f(x):
        return Tensor(np.float32(x))

    return {
        "ApplyAdaMax": (
            lambda: ops.ApplyAdaMax(),
            [("var", arr(1)), ("m", arr(2)), ("v", arr(3, 0.1, 1.0))],
            lambda: [f(0.9), f(0.01), f(0.9), f(0.99), f(1e-8), Tensor(arr(4))],
        ),
        "ApplyAdadelta": (
            lambda: ops.ApplyAdadelta(),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0)), ("accum_update", arr(3, 0.1, 1.0))],
            lambda: [f(0.5), f(0.9), f(1e-6), Tensor(arr(4))],
        ),
        "ApplyAdagrad": (
            lambda: ops.ApplyAdagrad(),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0))],
            lambda: [f(0.1), Tensor(arr(4))],
        ),
        "ApplyAdagradV2": (
            lambda: ops.ApplyAdagradV2(epsilon=1e-6),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0))],
            lambda: [f(0.1), Tensor(arr(4))],
        ),
        "ApplyFtrl": (
            lambda: ops.ApplyFtrl(),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0)), ("linear", arr(3))],
            lambda: [Tensor(arr(4)), f(0.1), f(0.0), f(0.02), f(-0.5)],
        ),
        "ApplyProximalAdagrad": (
            lambda: ops.ApplyProximalAdagrad(),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0))],
            lambda: [f(0.1), f(0.01), f(0.02), Tensor(arr(4))],
        ),
        "ApplyMomentum": (
            lambda: ops.ApplyMomentum(),
            [("variable", arr(1)), ("accumulation", arr(2))],
            lambda: [f(0.1), Tensor(arr(4)), f(0.9)],
        ),
        "ApplyRMSProp": (
            lambda: ops.ApplyRMSProp(),
            [("var", arr(1)), ("mean_square", arr(2, 0.1, 1.0)), ("moment", arr(3))],
            lambda: [f(0.01), Tensor(arr(4)), 0.9, 0.5, 1e-6],
        ),
        "ApplyCenteredRMSProp": (
            lambda: ops.ApplyCenteredRMSProp(),
            [
                ("var", arr(1)),
                ("mean_gradient", arr(2, -0.1, 0.1)),
                ("mean_square", arr(3, 0.5, 1.0)),
                ("moment", arr(5)),
            ],
            lambda: [Tensor(arr(4)), f(0.01), f(0.9), f(0.5), f(1e-6)],
        ),
        "ApplyGradientDescent": (
            lambda: ops.ApplyGradientDescent(),
            [("var", arr(1))],
            lambda: [f(0.1), Tensor(arr(4))],
        ),
        "ApplyProximalGradientDescent": (
            lambda: ops.ApplyProximalGradientDescent(),
            [("var", arr(1))],
            lambda: [f(0.1), f(0.05), f(0.02), Tensor(arr(4))],
        ),
        "ApplyPowerSign": (
            lambda: ops.ApplyPowerSign(),
            [("var", arr(1)), ("m", arr(2))],
            lambda: [f(0.1), f(np.e), f(0.99), f(0.9), Tensor(arr(4))],
        ),
        "ApplyAddSign": (
            lambda: ops.ApplyAddSign(),
            [("var", arr(1)), ("m", arr(2))],
            lambda: [f(0.1), f(1.0), f(0.99), f(0.9), Tensor(arr(4))],
        ),
        "Adam": (
            lambda: ops.Adam(),
            [("var", arr(1)), ("m", arr(2)), ("v", arr(3, 0.1, 1.0))],
            lambda: [f(0.9), f(0.999), f(0.01), f(0.9), f(0.999), f(1e-8), Tensor(arr(4))],
        ),
        "Adam_nesterov": (
            lambda: ops.Adam(use_nesterov=True),
            [("var", arr(1)), ("m", arr(2)), ("v", arr(3, 0.1, 1.0))],
            lambda: [f(0.9), f(0.999), f(0.01), f(0.9), f(0.999), f(1e-8), Tensor(arr(4))],
        ),
        "AdamNoUpdateParam": (
            lambda: ops.AdamNoUpdateParam(),
            [("m", arr(2)), ("v", arr(3, 0.1, 1.0))],
            lambda: [f(0.9), f(0.999), f(0.01), f(0.9), f(0.999), f(1e-8), Tensor(arr(4))],
        ),
        "ApplyKerasMomentum": (
            lambda: ops.ApplyKerasMomentum(),
            [("var", arr(1)), ("accum", arr(2))],
            lambda: [f(0.1), Tensor(arr(4)), f(0.9)],
        ),
        "ApplyKerasMomentum_nesterov": (
            lambda: ops.ApplyKerasMomentum(use_nesterov=True),
            [("var", arr(1)), ("accum", arr(2))],
            lambda: [f(0.1), Tensor(arr(4)), f(0.9)],
        ),
        "ApplyAdamWithAmsgrad": (
            lambda: ops.ApplyAdamWithAmsgrad(0.9, 0.999, 1e-8),
            [("var", arr(1)), ("m", arr(2)), ("v", arr(3, 0.1, 1.0)), ("vhat", arr(5, 0.1, 1.0))],
            lambda: [f(0.9), f(0.999), f(0.01), Tensor(arr(4))],
        ),
        "SparseApplyAdagrad": (
            lambda: ops.SparseApplyAdagrad(lr=0.1),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0))],
            lambda: [Tensor(arr(4)[:1]), Tensor(np.array([1], np.int32))],
        ),
        "SparseApplyAdagradV2": (
            lambda: ops.SparseApplyAdagradV2(lr=0.1, epsilon=1e-6),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0))],
            lambda: [Tensor(arr(4)), Tensor(np.array([1, 0], np.int32))],
        ),
        "SparseApplyProximalAdagrad": (
            lambda: ops.SparseApplyProximalAdagrad(),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0))],
            lambda: [f(0.1), f(0.01), f(0.02), Tensor(arr(4)[:1]), Tensor(np.array([1], np.int32))],
        ),
        "SparseApplyFtrl": (
            lambda: ops.SparseApplyFtrl(lr=0.1, l1=0.0, l2=0.02, lr_power=-0.5),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0)), ("linear", arr(3))],
            lambda: [Tensor(arr(4)[:1]), Tensor(np.array([1], np.int32))],
        ),
        "SGD_nesterov": (
            lambda: ops.SGD(0.0, 0.1, True),
            [("parameters", arr(1)), ("accum", arr(2)), ("stat", np.ones((2, 3), np.float32))],
            None,
        ),
        "SGD_plain": (
            lambda: ops.SGD(0.0, 0.0, False),
            [("parameters", arr(1)), ("accum", arr(2)), ("stat", np.ones((2, 3), np.float32))],
            None,
        ),
        "SGD_dampening": (
            lambda: ops.SGD(0.3, 0.0, False),
            [("parameters", arr(1)), ("accum", arr(2)), ("stat", np.ones((2, 3), np.float32))],
            None,
        ),
        "FusedSparseAdam": (
            lambda: ops.FusedSparseAdam(),
            [("var", arr(1)), ("m", arr(2)), ("v", arr(3, 0.1, 1.0))],
            lambda: [
                f(0.9),
                f(0.999),
                f(0.01),
                f(0.9),
                f(0.999),
                f(1e-8),
                Tensor(arr(4)[:1]),
                Tensor(np.array([1], np.int32)),
            ],
        ),
        "FusedSparseLazyAdam": (
            lambda: ops.FusedSparseLazyAdam(),
            [("var", arr(1)), ("m", arr(2)), ("v", arr(3, 0.1, 1.0))],
            lambda: [
                f(0.9),
                f(0.999),
                f(0.01),
                f(0.9),
                f(0.999),
                f(1e-8),
                Tensor(arr(4)[:1]),
                Tensor(np.array([1], np.int32)),
            ],
        ),
        "FusedSparseFtrl": (
            lambda: ops.FusedSparseFtrl(lr=0.1, l1=0.0, l2=0.02, lr_power=-0.5),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0)), ("linear", arr(3))],
            lambda: [Tensor(arr(4)[:1]), Tensor(np.array([1], np.int32))],
        ),
        "FusedSparseProximalAdagrad": (
            lambda: ops.FusedSparseProximalAdagrad(),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0))],
            lambda: [f(0.1), f(0.01), f(0.02), Tensor(arr(4)[:1]), Tensor(np.array([1], np.int32))],
        ),
        "ApplyAdamWithAmsgradV2": (
            lambda: ops.ApplyAdamWithAmsgradV2(),
            [("var", arr(1)), ("m", arr(2)), ("v", arr(3, 0.1, 1.0)), ("vhat", arr(5, 0.1, 1.0))],
            lambda: [f(0.9), f(0.999), f(0.01), f(0.9), f(0.999), f(1e-8), Tensor(arr(4))],
        ),
        "SparseApplyAdadelta": (
            lambda: ops.SparseApplyAdadelta(1e-6),
            [("var", arr(1)), ("accum", arr(2, 0.1, 1.0)), ("accum_update", arr(3, 0.1, 1.0))],
            lambda: [f(0.5), f(0.9), Tensor(arr(4)), Tensor(np.array([1, 0], np.int32))],
        ),
        "ApplyAdagradDA": (
            lambda: ops.ApplyAdagradDA(),
            [("var", arr(1)), ("gradient_accumulator", arr(2)), ("gradient_squared_accumulator", arr(3, 0.1, 1.0))],
            lambda: [Tensor(arr(4)), f(0.1), f(0.0), f(0.02), Tensor(np.int32(2))],  # l1=0: see _L1_NOTE
        ),
        "AdamWeightDecay": (
            lambda: ops.AdamWeightDecay(),
            [("var", arr(1)), ("m", arr(2)), ("v", arr(3, 0.1, 1.0))],
            lambda: [f(0.01), f(0.9), f(0.999), f(1e-6), f(0.1), Tensor(arr(4))],
        ),
        "SparseApplyRMSProp": (
            lambda: ops.SparseApplyRMSProp(0.9, 0.5, 1e-6),
            [("var", arr(1)), ("ms", arr(2, 0.1, 1.0)), ("mom", arr(3))],
            lambda: [f(0.01), Tensor(arr(4)), Tensor(np.array([1, 0], np.int32))],
        ),
    }


def call(name, op, ps, rest, Tensor):
    """One call of case ``name``'s primitive ``op`` on its Parameters ``ps``."""
    if name.startswith("SGD"):  # (parameters, gradient, learning_rate, accum, momentum, stat)
        momentum = 0.0 if name == "SGD_plain" else 0.9
        return op(ps[0], Tensor(arr(4)), Tensor(np.float32(0.1)), ps[1], Tensor(np.float32(momentum)), ps[2])
    return op(*ps, *rest())
