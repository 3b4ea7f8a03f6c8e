"""``sporax.parallel`` (``mindspore.parallel``): semi-auto parallel (``shard``, ``Layout``), the strategy
search's settings, strategy files and distributed checkpoints.

The checkpoint functions read and write checkpoint files (``sporax.train``): they load on first use.
"""

from ..context import ParallelMode
from ..ops._sharding import Layout
from ._algo import get_algo_parameters, reset_algo_parameters, set_algo_parameters, set_op_strategy_config
from ._shard import shard
from ._strategy import (
    build_searched_strategy,
    merge_pipeline_strategys,
    rank_list_for_transform,
    restore_group_info_list,
)

rank_list_for_convert = rank_list_for_transform

_CHECKPOINT_NAMES = (
    "transform_checkpoint_by_rank",
    "transform_checkpoints",
    "convert_checkpoint_by_rank",
    "convert_checkpoints",
    "load_distributed_checkpoint",
    "load_segmented_checkpoints",
    "merge_sliced_parameter",
    "unified_safetensors",
    "parameter_broadcast",
    "sync_pipeline_shared_parameters",
)

__all__ = [
    "ParallelMode",
    "set_algo_parameters",
    "reset_algo_parameters",
    "get_algo_parameters",
    "rank_list_for_transform",
    "merge_pipeline_strategys",
    "shard",
    "Layout",
    "restore_group_info_list",
    "build_searched_strategy",
    "set_op_strategy_config",
    "rank_list_for_convert",
    *_CHECKPOINT_NAMES,
]


def __getattr__(name: str):  # noqa: ANN202  (module attribute hook)
    if name in _CHECKPOINT_NAMES:
        from . import _checkpoint

        value = getattr(_checkpoint, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sporax.parallel' has no attribute '{name}'")
