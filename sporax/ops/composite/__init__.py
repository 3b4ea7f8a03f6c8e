"""Higher-order ops: gradients (GradOperation, grad, value_and_grad, vjp, jvp, jacfwd, jacrev), vmap;
type-dispatched functions and maps (MultitypeFuncGraph, HyperMap, Map, partial)."""

from ._grad import GradOperation, get_grad, grad, jacfwd, jacrev, jvp, value_and_grad, vjp
from ._vmap import vmap
from ._higher_order import derivative, jet, linearize
from ._multitype import HyperMap, Map, MultitypeFuncGraph, Partial, partial

__all__ = ["GradOperation", "grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "vmap", "get_grad"]
__all__ += ["linearize", "derivative", "jet"]
__all__ += ["MultitypeFuncGraph", "HyperMap", "Map", "partial", "Partial"]
