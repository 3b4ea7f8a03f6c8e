"""``mindspore.ops.auto_generate``: where MindSpore's generated operator classes (``gen_ops_prim``) and
functions (``gen_ops_def``, ``gen_extend_func``) live. In sporax each name is the one implementation in
``ops.operations`` / ``ops.function``; these modules give them MindSpore's import paths."""

from typing import TYPE_CHECKING

from .. import _arg_dtype_cast as arg_dtype_cast
from .. import _arg_handler as arg_handler
from . import cpp_create_prim_instance_helper, gen_extend_func, gen_ops_def, gen_ops_prim, pyboost_inner_prim
from .gen_ops_def import *  # noqa: F403
from .gen_ops_prim import *  # noqa: F403

# mypy reads only literal __all__ lists: this computed one is kept from it (`if not TYPE_CHECKING`),
# so mypy takes the module's public names, which are the same names (star-imported).
if not TYPE_CHECKING:
    __all__ = [*gen_ops_prim.__all__, *(n for n in gen_ops_def.__all__ if n not in gen_ops_prim.__all__)]
    __all__ += ["arg_dtype_cast", "arg_handler"]
