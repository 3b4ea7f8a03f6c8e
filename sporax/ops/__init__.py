"""``sporax.ops`` (``mindspore.ops``): the functional API, the operator classes and composite ops."""

from . import composite, function, operations
from .composite import *  # noqa: F403
from .function import *  # noqa: F403
from .operations import *  # noqa: F403
from .operations import Primitive, constexpr, prim_attr_register
from . import _graph_prims
from ._graph_prims import *  # noqa: F403  (MindSpore's ops.tuple_getitem, ops.typeof... graph primitives)

__all__: list[str] = []
__all__ += function.__all__
__all__ += operations.__all__
__all__ += composite.__all__
__all__ += [n for n in _graph_prims.__all__ if n not in __all__]
from ._sharding import reshard  # noqa: E402  (semi-auto parallel: a tensor's layout)

__all__ += ["reshard"]
