"""Linear-algebra and spectral operator classes (``ops.Cholesky(upper)``, ``ops.Svd()``, ``ops.Qr()``,
``ops.STFT(...)``, ``ops.BartlettWindow()``...): each keeps its construction arguments as attributes and
delegates to the functional op."""

from __future__ import annotations

from typing import Any

from ..._checkparam import check_bool
from ..._engine import jnp
from ...common import dtype as mstype
from .. import function as F
from .._utils import as_tensor_array, wrap
from ._primitive import Primitive
from .math_ops import _NoArgs, _set_attrs

__all__ = [
    "Cholesky",
    "CholeskyInverse",
    "CholeskySolve",
    "Eig",
    "Geqrf",
    "Orgqr",
    "Ormqr",
    "Qr",
    "Svd",
    "LogMatrixDeterminant",
    "LuSolve",
    "LuUnpack",
    "MatrixSolve",
    "MatrixSolveLs",
    "MatrixTriangularSolve",
    "MatrixLogarithm",
    "MatrixSetDiagV3",
    "TridiagonalMatMul",
    "BartlettWindow",
    "BlackmanWindow",
    "STFT",
    "FFTWithSize",
]


class _Upper(Primitive):
    def __init__(self, upper: bool = False) -> None:
        super().__init__()
        _set_attrs(self, upper=check_bool(upper, "upper", self.name))


class Cholesky(_Upper):
    """``Cholesky(upper=False)(input_x)``: the Cholesky factor (lower, or upper with ``upper``)."""

    def __call__(self, input_x: Any) -> Any:
        return F.cholesky(input_x, self.upper)


class CholeskyInverse(_Upper):
    """``CholeskyInverse(upper=False)(x)``: the inverse of ``A`` from its Cholesky factor ``x``."""

    def __call__(self, x: Any) -> Any:
        return F.cholesky_inverse(x, self.upper)


class CholeskySolve(_Upper):
    """``CholeskySolve(upper=False)(x1, x2)``: the solution of ``A X = x1`` from ``A``'s Cholesky factor ``x2``."""

    def __call__(self, x1: Any, x2: Any) -> Any:
        return F.cholesky_solve(x1, x2, self.upper)


class Eig(Primitive):
    """``Eig(compute_v=False)(x)`` -> ``(eigen_values, eigen_vectors)``; the vectors are a complex 0 unless
    ``compute_v``."""

    def __init__(self, compute_v: bool = False) -> None:
        super().__init__()
        _set_attrs(self, compute_v=check_bool(compute_v, "compute_v", self.name))

    def __call__(self, x: Any) -> Any:
        if self.compute_v:
            return F.eig(x)
        values = F.eigvals(x)
        return values, wrap(jnp.zeros((), as_tensor_array(values).dtype))


class Geqrf(_NoArgs):
    """``Geqrf()(x)`` -> ``(y, tau)``: the QR factorization in LAPACK's compact form."""

    def __call__(self, x: Any) -> Any:
        return F.geqrf(x)


class Orgqr(_NoArgs):
    """``Orgqr()(x, tau)``: the explicit ``Q`` of ``geqrf``'s reflectors."""

    def __call__(self, x: Any, tau: Any) -> Any:
        return F.orgqr(x, tau)


class Ormqr(Primitive):
    """``Ormqr(left=True, transpose=False)(x, tau, other)``: ``other`` multiplied by ``geqrf``'s ``Q``."""

    def __init__(self, left: bool = True, transpose: bool = False) -> None:
        super().__init__()
        _set_attrs(
            self, left=check_bool(left, "left", self.name), transpose=check_bool(transpose, "transpose", self.name)
        )

    def __call__(self, x: Any, tau: Any, other: Any) -> Any:
        return F.ormqr(x, tau, other, self.left, self.transpose)


class Qr(Primitive):
    """``Qr(full_matrices=False)(x)`` -> ``(Q, R)``."""

    def __init__(self, full_matrices: bool = False) -> None:
        super().__init__()
        _set_attrs(self, full_matrices=check_bool(full_matrices, "full_matrices", self.name))

    def __call__(self, x: Any) -> Any:
        return F.qr(x, "complete" if self.full_matrices else "reduced")


class Svd(Primitive):
    """``Svd(full_matrices=False, compute_uv=True)(input)`` -> ``(s, u, v)`` (``u``, ``v`` zeros without
    ``compute_uv``)."""

    def __init__(self, full_matrices: bool = False, compute_uv: bool = True) -> None:
        super().__init__()
        _set_attrs(
            self,
            full_matrices=check_bool(full_matrices, "full_matrices", self.name),
            compute_uv=check_bool(compute_uv, "compute_uv", self.name),
        )

    def __call__(self, input: Any) -> Any:
        if self.compute_uv:
            return F.svd(input, self.full_matrices, True)
        s = F.svd(input, self.full_matrices, False)
        zero = wrap(jnp.zeros((), as_tensor_array(s).dtype))
        return s, zero, zero


class LogMatrixDeterminant(_NoArgs):
    """``LogMatrixDeterminant()(x)`` -> ``(sign, log_abs_determinant)``."""

    def __call__(self, x: Any) -> Any:
        return F.slogdet(x)


class LuSolve(_NoArgs):
    """``LuSolve()(x, lu_data, lu_pivots)``: the solution of ``A X = x`` from ``A``'s LU factorization."""

    def __call__(self, x: Any, lu_data: Any, lu_pivots: Any) -> Any:
        return F.lu_solve(x, lu_data, lu_pivots)


class LuUnpack(Primitive):
    """``LuUnpack(unpack_data=True, unpack_pivots=True)(LU_data, LU_pivots)`` -> ``(P, L, U)``."""

    def __init__(self, unpack_data: bool = True, unpack_pivots: bool = True) -> None:
        super().__init__()
        _set_attrs(
            self,
            unpack_data=check_bool(unpack_data, "unpack_data", self.name),
            unpack_pivots=check_bool(unpack_pivots, "unpack_pivots", self.name),
        )

    def __call__(self, LU_data: Any, LU_pivots: Any) -> Any:
        return F.lu_unpack(LU_data, LU_pivots, self.unpack_data, self.unpack_pivots)


class MatrixSolve(Primitive):
    """``MatrixSolve(adjoint=False)(matrix, rhs)``."""

    def __init__(self, adjoint: bool = False) -> None:
        super().__init__()
        _set_attrs(self, adjoint=check_bool(adjoint, "adjoint", self.name))

    def __call__(self, matrix: Any, rhs: Any) -> Any:
        return F.matrix_solve(matrix, rhs, self.adjoint)


class MatrixSolveLs(Primitive):
    """``MatrixSolveLs(fast=True)(matrix, rhs, l2_regularizer)``: the L2-regularised least-squares solution
    ``(A^H A + l2 I)^-1 A^H rhs`` (``A (A^H A ... )`` form when ``A`` is wide)."""

    def __init__(self, fast: bool = True) -> None:
        super().__init__()
        _set_attrs(self, fast=check_bool(fast, "fast", self.name))

    def __call__(self, matrix: Any, rhs: Any, l2_regularizer: Any) -> Any:
        a = as_tensor_array(matrix)
        b = as_tensor_array(rhs).astype(a.dtype)
        lam = jnp.asarray(as_tensor_array(l2_regularizer)).astype(a.dtype)
        ah = jnp.conj(jnp.swapaxes(a, -1, -2))
        m, n = a.shape[-2:]
        if m >= n or not self.fast:
            gram = ah @ a + lam * jnp.eye(n, dtype=a.dtype)
            return wrap(jnp.linalg.solve(gram, ah @ b))
        gram = a @ ah + lam * jnp.eye(m, dtype=a.dtype)
        return wrap(ah @ jnp.linalg.solve(gram, b))


class MatrixTriangularSolve(Primitive):
    """``MatrixTriangularSolve(lower=True, adjoint=False)(matrix, rhs)``: solves with the lower (or upper)
    triangle of ``matrix`` (its adjoint with ``adjoint``)."""

    def __init__(self, lower: bool = True, adjoint: bool = False) -> None:
        super().__init__()
        _set_attrs(self, lower=check_bool(lower, "lower", self.name), adjoint=check_bool(adjoint, "adjoint", self.name))

    def __call__(self, matrix: Any, rhs: Any) -> Any:
        a = as_tensor_array(matrix)
        b = as_tensor_array(rhs).astype(a.dtype)
        tri = jnp.tril(a) if self.lower else jnp.triu(a)
        if self.adjoint:
            tri = jnp.conj(jnp.swapaxes(tri, -1, -2))
        lower = self.lower != self.adjoint
        from ..._engine import lax

        return wrap(lax.linalg.triangular_solve(tri, b, left_side=True, lower=lower))


class MatrixLogarithm(_NoArgs):
    """``MatrixLogarithm()(x)``: the principal matrix logarithm of complex square matrices (through the
    eigendecomposition: ``V log(D) V^-1``, for diagonalizable matrices)."""

    def __call__(self, x: Any) -> Any:
        a = as_tensor_array(x)
        if not jnp.issubdtype(a.dtype, jnp.complexfloating):
            from ..function._math_common import COMPLEX_NAMES, require_dtypes

            require_dtypes(a, COMPLEX_NAMES, "x", "MatrixLogarithm")
        w, v = jnp.linalg.eig(a)
        out = v @ (jnp.log(w)[..., None] * jnp.linalg.inv(v))
        return wrap(out.astype(a.dtype))


class MatrixSetDiagV3(Primitive):
    """``MatrixSetDiagV3(align='RIGHT_LEFT')(x, diagonal, k)``: ``x`` with its ``k``-th diagonal (or the band
    ``k = (low, high)``, rows of ``diagonal`` from ``high`` down) replaced; ``align`` says how shorter
    diagonals sit in their rows (super-diagonals first, then sub-diagonals)."""

    _ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")

    def __init__(self, align: str = "RIGHT_LEFT") -> None:
        super().__init__()
        if align not in self._ALIGNS:
            raise ValueError(
                f"For 'MatrixSetDiagV3', the 'align' must be one of {list(self._ALIGNS)}, but got {align}."
            )
        _set_attrs(self, align=align)

    def __call__(self, x: Any, diagonal: Any, k: Any) -> Any:
        import numpy as np

        a, d = as_tensor_array(x), as_tensor_array(diagonal).astype(as_tensor_array(x).dtype)
        ks = np.asarray(as_tensor_array(k)).reshape(-1).tolist()
        lo, hi = (ks[0], ks[0]) if len(ks) == 1 else (ks[0], ks[1])
        if len(ks) == 1 or lo == hi:
            d = d[..., None, :]
        m, n = a.shape[-2:]
        width = d.shape[-1]
        out = a
        for row, kk in enumerate(range(hi, lo - 1, -1)):
            length = min(m + min(kk, 0), n - max(kk, 0))
            right = self.align.startswith("RIGHT") if kk >= 0 else self.align.endswith("RIGHT")
            start = width - length if right else 0
            vals = d[..., row, start : start + length]
            i = np.arange(length) - min(kk, 0)
            out = out.at[..., i, i + kk].set(vals)
        return wrap(out)


class TridiagonalMatMul(_NoArgs):
    """``TridiagonalMatMul()(superdiag, maindiag, subdiag, rhs)``: the tridiagonal matrix (diagonals of shape
    ``(..., 1, M)``) times ``rhs`` ``(..., M, N)``."""

    def __call__(self, superdiag: Any, maindiag: Any, subdiag: Any, rhs: Any) -> Any:
        sup, main, sub = (jnp.swapaxes(as_tensor_array(t), -1, -2) for t in (superdiag, maindiag, subdiag))
        r = as_tensor_array(rhs)
        zero = jnp.zeros_like(r[..., :1, :])
        up = jnp.concatenate([r[..., 1:, :], zero], axis=-2)
        down = jnp.concatenate([zero, r[..., :-1, :]], axis=-2)
        return wrap(main * r + sup * up + sub * down)


class _Window(Primitive):
    _fn: Any = None

    def __init__(self, periodic: bool = True, dtype: Any = mstype.float32) -> None:
        super().__init__()
        if dtype not in (mstype.float16, mstype.float32, mstype.float64):
            raise TypeError(f"For '{self.name}', the 'dtype' must be float16, float32 or float64, but got {dtype}.")
        _set_attrs(self, periodic=check_bool(periodic, "periodic", self.name), dtype=dtype)

    def __call__(self, window_length: Any) -> Any:
        return type(self)._fn(window_length, self.periodic, dtype=self.dtype)


class BartlettWindow(_Window):
    """``BartlettWindow(periodic=True, dtype=mstype.float32)(window_length)``."""

    _fn = staticmethod(F.bartlett_window)


class BlackmanWindow(_Window):
    """``BlackmanWindow(periodic=True, dtype=mstype.float32)(window_length)``."""

    _fn = staticmethod(F.blackman_window)


class STFT(Primitive):
    """``STFT(n_fft, hop_length, win_length, normalized, onesided, return_complex)(x, window)``: the
    short-time Fourier transform without centering (``ops.stft`` with ``center=False``)."""

    def __init__(
        self, n_fft: int, hop_length: int, win_length: int, normalized: bool, onesided: bool, return_complex: bool
    ) -> None:
        super().__init__()
        _set_attrs(
            self,
            n_fft=n_fft,
            hop_length=hop_length,
            win_length=win_length,
            normalized=normalized,
            onesided=onesided,
            return_complex=return_complex,
        )

    def __call__(self, x: Any, window: Any) -> Any:
        return F.stft(
            x,
            self.n_fft,
            self.hop_length,
            self.win_length,
            window,
            False,
            "CONSTANT",
            self.normalized,
            self.onesided,
            self.return_complex,
        )


class FFTWithSize(Primitive):
    """``FFTWithSize(signal_ndim, inverse, real, norm='backward', onesided=True, signal_sizes=())(x)``: the
    (inverse) FFT over the last ``signal_ndim`` axes; ``real`` makes it real-to-complex (onesided) or, inverse,
    complex-to-real with the output sizes ``signal_sizes``."""

    def __init__(
        self,
        signal_ndim: int,
        inverse: bool,
        real: bool,
        norm: str = "backward",
        onesided: bool = True,
        signal_sizes: Any = (),
    ) -> None:
        super().__init__()
        if signal_ndim not in (1, 2, 3):
            raise ValueError(f"For 'FFTWithSize', the 'signal_ndim' must be 1, 2 or 3, but got {signal_ndim}.")
        if norm not in ("backward", "forward", "ortho"):
            raise ValueError(f"For 'FFTWithSize', the 'norm' must be backward, forward or ortho, but got {norm}.")
        _set_attrs(
            self,
            signal_ndim=signal_ndim,
            inverse=inverse,
            real=real,
            norm=norm,
            onesided=onesided,
            signal_sizes=tuple(signal_sizes),
        )

    def __call__(self, x: Any) -> Any:
        a = as_tensor_array(x)
        axes = tuple(range(-self.signal_ndim, 0))
        fft = jnp.fft
        if not self.real:
            a = a if jnp.issubdtype(a.dtype, jnp.complexfloating) else a.astype(jnp.complex64)
            fn = fft.ifftn if self.inverse else fft.fftn
            return wrap(fn(a, axes=axes, norm=self.norm))
        if not self.inverse:
            if self.onesided:
                out = fft.rfftn(a, axes=axes, norm=self.norm)
            else:
                out = fft.fftn(a, axes=axes, norm=self.norm)
            return wrap(out.astype(jnp.complex128 if a.dtype == jnp.float64 else jnp.complex64))
        sizes = self.signal_sizes or None
        if self.onesided:
            out = fft.irfftn(a, s=sizes, axes=axes, norm=self.norm)
        else:
            out = jnp.real(fft.ifftn(a, s=sizes, axes=axes, norm=self.norm))
        return wrap(out.astype(jnp.float64 if a.dtype == jnp.complex128 else jnp.float32))
