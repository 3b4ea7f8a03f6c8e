"""``sporax.common``: Tensor, Parameter, dtypes, initializers, seed, jit."""

from . import dtype, initializer
from .api import jit, ms_function
from .dtype import *  # noqa: F403
from .parameter import Parameter, ParameterTuple
from .seed import get_seed, set_seed
from .tensor import COOTensor, CSRTensor, RowTensor, Tensor, is_tensor, tensor

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
    *dtype.__all__,
]
