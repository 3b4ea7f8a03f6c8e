"""Higher-order ops: gradients (GradOperation, grad, value_and_grad, vjp, jvp, jacfwd, jacrev), vmap;
type-dispatched functions and maps (MultitypeFuncGraph, HyperMap, Map, partial)."""

from ._grad import GradOperation, get_grad, grad, jacfwd, jacrev, jvp, value_and_grad, vjp
from ._vmap import vmap
from ._higher_order import derivative, jet, linearize
from ._multitype import HyperMap, Map, MultitypeFuncGraph, Partial, partial
from ._graph_helpers import (  # noqa: F401  (MindSpore's composite helpers; only the _-names go to ops)
    _Grad,
    _Vmap,
    _ones_like_for_grad,
    add_flags,
    augassign_add,
    augassign_div,
    augassign_floordiv,
    augassign_mod,
    augassign_mul,
    augassign_sub,
    env_get,
    hyper_add,
    iter_converter,
    matmul,
    ms_hasnext,
    ms_next,
    ones_like,
    recompute_block,
    tail,
    zeros_like,
    zip_operation,
)

__all__ = ["GradOperation", "grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "vmap", "get_grad"]
__all__ += ["linearize", "derivative", "jet"]
__all__ += ["MultitypeFuncGraph", "HyperMap", "Map", "partial", "Partial", "_Grad", "_ones_like_for_grad"]

# mindspore.ops.composite also exposes these functional ops; the one implementation is in ops.function
_FROM_FUNCTION = (
    "batch_dot",
    "count_nonzero",
    "cummin",
    "dot",
    "gamma",
    "laplace",
    "mm",
    "multinomial",
    "normal",
    "poisson",
    "repeat_elements",
    "repeat_interleave",
    "sequence_mask",
    "tensor_dot",
    "uniform",
    "vecdot",
)


def __getattr__(name: str):
    if name in _FROM_FUNCTION:
        from .. import function

        return getattr(function, name)
    raise AttributeError(f"module 'sporax.ops.composite' has no attribute '{name}'")
