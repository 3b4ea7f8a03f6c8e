"""Neural-network ops (``mindspore.ops`` functional): activations, softmax, dropout, convolution, pooling,
normalisation, padding, resizing and losses.

Each op unwraps its Tensors, runs one jax kernel and wraps the result. Shapes and dtypes are static
(also while tracing), so argument checks raise MindSpore-style errors before anything runs.
Convolutions and pooling: see ``_conv_pool.py`` (kernels chosen per backend).
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._engine import jax, jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black, amp_promote, amp_white
from .._lowering import layout as _layout
from .._lowering import norm as _norm
from .._lowering import random as _random
from .._utils import as_tensor_array, float_result, wrap
from ._conv_pool import (
    adaptive_avg_pool2d,
    adaptive_max_pool2d,
    avg_pool2d,
    conv1d,
    conv2d,
    max_pool2d,
)
from .activation_func import (  # noqa: F401  (re-exported: nn_func keeps its names)
    _axis,
    _const,
    _float_in,
    _jnn_log_softmax,
    _jnn_softmax,
    celu,
    elu,
    fast_gelu,
    gelu,
    hardsigmoid,
    hardswish,
    hardtanh,
    leaky_relu,
    logsigmoid,
    mish,
    prelu,
    relu,
    relu6,
    selu,
    silu,
    softplus,
    softsign,
)
from .attention_func import multi_head_attention_forward  # noqa: F401  (MindSpore's ops.function.nn_func path)
from .loss_func import (  # noqa: F401
    _reduce,
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    huber_loss,
    kl_div,
    l1_loss,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
    softmax_cross_entropy_with_logits,
    sparse_softmax_cross_entropy_with_logits,
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

    keep = _random.keep_mask(next_key(seed), 1.0 - p, a.shape)
    return wrap(jnp.where(keep, a / _const(1.0 - p, a), _const(0, a)))


def dropout_with_mask(input: Any, keep_prob: float, seed: int | None = None) -> tuple[Tensor, Tensor]:
    """Dropout returning ``(output, mask)`` (the ``ops.Dropout`` primitive)."""
    from ...common.seed import next_key

    a = as_tensor_array(input)
    keep = _random.keep_mask(next_key(seed), keep_prob, a.shape)
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


def bias_add(input_x: Any, bias: Any) -> Tensor:
    """Add a 1-D ``bias`` along the channel axis (axis 1) of an input of rank >= 2.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.zeros([1, 2, 2], np.float32))
        >>> ms.ops.bias_add(x, ms.Tensor(np.array([1.0, 2.0], np.float32))).asnumpy()[0, :, 0].tolist()
        [1.0, 2.0]
    """
    return bias_add_format(input_x, bias, "NCHW")


@amp_promote
def bias_add_format(input_x: Any, bias: Any, data_format: str = "NCHW") -> Tensor:
    """``bias_add`` with the channel axis given by ``data_format`` (1 for NCHW/NCDHW, -1 for NHWC): the
    ``ops.BiasAdd`` primitive's form."""
    a, b = as_tensor_array(input_x), as_tensor_array(bias)
    validator.check_ndim(b.ndim, 1, "bias", "BiasAdd")
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
    sync: bool = False,
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
    cdt = jnp.float32 if x.dtype in (jnp.float16, jnp.bfloat16) else x.dtype
    # computed in the order the producing convolution's lowering left x in (see _lowering.layout)
    perm = _layout.physical_perm(x)
    xc = (x if perm is None else _layout.to_physical(x, perm)).astype(cdt)
    caxis = 1 if perm is None else perm.index(1)
    axes = tuple(i for i in range(x.ndim) if i != caxis)
    bshape = tuple(c if i == caxis else 1 for i in range(x.ndim))
    if training and sync:  # nn.SyncBatchNorm: the statistics of the batch over all ranks
        from .norm_func import global_moments

        mean, var, n = global_moments(xc, axes)
    elif training:  # the lowering's hand-written VJP: two passes over x each way (see _lowering.norm)
        w_arr = None if weight is None else as_tensor_array(weight)
        b_arr = None if bias is None else as_tensor_array(bias)
        y, mean, var = _norm.batch_norm_train(xc, w_arr, b_arr, axes, eps)
        n = x.size // c
    if training:
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
    if not training or sync:
        scale = lax.rsqrt(var + jnp.asarray(eps, cdt))
        if weight is not None:
            scale = scale * as_tensor_array(weight).astype(cdt)
        y = (xc - mean.reshape(bshape)) * scale.reshape(bshape)
        if bias is not None:
            y = y + as_tensor_array(bias).astype(cdt).reshape(bshape)
    y = y.astype(x.dtype)
    return wrap(y if perm is None else _layout.from_physical(y, perm)), mean, var


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
    w = None if weight is None else as_tensor_array(weight)
    b = None if bias is None else as_tensor_array(bias)
    return _norm.layer_norm_array(x, begin_norm_axis, w, b, eps)


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
    validator.check_choice(mode, ("constant", "reflect", "replicate", "circular"), "mode", "pad")
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
# (ops/function/_resize_func.py: every mode and the resize primitives' coordinate rules)
from ._resize_func import interpolate  # noqa: E402
