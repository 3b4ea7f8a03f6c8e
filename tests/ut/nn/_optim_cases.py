"""The nn optimizer cases of tests/ut/nn/test_optim_reference.py and tools/make_optim_reference.py, written once:
fixed parameters (fc.weight (4, 3), fc.bias (3,), bn.gamma (3,), bn.beta (3,)) and gradients, and ``cases(nn)``,
each optimizer as built with sporax's or MindSpore's ``nn``.
"""

import numpy as np

SHAPES = {"fc.weight": (4, 3), "fc.bias": (3,), "bn.gamma": (3,), "bn.beta": (3,)}


def init_values():
    rs = np.random.RandomState(0)
    return {k: rs.uniform(-1, 1, s).astype(np.float32) for k, s in SHAPES.items()}


def grads_for(step):
    rs = np.random.RandomState(100 + step)
    return {k: rs.uniform(-1, 1, s).astype(np.float32) for k, s in SHAPES.items()}


def make_params(Parameter, Tensor):
    return [Parameter(Tensor(v), name=k) for k, v in init_values().items()]


def cases(nn):
    return {
        "momentum_nesterov_wd": lambda p: nn.Momentum(p, 0.1, 0.9, weight_decay=0.1, use_nesterov=True),
        "momentum_wd_ls": lambda p: nn.Momentum(p, 0.1, 0.9, weight_decay=0.1, loss_scale=2.0),
        "momentum_lr_list": lambda p: nn.Momentum(p, [0.1, 0.05, 0.02, 0.01, 0.005, 0.001, 0.0005], 0.9),
        "sgd_wd": lambda p: nn.SGD(p, 0.1, momentum=0.9, weight_decay=0.1, nesterov=True),
        "adam_wd": lambda p: nn.Adam(p, 0.01, weight_decay=0.1),
        "adamweightdecay": lambda p: nn.AdamWeightDecay(p, 0.01, weight_decay=0.1),
        "rmsprop_wd": lambda p: nn.RMSProp(p, 0.01, momentum=0.5, centered=True, weight_decay=0.1),
        "adagrad_wd": lambda p: nn.Adagrad(p, learning_rate=0.1, weight_decay=0.1),
        "lamb_wd": lambda p: nn.Lamb(p, 0.01, weight_decay=0.1),
        "adamax_wd": lambda p: nn.AdaMax(p, 0.01, weight_decay=0.1),
        "adadelta_wd": lambda p: nn.Adadelta(p, 1.0, weight_decay=0.1),
        "asgd_wd": lambda p: nn.ASGD(p, 0.1, t0=2.0, weight_decay=0.1),
        "rprop_wd": lambda p: nn.Rprop(p, 0.1, weight_decay=0.1),
        # l1=0: MindSpore 2.10's CPU ApplyFtrl kernel takes l1 - linear where FTRL (and its docs) take
        # sign(linear) * l1 - linear, so its values differ from the formula only when l1 > 0
        "ftrl_wd": lambda p: nn.FTRL(p, learning_rate=0.1, l2=0.02, weight_decay=0.1),
        "proximaladagrad_wd": lambda p: nn.ProximalAdagrad(p, learning_rate=0.1, l1=0.01, l2=0.02, weight_decay=0.1),
        "lazyadam_wd": lambda p: nn.LazyAdam(p, 0.01, weight_decay=0.1),
        "lazyadam_nesterov": lambda p: nn.LazyAdam(p, 0.01, use_nesterov=True),
        "adafactor_default": lambda p: nn.AdaFactor(p),
        "adafactor_fixed": lambda p: nn.AdaFactor(
            p, learning_rate=0.01, relative_step=False, scale_parameter=False, warmup_init=False, weight_decay=0.1
        ),
        "lars_momentum": lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9, weight_decay=0.1)),
    }
