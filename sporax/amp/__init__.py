"""``sporax.amp`` (``mindspore.amp``): mixed precision and loss scaling.

``auto_mixed_precision`` / ``custom_mixed_precision`` / ``build_train_network`` (levels O0-O3, float16 or
bfloat16 with float32 master weights), the loss scalers of custom training steps (``StaticLossScaler``,
``DynamicLossScaler``, ``all_finite``) and the loss scale managers of ``Model``.
"""

from ._loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
from ._loss_scaler import DynamicLossScaler, LossScaler, StaticLossScaler, all_finite
from ._mixed_precision import (
    auto_mixed_precision,
    build_train_network,
    custom_mixed_precision,
    get_black_list,
    get_white_list,
)

__all__ = [
    "DynamicLossScaleManager",
    "LossScaleManager",
    "FixedLossScaleManager",
    "build_train_network",
    "DynamicLossScaler",
    "StaticLossScaler",
    "LossScaler",
    "auto_mixed_precision",
    "all_finite",
    "custom_mixed_precision",
    "get_white_list",
    "get_black_list",
]
