"""Activation functions of ``mindspore.ops`` (``ops.relu``, ``ops.gelu``, ``ops.hardshrink``, ``ops.glu``...).

Each op unwraps its Tensors, runs one jax kernel and wraps the result. Shapes and dtypes are static
(also while tracing), so argument checks raise MindSpore-style errors before anything runs. The
softmax family stays in ``nn_func`` (it shares the axis handling with the losses there).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._checkparam import check_instance
from ..._engine import jax, jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black, amp_white
from .._utils import as_tensor_array, float_result, wrap

__all__ = [
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
    "hardshrink",
    "softshrink",
    "soft_shrink",
    "glu",
    "swiglu",
    "threshold",
    "softmin",
    "rrelu",
    "inplace_sigmoid",
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
_jnn_sigmoid = jax.jit(jax.nn.sigmoid)
_jnn_softmax = jax.jit(jax.nn.softmax, static_argnames=("axis",))
_jnn_log_softmax = jax.jit(jax.nn.log_softmax, static_argnames=("axis",))

_FLOAT_NAMES = "float16, float32 or float64"


def _float_in(x: Any, op: str, what: str = "input") -> Any:
    a = as_tensor_array(x)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For '{op}', the dtype of '{what}' must be {_FLOAT_NAMES}, but got {mstype.from_np(a.dtype)}.")
    return a


def _tensor_in(x: Any, name: str, op: str) -> Any:
    check_instance(x, Tensor, name, op)
    return x._data


def _const(v: float, a: Any) -> Any:
    return jnp.asarray(v, dtype=a.dtype)


_HALF = (jnp.float16, jnp.bfloat16)


def _up(a: Any) -> Any:
    """float16/bfloat16 computed in float32 (as MindSpore's kernels do); the result is cast back."""
    return a.astype(jnp.float32) if a.dtype in _HALF else a


def _number(v: Any, name: str, op: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(
            f"For '{op}', the type of '{name}' should be one of '['float', 'int']', but got type '{type(v).__name__}'."
        )
    return float(v)


def _axis(axis: Any, ndim: int, op: str) -> Any:
    if isinstance(axis, (tuple, list)):
        return tuple(_axis(x, ndim, op) for x in axis)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For '{op}', the 'axis' must be an int, but got {type(axis).__name__}.")
    n = max(ndim, 1)
    if not -n <= axis < n:
        raise ValueError(f"For '{op}', the 'axis' must be in range [{-n}, {n - 1}], but got {axis}.")
    return int(axis) % n


def _inplace(input: Any, out: Tensor, op: str) -> Tensor:
    """Write ``out`` into ``input`` (a Tensor or Parameter) and return ``input``, as MindSpore's in-place ops."""
    if not isinstance(input, Tensor):
        raise TypeError(
            f"For '{op}', the 'input' must be a Tensor for an in-place update, but got {type(input).__name__}."
        )
    input._data = out._data.astype(input._data.dtype)
    return input


# ------------------------------------------------------------------ jitted kernels
# Elementwise formulas of several jnp ops, compiled once each: eagerly one dispatch instead of one per
# jnp call; inside a trace they inline. float16/bfloat16 compute in float32 (as MindSpore's kernels).
def _relu6_impl(a: Any) -> Any:
    # where-based (not clip): the gradient is 0 at both kinks, as MindSpore's ReLU6Grad
    return jnp.where(a > 0, jnp.where(a < 6, a, _const(6, a)), _const(0, a))


def _fast_gelu_impl(a0: Any) -> Any:
    a = _up(a0)
    ab = jnp.abs(a)
    return (a / (1 + jnp.exp(_const(-1.702, a) * ab)) * jnp.exp(_const(0.851, a) * (a - ab))).astype(a0.dtype)


def _leaky_relu_impl(a: Any, alpha: float) -> Any:
    # max/min (not where): at 0 the gradient is (1 + alpha) / 2, as MindSpore's
    return jnp.maximum(a, a * _const(alpha, a)) if alpha <= 1 else jnp.minimum(a, a * _const(alpha, a))


def _softsign_impl(a0: Any) -> Any:
    a = _up(a0)
    return (a / (1 + jnp.abs(a))).astype(a0.dtype)


def _hardswish_impl(a0: Any) -> Any:
    a = _up(a0)
    # gradient (2x + 3) / 6 on [-3, 3] inclusive, as MindSpore's HSwishGrad
    mid = a * (a + 3) / _const(6, a)
    return jnp.where(a < -3, _const(0, a), jnp.where(a > 3, a, mid)).astype(a0.dtype)


def _hardsigmoid_impl(a0: Any) -> Any:
    a = _up(a0)
    # gradient 1/6 strictly inside (-3, 3), 0 at the kinks, as MindSpore's HSigmoidGrad
    mid = (a + 3) / _const(6, a)
    return jnp.where(a <= -3, _const(0, a), jnp.where(a >= 3, _const(1, a), mid)).astype(a0.dtype)


def _mish_impl(a0: Any) -> Any:
    a = _up(a0)
    return (a * jnp.tanh(jax.nn.softplus(a))).astype(a0.dtype)


def _hardshrink_impl(a: Any, lam: float) -> Any:
    return jnp.where(jnp.abs(a) > lam, a, _const(0, a))


def _softshrink_impl(a: Any, lam: float) -> Any:
    la = _const(lam, a)
    return jnp.where(a > la, a - la, jnp.where(a < -la, a + la, _const(0, a)))


_k_relu6 = jax.jit(_relu6_impl)
_k_fast_gelu = jax.jit(_fast_gelu_impl)
_k_leaky_relu = jax.jit(_leaky_relu_impl, static_argnums=(1,))
_k_softsign = jax.jit(_softsign_impl)
_k_hardswish = jax.jit(_hardswish_impl)
_k_hardsigmoid = jax.jit(_hardsigmoid_impl)
_k_mish = jax.jit(_mish_impl)
_k_hardshrink = jax.jit(_hardshrink_impl, static_argnums=(1,))
_k_softshrink = jax.jit(_softshrink_impl, static_argnums=(1,))


# ------------------------------------------------------------------ activations
def relu(input: Any, inplace: bool = False) -> Tensor:
    """``max(input, 0)`` element-wise; ``inplace=True`` writes the result into ``input``."""
    out = wrap(_jnn_relu(as_tensor_array(input)))
    return _inplace(input, out, "relu") if inplace else out


def relu6(x: Any) -> Tensor:
    """``min(max(x, 0), 6)`` element-wise."""
    return wrap(_k_relu6(as_tensor_array(x)))


def gelu(input: Any, approximate: str = "none") -> Tensor:
    """GeLU; ``approximate='tanh'`` uses the tanh approximation, ``'none'`` the exact erf form."""
    if approximate not in ("none", "tanh"):
        raise ValueError("For ops.gelu, approximate value should be either 'none' or 'tanh'.")
    a = as_tensor_array(input)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(
            f"For 'gelu', the input dtype must be bfloat16, float16, float32 or float64, but got {mstype.from_np(a.dtype)}."
        )
    return wrap(_jnn_gelu(_up(a), approximate=approximate == "tanh").astype(a.dtype))


def fast_gelu(x: Any) -> Tensor:
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))`` (MindSpore's FastGeLU)."""
    return wrap(_k_fast_gelu(_float_in(x, "fast_gelu")))


def silu(input: Any) -> Tensor:
    """``input * sigmoid(input)``."""
    a = _float_in(input, "silu")
    return wrap(_jnn_silu(_up(a)).astype(a.dtype))


def leaky_relu(input: Any, alpha: float = 0.2) -> Tensor:
    """``input`` where positive, ``alpha * input`` elsewhere."""
    return wrap(_k_leaky_relu(as_tensor_array(input), float(alpha)))


def elu(input_x: Any, alpha: float = 1.0) -> Tensor:
    """``alpha * (exp(x) - 1)`` for ``x <= 0``, ``x`` elsewhere."""
    a = _float_in(input_x, "elu")
    u = _up(a)
    return wrap(_jnn_elu(u, alpha=_const(alpha, u)).astype(a.dtype))


def selu(input_x: Any) -> Tensor:
    """``scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))`` with SELU's fixed scale and alpha."""
    a = _float_in(input_x, "selu", "input_x")
    return wrap(_jnn_selu(_up(a)).astype(a.dtype))


def celu(x: Any, alpha: float = 1.0) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``; ``alpha`` must not be 0."""
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"For 'celu', the 'alpha' must be a float, but got {type(alpha).__name__}.")
    if alpha == 0:
        raise ValueError(f"For primitive[CeLU], the alpha must be not equal to 0 , but got {alpha}.")
    a = _float_in(x, "celu", "x")
    u = _up(a)
    return wrap(_jnn_celu(u, alpha=_const(alpha, u)).astype(a.dtype))


@amp_black
def softplus(input: Any, beta: float = 1, threshold: float = 20) -> Tensor:
    """``log(1 + exp(beta * x)) / beta``; linear where ``beta * x > threshold``."""
    a0 = _float_in(input, "softplus")
    a = _up(a0)
    bx = a * _const(beta, a)
    soft = jnp.logaddexp(bx, _const(0, a)) / _const(beta, a)
    return wrap(jnp.where(bx > threshold, a, soft).astype(a0.dtype))


def softsign(x: Any) -> Tensor:
    """``x / (1 + |x|)``."""
    return wrap(_k_softsign(_float_in(x, "softsign")))


def hardswish(input: Any) -> Tensor:
    """``x * relu6(x + 3) / 6``."""
    return wrap(_k_hardswish(_float_in(input, "hardswish")))


def hardsigmoid(input: Any) -> Tensor:
    """``relu6(x + 3) / 6``."""
    return wrap(_k_hardsigmoid(_float_in(input, "hardsigmoid")))


def hardtanh(input: Any, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """``clip(input, min_val, max_val)``."""
    a = as_tensor_array(input)
    return wrap(jnp.clip(a, _const(min_val, a), _const(max_val, a)))


def mish(x: Any) -> Tensor:
    """``x * tanh(softplus(x))``."""
    return wrap(_k_mish(_float_in(x, "mish")))


def logsigmoid(x: Any) -> Tensor:
    """``log(sigmoid(x))``, computed stably."""
    a = _float_in(x, "logsigmoid")
    return wrap(_jnn_log_sigmoid(_up(a)).astype(a.dtype))


@amp_white
def prelu(input: Any, weight: Any) -> Tensor:
    """``max(0, x) + weight * min(0, x)``, ``weight`` per channel (axis 1) or a single value."""
    a = _float_in(input, "prelu")
    w = as_tensor_array(weight).astype(a.dtype)
    if w.ndim == 1 and a.ndim >= 2 and w.shape[0] not in (1, a.shape[1]):
        raise ValueError(
            f"For 'prelu', the length of 'weight' must be equal to number of channels: {a.shape[1]}, "
            f"but got {w.shape[0]}."
        )
    if w.ndim == 1 and a.ndim >= 2:
        w = w.reshape((1, -1) + (1,) * (a.ndim - 2))
    return wrap(jnp.where(a > 0, a, a * w))


def hardshrink(input: Any, lambd: float = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, 0 elsewhere."""
    lam = validator.check_real(lambd, "lambd", "HShrink")
    a = as_tensor_array(input)
    if a.dtype not in (jnp.float16, jnp.float32, jnp.bfloat16):
        raise TypeError(
            "For primitive[HShrink], the input argument[input_x] must be a type of {BFloat16, Float16, Float32}, "
            f"but got {mstype.from_np(a.dtype)}."
        )
    return wrap(_k_hardshrink(a, lam))


def softshrink(input: Any, lambd: float = 0.5) -> Tensor:
    """``input - lambd`` above ``lambd``, ``input + lambd`` below ``-lambd``, 0 between; ``lambd >= 0``."""
    lam = validator.check_real(lambd, "lambd", "SoftShrink")
    if lam < 0:
        raise RuntimeError(f"For 'SoftShrink', the values for lambd should be greater or equal to 0, but got {lambd}.")
    a = as_tensor_array(input)
    if a.dtype not in (jnp.float16, jnp.float32, jnp.bfloat16):
        raise TypeError(
            "For primitive[SoftShrink], the input argument[input_x] must be a type of {BFloat16, Float16, Float32}, "
            f"but got {mstype.from_np(a.dtype)}."
        )
    return wrap(_k_softshrink(a, lam))


def soft_shrink(input: Any, lambd: float = 0.5) -> Tensor:
    """Deprecated name of :func:`softshrink` (MindSpore warns the same way)."""
    warnings.warn("`soft_shrink` is deprecated, please use `softshrink` instead.", DeprecationWarning, stacklevel=2)
    return softshrink(input, lambd)


def _halves(a: Any, axis: Any, op: str, what: str) -> tuple[Any, Any]:
    ax = _axis(axis, a.ndim, op)
    n = a.shape[ax]
    if n % 2:
        raise ValueError(what.format(ax=ax, n=n))
    h = n // 2
    return jax.lax.slice_in_dim(a, 0, h, axis=ax), jax.lax.slice_in_dim(a, h, n, axis=ax)


def glu(x: Any, axis: int = -1) -> Tensor:
    """Gated linear unit: ``a * sigmoid(b)`` with ``a, b`` the two halves of ``x`` along ``axis``."""
    a = _float_in(_tensor_in(x, "x", "glu"), "glu", "x")
    first, second = _halves(
        a, axis, "glu", "For 'Split', x_shape[{ax}] must be divisible by output_num = 2, but got {n}"
    )
    return wrap(first * _jnn_sigmoid(second))


def swiglu(input: Any, dim: int = -1) -> Tensor:
    """SwiGLU: ``swish(a) * b`` with ``a, b`` the two halves of ``input`` along ``dim``."""
    a = _tensor_in(input, "input", "Swiglu")
    if a.dtype not in (jnp.float16, jnp.float32, jnp.bfloat16):
        raise TypeError(
            f"For 'Swiglu', the dtype of 'input' must be float16, float32 or bfloat16, but got {mstype.from_np(a.dtype)}."
        )
    first, second = _halves(
        a,
        dim,
        "Swiglu",
        "For 'Swiglu', the dimension specified by 'dim' must be divisible by 2, but got x_shape[dim]: {n} .",
    )
    return wrap(_jnn_silu(first) * second)


def threshold(input: Any, thr: float, value: float) -> Tensor:
    """``input`` where ``input > thr``, ``value`` elsewhere."""
    a = _tensor_in(input, "input", "threshold")
    t = _number(thr, "thr", "threshold")
    v = _number(value, "value", "threshold")
    return wrap(jnp.where(a > jnp.asarray(t, float_result(a).dtype), a, jnp.asarray(v).astype(a.dtype)))


@amp_black
def softmin(x: Any, axis: int = -1, *, dtype: Any = None) -> Tensor:
    """``softmax(-x)`` along ``axis``; ``dtype`` casts the input first."""
    a = as_tensor_array(x)
    if dtype is not None:
        a = a.astype(mstype.to_np(dtype))
    a = _float_in(a, "Softmax", "x")
    n = max(a.ndim, 1)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For 'Softmax', the 'axis' must be an int, but got {type(axis).__name__}.")
    if not -n <= axis < n:
        raise ValueError(f"For primitive[Softmax], the axis must be in [{-n},{n}), but got {axis}.")
    return wrap(_jnn_softmax(-a, axis=int(axis) % n))


def rrelu(input: Any, lower: float = 1.0 / 8, upper: float = 1.0 / 3) -> Tensor:
    """Randomized leaky ReLU: negative elements are scaled by a slope drawn uniformly from
    ``[lower, upper)`` per element (from the framework's random state)."""
    if isinstance(upper, bool) or not isinstance(upper, (float, int)):
        raise TypeError(f"For 'rrelu', 'upper' must be an int or a float, but got {type(upper)}")
    if isinstance(lower, bool) or not isinstance(lower, (float, int)):
        raise TypeError(f"For 'rrelu', 'lower' must be an int or a float, but got {type(lower)}")
    if lower > upper:
        raise ValueError(
            f"For 'rrelu', the value of 'upper' must be greater than or equal to 'lower', "
            f"but got upper: {upper}, lower: {lower}. "
        )
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'rrelu', the 'input' must be a Tensor but got {type(input)}.")
    from ...common.seed import next_key

    a = input._data
    slope = jax.random.uniform(next_key(None), a.shape, jnp.float32, lower, upper).astype(a.dtype)
    return wrap(jnp.where(a >= 0, a, a * slope))


def inplace_sigmoid(input: Any) -> Tensor:
    """``sigmoid(input)`` written into ``input``, which is returned."""
    a = _float_in(_tensor_in(input, "input", "inplace_sigmoid"), "inplace_sigmoid")
    return _inplace(input, wrap(_jnn_sigmoid(a)), "inplace_sigmoid")
