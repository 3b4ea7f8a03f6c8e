"""The convolution, pooling, padding, resizing and image ops of ``mindspore.ops`` beyond the classic ones in
``nn_func`` (one import point for ``ops/function/__init__``)."""

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

__all__ = [
    "conv3d",
    *_conv_transpose.__all__,
    *_pool_func.__all__,
    *_image_func.__all__,
    *(n for n in _resize_func.__all__ if n != "interpolate"),  # interpolate: via nn_func
]
