"""``AdaSum``: combine the weight updates of several data-parallel groups adaptively instead of averaging.

As MindSpore 2.10's ``mindspore.boost.AdaSum``: the groups (``group_number``, a power of two, each of
``device_number`` devices) are combined pairwise in ``log2(group_number)`` rounds; two updates ``a`` and ``b``
of one Parameter combine to

    (1 - a.b / (2 |a|^2)) a + (1 - a.b / (2 |b|^2)) b        (1e-12 added to each dot product)

and an update that cannot be halved any more (every dimension 1) is averaged instead. The Parameter becomes
``old_parameter - combined update``. MindSpore exchanges halves of the updates by Send/Receive (recursive
halving); sporax gathers the updates of the devices with this device's local rank and combines them in the
same order, which gives the same result.
"""

from __future__ import annotations

from typing import Any

from .. import ops
from ..nn.cell import Cell
from ..nn.optim.adasum import AdaSumGroups

__all__ = ["AdaSum"]


class AdaSum(Cell):
    """The AdaSum combination of the groups' updates, applied to the Parameters.

    Args:
        rank (int): this device's global rank.
        device_number (int): devices per group.
        group_number (int): the number of groups (a power of two).
        parameter_tuple (ParameterTuple): the Parameters (their shapes and dtypes).

    Inputs:
        delta_weights (tuple[Tensor]): this group's updates (``old - new``).
        parameters (tuple[Parameter]): the Parameters to write.
        old_parameters (tuple[Parameter]): their values before the update.

    Outputs:
        The Parameters, written with ``old_parameters - AdaSum(delta_weights over the groups)``.
    """

    def __init__(self, rank: int, device_number: int, group_number: int, parameter_tuple: Any) -> None:
        super().__init__()
        self.rank = rank
        self.device_number = device_number
        self.group_number = group_number
        self.parameter_tuple = parameter_tuple
        self._generate_communication_op()

    def _generate_communication_op(self) -> None:
        self._groups = AdaSumGroups(self.rank, self.device_number, self.group_number)
        self.calc_times = self._groups.calc_times
        self.send_node = self._groups.send_node
        group_start = (self.rank // self.device_number) * self.device_number
        self.broadcast_group = list(range(group_start, group_start + self.device_number))
        self.broadcast_list = [ops.Broadcast(r) for r in range(len(self.broadcast_group))]
        self.sync_barrier = ops.AllReduce("sum")

    def construct(self, delta_weights: Any, parameters: Any, old_parameters: Any) -> Any:
        out = []
        for delta, param, old in zip(delta_weights, parameters, old_parameters):
            ops.assign(param, old - self._groups.combine(delta))
            out.append(param)
        return tuple(out)
