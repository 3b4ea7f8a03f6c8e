"""Linear, BiDense and DenseBnAct."""

from __future__ import annotations

import math
from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ..cell import Cell
from .activation import _bn_act_activation
from .basic import Dense
from .normalization import BatchNorm1d

__all__ = ["Linear", "BiDense", "DenseBnAct"]


class Linear(Cell):
    """``x @ weight.T + bias`` (PyTorch's argument names): ``weight`` ``(out_features, in_features)``
    initialised ``HeUniform(sqrt(5))``, ``bias`` ``Uniform(1 / sqrt(in_features))``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.Linear(3, 4)(ms.Tensor(np.ones([2, 3], np.float32))).shape
        (2, 4)
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        weight_init: Any = None,
        bias_init: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        name = self.cls_name
        self.in_features = validator.check_positive_int(in_features, "in_features", name)
        self.out_features = validator.check_positive_int(out_features, "out_features", name)
        self.has_bias = validator.check_bool(bias, "has_bias", name)
        dtype = mstype.float32 if dtype is None else dtype
        if isinstance(weight_init, Tensor) and (
            weight_init.ndim != 2 or weight_init.shape[0] != out_features or weight_init.shape[1] != in_features
        ):
            raise ValueError(
                f"For '{name}', weight init shape error. The ndim of 'weight_init' must be equal to 2, and the first "
                "dim must be equal to 'out_features', and the second dim must be equal to 'in_features'. But got "
                f"'weight_init': {weight_init}, 'out_features': {out_features}, 'in_features': {in_features}."
            )
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_features, in_features], dtype=dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and (bias_init.ndim != 1 or bias_init.shape[0] != out_features):
                raise ValueError(
                    f"For '{name}', bias init shape error. The ndim of 'bias_init' must be equal to 1, and the first "
                    f"dim must be equal to 'out_features'. But got 'bias_init': {bias_init}, 'out_features': "
                    f"{out_features}."
                )
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_features))
            self.bias = Parameter(initializer(bias_init, [out_features], dtype=dtype), name="bias")

    def construct(self, x: Tensor) -> Tensor:
        return ops.dense(x, self.weight, self.bias)

    def extend_repr(self) -> str:
        s = f"input_features={self.in_features}, output_features={self.out_features}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s


class BiDense(Cell):
    r"""Bilinear layer ``y = x1^T A x2 + b`` (``ops.bidense``); ``weight`` ``(out, in1, in2)`` and ``bias``
    ``(out,)`` initialised ``Uniform(1 / sqrt(in1_channels))``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.BiDense(5, 6, 7)
        >>> net(ms.Tensor(np.ones([4, 5], np.float32)), ms.Tensor(np.ones([4, 6], np.float32))).shape
        (4, 7)
    """

    def __init__(
        self,
        in1_channels: int,
        in2_channels: int,
        out_channels: int,
        weight_init: Any = None,
        bias_init: Any = None,
        has_bias: bool = True,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        name = self.cls_name
        validator.check_positive_int(in1_channels, "in1_channels", name)
        self.in_channels = validator.check_positive_int(in2_channels, "in2_channels", name)
        self.out_channels = validator.check_positive_int(out_channels, "out_channels", name)
        self.has_bias = validator.check_bool(has_bias, "has_bias", name)
        self.in1_channels, self.in2_channels = in1_channels, in2_channels
        bound = 1 / math.sqrt(in1_channels)
        if weight_init is None:
            weight_init = Uniform(bound)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != (out_channels, in1_channels, in2_channels):
            raise ValueError(
                f"For '{name}', weight init shape error. The ndim of 'weight_init' must be equal to 3, the first dim "
                "must be equal to 'out_channels', the second dim must be equal to 'in1_channels', and the third dim "
                f"must be equal to 'in2_channels'. But got 'weight_init': {weight_init}, 'out_channels': "
                f"{out_channels}, 'in_channels': {in1_channels}, 'in2_channels': {in2_channels}"
            )
        self.weight = Parameter(
            initializer(weight_init, (out_channels, in1_channels, in2_channels), dtype=dtype), "weight"
        )
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(bound)
            if isinstance(bias_init, Tensor) and (bias_init.ndim != 1 or bias_init.shape[0] != out_channels):
                raise ValueError(
                    f"For '{name}', bias init shape error. The ndim of 'bias_init' should be equal to 1, and the "
                    f"first dim must be equal to 'out_channels'. But got 'bias_init': {bias_init}, 'out_channels': "
                    f"{out_channels}."
                )
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")

    def construct(self, input1: Tensor, input2: Tensor) -> Tensor:
        name = self.cls_name
        for pname, t, n, cname in (
            ("input1", input1, self.in1_channels, "in1_channels"),
            ("input2", input2, self.in2_channels, "in2_channels"),
        ):
            if t.shape[-1] != n:
                raise ValueError(
                    f"For '{name}', the last dimension of '{pname}' must be equal to '{cname}', but got "
                    f"{t.shape[-1]} and {n}."
                )
        return ops.bidense(input1, input2, self.weight, self.bias)

    def extend_repr(self) -> str:
        s = f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s


class DenseBnAct(Cell):
    """``Dense`` followed by an optional ``BatchNorm1d`` and activation (``'leakyrelu'`` uses ``alpha``).
    ``after_fake`` is MindSpore's quantisation flag (kept, no effect).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.DenseBnAct(3, 4, has_bn=True, activation="relu")
        >>> net(ms.Tensor(np.ones([2, 3], np.float32))).shape
        (2, 4)
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        weight_init: Any = "normal",
        bias_init: Any = "zeros",
        has_bias: bool = True,
        has_bn: bool = False,
        momentum: float = 0.9,
        eps: float = 1e-5,
        activation: Any = None,
        alpha: float = 0.2,
        after_fake: bool = True,
    ) -> None:
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = validator.check_bool(has_bn, "has_bn", self.cls_name)
        self.has_act = activation is not None
        self.after_fake = validator.check_bool(after_fake, "after_fake", self.cls_name)
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _bn_act_activation(activation, alpha, self.cls_name)

    def construct(self, x: Tensor) -> Tensor:
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x
