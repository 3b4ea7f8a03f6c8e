"""``mindspore.ops.functional`` (usually imported ``as F``): the functional ops under their classic names.

Everything in :mod:`sporax.ops.function` is here, plus MindSpore's long-standing aliases
(``F.tensor_add``, ``F.depend``, ``F.typeof``, ``F.partial``...) and the primitive instances older code
calls directly (``F.reduce_sum(x, axis)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .composite import derivative, get_grad, grad, jacfwd, jacrev, jet, jvp, linearize, value_and_grad, vjp, vmap
from .composite._multitype import mixed_precision_cast
from .function import *  # noqa: F403
from .function import __all__ as _function_all
from .function import partial
from .operations import array_ops as _array_ops
from .operations import math_ops as _math_ops
from .operations._removed_ops import control_depend  # noqa: F401  (MindSpore 1.x F.control_depend; warns once)

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
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

if not TYPE_CHECKING:
    __all__ += [n for n in _graph_prims.__all__ if n not in __all__]

from .operations.gather_scatter_ops import UniqueConsecutive  # noqa: E402  (MindSpore's F has the class)

if not TYPE_CHECKING:
    __all__ += ["UniqueConsecutive"]

from .operations.conv_pool_ops import AdaptiveMaxPool2D  # noqa: E402  (MindSpore's F has the class)

if not TYPE_CHECKING:
    __all__ += ["AdaptiveMaxPool2D"]

from ._sharding import reshard  # noqa: E402

if not TYPE_CHECKING:
    __all__ += ["reshard"]

# MindSpore's F also holds the compiler-internal primitives, P and the operations modules; F.partial is the
# Partial primitive instance ops.partial is
from . import _compiler_prims, auto_generate  # noqa: E402, F401
from . import operations as P  # noqa: E402, F401
from ._compiler_prims import *  # noqa: E402, F403
from .operations import array_ops, linalg_ops, other_ops  # noqa: E402, F401

if not TYPE_CHECKING:  # an instance of Partial, as MindSpore's; to mypy the function of the same call
    from .operations.debug_ops import PARTIAL as partial

if not TYPE_CHECKING:
    __all__ += [n for n in _compiler_prims.__all__ if n not in __all__]
