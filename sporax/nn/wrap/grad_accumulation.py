"""Gradient accumulation.

Two forms, with MindSpore's names:

- :class:`GradAccumulationCell` (``nn.GradAccumulationCell(network, micro_size)``) splits each batch into
  `micro_size` micro-batches inside one step and sums their losses. ``amp.build_train_network`` trains it
  with ``_TrainGradAccuStepCell``, a TrainOneStepCell whose sensitivity is ``1 / micro_size``: one
  optimizer update with the mean gradient of the micro-batches.
- :class:`GradientAccumulation` (``mindspore.boost.GradientAccumulation(max_accumulation_step, optimizer)``)
  accumulates gradients across calls, one micro-batch per call, and applies the optimizer on every
  `max_accumulation_step`-th call: the memory of one micro-batch, the update of the whole batch.

Both share the train-step code of ``cell_wrapper`` and ``loss_scale`` (the update on the N-th step is
:func:`~sporax.nn.wrap.cell_wrapper.run_if`, with no Python control flow on tensors).
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ..cell import Cell
from .cell_wrapper import TrainOneStepCell, run_if
from .loss_scale import TrainOneStepWithLossScaleCell

__all__ = ["GradAccumulationCell", "GradientAccumulation"]


class GradAccumulationCell(Cell):
    """Split each input along dimension 0 into `micro_size` micro-batches, run `network` on each, and return
    the sum of the outputs (the losses).

    Train it with ``amp.build_train_network``: the gradient is then the mean over the micro-batches, as
    for one step on the whole batch.

    Args:
        network (Cell): The network with its loss.
        micro_size (int): The number of micro-batches.

    Inputs:
        - **\\*inputs** (Tensor) - Inputs whose dimension 0 is a multiple of `micro_size`.

    Outputs:
        Tensor, the sum of the network's outputs over the micro-batches.

    Raises:
        TypeError: If `network` is not a Cell or `micro_size` is not an int.
        ValueError: If `micro_size` is not positive, or an input's dimension 0 is not a multiple of it.

    Examples:
        >>> net = nn.GradAccumulationCell(nn.WithLossCell(LeNet5(), loss_fn), 4)
        >>> train_net = amp.build_train_network(net, optimizer)
    """

    def __init__(self, network: Cell, micro_size: int) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(
                f"For 'GradAccumulationCell', the argument 'network' must cell type, but got the type : {type(network)}."
            )
        self.network = network
        self.micro_size = validator.check_positive_count(micro_size, "micro_size", "GradAccumulationCell")

    def construct(self, *inputs: Any) -> Any:
        ret = None
        for i in range(self.micro_size):
            micro_inputs = tuple(self._micro_batch(i, x) for x in inputs)
            output = self.network(*micro_inputs)
            ret = output if ret is None else ret + output
        return ret

    def _micro_batch(self, i: int, x: Any) -> Any:
        if not isinstance(x, Tensor) or x.ndim == 0:
            return x
        n = x.shape[0]
        if n % self.micro_size:
            raise ValueError(
                f"For micro batch initialization, the 0th dimension shape of input({n}) must be divided by "
                f"micro size({self.micro_size})"
            )
        size = n // self.micro_size
        return x[i * size : (i + 1) * size]


def _micro_size_of(network: Cell) -> int:
    for _, cell in network.cells_and_names():
        if isinstance(cell, GradAccumulationCell) or type(cell).__name__ in (
            "GradAccumulationCell",
            "GradAccumulation",
        ):
            return int(cell.micro_size)
    return 1


class _TrainGradAccuStepCell(TrainOneStepCell):
    """TrainOneStepCell for a network with a GradAccumulationCell: the sensitivity is divided by the number
    of micro-batches, so the update uses the mean gradient."""

    def __init__(self, network: Cell, optimizer: Cell, sens: Any = None) -> None:
        super().__init__(network, optimizer, sens)
        self.micro_size = _micro_size_of(network)
        self.sens = self.sens / self.micro_size


class _TrainGradAccuWithLossScaleCell(TrainOneStepWithLossScaleCell):
    """TrainOneStepWithLossScaleCell for a network with a GradAccumulationCell: gradients are unscaled by
    the loss scale times the number of micro-batches (the mean gradient)."""

    def __init__(self, network: Cell, optimizer: Cell, scale_sense: Any) -> None:
        super().__init__(network, optimizer, scale_sense)
        self._grad_divisor = float(_micro_size_of(network))


_accumulate = ops.MultitypeFuncGraph("gradient_accumulation_op")


@_accumulate.register("Number", "Tensor", "Tensor")
def _cumulative_grad_process(accumulation_step: Any, cumulative_grad: Any, grad: Any) -> Any:
    ops.assign_add(cumulative_grad, grad / accumulation_step)
    return cumulative_grad


class GradientAccumulation(Cell):
    """Accumulate gradients over calls and apply the optimizer on every `max_accumulation_step`-th call
    (MindSpore's ``boost.GradientAccumulation``).

    Each call adds ``grads / max_accumulation_step`` to an accumulator (one Parameter per weight, named
    ``grad_accumulation.<weight name>``); on the last call of a round the optimizer is applied with the
    accumulated gradients and the accumulator is cleared. The optimizer sees the mean gradient of the
    round's micro-batches: with equal micro-batches and a mean loss, the step of one batch
    `max_accumulation_step` times as large.

    Args:
        max_accumulation_step (int): The number of calls (micro-batches) per optimizer update.
        optimizer (Cell): The optimizer.

    Inputs:
        - **loss** (Tensor) - The loss of this micro-batch (returned unchanged).
        - **grads** (tuple[Tensor]) - Its gradients, one per optimizer parameter.

    Outputs:
        Tensor, `loss`.

    Examples:
        >>> class TrainStep(nn.TrainOneStepCell):
        ...     def __init__(self, network, optimizer, steps):
        ...         super().__init__(network, optimizer)
        ...         self.accumulation = GradientAccumulation(steps, optimizer)
        ...     def construct(self, *inputs):
        ...         loss = self.network(*inputs)
        ...         grads = self.grad_no_sens(self.network, self.weights)(*inputs)
        ...         return self.accumulation(loss, self.grad_reducer(grads))
    """

    def __init__(self, max_accumulation_step: int, optimizer: Cell) -> None:
        super().__init__(auto_prefix=False)  # the network's parameter names stay as they are
        self._max_accumulation_step = validator.check_positive_count(
            max_accumulation_step, "max_accumulation_step", "GradientAccumulation"
        )
        self.optimizer = validator.check_instance(optimizer, Cell, "optimizer", "GradientAccumulation")
        if not hasattr(optimizer, "parameters"):
            raise TypeError("For 'GradientAccumulation', the 'optimizer' must be an Optimizer (with 'parameters').")
        self.weights = optimizer.parameters
        self.hyper_map = ops.HyperMap()
        self._grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(Tensor(0, dtype=mstype.int32), name="accumulation_step")

    def construct(self, loss: Any, grads: Any) -> Any:
        grads = tuple(grads)
        if len(grads) != len(self._grad_accumulation):
            raise ValueError(
                f"For 'GradientAccumulation', the number of gradients must be {len(self._grad_accumulation)} "
                f"(one per optimizer parameter), but got {len(grads)}."
            )
        for acc, g in zip(self._grad_accumulation, grads):
            if tuple(g.shape) != acc.shape:
                raise ValueError(
                    f"For 'GradientAccumulation', the gradient of '{acc.name[len('grad_accumulation.') :]}' must "
                    f"have shape {acc.shape}, but got {tuple(g.shape)}."
                )
        self.hyper_map(ops.partial(_accumulate, self._max_accumulation_step), self._grad_accumulation, grads)
        step = self._accumulation_step + 1
        apply = step >= self._max_accumulation_step
        accumulated = tuple(acc.value() for acc in self._grad_accumulation)
        run_if(apply, self.optimizer, accumulated)
        ops.assign(self._accumulation_step, ops.select(apply, ops.zeros_like(step), step))
        for acc in self._grad_accumulation:
            ops.assign(acc, ops.select(apply, ops.zeros_like(acc), acc))
        return loss
