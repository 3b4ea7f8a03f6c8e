"""Wrapper cells: train steps, gradient reducers, loss scaling, gradient accumulation."""

from typing import TYPE_CHECKING

from . import cell_grad, cell_wrapper, grad_accumulation, grad_reducer, loss_scale, pipeline
from .cell_grad import Jvp, Vjp
from .cell_wrapper import *  # noqa: F403
from .grad_accumulation import GradAccumulationCell
from .grad_reducer import *  # noqa: F403
from .loss_scale import *  # noqa: F403
from .pipeline import *  # noqa: F403

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__: list[str] = []
    __all__ += ["GradAccumulationCell", "Jvp", "Vjp"]
    __all__ += cell_wrapper.__all__
    __all__ += grad_reducer.__all__
    __all__ += loss_scale.__all__
    __all__ += pipeline.__all__
