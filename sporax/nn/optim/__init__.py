"""Optimizers (``mindspore.nn.optim``)."""

from . import ada_grad, adam, lamb, momentum, optimizer, rmsprop, sgd
from .ada_grad import *  # noqa: F403
from .adam import *  # noqa: F403
from .lamb import *  # noqa: F403
from .momentum import *  # noqa: F403
from .optimizer import *  # noqa: F403
from .rmsprop import *  # noqa: F403
from .sgd import *  # noqa: F403

__all__ = [
    *optimizer.__all__,
    *momentum.__all__,
    *sgd.__all__,
    *adam.__all__,
    *rmsprop.__all__,
    *ada_grad.__all__,
    *lamb.__all__,
]
