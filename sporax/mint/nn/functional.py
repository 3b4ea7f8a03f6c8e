"""``mindspore.mint.nn.functional``: PyTorch-style names and defaults over ``sporax.ops``."""

from __future__ import annotations

from ... import _checkparam as validator
from ... import ops
from ...ops import (  # noqa: F401  (same signature as mint's: re-exported)
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool2d,
    conv_transpose2d,
    cosine_embedding_loss,
    cross_entropy,
    embedding,
    fold,
    grid_sample,
    group_norm,
    interpolate,
    layer_norm,
    mse_loss,
    prelu,
    relu,
    sigmoid,
    soft_margin_loss,
    tanh,
    unfold,
)


def _inplace(input, value, inplace=True):  # noqa: A002
    if inplace:
        input.assign_value(value)
        return input
    return value


def _arg(args, kwargs, i, name, default=None):
    if len(args) > i:
        return args[i]
    return kwargs.get(name, default)


def adaptive_max_pool1d(input, output_size, return_indices=False):  # noqa: A002
    """Adaptive 1-D max pooling; with ``return_indices`` also the argmax positions."""
    if return_indices:
        return ops.adaptive_max_pool1d(input, output_size), _adaptive_max_indices(input, output_size)
    return ops.adaptive_max_pool1d(input, output_size)


def _adaptive_max_indices(input, output_size):  # noqa: A002
    n = input.shape[-1]
    idx = []
    for i in range(output_size):
        s, e = (i * n) // output_size, -(-((i + 1) * n) // output_size)
        idx.append(ops.argmax(input[..., s:e], -1) + s)
    return ops.stack(idx, -1)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):  # noqa: A002
    """1-D average pooling (``stride`` defaults to ``kernel_size``)."""
    return ops.avg_pool1d(
        input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode, count_include_pad
    )


def avg_pool2d(
    input,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode=False,
    count_include_pad=True,  # noqa: A002
    divisor_override=None,
):
    """2-D average pooling."""
    return ops.avg_pool2d(
        input,
        kernel_size,
        kernel_size if stride is None else stride,
        padding,
        ceil_mode,
        count_include_pad,
        divisor_override or 0,
    )


def avg_pool3d(
    input,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode=False,
    count_include_pad=True,  # noqa: A002
    divisor_override=None,
):
    """3-D average pooling."""
    return ops.avg_pool3d(
        input,
        kernel_size,
        kernel_size if stride is None else stride,
        padding,
        ceil_mode,
        count_include_pad,
        divisor_override or 0,
    )


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05):  # noqa: A002
    """Batch normalization over dim 1 (``weight``/``bias`` optional)."""
    c = input.shape[1]
    w = ops.ones((c,), input.dtype) if weight is None else weight
    b = ops.zeros((c,), input.dtype) if bias is None else bias
    return ops.batch_norm(input, running_mean, running_var, w, b, training, momentum, eps)


def binary_cross_entropy(input, target, weight=None, reduction="mean"):  # noqa: A002
    """BCE on probabilities."""
    return ops.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean", pos_weight=None):  # noqa: A002
    """BCE on logits (``reduction`` before ``pos_weight`` in mint's order)."""
    return ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def _conv(fn, args, kwargs):
    names = ("input", "weight", "bias", "stride", "padding", "dilation", "groups")
    defaults = (None, None, None, 1, 0, 1, 1)
    x, w, b, stride, padding, dilation, groups = (
        _arg(args, kwargs, i, n, d) for i, (n, d) in enumerate(zip(names, defaults))
    )
    if isinstance(padding, str):
        return fn(x, w, b, stride, padding, 0, dilation, groups)
    return fn(x, w, b, stride, "pad", padding, dilation, groups)


def conv1d(*args, **kwargs):
    """``conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)``; padding may be 'same'/'valid'."""
    return _conv(ops.conv1d, args, kwargs)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """2-D convolution with torch's ``padding`` (int, tuple, 'same' or 'valid')."""
    return _conv(ops.conv2d, (input, weight, bias, stride, padding, dilation, groups), {})


def conv3d(*args, **kwargs):
    """``conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)``."""
    return _conv(ops.conv3d, args, kwargs)


def dropout(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zero elements with probability ``p`` and scale by 1/(1-p) while training."""
    return _inplace(input, ops.dropout(input, p, training), inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zero whole channels with probability ``p``."""
    return _inplace(input, ops.dropout2d(input, p, training), inplace)


def elu(input, alpha=1.0, inplace=False):  # noqa: A002
    """ELU."""
    return _inplace(input, ops.elu(input, alpha), inplace)


def elu_(input, alpha=1.0):  # noqa: A002
    """ELU in place."""
    return elu(input, alpha, True)


def flatten(input, start_dim=0, end_dim=-1):  # noqa: A002
    """Flatten dims ``start_dim``..``end_dim`` (all by default)."""
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def gelu(*args, **kwargs):
    """``gelu(input, *, approximate='none')``."""
    return ops.gelu(_arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "approximate", "none"))


def glu(input, dim=-1):  # noqa: A002
    """Gated linear unit along ``dim``."""
    return ops.glu(input, dim)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):  # noqa: A002
    """Clamp to [min_val, max_val]."""
    return _inplace(input, ops.hardtanh(input, min_val, max_val), inplace)


def hardtanh_(input, min_val=-1, max_val=1):  # noqa: A002
    """``hardtanh`` in place."""
    return hardtanh(input, min_val, max_val, True)


def kl_div(input, target, reduction="mean", log_target=False):  # noqa: A002
    """KL divergence; ``input`` is log-probabilities, ``target`` probabilities (or log with ``log_target``)."""
    if log_target:
        loss = ops.exp(target) * (target - input)
    else:
        loss = ops.xlogy(target, target) - target * input
    if reduction == "none":
        return loss
    if reduction == "sum":
        return ops.sum(loss)
    if reduction == "batchmean":
        return ops.sum(loss) / input.shape[0]
    if reduction == "mean":
        return ops.mean(loss)
    validator.check_string(reduction, ["none", "mean", "sum", "batchmean"], "reduction", "kl_div")
    raise AssertionError("unreachable")


def leaky_relu(input, negative_slope=0.01):  # noqa: A002
    """Leaky ReLU (slope 0.01 by default, as in torch)."""
    return ops.leaky_relu(input, negative_slope)


def linear(input, weight, bias=None):  # noqa: A002
    """input @ weight.T + bias."""
    return ops.dense(input, weight, bias)


def log_softmax(input, dim=None, *, dtype=None):  # noqa: A002
    """Log-softmax along ``dim`` (the last dim by default)."""
    x = input if dtype is None else input.astype(dtype)
    return ops.log_softmax(x, -1 if dim is None else dim)


def logsigmoid(input):  # noqa: A002
    """log(sigmoid(x))."""
    return ops.logsigmoid(input)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):  # noqa: A002
    """2-D max pooling (mint's argument order: ``ceil_mode`` before ``return_indices``)."""
    return ops.max_pool2d(input, kernel_size, stride, padding, dilation, return_indices, ceil_mode)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):  # noqa: A002
    """Inverse of ``max_pool2d`` with its indices."""
    return ops.max_unpool2d(input, indices, kernel_size, stride, padding, output_size)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):  # noqa: A002
    """Negative log-likelihood on log-probabilities."""
    return ops.nll_loss(input, target, weight, ignore_index, reduction)


def normalize(input, p=2.0, dim=1, eps=1e-12):  # noqa: A002
    """input / max(||input||_p over ``dim``, eps)."""
    n = ops.norm(input, p, dim, True)
    return input / ops.clamp(n, eps, None)


def one_hot(tensor, num_classes=-1):
    """One-hot int64 encoding; ``num_classes=-1`` takes max + 1."""
    n = int(ops.amax(tensor)) + 1 if num_classes == -1 else num_classes
    return ops.one_hot(tensor, n, 1, 0, -1).astype(tensor.dtype)


def pad(input, pad, mode="constant", value=None):  # noqa: A002
    """Pad the last dims by ``pad`` (torch's order: last dim first)."""
    return ops.pad(input, pad, mode, value)


def pixel_shuffle(*args, **kwargs):
    """``pixel_shuffle(input, upscale_factor)``."""
    return ops.pixel_shuffle(_arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "upscale_factor"))


def relu6(input, inplace=False):  # noqa: A002
    """min(max(x, 0), 6)."""
    return _inplace(input, ops.relu6(input), inplace)


def relu_(input):  # noqa: A002
    """ReLU in place."""
    return _inplace(input, ops.relu(input))


def sigmoid_(input):  # noqa: A002
    """Sigmoid in place."""
    return _inplace(input, ops.sigmoid(input))


def silu(input, inplace=False):  # noqa: A002
    """x * sigmoid(x)."""
    return _inplace(input, ops.silu(input), inplace)


def softmax(input, dim=None, dtype=None):  # noqa: A002
    """Softmax along ``dim`` (the last dim by default)."""
    return ops.softmax(input, -1 if dim is None else dim, dtype=dtype)


def threshold(input, threshold, value, inplace=False):  # noqa: A002
    """x where x > threshold, else ``value``."""
    return _inplace(input, ops.threshold(input, threshold, value), inplace)


def threshold_(input, threshold, value):  # noqa: A002
    """``threshold`` in place."""
    return _inplace(input, ops.threshold(input, threshold, value))


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):  # noqa: A002
    """Resize by ``size`` or ``scale_factor`` (``interpolate``)."""
    return ops.interpolate(input, size, scale_factor, mode, align_corners)
