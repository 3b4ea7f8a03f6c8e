"""The convolution, pooling, padding, resizing and image ops of ``mindspore.ops`` beyond the classic ones in
``nn_func`` (one import point for ``ops/function/__init__``)."""

from typing import TYPE_CHECKING

from . import _conv_transpose, _image_func, _pool_func, _resize_func
from ._conv_pool import conv3d
from ._conv_transpose import *  # noqa: F403
from ._image_func import *  # noqa: F403
from ._pool_func import *  # noqa: F403
from ._resize_func import (  # noqa: F401
    adaptive_avg_pool2d_ext,
    channel_shuffle,
    mirror_pad,
    pixel_shuffle,
    pixel_unshuffle,
    upsample,
)

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__ = [
        "conv3d",
        *_conv_transpose.__all__,
        *_pool_func.__all__,
        *_image_func.__all__,
        *(n for n in _resize_func.__all__ if n != "interpolate"),  # interpolate: via nn_func
    ]
