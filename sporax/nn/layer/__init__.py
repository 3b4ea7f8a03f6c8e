"""Layers."""

from typing import TYPE_CHECKING

from . import activation, basic, container, conv, embedding, normalization, pooling
from .activation import *  # noqa: F403
from .basic import *  # noqa: F403
from .container import *  # noqa: F403
from .conv import *  # noqa: F403
from .embedding import *  # noqa: F403
from .normalization import *  # noqa: F403
from .pooling import *  # noqa: F403

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__ = (
        activation.__all__
        + basic.__all__
        + container.__all__
        + conv.__all__
        + embedding.__all__
        + normalization.__all__
        + pooling.__all__
    )

from . import clip  # noqa: E402
from .clip import ClipByNorm  # noqa: E402

if not TYPE_CHECKING:
    __all__ += clip.__all__

from . import rnn_cells, rnns  # noqa: E402
from .rnn_cells import *  # noqa: E402, F403
from .rnns import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += rnns.__all__ + rnn_cells.__all__

from . import transformer  # noqa: E402
from .transformer import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += transformer.__all__

from . import conv_bn_act, image, padding, resize  # noqa: E402
from .conv_bn_act import *  # noqa: E402, F403
from .image import *  # noqa: E402, F403
from .padding import *  # noqa: E402, F403
from .resize import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += padding.__all__ + resize.__all__ + image.__all__ + conv_bn_act.__all__

from . import dense, math, sparse, timedistributed  # noqa: E402
from .dense import *  # noqa: E402, F403
from .math import *  # noqa: E402, F403
from .sparse import *  # noqa: E402, F403
from .timedistributed import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += dense.__all__ + math.__all__ + sparse.__all__ + timedistributed.__all__

from . import thor_layer  # noqa: E402
from .thor_layer import Conv2dThor, DenseThor, EmbeddingLookupThor, EmbeddingThor  # noqa: E402

if not TYPE_CHECKING:
    __all__ += ["DenseThor", "Conv2dThor", "EmbeddingThor", "EmbeddingLookupThor"]
