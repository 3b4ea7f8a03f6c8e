"""A few math ops outside the element-wise/reduction families (``mindspore.ops`` functional): ``ger`` (outer
product), ``lstsq`` (least squares), ``mvlgamma`` (multivariate log-gamma), ``betainc`` and ``complex``
(the kernels of ``ops.Betainc()`` and ``ops.Complex()``)."""

from __future__ import annotations

import math
from typing import Any

from ... import _checkparam as validator
from ..._engine import jax, jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import as_tensor_array, float_result, wrap

__all__ = ["ger", "lstsq", "mvlgamma"]


def ger(input: Any, vec2: Any) -> Tensor:
    """The outer product ``input[i] * vec2[j]`` of two 1-D Tensors of one dtype."""
    a, b = as_tensor_array(input), as_tensor_array(vec2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"For 'Ger', 'input' and 'vec2' must be 1-D, but got {a.ndim}-D and {b.ndim}-D.")
    if a.dtype != b.dtype:
        raise TypeError(
            f"For 'Ger', 'input' and 'vec2' must have the same dtype, but got {mstype.from_np(a.dtype)} and "
            f"{mstype.from_np(b.dtype)}."
        )
    return wrap(jnp.outer(a, b))


def lstsq(input: Any, A: Any) -> Tensor:
    """The least-squares solution ``X`` (shape ``(n, k)``) of ``input @ X = A`` for ``input`` ``(m, n)`` and
    ``A`` ``(m, k)`` (or ``(m,)``)."""
    x, a = as_tensor_array(input), as_tensor_array(A)
    if x.ndim != 2 or a.ndim not in (1, 2) or x.shape[0] != a.shape[0]:
        raise ValueError(
            f"For 'Lstsq', 'input' must be 2-D and 'A' 1-D or 2-D with the same number of rows, but got "
            f"{tuple(x.shape)} and {tuple(a.shape)}."
        )
    x, a = float_result(x), float_result(a)
    dt = jnp.promote_types(x.dtype, a.dtype)
    sol = jnp.linalg.lstsq(x.astype(dt), a.astype(dt))[0]
    return wrap(sol)


def mvlgamma(input: Any, p: int) -> Tensor:
    """The multivariate log-gamma ``sum_i lgamma(x - i/2) + p(p-1)/4 log(pi)``; every element must exceed
    ``(p - 1) / 2``."""
    validator.check_int_at_least(p, 1, "p", "Mvlgamma", quote=True)
    a = float_result(as_tensor_array(input))
    if not isinstance(a, jax.core.Tracer) and a.size and bool(jnp.any(a <= (p - 1) / 2)):
        raise ValueError("For Mvlgamma, all elements of 'x' must be greater than (p-1)/2.")
    i = jnp.arange(p, dtype=a.dtype)
    out = jnp.sum(jax.scipy.special.gammaln(a[..., None] - i / 2), axis=-1) + p * (p - 1) / 4 * math.log(math.pi)
    return wrap(out.astype(a.dtype))


def betainc(a: Any, b: Any, x: Any) -> Tensor:
    """The regularized incomplete beta function ``I_x(a, b)``."""
    aa, bb, xx = (float_result(as_tensor_array(v)) for v in (a, b, x))
    if not aa.dtype == bb.dtype == xx.dtype:
        raise TypeError("For 'Betainc', 'a', 'b' and 'x' must have the same dtype.")
    return wrap(jax.scipy.special.betainc(aa, bb, xx))


def complex(real: Any, imag: Any) -> Tensor:
    """``real + 1j * imag`` (Complex64 from Float32 parts, Complex128 from Float64)."""
    r, i = as_tensor_array(real), as_tensor_array(imag)
    if r.dtype != i.dtype or r.dtype not in (jnp.float32, jnp.float64):
        raise TypeError(
            f"For 'Complex', 'real' and 'imag' must both be float32 or both float64, but got "
            f"{mstype.from_np(r.dtype)} and {mstype.from_np(i.dtype)}."
        )
    return wrap(jax.lax.complex(*jnp.broadcast_arrays(r, i)))
