"""MindSpore's optimizer-update operator classes (``ops.ApplyAdam``-style): each takes the variable and its
state as Parameters, updates them in place (``ops.assign``) and returns their new values, as MindSpore's do.
The nn optimizers call these classes, so every update formula lives here once.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ._primitive import Primitive

__all__ = [
    "FusedCastAdamWeightDecay",
    "SparseApplyFtrlV2",
    "Adam",
    "AdamNoUpdateParam",
    "ApplyAdaMax",
    "ApplyAdadelta",
    "ApplyAdagrad",
    "ApplyAdagradV2",
    "ApplyAddSign",
    "ApplyCenteredRMSProp",
    "ApplyFtrl",
    "ApplyGradientDescent",
    "ApplyMomentum",
    "ApplyPowerSign",
    "ApplyProximalAdagrad",
    "ApplyProximalGradientDescent",
    "ApplyRMSProp",
    "LARSUpdate",
    "SGD",
    "FusedSparseAdam",
    "AdamWeightDecay",
    "ApplyAdamWithAmsgradV2",
    "ApplyAdagradDA",
    "SparseApplyAdadelta",
    "FusedSparseLazyAdam",
    "FusedSparseFtrl",
    "FusedSparseProximalAdagrad",
    "ApplyKerasMomentum",
    "ApplyAdamWithAmsgrad",
    "SparseApplyAdagrad",
    "SparseApplyAdagradV2",
    "SparseApplyProximalAdagrad",
    "SparseApplyFtrl",
    "SparseApplyRMSProp",
]


def _ops() -> Any:
    from ... import ops

    return ops


def _like(x: Any, ref: Any) -> Any:
    """A scalar hyper-parameter (float or Tensor) in ``ref``'s dtype."""
    if isinstance(x, (int, float)):
        return float(x)
    x = _ops().cast(x, ref.dtype)
    return x.reshape(()) if x.size == 1 else x


def _set(target: Any, value: Any) -> Any:
    _ops().assign(target, value)
    return value


def _adagrad_math(var, accum, lr, grad, update_slots, epsilon):
    ops = _ops()
    new_accum = accum + grad * grad if update_slots else accum
    denom = ops.sqrt(new_accum) if epsilon is None else ops.sqrt(new_accum) + epsilon
    return var - lr * grad / denom, new_accum


def _proximal_adagrad_math(var, accum, lr, l1, l2, grad):
    ops = _ops()
    new_accum = accum + grad * grad
    lr = lr / ops.sqrt(new_accum)  # the adapted rate enters the shrinkage too (MindSpore's kernel, as TF's)
    prox = var - lr * grad
    new_var = ops.sign(prox) / (1 + lr * l2) * ops.maximum(ops.abs(prox) - lr * l1, ops.zeros_like(prox))
    return new_var, new_accum


def _ftrl_math(var, accum, linear, grad, lr, l1, l2, p, l2_shrinkage=0.0):
    """One FTRL-proximal step; with ``l2_shrinkage`` (FtrlV2) the linear term takes the gradient plus
    ``2 * l2_shrinkage * var`` while the accumulator takes the plain gradient's square."""
    ops = _ops()
    accum_new = accum + grad * grad
    shrunk = grad + 2 * l2_shrinkage * var if l2_shrinkage else grad
    new_linear = linear + shrunk - (ops.pow(accum_new, -p) - ops.pow(accum, -p)) / lr * var
    quadratic = ops.pow(accum_new, -p) / lr + 2 * l2
    x = ops.sign(new_linear) * l1 - new_linear
    new_var = ops.where(ops.abs(new_linear) > l1, x / quadratic, ops.zeros_like(var))
    return new_var, accum_new, new_linear


def _rmsprop_math(var, mean_square, moment, grad, lr, rho, u, eps):
    ops = _ops()
    ms_new = rho * mean_square + (1 - rho) * grad * grad
    mom = u * moment + lr * grad / ops.sqrt(ms_new + eps)
    return var - mom, ms_new, mom


def _sparse(math, indices, tensors, rest):
    """Rows ``indices`` of each of ``tensors`` updated by ``math(*rows, *rest)``; returns the full tensors."""
    ops = _ops()
    idx = indices.reshape(-1)
    rows = [ops.gather(t, idx, 0) for t in tensors]
    new_rows = math(*rows, *rest)
    return tuple(ops.tensor_scatter_update(t, idx.reshape(-1, 1), r) for t, r in zip(tensors, new_rows))


class ApplyAdaMax(Primitive):
    r"""AdaMax: :math:`m = \beta_1 m + (1-\beta_1) g`, :math:`v = \max(\beta_2 v, |g|)`,
    :math:`var = var - \frac{lr}{1-\beta_1^t} \frac{m}{v+\epsilon}`.

    Inputs: var, m, v (Parameters), beta1_power, lr, beta1, beta2, epsilon, grad. Outputs: (var, m, v).
    """

    def __call__(self, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
        ops = _ops()
        b1p, lr, b1, b2, eps = (_like(x, var) for x in (beta1_power, lr, beta1, beta2, epsilon))
        new_m = _set(m, b1 * m + (1 - b1) * grad)
        new_v = _set(v, ops.maximum(b2 * v, ops.abs(grad)))
        new_var = _set(var, var - lr / (1 - b1p) * (new_m / (new_v + eps)))
        return new_var, new_m, new_v


class ApplyAdadelta(Primitive):
    r"""Adadelta: :math:`a = \rho a + (1-\rho) g^2`,
    :math:`u = \sqrt{a_u + \epsilon} / \sqrt{a + \epsilon}\, g`, :math:`a_u = \rho a_u + (1-\rho) u^2`,
    :math:`var = var - lr\, u`.

    Inputs: var, accum, accum_update (Parameters), lr, rho, epsilon, grad. Outputs: (var, accum, accum_update).
    """

    def __call__(self, var, accum, accum_update, lr, rho, epsilon, grad):
        args = (_like(x, var) for x in (lr, rho, epsilon))
        new_var, new_accum, new_au = _adadelta_math(var, accum, accum_update, *args, grad)
        _set(accum, new_accum)
        _set(accum_update, new_au)
        return _set(var, new_var), new_accum, new_au


def _adadelta_math(var, accum, accum_update, lr, rho, eps, grad):
    ops = _ops()
    new_accum = rho * accum + (1 - rho) * grad * grad
    update = ops.sqrt(accum_update + eps) / ops.sqrt(new_accum + eps) * grad
    new_au = rho * accum_update + (1 - rho) * update * update
    return var - lr * update, new_accum, new_au


class ApplyAdagrad(Primitive):
    r"""Adagrad: :math:`accum = accum + g^2` (when `update_slots`), :math:`var = var - lr\, g / \sqrt{accum}`.

    Inputs: var, accum (Parameters), lr, grad. Outputs: (var, accum).
    """

    def __init__(self, update_slots: bool = True) -> None:
        super().__init__()
        self.update_slots = validator.check_value_type("update_slots", update_slots, [bool], self.name)

    def __call__(self, var, accum, lr, grad):
        new_var, new_accum = _adagrad_math(var, accum, _like(lr, var), grad, self.update_slots, None)
        _set(accum, new_accum)
        return _set(var, new_var), new_accum


class ApplyAdagradV2(Primitive):
    r"""Adagrad with epsilon: :math:`accum = accum + g^2` (when `update_slots`),
    :math:`var = var - lr\, g / (\sqrt{accum} + \epsilon)`.

    Inputs: var, accum (Parameters), lr, grad. Outputs: (var, accum).
    """

    def __init__(self, epsilon: float, update_slots: bool = True) -> None:
        super().__init__()
        self.epsilon = validator.check_value_type("epsilon", epsilon, [float], self.name)
        self.update_slots = validator.check_value_type("update_slots", update_slots, [bool], self.name)

    def __call__(self, var, accum, lr, grad):
        new_var, new_accum = _adagrad_math(var, accum, _like(lr, var), grad, self.update_slots, self.epsilon)
        _set(accum, new_accum)
        return _set(var, new_var), new_accum


class ApplyFtrl(Primitive):
    r"""FTRL-proximal: :math:`a' = a + g^2`,
    :math:`linear = linear + g - (a'^{-p} - a^{-p}) / lr \cdot var`, :math:`q = a'^{-p}/lr + 2 l_2`,
    :math:`var = (\mathrm{sign}(linear)\, l_1 - linear) / q` where :math:`|linear| > l_1`, else 0
    (:math:`p` is `lr_power`).

    Inputs: var, accum, linear (Parameters), grad, lr, l1, l2, lr_power. Outputs: var.
    """

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    def __call__(self, var, accum, linear, grad, lr, l1, l2, lr_power):
        args = (_like(x, var) for x in (lr, l1, l2, lr_power))
        new_var, accum_new, new_linear = _ftrl_math(var, accum, linear, grad, *args)
        _set(accum, accum_new)
        _set(linear, new_linear)
        return _set(var, new_var)


class ApplyProximalAdagrad(Primitive):
    r"""Proximal Adagrad: :math:`accum = accum + g^2`, :math:`r = lr / \sqrt{accum}`, :math:`v = var - r\, g`,
    :math:`var = \mathrm{sign}(v) \max(|v| - r\, l_1, 0) / (1 + r\, l_2)`.

    Inputs: var, accum (Parameters), lr, l1, l2, grad. Outputs: (var, accum).
    """

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    def __call__(self, var, accum, lr, l1, l2, grad):
        new_var, new_accum = _proximal_adagrad_math(var, accum, *(_like(x, var) for x in (lr, l1, l2)), grad)
        _set(accum, new_accum)
        return _set(var, new_var), new_accum


class ApplyMomentum(Primitive):
    r"""Momentum: :math:`accum = u\, accum + g`, :math:`var = var - lr\, accum`, or with Nesterov
    :math:`var = var - (g\, lr + accum\, u\, lr)`.

    Inputs: variable, accumulation (Parameters), learning_rate, gradient, momentum. Outputs: variable.
    """

    def __init__(self, use_nesterov: bool = False, use_locking: bool = False, gradient_scale: float = 1.0) -> None:
        super().__init__()
        self.use_nesterov = validator.check_value_type("use_nesterov", use_nesterov, [bool], self.name)
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)
        self.gradient_scale = validator.check_value_type("gradient_scale", gradient_scale, [float], self.name)

    def __call__(self, variable, accumulation, learning_rate, gradient, momentum):
        lr, u = _like(learning_rate, variable), _like(momentum, variable)
        new_accum = _set(accumulation, accumulation * u + gradient)
        if self.use_nesterov:
            return _set(variable, variable - (gradient * lr + new_accum * u * lr))
        return _set(variable, variable - lr * new_accum)


class ApplyRMSProp(Primitive):
    r"""RMSProp: :math:`s = \rho s + (1-\rho) g^2`, :math:`m = u\, m + lr\, g / \sqrt{s + \epsilon}`,
    :math:`var = var - m`.

    Inputs: var, mean_square, moment (Parameters), learning_rate, grad, decay, momentum, epsilon. Outputs: var.
    """

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    def __call__(self, var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon):
        args = (_like(x, var) for x in (learning_rate, decay, momentum, epsilon))
        new_var, ms_new, mom = _rmsprop_math(var, mean_square, moment, grad, *args)
        _set(mean_square, ms_new)
        _set(moment, mom)
        return _set(var, new_var)


class ApplyCenteredRMSProp(Primitive):
    r"""Centered RMSProp: :math:`g_m = \rho g_m + (1-\rho) g`, :math:`s = \rho s + (1-\rho) g^2`,
    :math:`m = u\, m + lr\, g / \sqrt{s - g_m^2 + \epsilon}`, :math:`var = var - m`.

    Inputs: var, mean_gradient, mean_square, moment (Parameters), grad, learning_rate, decay, momentum,
    epsilon. Outputs: var.
    """

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    def __call__(self, var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum, epsilon):
        ops = _ops()
        lr, rho, u, eps = (_like(x, var) for x in (learning_rate, decay, momentum, epsilon))
        mg = _set(mean_gradient, rho * mean_gradient + (1 - rho) * grad)
        ms_new = _set(mean_square, rho * mean_square + (1 - rho) * grad * grad)
        mom = _set(moment, u * moment + lr * grad / ops.sqrt(ms_new - mg * mg + eps))
        return _set(var, var - mom)


class ApplyGradientDescent(Primitive):
    r""":math:`var = var - \alpha\, \delta`. Inputs: var (Parameter), alpha, delta. Outputs: var."""

    def __call__(self, var, alpha, delta):
        return _set(var, var - _like(alpha, var) * delta)


class ApplyProximalGradientDescent(Primitive):
    r""":math:`v = var - \alpha\,\delta`, :math:`var = \mathrm{sign}(v) \max(|v| - \alpha l_1, 0) / (1 + \alpha l_2)`.

    Inputs: var (Parameter), alpha, l1, l2, delta. Outputs: var.
    """

    def __call__(self, var, alpha, l1, l2, delta):
        ops = _ops()
        a, l1, l2 = (_like(x, var) for x in (alpha, l1, l2))
        prox = var - a * delta
        new = ops.sign(prox) / (1 + a * l2) * ops.maximum(ops.abs(prox) - a * l1, ops.zeros_like(prox))
        return _set(var, new)


class ApplyPowerSign(Primitive):
    r"""PowerSign: :math:`m = \beta m + (1-\beta) g`,
    :math:`var = var - lr\, e^{\log b \cdot d \cdot \mathrm{sign}(g)\mathrm{sign}(m)} g`.

    Inputs: var, m (Parameters), lr, logbase, sign_decay, beta, grad. Outputs: (var, m).
    """

    def __call__(self, var, m, lr, logbase, sign_decay, beta, grad):
        ops = _ops()
        lr, lb, sd, b = (_like(x, var) for x in (lr, logbase, sign_decay, beta))
        new_m = _set(m, b * m + (1 - b) * grad)
        update = ops.exp(lb * sd * ops.sign(grad) * ops.sign(new_m)) * grad
        return _set(var, var - lr * update), new_m


class ApplyAddSign(Primitive):
    r"""AddSign: :math:`m = \beta m + (1-\beta) g`,
    :math:`var = var - lr\, (\alpha + d\, \mathrm{sign}(g)\mathrm{sign}(m))\, g`.

    Inputs: var, m (Parameters), lr, alpha, sign_decay, beta, grad. Outputs: (var, m).
    """

    def __call__(self, var, m, lr, alpha, sign_decay, beta, grad):
        ops = _ops()
        lr, a, sd, b = (_like(x, var) for x in (lr, alpha, sign_decay, beta))
        new_m = _set(m, b * m + (1 - b) * grad)
        update = (a + sd * ops.sign(grad) * ops.sign(new_m)) * grad
        return _set(var, var - lr * update), new_m


def _adam_step(use_nesterov, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
    ops = _ops()
    b1p, b2p, lr, b1, b2, eps = (_like(x, var) for x in (beta1_power, beta2_power, lr, beta1, beta2, epsilon))
    lr_t = lr * ops.sqrt(1 - b2p) / (1 - b1p)
    new_m = m + (gradient - m) * (1 - b1)
    new_v = v + (gradient * gradient - v) * (1 - b2)
    if use_nesterov:
        update = (new_m * b1 + (1 - b1) * gradient) / (eps + ops.sqrt(new_v))
    else:
        update = new_m / (eps + ops.sqrt(new_v))
    return new_m, new_v, lr_t * update


class Adam(Primitive):
    r"""Adam: :math:`m = m + (g - m)(1-\beta_1)`, :math:`v = v + (g^2 - v)(1-\beta_2)`,
    :math:`var = var - lr \sqrt{1-\beta_2^t}/(1-\beta_1^t)\, m / (\sqrt v + \epsilon)` (Nesterov:
    :math:`m \beta_1 + (1-\beta_1) g` in place of :math:`m`).

    Inputs: var, m, v (Parameters), beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient.
    Outputs: (var, m, v).
    """

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__()
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)
        self.use_nesterov = validator.check_value_type("use_nesterov", use_nesterov, [bool], self.name)

    def __call__(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
        new_m, new_v, delta = _adam_step(
            self.use_nesterov, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient
        )
        _set(m, new_m)
        _set(v, new_v)
        return _set(var, var - delta), new_m, new_v


class AdamNoUpdateParam(Adam):
    """Adam that updates m and v in place and returns the parameter's change (``-lr_t * update``) instead of
    applying it. Inputs: m, v (Parameters), beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient.
    Outputs: Tensor, the delta."""

    def __call__(self, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
        new_m, new_v, delta = _adam_step(
            self.use_nesterov, m, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient
        )
        _set(m, new_m)
        _set(v, new_v)
        return -delta


class LARSUpdate(Primitive):
    r"""LARS gradient (layer-wise adaptive rate scaling): with :math:`\|w\| = \sqrt{norm\_weight}` and
    :math:`\|g\| = \sqrt{norm\_gradient}`, the local rate
    :math:`c = hyperpara \cdot \|w\| / (\|g\| + wd \|w\| + \epsilon)` (1 when either norm is 0; with
    `use_clip`, :math:`\min(c / lr, 1)` and at least 0); returns :math:`c\,(g + wd\, w)`.

    Inputs: weight, gradient, norm_weight, norm_gradient, weight_decay, learning_rate. Outputs: the new gradient.
    """

    def __init__(self, epsilon: float = 1e-05, hyperpara: float = 0.001, use_clip: bool = False) -> None:
        super().__init__()
        self.epsilon = validator.check_value_type("epsilon", epsilon, [float], self.name)
        self.hyperpara = validator.check_value_type("hyperpara", hyperpara, [float], self.name)
        self.use_clip = validator.check_value_type("use_clip", use_clip, [bool], self.name)

    def __call__(self, weight, gradient, norm_weight, norm_gradient, weight_decay, learning_rate):
        ops = _ops()
        if tuple(gradient.shape) != tuple(weight.shape):
            raise TypeError(
                f"For '{self.name}', the shape of 'gradient' must be the same as 'weight', but got "
                f"{tuple(gradient.shape)} and {tuple(weight.shape)}."
            )
        wd, lr = _like(weight_decay, weight), _like(learning_rate, weight)
        w_norm = ops.sqrt(ops.cast(norm_weight, weight.dtype).reshape(()))
        g_norm = ops.sqrt(ops.cast(norm_gradient, weight.dtype).reshape(()))
        coeff = self.hyperpara * w_norm / (g_norm + wd * w_norm + self.epsilon)
        if self.use_clip:
            coeff = ops.minimum(ops.maximum(coeff / lr, ops.zeros_like(coeff)), ops.ones_like(coeff))
        coeff = ops.where((w_norm > 0) & (g_norm > 0), coeff, ops.ones_like(coeff))
        return coeff * (gradient + wd * weight)


class ApplyKerasMomentum(Primitive):
    r"""Keras momentum: :math:`accum = accum\, u - g\, lr`; :math:`var = var + accum\, u - g\, lr` with
    `use_nesterov`, else :math:`var = var + accum`.

    Inputs: var, accum (Parameters), lr, grad, momentum. Outputs: (var, accum).
    """

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__()
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)
        self.use_nesterov = validator.check_value_type("use_nesterov", use_nesterov, [bool], self.name)

    def __call__(self, var, accum, lr, grad, momentum):
        lr, u = _like(lr, var), _like(momentum, var)
        new_accum = _set(accum, accum * u - grad * lr)
        new_var = var + new_accum * u - grad * lr if self.use_nesterov else var + new_accum
        return _set(var, new_var), new_accum


class ApplyAdamWithAmsgrad(Primitive):
    r"""AMSGrad: Adam's moments, :math:`\hat v = \max(\hat v, v)`,
    :math:`var = var - lr\sqrt{1-\beta_2^t}/(1-\beta_1^t)\, m / (\sqrt{\hat v} + \epsilon)`.

    Inputs: var, m, v, vhat (Parameters), beta1_power, beta2_power, lr, grad. Outputs: (var, m, v, vhat).
    """

    def __init__(self, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8, use_locking: bool = False):
        super().__init__()
        self.beta1 = validator.check_value_type("beta1", beta1, [float], self.name)
        self.beta2 = validator.check_value_type("beta2", beta2, [float], self.name)
        self.epsilon = validator.check_value_type("epsilon", epsilon, [float], self.name)
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    def __call__(self, var, m, v, vhat, beta1_power, beta2_power, lr, grad):
        return _amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, self.beta1, self.beta2, self.epsilon, grad)


def _amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    ops = _ops()
    b1p, b2p, lr, b1, b2, eps = (_like(x, var) for x in (beta1_power, beta2_power, lr, beta1, beta2, epsilon))
    lr_t = lr * ops.sqrt(1 - b2p) / (1 - b1p)
    new_m = _set(m, b1 * m + (1 - b1) * grad)
    new_v = _set(v, b2 * v + (1 - b2) * grad * grad)
    new_vhat = _set(vhat, ops.maximum(vhat, new_v))
    new_var = _set(var, var - lr_t * new_m / (ops.sqrt(new_vhat) + eps))
    return new_var, new_m, new_v, new_vhat


class ApplyAdamWithAmsgradV2(Primitive):
    """AMSGrad (``ApplyAdamWithAmsgrad``) with beta1, beta2 and epsilon given as inputs.

    Inputs: var, m, v, vhat (Parameters), beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad.
    Outputs: (var, m, v, vhat).
    """

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    def __call__(self, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
        return _amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)


class SparseApplyAdagrad(Primitive):
    """Adagrad (``ApplyAdagrad``) on the rows `indices` of var and accum; `grad` holds those rows.

    Inputs: var, accum (Parameters), grad, indices. Outputs: (var, accum).
    """

    def __init__(self, lr: float, update_slots: bool = True, use_locking: bool = False) -> None:
        super().__init__()
        self.lr = validator.check_value_type("lr", lr, [float], self.name)
        self.update_slots = validator.check_value_type("update_slots", update_slots, [bool], self.name)
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    _epsilon = None

    def __call__(self, var, accum, grad, indices):
        new_var, new_accum = _sparse(
            _adagrad_math, indices, (var, accum), (self.lr, grad, self.update_slots, self._epsilon)
        )
        _set(accum, new_accum)
        return _set(var, new_var), new_accum


class SparseApplyAdagradV2(SparseApplyAdagrad):
    """Adagrad with epsilon (``ApplyAdagradV2``) on the rows `indices`.

    Inputs: var, accum (Parameters), grad, indices. Outputs: (var, accum).
    """

    def __init__(self, lr: float, epsilon: float, use_locking: bool = False, update_slots: bool = True) -> None:
        super().__init__(lr, update_slots, use_locking)
        self._epsilon = self.epsilon = validator.check_value_type("epsilon", epsilon, [float], self.name)


class SparseApplyProximalAdagrad(Primitive):
    """Proximal Adagrad (``ApplyProximalAdagrad``) on the rows `indices`.

    Inputs: var, accum (Parameters), lr, l1, l2, grad, indices. Outputs: (var, accum).
    """

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    def __call__(self, var, accum, lr, l1, l2, grad, indices):
        rest = (*(_like(x, var) for x in (lr, l1, l2)), grad)
        new_var, new_accum = _sparse(_proximal_adagrad_math, indices, (var, accum), rest)
        _set(accum, new_accum)
        return _set(var, new_var), new_accum


class SparseApplyFtrl(Primitive):
    """FTRL (``ApplyFtrl``) on the rows `indices`.

    Inputs: var, accum, linear (Parameters), grad, indices. Outputs: (var, accum, linear).
    """

    def __init__(self, lr: float, l1: float, l2: float, lr_power: float, use_locking: bool = False) -> None:
        super().__init__()
        for n, v in (("lr", lr), ("l1", l1), ("l2", l2), ("lr_power", lr_power)):
            validator.check_value_type(n, v, [float], self.name)
        self.lr, self.l1, self.l2, self.lr_power = lr, l1, l2, lr_power
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    l2_shrinkage = 0.0  # SparseApplyFtrlV2's

    def __call__(self, var, accum, linear, grad, indices):
        def math(v, a, lin, g):
            return _ftrl_math(v, a, lin, g, self.lr, self.l1, self.l2, self.lr_power, self.l2_shrinkage)

        new_var, new_accum, new_linear = _sparse(math, indices, (var, accum, linear), (grad,))
        _set(accum, new_accum)
        _set(linear, new_linear)
        return _set(var, new_var), new_accum, new_linear


class SparseApplyFtrlV2(SparseApplyFtrl):
    """FTRL with L2 shrinkage (TensorFlow's FtrlV2: the linear term uses ``grad + 2 * l2_shrinkage * var``) on
    the rows `indices`. Deprecated in MindSpore (its kernels are Ascend-only).

    Inputs: var, accum, linear (Parameters), grad, indices. Outputs: (var, accum, linear).
    """

    def __init__(
        self, lr: float, l1: float, l2: float, l2_shrinkage: float, lr_power: float, use_locking: bool = False
    ) -> None:
        Primitive.__init__(self)
        for n, v in (("lr", lr), ("l1", l1), ("l2", l2), ("l2_shrinkage", l2_shrinkage), ("lr_power", lr_power)):
            validator.check_value_type(n, v, [float], self.name)
        self.lr, self.l1, self.l2, self.l2_shrinkage, self.lr_power = lr, l1, l2, l2_shrinkage, lr_power
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)


class SparseApplyRMSProp(Primitive):
    """RMSProp (``ApplyRMSProp``) on the rows `indices`.

    Inputs: var, ms, mom (Parameters), lr, grad, indices. Outputs: (var, ms, mom).
    """

    def __init__(self, rho: float, momentum: float, epsilon: float, use_locking: bool = False) -> None:
        super().__init__()
        for n, v in (("rho", rho), ("momentum", momentum), ("epsilon", epsilon)):
            validator.check_value_type(n, v, [float], self.name)
        self.rho, self.momentum, self.epsilon = rho, momentum, epsilon
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    def __call__(self, var, ms, mom, lr, grad, indices):
        lr = _like(lr, var)

        def math(v, s, m, g):
            return _rmsprop_math(v, s, m, g, lr, self.rho, self.momentum, self.epsilon)

        new_var, new_ms, new_mom = _sparse(math, indices, (var, ms, mom), (grad,))
        _set(ms, new_ms)
        _set(mom, new_mom)
        return _set(var, new_var), new_ms, new_mom


class SGD(Primitive):
    r"""SGD with optional momentum: :math:`g = g + wd\, p`; on the first step (``stat`` > 0)
    :math:`accum = g`, then :math:`accum = u\, accum + (1 - dampening)\, g`; :math:`p = p - lr\,(g + u\,accum)`
    with `nesterov`, else :math:`p = p - lr\, accum`; ``stat`` becomes 0. With momentum 0 the update is
    :math:`p = p - lr\, g` and accum/stat stay.

    Inputs: parameters, gradient, learning_rate, accum, momentum, stat. Outputs: parameters.
    """

    def __init__(self, dampening: float = 0.0, weight_decay: float = 0.0, nesterov: bool = False) -> None:
        super().__init__()
        self.dampening = validator.check_value_type("dampening", dampening, [float], self.name)
        self.weight_decay = validator.check_value_type("weight_decay", weight_decay, [float], self.name)
        self.nesterov = validator.check_value_type("nesterov", nesterov, [bool], self.name)

    def __call__(self, parameters, gradient, learning_rate, accum, momentum, stat):
        ops = _ops()
        lr, u = _like(learning_rate, parameters), _like(momentum, parameters)
        g = gradient + parameters * self.weight_decay if self.weight_decay != 0.0 else gradient
        first = stat > 0
        new_accum = ops.where(first, g, accum * u + (1.0 - self.dampening) * g)
        update = g + new_accum * u if self.nesterov else new_accum
        use_momentum = u > 0
        _set(accum, ops.where(use_momentum, new_accum, accum))
        _set(stat, ops.where(use_momentum & first, ops.zeros_like(stat), stat))
        return _set(parameters, parameters - lr * ops.where(use_momentum, update, g))


class FusedSparseAdam(Primitive):
    """Adam with a row-sparse gradient: the gradient rows are summed per index into a dense gradient and every
    element of m, v and var takes Adam's update (``ops.Adam``).

    Inputs: var, m, v (Parameters), beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices.
    Outputs: (var, m, v), updated in place.
    """

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__()
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)
        self.use_nesterov = validator.check_value_type("use_nesterov", use_nesterov, [bool], self.name)

    def __call__(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices):
        ops = _ops()
        dense = ops.tensor_scatter_add(ops.zeros_like(var), indices.reshape(-1, 1), grad)
        new_m, new_v, delta = _adam_step(
            self.use_nesterov, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, dense
        )
        _set(m, new_m)
        _set(v, new_v)
        return _set(var, var - delta), new_m, new_v


class FusedSparseLazyAdam(FusedSparseAdam):
    """Adam on the rows `indices` only (duplicate indices summed first); other rows of var, m and v stay.

    Inputs: var, m, v (Parameters), beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices.
    Outputs: (var, m, v), updated in place.
    """

    def __call__(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices):
        ops = _ops()
        idx = indices.reshape(-1)
        ones = ops.ones((idx.shape[0],), var.dtype)
        touched = ops.tensor_scatter_add(ops.zeros((var.shape[0],), var.dtype), idx.reshape(-1, 1), ones)
        dense = ops.tensor_scatter_add(ops.zeros_like(var), idx.reshape(-1, 1), grad)
        new_m, new_v, delta = _adam_step(
            self.use_nesterov, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, dense
        )
        mask = (touched > 0).reshape((-1,) + (1,) * (len(var.shape) - 1))
        new_m = _set(m, ops.where(mask, new_m, m))
        new_v = _set(v, ops.where(mask, new_v, v))
        return _set(var, ops.where(mask, var - delta, var)), new_m, new_v


class FusedSparseFtrl(SparseApplyFtrl):
    """FTRL (``ApplyFtrl``) on the rows `indices`. Inputs: var, accum, linear (Parameters), grad, indices.
    Outputs: (var, accum, linear), updated in place."""


class FusedSparseProximalAdagrad(SparseApplyProximalAdagrad):
    """Proximal Adagrad (``ApplyProximalAdagrad``) on the rows `indices`. Inputs: var, accum (Parameters), lr,
    l1, l2, grad, indices. Outputs: the updated Parameters."""


class SparseApplyAdadelta(Primitive):
    """Adadelta (``ApplyAdadelta``) on the rows `indices`.

    Inputs: var, accum, accum_update (Parameters), lr, rho, grad, indices. Outputs: (var, accum, accum_update).
    """

    def __init__(self, epsilon: float, use_locking: bool = False) -> None:
        super().__init__()
        self.epsilon = validator.check_value_type("epsilon", epsilon, [float], self.name)
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    def __call__(self, var, accum, accum_update, lr, rho, grad, indices):
        rest = (_like(lr, var), _like(rho, var), self.epsilon, grad)
        new_var, new_accum, new_au = _sparse(_adadelta_math, indices, (var, accum, accum_update), rest)
        _set(accum, new_accum)
        _set(accum_update, new_au)
        return _set(var, new_var), new_accum, new_au


class ApplyAdagradDA(Primitive):
    r"""Adagrad dual averaging: :math:`a_g = a_g + g`, :math:`a_{g^2} = a_{g^2} + g^2`,
    :math:`t = \mathrm{sign}(a_g)\max(|a_g| - l_1 s, 0)` when :math:`l_1 > 0` else :math:`a_g`,
    :math:`var = -lr\, t / (l_2 s\, lr + \sqrt{a_{g^2}})` (:math:`s` is `global_step`).

    Inputs: var, gradient_accumulator, gradient_squared_accumulator (Parameters), grad, lr, l1, l2, global_step.
    Outputs: var.
    """

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    def __call__(self, var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2, global_step):
        ops = _ops()
        lr, l1, l2, step = (_like(x, var) for x in (lr, l1, l2, global_step))
        acc = _set(gradient_accumulator, gradient_accumulator + grad)
        sq = _set(gradient_squared_accumulator, gradient_squared_accumulator + grad * grad)
        shrunk = ops.sign(acc) * ops.maximum(ops.abs(acc) - l1 * step, ops.zeros_like(acc))
        tmp = ops.where(l1 > 0, shrunk, acc) if not isinstance(l1, float) else (shrunk if l1 > 0 else acc)
        return _set(var, -lr * tmp / (l2 * step * lr + ops.sqrt(sq)))


class AdamWeightDecay(Primitive):
    r"""Adam with decoupled weight decay, no bias correction: :math:`m = \beta_1 m + (1-\beta_1) g`,
    :math:`v = \beta_2 v + (1-\beta_2) g^2`, :math:`var = var - lr\,(m/(\sqrt v + \epsilon) + decay\cdot var)`.

    Inputs: var, m, v (Parameters), lr, beta1, beta2, epsilon, decay, gradient. Outputs: (var, m, v).
    """

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = validator.check_value_type("use_locking", use_locking, [bool], self.name)

    def __call__(self, var, m, v, lr, beta1, beta2, epsilon, decay, gradient):
        new_var, new_m, new_v = _adam_weight_decay_math(var, m, v, lr, beta1, beta2, epsilon, decay, gradient)
        return _set(var, new_var), _set(m, new_m), _set(v, new_v)


def _adam_weight_decay_math(var, m, v, lr, beta1, beta2, epsilon, decay, gradient):
    """The new ``(var, m, v)`` of one AdamWeightDecay step (hyper-parameters in ``var``'s dtype)."""
    lr, b1, b2, eps, wd = (_like(x, var) for x in (lr, beta1, beta2, epsilon, decay))
    new_m = b1 * m + (1 - b1) * gradient
    new_v = b2 * v + (1 - b2) * gradient * gradient
    return var - lr * (new_m / (_ops().sqrt(new_v) + eps) + wd * var), new_m, new_v


class FusedCastAdamWeightDecay(AdamWeightDecay):
    r"""``AdamWeightDecay`` on a float16 or float32 ``var`` with float32 moments, taking the gradient in
    float16 and divided by ``global_norm``: :math:`g = gradient / global\_norm`; the update is computed in
    float32 and written back in ``var``'s dtype.

    Inputs: var, m, v (Parameters), lr, beta1, beta2, epsilon, decay, gradient, global_norm. Outputs: (var, m, v).
    """

    def __call__(self, var, m, v, lr, beta1, beta2, epsilon, decay, gradient, global_norm):  # type: ignore[override]
        ops = _ops()
        grad = ops.cast(gradient, m.dtype) / _like(global_norm, m)
        new_var, new_m, new_v = _adam_weight_decay_math(
            ops.cast(var, m.dtype), m, v, lr, beta1, beta2, epsilon, decay, grad
        )
        return _set(var, ops.cast(new_var, var.dtype)), _set(m, new_m), _set(v, new_v)
