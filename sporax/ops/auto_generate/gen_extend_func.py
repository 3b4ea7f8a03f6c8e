"""``mindspore.ops.auto_generate.gen_extend_func``: MindSpore's "extend" functions (the PyTorch-style
signatures ``mint`` uses); in sporax the functional ops of ``ops.function`` (``mint`` wraps them)."""

from ..function import *  # noqa: F403
from ..function import __all__  # noqa: F401
