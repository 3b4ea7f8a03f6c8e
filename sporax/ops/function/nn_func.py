"""Neural-network ops (``mindspore.ops`` functional): activations, softmax, dropout, convolution, pooling,
normalisation, padding, resizing and losses.

Each op unwraps its Tensors, runs one jax kernel and wraps the result. Shapes and dtypes are static
(also while tracing), so argument checks raise MindSpore-style errors before anything runs.
Convolutions and pooling: see ``_conv_pool.py`` (kernels chosen per backend).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._engine import jax, jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black, amp_promote, amp_white
from .._utils import as_tensor_array, compiled_op, float_result, wrap
from ._conv_pool import (
    adaptive_avg_pool2d,
    adaptive_max_pool2d,
    avg_pool2d,
    conv1d,
    conv2d,
    max_pool2d,
)

__all__ = [
    "dense",
    "relu",
    "relu6",
    "gelu",
    "fast_gelu",
    "silu",
    "leaky_relu",
    "elu",
    "selu",
    "celu",
    "softplus",
    "softsign",
    "hardswish",
    "hardsigmoid",
    "hardtanh",
    "mish",
    "logsigmoid",
    "prelu",
    "softmax",
    "log_softmax",
    "dropout",
    "conv1d",
    "conv2d",
    "max_pool2d",
    "avg_pool2d",
    "adaptive_avg_pool2d",
    "adaptive_max_pool2d",
    "bias_add",
    "batch_norm",
    "layer_norm",
    "l2_normalize",
    "pad",
    "interpolate",
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


# jax.nn's activations are custom_jvp functions: called eagerly they redo signature work each time
# (~280 us). Jitted once here they dispatch in ~10 us; inside a trace the nesting is free.
_jnn_relu = jax.jit(jax.nn.relu)
_jnn_gelu = jax.jit(jax.nn.gelu, static_argnames=("approximate",))
_jnn_silu = jax.jit(jax.nn.silu)
_jnn_elu = jax.jit(jax.nn.elu)
_jnn_selu = jax.jit(jax.nn.selu)
_jnn_celu = jax.jit(jax.nn.celu)
_jnn_softplus = jax.jit(jax.nn.softplus)
_jnn_log_sigmoid = jax.jit(jax.nn.log_sigmoid)
_jnn_softmax = jax.jit(jax.nn.softmax, static_argnames=("axis",))
_jnn_log_softmax = jax.jit(jax.nn.log_softmax, static_argnames=("axis",))


def _float_in(x: Any, op: str) -> Any:
    a = as_tensor_array(x)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(
            f"For '{op}', the dtype of 'input' must be float16, float32 or float64, but got {mstype.from_np(a.dtype)}."
        )
    return a


def _const(v: float, a: Any) -> Any:
    return jnp.asarray(v, dtype=a.dtype)


# ------------------------------------------------------------------ activations
def relu(input: Any) -> Tensor:
    """``max(input, 0)`` element-wise."""
    return wrap(_jnn_relu(as_tensor_array(input)))


def relu6(x: Any) -> Tensor:
    """``min(max(x, 0), 6)`` element-wise."""
    a = as_tensor_array(x)
    return wrap(jnp.clip(a, _const(0, a), _const(6, a)))


def gelu(input_x: Any, approximate: str = "none") -> Tensor:
    """GeLU; ``approximate='tanh'`` uses the tanh approximation, ``'none'`` the exact erf form."""
    if approximate not in ("none", "tanh"):
        raise ValueError(f"For 'gelu', the 'approximate' must be 'none' or 'tanh', but got '{approximate}'.")
    a = _float_in(input_x, "gelu")
    return wrap(_jnn_gelu(a, approximate=approximate == "tanh"))


def fast_gelu(x: Any) -> Tensor:
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))`` (MindSpore's FastGeLU)."""
    a = _float_in(x, "fast_gelu")
    ab = jnp.abs(a)
    return wrap(a / (1 + jnp.exp(_const(-1.702, a) * ab)) * jnp.exp(_const(0.851, a) * (a - ab)))


def silu(input: Any) -> Tensor:
    """``input * sigmoid(input)``."""
    return wrap(_jnn_silu(_float_in(input, "silu")))


def leaky_relu(input: Any, alpha: float = 0.2) -> Tensor:
    """``input`` where positive, ``alpha * input`` elsewhere."""
    a = as_tensor_array(input)
    return wrap(jnp.where(a > 0, a, a * _const(alpha, a)))


def elu(input_x: Any, alpha: float = 1.0) -> Tensor:
    """``alpha * (exp(x) - 1)`` for ``x <= 0``, ``x`` elsewhere."""
    a = _float_in(input_x, "elu")
    return wrap(_jnn_elu(a, alpha=_const(alpha, a)))


def selu(input_x: Any) -> Tensor:
    return wrap(_jnn_selu(_float_in(input_x, "selu")))


def celu(x: Any, alpha: float = 1.0) -> Tensor:
    a = _float_in(x, "celu")
    return wrap(_jnn_celu(a, alpha=_const(alpha, a)))


@amp_black
def softplus(input: Any, beta: float = 1, threshold: float = 20) -> Tensor:
    """``log(1 + exp(beta * x)) / beta``; linear where ``beta * x > threshold``."""
    a = _float_in(input, "softplus")
    bx = a * _const(beta, a)
    soft = jnp.logaddexp(bx, _const(0, a)) / _const(beta, a)
    return wrap(jnp.where(bx > threshold, a, soft))


def softsign(x: Any) -> Tensor:
    a = _float_in(x, "softsign")
    return wrap(a / (1 + jnp.abs(a)))


def hardswish(x: Any) -> Tensor:
    """``x * relu6(x + 3) / 6``."""
    a = _float_in(x, "hardswish")
    return wrap(a * jnp.clip(a + 3, 0, 6) / _const(6, a))


def hardsigmoid(input: Any) -> Tensor:
    """``relu6(x + 3) / 6``."""
    a = _float_in(input, "hardsigmoid")
    return wrap(jnp.clip(a + 3, 0, 6) / _const(6, a))


def hardtanh(input: Any, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    a = as_tensor_array(input)
    return wrap(jnp.clip(a, _const(min_val, a), _const(max_val, a)))


def mish(x: Any) -> Tensor:
    """``x * tanh(softplus(x))``."""
    a = _float_in(x, "mish")
    return wrap(a * jnp.tanh(_jnn_softplus(a)))


def logsigmoid(x: Any) -> Tensor:
    return wrap(_jnn_log_sigmoid(_float_in(x, "logsigmoid")))


@amp_white
def prelu(x: Any, weight: Any) -> Tensor:
    """``max(0, x) + weight * min(0, x)``, ``weight`` per channel (axis 1) or a single value."""
    a = _float_in(x, "prelu")
    w = as_tensor_array(weight).astype(a.dtype)
    if w.ndim == 1 and a.ndim >= 2 and w.shape[0] not in (1, a.shape[1]):
        raise ValueError(
            f"For 'prelu', the 'weight' shape[0] must be 1 or the channel number of 'x' ({a.shape[1]}), "
            f"but got {w.shape[0]}."
        )
    if w.ndim == 1 and a.ndim >= 2:
        w = w.reshape((1, -1) + (1,) * (a.ndim - 2))
    return wrap(jnp.where(a > 0, a, a * w))


@amp_black
def softmax(input: Any, axis: int = -1, *, dtype: Any = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``axis``; ``dtype`` casts the input first."""
    a = as_tensor_array(input)
    if dtype is not None:
        a = a.astype(mstype.to_np(dtype))
    a = float_result(a)
    return wrap(_jnn_softmax(a, axis=_axis(axis, a.ndim, "softmax")))


@amp_black
def log_softmax(logits: Any, axis: int = -1) -> Tensor:
    a = float_result(as_tensor_array(logits))
    return wrap(_jnn_log_softmax(a, axis=_axis(axis, a.ndim, "log_softmax")))


def _axis(axis: Any, ndim: int, op: str) -> Any:
    if isinstance(axis, (tuple, list)):
        return tuple(_axis(x, ndim, op) for x in axis)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For '{op}', the 'axis' must be an int, but got {type(axis).__name__}.")
    n = max(ndim, 1)
    if not -n <= axis < n:
        raise ValueError(f"For '{op}', the 'axis' must be in range [{-n}, {n - 1}], but got {axis}.")
    return int(axis) % n


# ---------------------------------------------------------------------- dropout
def dropout(input: Any, p: float = 0.5, training: bool = True, seed: int | None = None) -> Tensor:
    """Zero elements with probability ``p`` and scale the rest by ``1 / (1 - p)`` (training only).

    The random key comes from the framework's RNG state (``set_seed``), so the same seed gives the same
    mask eagerly, under ``jit`` and inside gradients. An explicit ``seed`` derives the key from it.
    """
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"For 'dropout', the 'p' must be a float, but got {type(p).__name__}.")
    if not 0 <= p <= 1:
        raise ValueError(f"For 'dropout', the 'p' must be in range [0, 1], but got {p}.")
    a = as_tensor_array(input)
    if not training or p == 0:
        return input if isinstance(input, Tensor) else wrap(a)
    if p == 1:
        return wrap(jnp.zeros_like(a))
    from ...common.seed import next_key

    keep = jax.random.bernoulli(next_key(seed), 1.0 - p, a.shape)
    return wrap(jnp.where(keep, a / _const(1.0 - p, a), _const(0, a)))


def dropout_with_mask(input: Any, keep_prob: float, seed: int | None = None) -> tuple[Tensor, Tensor]:
    """Dropout returning ``(output, mask)`` (the ``ops.Dropout`` primitive)."""
    from ...common.seed import next_key

    a = as_tensor_array(input)
    keep = jax.random.bernoulli(next_key(seed), keep_prob, a.shape)
    out = jnp.where(keep, a / _const(keep_prob, a), _const(0, a))
    return wrap(out), wrap(keep.astype(a.dtype))


# ------------------------------------------------------------------ bias / norms
def _dense_impl(x: Any, w: Any, b: Any) -> Any:
    out = jnp.matmul(x, w.T)
    return out if b is None else out + b


_dense_kernel = jax.jit(_dense_impl)


@amp_white(bias=("bias", -1))
def dense(input: Any, weight: Any, bias: Any = None) -> Tensor:
    """``input @ weight.T + bias`` over the last dimension (MindSpore's ``ops.dense``), one kernel."""
    x, w = as_tensor_array(input), as_tensor_array(weight)
    if w.ndim not in (1, 2):
        raise ValueError(f"For 'Dense', the dimension of 'weight' must be 1 or 2, but got {w.ndim}.")
    if x.ndim < 1 or x.shape[-1] != w.shape[-1]:
        raise ValueError(
            f"For 'Dense', the 'x' shape[-1] must be {w.shape[-1]}, but got {x.shape[-1] if x.ndim else 0}."
        )
    if x.dtype != w.dtype:
        raise TypeError(
            f"For 'Dense', the dtype of 'x' must be the same as the dtype of 'weight' ({mstype.from_np(w.dtype)}), "
            f"but got {mstype.from_np(x.dtype)}."
        )
    b = None if bias is None else as_tensor_array(bias)
    return wrap(_dense_kernel(x, w, b))


@amp_promote
def bias_add(input_x: Any, bias: Any, data_format: str = "NCHW") -> Tensor:
    """Add a 1-D ``bias`` along the channel axis (1 for NCHW, -1 for NHWC)."""
    a, b = as_tensor_array(input_x), as_tensor_array(bias)
    if b.ndim != 1:
        raise ValueError(f"For 'BiasAdd', the dimension of 'bias' must be 1, but got {b.ndim}.")
    if a.ndim < 2:
        raise ValueError(f"For 'BiasAdd', the dimension of 'input_x' must be >= 2, but got {a.ndim}.")
    axis = a.ndim - 1 if data_format == "NHWC" else 1
    if a.shape[axis] != b.shape[0]:
        raise ValueError(
            f"For 'BiasAdd', the 'bias' shape[0] must be equal to the channel number of 'input_x': "
            f"{a.shape[axis]}, but got {b.shape[0]}."
        )
    shape = [1] * a.ndim
    shape[axis] = -1
    return wrap(a + b.astype(a.dtype).reshape(shape))


@amp_black(keep=("running_mean", "running_var"))
def batch_norm(
    input_x: Any,
    running_mean: Any,
    running_var: Any,
    weight: Any,
    bias: Any,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Batch normalisation over axis 1. In training, batch statistics normalise and the running
    statistics (Parameters) become ``(1 - momentum) * running + momentum * batch`` (the unbiased
    batch variance updates ``running_var``)."""
    y, _, _ = _batch_norm(input_x, running_mean, running_var, weight, bias, training, momentum, eps, "batch_norm")
    return y


def _batch_norm(
    input_x: Any,
    running_mean: Any,
    running_var: Any,
    weight: Any,
    bias: Any,
    training: bool,
    momentum: float,
    eps: float,
    op: str,
) -> tuple[Tensor, Any, Any]:
    from ...common.parameter import Parameter

    x = as_tensor_array(input_x)
    if x.ndim < 2:
        raise ValueError(f"For '{op}', the dimension of 'input_x' must be >= 2, but got {x.ndim}.")
    c = x.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != (c,):
            raise ValueError(
                f"For '{op}', the shape of '{name}' must be ({c},) (the channel number of 'input_x'), "
                f"but got {tuple(t.shape)}."
            )
    axes = (0, *range(2, x.ndim))
    bshape = (1, c) + (1,) * (x.ndim - 2)
    cdt = jnp.float32 if x.dtype in (jnp.float16, jnp.bfloat16) else x.dtype
    xc = x.astype(cdt)
    if training:
        mean = jnp.mean(xc, axis=axes)
        var = jnp.mean(jnp.square(xc - mean.reshape(bshape)), axis=axes)
        n = x.size // c
        if isinstance(running_mean, Parameter) or isinstance(running_var, Parameter):
            m = lax.stop_gradient(mean)
            v = lax.stop_gradient(var) * (n / max(n - 1, 1))
            for p, new in ((running_mean, m), (running_var, v)):
                if isinstance(p, Parameter):
                    old = p._data
                    p._data = (old * (1 - momentum) + new.astype(old.dtype) * momentum).astype(old.dtype)
    else:
        mean = as_tensor_array(running_mean).astype(cdt)
        var = as_tensor_array(running_var).astype(cdt)
    scale = lax.rsqrt(var + jnp.asarray(eps, cdt))
    if weight is not None:
        scale = scale * as_tensor_array(weight).astype(cdt)
    y = (xc - mean.reshape(bshape)) * scale.reshape(bshape)
    if bias is not None:
        y = y + as_tensor_array(bias).astype(cdt).reshape(bshape)
    return wrap(y.astype(x.dtype)), mean, var


@amp_black
def layer_norm(input: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: float = 1e-5) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` dimensions, then scale and shift."""
    ns = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    x = as_tensor_array(input)
    if tuple(x.shape[x.ndim - len(ns) :]) != ns:
        raise ValueError(
            f"For 'layer_norm', the 'normalized_shape' must match the last dimensions of 'input' "
            f"{tuple(x.shape)}, but got {ns}."
        )
    y, _, _ = layer_norm_core(x, x.ndim - len(ns), weight, bias, eps)
    return wrap(y)


def layer_norm_core(x: Any, begin_norm_axis: int, weight: Any, bias: Any, eps: float) -> tuple[Any, Any, Any]:
    """Arrays ``(y, mean, var)``; statistics over axes ``begin_norm_axis:`` (kept as size-1 dims)."""
    axes = tuple(range(begin_norm_axis, x.ndim))
    cdt = jnp.float32 if x.dtype in (jnp.float16, jnp.bfloat16) else x.dtype
    xc = x.astype(cdt)
    mean = jnp.mean(xc, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(xc - mean), axis=axes, keepdims=True)
    y = (xc - mean) * lax.rsqrt(var + jnp.asarray(eps, cdt))
    if weight is not None:
        y = y * as_tensor_array(weight).astype(cdt)
    if bias is not None:
        y = y + as_tensor_array(bias).astype(cdt)
    return y.astype(x.dtype), mean, var


def l2_normalize(x: Any, axis: Any = 0, epsilon: float = 1e-4) -> Tensor:
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``."""
    a = _float_in(x, "L2Normalize")
    ax = _axis(axis, a.ndim, "L2Normalize")
    ss = jnp.sum(jnp.square(a), axis=ax, keepdims=True)
    return wrap(a * lax.rsqrt(jnp.maximum(ss, _const(epsilon, a))))


# ------------------------------------------------------------------------- pad
def pad(input_x: Any, padding: Any, mode: str = "constant", value: Any = None) -> Tensor:
    """Pad the last ``len(padding) // 2`` dimensions: ``padding = (left, right, top, bottom, ...)``
    starting from the last dimension. Negative values crop. ``mode``: constant, reflect, replicate,
    circular."""
    a = as_tensor_array(input_x)
    pads = tuple(int(p) for p in (padding.tolist() if isinstance(padding, Tensor) else padding))
    if len(pads) % 2 or len(pads) // 2 > a.ndim:
        raise ValueError(
            f"For 'pad', the length of 'padding' must be even and at most 2 * {a.ndim}, but got {len(pads)}."
        )
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise ValueError(
            f"For 'pad', the 'mode' must be 'constant', 'reflect', 'replicate' or 'circular', but got '{mode}'."
        )
    widths = [(0, 0)] * a.ndim
    for i in range(len(pads) // 2):
        widths[a.ndim - 1 - i] = (pads[2 * i], pads[2 * i + 1])
    pos = [(max(lo, 0), max(hi, 0)) for lo, hi in widths]
    if mode == "constant":
        out = jnp.pad(a, pos, mode="constant", constant_values=0 if value is None else value)
    else:
        out = jnp.pad(a, pos, mode={"reflect": "reflect", "replicate": "edge", "circular": "wrap"}[mode])
    idx = tuple(slice(-lo if lo < 0 else 0, out.shape[d] + hi if hi < 0 else None) for d, (lo, hi) in enumerate(widths))
    return wrap(out[idx])


# ------------------------------------------------------------------ interpolate
def _interp_matrix(n_in: int, n_out: int, align_corners: bool, scale: float | None) -> np.ndarray:
    """Linear-interpolation weights ``[n_out, n_in]`` (PyTorch's source-index convention)."""
    m = np.zeros((n_out, n_in), np.float64)
    for i in range(n_out):
        if align_corners:
            src = i * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        else:
            r = 1.0 / scale if scale else n_in / n_out
            src = max((i + 0.5) * r - 0.5, 0.0)
        lo = min(int(np.floor(src)), n_in - 1)
        hi = min(lo + 1, n_in - 1)
        w = src - lo
        m[i, lo] += 1 - w
        m[i, hi] += w
    return m


def interpolate(
    input: Any,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
) -> Tensor:
    """Resize the spatial dimensions (all but N, C): ``nearest`` (3-5-D), ``linear`` (3-D),
    ``bilinear`` (4-D), by ``size`` or ``scale_factor``."""
    a = as_tensor_array(input)
    nsp = a.ndim - 2
    if nsp < 1:
        raise ValueError(f"For 'interpolate', the dimension of 'input' must be >= 3, but got {a.ndim}.")
    if (size is None) == (scale_factor is None):
        raise ValueError("For 'interpolate', exactly one of 'size' and 'scale_factor' must be given.")
    modes = {"nearest": (1, 2, 3), "linear": (1,), "bilinear": (2,)}
    if mode not in modes:
        raise ValueError(f"For 'interpolate', the 'mode' must be one of {list(modes)}, but got '{mode}'.")
    if nsp not in modes[mode]:
        raise ValueError(f"For 'interpolate', mode '{mode}' does not support a {a.ndim}-D input.")
    if mode == "nearest" and align_corners:
        raise ValueError("For 'interpolate', 'align_corners' must be None or False for mode 'nearest'.")
    in_sp = a.shape[2:]
    scales: list[float | None]
    if size is not None:
        out_sp = (size,) * nsp if isinstance(size, int) else tuple(int(s) for s in size)
        scales = [None] * nsp
    else:
        sf = (scale_factor,) * nsp if isinstance(scale_factor, (int, float)) else tuple(scale_factor)
        out_sp = tuple(int(np.floor(n * s)) for n, s in zip(in_sp, sf))
        scales = [None if recompute_scale_factor else float(s) for s in sf]
    if len(out_sp) != nsp or any(s <= 0 for s in out_sp):
        raise ValueError(f"For 'interpolate', the output size must hold {nsp} positive ints, but got {out_sp}.")
    out = a if jnp.issubdtype(a.dtype, jnp.inexact) or mode == "nearest" else a.astype(jnp.float32)
    for d in range(nsp):
        axis = 2 + d
        n_in, n_out = in_sp[d], out_sp[d]
        if mode == "nearest":
            r = 1.0 / scales[d] if scales[d] else n_in / n_out
            idx = np.minimum(np.floor(np.arange(n_out) * r).astype(np.int64), n_in - 1)
            out = jnp.take(out, jnp.asarray(idx), axis=axis)
        else:
            w = jnp.asarray(_interp_matrix(n_in, n_out, bool(align_corners), scales[d]), out.dtype)
            out = jnp.moveaxis(jnp.tensordot(out, w, axes=([axis], [1])), -1, axis)
    return wrap(out)


def resize_nearest_neighbor(input_x: Any, size: Any, align_corners: bool = False) -> Tensor:
    """Nearest resize of the last two dimensions to ``size`` (``ops.ResizeNearestNeighbor``)."""
    a = as_tensor_array(input_x)
    out = a
    for d, n_out in enumerate(size):
        axis = a.ndim - 2 + d
        n_in = a.shape[axis]
        if align_corners and n_out > 1:
            idx = np.round(np.arange(n_out) * (n_in - 1) / (n_out - 1)).astype(np.int64)
        else:
            idx = np.floor(np.arange(n_out) * (n_in / n_out)).astype(np.int64)
        out = jnp.take(out, jnp.asarray(np.minimum(idx, n_in - 1)), axis=axis)
    return wrap(out)


# ----------------------------------------------------------------------- losses
def _check_reduction(reduction: str, op: str, extra: tuple[str, ...] = ()) -> None:
    allowed = ("mean", "sum", "none", *extra)
    if reduction not in allowed:
        raise ValueError(f"For '{op}', the 'reduction' must be in {list(allowed)}, but got {reduction}.")


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
        safe = jnp.where(valid, labels, 0).astype(jnp.int32)
        picked = jnp.squeeze(jnp.take_along_axis(logp, jnp.expand_dims(safe, axis), axis=axis), axis)
        wt = jnp.ones_like(picked) if w is None else w[safe]
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


@amp_black
@compiled_op
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
    _check_reduction(reduction, "cross_entropy")
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"For 'cross_entropy', the 'label_smoothing' must be in [0, 1], but got {label_smoothing}.")
    logits = _float_in(input, "cross_entropy")
    labels = as_tensor_array(target)
    axis, _ = _class_shape(logits, "cross_entropy")
    logp = _jnn_log_softmax(logits, axis=axis)
    return wrap(_nll_core(logp, labels, weight, ignore_index, reduction, label_smoothing, "cross_entropy"))


@amp_black
@compiled_op
def nll_loss(
    inputs: Any,
    target: Any,
    weight: Any = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """Negative log-likelihood of log-probabilities ``inputs`` at class indices ``target``."""
    _check_reduction(reduction, "nll_loss")
    logp = _float_in(inputs, "nll_loss")
    labels = as_tensor_array(target)
    if not jnp.issubdtype(labels.dtype, jnp.integer):
        raise TypeError(
            f"For 'nll_loss', the dtype of 'target' must be int32 or int64, but got {mstype.from_np(labels.dtype)}."
        )
    return wrap(_nll_core(logp, labels, weight, ignore_index, reduction, label_smoothing, "nll_loss"))


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
    _check_reduction(reduction, "mse_loss")
    a, b = _pair_inputs(input, target, "mse_loss")
    return wrap(_reduce(jnp.square(a - b), reduction))


@compiled_op
def l1_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    _check_reduction(reduction, "l1_loss")
    a, b = _pair_inputs(input, target, "l1_loss")
    return wrap(_reduce(jnp.abs(a - b), reduction))


@amp_black
@compiled_op
def smooth_l1_loss(input: Any, target: Any, beta: float = 1.0, reduction: str = "none") -> Tensor:
    """``0.5 d^2 / beta`` where ``|d| < beta``, ``|d| - 0.5 beta`` elsewhere."""
    _check_reduction(reduction, "smooth_l1_loss")
    if beta <= 0:
        raise ValueError(f"For 'smooth_l1_loss', the 'beta' must be > 0, but got {beta}.")
    a, b = _pair_inputs(input, target, "smooth_l1_loss")
    d = jnp.abs(a - b)
    loss = jnp.where(d < beta, 0.5 * jnp.square(d) / _const(beta, d), d - _const(0.5 * beta, d))
    return wrap(_reduce(loss, reduction))


@compiled_op
def huber_loss(input: Any, target: Any, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    """``0.5 d^2`` where ``|d| < delta``, ``delta (|d| - 0.5 delta)`` elsewhere."""
    _check_reduction(reduction, "huber_loss")
    if delta <= 0:
        raise ValueError(f"For 'huber_loss', the 'delta' must be > 0, but got {delta}.")
    a, b = _pair_inputs(input, target, "huber_loss")
    d = jnp.abs(a - b)
    loss = jnp.where(d < delta, 0.5 * jnp.square(d), _const(delta, d) * (d - _const(0.5 * delta, d)))
    return wrap(_reduce(loss, reduction))


@compiled_op
def binary_cross_entropy(logits: Any, labels: Any, weight: Any = None, reduction: str = "mean") -> Tensor:
    """``-w (y log x + (1 - y) log(1 - x))`` for probabilities ``logits`` (logs clamped at -100)."""
    _check_reduction(reduction, "binary_cross_entropy")
    x, y = _pair_inputs(logits, labels, "binary_cross_entropy")
    if tuple(x.shape) != tuple(as_tensor_array(labels).shape):
        raise ValueError(
            f"For 'binary_cross_entropy', the 'labels' shape must be {tuple(x.shape)}, "
            f"but got {tuple(as_tensor_array(labels).shape)}."
        )
    lo = _const(-100.0, x)
    loss = -(y * jnp.maximum(jnp.log(x), lo) + (1 - y) * jnp.maximum(jnp.log1p(-x), lo))
    if weight is not None:
        loss = loss * as_tensor_array(weight).astype(x.dtype)
    return wrap(_reduce(loss, reduction))


@amp_black
@compiled_op
def binary_cross_entropy_with_logits(
    input: Any, target: Any, weight: Any = None, pos_weight: Any = None, reduction: str = "mean"
) -> Tensor:
    """``-w (pw y log sigmoid(x) + (1 - y) log(1 - sigmoid(x)))``, computed stably from logits."""
    _check_reduction(reduction, "binary_cross_entropy_with_logits")
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
@compiled_op
def kl_div(logits: Any, labels: Any, reduction: str = "mean", log_target: bool = False) -> Tensor:
    """``labels * (log(labels) - logits)`` with log-probability ``logits``; ``batchmean`` divides the sum
    by the batch size."""
    _check_reduction(reduction, "kl_div", ("batchmean",))
    x, y = _pair_inputs(logits, labels, "kl_div")
    if log_target:
        loss = jnp.exp(y) * (y - x)
    else:
        loss = jnp.where(y > 0, y * (jnp.log(jnp.where(y > 0, y, 1)) - x), -y * x * 0)
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


@compiled_op
def sparse_softmax_cross_entropy_with_logits(logits: Any, labels: Any, is_grad: bool = False) -> Tensor:
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
