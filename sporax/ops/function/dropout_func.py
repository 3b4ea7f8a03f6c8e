"""Channel dropout: ``dropout1d``, ``dropout2d``, ``dropout3d`` (whole feature maps zeroed with probability
``p``, the rest scaled by ``1 / (1 - p)``). The random key comes from the framework's RNG state, as for
``ops.dropout``: the same seed gives the same masks eagerly, under ``jit`` and inside gradients.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._engine import jnp
from ...common.tensor import Tensor
from .._lowering import random as _random
from .._utils import as_tensor_array, compiled_op, wrap

__all__ = ["dropout1d", "dropout2d", "dropout3d"]


@compiled_op
def channel_dropout(x: Any, keep_prob: float, ndim: int, op: str) -> tuple[Tensor, Tensor]:
    """``(output, mask)`` for an input of rank ``ndim`` ``(N, C, *)``: one Bernoulli(keep_prob) draw per
    ``(n, c)``; ``mask`` is bool with the input's shape (MindSpore's ``Dropout2D``/``Dropout3D``)."""
    from ...common.seed import next_key

    a = as_tensor_array(x)
    if a.ndim != ndim:
        raise ValueError(f"For primitive[{op}], the rank of input  must be equal to {ndim} , but got {a.ndim}.")
    shape = a.shape[:2] + (1,) * (ndim - 2)
    keep = _random.keep_mask(next_key(), keep_prob, shape)
    mask = jnp.broadcast_to(keep, a.shape)
    if keep_prob == 0:
        return wrap(jnp.zeros_like(a)), wrap(mask)
    if jnp.issubdtype(a.dtype, jnp.floating):
        out = jnp.where(mask, a / jnp.asarray(keep_prob, a.dtype), jnp.zeros((), a.dtype))
    else:
        out = jnp.where(mask, a.astype(jnp.float32) / keep_prob, 0.0).astype(a.dtype)
    return wrap(out), wrap(mask)


def dropout1d(input: Any, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of a ``(N, C, L)`` or ``(C, L)`` input with probability ``p`` (training only).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.ops.dropout1d(ms.Tensor(np.ones([4, 3], np.float32)), 0.5).shape
        (4, 3)
    """
    if not isinstance(p, float):
        raise TypeError(f"For dropout1d, 'p' must be float, but got type {type(p)}.")
    if p < 0 or p > 1:
        raise ValueError(f"For dropout1d, the 'p' must be a number in range [0, 1], but got {p}.")
    validator.check_bool(training, "training", "dropout1d")
    if not isinstance(input, Tensor):
        raise TypeError(f"For dropout1d, 'input' must be Tensor, but got type {type(input)}.")
    if training is False:
        return input
    a = as_tensor_array(input)
    if a.ndim == 2:
        out, _ = channel_dropout(a[None, :, :, None], 1.0 - p, 4, "Dropout2D")
        return wrap(as_tensor_array(out)[0, :, :, 0])
    if a.ndim == 3:
        out, _ = channel_dropout(a[..., None], 1.0 - p, 4, "Dropout2D")
        return wrap(as_tensor_array(out)[..., 0])
    raise ValueError(f"For dropout1d, input shape should be 2D or 3D, but got {a.ndim}.")


def dropout2d(input: Any, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of a ``(N, C, H, W)`` input with probability ``p`` (training only).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.ops.dropout2d(ms.Tensor(np.ones([2, 1, 2, 3], np.float32)), 0.5).shape
        (2, 1, 2, 3)
    """
    validator.check_bool(training, "training", "dropout2d")
    if training is False:
        return input
    return channel_dropout(input, validator.check_keep_prob(1.0 - p, "Dropout2D"), 4, "Dropout2D")[0]


def dropout3d(input: Any, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of a ``(N, C, D, H, W)`` input with probability ``p`` (training only).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.ops.dropout3d(ms.Tensor(np.ones([2, 1, 2, 1, 2], np.float32)), 0.5).shape
        (2, 1, 2, 1, 2)
    """
    validator.check_bool(training, "training", "dropout3d")
    if training is False:
        return input
    return channel_dropout(input, validator.check_keep_prob(1.0 - p, "Dropout3D"), 5, "Dropout3D")[0]
