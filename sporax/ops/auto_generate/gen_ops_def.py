"""``mindspore.ops.auto_generate.gen_ops_def``: the operator functions (``relu``, ``add``...), sporax's
``ops.function``."""

from ..function import *  # noqa: F403
from ..function import __all__  # noqa: F401
