"""``GroupLossScaleManager``: a loss scale per group of layers (enhanced mixed precision).

As MindSpore 2.10's ``mindspore.boost.GroupLossScaleManager``: the network calls the manager at each group
boundary, ``x = manager(x, layer1, layer2)``. Forward it is the identity; backward it multiplies the
gradient by ``scale[layer1] / scale[layer2]``, so the gradients of group ``i``'s Parameters carry
``scale[i]`` (``scale[0]`` and ``scale[n + 1]`` are 1: the input gradients come out unscaled).
``BoostTrainOneStepWithLossScaleCell`` (with ``loss_scale_group`` on) reads each group's overflow and moves
its scale by ``1/sqrt(2)`` (overflow) or ``2**(1/1000)``.
"""

from __future__ import annotations

from typing import Any

from .. import ops
from ..common import dtype as mstype
from ..common.parameter import Parameter, ParameterTuple
from ..common.tensor import Tensor
from ..nn.cell import Cell

__all__ = ["GroupLossScaleManager"]


class _LayerLossScale(Cell):
    """Identity forward; backward ``dout * ratio`` (MindSpore's ``_DynamicLossScale`` primitive)."""

    def __init__(self, layer: int) -> None:
        super().__init__()
        self.layer = layer

    def construct(self, x: Any, ratio: Any) -> Any:
        return x

    def bprop(self, x: Any, ratio: Any, out: Any, dout: Any) -> Any:
        return dout * ops.cast(ratio, dout.dtype), ops.zeros_like(ratio)


class GroupLossScaleManager(Cell):
    """Loss scales per group of layers.

    Args:
        init_loss_scale (Number): the initial loss scale of every group.
        loss_scale_groups (list): the groups of Parameters (list of lists), first layers first.

    Inputs:
        - **x** (Tensor) - the output of the group that ends here.
        - **layer1** (int) - this group's index; **layer2** (int) - the next one's.

    Outputs:
        ``x`` (its gradient rescaled by ``scale[layer1] / scale[layer2]``).
    """

    def __init__(self, init_loss_scale: Any, loss_scale_groups: Any) -> None:
        super().__init__()
        self._loss_scale = init_loss_scale
        self.loss_scale_groups = loss_scale_groups
        self.loss_scale_number = 0
        self.layer_loss_scale: tuple[_LayerLossScale, ...] | None = None  # set by set_loss_scale_status
        self.dynamic_loss_scale: ParameterTuple | None = None

    def set_loss_scale_status(self, loss_scale_number: int, init_loss_scale: Any) -> None:
        """Make the per-group scales: ``scale[1..n]`` = ``init_loss_scale`` (a list gives one per group)."""
        self.loss_scale_number = loss_scale_number
        self.layer_loss_scale = tuple(_LayerLossScale(x) for x in range(loss_scale_number + 1))
        self.dynamic_loss_scale = ParameterTuple(
            Parameter(Tensor(1, mstype.float32), name=f"layer_loss_scale_{x}", requires_grad=False)
            for x in range(loss_scale_number + 2)
        )
        values = init_loss_scale if isinstance(init_loss_scale, list) else [init_loss_scale] * loss_scale_number
        for i, value in enumerate(values):
            self.dynamic_loss_scale[i + 1].set_data(Tensor(value, mstype.float32))

    def _scales(self) -> tuple[tuple[_LayerLossScale, ...], ParameterTuple]:
        if self.layer_loss_scale is None or self.dynamic_loss_scale is None:
            raise RuntimeError(f"For '{type(self).__name__}', call 'set_loss_scale_status' before using the scales.")
        return self.layer_loss_scale, self.dynamic_loss_scale

    def update_loss_scale_status(self, layer: int, update_ratio: Any) -> Any:
        """``scale[layer + 1] *= update_ratio``; returns the new scale."""
        param = self._scales()[1][layer + 1]
        new_loss_scale = param * update_ratio
        ops.assign(param, new_loss_scale)
        return new_loss_scale

    def construct(self, x: Any, layer1: int, layer2: int) -> Any:
        layers, scales = self._scales()
        return layers[layer1](x, scales[layer1] / scales[layer2])

    def get_loss_scale(self) -> Any:
        return self._loss_scale

    def get_update_cell(self) -> Cell:
        return self
