"""Special functions (``mindspore.ops`` functional): the error and gamma families, the incomplete gamma
and zeta functions, and the Bessel functions ``bessel_*``.

The Bessel functions jax has (I0, I1 and their scaled forms) run as XLA kernels everywhere; J0, J1, Y0,
Y1, K0, K1 and the scaled K's run SciPy's Cephes kernels through ``jax.pure_callback`` (on the host, on
every backend, inside jit and vmap too), with their derivatives written as the recurrences they satisfy,
so they differentiate to any order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._engine import jax, jnp, lax
from ...common.tensor import Tensor
from .._amp import amp_black
from .._utils import as_tensor_array, promote, wrap
from ._math_common import FLOAT_NAMES, float_unary, require_dtypes

__all__ = [
    "erf",
    "erfc",
    "erfinv",
    "erfinv_",
    "lgamma",
    "digamma",
    "polygamma",
    "igamma",
    "igammac",
    "zeta",
    "sinc",
    "i0",
    "bessel_i0",
    "bessel_i0e",
    "bessel_i1",
    "bessel_i1e",
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "bessel_k0",
    "bessel_k0e",
    "bessel_k1",
    "bessel_k1e",
]

erf = float_unary(lax.erf, "erf")
erfc = float_unary(lax.erfc, "erfc")
erfinv = amp_black(float_unary(lax.erf_inv, "erfinv"))
lgamma = float_unary(lax.lgamma, "lgamma")
digamma = float_unary(lax.digamma, "digamma")
sinc = float_unary(jnp.sinc, "sinc")


def erfinv_(input: Any) -> Tensor:
    """In-place :func:`erfinv`: ``input`` holds the result and is returned."""
    input._data = erfinv(input)._data
    return input


def polygamma(n: Any, input: Any) -> Tensor:
    """The ``n``-th derivative of the digamma function at ``input`` (``n`` an int or an integer Tensor)."""
    a = as_tensor_array(input)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        require_dtypes(a, FLOAT_NAMES, "x", "Polygamma")
    k = as_tensor_array(n)
    if not jnp.issubdtype(k.dtype, jnp.integer):
        raise TypeError(f"For 'polygamma', the 'n' must be an integer, but got {k.dtype}.")
    return wrap(jax.scipy.special.polygamma(k, a).astype(a.dtype))


def _float_pair(x: Any, y: Any, names: tuple[str, str], prim: str) -> tuple[Any, Any]:
    a, b = promote(x, y, prim)
    require_dtypes(a, {"Float32", "Float64"}, names[0], prim)
    return a, b


@amp_black
def igamma(input: Any, other: Any) -> Tensor:
    """The regularized lower incomplete gamma function ``P(input, other)``."""
    a, x = _float_pair(input, other, ("a", "x"), "Igamma")
    return wrap(lax.igamma(a, x))


@amp_black
def igammac(input: Any, other: Any) -> Tensor:
    """The regularized upper incomplete gamma function ``Q(input, other) = 1 - P(input, other)``."""
    a, x = _float_pair(input, other, ("a", "x"), "Igammac")
    return wrap(lax.igammac(a, x))


def zeta(input: Any, other: Any) -> Tensor:
    """The Hurwitz zeta function ``sum_k (other + k) ** -input``."""
    x, q = _float_pair(input, other, ("x", "q"), "Zeta")
    return wrap(jax.scipy.special.zeta(x, q))


# ------------------------------------------------------------------ Bessel
_jsp = jax.scipy.special
bessel_i0 = float_unary(_jsp.i0, "bessel_i0", "BesselI0", floats_only=True, param="x")
bessel_i0e = float_unary(_jsp.i0e, "bessel_i0e", "BesselI0e", floats_only=True, param="x")
bessel_i1 = float_unary(_jsp.i1, "bessel_i1", "BesselI1", floats_only=True, param="x")
bessel_i1e = float_unary(_jsp.i1e, "bessel_i1e", "BesselI1e", floats_only=True, param="x")
_i0_kernel = float_unary(_jsp.i0, "i0", "BesselI0", floats_only=True)


def i0(input: Any) -> Tensor:
    """The modified Bessel function of the first kind of order 0 (``bessel_i0``)."""
    return _i0_kernel(input)


def _host(name: str, negative: float | None, at_zero: float | None = None) -> Any:
    """SciPy's ``name`` on the host, for any shape and float dtype; ``negative`` replaces the result for
    x < 0 and ``at_zero`` for x == 0 (MindSpore's kernels give -inf/inf for x < 0 where SciPy gives NaN,
    and NaN for Y1(0))."""

    def host(x: Any) -> Any:
        import scipy.special

        x = np.asarray(x)
        out = np.asarray(getattr(scipy.special, name)(x.astype(np.float64)))
        if negative is not None:
            out = np.where(x < 0, negative, out)
        if at_zero is not None:
            out = np.where(x == 0, at_zero, out)
        return out.astype(x.dtype)

    def call(x: Any) -> Any:
        return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method="expand_dims")

    return call


_j0, _j1 = _host("j0", None), _host("j1", None)
_y0, _y1 = _host("y0", -np.inf), _host("y1", -np.inf, np.nan)
_k0, _k1 = _host("k0", np.inf), _host("k1", np.inf)
_k0e, _k1e = _host("k0e", np.inf), _host("k1e", np.inf)


def _over_x(v: Any, x: Any, at_zero: float) -> Any:
    """``v / x`` with ``at_zero`` where x == 0 (the limit the recurrences need)."""
    safe = jnp.where(x == 0, jnp.ones_like(x), x)
    return jnp.where(x == 0, jnp.asarray(at_zero, x.dtype), v / safe)


# Each kernel is a jax.custom_jvp whose derivative is written with the kernels themselves.
@jax.custom_jvp
def _bj0(x: Any) -> Any:
    return _j0(x)


@jax.custom_jvp
def _bj1(x: Any) -> Any:
    return _j1(x)


@jax.custom_jvp
def _by0(x: Any) -> Any:
    return _y0(x)


@jax.custom_jvp
def _by1(x: Any) -> Any:
    return _y1(x)


@jax.custom_jvp
def _bk0(x: Any) -> Any:
    return _k0(x)


@jax.custom_jvp
def _bk1(x: Any) -> Any:
    return _k1(x)


@jax.custom_jvp
def _bk0e(x: Any) -> Any:
    return _k0e(x)


@jax.custom_jvp
def _bk1e(x: Any) -> Any:
    return _k1e(x)


def _rule(fn: Any, deriv: Any) -> None:
    @fn.defjvp
    def jvp(primals: Any, tangents: Any) -> Any:
        (x,), (t,) = primals, tangents
        return fn(x), deriv(x) * t


_rule(_bj0, lambda x: -_bj1(x))  # J0' = -J1
_rule(_bj1, lambda x: _bj0(x) - _over_x(_bj1(x), x, 0.5))  # J1' = J0 - J1/x
_rule(_by0, lambda x: -_by1(x))  # Y0' = -Y1
_rule(_by1, lambda x: _by0(x) - _by1(x) / x)  # Y1' = Y0 - Y1/x
_rule(_bk0, lambda x: -_bk1(x))  # K0' = -K1
_rule(_bk1, lambda x: -_bk0(x) - _bk1(x) / x)  # K1' = -K0 - K1/x
_rule(_bk0e, lambda x: _bk0e(x) - _bk1e(x))  # (e^x K0)' = e^x K0 - e^x K1
_rule(_bk1e, lambda x: _bk1e(x) - _bk0e(x) - _bk1e(x) / x)  # (e^x K1)' = e^x (K1 - K0 - K1/x)

bessel_j0 = float_unary(_bj0, "bessel_j0", "BesselJ0", floats_only=True, param="x")
bessel_j1 = float_unary(_bj1, "bessel_j1", "BesselJ1", floats_only=True, param="x")
bessel_y0 = float_unary(_by0, "bessel_y0", "BesselY0", floats_only=True, param="x")
bessel_y1 = float_unary(_by1, "bessel_y1", "BesselY1", floats_only=True, param="x")
bessel_k0 = float_unary(_bk0, "bessel_k0", "BesselK0", floats_only=True, param="x")
bessel_k0e = float_unary(_bk0e, "bessel_k0e", "BesselK0e", floats_only=True, param="x")
bessel_k1 = float_unary(_bk1, "bessel_k1", "BesselK1", floats_only=True, param="x")
bessel_k1e = float_unary(_bk1e, "bessel_k1e", "BesselK1e", floats_only=True, param="x")
