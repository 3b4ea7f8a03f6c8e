"""``sporax.common``: Tensor, Parameter, dtypes, initializers, seed, jit."""

from .. import _checkparam as _validator
from . import dtype, initializer
from .api import jit, jit_class, lazy_inline, ms_function, no_inline, recompute
from .dtype import *  # noqa: F403
from .generator import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    set_rng_state,
)
from .generator import seed as seed  # noqa: PLC0414  (the function shadows the submodule, as in MindSpore)
from ._runtime_helpers import Symbol, set_recursion_limit, swap_tensors
from .jit_config import JitConfig
from .parameter import Parameter, ParameterTuple
from .seed import get_seed, set_seed
from ._sparse_tensor import SparseTensor
from .tensor import COOTensor, CSRTensor, RowTensor, Tensor, from_numpy, is_tensor, tensor
from ._autograd_api import _Function, _no_grad, register_saved_tensors_hooks, saved_tensors_hooks
from ._runtime_api import (
    DeviceCtx,
    enable_dynamic,
    flops_collection,
    mindio_preload,
    ms_memory_recycle,
    set_dump,
    set_mindio_server_info,
)
from .dtype import TypeNull as _NullType
from .storage import UntypedStorage
from ._mindir_file import load_mindir, save_mindir

__all__ = [
    "Tensor",
    "Parameter",
    "ParameterTuple",
    "set_seed",
    "get_seed",
    "jit",
    "ms_function",
    "tensor",
    "is_tensor",
    "dtype",
    "initializer",
    "COOTensor",
    "CSRTensor",
    "RowTensor",
    "SparseTensor",
    "from_numpy",
    "jit_class",
    "lazy_inline",
    "no_inline",
    "recompute",
    "JitConfig",
    "Generator",
    "default_generator",
    "seed",
    "manual_seed",
    "initial_seed",
    "get_rng_state",
    "set_rng_state",
    "mutable",
    "Symbol",
    "set_recursion_limit",
    "swap_tensors",
    "_no_grad",
    "_Function",
    "_NullType",
    "saved_tensors_hooks",
    "register_saved_tensors_hooks",
    "DeviceCtx",
    "UntypedStorage",
    "enable_dynamic",
    "flops_collection",
    "mindio_preload",
    "set_mindio_server_info",
    "ms_memory_recycle",
    "set_dump",
    "save_mindir",
    "load_mindir",
    *dtype.__all__,
]


def mutable(input_data, dynamic_len: bool = False):
    """MindSpore's ``mutable``: mark a value as a variable input of a compiled function. Tensors already are;
    a tuple/list/dict of Tensors is returned as it is (its Tensors are inputs). Python numbers are constants of
    the compilation in sporax (MindSpore makes them variables; the results are the same)."""
    _validator.check_bool(dynamic_len, "dynamic_len", "mutable")
    return input_data
