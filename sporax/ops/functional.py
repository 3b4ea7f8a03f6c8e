"""``mindspore.ops.functional`` (usually imported ``as F``): the functional ops under their classic names.

Everything in :mod:`sporax.ops.function` is here, plus MindSpore's long-standing aliases
(``F.tensor_add``, ``F.depend``, ``F.typeof``, ``F.partial``...) and the primitive instances older code
calls directly (``F.reduce_sum(x, axis)``).
"""

from __future__ import annotations

from typing import Any

from .composite import derivative, get_grad, grad, jacfwd, jacrev, jet, jvp, linearize, value_and_grad, vjp, vmap
from .composite._multitype import mixed_precision_cast
from .function import *  # noqa: F403
from .function import __all__ as _function_all
from .function import partial
from .operations import array_ops as _array_ops
from .operations import math_ops as _math_ops
from .operations._removed_ops import control_depend  # noqa: F401  (MindSpore 1.x F.control_depend; warns once)

__all__ = [
    *_function_all,
    "grad",
    "value_and_grad",
    "vjp",
    "jvp",
    "vmap",
    "jacfwd",
    "jacrev",
    "get_grad",
    "linearize",
    "derivative",
    "jet",
    "isconstant",
    "partial",
    "mixed_precision_cast",
    "reduce_prod",
    "Median",
    "Roll",
    "TensorToTuple",
    "reshape_",
    "shape_",
]

from .operations.nn_seq_ops import TensorToTuple, reshape_, shape_  # noqa: E402

# the tensor_* operator aliases and reduce_sum/reduce_mean/reduce_max/reduce_min are ops.function's
reduce_prod = _math_ops.ReduceProd()

# MindSpore's ops.functional also holds these two primitive classes
Median = _math_ops.Median
Roll = _array_ops.Roll


def isconstant(x: Any) -> bool:
    """Whether ``x`` is a compile-time constant (everything but a Tensor)."""
    from ..common.tensor import Tensor

    return not isinstance(x, Tensor)


from . import _graph_prims  # noqa: E402
from ._graph_prims import *  # noqa: E402, F403  (tuple_getitem, make_range, typeof, hastype, switch...)

__all__ += [n for n in _graph_prims.__all__ if n not in __all__]

from .operations.gather_scatter_ops import UniqueConsecutive  # noqa: E402  (MindSpore's F has the class)

__all__ += ["UniqueConsecutive"]

from .operations.conv_pool_ops import AdaptiveMaxPool2D  # noqa: E402  (MindSpore's F has the class)

__all__ += ["AdaptiveMaxPool2D"]

from ._sharding import reshard  # noqa: E402

__all__ += ["reshard"]
