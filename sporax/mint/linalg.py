"""``mindspore.mint.linalg``."""

from __future__ import annotations

from .. import ops
from ..ops import norm  # noqa: F401


def inv(input):  # noqa: A002
    """Matrix inverse."""
    return ops.inverse(input)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002, N803
    """Matrix norm over the two ``dim`` axes."""
    return ops.matrix_norm(A, ord, dim, keepdim, dtype=dtype)


def qr(A, mode="reduced"):  # noqa: N803
    """QR decomposition."""
    return ops.qr(A, mode)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """Vector p-norm over ``dim`` (all elements by default)."""
    return ops.vector_norm(x, ord, dim, keepdim, dtype=dtype)
