"""``sporax.communication`` (``mindspore.communication``): the process group of data-parallel training and
its collectives. See ``management`` and ``comm_func``; ``sporax launch -n N script.py`` starts the ranks.
"""

from typing import TYPE_CHECKING

from . import comm_func, management
from .management import *  # noqa: F403

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__ = list(management.__all__) + ["comm_func"]
