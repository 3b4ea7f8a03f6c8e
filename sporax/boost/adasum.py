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

import math
from typing import Any

from .. import ops
from ..nn.cell import Cell

__all__ = ["AdaSum"]

_EPS = 1e-12


def _halves(shape: list[int]) -> tuple[list[int], bool]:
    """The shape of the half a round keeps, and whether the update could be halved (a dimension > 1)."""
    for i, d in enumerate(shape):
        if d > 1:
            out = list(shape)
            out[i] = d - d // 2
            return out, True
    return list(shape), False


def _combine(a: Any, b: Any) -> Any:
    """The AdaSum of two updates (Tensors of one shape)."""
    dot = ops.reduce_sum(a * b) + _EPS
    na = ops.reduce_sum(a * a) + _EPS
    nb = ops.reduce_sum(b * b) + _EPS
    return (1 - dot / (2 * na)) * a + (1 - dot / (2 * nb)) * b


def _adasum_rounds(updates: list[Any], shape: list[int]) -> Any:
    """Combine the updates of ``len(updates)`` groups (a power of two) of one Parameter of ``shape``."""
    current = list(updates)
    for step in range(int(math.log2(len(updates)))):
        shape, divisible = _halves(shape)
        span = 2 ** (step + 1)
        nxt = []
        for start in range(0, len(current), span):
            block = current[start : start + span]
            half = span // 2
            if divisible:
                value = _combine(block[0], block[half])
            else:  # averaged over the 2^(step+1) groups of the block
                value = sum(block[1:], block[0]) / span
            nxt.extend([value] * span)
        current = nxt
    return current[0]


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
        self.calc_times = int(math.log(self.group_number, 2))
        self.send_node = [(self.rank // (self.device_number * 2**s)) % 2 == 0 for s in range(self.calc_times)]
        group_start = (self.rank // self.device_number) * self.device_number
        self.broadcast_group = list(range(group_start, group_start + self.device_number))
        self.broadcast_list = [ops.Broadcast(r) for r in range(len(self.broadcast_group))]
        self.sync_barrier = ops.AllReduce("sum")
        self._gather = ops.AllGather() if self.calc_times else None

    def _group_updates(self, delta: Any) -> list[Any]:
        """This Parameter's update on the device of this local rank in every group, in group order."""
        if not self.calc_times:
            return [delta]
        gathered = self._gather(ops.expand_dims(delta, 0))
        local = self.rank % self.device_number
        return [gathered[g * self.device_number + local] for g in range(self.group_number)]

    def construct(self, delta_weights: Any, parameters: Any, old_parameters: Any) -> Any:
        out = []
        for delta, param, old in zip(delta_weights, parameters, old_parameters):
            combined = _adasum_rounds(self._group_updates(delta), [int(x) for x in delta.shape])
            ops.assign(param, old - ops.reshape(combined, delta.shape))
            out.append(param)
        return tuple(out)
