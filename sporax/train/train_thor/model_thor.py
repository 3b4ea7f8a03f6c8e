"""``ModelThor``: a ``Model`` whose train step also records THOR's curvature statistics.

The THOR layers send their ``G`` statistics out of the backward pass as the gradients of their ``matrix_g``
Parameters (see ``nn.layer.thor_layer``); this train step differentiates those Parameters too and stores
the statistics before the optimizer, which recomputes the inverses every ``frequency`` steps.
"""

from __future__ import annotations

from typing import Any

from ... import ops
from ...common.parameter import ParameterTuple
from ...nn.cell import Cell
from ...nn.layer.thor_layer import thor_statistics
from ...nn.wrap.cell_wrapper import TrainOneStepCell
from ..model import Model

__all__ = ["ModelThor"]


class _ThorTrainOneStepCell(TrainOneStepCell):
    """A ``TrainOneStepCell`` that also stores the THOR layers' ``G`` statistics."""

    def __init__(self, network: Cell, optimizer: Cell, sens: Any = None) -> None:
        super().__init__(network, optimizer, sens)
        self.thor_stats = ParameterTuple(thor_statistics(network))
        self.all_weights = ParameterTuple(list(self.weights) + list(self.thor_stats))

    def construct(self, *inputs: Any) -> Any:
        loss = self.network(*inputs)
        sens = ops.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.network, self.all_weights)(*inputs, sens)
        n = len(self.weights)
        for stat, value in zip(self.thor_stats, grads[n:]):
            ops.assign(stat, value)
        grads = self.grad_reducer(tuple(grads[:n]))
        return ops.depend(loss, self.optimizer(grads))


class ModelThor(Model):
    """``Model`` for THOR (made by ``ConvertModelUtils.convert_to_thor_model``)."""

    def __init__(
        self,
        network: Any,
        loss_fn: Any = None,
        optimizer: Any = None,
        metrics: Any = None,
        eval_network: Any = None,
        eval_indexes: Any = None,
        amp_level: str = "O0",
        **kwargs: Any,
    ) -> None:
        super().__init__(network, loss_fn, optimizer, metrics, eval_network, eval_indexes, amp_level, **kwargs)
        opt = network.optimizer if isinstance(network, TrainOneStepCell) else optimizer
        self._frequency = opt.get_frequency()

    def _build_train_network(self) -> Cell:
        net = super()._build_train_network()
        if (
            isinstance(net, TrainOneStepCell)
            and not isinstance(net, _ThorTrainOneStepCell)
            and type(net) is TrainOneStepCell
        ):
            sens = net.sens if net.sense_flag else None
            net = _ThorTrainOneStepCell(net.network, net.optimizer, sens).set_train()
        return net
