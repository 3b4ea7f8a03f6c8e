"""``DistributedGradReducer``: sums gradients over the data-parallel ranks (and divides by the degree).

The gradients of the whole network go in one all-reduce per dtype (MindSpore fuses them into buckets
the same way). In a compiled step the all-reduce is part of the step's program; in PyNative it is a
program of its own, as MindSpore's ``@jit``-decorated ``construct``. With one rank the sum is the
gradient itself.

With ``set_auto_parallel_context(parameter_broadcast=True)`` the reducer starts by giving every rank
rank 0's values of the parameters (for ranks that initialised them differently, without a common seed).
"""

from __future__ import annotations

from typing import Any

from ... import context
from ...common.tensor import Tensor
from ...communication.management import GlobalComm, get_group_size
from ...ops.operations.comm_ops import all_reduce_sum_fused, broadcast_parameters, check_group
from ..cell import Cell

__all__ = ["DistributedGradReducer"]


class DistributedGradReducer(Cell):
    """Aggregates the gradients of all ranks with an all-reduce, in data parallel.

    Args:
        parameters (list): The parameters to be updated.
        mean (bool): Divide the summed gradients by `degree`. Default: ``None``: the ``gradients_mean``
            setting of ``set_auto_parallel_context``.
        degree (int): The divisor for the mean, usually the number of ranks. Default: ``None``: the
            group size.
        fusion_type (int): The all-reduce fusion type (all gradients are fused). Default: ``1``.
        group (str): The communication group (the world group). Default: ``GlobalComm.WORLD_COMM_GROUP``.

    Inputs:
        - **grads** (Union[Tensor, tuple[Tensor]]) - The gradients of this rank.

    Outputs:
        The reduced gradients, with the structure of `grads`.

    With ``parameter_broadcast=True`` in the auto-parallel context, construction sets the parameters to
    rank 0's values on every rank.

    Raises:
        ValueError: If `degree` is not an int or not positive.
        RuntimeError: In GRAPH_MODE with ``SEMI_AUTO_PARALLEL`` or ``AUTO_PARALLEL``.
    """

    def __init__(
        self,
        parameters: Any,
        mean: bool | None = None,
        degree: int | None = None,
        fusion_type: int = 1,
        group: str = GlobalComm.WORLD_COMM_GROUP,
    ) -> None:
        super().__init__(auto_prefix=False)
        mode = context.get_auto_parallel_context("parallel_mode")
        if context.get_context("mode") == context.GRAPH_MODE and mode in (
            context.ParallelMode.SEMI_AUTO_PARALLEL,
            context.ParallelMode.AUTO_PARALLEL,
        ):
            raise RuntimeError(f"{mode} can not use DistributedGradReducer in graph mode")
        self.mean = context.get_auto_parallel_context("gradients_mean") if mean is None else bool(mean)
        if degree is None:
            degree = get_group_size()
        elif isinstance(degree, bool) or not isinstance(degree, int) or degree <= 0:
            raise ValueError(
                "For 'DistributedGradReducer', parameter 'degree' in DistributedGradReducer "
                f"should large than 0 and be int, degree: {degree}."
            )
        self.degree = degree
        self.group = check_group(group, "DistributedGradReducer")
        self.fusion_type = fusion_type
        if context.get_auto_parallel_context("parameter_broadcast"):
            broadcast_parameters(parameters)

    def construct(self, grads: Any) -> Any:
        single = isinstance(grads, Tensor)
        items = (grads,) if single else tuple(grads)
        reduced = all_reduce_sum_fused(items)
        if self.mean:
            scale = 1.0 / self.degree  # a Python float keeps each gradient's dtype
            reduced = tuple(g * scale for g in reduced)
        return reduced[0] if single else reduced
