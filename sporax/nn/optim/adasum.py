"""``AdaSumByGradWrapCell`` / ``AdaSumByDeltaWeightWrapCell``: adaptive summation of gradients (or weight
updates) across data-parallel groups of 8 devices, and the AdaSum rounds ``mindspore.boost.AdaSum`` shares.

Two updates ``a`` and ``b`` of one Parameter combine to ``(1 - a.b / (2 |a|^2)) a + (1 - a.b / (2 |b|^2)) b``
(1e-12 added to the dot products; the nn wrappers first divide both by ``max(a) + 1e-12``, as MindSpore
does, which changes only the effect of that 1e-12); groups combine pairwise in ``log2(groups)`` rounds, and
an update that cannot be halved any more (every dimension 1) is averaged instead. MindSpore exchanges
halves by Send/Receive (recursive halving); sporax gathers the updates of the devices with this device's
local rank and combines them in the same order, which gives the same result.
"""

from __future__ import annotations

import math
from typing import Any

from ... import _checkparam as validator
from ... import context, ops
from ...common import dtype as mstype
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ..cell import Cell
from .optimizer import Optimizer

__all__ = ["AdaSumByDeltaWeightWrapCell", "AdaSumByGradWrapCell"]

_EPS = 1e-12
_DEVICE_NUMBER = 8


def _halves(shape: list[int]) -> tuple[list[int], bool]:
    """The shape of the half a round keeps, and whether the update could be halved (a dimension > 1)."""
    for i, d in enumerate(shape):
        if d > 1:
            out = list(shape)
            out[i] = d - d // 2
            return out, True
    return list(shape), False


def adasum_combine(a: Any, b: Any, scaled: bool = False) -> Any:
    """The AdaSum of two updates of one shape (``scaled``: dot products of ``a, b / (max(a) + 1e-12)``)."""
    sa, sb = a, b
    if scaled:
        scale = ops.reduce_max(a) + _EPS
        sa, sb = a / scale, b / scale
    dot = ops.reduce_sum(sa * sb) + _EPS
    na = ops.reduce_sum(sa * sa) + _EPS
    nb = ops.reduce_sum(sb * sb) + _EPS
    return (1 - dot / (2 * na)) * a + (1 - dot / (2 * nb)) * b


def adasum_rounds(updates: list[Any], shape: list[int], scaled: bool = False) -> Any:
    """Combine the updates of ``len(updates)`` groups (a power of two) of one Parameter of ``shape``."""
    current = list(updates)
    for step in range(int(math.log2(len(updates)))):
        shape, divisible = _halves(shape)
        span = 2 ** (step + 1)
        nxt = []
        for start in range(0, len(current), span):
            block = current[start : start + span]
            if divisible:
                value = adasum_combine(block[0], block[span // 2], scaled)
            else:  # averaged over the 2^(step+1) groups of the block
                value = sum(block[1:], block[0]) / span
            nxt.extend([value] * span)
        current = nxt
    return current[0]


class AdaSumGroups:
    """The groups of one AdaSum: ``group_number`` groups of ``device_number`` devices; gathers one update
    from the device of this local rank in every group."""

    def __init__(self, rank: int, device_number: int, group_number: int) -> None:
        self.rank, self.device_number, self.group_number = rank, device_number, group_number
        self.calc_times = int(math.log(group_number, 2)) if group_number > 0 else 0
        self.send_node = [(rank // (device_number * 2**s)) % 2 == 0 for s in range(self.calc_times)]
        self._gather = ops.AllGather() if self.calc_times else None

    def updates(self, delta: Any) -> list[Any]:
        if self._gather is None:  # one group: nothing to combine
            return [delta]
        gathered = self._gather(ops.expand_dims(delta, 0))
        local = self.rank % self.device_number
        return [gathered[g * self.device_number + local] for g in range(self.group_number)]

    def combine(self, delta: Any, scaled: bool = False) -> Any:
        return ops.reshape(adasum_rounds(self.updates(delta), [int(x) for x in delta.shape], scaled), delta.shape)


def _parallel_check() -> None:
    mode = context.get_auto_parallel_context("parallel_mode")
    if mode == "stand_alone":
        raise RuntimeError("Stand alone mode is not supported to apply adasum.")


def _groups() -> AdaSumGroups:
    from ...parallel._utils import _get_device_num, _get_global_rank

    stages = context.get_auto_parallel_context("pipeline_stages") or 1
    return AdaSumGroups(_get_global_rank(), _DEVICE_NUMBER, (_get_device_num() // stages) // _DEVICE_NUMBER)


class _AdaSumWrapCell(Cell):
    """The optimizer, its parameters and the AdaSum groups (not in stand-alone mode)."""

    def __init__(self, optimizer: Optimizer) -> None:
        super().__init__(auto_prefix=False)
        _parallel_check()
        self.optimizer = optimizer
        validator.check_value_type("optimizer", optimizer, (Optimizer,))
        self.parameters = optimizer.parameters
        self.grad_clone = ParameterTuple(self.parameters)
        self.adasum = _groups()
        self.sync_tensor = Parameter(Tensor(0, dtype=mstype.int32), name="sync_tensor")


class AdaSumByGradWrapCell(_AdaSumWrapCell):
    """Combine the gradients across the groups by AdaSum, then apply ``optimizer`` (not in stand-alone mode).

    Args:
        optimizer (Optimizer): the optimizer (its parameters are the ones updated).

    Inputs:
        - **grads** (tuple[Tensor]) - the gradients of the optimizer's parameters.
    """

    def construct(self, grads: Any) -> Any:
        return self.optimizer(tuple(self.adasum.combine(g, scaled=True) for g in grads))


class AdaSumByDeltaWeightWrapCell(_AdaSumWrapCell):
    """Apply ``optimizer`` locally, then combine the weight updates across the groups by AdaSum: each
    Parameter becomes ``old - AdaSum(old - new)`` (not in stand-alone mode).

    Args:
        optimizer (Optimizer): the optimizer.

    Inputs:
        - **grads** (tuple[Tensor]) - the gradients of the optimizer's parameters.

    Outputs:
        The updated Parameters.
    """

    def __init__(self, optimizer: Optimizer) -> None:
        super().__init__(optimizer)
        self.scale = Tensor(1.0, dtype=mstype.float32)

    def construct(self, grads: Any) -> Any:
        old = tuple(p * self.scale for p in self.parameters)
        self.optimizer(grads)
        for param, before in zip(self.parameters, old):
            ops.assign(param, before - self.adasum.combine(before - param, scaled=True))
        return tuple(self.parameters)
