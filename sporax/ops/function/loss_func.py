"""Loss functions of ``mindspore.ops`` (``ops.cross_entropy``, ``ops.nll_loss``, ``ops.kl_div``...).

Each loss checks its arguments with MindSpore's messages and runs as one compiled kernel eagerly
(``compiled_op``). Class indices are checked on the host when they are concrete (PyNative): an index
outside ``[0, C)`` (other than ``ignore_index``) raises naming it instead of giving NaN or a wrapped value.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jax, jnp
from ..._engine._checks import check_in_range
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black
from .._utils import as_tensor_array, compiled_op, wrap
from .activation_func import _const, _float_in, _jnn_log_sigmoid, _jnn_log_softmax

__all__ = [
    "cross_entropy",
    "nll_loss",
    "mse_loss",
    "l1_loss",
    "smooth_l1_loss",
    "huber_loss",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "kl_div",
    "softmax_cross_entropy_with_logits",
    "sparse_softmax_cross_entropy_with_logits",
]


# ----------------------------------------------------------------------- losses
_REDUCTIONS = ("mean", "sum", "none")


def _reduce(loss: Any, reduction: str) -> Any:
    if reduction == "mean":
        return jnp.mean(loss)
    if reduction == "sum":
        return jnp.sum(loss)
    return loss


def _class_shape(logits: Any, op: str) -> tuple[int, int]:
    """(class axis, number of classes) of ``(C,)``, ``(N, C)`` or ``(N, C, d1, ...)`` inputs."""
    if logits.ndim == 0:
        raise ValueError(f"For '{op}', the 'input' must have at least 1 dimension, but got a scalar.")
    axis = 0 if logits.ndim == 1 else 1
    return axis, logits.shape[axis]


def _nll_core(
    logp: Any,
    labels: Any,
    weight: Any,
    ignore_index: int,
    reduction: str,
    label_smoothing: float,
    op: str,
) -> Any:
    """Negative log-likelihood of ``logp`` (log-probabilities, class axis 1 or 0) with class indices
    or class probabilities, PyTorch/MindSpore 2.x semantics."""
    axis, c = _class_shape(logp, op)
    w = None if weight is None else as_tensor_array(weight).astype(logp.dtype)
    if w is not None and w.shape != (c,):
        raise ValueError(f"For '{op}', the 'weight' shape must be ({c},), but got {tuple(w.shape)}.")
    wshape = [1] * logp.ndim
    wshape[axis] = c
    if jnp.issubdtype(labels.dtype, jnp.integer):
        want = logp.shape[:axis] + logp.shape[axis + 1 :]
        if tuple(labels.shape) != tuple(want):
            raise ValueError(
                f"For '{op}', the 'target' shape must be {tuple(want)} for class indices with 'input' shape "
                f"{tuple(logp.shape)}, but got {tuple(labels.shape)}."
            )
        valid = labels != ignore_index
        # A label outside [0, C) (raised on the host when concrete) reads out of range here, so the loss is
        # NaN inside compiled code too: never a wrapped index's finite value.
        bad = valid & ((labels < 0) | (labels >= c))
        safe = jnp.where(valid, jnp.where(bad, c, labels), 0).astype(jnp.int32)
        nan = jnp.asarray(jnp.nan, logp.dtype)
        idx = jnp.expand_dims(safe, axis)
        picked = jnp.take_along_axis(logp, idx, axis=axis, mode="fill", fill_value=float("nan"))
        picked = jnp.squeeze(picked, axis)
        wt = jnp.ones_like(picked) if w is None else jnp.take(w, safe, mode="fill", fill_value=float("nan"))
        wt = jnp.where(bad, nan, wt)
        wt = jnp.where(valid, wt, jnp.zeros_like(wt))
        loss = -picked * wt
        if label_smoothing > 0:
            wl = logp if w is None else logp * w.reshape(wshape)
            smooth = jnp.where(valid, -jnp.sum(wl, axis=axis), jnp.zeros_like(picked))
            loss = (1 - label_smoothing) * loss + (label_smoothing / c) * smooth
        if reduction == "mean":
            return jnp.sum(loss) / jnp.sum(wt)
        return _reduce(loss, reduction)
    if not jnp.issubdtype(labels.dtype, jnp.floating):
        raise TypeError(
            f"For '{op}', the dtype of 'target' must be int32, int64 (class indices) or float (probabilities), "
            f"but got {mstype.from_np(labels.dtype)}."
        )
    if labels.dtype != logp.dtype:
        raise TypeError(
            f"For '{op}', the 'target' holding probabilities must have the dtype of 'input' "
            f"({mstype.from_np(logp.dtype)}), but got {mstype.from_np(labels.dtype)}."
        )
    if tuple(labels.shape) != tuple(logp.shape):
        raise ValueError(
            f"For '{op}', the 'target' holding probabilities must have the shape of 'input' {tuple(logp.shape)}, "
            f"but got {tuple(labels.shape)}."
        )
    if label_smoothing > 0:
        labels = labels * (1 - label_smoothing) + label_smoothing / c
    # sum(-p * logp) as MindSpore's kernel: all-zero labels give +0 (-sum(p * logp) gives -0)
    prod = -labels * logp if w is None else -labels * logp * w.reshape(wshape)
    loss = jnp.sum(prod, axis=axis)
    return _reduce(loss, reduction)


def check_class_index(
    target: Any, num_classes: int, ignore_index: int | None, op: str, exc: type = RuntimeError
) -> None:
    """Raise naming the first class index of a concrete integer ``target`` outside ``[0, num_classes)``
    (``ignore_index`` allowed). A traced target inside a compiled step is checked there, and the error raised
    after the step (``_engine._checks``)."""
    a = target._data if isinstance(target, Tensor) else target
    if not hasattr(a, "dtype") or not jnp.issubdtype(a.dtype, jnp.integer):
        return
    if isinstance(a, jax.core.Tracer):
        check_in_range(
            a,
            0,
            num_classes,
            lambda b: f"For '{op}', the label must be in range [0, {num_classes - 1}], but got {b}.",
            ignore_index,
        )
        return
    v = np.asarray(a)
    bad = (v < 0) | (v >= num_classes)
    if ignore_index is not None:
        bad &= v != ignore_index
    if bad.any():
        raise exc(f"For '{op}', the label must be in range [0, {num_classes - 1}], but got {v[bad].flat[0]}.")


def _num_classes(x: Any) -> int:
    shape = tuple(x.shape)
    return shape[0] if len(shape) == 1 else shape[1] if len(shape) > 1 else 0


@amp_black
def cross_entropy(
    input: Any,
    target: Any,
    weight: Any = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """Cross entropy between logits ``input`` (``(N, C)``, ``(N, C, d1...)`` or ``(C,)``) and ``target``:
    class indices (int32/int64, ``ignore_index`` skipped) or class probabilities (same shape/dtype)."""
    check_class_index(target, _num_classes(input), ignore_index, "cross_entropy")
    return _cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)


@compiled_op
def _cross_entropy(
    input: Any, target: Any, weight: Any, ignore_index: int, reduction: str, label_smoothing: float
) -> Tensor:
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", "cross_entropy")
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"For 'cross_entropy', the 'label_smoothing' must be in [0, 1], but got {label_smoothing}.")
    logits = _float_in(input, "cross_entropy")
    labels = as_tensor_array(target)
    axis, _ = _class_shape(logits, "cross_entropy")
    logp = _jnn_log_softmax(logits, axis=axis)
    return wrap(_nll_core(logp, labels, weight, ignore_index, reduction, label_smoothing, "cross_entropy"))


@amp_black
def nll_loss(
    inputs: Any,
    target: Any,
    weight: Any = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """Negative log-likelihood of log-probabilities ``inputs`` at class indices ``target``."""
    check_class_index(target, _num_classes(inputs), ignore_index, "nll_loss")
    return _nll_loss(inputs, target, weight, ignore_index, reduction, label_smoothing)


@compiled_op
def _nll_loss(inputs: Any, target: Any, weight: Any, ignore_index: int, reduction: str, label_smoothing: float) -> Any:
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", "nll_loss")
    logp = _float_in(inputs, "nll_loss")
    labels = as_tensor_array(target)
    if not jnp.issubdtype(labels.dtype, jnp.integer):
        raise TypeError(
            f"For 'nll_loss', the dtype of 'target' must be int32 or int64, but got {mstype.from_np(labels.dtype)}."
        )
    return wrap(_nll_core(logp, labels, weight, ignore_index, reduction, label_smoothing, "nll_loss"))


@amp_black
def nll_loss_with_weight(
    logits: Any, labels: Any, weight: Any, reduction: str, ignore_index: int
) -> tuple[Tensor, Tensor]:
    """``ops.NLLLoss``: ``(loss, total_weight)``, the total weight of the counted targets."""
    check_class_index(labels, _num_classes(logits), ignore_index, "NLLLoss", ValueError)
    return _nll_total(logits, labels, weight, reduction, ignore_index)


@compiled_op
def _nll_total(logits: Any, labels: Any, weight: Any, reduction: str, ignore_index: int) -> tuple[Tensor, Tensor]:
    logp = _float_in(logits, "NLLLoss")
    y = as_tensor_array(labels)
    if not jnp.issubdtype(y.dtype, jnp.integer):
        raise TypeError(
            f"For 'NLLLoss', the dtype of 'labels' must be int32 or int64, but got {mstype.from_np(y.dtype)}."
        )
    loss = _nll_core(logp, y, weight, ignore_index, reduction, 0.0, "NLLLoss")
    valid = y != ignore_index
    safe = jnp.where(valid, y, 0).astype(jnp.int32)
    w = jnp.ones((_num_classes(logp),), logp.dtype) if weight is None else as_tensor_array(weight).astype(logp.dtype)
    total = jnp.sum(jnp.where(valid, w[safe], jnp.zeros((), logp.dtype)))
    return wrap(loss), wrap(total)


def _pair_inputs(input: Any, target: Any, op: str) -> tuple[Any, Any]:
    a = _float_in(input, op)
    b = as_tensor_array(target)
    if b.dtype != a.dtype:
        b = b.astype(a.dtype)
    try:
        jnp.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(
            f"For '{op}', the shapes of 'input' {tuple(a.shape)} and 'target' {tuple(b.shape)} must be broadcastable."
        ) from None
    return a, b


@compiled_op
def mse_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", "mse_loss")
    a, b = _pair_inputs(input, target, "mse_loss")
    return wrap(_reduce(jnp.square(a - b), reduction))


@compiled_op
def l1_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", "l1_loss")
    a, b = _pair_inputs(input, target, "l1_loss")
    return wrap(_reduce(jnp.abs(a - b), reduction))


@amp_black
@compiled_op
def smooth_l1_loss(input: Any, target: Any, beta: float = 1.0, reduction: str = "none") -> Tensor:
    """``0.5 d^2 / beta`` where ``|d| < beta``, ``|d| - 0.5 beta`` elsewhere."""
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", "smooth_l1_loss")
    if beta <= 0:
        raise ValueError(f"For 'smooth_l1_loss', the 'beta' must be > 0, but got {beta}.")
    a, b = _pair_inputs(input, target, "smooth_l1_loss")
    d = jnp.abs(a - b)
    loss = jnp.where(d < beta, 0.5 * jnp.square(d) / _const(beta, d), d - _const(0.5 * beta, d))
    return wrap(_reduce(loss, reduction))


@compiled_op
def huber_loss(input: Any, target: Any, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    """``0.5 d^2`` where ``|d| < delta``, ``delta (|d| - 0.5 delta)`` elsewhere."""
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", "huber_loss")
    if delta <= 0:
        raise ValueError(f"For 'huber_loss', the 'delta' must be > 0, but got {delta}.")
    a, b = _pair_inputs(input, target, "huber_loss")
    d = jnp.abs(a - b)
    loss = jnp.where(d < delta, 0.5 * jnp.square(d), _const(delta, d) * (d - _const(0.5 * delta, d)))
    return wrap(_reduce(loss, reduction))


@compiled_op
def binary_cross_entropy(logits: Any, labels: Any, weight: Any = None, reduction: str = "mean") -> Tensor:
    """``-w (y log(x + eps) + (1 - y) log(1 - x + eps))`` for probabilities ``logits``, ``eps = 1e-12``
    (MindSpore's kernel: a probability of exactly 0 or 1 costs ``-log(1e-12) = 27.63``)."""
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", "binary_cross_entropy")
    x, y = _pair_inputs(logits, labels, "binary_cross_entropy")
    if tuple(x.shape) != tuple(as_tensor_array(labels).shape):
        raise ValueError(
            f"For 'binary_cross_entropy', the 'labels' shape must be {tuple(x.shape)}, "
            f"but got {tuple(as_tensor_array(labels).shape)}."
        )
    dt = x.dtype
    if dt in (jnp.float16, jnp.bfloat16):
        x, y = x.astype(jnp.float32), y.astype(jnp.float32)
    eps = _const(1e-12, x)
    # max() keeps XLA from folding 1 + eps before subtracting x
    loss = -(y * jnp.log(x + eps) + (1 - y) * jnp.log(jnp.maximum(1 - x, _const(0, x)) + eps))
    if weight is not None:
        loss = loss * as_tensor_array(weight).astype(x.dtype)
    return wrap(_reduce(loss, reduction).astype(dt))


@amp_black
@compiled_op
def binary_cross_entropy_with_logits(
    input: Any, target: Any, weight: Any = None, pos_weight: Any = None, reduction: str = "mean"
) -> Tensor:
    """``-w (pw y log sigmoid(x) + (1 - y) log(1 - sigmoid(x)))``, computed stably from logits."""
    validator.check_value_in(reduction, _REDUCTIONS, "reduction", "binary_cross_entropy_with_logits")
    x, y = _pair_inputs(input, target, "binary_cross_entropy_with_logits")
    ls_pos = _jnn_log_sigmoid(x)
    ls_neg = _jnn_log_sigmoid(-x)
    if pos_weight is not None:
        pw = as_tensor_array(pos_weight).astype(x.dtype)
        loss = -(pw * y * ls_pos + (1 - y) * ls_neg)
    else:
        loss = -(y * ls_pos + (1 - y) * ls_neg)
    if weight is not None:
        loss = loss * as_tensor_array(weight).astype(x.dtype)
    return wrap(_reduce(loss, reduction))


@amp_black
def kl_div(logits: Any, labels: Any, reduction: str = "mean") -> Tensor:
    """``labels * (log(labels) - logits)`` with log-probability ``logits`` (0 where ``labels`` is 0);
    'mean' averages over every element, 'batchmean' divides the sum by the batch size."""
    if not isinstance(reduction, str) or reduction not in ("none", "mean", "batchmean", "sum"):
        raise ValueError(
            "For 'kl_div', the 'reduction' must be str and must be in "
            f"'['none', 'mean', 'batchmean', 'sum']', but got '{reduction}'."
        )
    return _kl_div(logits, labels, reduction)


@compiled_op
def _kl_div(logits: Any, labels: Any, reduction: str) -> Tensor:
    x, y = _pair_inputs(logits, labels, "kl_div")
    loss = jnp.where(y > 0, y * (jnp.log(jnp.where(y > 0, y, 1)) - x), jnp.zeros_like(x))
    if reduction == "batchmean":
        return wrap(jnp.sum(loss) / (x.shape[0] if x.ndim else 1))
    return wrap(_reduce(loss, reduction))


@compiled_op
def softmax_cross_entropy_with_logits(logits: Any, labels: Any) -> tuple[Tensor, Tensor]:
    """``(loss, dlogits)`` for ``(N, C)`` logits and probability labels (``ops.SoftmaxCrossEntropyWithLogits``)."""
    x = _float_in(logits, "SoftmaxCrossEntropyWithLogits")
    y = as_tensor_array(labels).astype(x.dtype)
    if x.ndim != 2 or y.shape != x.shape:
        raise ValueError(
            f"For 'SoftmaxCrossEntropyWithLogits', 'logits' and 'labels' must be 2-D of the same shape, "
            f"but got {tuple(x.shape)} and {tuple(y.shape)}."
        )
    logp = _jnn_log_softmax(x, axis=-1)
    return wrap(jnp.sum(-y * logp, axis=-1)), wrap(jnp.exp(logp) - y)


def sparse_softmax_cross_entropy_with_logits(logits: Any, labels: Any, is_grad: bool = False) -> Tensor:
    """Mean cross entropy of ``(N, C)`` logits at class indices, or its gradient with ``is_grad``."""
    check_class_index(labels, _num_classes(logits), None, "SparseSoftmaxCrossEntropyWithLogits")
    return _sparse_softmax_cross_entropy_with_logits(logits, labels, is_grad)


@compiled_op
def _sparse_softmax_cross_entropy_with_logits(logits: Any, labels: Any, is_grad: bool = False) -> Tensor:
    """Mean cross entropy of ``(N, C)`` logits at class indices, or its gradient with ``is_grad``."""
    x = _float_in(logits, "SparseSoftmaxCrossEntropyWithLogits")
    y = as_tensor_array(labels)
    if x.ndim != 2 or tuple(y.shape) != (x.shape[0],):
        raise ValueError(
            f"For 'SparseSoftmaxCrossEntropyWithLogits', 'logits' must be (N, C) and 'labels' (N,), "
            f"but got {tuple(x.shape)} and {tuple(y.shape)}."
        )
    logp = _jnn_log_softmax(x, axis=-1)
    onehot = jax.nn.one_hot(y, x.shape[1], dtype=x.dtype)
    if is_grad:
        return wrap((jnp.exp(logp) - onehot) / x.shape[0])
    return wrap(jnp.mean(jnp.sum(-onehot * logp, axis=-1)))
