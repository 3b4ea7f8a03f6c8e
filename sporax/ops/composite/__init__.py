"""Higher-order ops: gradients (GradOperation, grad, value_and_grad, vjp, jvp, jacfwd, jacrev), vmap."""

from ._grad import GradOperation, get_grad, grad, jacfwd, jacrev, jvp, value_and_grad, vjp, vmap

__all__ = ["GradOperation", "grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "vmap", "get_grad"]
