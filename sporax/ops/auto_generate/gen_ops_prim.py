"""``mindspore.ops.auto_generate.gen_ops_prim``: the operator classes (``ReLU``, ``Add``, ``ReduceSum``...),
sporax's ``ops.operations``."""

from ..operations import *  # noqa: F403
from ..operations import __all__  # noqa: F401
