"""Basic layers: Dense, Flatten, Unflatten, Identity, Dropout."""

from __future__ import annotations

import math
from typing import Any

from ... import _checkparam as validator
from ... import ops
from ..._engine import state
from ...common import dtype as mstype
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.operations import Primitive
from ..cell import Cell
from .activation import get_activation

__all__ = [
    "Dense",
    "Flatten",
    "Unflatten",
    "Identity",
    "Dropout",
    "Dropout1d",
    "Dropout2d",
    "Dropout3d",
    "DropoutExt",
    "Dropout2dExt",
]


class Dense(Cell):
    """Fully connected layer: ``activation(x @ weight.T + bias)`` over the last dimension of an N-D input.

    Args:
        in_channels: size of the last input dimension.
        out_channels: size of the last output dimension.
        weight_init: initializer of ``weight`` ``[out_channels, in_channels]``. Default None:
            ``HeUniform(math.sqrt(5))``.
        bias_init: initializer of ``bias`` ``[out_channels]``. Default None: ``Uniform(1 / sqrt(in_channels))``.
        has_bias: whether there is a bias. Default True.
        activation: an activation name (``'relu'``), a Cell or a Primitive applied to the output. Default None.
        dtype: dtype of the parameters. Default float32.
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        weight_init: Any = None,
        bias_init: Any = None,
        has_bias: bool = True,
        activation: Any = None,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        self.in_channels = validator.check_count(in_channels, "in_channels", "Dense")
        self.out_channels = validator.check_count(out_channels, "out_channels", "Dense")
        if not isinstance(has_bias, bool):
            raise TypeError(f"For 'Dense', the 'has_bias' must be a bool, but got {type(has_bias).__name__}.")
        self.has_bias = has_bias
        if isinstance(weight_init, Tensor) and weight_init.shape != (out_channels, in_channels):
            raise ValueError(
                f"For 'Dense', the 'weight_init' shape must be ({out_channels}, {in_channels}), "
                f"but got {weight_init.shape}."
            )
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype), name="weight")
        self.bias = None
        if has_bias:
            if isinstance(bias_init, Tensor) and bias_init.shape != (out_channels,):
                raise ValueError(
                    f"For 'Dense', the 'bias_init' shape must be ({out_channels},), but got {bias_init.shape}."
                )
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype), name="bias")
        if isinstance(activation, str):
            activation = get_activation(activation, "Dense")
        elif activation is not None and not isinstance(activation, (Cell, Primitive)):
            raise TypeError(
                f"For 'Dense', the 'activation' must be str, Cell or Primitive, but got {type(activation).__name__}."
            )
        self.activation = activation
        self.activation_flag = activation is not None

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim < 1:
            raise ValueError("For 'Dense', the dimension of 'x' must be >= 1, but got 0.")
        if x.shape[-1] != self.in_channels:
            raise ValueError(f"For 'Dense', the 'x' shape[-1] must be {self.in_channels}, but got {x.shape[-1]}.")
        if x.dtype != self.weight.dtype and state.amp_dtype() is None:  # amp 'auto' casts in the op
            raise TypeError(
                f"For 'Dense', the dtype of 'x' must be the same as the dtype of 'weight' ({self.weight.dtype}), "
                f"but got {x.dtype}."
            )
        out = ops.dense(x, self.weight, self.bias)
        if self.activation_flag:
            out = self.activation(out)
        return out

    def extend_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Flatten(Cell):
    """Flatten dimensions ``start_dim`` .. ``end_dim`` into one (default: all but the batch dimension)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        for name, v in (("start_dim", start_dim), ("end_dim", end_dim)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For 'Flatten', the '{name}' must be an int, but got {type(v).__name__}.")
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x: Tensor) -> Tensor:
        return ops.flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


class Unflatten(Cell):
    """Expand dimension ``axis`` into ``unflattened_size``."""

    def __init__(self, axis: int, unflattened_size: Any) -> None:
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'Unflatten', the 'axis' must be an int, but got {type(axis).__name__}.")
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(
                f"For 'Unflatten', the 'unflattened_size' must be a tuple or list, but got "
                f"{type(unflattened_size).__name__}."
            )
        self.axis, self.unflattened_size = axis, tuple(unflattened_size)

    def construct(self, input: Tensor) -> Tensor:
        shape = list(input.shape)
        axis = self.axis % len(shape)
        return ops.reshape(input, tuple(shape[:axis]) + self.unflattened_size + tuple(shape[axis + 1 :]))


class Identity(Cell):
    """Returns its input."""

    def construct(self, x: Any) -> Any:
        return x


class Dropout(Cell):
    """Randomly zero elements with probability ``p`` during training, scaling the rest by ``1 / (1 - p)``;
    the identity in inference (``set_train(False)``).

    Args:
        keep_prob: deprecated: the probability of keeping an element, in (0, 1]. Default 0.5.
        p: the probability of zeroing an element, in [0, 1). Given, it wins over ``keep_prob``. Default None.
        dtype: deprecated, ignored.
    """

    def __init__(self, keep_prob: float = 0.5, p: float | None = None, dtype: Any = mstype.float32) -> None:
        super().__init__()
        if p is None:
            if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)):
                raise TypeError(f"For 'Dropout', the 'keep_prob' must be a float, but got {type(keep_prob).__name__}.")
            if not 0 < keep_prob <= 1:
                raise ValueError(
                    f"For 'Dropout', the 'keep_prob' must be a number in range (0, 1], but got {keep_prob}."
                )
            self.keep_prob = float(keep_prob)
            self.p = 1.0 - self.keep_prob
        else:
            if isinstance(p, bool) or not isinstance(p, (int, float)):
                raise TypeError(f"For 'Dropout', the 'p' must be a float or int, but got {type(p).__name__}.")
            if not 0 <= p < 1:
                raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), but got {p}.")
            self.p = float(p)
            self.keep_prob = 1.0 - self.p
        self.use_p = p is not None

    def construct(self, x: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return x
        if not isinstance(x.dtype, mstype.Float):
            raise TypeError(f"For 'Dropout', the dtype of 'x' must be float16, float32 or float64, but got {x.dtype}.")
        return ops.dropout(x, p=self.p, training=True)

    def extend_repr(self) -> str:
        return f"p={self.p}" if self.use_p else f"keep_prob={self.keep_prob}"


class _ChannelDropout(Cell):
    """Dropout of whole channels (feature maps) during training; the identity in inference."""

    _fn: Any = None

    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        validator.check_value_type("p", p, [float], self.cls_name)
        if p < 0 or p > 1:
            raise ValueError(f"For '{self.cls_name}', the 'p' must be a number in range [0, 1], but got {p}.")
        self.p = p
        self.keep_prob = 1.0 - p

    def construct(self, x: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return x
        return type(self)._fn(x, self.p)

    def extend_repr(self) -> str:
        return f"p={self.p}"


class Dropout1d(_ChannelDropout):
    """Zero each channel of a ``(N, C, L)`` or ``(C, L)`` input with probability ``p`` in training, scaling
    the rest by ``1 / (1 - p)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.Dropout1d(0.5).set_train()
        >>> net(ms.Tensor(np.ones([2, 3, 4], np.float32))).shape
        (2, 3, 4)
    """

    _fn = staticmethod(ops.dropout1d)


class Dropout2d(_ChannelDropout):
    """Zero each channel of a ``(N, C, H, W)`` input with probability ``p`` in training (``ops.Dropout2D``).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.Dropout2d(0.5).set_train()
        >>> net(ms.Tensor(np.ones([2, 3, 4, 4], np.float32))).shape
        (2, 3, 4, 4)
    """

    _fn = staticmethod(ops.dropout2d)

    def extend_repr(self) -> str:
        return f"p={self.keep_prob}"  # MindSpore prints the keep probability under the name p


class Dropout3d(_ChannelDropout):
    """Zero each channel of a ``(N, C, D, H, W)`` input with probability ``p`` in training (``ops.Dropout3D``).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.Dropout3d(0.5).set_train()
        >>> net(ms.Tensor(np.ones([2, 3, 2, 2, 2], np.float32))).shape
        (2, 3, 2, 2, 2)
    """

    _fn = staticmethod(ops.dropout3d)

    def extend_repr(self) -> str:
        return f"p={self.keep_prob}"


class DropoutExt(Cell):
    """Dropout with probability ``p`` (``ops.dropout``) in training. ``inplace`` is accepted; the result is a
    new Tensor (sporax Tensors are values).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.DropoutExt(0.5)(ms.Tensor(np.ones([2, 3], np.float32))).shape
        (2, 3)
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        self.p = p
        self.inplace = inplace

    def construct(self, input: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return input
        return ops.dropout(input, p=self.p, training=True)


class Dropout2dExt(Cell):
    """Channel dropout of a ``(N, C, H, W)`` input with probability ``p`` in training (``inplace`` as in
    :class:`DropoutExt`).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.Dropout2dExt(0.5)(ms.Tensor(np.ones([2, 3, 2, 2], np.float32))).shape
        (2, 3, 2, 2)
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        self.p = p
        self.inplace = inplace

    def construct(self, input: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return input
        return ops.dropout2d(input, p=float(self.p), training=True)
