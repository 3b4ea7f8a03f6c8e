"""Loss functions."""

from . import ctc, loss, margin, regression, sampled, segmentation
from .ctc import *  # noqa: F403
from .loss import *  # noqa: F403
from .margin import *  # noqa: F403
from .regression import *  # noqa: F403
from .sampled import *  # noqa: F403
from .segmentation import *  # noqa: F403

__all__: list[str] = []
__all__ += loss.__all__
__all__ += margin.__all__
__all__ += regression.__all__
__all__ += segmentation.__all__
__all__ += ctc.__all__
__all__ += sampled.__all__
