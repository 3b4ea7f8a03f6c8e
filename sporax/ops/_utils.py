"""What every op shares: unwrapping arguments, MindSpore's type promotion, wrapping results, errors.

Promotion (MindSpore 2.x, as in PyTorch): two tensors promote to the wider type of the two
(``jnp.promote_types``); a Python number adapts to the tensor (int tensor + float number -> float32,
bool tensor + int number -> int64, anything else keeps the tensor's dtype). NumPy scalars count as
Python numbers, NumPy arrays as tensors.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .._checkparam import check_axis  # noqa: F401  (re-exported: the ops import their checks from here)
from .._checkparam import check_int_arg as check_int  # noqa: F401
from .._engine import jax, jnp
from ..common import dtype as mstype
from ..common.tensor import Tensor, to_array

__all__ = [
    "compiled_op",
    "arr",
    "wrap",
    "wrap_tree",
    "promote",
    "as_tensor_array",
    "scalar_array",
    "is_number",
    "check_int",
    "check_axis",
    "np_dtype",
    "float_result",
    "check_broadcast",
]


def arr(x: Any) -> Any:
    """The array inside a Tensor; other values pass through."""
    return x._data if isinstance(x, Tensor) else x


def wrap(a: Any) -> Tensor:
    return Tensor._from_data(a)


def wrap_tree(tree: Any) -> Any:
    return jax.tree_util.tree_map(wrap, tree)


def is_number(x: Any) -> bool:
    return isinstance(x, (numbers.Number, np.generic)) and not isinstance(x, (np.ndarray,))


def np_dtype(dtype: Any) -> np.dtype:
    return mstype.to_np(dtype)


def _scalar_dtype(value: Any, tensor_dtype: np.dtype) -> np.dtype:
    """The dtype a Python number takes next to a tensor of ``tensor_dtype``."""
    k = tensor_dtype.kind
    if isinstance(value, (bool, np.bool_)):
        return tensor_dtype
    if isinstance(value, (numbers.Integral, np.integer)):
        return np.dtype(np.int64) if k == "b" else tensor_dtype
    if isinstance(value, (numbers.Real, np.floating)):
        return tensor_dtype if k in "fcV" and tensor_dtype != np.dtype(bool) else np.dtype(np.float32)
    return tensor_dtype if k == "c" else np.dtype(np.complex64)


def scalar_array(value: Any, dtype: Any) -> Any:
    return jnp.asarray(value, dtype=dtype)


def as_tensor_array(x: Any) -> Any:
    """A tensor operand as an array (numbers get MindSpore's default dtypes)."""
    if isinstance(x, Tensor):
        return x._data
    if isinstance(x, jax.Array) or isinstance(x, jax.core.Tracer):
        return x
    return to_array(x.item() if isinstance(x, np.generic) else x)


def promote(a: Any, b: Any, op: str | None = None) -> tuple[Any, Any]:
    """Both operands as arrays of their common dtype; with ``op``, shapes that do not broadcast raise
    MindSpore's ValueError naming the op."""
    x, y = _promote(a, b)
    if op is not None and x.shape != y.shape:
        check_broadcast(x.shape, y.shape, op)
    return x, y


def check_broadcast(sa: Any, sb: Any, op: str) -> tuple[int, ...]:
    """The broadcast shape of ``sa`` and ``sb``, or MindSpore's ValueError."""
    try:
        return tuple(np.broadcast_shapes(tuple(sa), tuple(sb)))
    except ValueError:
        raise ValueError(
            f"For '{op}', x.shape and y.shape need to broadcast, but got x.shape = {list(sa)} and y.shape = {list(sb)}."
        ) from None


def _promote(a: Any, b: Any) -> tuple[Any, Any]:
    a_num, b_num = is_number(a), is_number(b)
    if a_num and b_num:
        a, b = to_array(_py(a)), to_array(_py(b))
        dt = jnp.promote_types(a.dtype, b.dtype)
        return a.astype(dt), b.astype(dt)
    if a_num:
        bb = as_tensor_array(b)
        dt = _scalar_dtype(a, np.dtype(bb.dtype))
        return _scalar_as(a, dt), bb.astype(dt) if bb.dtype != dt else bb
    if b_num:
        aa = as_tensor_array(a)
        dt = _scalar_dtype(b, np.dtype(aa.dtype))
        return aa.astype(dt) if aa.dtype != dt else aa, _scalar_as(b, dt)
    aa, bb = as_tensor_array(a), as_tensor_array(b)
    if aa.dtype == bb.dtype:
        return aa, bb
    dt = jnp.promote_types(aa.dtype, bb.dtype)
    return aa.astype(dt), bb.astype(dt)


def _scalar_as(value: Any, dt: np.dtype) -> Any:
    """A Python number as a NumPy 0-d array of ``dt`` (a constant: eagerly no device transfer of its own,
    under a trace folded into the program). Integers out of range wrap around (as a cast in MindSpore),
    floats out of a narrow float's range become inf, neither with a NumPy error or warning."""
    v = _py(value)
    if dt.kind in "iu" and isinstance(v, int) and not isinstance(v, bool):
        info = np.iinfo(dt)
        if not info.min <= v <= info.max:
            return np.array(v & ((1 << info.bits) - 1), np.uint64).astype(dt)
    elif isinstance(v, float) and math.isfinite(v) and dt.itemsize < 4:
        with np.errstate(over="ignore"):
            return np.asarray(v, np.float32).astype(dt)
    return np.asarray(v, dtype=dt)


def _py(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x


def float_result(a: Any) -> Any:
    """Integer/bool arrays become float32 (MindSpore's rule for division, sqrt, exp...)."""
    return a if jnp.issubdtype(a.dtype, jnp.inexact) else a.astype(jnp.float32)


def _silent(msg: str) -> None:
    pass


def compiled_op(fn: Any) -> Any:
    """Run the functional op ``fn`` as one compiled program when called eagerly.

    Tensors are its inputs; other arguments (reduction, axis, flags) are constants of the compilation,
    so use it for ops whose non-tensor arguments are configuration, not data. Eagerly this is one
    dispatch instead of one per jnp call, and the op compiles to the same fusion as inside a
    GRAPH_MODE program, so PyNative and GRAPH_MODE give the same bits (XLA:CPU contracts a multiply
    feeding an add into an FMA inside a fusion, which op-by-op execution cannot). Inside a trace the op
    is simply inlined. Ops that cannot be traced for some input run eagerly from then on.
    """
    import functools

    from .._engine import StatefulJit

    jitted = StatefulJit(fn, name=fn.__name__, warn=_silent)

    @functools.wraps(fn)
    def op(*args: Any, **kwargs: Any) -> Any:
        return jitted(*args, **kwargs)

    return op
