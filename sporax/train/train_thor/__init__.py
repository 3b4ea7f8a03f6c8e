"""``mindspore.train.train_thor``: THOR second-order training (``ConvertModelUtils``, ``ConvertNetUtils``,
``ModelThor``)."""

from .convert_utils import ConvertModelUtils, ConvertNetUtils
from .model_thor import ModelThor

__all__ = ["ConvertNetUtils", "ConvertModelUtils", "ModelThor"]
