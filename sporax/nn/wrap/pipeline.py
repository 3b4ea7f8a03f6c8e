"""Pipeline parallel cells: ``PipelineCell``, ``PipelineGradReducer``, ``MicroBatchInterleaved``,
``VirtualDatasetCellTriple``.

MindSpore cuts the network into ``pipeline_stages`` stages (each cell's ``pipeline_stage``) and streams
``micro_size`` micro-batches through them; the backward pass adds each micro-batch's gradients into
accumulators that ``PipelineGradReducer`` hands to the optimizer. On XLA the micro-batches run one after
the other in one compiled step (a 2-stage pipeline as sequential micro-batch accumulation): the loss is the
sum of the micro-batches' losses, as ``PipelineCell`` returns it, and its gradient is already the sum of
their gradients, so ``PipelineGradReducer`` only scales it. Training is numerically that of MindSpore's
pipeline (and of one device). Stages are recorded on the cells (``pipeline_stage``); they do not place
weights on separate devices.
"""

from __future__ import annotations

import logging
from typing import Any

from ..._checkparam import check_positive_count
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...context import get_auto_parallel_context
from ..cell import Cell

__all__ = ["PipelineCell", "PipelineGradReducer", "MicroBatchInterleaved", "VirtualDatasetCellTriple"]


def _micro_inputs(inputs: tuple, i: int, n: int, who: str) -> tuple:
    """Micro-batch ``i`` of ``n`` of each input (dimension 0 cut into ``n`` equal parts)."""
    out = []
    for x in inputs:
        if not isinstance(x, Tensor):
            out.append(x)
            continue
        if x.shape[0] % n:
            raise ValueError(
                f"For '{who}', the shape {tuple(x.shape)} of an input cannot be cut into {n} micro batches along "
                "axis 0."
            )
        k = x.shape[0] // n
        out.append(x[i * k : (i + 1) * k])
    return tuple(out)


def _set_by_name(network: Cell, config: dict | None, attr: str, who: str, arg: str) -> None:
    if not config:
        return
    left = dict(config)
    for name, cell in network.cells_and_names():
        if name and name in left:
            setattr(cell, attr, left.pop(name))
    if str(network) in left:
        setattr(network, attr, left.pop(str(network)))
    if left:
        raise KeyError(f"For '{who}', the argument '{arg}' : {left} is not found in 'network' : {network}")


class PipelineCell(Cell):
    """Run ``network`` on ``micro_size`` micro-batches (the inputs cut along axis 0) and return the sum of
    its outputs. ``stage_config`` / ``segment_config`` (``{cell name: stage}``) set the cells'
    ``pipeline_stage`` / ``pipeline_segment``."""

    def __init__(
        self, network: Cell, micro_size: int, stage_config: dict | None = None, segment_config: dict | None = None
    ) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(
                f"For 'PipelineCell', the argument 'network' must cell type, but got the type : {type(network)}."
            )
        check_positive_count(micro_size, "micro_size", "PipelineCell")
        self.network = network
        self.micro_size = micro_size
        _set_by_name(network, stage_config, "pipeline_stage", "PipelineCell", "stage_config")
        _set_by_name(network, segment_config, "pipeline_segment", "PipelineCell", "segment_config")

    def shard(self, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None, **kwargs: Any) -> None:
        raise ValueError("For 'PipelineCell', no 'shard' on 'PipelineCell' is allowed.")

    def construct(self, *inputs: Any) -> Any:
        ret = None
        for i in range(self.micro_size):
            out = self.network(*_micro_inputs(inputs, i, self.micro_size, "PipelineCell"))
            ret = out if ret is None else ret + out
        return ret


class MicroBatchInterleaved(Cell):
    """Run ``network`` on ``interleave_num`` slices of the batch (axis 0) and return the sum of its outputs
    (MindSpore overlaps one slice's communication with the next one's computation; XLA schedules them)."""

    def __init__(self, network: Cell, interleave_num: int = 2) -> None:
        super().__init__(auto_prefix=False)
        check_positive_count(interleave_num, "interleave_num", "MicroBatchInterleaved")
        self.network = network
        self.interleave_num = interleave_num

    def construct(self, *inputs: Any) -> Any:
        out: Any = 0.0
        for i in range(self.interleave_num):
            out = out + self.network(*_micro_inputs(inputs, i, self.interleave_num, "MicroBatchInterleaved"))
        return out


class PipelineGradReducer(Cell):
    """The gradients of a pipeline step for the optimizer: the micro-batches' gradients (summed by the
    step's single backward pass) divided by ``scale_sense``. ``accu_grads`` are MindSpore's accumulators,
    kept (zero) for checkpoints that name them."""

    def __init__(self, parameters: Any, scale_sense: float = 1.0, opt_shard: bool | None = None) -> None:
        super().__init__(auto_prefix=False)
        self.accu_grads = parameters.clone(prefix="accu_grads", init="zeros")
        self.degree = 1.0
        self.scale_sense = Parameter(Tensor(float(scale_sense)), name="scale_sense")
        self.opt_shard = get_auto_parallel_context("enable_parallel_optimizer") if opt_shard is None else opt_shard

    def construct(self, grads: Any) -> Any:
        inv = 1.0 / (self.scale_sense * self.degree)
        return tuple(g * inv.astype(g.dtype) for g in grads)


class VirtualDatasetCellTriple(Cell):
    """``backbone`` with its three inputs laid out data-parallel (deprecated in MindSpore; inputs pass
    through: XLA lays them out)."""

    def __init__(self, backbone: Cell) -> None:
        super().__init__(auto_prefix=False)
        logging.getLogger("sporax").warning("WARN_DEPRECATED: The usage of VirtualDatasetCellTriple is deprecated.")
        self._backbone = backbone

    def construct(self, a: Any, b: Any, c: Any) -> Any:
        return self._backbone(a, b, c)
