"""``sporax.ops`` (``mindspore.ops``): the functional API, the operator classes and composite ops."""

from typing import TYPE_CHECKING

from . import composite, function, operations
from .composite import *  # noqa: F403
from .function import *  # noqa: F403
from .operations import *  # noqa: F403
from .operations import Primitive, constexpr, prim_attr_register
from . import _graph_prims
from ._graph_prims import *  # noqa: F403  (MindSpore's ops.tuple_getitem, ops.typeof... graph primitives)

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__: list[str] = []
    __all__ += function.__all__
    __all__ += operations.__all__
    __all__ += composite.__all__
    __all__ += [n for n in _graph_prims.__all__ if n not in __all__]
from ._sharding import reshard  # noqa: E402  (semi-auto parallel: a tensor's layout)

if not TYPE_CHECKING:
    __all__ += ["reshard"]

# MindSpore's ops namespace also holds composite's graph helpers, the compiler-internal primitives, the
# modules its operators are generated into (and ``P``, the operations package), the Hybrid kernel decorators
# and the vm_impl registry.
from .composite import (  # noqa: E402
    _Vmap,
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
    ms_hasnext,
    ms_next,
    recompute_block,
    tail,
    zip_operation,
)
from . import _compiler_prims, auto_generate, signature  # noqa: E402
from . import _arg_dtype_cast as arg_dtype_cast  # noqa: E402
from . import _arg_handler as arg_handler  # noqa: E402
from . import operations as P  # noqa: E402
from ._compiler_prims import *  # noqa: E402, F403
from ._vm_impl import get_vm_impl_fn, vm_impl_registry  # noqa: E402
from .auto_generate import (  # noqa: E402
    cpp_create_prim_instance_helper,
    gen_extend_func,
    gen_ops_def,
    gen_ops_prim,
    pyboost_inner_prim,
)
from .operations import array_ops, linalg_ops, other_ops  # noqa: E402
from .operations._ms_kernel import _ms_pyfunc, kernel, ms_kernel  # noqa: E402
from .operations._primitive import prim_arg_register  # noqa: E402

if not TYPE_CHECKING:  # an instance of Partial, as MindSpore's; to mypy the function of the same call
    from .operations.debug_ops import PARTIAL as partial
