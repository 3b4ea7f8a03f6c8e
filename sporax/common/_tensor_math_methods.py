"""The Tensor methods of the math family (element-wise, complex, special functions, statistics, linear
algebra) that delegate to ``sporax.ops``. :class:`TensorMethods` inherits them; each is a thin call of the
functional op that holds the one implementation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._op_registry import ops as _ops

if TYPE_CHECKING:
    from .tensor import Tensor

__all__ = ["TensorMathMethods"]


class TensorMathMethods:
    """Mixin of :class:`Tensor` (through ``TensorMethods``)."""

    __slots__ = ()

    # ------------------------------------------------------------ element-wise
    def arccos(self) -> Tensor:
        return _ops().arccos(self)

    def arccosh(self) -> Tensor:
        return _ops().arccosh(self)

    def arcsin(self) -> Tensor:
        return _ops().arcsin(self)

    def arcsinh(self) -> Tensor:
        return _ops().arcsinh(self)

    def arctan(self) -> Tensor:
        return _ops().arctan(self)

    def arctan2(self, other: Any) -> Tensor:
        return _ops().arctan2(self, other)

    def arctanh(self) -> Tensor:
        return _ops().arctanh(self)

    def subtract(self, other: Any, *, alpha: Any = 1) -> Tensor:
        return _ops().subtract(self, other, alpha=alpha)

    def multiply(self, value: Any) -> Tensor:
        return _ops().multiply(self, value)

    def positive(self) -> Tensor:
        return _ops().positive(self)

    def inv(self) -> Tensor:
        return _ops().inv(self)

    def invert(self) -> Tensor:
        return _ops().invert(self)

    def sgn(self) -> Tensor:
        return _ops().sgn(self)

    def copysign(self, other: Any) -> Tensor:
        return _ops().copysign(self, other)

    def fmax(self, other: Any) -> Tensor:
        return _ops().fmax(self, other)

    def fmin(self, other: Any) -> Tensor:
        return _ops().fmin(self, other)

    def heaviside(self, values: Any) -> Tensor:
        return _ops().heaviside(self, values)

    def ldexp(self, other: Any) -> Tensor:
        return _ops().ldexp(self, other)

    def logaddexp2(self, other: Any) -> Tensor:
        return _ops().logaddexp2(self, other)

    def nextafter(self, other: Any) -> Tensor:
        return _ops().nextafter(self, other)

    def xdivy(self, y: Any) -> Tensor:
        return _ops().xdivy(self, y)

    def bitwise_left_shift(self, other: Any) -> Tensor:
        return _ops().bitwise_left_shift(self, other)

    def bitwise_right_shift(self, other: Any) -> Tensor:
        return _ops().bitwise_right_shift(self, other)

    def approximate_equal(self, other: Any, tolerance: float = 1e-05) -> Tensor:
        return _ops().approximate_equal(self, other, tolerance)

    def isneginf(self) -> Tensor:
        return _ops().isneginf(self)

    def isposinf(self) -> Tensor:
        return _ops().isposinf(self)

    def isreal(self) -> Tensor:
        return _ops().isreal(self)

    def tanh_(self) -> Tensor:
        return _ops().tanh_(self)

    def erfinv_(self) -> Tensor:
        return _ops().erfinv_(self)

    def bernoulli_(self, p: Any = 0.5, *, generator: Any = None) -> Tensor:
        return _ops().bernoulli_(self, p, generator=generator)

    # ----------------------------------------------------------------- complex
    def angle(self) -> Tensor:
        return _ops().angle(self)

    def conj(self) -> Tensor:
        return _ops().conj(self)

    def real(self) -> Tensor:
        return _ops().real(self)

    def imag(self) -> Tensor:
        return _ops().imag(self)

    # ------------------------------------------------------- special functions
    def i0(self) -> Tensor:
        return _ops().i0(self)

    def igamma(self, other: Any) -> Tensor:
        return _ops().igamma(self, other)

    def igammac(self, other: Any) -> Tensor:
        return _ops().igammac(self, other)

    # -------------------------------------------------------------- statistics
    def histc(self, bins: int = 100, min: float = 0.0, max: float = 0.0) -> Tensor:
        return _ops().histc(self, bins, min, max)

    def cov(self, *, correction: int = 1, fweights: Any = None, aweights: Any = None) -> Tensor:
        return _ops().cov(self, correction=correction, fweights=fweights, aweights=aweights)

    def nanmean(self, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
        return _ops().nanmean(self, axis, keepdims, dtype=dtype)

    def nanmedian(self, axis: int = -1, keepdims: bool = False) -> Any:
        return _ops().nanmedian(self, axis, keepdims)

    def quantile(self, q: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _ops().quantile(self, q, axis, keepdims)

    def nanquantile(self, q: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _ops().nanquantile(self, q, axis, keepdims)

    def renorm(self, p: Any, axis: int, maxnorm: float) -> Tensor:
        return _ops().renorm(self, p, axis, maxnorm)

    # ---------------------------------------------------------- linear algebra
    def addbmm(self, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return _ops().addbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def addr(self, vec1: Any, vec2: Any, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return _ops().addr(self, vec1, vec2, beta=beta, alpha=alpha)

    def adjoint(self) -> Tensor:
        return _ops().adjoint(self)

    def cholesky(self, upper: bool = False) -> Tensor:
        return _ops().cholesky(self, upper)

    def cholesky_inverse(self, upper: bool = False) -> Tensor:
        return _ops().cholesky_inverse(self, upper)

    def cholesky_solve(self, input2: Any, upper: bool = False) -> Tensor:
        return _ops().cholesky_solve(self, input2, upper)

    def eigvals(self) -> Tensor:
        return _ops().eigvals(self)

    def geqrf(self) -> Any:
        return _ops().geqrf(self)

    def orgqr(self, input2: Any) -> Tensor:
        return _ops().orgqr(self, input2)

    def ormqr(self, input2: Any, input3: Any, left: bool = True, transpose: bool = False) -> Tensor:
        return _ops().ormqr(self, input2, input3, left, transpose)

    def qr(self, some: bool = True) -> Any:
        return _ops().qr(self, "reduced" if some else "complete")

    def svd(self, full_matrices: bool = False, compute_uv: bool = True) -> Any:
        return _ops().svd(self, full_matrices, compute_uv)

    def slogdet(self) -> Any:
        return _ops().slogdet(self)

    def log_matrix_determinant(self) -> Any:
        return _ops().log_matrix_determinant(self)

    def logdet(self) -> Tensor:
        return _ops().logdet(self)

    def matrix_determinant(self) -> Tensor:
        return _ops().matrix_determinant(self)

    def lu_solve(self, LU_data: Any, LU_pivots: Any) -> Tensor:
        return _ops().lu_solve(self, LU_data, LU_pivots)

    def inplace_update(self, v: Any, indices: Any) -> Tensor:
        return _ops().inplace_update(self, v, indices)

    def rot90(self, k: int, dims: Any) -> Tensor:
        return _ops().rot90(self, k, dims)
