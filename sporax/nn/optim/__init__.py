"""Optimizers (``mindspore.nn.optim``)."""

from . import (
    ada_grad,
    adadelta,
    adafactor,
    adam,
    adamax,
    asgd,
    ftrl,
    lamb,
    lars,
    lazyadam,
    momentum,
    optimizer,
    proximal_ada_grad,
    rmsprop,
    rprop,
    sgd,
)
from .ada_grad import *  # noqa: F403
from .adadelta import *  # noqa: F403
from .adafactor import *  # noqa: F403
from .adam import *  # noqa: F403
from .adamax import *  # noqa: F403
from .asgd import *  # noqa: F403
from .ftrl import *  # noqa: F403
from .lamb import *  # noqa: F403
from .lars import *  # noqa: F403
from .lazyadam import *  # noqa: F403
from .momentum import *  # noqa: F403
from .optimizer import *  # noqa: F403
from .proximal_ada_grad import *  # noqa: F403
from .rmsprop import *  # noqa: F403
from .rprop import *  # noqa: F403
from .sgd import *  # noqa: F403
from .adasum import AdaSumByDeltaWeightWrapCell, AdaSumByGradWrapCell  # noqa: F401
from .tft_wrapper import OptTFTWrapper  # noqa: F401
from .thor import thor  # noqa: F401

__all__ = [
    *optimizer.__all__,
    *momentum.__all__,
    *sgd.__all__,
    *adam.__all__,
    *rmsprop.__all__,
    *ada_grad.__all__,
    *lamb.__all__,
    *adamax.__all__,
    *adadelta.__all__,
    *adafactor.__all__,
    *asgd.__all__,
    *ftrl.__all__,
    *lazyadam.__all__,
    *lars.__all__,
    *proximal_ada_grad.__all__,
    *rprop.__all__,
    "thor",
    "AdaSumByDeltaWeightWrapCell",
    "AdaSumByGradWrapCell",
    "OptTFTWrapper",
]
