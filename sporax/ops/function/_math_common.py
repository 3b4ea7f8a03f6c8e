"""What the math function modules share: the float-only unary op builder and dtype checks in MindSpore's
message forms. Private; imports nothing from the sibling ``*_func`` modules, so every one of them may use it."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import as_tensor_array, float_result, wrap

__all__ = ["float_unary", "dtype_name", "require_dtypes", "FLOAT_NAMES", "INT_NAMES", "COMPLEX_NAMES", "axis_arg"]

FLOAT_NAMES = frozenset({"Float16", "Float32", "Float64"})
INT_NAMES = frozenset({"Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"})
COMPLEX_NAMES = frozenset({"Complex64", "Complex128"})


def dtype_name(a: Any) -> str:
    """MindSpore's name of an array's dtype (``"Float32"``)."""
    return str(mstype.from_np(np.dtype(a.dtype)))


def require_dtypes(a: Any, valid: Any, arg: str, prim: str) -> Any:
    """``a`` unchanged when its dtype is among ``valid`` (MindSpore names), else MindSpore's TypeError."""
    validator.check_primitive_input_dtype(arg, dtype_name(a), valid, prim)
    return a


def float_unary(
    kernel: Any, name: str, prim: str | None = None, arg: str = "x", floats_only: bool = False, param: str = "input"
) -> Any:
    """An element-wise unary op on ``kernel``. Integer and bool inputs compute in float32 (MindSpore's rule
    for exp, log, sin...), or, with ``floats_only``, are refused with the message of MindSpore's primitive
    ``prim`` (the special functions: ``bessel_j0`` and friends accept only float tensors)."""

    if floats_only:

        def run(x: Any) -> Tensor:
            a = as_tensor_array(x)
            if not jnp.issubdtype(a.dtype, jnp.floating):
                require_dtypes(a, FLOAT_NAMES, arg, prim or name)
            return wrap(kernel(a))

    else:

        def run(x: Any) -> Tensor:
            return wrap(kernel(float_result(as_tensor_array(x))))

    def run_input(input: Any) -> Tensor:  # MindSpore names the argument ``input`` for most ops
        return run(input)

    op = run if param == "x" else run_input

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Element-wise ``{name}``" + (
        " (float tensors only)." if floats_only else " (integer inputs compute in float32)."
    )
    return op


def axis_arg(axis: Any) -> Any:
    """A reduction axis as jnp takes it: None (all), an int, or a tuple (an empty one means all)."""
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        return None if len(axis) == 0 else tuple(int(a) for a in axis)
    if isinstance(axis, Tensor):
        v = axis.asnumpy()
        return int(v) if v.ndim == 0 else (tuple(int(i) for i in v) or None)
    return int(axis)
