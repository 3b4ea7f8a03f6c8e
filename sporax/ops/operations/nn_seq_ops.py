"""Operator classes for channel dropout and normalisation (``ops.Dropout2D``, ``ops.Dropout3D``,
``ops.RmsNorm``). Each keeps its construction arguments as attributes and calls the functional op."""

from __future__ import annotations

from typing import Any

from ..function import dropout_func as DF
from ..function import norm_func as NRM
from ._primitive import Primitive

__all__ = ["Dropout2D", "Dropout3D", "RmsNorm"]


class _ChannelDropout(Primitive):
    _ndim = 4

    def __init__(self, keep_prob: float = 0.5) -> None:
        super().__init__()
        self.keep_prob = DF.check_keep_prob(keep_prob, type(self).__name__)
        self.attrs.update(keep_prob=keep_prob)

    def __call__(self, x: Any) -> Any:
        return DF.channel_dropout(x, self.keep_prob, self._ndim, type(self).__name__)


class Dropout2D(_ChannelDropout):
    """``(output, mask)``: each channel of an ``(N, C, H, W)`` input is kept with probability ``keep_prob``
    (and scaled by ``1 / keep_prob``) or zeroed; ``mask`` is bool, of the input's shape.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> out, mask = ms.ops.Dropout2D(0.5)(ms.Tensor(np.ones([2, 1, 2, 3], np.float32)))
        >>> out.shape, mask.dtype
        ((2, 1, 2, 3), Bool)
    """

    _ndim = 4


class Dropout3D(_ChannelDropout):
    """``(output, mask)`` as :class:`Dropout2D` for an ``(N, C, D, H, W)`` input.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> out, mask = ms.ops.Dropout3D(0.5)(ms.Tensor(np.ones([2, 1, 2, 1, 2], np.float32)))
        >>> out.shape
        (2, 1, 2, 1, 2)
    """

    _ndim = 5


class RmsNorm(Primitive):
    """``(y, rstd)`` of :func:`ops.rms_norm` with this ``epsilon``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> y, rstd = ms.ops.RmsNorm()(ms.Tensor(np.ones([2, 3], np.float32)), ms.Tensor(np.ones([3], np.float32)))
        >>> y.shape
        (2, 3)
    """

    def __init__(self, epsilon: float = 1e-6) -> None:
        super().__init__()
        self.epsilon = epsilon
        self.attrs.update(epsilon=epsilon)

    def __call__(self, x: Any, gamma: Any) -> Any:
        return NRM.rms_norm(x, gamma, self.epsilon)
