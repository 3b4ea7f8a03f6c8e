"""Process-group management (``mindspore.communication.management``): ``init``, ranks and group sizes.

The processes are the ones ``sporax launch -n N script.py`` started (``_engine/_parallel``): rank `i` is
process `i`, with one device. Without the launcher there is one rank, rank 0. Only the world group exists:
``create_group`` is not supported on GPU and CPU, as in MindSpore.
"""

from __future__ import annotations

from typing import Any

from .. import _checkparam as validator
from .._engine import _parallel
from ..ops.operations.comm_ops import (
    HCCL_WORLD_COMM_GROUP,
    MCCL_WORLD_COMM_GROUP,
    NCCL_WORLD_COMM_GROUP,
    GlobalComm,
    check_group,
)

__all__ = [
    "GlobalComm",
    "init",
    "release",
    "get_rank",
    "get_local_rank",
    "get_group_size",
    "get_local_rank_size",
    "get_world_rank_from_group_rank",
    "get_group_rank_from_world_rank",
    "get_process_group_ranks",
    "get_comm_name",
    "create_group",
    "destroy_group",
    "HCCL_WORLD_COMM_GROUP",
    "NCCL_WORLD_COMM_GROUP",
    "MCCL_WORLD_COMM_GROUP",
]

_BACKENDS = ("hccl", "nccl", "mccl")


def init(backend_name: str | None = None) -> None:
    """Initialise the communication service: join the processes started by ``sporax launch`` (one process
    without it). The backend is the platform's (NCCL on GPU, Gloo on CPU); `backend_name` is checked only.

    Raises:
        TypeError: If `backend_name` is not a string.
        RuntimeError: If `backend_name` is not one of ``"hccl"``, ``"nccl"``, ``"mccl"``, or joining fails.
    """
    if backend_name is not None and not isinstance(backend_name, str):
        raise TypeError(
            f"For 'init', the argument 'backend_name' must be a string, but got the type : {type(backend_name)}"
        )
    if backend_name is not None and backend_name not in _BACKENDS:
        raise RuntimeError(f"Backend name {backend_name} is not supported.")
    _parallel.initialize()
    from .._engine import jax

    gpu = jax.default_backend() == "gpu"
    GlobalComm.BACKEND = backend_name or ("nccl" if gpu else "mccl")
    GlobalComm.WORLD_COMM_GROUP = NCCL_WORLD_COMM_GROUP if gpu else MCCL_WORLD_COMM_GROUP
    GlobalComm.INITED = True


def release() -> None:
    """Release the communication service (the process group stays joined until the process exits)."""
    GlobalComm.INITED = False


def get_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """The rank of this process in `group`."""
    check_group(group, "get_rank")
    return _parallel.rank()


def get_local_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """The rank of this process among the processes of its machine."""
    check_group(group, "get_local_rank")
    return _parallel.local_rank()


def get_group_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """The number of ranks in `group`."""
    check_group(group, "get_group_size")
    return _parallel.size()


def get_local_rank_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """The number of ranks on this machine."""
    check_group(group, "get_local_rank_size")
    return _parallel.local_size()


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    """The world rank of rank `group_rank_id` of `group` (the same number in the world group)."""
    check_group(group, "get_world_rank_from_group_rank")
    return validator.check_comm_rank(group_rank_id, _parallel.size(), "group_rank_id", "get_world_rank_from_group_rank")


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    """The rank in `group` of world rank `world_rank_id` (the same number in the world group)."""
    check_group(group, "get_group_rank_from_world_rank")
    return validator.check_comm_rank(world_rank_id, _parallel.size(), "world_rank_id", "get_group_rank_from_world_rank")


def get_process_group_ranks(group: str = GlobalComm.WORLD_COMM_GROUP) -> list[int]:
    """The world ranks in `group`."""
    check_group(group, "get_process_group_ranks")
    return list(range(_parallel.size()))


def get_comm_name(group: str = GlobalComm.WORLD_COMM_GROUP) -> str:
    """The name of `group`'s communicator (the group's name: sporax has one communicator per group)."""
    check_group(group, "get_comm_name")
    return group


def create_group(group: str, rank_ids: list[int], options: Any = None) -> None:
    """Not supported on GPU and CPU, as in MindSpore: collectives run over the world group.

    Raises:
        RuntimeError: Always.
    """
    raise RuntimeError(
        "For 'create_group', user communication groups are not supported on GPU and CPU (as in MindSpore): "
        "sporax's collectives run over the world group."
    )


def destroy_group(group: str) -> None:
    """Not supported on GPU and CPU, as in MindSpore (see :func:`create_group`).

    Raises:
        RuntimeError: Always.
    """
    raise RuntimeError("For 'destroy_group', user communication groups are not supported on GPU and CPU.")
