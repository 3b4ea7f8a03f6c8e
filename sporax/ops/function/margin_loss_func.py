"""Margin, embedding and likelihood losses of ``mindspore.ops`` (``ops.cosine_embedding_loss``,
``ops.hinge_embedding_loss``, ``ops.margin_ranking_loss``, ``ops.multi_margin_loss``,
``ops.multilabel_margin_loss``, ``ops.multilabel_soft_margin_loss``, ``ops.soft_margin_loss``,
``ops.triplet_margin_loss``, ``ops.gaussian_nll_loss``...).

Reductions follow MindSpore's ``_get_loss``: the unreduced loss is computed in its own dtype, then
weighted and reduced in float32 and cast back. Under ``amp_level="auto"`` the losses MindSpore's AmpAuto
black-lists (MultiMargin, MultilabelMargin, SoftMargin, TripletMargin, MSELossExt) compute in float32.
"""

from __future__ import annotations

import math
from typing import Any

from ... import _checkparam as validator
from ..._checkparam import check_instance
from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black
from .._utils import compiled_op, wrap
from .activation_func import _jnn_softplus
from .loss_func import check_class_index

__all__ = [
    "cosine_embedding_loss",
    "hinge_embedding_loss",
    "margin_ranking_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "soft_margin_loss",
    "triplet_margin_loss",
    "gaussian_nll_loss",
    "mse_loss_ext",
    "l2_loss",
    "sigmoid_cross_entropy_with_logits",
]

_REDUCTIONS = ("mean", "sum", "none")


def get_loss(x: Any, reduction: str, op: str, weights: Any = None) -> Any:
    """MindSpore's ``_get_loss``: ``weights * x`` in float32, reduced per ``reduction``, back in ``x``'s dtype."""
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", op)
    dt = x.dtype
    y = x.astype(jnp.float32)
    if weights is not None:
        y = y * jnp.asarray(weights).astype(jnp.float32)
    if reduction == "mean":
        y = jnp.mean(y)
    elif reduction == "sum":
        y = jnp.sum(y)
    return y.astype(dt)


@compiled_op
def weighted_loss(x: Any, weights: Any, reduction: str) -> Tensor:
    """``LossBase.get_loss`` as one kernel: ``weights * x`` in float32, reduced, in ``x``'s dtype."""
    w = None if weights is None else (weights._data if isinstance(weights, Tensor) else weights)
    return wrap(get_loss(x._data, reduction, "LossBase", w))


def _tensor(x: Any, name: str, op: str) -> Any:
    check_instance(x, Tensor, name, op)
    return x._data


def _same_dtype(a: Any, an: str, b: Any, bn: str, op: str) -> None:
    if a.dtype != b.dtype:
        raise TypeError(
            f"For '{op}', the dtype of '{an}' and '{bn}' must be the same, "
            f"but got {mstype.from_np(a.dtype)} and {mstype.from_np(b.dtype)}."
        )


# ----------------------------------------------------------------- embedding losses
def cosine_embedding_loss(
    input1: Any, input2: Any, target: Any, margin: float = 0.0, reduction: str = "mean"
) -> Tensor:
    """``1 - cos(x1, x2)`` where ``target == 1``, ``max(0, cos(x1, x2) - margin)`` where ``target == -1``
    (cosine over axis 1)."""
    op = "ops.cosine_embedding_loss"
    a, b, t = _tensor(input1, "input1", op), _tensor(input2, "input2", op), _tensor(target, "target", op)
    _same_dtype(a, "input1", b, "input2", op)
    want = tuple(a.shape[:1]) + tuple(a.shape[2:])
    if tuple(t.shape) != want:
        raise ValueError(
            f"For '{op}', the shape of 'target' must be the shape of 'input1' without axis 1 {want}, "
            f"but got {tuple(t.shape)}."
        )
    m = float(margin) if isinstance(margin, int) and not isinstance(margin, bool) else margin
    validator.check_value_type("margin", m, [float], op)
    if not -1.0 <= m <= 1.0:
        raise ValueError(f"For {op}, the value of 'margin' should be in [-1, 1],but got {m}.")
    validator.check_string(reduction, _REDUCTIONS, "reduction", "cosine_embedding_loss")
    return _cosine_embedding(input1, input2, target, m, reduction)


@compiled_op
def _cosine_embedding(input1: Any, input2: Any, target: Any, margin: float, reduction: str) -> Tensor:
    a, b, t = input1._data, input2._data, target._data
    if jnp.issubdtype(a.dtype, jnp.integer):
        a, b = a.astype(jnp.float32), b.astype(jnp.float32)
    cos = jnp.sum(a * b, axis=1) / (jnp.sqrt(jnp.sum(a * a, axis=1)) * jnp.sqrt(jnp.sum(b * b, axis=1)))
    zero = jnp.zeros_like(cos)
    loss = jnp.where(t == 1, 1.0 - cos, zero) + jnp.where(t == -1, jnp.maximum(cos - margin, zero), zero)
    return wrap(get_loss(loss, reduction, "cosine_embedding_loss"))


def hinge_embedding_loss(inputs: Any, targets: Any, margin: float = 1.0, reduction: str = "mean") -> Tensor:
    """``x`` where ``target > 0``, ``max(0, margin - x)`` where ``target < 0`` (0 where ``target == 0``)."""
    op = "HingeEmbeddingLoss"
    if isinstance(margin, bool) or not isinstance(margin, (float, int)):
        raise TypeError(f"For '{op}', 'margin' must be a float or int, but got {type(margin)}.")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For '{op}', 'reduction' must be one of 'none', 'mean', 'sum',but got {reduction}.")
    if not isinstance(inputs, Tensor):
        raise TypeError(f"For '{op}', the first input must be a Tensor, but got {type(inputs)}.")
    if not isinstance(targets, Tensor):
        raise TypeError(f"For '{op}', the second input must be a Tensor, but got {type(targets)}.")
    for which, t in (("first", inputs), ("second", targets)):
        if not jnp.issubdtype(t._data.dtype, jnp.floating):
            raise TypeError(f"For '{op}', the dtype of the {which} input must be float, but got {t.dtype}.")
    return _hinge_embedding(inputs, targets, float(margin), reduction)


@compiled_op
def _hinge_embedding(inputs: Any, targets: Any, margin: float, reduction: str) -> Tensor:
    x, t = inputs._data, targets._data
    pos = (t > 0).astype(x.dtype)
    neg = (t < 0).astype(x.dtype)
    loss = pos * x + jnp.maximum(jnp.asarray(margin, x.dtype) * neg - neg * x, jnp.zeros((), x.dtype))
    return wrap(_plain_reduce(loss, reduction))


def _plain_reduce(loss: Any, reduction: str) -> Any:
    if reduction == "mean":
        return jnp.mean(loss)
    if reduction == "sum":
        return jnp.sum(loss)
    return loss


def margin_ranking_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0, reduction: str = "mean") -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``."""
    op = "margin_ranking_loss"
    validator.check_value_type("margin", margin, [float], op)
    a, b, t = _tensor(input1, "input1", op), _tensor(input2, "input2", op), _tensor(target, "target", op)
    _same_dtype(a, "input1", b, "input2", op)
    _same_dtype(t, "target", a, "input1", op)
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", op)
    return _margin_ranking(input1, input2, target, margin, reduction)


@compiled_op
def _margin_ranking(input1: Any, input2: Any, target: Any, margin: float, reduction: str) -> Tensor:
    a, b, t = input1._data, input2._data, target._data
    x = jnp.maximum(-t * (a - b) + jnp.asarray(margin, a.dtype), jnp.zeros((), a.dtype))
    return wrap(get_loss(x, reduction, "margin_ranking_loss"))


# ------------------------------------------------------------- multi-class margins
def multi_margin_loss(
    input: Any, target: Any, p: int = 1, margin: int = 1, weight: Any = None, reduction: str = "mean"
) -> Tensor:
    """Multi-class hinge loss of ``(N, C)`` scores: ``sum_{i != y} w[y] max(0, margin - x[y] + x[i])^p / C``."""
    if isinstance(margin, bool) or not isinstance(margin, int):
        raise TypeError(f"For 'multi_margin_loss', the type of 'margin' must be int, but got {type(margin)}.")
    return multi_margin_core(input, target, weight, p, float(margin), reduction, "MultiMarginLoss")


@amp_black
def multi_margin_core(input: Any, target: Any, weight: Any, p: int, margin: float, reduction: str, op: str) -> Tensor:
    validator.check_value_type("p", p, [int], op)
    if p not in (1, 2):
        raise ValueError(f"For '{op}', the 'p' must be in {{1, 2}}, but got {p}.")
    validator.check_value_type("margin", margin, [float], op)
    validator.check_string(reduction, _REDUCTIONS, "reduction", op)
    x = _tensor(input, "x", op)
    t = _tensor(target, "target", op)
    if x.ndim != 2:
        raise ValueError(f"For '{op}', the rank of input x must be 2, but got {x.ndim}.")
    if tuple(t.shape) != (x.shape[0],):
        raise ValueError(f"For '{op}', the shape of 'target' must be ({x.shape[0]},), but got {tuple(t.shape)}.")
    if not jnp.issubdtype(t.dtype, jnp.integer):
        raise TypeError(f"For '{op}', the dtype of 'target' must be int64, but got {target.dtype}.")
    if weight is not None:
        w = _tensor(weight, "weight", op)
        if tuple(w.shape) != (x.shape[1],):
            raise ValueError(f"For '{op}', the shape of 'weight' must be ({x.shape[1]},), but got {tuple(w.shape)}.")
    check_class_index(target, x.shape[1], None, op, ValueError)
    return _multi_margin(input, target, weight, p, margin, reduction)


@compiled_op
def _multi_margin(input: Any, target: Any, weight: Any, p: int, margin: float, reduction: str) -> Tensor:
    x, t = input._data, target._data.astype(jnp.int32)
    c = x.shape[1]
    xy = jnp.take_along_axis(x, t[:, None], axis=1)
    z = jnp.maximum(jnp.asarray(margin, x.dtype) - xy + x, jnp.zeros((), x.dtype))
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight._data.astype(x.dtype)[t][:, None]
    not_y = jnp.arange(c)[None, :] != t[:, None]
    loss = jnp.sum(jnp.where(not_y, z, jnp.zeros_like(z)), axis=1) / jnp.asarray(c, x.dtype)
    return wrap(_plain_reduce(loss, reduction))


def multilabel_margin_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    """Multi-label hinge loss: ``sum_{j in targets} sum_{i not in targets} max(0, 1 - (x[j] - x[i])) / C``;
    ``target`` holds class indices, ended by the first -1."""
    return multilabel_margin_core(input, target, reduction, "MultilabelMarginLoss")[0]


@amp_black
def multilabel_margin_core(input: Any, target: Any, reduction: str, op: str) -> tuple[Tensor, Tensor]:
    validator.check_string(reduction, _REDUCTIONS, "reduction", op)
    x = _tensor(input, "x", op)
    t = _tensor(target, "target", op)
    if x.ndim not in (1, 2):
        raise ValueError(f"For '{op}', the rank of input x must be 1 or 2, but got {x.ndim}.")
    if tuple(t.shape) != tuple(x.shape):
        raise ValueError(
            f"For '{op}', the shape of 'target' must be the shape of 'x' {tuple(x.shape)}, but got {tuple(t.shape)}."
        )
    if not jnp.issubdtype(t.dtype, jnp.integer):
        raise TypeError(f"For '{op}', the dtype of 'target' must be int32, but got {target.dtype}.")
    check_class_index(target, x.shape[-1], -1, op, ValueError)
    out, is_target = _multilabel_margin(input, target, reduction)
    return out, is_target


@compiled_op
def _multilabel_margin(input: Any, target: Any, reduction: str) -> tuple[Tensor, Tensor]:
    x, t = input._data, target._data
    squeeze = x.ndim == 1
    if squeeze:
        x, t = x[None], t[None]
    c = x.shape[1]
    # the targets are the entries before the first -1
    valid = jnp.cumprod((t >= 0).astype(jnp.int32), axis=1).astype(bool)
    safe = jnp.where(valid, t, 0).astype(jnp.int32)
    onehot = (safe[:, :, None] == jnp.arange(c)[None, None, :]) & valid[:, :, None]
    is_target = jnp.any(onehot, axis=1)  # (N, C)
    xj = jnp.take_along_axis(x, safe, axis=1)  # (N, K)
    hinge = jnp.maximum(1 - (xj[:, :, None] - x[:, None, :]), jnp.zeros((), x.dtype))  # (N, K, C)
    mask = valid[:, :, None] & ~is_target[:, None, :]
    loss = jnp.sum(jnp.where(mask, hinge, jnp.zeros_like(hinge)), axis=(1, 2)) / jnp.asarray(c, x.dtype)
    it = is_target.astype(target._data.dtype)
    if squeeze:
        loss, it = loss[0], it[0]
    return wrap(_plain_reduce(loss, reduction)), wrap(it)


def multilabel_soft_margin_loss(input: Any, target: Any, weight: Any = None, reduction: str = "mean") -> Tensor:
    """``-mean_c(y log sigmoid(x) + (1 - y) log sigmoid(-x))`` per sample (classes on the last axis)."""
    op = "multilabel_soft_margin_loss"
    _tensor(input, "input", op)
    _tensor(target, "target", op)
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", op)
    return _multilabel_soft_margin(input, target, weight, reduction)


@compiled_op
def _multilabel_soft_margin(input: Any, target: Any, weight: Any, reduction: str) -> Tensor:
    x, y = input._data, target._data.astype(input._data.dtype)
    loss = y * _jnn_softplus(-x) + (1 - y) * _jnn_softplus(x)
    if weight is not None:
        loss = loss * weight._data.astype(x.dtype)
    loss = jnp.sum(loss, axis=x.ndim - 1) / jnp.asarray(x.shape[-1], x.dtype)
    return wrap(get_loss(loss, reduction, "multilabel_soft_margin_loss"))


def soft_margin_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    """``log(1 + exp(-target * input))``, reduced."""
    return soft_margin_core(input, target, reduction, "SoftMarginLoss")


@amp_black
def soft_margin_core(input: Any, target: Any, reduction: str, op: str) -> Tensor:
    validator.check_string(reduction, _REDUCTIONS, "reduction", op)
    x, t = _tensor(input, "logits", op), _tensor(target, "labels", op)
    if x.dtype not in (jnp.float16, jnp.float32, jnp.float64) or t.dtype != x.dtype:
        raise TypeError(
            f"For '{op}', the dtype of 'logits' and 'labels' must be the same float16, float32 or float64, "
            f"but got {input.dtype} and {target.dtype}."
        )
    if tuple(x.shape) != tuple(t.shape):
        raise ValueError(
            f"For '{op}', the shape of 'logits' and 'labels' must be the same, "
            f"but got {tuple(x.shape)} and {tuple(t.shape)}."
        )
    return _soft_margin(input, target, reduction)


@compiled_op
def _soft_margin(input: Any, target: Any, reduction: str) -> Tensor:
    x, t = input._data, target._data
    return wrap(_plain_reduce(_jnn_softplus(-t * x), reduction))


# ---------------------------------------------------------------------- triplets
def triplet_margin_loss(
    anchor: Any,
    positive: Any,
    negative: Any,
    margin: float = 1.0,
    p: int = 2,
    eps: float = 1e-06,
    swap: bool = False,
    reduction: str = "mean",
) -> Tensor:
    """``max(d(a, p) - d(a, n) + margin, 0)`` with ``d(x, y) = ||x - y + eps||_p`` over axis 1; ``swap``
    uses ``min(d(a, n), d(p, n))``."""
    return triplet_margin_core(anchor, positive, negative, margin, p, eps, swap, reduction, "TripletMarginLoss")


@amp_black
def triplet_margin_core(
    anchor: Any, positive: Any, negative: Any, margin: Any, p: Any, eps: Any, swap: Any, reduction: Any, op: str
) -> Tensor:
    validator.check_value_type("p", p, [int], op)
    validator.check_value_type("swap", swap, [bool], op)
    validator.check_value_type("eps", eps, [float], op)
    validator.check_string(reduction, _REDUCTIONS, "reduction", op)
    a = _tensor(anchor, "x", op)
    pp = _tensor(positive, "positive", op)
    n = _tensor(negative, "negative", op)
    if a.ndim < 2 or not (a.shape == pp.shape == n.shape):
        raise ValueError(
            f"For '{op}', 'x', 'positive' and 'negative' must have the same shape of rank >= 2, "
            f"but got {tuple(a.shape)}, {tuple(pp.shape)} and {tuple(n.shape)}."
        )
    _same_dtype(a, "x", pp, "positive", op)
    _same_dtype(a, "x", n, "negative", op)
    m = margin._data if isinstance(margin, Tensor) else float(margin)
    return _triplet(anchor, positive, negative, m, p, eps, swap, reduction)


@compiled_op
def _triplet(anchor: Any, positive: Any, negative: Any, margin: Any, p: int, eps: float, swap: bool, reduction: str):
    a, pp, n = anchor._data, positive._data, negative._data
    m = jnp.asarray(margin, a.dtype)

    def dist(x: Any, y: Any) -> Any:
        d = x - y + jnp.asarray(eps, a.dtype)
        if p == 0:
            return jnp.sum((d != 0).astype(a.dtype), axis=1)
        return jnp.sum(jnp.abs(d) ** p, axis=1) ** (1.0 / p)

    d_ap, d_an = dist(a, pp), dist(a, n)
    if swap:
        d_an = jnp.minimum(d_an, dist(pp, n))
    loss = jnp.maximum(d_ap - d_an + m, jnp.zeros((), a.dtype))
    return wrap(_plain_reduce(loss, reduction))


# -------------------------------------------------------------- regression losses
def gaussian_nll_loss(
    x: Any, target: Any, var: Any, full: bool = False, eps: float = 1e-6, reduction: str = "mean"
) -> Tensor:
    """``0.5 * (log(max(var, eps)) + (x - target)^2 / max(var, eps))`` (+ ``0.5 log(2 pi)`` with ``full``)."""
    op = "gaussian_nll_loss"
    for name, v in (("x", x), ("target", target), ("var", var)):
        if not isinstance(v, Tensor):
            raise TypeError(f"For '{op}', '{name}' must be a tensor, but got {type(v)}.")
    if not isinstance(full, bool):
        raise TypeError(f"For '{op}', 'full' must be a bool, but got {type(full)}.")
    if not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For '{op}', 'eps' must be a positive float, but got {eps}.")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For '{op}', 'reduction' must be one of 'none', 'mean', or 'sum', but got {reduction}.")
    return _gaussian_nll(x, target, var, full, eps, reduction)


@compiled_op
def _gaussian_nll(x: Any, target: Any, var: Any, full: bool, eps: float, reduction: str) -> Tensor:
    a, t, v = x._data, target._data, var._data
    if a.shape != v.shape and a.shape[:-1] == v.shape:
        v = v[..., None]
    vm = jnp.maximum(v, jnp.asarray(eps, v.dtype))
    loss = 0.5 * (jnp.log(vm) + jnp.square(a - t) / vm)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return wrap(_plain_reduce(loss, reduction))


@amp_black
@compiled_op
def mse_loss_ext(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    """``(input - target)^2`` (broadcast), reduced per ``reduction``."""
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", "MSELossExt")
    a, b = _tensor(input, "input", "MSELossExt"), _tensor(target, "target", "MSELossExt")
    dt = jnp.promote_types(a.dtype, b.dtype)
    return wrap(_plain_reduce(jnp.square(a.astype(dt) - b.astype(dt)), reduction))


@amp_black
@compiled_op
def l1_loss_ext(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    """``|input - target|`` (broadcast), reduced per ``reduction`` (``nn.L1LossExt``; float32 under amp 'auto')."""
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", "L1LossExt")
    a, b = _tensor(input, "input", "L1LossExt"), _tensor(target, "target", "L1LossExt")
    dt = jnp.promote_types(a.dtype, b.dtype)
    return wrap(_plain_reduce(jnp.abs(a.astype(dt) - b.astype(dt)), reduction))


@compiled_op
def l2_loss(input: Any) -> Tensor:
    """``sum(input^2) / 2`` (``ops.L2Loss``)."""
    a = _tensor(input, "input", "L2Loss")
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(
            f"For 'L2Loss', the dtype of 'input' must be float16, float32 or float64, but got {input.dtype}."
        )
    return wrap(jnp.sum(jnp.square(a)) / jnp.asarray(2, a.dtype))


@compiled_op
def sigmoid_cross_entropy_with_logits(logits: Any, label: Any) -> Tensor:
    """Element-wise ``-label log sigmoid(logits) - (1 - label) log(1 - sigmoid(logits))`` (unreduced)."""
    x = _tensor(logits, "logits", "SigmoidCrossEntropyWithLogits")
    y = _tensor(label, "label", "SigmoidCrossEntropyWithLogits")
    if x.shape != y.shape:
        raise ValueError(
            f"For 'SigmoidCrossEntropyWithLogits', the shape of 'label' must be the shape of 'logits' "
            f"{tuple(x.shape)}, but got {tuple(y.shape)}."
        )
    y = y.astype(x.dtype)
    return wrap(y * _jnn_softplus(-x) + (1 - y) * _jnn_softplus(x))
