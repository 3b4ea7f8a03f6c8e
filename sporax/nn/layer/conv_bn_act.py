"""Conv2dBnAct: Conv2d followed by an optional BatchNorm2d and activation (MindSpore's nn.layer.combined)."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ...common.tensor import Tensor
from ..cell import Cell
from .activation import _bn_act_activation
from .conv import Conv2d
from .normalization import BatchNorm2d

__all__ = ["Conv2dBnAct"]


class Conv2dBnAct(Cell):
    """``Conv2d`` (parameters ``conv.weight``/``conv.bias``) followed by an optional ``BatchNorm2d``
    (``batchnorm.*``; ``momentum`` as MindSpore's, default 0.997) and activation (a name, a Cell or a
    Primitive; ``'leakyrelu'`` uses ``alpha``). ``after_fake`` is MindSpore's quantisation flag (kept, no
    effect)."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        pad_mode: str = "same",
        padding: Any = 0,
        dilation: Any = 1,
        group: int = 1,
        has_bias: bool = False,
        weight_init: Any = "normal",
        bias_init: Any = "zeros",
        has_bn: bool = False,
        momentum: float = 0.997,
        eps: float = 1e-5,
        activation: Any = None,
        alpha: float = 0.2,
        after_fake: bool = True,
    ) -> None:
        super().__init__()
        self.conv = Conv2d(
            in_channels,
            out_channels,
            kernel_size=kernel_size,
            stride=stride,
            pad_mode=pad_mode,
            padding=padding,
            dilation=dilation,
            group=group,
            has_bias=has_bias,
            weight_init=weight_init,
            bias_init=bias_init,
        )
        self.has_bn = validator.check_bool(has_bn, "has_bn", self.cls_name)
        self.has_act = activation is not None
        self.after_fake = validator.check_bool(after_fake, "after_fake", self.cls_name)
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _bn_act_activation(activation, alpha, self.cls_name)

    def construct(self, x: Tensor) -> Tensor:
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x
