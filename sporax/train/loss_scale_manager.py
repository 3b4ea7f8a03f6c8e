"""``mindspore.train.loss_scale_manager``: the loss scale managers of ``Model``.

They are defined in :mod:`sporax.amp` (``amp`` sits below ``train``; ``Model`` and ``build_train_network``
both use them); this is MindSpore's path to the same classes.
"""

from ..amp._loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]
