"""``mindspore.mint.special``."""

from __future__ import annotations

from .. import ops
from ..ops import erfc, exp2, expm1, log1p, sinc  # noqa: F401


def log_softmax(input, dim=None, *, dtype=None):  # noqa: A002
    """Log-softmax along ``dim`` (the last dim by default)."""
    x = input if dtype is None else input.astype(dtype)
    return ops.log_softmax(x, -1 if dim is None else dim)


def round(input):  # noqa: A001, A002
    """Round half to even."""
    return ops.round(input)
