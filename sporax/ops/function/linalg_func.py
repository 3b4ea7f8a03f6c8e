"""Linear algebra (``mindspore.ops`` functional, MindSpore's ``ops.function.linalg_func``): matrix products,
einsum, determinants and inverses, distances."""

from __future__ import annotations

from typing import Any

from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black, amp_promote, amp_white
from .._utils import as_tensor_array, float_result, promote, wrap
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
        raise ValueError(
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
