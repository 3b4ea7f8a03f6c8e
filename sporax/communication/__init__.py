"""``sporax.communication`` (``mindspore.communication``): process groups for data-parallel training.

With a single process (the default, and until ``init()`` is called under ``sporax launch``), the rank is
0 and the group size 1.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "init",
    "release",
    "get_rank",
    "get_group_size",
    "get_local_rank",
    "get_local_rank_size",
    "GlobalComm",
    "HCCL_WORLD_COMM_GROUP",
    "NCCL_WORLD_COMM_GROUP",
    "all_reduce_grads",
]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"

_state: dict[str, Any] = {"inited": False, "rank": 0, "size": 1}


class GlobalComm:
    BACKEND = "gloo"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False


def init(backend_name: str | None = None) -> None:
    """Start the process group from the launcher's environment (one process: nothing to do)."""
    from .._engine import jax

    _state["inited"] = True
    GlobalComm.INITED = True
    _state["rank"] = jax.process_index()
    _state["size"] = jax.process_count()


def release() -> None:
    _state["inited"] = False
    GlobalComm.INITED = False


def get_rank(group: str = HCCL_WORLD_COMM_GROUP) -> int:
    return int(_state["rank"])


def get_group_size(group: str = HCCL_WORLD_COMM_GROUP) -> int:
    return int(_state["size"])


def get_local_rank(group: str = HCCL_WORLD_COMM_GROUP) -> int:
    return int(_state["rank"])


def get_local_rank_size(group: str = HCCL_WORLD_COMM_GROUP) -> int:
    return int(_state["size"])


def all_reduce_grads(grads: Any, mean: bool) -> Any:
    raise NotImplementedError("Multi-process gradient all-reduce comes with 'sporax launch' (data-parallel issue).")
