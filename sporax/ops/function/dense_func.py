"""``ops.bidense``: the bilinear form ``x1^T A x2 + b``."""

from __future__ import annotations

from typing import Any

from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import as_tensor_array, wrap

__all__ = ["bidense"]


def bidense(input1: Any, input2: Any, weight: Any, bias: Any = None) -> Tensor:
    r"""``y[..., o] = sum_ij input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o]``.

    Args:
        input1 (Tensor): ``(*, in1_channels)``.
        input2 (Tensor): ``(*, in2_channels)`` with the same leading shape.
        weight (Tensor): ``(out_channels, in1_channels, in2_channels)``.
        bias (Tensor, optional): ``(out_channels,)``. Default None.

    Returns:
        Tensor ``(*, out_channels)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x1 = ms.Tensor(np.ones([4, 5], np.float32))
        >>> x2 = ms.Tensor(np.ones([4, 6], np.float32))
        >>> w = ms.Tensor(np.ones([7, 5, 6], np.float32))
        >>> ms.ops.bidense(x1, x2, w).shape
        (4, 7)
    """
    for name, t in (("input1", input1), ("input2", input2), ("weight", weight), ("bias", bias)):
        if t is not None and not isinstance(t, Tensor):
            raise TypeError(
                f"For 'bidense', the '{name}' must be '<class 'mindspore._c_expression.typing.TensorType'>', "
                f"but got '{type(t).__name__}'"
            )
    a, b, w = as_tensor_array(input1), as_tensor_array(input2), as_tensor_array(weight)
    if a.shape[:-1] != b.shape[:-1]:
        raise ValueError(
            f"For 'bidense', the dimensions except the last one of 'input1' and 'input2' must be equal, but got "
            f"{tuple(a.shape)} and {tuple(b.shape)}."
        )
    if w.ndim != 3 or w.shape[1] != a.shape[-1] or w.shape[2] != b.shape[-1]:
        raise ValueError(
            f"For 'bidense', the shape of 'weight' must be (out_channels, {a.shape[-1]}, {b.shape[-1]}), "
            f"but got {tuple(w.shape)}."
        )
    out = jnp.einsum("...i,oij,...j->...o", a, w, b)
    if bias is not None:
        c = as_tensor_array(bias)
        if a.dtype != c.dtype or b.dtype != c.dtype:
            raise TypeError(
                "For 'bidense', the dtype of 'bias', 'input1' and 'input2' must be the same, but got "
                f"{mstype.from_np(c.dtype)}, {mstype.from_np(a.dtype)} and {mstype.from_np(b.dtype)}."
            )
        out = out.astype(c.dtype) + c
    return wrap(out)
