"""Loss functions."""

from typing import TYPE_CHECKING

from . import ctc, loss, margin, regression, sampled, segmentation
from .ctc import *  # noqa: F403
from .loss import *  # noqa: F403
from .margin import *  # noqa: F403
from .regression import *  # noqa: F403
from .sampled import *  # noqa: F403
from .segmentation import *  # noqa: F403

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__: list[str] = []
    __all__ += loss.__all__
    __all__ += margin.__all__
    __all__ += regression.__all__
    __all__ += segmentation.__all__
    __all__ += ctc.__all__
    __all__ += sampled.__all__
