"""Linear algebra (``mindspore.ops`` functional, MindSpore's ``ops.function.linalg_func``): matrix products,
einsum, determinants and inverses, distances."""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._checkparam import ValueRuntimeError
from ..._engine import jax, jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black, amp_promote, amp_white
from .._utils import arr, as_tensor_array, compiled_op, float_result, promote, wrap
from .math_func import add, mul, norm

__all__ = [
    "matmul",
    "mm",
    "bmm",
    "batch_matmul",
    "mv",
    "baddbmm",
    "addmm",
    "dot",
    "inner",
    "outer",
    "tensor_dot",
    "tensordot",
    "einsum",
    "cross",
    "det",
    "inverse",
    "matrix_inverse",
    "matrix_power",
    "kron",
    "addmv",
    "addr",
    "cdist",
    "dist",
    "trapz",
    "addbmm",
    "baddbmm_ext",
    "einsum_ext",
    "batch_dot",
    "adjoint",
    "block_diag",
    "cartesian_prod",
    "combinations",
    "cosine_similarity",
    "vander",
    "diag_embed",
    "tril_indices",
    "triu_indices",
    "cholesky",
    "cholesky_inverse",
    "cholesky_solve",
    "cond",
    "eig",
    "eigvals",
    "geqrf",
    "orgqr",
    "ormqr",
    "qr",
    "svd",
    "pinv",
    "slogdet",
    "log_matrix_determinant",
    "logdet",
    "matrix_determinant",
    "matrix_exp",
    "matrix_solve",
    "lu_solve",
    "lu_unpack",
]


# -------------------------------------------------------------- linear algebra
@amp_white
def matmul(input: Any, other: Any) -> Tensor:
    """Matrix product with broadcasting (NumPy's matmul); dtypes must agree."""
    a, b = as_tensor_array(input), as_tensor_array(other)
    if a.dtype != b.dtype:
        raise TypeError(
            f"For 'MatMul', the dtypes of the inputs must be the same, but got {mstype.from_np(a.dtype)} and {mstype.from_np(b.dtype)}."
        )
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("For 'MatMul', the inputs cannot be scalars.")
    ka = a.shape[-1]
    kb = b.shape[-2] if b.ndim >= 2 else b.shape[0]
    if ka != kb:
        raise ValueRuntimeError(  # MindSpore raises RuntimeError here; a ValueError too
            f"For 'MatMul', the input dimensions must be equal, but got 'x1_col': {ka} and 'x2_row': {kb}. "
            f"And 'x' shape {tuple(a.shape)}(transpose_a=False), 'y' shape {tuple(b.shape)}(transpose_b=False)."
        )
    return wrap(jnp.matmul(a, b))


def mm(input: Any, mat2: Any) -> Tensor:
    return matmul(input, mat2)


def bmm(input_x: Any, mat2: Any) -> Tensor:
    return matmul(input_x, mat2)


batch_matmul = bmm


def mv(mat: Any, vec: Any) -> Tensor:
    return matmul(mat, vec)


def baddbmm(input: Any, batch1: Any, batch2: Any, beta: Any = 1, alpha: Any = 1) -> Tensor:
    return add(mul(input, beta), mul(bmm(batch1, batch2), alpha))


def addmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    return add(mul(input, beta), mul(matmul(mat1, mat2), alpha))


@amp_white
def dot(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.dot(a, b))


@amp_white
def inner(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.inner(a, b))


def outer(input: Any, vec2: Any) -> Tensor:
    a, b = promote(input, vec2)
    return wrap(jnp.outer(a, b))


@amp_white
def tensor_dot(x1: Any, x2: Any, axes: Any) -> Tensor:
    a, b = promote(x1, x2)
    return wrap(jnp.tensordot(a, b, axes=axes))


tensordot = tensor_dot


# --------------------------------------------------------- more linear algebra
@amp_white
def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation (``ops.einsum('ij,jk->ik', a, b)``)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    arrays = [as_tensor_array(t) for t in operands]
    try:
        return wrap(jnp.einsum(equation, *arrays))
    except ValueError as err:
        raise ValueError(f"For 'einsum', {err}") from None


@amp_promote
def cross(input: Any, other: Any, dim: Any = None) -> Tensor:
    a, b = promote(input, other)
    if dim is None:
        dim = next((i for i, s in enumerate(a.shape) if s == 3), -1)
    return wrap(jnp.cross(a, b, axis=dim))


def det(input: Any) -> Tensor:
    return wrap(jnp.linalg.det(float_result(as_tensor_array(input))))


def inverse(input: Any) -> Tensor:
    return wrap(jnp.linalg.inv(float_result(as_tensor_array(input))))


matrix_inverse = inverse


def matrix_power(input: Any, n: int) -> Tensor:
    return wrap(jnp.linalg.matrix_power(as_tensor_array(input), int(n)))


def kron(input: Any, other: Any) -> Tensor:
    a, b = promote(input, other)
    return wrap(jnp.kron(a, b))


def addmv(input: Any, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    return add(mul(input, beta), mul(matmul(mat, vec), alpha))


def addr(x: Any, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    return add(mul(x, beta), mul(outer(vec1, vec2), alpha))


@amp_black
@compiled_op
def cdist(x1: Any, x2: Any, p: float = 2.0) -> Tensor:
    """Pairwise ``p``-norm distances between the rows of ``x1`` and ``x2`` (batched)."""
    a, b = promote(x1, x2)
    a, b = float_result(a), float_result(b)
    d = jnp.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == float("inf"):
        return wrap(jnp.max(d, axis=-1))
    if p == 0:
        return wrap(jnp.sum(d != 0, axis=-1).astype(a.dtype))
    return wrap(jnp.sum(d**p, axis=-1) ** (1.0 / p))


def dist(input: Any, other: Any, p: float = 2) -> Tensor:
    a, b = promote(input, other)
    return norm(wrap(float_result(a) - float_result(b)), p if p != 2 else None)


def trapz(y: Any, x: Any = None, *, dx: float = 1.0, dim: int = -1) -> Tensor:
    yy = float_result(as_tensor_array(y))
    return wrap(jnp.trapezoid(yy, None if x is None else as_tensor_array(x), dx=dx, axis=dim))


# ------------------------------------------------------------ more products
@compiled_op
def addbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    b1, b2 = as_tensor_array(batch1), as_tensor_array(batch2)
    if b1.ndim != 3 or b2.ndim != 3:
        raise ValueError(f"For 'addbmm', 'batch1' and 'batch2' must be 3-D, but got {b1.ndim}-D and {b2.ndim}-D.")
    return add(mul(input, beta), mul(wrap(jnp.sum(jnp.matmul(b1, b2), axis=0)), alpha))


def baddbmm_ext(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)``."""
    return baddbmm(input, batch1, batch2, beta, alpha)


einsum_ext = einsum


def batch_dot(x1: Any, x2: Any, axes: Any = None) -> Tensor:
    """Batched dot product: for each index of the first axis, the tensordot of ``x1[i]`` and ``x2[i]`` over
    ``axes`` (default: the last axis of ``x1`` with the last of a 2-D ``x2``, else its second last).
    A result that would be 1-D gets a trailing axis of size 1."""
    a, b = promote(x1, x2)
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"For 'batch_dot', the inputs must be at least 2-D, but got {a.ndim}-D and {b.ndim}-D.")
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"For 'batch_dot', the batch dims of the inputs must be equal, but got {a.shape[0]} and {b.shape[0]}."
        )
    if axes is None:
        axes = (a.ndim - 1, b.ndim - 1 if b.ndim == 2 else b.ndim - 2)
    elif isinstance(axes, int):
        axes = (axes, axes)
    ax1, ax2 = (int(v) % n for v, n in zip(axes, (a.ndim, b.ndim), strict=True))
    if 0 in (ax1, ax2):
        raise ValueError(f"For 'batch_dot', the 'axes' cannot contain the batch axis 0, but got {tuple(axes)}.")
    if a.shape[ax1] != b.shape[ax2]:
        raise ValueError(
            f"For 'batch_dot', the sizes of the contracted axes must be equal, but got {a.shape[ax1]} and {b.shape[ax2]}."
        )
    out = jax.vmap(lambda p, q: jnp.tensordot(p, q, axes=([ax1 - 1], [ax2 - 1])))(a, b)
    return wrap(out[:, None] if out.ndim == 1 else out)


def adjoint(x: Any) -> Tensor:
    """The conjugate transpose of the last two axes."""
    return wrap(jnp.conj(jnp.swapaxes(as_tensor_array(x), -1, -2)))


def block_diag(*inputs: Any) -> Tensor:
    """The block-diagonal matrix of the inputs (0-D and 1-D inputs count as one row)."""
    arrays = [jnp.atleast_2d(as_tensor_array(t)) for t in inputs]
    if any(a.ndim != 2 for a in arrays):
        raise ValueError("For 'block_diag', each input must be at most 2-D.")
    dt = functools.reduce(jnp.promote_types, [a.dtype for a in arrays])
    return wrap(jax.scipy.linalg.block_diag(*[a.astype(dt) for a in arrays]))


def cartesian_prod(*inputs: Any) -> Tensor:
    """The Cartesian product of 1-D tensors: one row per combination."""
    arrays = [as_tensor_array(t) for t in inputs]
    if any(a.ndim != 1 for a in arrays):
        raise ValueError("For 'cartesian_prod', each input must be a 1-D Tensor.")
    if len(arrays) == 1:
        return wrap(arrays[0])
    grids = jnp.meshgrid(*arrays, indexing="ij")
    return wrap(jnp.stack([g.reshape(-1) for g in grids], axis=1))


def combinations(input: Any, r: int = 2, with_replacement: bool = False) -> Tensor:
    """All length-``r`` combinations of the elements of a 1-D tensor, one per row."""
    a = as_tensor_array(input)
    if a.ndim != 1:
        raise ValueError(f"For 'combinations', the 'input' must be a 1-D Tensor, but got {a.ndim}-D.")
    validator.check_int_at_least(r, 0, "r", "combinations")
    make = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    idx = np.array(list(make(range(a.shape[0]), r)), np.int64).reshape(-1, r)
    return wrap(a[idx] if idx.size else jnp.zeros((0, r) if r else (0,), a.dtype))


@compiled_op
def cosine_similarity(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-08) -> Tensor:
    """``x1 . x2 / max(|x1| |x2|, eps)`` along ``dim`` (broadcasting)."""
    a, b = promote(x1, x2, "cosine_similarity")
    a, b = float_result(a), float_result(b)
    num = jnp.sum(a * b, axis=dim)
    den = jnp.sqrt(jnp.sum(a * a, axis=dim) * jnp.sum(b * b, axis=dim))
    return wrap(num / jnp.maximum(den, eps))


def vander(x: Any, N: Any = None) -> Tensor:
    """The Vandermonde matrix of a 1-D tensor: columns ``x ** (N-1), ..., x ** 0``."""
    a = as_tensor_array(x)
    if a.ndim != 1:
        raise ValueError(f"For 'vander', the 'x' must be a 1-D Tensor, but got {a.ndim}-D.")
    if N is not None:
        validator.check_int_at_least(N, 1, "N", "vander")
    return wrap(jnp.vander(a, N))


@compiled_op
def diag_embed(input: Any, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """Tensors whose ``(dim1, dim2)`` planes have the last axis of ``input`` on their ``offset`` diagonal."""
    a = as_tensor_array(input)
    n = a.shape[-1] + abs(offset)
    out_ndim = a.ndim + 1
    d1, d2 = dim1 % out_ndim, dim2 % out_ndim
    if d1 == d2:
        raise ValueError(f"For 'diag_embed', 'dim1' and 'dim2' must be different, but got {dim1} and {dim2}.")
    rows = jnp.arange(a.shape[-1]) + max(-offset, 0)
    cols = jnp.arange(a.shape[-1]) + max(offset, 0)
    mats = jnp.zeros((*a.shape[:-1], n, n), a.dtype).at[..., rows, cols].set(a)
    return wrap(jnp.moveaxis(mats, (-2, -1), (d1, d2)))


def _tri_indices(row: int, col: int, offset: int, dtype: Any, upper: bool) -> Tensor:
    r, c = (np.triu_indices if upper else np.tril_indices)(row, offset, col)
    return wrap(jnp.asarray(np.stack([r, c]).astype(mstype.to_np(dtype))))


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = mstype.int64) -> Tensor:
    """The ``(2, N)`` row and column indices of the lower triangle of a ``row x col`` matrix."""
    return _tri_indices(row, col, offset, dtype, False)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = mstype.int64) -> Tensor:
    """The ``(2, N)`` row and column indices of the upper triangle of a ``row x col`` matrix."""
    return _tri_indices(row, col, offset, dtype, True)


# ------------------------------------------------------------ decompositions
def _square(a: Any, op: str, name: str = "input") -> Any:
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(
            f"For '{op}', the '{name}' must be a batch of square matrices, but got shape {tuple(a.shape)}."
        )
    return a


def _mat(x: Any, op: str, name: str = "input") -> Any:
    return _square(float_result(as_tensor_array(x)), op, name)


def cholesky(input_x: Any, upper: bool = False) -> Tensor:
    """The Cholesky factor of a symmetric positive-definite matrix: lower ``L`` (``A = L L^H``), or upper ``U``."""
    a = _mat(input_x, "cholesky", "input_x")
    lower = jnp.linalg.cholesky(a)
    return wrap(adjoint(wrap(lower))._data if upper else lower)


@compiled_op
def cholesky_inverse(input_x: Any, upper: bool = False) -> Tensor:
    """The inverse of ``A`` from its Cholesky factor ``input_x``."""
    f = _mat(input_x, "cholesky_inverse", "input_x")
    low = jnp.conj(jnp.swapaxes(f, -1, -2)) if upper else f
    eye = jnp.broadcast_to(jnp.eye(f.shape[-1], dtype=f.dtype), f.shape)
    return wrap(jax.scipy.linalg.cho_solve((low, True), eye))


@compiled_op
def cholesky_solve(input: Any, input2: Any, upper: bool = False) -> Tensor:
    """The solution ``X`` of ``A X = input`` given the Cholesky factor ``input2`` of ``A``."""
    b = float_result(as_tensor_array(input))
    f = _mat(input2, "cholesky_solve", "input2")
    return wrap(jax.scipy.linalg.cho_solve((f, not upper), b))


def cond(A: Any, p: Any = None) -> Tensor:
    """The condition number of ``A`` in the ``p`` norm (2-norm when None)."""
    return wrap(jnp.linalg.cond(float_result(as_tensor_array(A)), p))


def eig(A: Any) -> tuple[Tensor, Tensor]:
    """Eigenvalues and right eigenvectors of a square matrix (complex)."""
    w, v = jnp.linalg.eig(_mat(A, "eig", "A"))
    return wrap(w), wrap(v)


def eigvals(A: Any) -> Tensor:
    """Eigenvalues of a square matrix (complex)."""
    return wrap(jnp.linalg.eigvals(_mat(A, "eigvals", "A")))


def geqrf(input: Any) -> tuple[Tensor, Tensor]:
    """The QR factorization in LAPACK's compact form: ``R`` above the diagonal and the Householder
    reflectors below it, and their scalar factors ``tau``."""
    a = float_result(as_tensor_array(input))
    from jax._src.lax.linalg import geqrf as _geqrf  # jax keeps LAPACK's geqrf out of its public lax.linalg

    y, tau = _geqrf(a)
    return wrap(y), wrap(tau)


def orgqr(input: Any, input2: Any) -> Tensor:
    """The first ``n`` columns of ``Q`` from ``geqrf``'s reflectors ``input`` and factors ``input2``."""
    return wrap(lax.linalg.householder_product(float_result(as_tensor_array(input)), as_tensor_array(input2)))


@compiled_op
def ormqr(input: Any, tau: Any, other: Any, left: bool = True, transpose: bool = False) -> Tensor:
    """``Q @ other`` (``other @ Q`` when not ``left``; ``Q^H`` when ``transpose``) with ``Q`` from ``geqrf``."""
    a, t, c = as_tensor_array(input), as_tensor_array(tau), as_tensor_array(other)
    m = a.shape[-2]
    full = jnp.zeros((*a.shape[:-1], m), a.dtype).at[..., : a.shape[-1]].set(a[..., :m])
    taus = jnp.zeros((*t.shape[:-1], m), t.dtype).at[..., : t.shape[-1]].set(t)
    q = lax.linalg.householder_product(full, taus)
    if transpose:
        q = jnp.conj(jnp.swapaxes(q, -1, -2))
    return wrap(q @ c if left else c @ q)


def qr(input: Any, mode: str = "reduced") -> tuple[Tensor, Tensor]:
    """``(Q, R)`` with ``input = Q R``; ``mode`` ``'reduced'`` or ``'complete'``."""
    validator.check_choice(mode, ("reduced", "complete"), "mode", "qr")
    q, r = jnp.linalg.qr(float_result(as_tensor_array(input)), mode=mode)
    return wrap(q), wrap(r)


def svd(input: Any, full_matrices: bool = False, compute_uv: bool = True) -> Any:
    """The singular values ``s`` (descending) and, with ``compute_uv``, ``u`` and ``v`` such that
    ``input = u diag(s) v^H``: ``(s, u, v)``."""
    a = float_result(as_tensor_array(input))
    if not compute_uv:
        return wrap(jnp.linalg.svd(a, full_matrices=full_matrices, compute_uv=False))
    u, s, vh = jnp.linalg.svd(a, full_matrices=full_matrices)
    return wrap(s), wrap(u), wrap(jnp.conj(jnp.swapaxes(vh, -1, -2)))


@compiled_op
def pinv(x: Any, *, atol: Any = None, rtol: Any = None, hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse: singular values at most ``max(atol, rtol * s_max)`` are dropped
    (``rtol`` defaults to ``eps * max(m, n)`` when neither is given)."""
    a = float_result(as_tensor_array(x))
    u, s, vh = jnp.linalg.svd(a, full_matrices=False, hermitian=hermitian)
    smax = jnp.max(s, axis=-1, keepdims=True)
    if rtol is None:
        rtol = 0.0 if atol is not None else jnp.finfo(a.dtype).eps * max(a.shape[-2:])
    cutoff = jnp.maximum(0.0 if atol is None else arr(atol), arr(rtol) * smax)
    sinv = jnp.where(s > cutoff, 1 / jnp.where(s > cutoff, s, 1), 0).astype(s.dtype)
    return wrap(jnp.conj(jnp.swapaxes(vh, -1, -2)) @ (sinv[..., None] * jnp.conj(jnp.swapaxes(u, -1, -2))))


def slogdet(input: Any) -> tuple[Tensor, Tensor]:
    """``(sign, log|det|)`` of square matrices."""
    sign, logabs = jnp.linalg.slogdet(_mat(input, "slogdet"))
    return wrap(sign), wrap(logabs)


log_matrix_determinant = slogdet


@compiled_op
def logdet(input: Any) -> Tensor:
    """``log(det(input))`` (NaN for a negative determinant)."""
    sign, logabs = jnp.linalg.slogdet(_mat(input, "logdet"))
    return wrap(jnp.where(sign < 0, jnp.nan, logabs + jnp.log(jnp.abs(sign)).astype(logabs.dtype)))


def matrix_determinant(input: Any) -> Tensor:
    """The determinant of square matrices (``det``)."""
    return det(input)


@compiled_op
def matrix_exp(input: Any) -> Tensor:
    """The matrix exponential ``sum_k A^k / k!``."""
    a = _mat(input, "matrix_exp")
    return wrap(jax.vmap(jax.scipy.linalg.expm)(a.reshape(-1, *a.shape[-2:])).reshape(a.shape))


def matrix_solve(matrix: Any, rhs: Any, adjoint: bool = False) -> Tensor:
    """The solution ``X`` of ``matrix X = rhs`` (``matrix^H X = rhs`` with ``adjoint``)."""
    m = _mat(matrix, "matrix_solve", "matrix")
    if adjoint:
        m = jnp.conj(jnp.swapaxes(m, -1, -2))
    return wrap(jnp.linalg.solve(m, as_tensor_array(rhs).astype(m.dtype)))


def _pivots(piv: Any) -> Any:
    """LAPACK's 1-based pivots as 0-based int32."""
    return (piv - 1).astype(jnp.int32)


@compiled_op
def lu_solve(b: Any, LU_data: Any, LU_pivots: Any) -> Tensor:
    """The solution ``X`` of ``A X = b`` from ``A``'s LU factorization (``LU_data``, 1-based ``LU_pivots``)."""
    lu = _mat(LU_data, "lu_solve", "LU_data")
    piv = _pivots(as_tensor_array(LU_pivots))
    n = lu.shape[-1]
    perm = lax.linalg.lu_pivots_to_permutation(piv, n)
    bb = as_tensor_array(b).astype(lu.dtype)
    bp = jnp.take_along_axis(bb, jnp.broadcast_to(perm[..., :, None], (*perm.shape, bb.shape[-1])), axis=-2)
    y = lax.linalg.triangular_solve(lu, bp, left_side=True, lower=True, unit_diagonal=True)
    return wrap(lax.linalg.triangular_solve(lu, y, left_side=True, lower=False))


@compiled_op
def lu_unpack(LU_data: Any, LU_pivots: Any, unpack_data: bool = True, unpack_pivots: bool = True) -> Any:
    """``(P, L, U)`` with ``A = P L U`` from an LU factorization (``LU_data``, 1-based ``LU_pivots``)."""
    lu = as_tensor_array(LU_data)
    m, n = lu.shape[-2:]
    k = min(m, n)
    piv = _pivots(as_tensor_array(LU_pivots))
    perm = lax.linalg.lu_pivots_to_permutation(piv, m)
    p = jnp.swapaxes(jax.nn.one_hot(perm, m, dtype=lu.dtype), -1, -2)
    low = jnp.tril(lu[..., :, :k], -1) + jnp.eye(m, k, dtype=lu.dtype)
    up = jnp.triu(lu[..., :k, :])
    return wrap(p), wrap(low), wrap(up)
