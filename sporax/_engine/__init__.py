"""The JAX boundary. Everything outside ``_engine`` (and op kernels in ``ops``) reaches JAX through here.

x64 is switched on at import: MindSpore has float64 and int64, and framework code always passes
explicit dtypes, so no float64 compute sneaks into a float32 step. malloc is set up for XLA's scratch memory
at import (``_malloc``). Under ``sporax launch`` the process
joins the data-parallel group at import (``_parallel``).
"""

import jax

from . import _malloc

jax.config.update("jax_enable_x64", True)
_malloc.tune()  # keep XLA's per-call scratch memory in the heap (see _malloc; SPORAX_MALLOC_TUNING=0: off)

# A rank started by `sporax launch` joins its process group before anything (this package's imports
# included) touches a device: jax.distributed must come first.
from . import _mesh  # noqa: E402

if _mesh.launched():
    _mesh.join()

import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

from . import _concrete as concrete  # noqa: E402
from . import _state as state  # noqa: E402
from ._autograph import run_if, traced_text  # noqa: E402
from ._autodiff import custom_vjp_call, ones_cotangent, remat_call, vjp_stateful, zeros_cotangent  # noqa: E402
from ._device import to_device  # noqa: E402
from ._errors import TRACE_ERRORS, is_trace_error  # noqa: E402
from ._jit import StatefulJit, request_compiler_options, warn_user  # noqa: E402
from ._loops import scan_steps  # noqa: E402
from . import _parallel  # noqa: E402

if _mesh.launched():
    _parallel.initialize()  # the first collective connects the ranks

__all__ = [
    "jax",
    "jnp",
    "lax",
    "state",
    "concrete",
    "StatefulJit",
    "request_compiler_options",
    "scan_steps",
    "to_device",
    "TRACE_ERRORS",
    "is_trace_error",
    "warn_user",
    "vjp_stateful",
    "custom_vjp_call",
    "remat_call",
    "ones_cotangent",
    "zeros_cotangent",
    "is_tracer",
    "traced_text",
    "run_if",
]


def is_tracer(x) -> bool:
    return isinstance(x, jax.core.Tracer)
