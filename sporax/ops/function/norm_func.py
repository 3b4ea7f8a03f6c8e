"""Normalisation ops beyond batch/layer norm (those are in ``nn_func``): ``group_norm``, ``rms_norm``,
``add_rms_norm``, ``add_layer_norm``, and the instance statistics and cross-rank batch statistics that
``nn.InstanceNorm*`` and ``nn.SyncBatchNorm`` use.

Statistics are computed in float32 for float16/bfloat16 inputs (as MindSpore's kernels do) and the result
is cast back to the input's dtype.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._engine import jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black
from .._utils import as_tensor_array, compiled_op, wrap

__all__ = ["group_norm", "rms_norm", "add_rms_norm", "add_layer_norm"]


def _compute_dtype(a: Any) -> Any:
    return jnp.float32 if a.dtype in (jnp.float16, jnp.bfloat16) else a.dtype


def _float_input(x: Any, name: str, op: str) -> Any:
    a = as_tensor_array(x)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(
            f"For '{op}', the dtype of '{name}' must be float16, bfloat16, float32 or float64, "
            f"but got {mstype.from_np(a.dtype)}."
        )
    return a


@amp_black
@compiled_op
def group_norm(input: Any, num_groups: int, weight: Any = None, bias: Any = None, eps: float = 1e-5) -> Tensor:
    r"""Group normalisation: the channels (axis 1) of each sample split into ``num_groups`` groups, each
    normalised by its own mean and (biased) variance over the group's channels and all spatial positions,
    then scaled by ``weight`` and shifted by ``bias`` per channel.

    Args:
        input (Tensor): ``(N, C, *)`` float tensor.
        num_groups (int): groups; ``C`` must be divisible by it.
        weight (Tensor, optional): ``(C,)`` scale. Default None (ones).
        bias (Tensor, optional): ``(C,)`` shift. Default None (zeros).
        eps (float): added to the variance. Default 1e-5.

    Returns:
        Tensor of the input's shape and dtype.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.ops.group_norm(ms.Tensor(np.ones([1, 2, 4, 4], np.float32)), 2).sum()
        Tensor(shape=[], dtype=Float32, value= 0)
    """
    validator.check_value_type("num_groups", num_groups, [int], "GroupNorm")
    validator.check_value_type("eps", eps, [float], "GroupNorm")
    x = _float_input(input, "input", "GroupNorm")
    if x.ndim < 2:
        raise ValueError(f"For 'GroupNorm', the dimension of 'input' must be >= 2, but got {x.ndim}.")
    if num_groups < 1:
        raise ValueError(f"For 'GroupNorm', the 'num_groups' must be >= 1, but got {num_groups}.")
    n, c = x.shape[0], x.shape[1]
    if c % num_groups != 0:
        raise ValueError(
            f"For 'GroupNorm', the 'num_groups' must divide the channel of 'input' (C = {c}), "
            f"but got num_groups: {num_groups}."
        )
    for t in (weight, bias):
        if t is not None and tuple(t.shape) != (c,):
            raise ValueError(
                f"For GroupNorm, shape of weight and bias should be equal to input_x's channel dimension: {c}, "
                f"bug got shape: {tuple(t.shape)}."
            )
    cdt = _compute_dtype(x)
    g = x.astype(cdt).reshape(n, num_groups, -1)
    mean = jnp.mean(g, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(g - mean), axis=-1, keepdims=True)
    y = ((g - mean) * lax.rsqrt(var + jnp.asarray(eps, cdt))).reshape(x.shape)
    bshape = (1, c) + (1,) * (x.ndim - 2)
    if weight is not None:
        y = y * as_tensor_array(weight).astype(cdt).reshape(bshape)
    if bias is not None:
        y = y + as_tensor_array(bias).astype(cdt).reshape(bshape)
    return wrap(y.astype(x.dtype))


def instance_norm(
    x: Any, gamma: Any, beta: Any, moving_mean: Any, moving_variance: Any, eps: float, momentum: float, update: bool
) -> Tensor:
    """Normalise each sample's channels by their own statistics over the spatial axes (``nn.InstanceNorm*``);
    with ``update``, the moving statistics (Parameters) become ``(1 - momentum) * old + momentum *
    batch_average`` of the instance means and unbiased variances."""
    from ...common.parameter import Parameter

    a = as_tensor_array(x)
    c = a.shape[1]
    axes = tuple(range(2, a.ndim))
    cdt = _compute_dtype(a)
    xc = a.astype(cdt)
    mean = jnp.mean(xc, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(xc - mean), axis=axes, keepdims=True)
    bshape = (1, c) + (1,) * (a.ndim - 2)
    y = (xc - mean) * lax.rsqrt(var + jnp.asarray(eps, cdt))
    y = y * as_tensor_array(gamma).astype(cdt).reshape(bshape) + as_tensor_array(beta).astype(cdt).reshape(bshape)
    if update:
        m = a.size // (a.shape[0] * c)
        new_mean = lax.stop_gradient(jnp.mean(mean.reshape(a.shape[0], c), axis=0))
        new_var = lax.stop_gradient(jnp.mean(var.reshape(a.shape[0], c), axis=0) * (m / max(m - 1, 1)))
        for p, new in ((moving_mean, new_mean), (moving_variance, new_var)):
            if isinstance(p, Parameter):
                old = p._data
                p._data = (old * (1 - momentum) + new.astype(old.dtype) * momentum).astype(old.dtype)
    return wrap(y.astype(a.dtype))


@amp_black(keep=("running_mean", "running_var"))
def sync_batch_norm(
    input_x: Any,
    running_mean: Any,
    running_var: Any,
    weight: Any,
    bias: Any,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """``batch_norm`` whose training statistics are those of the whole batch across all ranks
    (``nn.SyncBatchNorm``); with one rank it is ``batch_norm``."""
    from .nn_func import _batch_norm

    y, _, _ = _batch_norm(
        input_x, running_mean, running_var, weight, bias, training, momentum, eps, "SyncBatchNorm", sync=True
    )
    return y


def global_moments(xc: Any, axes: tuple[int, ...]) -> tuple[Any, Any, int]:
    """Mean and biased variance over ``axes`` of the whole batch across all ranks (``nn.SyncBatchNorm``),
    and the global element count per channel. One rank: the local statistics."""
    from ..._engine import _parallel

    count = 1
    for ax in axes:
        count *= xc.shape[ax]
    n = _parallel.size()
    if n == 1:
        mean = jnp.mean(xc, axis=axes)
        return mean, jnp.mean(jnp.square(xc - _expand(mean, xc.ndim)), axis=axes), count
    total = count * n
    s = _parallel.collective("all_reduce", jnp.sum(xc, axis=axes))
    mean = s / total
    sq = _parallel.collective("all_reduce", jnp.sum(jnp.square(xc - _expand(mean, xc.ndim)), axis=axes))
    return mean, sq / total, total


def _expand(v: Any, ndim: int) -> Any:
    return v.reshape((1, -1) + (1,) * (ndim - 2))


def rms_norm(x: Any, gamma: Any, epsilon: float = 1e-6) -> tuple[Tensor, Tensor]:
    r"""Root-mean-square normalisation over the trailing ``gamma.ndim`` axes:
    ``y = x / sqrt(mean(x ** 2) + epsilon) * gamma``. Returns ``(y, rstd)`` with ``rstd`` float32 and the
    normalised axes kept as size 1.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> y, rstd = ms.ops.rms_norm(ms.Tensor(np.ones([2, 3], np.float32)), ms.Tensor(np.ones([3], np.float32)))
        >>> y.shape, rstd.shape
        ((2, 3), (2, 1))
    """
    a = _float_input(x, "x", "RmsNorm")
    g = as_tensor_array(gamma)
    validator.check_value_type("epsilon", epsilon, [float], "RmsNorm")
    if not 0 < epsilon <= 1:
        raise ValueError(f"For 'RmsNorm', the 'epsilon' must be in range (0, 1], but got {epsilon}.")
    k = g.ndim
    if k == 0 or k > a.ndim or tuple(a.shape[a.ndim - k :]) != tuple(g.shape):
        raise ValueError(
            f"For 'RmsNorm', the shape of 'gamma' must equal the last dimensions of 'x' {tuple(a.shape)}, "
            f"but got {tuple(g.shape)}."
        )
    y, rstd = _rms(a, g, epsilon, k)
    return wrap(y), wrap(rstd)


def _rms(a: Any, g: Any, epsilon: float, k: int) -> tuple[Any, Any]:
    axes = tuple(range(a.ndim - k, a.ndim))
    xf = a.astype(jnp.float32)
    rstd = lax.rsqrt(jnp.mean(jnp.square(xf), axis=axes, keepdims=True) + jnp.float32(epsilon))
    return (xf * rstd * g.astype(jnp.float32)).astype(a.dtype), rstd


def add_rms_norm(x1: Any, x2: Any, gamma: Any, epsilon: float = 1e-6) -> tuple[Tensor, Tensor, Tensor]:
    """``x = x1 + x2`` then :func:`rms_norm`; returns ``(y, rstd, x)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.ones([2, 3], np.float32))
        >>> y, rstd, s = ms.ops.add_rms_norm(x, x, ms.Tensor(np.ones([3], np.float32)))
        >>> s.asnumpy()[0, 0]
        2.0
    """
    s = _float_input(x1, "x1", "AddRmsNorm") + _float_input(x2, "x2", "AddRmsNorm")
    y, rstd = rms_norm(wrap(s), gamma, epsilon)
    return y, rstd, wrap(s)


def add_layer_norm(
    x1: Any, x2: Any, gamma: Any, beta: Any, epsilon: float = 1e-5, additional_output: bool = False
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """``x = x1 + x2`` then layer normalisation over the trailing ``gamma.ndim`` axes. Returns
    ``(y, mean, rstd, x)`` (``x`` is the sum; ``additional_output`` is MindSpore's Ascend memory hint);
    ``mean``/``rstd`` in the input's dtype with the normalised axes kept as size 1.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))
        >>> one, zero = ms.Tensor(np.ones([3], np.float32)), ms.Tensor(np.zeros([3], np.float32))
        >>> y, mean, rstd, s = ms.ops.add_layer_norm(x, x, one, zero)
        >>> mean.asnumpy()[0, 0]
        4.0
    """
    validator.check_bool(additional_output, "additional_output", "AddLayerNorm")
    s = _float_input(x1, "x1", "AddLayerNorm") + _float_input(x2, "x2", "AddLayerNorm")
    g, b = as_tensor_array(gamma), as_tensor_array(beta)
    k = g.ndim
    if k == 0 or tuple(s.shape[s.ndim - k :]) != tuple(g.shape) or tuple(b.shape) != tuple(g.shape):
        raise ValueError(
            f"For 'AddLayerNorm', the shape of 'gamma' and 'beta' must equal the last dimensions of 'x1' "
            f"{tuple(s.shape)}, but got {tuple(g.shape)} and {tuple(b.shape)}."
        )
    axes = tuple(range(s.ndim - k, s.ndim))
    xf = s.astype(jnp.float32)
    mean = jnp.mean(xf, axis=axes, keepdims=True)
    rstd = lax.rsqrt(jnp.mean(jnp.square(xf - mean), axis=axes, keepdims=True) + jnp.float32(epsilon))
    y = ((xf - mean) * rstd * g.astype(jnp.float32) + b.astype(jnp.float32)).astype(s.dtype)
    return wrap(y), wrap(mean.astype(s.dtype)), wrap(rstd.astype(s.dtype)), wrap(s)
