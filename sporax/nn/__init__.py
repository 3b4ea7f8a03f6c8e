"""``sporax.nn`` (``mindspore.nn``): Cell, layers, losses, optimizers, learning-rate schedules and
wrapper cells."""

from typing import TYPE_CHECKING

from . import layer, loss, optim, wrap
from . import dynamic_lr, learning_rate_schedule
from .cell import Cell
from .graph_cell import GraphCell
from .layer import *  # noqa: F403
from .loss import *  # noqa: F403
from .optim import *  # noqa: F403
from .wrap import *  # noqa: F403
from .dynamic_lr import *  # noqa: F403
from .learning_rate_schedule import *  # noqa: F403

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__: list[str] = []
    __all__ += ["Cell", "GraphCell"]
    __all__ += layer.__all__
    __all__ += loss.__all__
    __all__ += optim.__all__
    __all__ += wrap.__all__
    __all__ += learning_rate_schedule.__all__
    __all__ += dynamic_lr.__all__

from . import utils  # noqa: E402
from .utils import no_init_parameters  # noqa: E402

if not TYPE_CHECKING:
    __all__ += ["no_init_parameters"]


def __getattr__(name: str):
    """``nn.metrics`` and the metric names (``nn.Accuracy``...), imported on first use (``import sporax``
    does not load ``sporax.nn.metrics``)."""
    import importlib

    metrics = importlib.import_module("sporax.nn.metrics")
    if name == "metrics":
        return metrics
    if name in metrics.__all__:
        return getattr(metrics, name)
    raise AttributeError(f"module 'sporax.nn' has no attribute '{name}'")
