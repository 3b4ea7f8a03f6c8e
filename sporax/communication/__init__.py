"""``sporax.communication`` (``mindspore.communication``): the process group of data-parallel training and
its collectives. See ``management`` and ``comm_func``; ``sporax launch -n N script.py`` starts the ranks.
"""

from . import comm_func, management
from .management import *  # noqa: F403

__all__ = list(management.__all__) + ["comm_func"]
