"""``mindspore.mint.optim``: PyTorch-style optimizers (``params`` or param groups, ``lr``, ``betas``...).
Each is a Cell: ``optimizer(grads)`` updates all parameters at once, in eager mode and under ``jit``."""

from __future__ import annotations

from .. import _checkparam as validator
from .. import nn as _nn
from .. import ops
from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor


class _Optimizer(_nn.Cell):
    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        params = list(params)
        if not params:
            raise ValueError("For 'Optimizer', the argument 'params' must not be empty.")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        self.param_groups = []
        flat = []
        for g in groups:
            group = dict(defaults)
            group.update(g)
            group["params"] = list(group["params"])
            flat += group["params"]
            self.param_groups.append(group)
        self.defaults = defaults
        self.parameters = tuple(flat)
        self.state_step = Parameter(Tensor(0, mstype.int32), name="state_step", requires_grad=False)

    def _zeros(self, prefix):
        return tuple(
            Parameter(ops.zeros(p.shape, p.dtype), name=f"{prefix}.{p.name}", requires_grad=False)
            for p in self.parameters
        )

    def construct(self, gradients):
        gradients = tuple(gradients)
        if len(gradients) != len(self.parameters):
            raise ValueError(
                f"For '{type(self).__name__}', the number of gradients must be {len(self.parameters)}, "
                f"but got {len(gradients)}."
            )
        step = self.state_step + 1
        ops.assign(self.state_step, step)
        i = 0
        for group in self.param_groups:
            for p in group["params"]:
                g = gradients[i]
                if group.get("maximize", False):
                    g = -g
                self._update(i, p, g.astype(p.dtype), step.astype(mstype.float32), group)
                i += 1
        return True


class _AdamBase(_Optimizer):
    _decoupled = True

    def __init__(self, params, lr, betas, eps, weight_decay, amsgrad, maximize):
        name = type(self).__name__
        for arg_name, value in (("lr", lr), ("eps", eps), ("weight_decay", weight_decay)):
            validator.check_non_negative_float(float(value), arg_name, name)
        for b in betas:
            validator.check_float_range(float(b), 0.0, 1.0, validator.INC_LEFT, "betas", name)
        defaults = {
            "lr": lr,
            "betas": tuple(betas),
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
        }
        super().__init__(params, defaults)
        self.exp_avg = self._zeros("exp_avg")
        self.exp_avg_sq = self._zeros("exp_avg_sq")
        self.max_exp_avg_sq = self._zeros("max_exp_avg_sq") if any(g["amsgrad"] for g in self.param_groups) else ()

    def _update(self, i, p, g, step, group):
        lr, (b1, b2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        param = p.value() if hasattr(p, "value") else p
        if wd:
            if self._decoupled:
                param = param * (1 - lr * wd)
            else:
                g = g + wd * param
        m = self.exp_avg[i] * b1 + g * (1 - b1)
        v = self.exp_avg_sq[i] * b2 + g * g * (1 - b2)
        ops.assign(self.exp_avg[i], m)
        ops.assign(self.exp_avg_sq[i], v)
        bc1 = 1 - ops.pow(Tensor(b1, mstype.float32), step)
        bc2 = 1 - ops.pow(Tensor(b2, mstype.float32), step)
        if group["amsgrad"]:
            v = ops.maximum(self.max_exp_avg_sq[i], v)
            ops.assign(self.max_exp_avg_sq[i], v)
        denom = ops.sqrt(v) / ops.sqrt(bc2).astype(p.dtype) + eps
        ops.assign(p, param - (lr / bc1).astype(p.dtype) * m / denom)


class Adam(_AdamBase):
    """Adam with an L2 penalty added to the gradient (``weight_decay``), PyTorch's update."""

    _decoupled = False

    def __init__(
        self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.0, amsgrad=False, *, maximize=False
    ):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize)


class AdamW(_AdamBase):
    """Adam with decoupled weight decay: ``p *= 1 - lr * weight_decay`` before the Adam step."""

    def __init__(
        self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False, *, maximize=False
    ):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize)


class FusedAdamW(AdamW):
    """``AdamW`` (one fused XLA update over all parameters, like every sporax optimizer)."""

    def __init__(
        self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False, *, maximize=False
    ):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class SGD(_Optimizer):
    """SGD with PyTorch's momentum (the first step stores the gradient), dampening and Nesterov."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False):
        name = "SGD"
        validator.check_non_negative_float(float(lr), "lr", name)
        validator.check_non_negative_float(float(momentum), "momentum", name)
        validator.check_non_negative_float(float(weight_decay), "weight_decay", name)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("For 'SGD', nesterov momentum requires a momentum and zero dampening.")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
        }
        super().__init__(params, defaults)
        self.momentum_buffer = self._zeros("momentum_buffer")

    def _update(self, i, p, g, step, group):
        lr, mom, damp, wd = group["lr"], group["momentum"], group["dampening"], group["weight_decay"]
        param = p.value() if hasattr(p, "value") else p
        if wd:
            g = g + wd * param
        if mom:
            buf = ops.where(step == 1, g, self.momentum_buffer[i] * mom + g * (1 - damp))
            ops.assign(self.momentum_buffer[i], buf)
            g = g + mom * buf if group["nesterov"] else buf
        ops.assign(p, param - lr * g)
