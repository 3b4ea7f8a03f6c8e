"""Loss functions."""

from typing import TYPE_CHECKING

from . import ctc as _ctc
from . import loss as _loss
from . import margin as _margin
from . import regression as _regression
from . import sampled as _sampled
from . import segmentation as _segmentation
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
    __all__ += _loss.__all__
    __all__ += _margin.__all__
    __all__ += _regression.__all__
    __all__ += _segmentation.__all__
    __all__ += _ctc.__all__
    __all__ += _sampled.__all__
