"""Metrics (MindSpore's ``mindspore.train.metrics``): the objects of :mod:`sporax.nn.metrics`, where their code
lives (below both ``nn`` and ``train``)."""

from typing import TYPE_CHECKING

from ...nn.metrics import *  # noqa: F403
from ...nn.metrics import TRAIN_METRICS_ALL, __factory__, get_metrics  # noqa: F401  (MindSpore's names here)

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__ = TRAIN_METRICS_ALL
