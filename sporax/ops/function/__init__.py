"""``mindspore.ops`` functional API (``ops.add``, ``ops.relu``, ...)."""

from typing import TYPE_CHECKING

from . import array_func, linalg_func, math_func, nn_func, random_func
from .array_func import *  # noqa: F403
from .linalg_func import *  # noqa: F403
from .math_func import *  # noqa: F403
from .nn_func import *  # noqa: F403
from .random_func import *  # noqa: F403
from . import sparse_func, sparse_unary_func, spectral_func
from .sparse_func import *  # noqa: F403
from .sparse_unary_func import *  # noqa: F403
from .spectral_func import *  # noqa: F403
from . import activation_func, ctc_func, loss_func, margin_loss_func
from .activation_func import *  # noqa: F403
from .ctc_func import *  # noqa: F403
from .loss_func import *  # noqa: F403
from .margin_loss_func import *  # noqa: F403

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__: list[str] = []
    __all__ += array_func.__all__
    __all__ += linalg_func.__all__
    __all__ += math_func.__all__
    __all__ += nn_func.__all__
    __all__ += random_func.__all__
    __all__ += spectral_func.__all__ + sparse_func.__all__ + sparse_unary_func.__all__
    __all__ += [
        n
        for n in activation_func.__all__ + loss_func.__all__ + margin_loss_func.__all__ + ctc_func.__all__
        if n not in __all__
    ]

from . import attention_func, dense_func, dropout_func, embedding_func, moe_func, nn_extra_func, norm_func  # noqa: E402
from .attention_func import *  # noqa: E402, F403
from .moe_func import *  # noqa: E402, F403
from .dense_func import *  # noqa: E402, F403
from .dropout_func import *  # noqa: E402, F403
from .embedding_func import *  # noqa: E402, F403
from .nn_extra_func import *  # noqa: E402, F403
from .norm_func import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += norm_func.__all__ + dropout_func.__all__ + embedding_func.__all__ + dense_func.__all__
    __all__ += [n for n in nn_extra_func.__all__ + attention_func.__all__ + moe_func.__all__ if n not in __all__]

from . import conv_pool_func  # noqa: E402
from .conv_pool_func import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in conv_pool_func.__all__ if n not in __all__]

from . import comm_func, comm_p2p_func  # noqa: E402
from .comm_func import *  # noqa: E402, F403
from .comm_p2p_func import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += comm_func.__all__ + comm_p2p_func.__all__

from ._registry import tensor_operator_registry  # noqa: E402

if not TYPE_CHECKING:
    __all__ += ["tensor_operator_registry"]

from . import debug_func  # noqa: E402
from .debug_func import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in debug_func.__all__ if n not in __all__]

from . import scalar_func  # noqa: E402
from .scalar_func import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in scalar_func.__all__ if n not in __all__]

from . import other_func  # noqa: E402
from .other_func import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in other_func.__all__ if n not in __all__]

from . import fft_func, misc_math_func  # noqa: E402
from .fft_func import *  # noqa: E402, F403
from .misc_math_func import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in fft_func.__all__ + misc_math_func.__all__ if n not in __all__]


_COMPOSITE = (
    "grad",
    "value_and_grad",
    "jacfwd",
    "jacrev",
    "jvp",
    "vjp",
    "vmap",
    "get_grad",
    "linearize",
    "derivative",
    "jet",
)


def __getattr__(name: str):
    """MindSpore's primitive instances ``reshape_``/``shape_`` (defined with the operator classes, which import
    this package: looked up on first use)."""
    if name in ("reshape_", "shape_"):
        from ..operations import nn_seq_ops

        return getattr(nn_seq_ops, name)
    if name in _COMPOSITE:  # MindSpore's ops.function.grad etc.: the one implementation is in ops.composite
        from .. import composite

        return getattr(composite, name)
    raise AttributeError(f"module 'sporax.ops.function' has no attribute '{name}'")


from . import patch_func  # noqa: E402
from .patch_func import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in patch_func.__all__ if n not in __all__]

from .._sharding import reshard  # noqa: E402  (semi-auto parallel: a tensor's layout)

if not TYPE_CHECKING:
    __all__ += ["reshard"]

# MindSpore's ops.function also holds the sparse-tensor field primitives and stop_gradient_
from .._compiler_prims import (  # noqa: E402, F401
    coo_tensor_get_dense_shape,
    coo_tensor_get_indices,
    coo_tensor_get_values,
    csr_tensor_get_dense_shape,
    csr_tensor_get_indices,
    csr_tensor_get_indptr,
    csr_tensor_get_values,
    make_coo_tensor,
    make_csr_tensor,
    make_row_tensor_inner,
    row_tensor_get_dense_shape,
    row_tensor_get_indices,
    row_tensor_get_values,
)
from .._graph_prims import stop_gradient_  # noqa: E402, F401
