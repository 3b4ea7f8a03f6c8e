"""MindSpore's operator classes (``ops.ReLU()``, ``ops.ReduceMean(keep_dims=True)``, ``ops.MatMul()``...).

Each class keeps its construction arguments as attributes and delegates to the functional op.
"""

from typing import TYPE_CHECKING

from ._primitive import Primitive, PrimitiveWithCheck, PrimitiveWithInfer, constexpr, prim_attr_register
from .array_ops import *  # noqa: F403
from .comm_ops import AllGather, AllReduce, Barrier, Broadcast, ReduceOp, ReduceScatter
from .math_ops import *  # noqa: F403
from .nn_ops import *  # noqa: F403
from .random_ops import *  # noqa: F403
from .activation_ops import *  # noqa: F403
from .loss_ops import *  # noqa: F403
from . import activation_ops, array_ops, comm_ops, loss_ops, math_ops, nn_ops, random_ops

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__ = (
        ["Primitive", "PrimitiveWithCheck", "PrimitiveWithInfer", "constexpr", "prim_attr_register"]
        + array_ops.__all__
        + ["AllGather", "AllReduce", "Barrier", "Broadcast", "ReduceOp", "ReduceScatter"]
        + math_ops.__all__
        + nn_ops.__all__
        + random_ops.__all__
        + activation_ops.__all__
        + loss_ops.__all__
    )

from . import conv_pool_ops  # noqa: E402
from .conv_pool_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in conv_pool_ops.__all__ if n not in __all__]

from . import _comm_prims  # noqa: E402
from ._comm_prims import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += _comm_prims.__all__

from . import custom_ops  # noqa: E402
from .custom_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += custom_ops.__all__

from . import gather_scatter_ops  # noqa: E402
from .gather_scatter_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in gather_scatter_ops.__all__ if n not in __all__]

from . import array_layout_ops  # noqa: E402
from .array_layout_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    # Not in __all__: ops.identity is the function. mypy cannot read the computed __all__ and would star-import
    # every public name of this module into ops, the class over the function.
    from .array_layout_ops import identity

if not TYPE_CHECKING:
    __all__ += [n for n in array_layout_ops.__all__ if n not in __all__]

from . import debug_ops  # noqa: E402
from .debug_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in debug_ops.__all__ if n not in __all__]

from . import nn_seq_ops  # noqa: E402
from .nn_seq_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in nn_seq_ops.__all__ if n not in __all__]

from . import linalg_ops  # noqa: E402
from .linalg_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in linalg_ops.__all__ if n not in __all__]

from . import float_status_ops, index_ops  # noqa: E402
from .float_status_ops import *  # noqa: E402, F403
from .index_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += float_status_ops.__all__ + [n for n in index_ops.__all__ if n not in __all__]

from . import other_ops  # noqa: E402
from .other_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in other_ops.__all__ if n not in __all__]

from . import image_ops  # noqa: E402
from .image_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in image_ops.__all__ if n not in __all__]

# Names MindSpore 2.x removed that programs still use: MindSpore 1.x's behaviour, a one-time DeprecationWarning
from ._removed_ops import ControlDepend, Sum  # noqa: E402

if not TYPE_CHECKING:
    __all__ += ["ControlDepend", "Sum"]

from . import misc_math_ops  # noqa: E402
from .misc_math_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in misc_math_ops.__all__ if n not in __all__]

from . import sparse_ops  # noqa: E402
from .sparse_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in sparse_ops.__all__ if n not in __all__]

from . import rnn_ops  # noqa: E402
from .rnn_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in rnn_ops.__all__ if n not in __all__]

from . import detection_ops  # noqa: E402
from .detection_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in detection_ops.__all__ if n not in __all__]

from . import optim_ops  # noqa: E402
from .optim_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += [n for n in optim_ops.__all__ if n not in __all__]

from ._ms_kernel import _ms_pyfunc, kernel, ms_kernel  # noqa: E402, F401  (MindSpore's operations holds them)

from . import adafactor_ops, sample_box_ops  # noqa: E402
from .adafactor_ops import *  # noqa: E402, F403
from .sample_box_ops import *  # noqa: E402, F403

if not TYPE_CHECKING:
    __all__ += adafactor_ops.__all__ + sample_box_ops.__all__
