"""``sporax.boost`` (``mindspore.boost``): training accelerations, as MindSpore 2.10.

``AutoBoost`` picks the boosts (levels O0/O1/O2, ``boost_config_dict``); ``LessBN`` (fewer BatchNorms, a
normalized head), gradient freezing (``GradientFreeze``, ``FreezeOpt``, ``freeze_cell``), gradient
accumulation, ``AdaSum``, ``DimReduce`` and per-group loss scales (``GroupLossScaleManager``) run in
``BoostTrainOneStepCell`` / ``BoostTrainOneStepWithLossScaleCell``; ``OptimizerProcess`` and
``ParameterProcess`` rebuild optimizers over new parameter groups.
"""

from ..nn.wrap.grad_accumulation import GradientAccumulation
from .adasum import AdaSum
from .base import OptimizerProcess, ParameterProcess
from .boost import AutoBoost
from .boost_cell_wrapper import BoostTrainOneStepCell, BoostTrainOneStepWithLossScaleCell
from .dim_reduce import DimReduce
from .grad_freeze import FreezeOpt, GradientFreeze, freeze_cell
from .group_loss_scale_manager import GroupLossScaleManager
from .less_batch_normalization import LessBN

__all__ = [
    "AutoBoost",
    "OptimizerProcess",
    "ParameterProcess",
    "BoostTrainOneStepCell",
    "BoostTrainOneStepWithLossScaleCell",
    "LessBN",
    "GradientFreeze",
    "FreezeOpt",
    "freeze_cell",
    "GradientAccumulation",
    "AdaSum",
    "DimReduce",
    "GroupLossScaleManager",
]
