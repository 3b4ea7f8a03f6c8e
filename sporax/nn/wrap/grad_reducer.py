"""``DistributedGradReducer``: averages (or sums) gradients across data-parallel ranks.

With one process it returns the gradients unchanged (divided by nothing). Across processes it is an
all-reduce over the data-parallel group, provided by ``sporax.communication`` once initialised.
"""

from __future__ import annotations

from typing import Any

from ..cell import Cell

__all__ = ["DistributedGradReducer"]


class DistributedGradReducer(Cell):
    """Args: parameters (the weights), mean (average instead of sum; default True), degree (group size;
    default: the communication group's), fusion_type, group."""

    def __init__(
        self,
        parameters: Any,
        mean: bool | None = None,
        degree: int | None = None,
        fusion_type: int = 1,
        group: str = "hccl_world_group",
    ) -> None:
        super().__init__(auto_prefix=False)
        self.mean = True if mean is None else bool(mean)
        if degree is None:
            from ...communication import get_group_size

            degree = get_group_size()
        if not isinstance(degree, int) or degree < 1:
            raise ValueError(f"For 'DistributedGradReducer', the 'degree' must be a positive int, but got {degree!r}.")
        self.degree = degree
        self.group = group

    def construct(self, grads: Any) -> Any:
        if self.degree == 1:
            return grads
        from ...communication import all_reduce_grads

        return all_reduce_grads(grads, self.mean)
