"""``mindspore.ops.auto_generate.gen_ops_prim``: the operator classes (``ReLU``, ``Add``, ``ReduceSum``...),
sporax's ``ops.operations``."""

from typing import TYPE_CHECKING

from ..operations import *  # noqa: F403

if not TYPE_CHECKING:  # computed at import (mypy reads only literal lists and takes the star-imported names)
    from ..operations import __all__  # noqa: F401
