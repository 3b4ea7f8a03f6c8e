"""Basic layers: Dense, Flatten, Unflatten, Identity, the Dropout family, OneHot, Roll, Tril/Triu, Norm, the
MatrixDiag family, L1Regularizer."""

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
    "OneHot",
    "Roll",
    "Tril",
    "Triu",
    "Norm",
    "MatrixDiag",
    "MatrixDiagPart",
    "MatrixSetDiag",
    "L1Regularizer",
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
        validator.check_bool(has_bias, "has_bias", "Dense")
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
    """Returns its input (the constructor takes and ignores any arguments, as MindSpore's).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.Identity(54, unused="x")(ms.Tensor(np.ones([2], np.float32))).shape
        (2,)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def construct(self, input: Any) -> Any:
        return input


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


class OneHot(Cell):
    """One-hot vectors of ``depth`` along ``axis`` with ``on_value``/``off_value`` (cast to ``dtype``); an index
    outside ``[0, depth)`` gives an all-``off_value`` vector.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.OneHot(depth=3)(ms.Tensor(np.array([0, 2], np.int32))).asnumpy().tolist()
        [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    """

    def __init__(
        self, axis: int = -1, depth: int = 1, on_value: float = 1.0, off_value: float = 0.0, dtype: Any = mstype.float32
    ) -> None:
        super().__init__()
        self.axis, self.depth, self.dtype = axis, depth, dtype
        self.on_value, self.off_value = on_value, off_value
        self.onehot = ops.OneHot(axis)

    def construct(self, indices: Tensor) -> Tensor:
        on = ops.cast(Tensor(self.on_value, mstype.float32), self.dtype)
        off = ops.cast(Tensor(self.off_value, mstype.float32), self.dtype)
        return self.onehot(indices, self.depth, on, off)


class Roll(Cell):
    """Roll ``input_x`` by ``shift`` along ``axis`` (ints or equal-length sequences).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.Roll(2, 0)(ms.Tensor(np.arange(5, dtype=np.float32))).asnumpy().tolist()
        [3.0, 4.0, 0.0, 1.0, 2.0]
    """

    def __init__(self, shift: Any, axis: Any) -> None:
        super().__init__()
        validator.check_value_type("shift", shift, [int, tuple, list], self.cls_name)
        validator.check_value_type("axis", axis, [int, tuple, list], self.cls_name)
        self.shift = list(shift) if isinstance(shift, (list, tuple)) else [shift]
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        if len(self.shift) != len(self.axis):
            raise ValueError(
                f"For '{self.cls_name}', the shape of 'shift' and the shape of 'axis' must be the same, but got the "
                f"length of 'shift' {len(self.shift)} and the length of 'axis' {len(self.axis)}."
            )

    def construct(self, input_x: Tensor) -> Tensor:
        dim = input_x.ndim
        for ax in self.axis:
            validator.check_int_range(ax, -dim, dim, validator.INC_LEFT, "axis", self.cls_name)
        return ops.roll(input_x, tuple(self.shift), tuple(self.axis))


class Tril(Cell):
    """The lower triangle (``k``-th diagonal and below) of the last two axes; the rest zero.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.Tril()(ms.Tensor(np.ones([2, 2], np.float32))).asnumpy().tolist()
        [[1.0, 0.0], [1.0, 1.0]]
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        validator.check_is_int(k, "k value", "tril")
        return ops.tril(x, k)


class Triu(Cell):
    """The upper triangle (``k``-th diagonal and above) of the last two axes; the rest zero.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.Triu()(ms.Tensor(np.ones([2, 2], np.float32))).asnumpy().tolist()
        [[1.0, 1.0], [0.0, 1.0]]
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        validator.check_is_int(k, "k value", "triu")
        return ops.triu(x, k)


class Norm(Cell):
    """``sqrt(sum(x ** 2, axis))`` (all axes by default), the reduced axes kept with ``keep_dims``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> float(ms.nn.Norm()(ms.Tensor(np.array([3.0, 4.0], np.float32))))
        5.0
    """

    def __init__(self, axis: Any = (), keep_dims: bool = False) -> None:
        super().__init__()
        validator.check_value_type("keep_dims", keep_dims, [bool], self.cls_name)
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x: Tensor) -> Tensor:
        axis = self.axis if self.axis != () else tuple(range(x.ndim))
        out = ops.sqrt(ops.sum(ops.square(x), axis, keepdim=True))
        if not self.keep_dims:
            out = ops.squeeze(out, axis if isinstance(axis, tuple) else (axis,))
        return out

    def extend_repr(self) -> str:
        return f"axis={self.axis}, keep_dims={self.keep_dims}"


class MatrixDiag(Cell):
    """Batched diagonal matrices from the last axis: ``(..., n)`` -> ``(..., n, n)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.MatrixDiag()(ms.Tensor(np.array([1.0, 2.0], np.float32))).asnumpy().tolist()
        [[1.0, 0.0], [0.0, 2.0]]
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, input_x: Tensor) -> Tensor:
        return ops.matrix_diag(input_x)


class MatrixDiagPart(Cell):
    """The main diagonals of the last two axes: ``(..., m, n)`` -> ``(..., min(m, n))``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.MatrixDiagPart()(ms.Tensor(np.eye(2, dtype=np.float32) * 3)).asnumpy().tolist()
        [3.0, 3.0]
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, input_x: Tensor) -> Tensor:
        return ops.diagonal(input_x, 0, -2, -1)


class MatrixSetDiag(Cell):
    """``input_x`` with the main diagonals of its last two axes replaced by ``diagonal``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.zeros([2, 2], np.float32))
        >>> ms.nn.MatrixSetDiag()(x, ms.Tensor(np.array([1.0, 2.0], np.float32))).asnumpy().tolist()
        [[1.0, 0.0], [0.0, 2.0]]
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, input_x: Tensor, diagonal: Tensor) -> Tensor:
        return ops.matrix_set_diag(input_x, diagonal)


class L1Regularizer(Cell):
    """``scale * sum(|weights|)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> float(ms.nn.L1Regularizer(0.5)(ms.Tensor(np.array([1.0, -2.0], np.float32))))
        1.5
    """

    def __init__(self, scale: float) -> None:
        super().__init__()
        validator.check_value_type("scale", scale, [int, float], self.cls_name)
        if scale <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'scale' must be greater than 0, but got {scale}.")
        if math.isinf(scale) or math.isnan(scale):
            raise ValueError(f"For '{self.cls_name}', the 'scale' can not be INF or NAN, but got {scale}.")
        self.scale = Tensor(scale, dtype=mstype.float32)

    def construct(self, weights: Tensor) -> Tensor:
        if weights.dtype == mstype.bool_:
            raise TypeError(f"For 'L1Regularizer', the 'weights' must be a number type, but got {weights.dtype}.")
        return self.scale * ops.sum(ops.abs(weights))
