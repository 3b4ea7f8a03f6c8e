"""Reductions, cumulative ops and statistics (``mindspore.ops`` functional): ``sum``, ``mean``, ``max``,
``cumsum``, ``median``, ``quantile``, ``histc``, the vector and matrix norms...

Reductions take ``axis`` as None, an int or a tuple (an empty tuple reduces every axis, as MindSpore's
``ReduceSum``); integer inputs of the float-valued statistics (mean, std, norms) compute in float32.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._engine import jax, jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black
from .._utils import arr, as_tensor_array, check_axis, compiled_op, float_result, np_dtype, promote, wrap
from ._math_common import axis_arg, require_dtypes

__all__ = [
    "sum",
    "tensor_sum",
    "mean",
    "prod",
    "amax",
    "amin",
    "max",
    "min",
    "tensor_max",
    "tensor_min",
    "argmax",
    "argmin",
    "all",
    "any",
    "std",
    "var",
    "tensor_std",
    "tensor_var",
    "logsumexp",
    "cumsum",
    "tensor_cumsum",
    "cumprod",
    "norm",
    "count_nonzero",
    "square_sum",
    "nansum",
    "nanmean",
    "std_mean",
    "var_mean",
    "median",
    "nanmedian",
    "quantile",
    "nanquantile",
    "cummax",
    "cummin",
    "logcumsumexp",
    "diff",
    "diff_ext",
    "histc",
    "bucketize",
    "cov",
    "vecdot",
    "vector_norm",
    "matrix_norm",
    "renorm",
]

_logsumexp = jax.jit(lambda a, axis, keepdims: jax.nn.logsumexp(a, axis=axis, keepdims=keepdims), static_argnums=(1, 2))

# ---------------------------------------------------------------- reductions
_axis = axis_arg


def _kernel(fn: Any, with_dtype: bool = False) -> Any:
    """``fn(a, axis=, keepdims=[, dtype=])`` pre-compiled with the configuration static: eagerly one dispatch of
    the compiled program (jnp's reductions parse their arguments in Python first); inlined under a trace."""
    if with_dtype:
        return jax.jit(lambda a, ax, keep, dt: fn(a, axis=ax, keepdims=keep, dtype=dt), static_argnums=(1, 2, 3))
    return jax.jit(lambda a, ax, keep: fn(a, axis=ax, keepdims=keep), static_argnums=(1, 2))


def _reduce(kernel: Any, a: Any, axis: Any, prim: str, *args: Any, **kw: Any) -> Any:
    """``kernel(a, axis, *args)`` (a :func:`_kernel`), or ``kernel(a, axis=..., **kw)``; an axis outside the
    input's dims raises MindSpore's ValueError naming ``prim`` (checked only when the kernel refuses it, so the
    common call pays nothing)."""
    ax = _axis(axis)
    try:
        return kernel(a, ax, *args) if args else kernel(a, axis=ax, **kw)
    except (ValueError, IndexError):
        n = a.ndim if a.ndim > 1 else 1  # (this module's max/min/sum/all/any are the ops)
        for v in (ax,) if isinstance(ax, int) else ax or ():
            if not -n <= v < n:
                raise ValueError(f"For primitive[{prim}], the axis value must be in [{-n},{n}), but got {v}.") from None
        raise


@amp_black
def sum(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Sum over ``dim`` (all dims when None)."""
    a = _int64_accumulator(as_tensor_array(input), dtype)
    return wrap(_reduce(_sum_k, a, dim, "ReduceSum", keepdim, a.dtype))


def _int64_accumulator(a: Any, dtype: Any) -> Any:
    """``a`` in ``dtype``, or, without one, an integer or bool input widened to Int64: MindSpore 2.10's
    ``ops.sum``/``ops.prod`` (SumExt/ProdExt) of Int8...Int32, UInt8 and Bool give Int64."""
    if dtype is not None:
        return a.astype(np_dtype(dtype))
    dt = a.dtype
    if dt.kind in "biu" and dt.itemsize < 8:
        return a.astype(jnp.int64)
    return a


def _reduce_keep_dtype(kernel: Any, bool_kernel: Any, x: Any, axis: Any, keep_dims: bool, prim: str) -> Tensor:
    """``ReduceSum``/``ReduceProd``/``reduce_sum``: the reduction in the input's dtype, as MindSpore's
    primitives (a Bool input reduces to Bool: any for a sum, all for a product)."""
    a = as_tensor_array(x)
    if a.dtype == np.bool_:
        return wrap(_reduce(bool_kernel, a, axis, prim, keep_dims))
    return wrap(_reduce(kernel, a, axis, prim, keep_dims, a.dtype))


def reduce_sum_keep_dtype(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """``ReduceSum()(x, axis)``'s kernel: the sum in the input's dtype (Bool: any)."""
    return _reduce_keep_dtype(_sum_k, _any_k, x, axis, keep_dims, "ReduceSum")


@amp_black  # ReduceProd is on MindSpore's float32 list of amp_level="auto" (ReduceSum is not)
def reduce_prod_keep_dtype(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """``ReduceProd()(x, axis)``'s kernel: the product in the input's dtype (Bool: all)."""
    return _reduce_keep_dtype(_prod_k, _all_k, x, axis, keep_dims, "ReduceProd")


def tensor_sum(input: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:
    """``Tensor.sum``: NumPy's argument order, with ``initial`` added to the sum."""
    out = sum(input, axis, keepdims, dtype=dtype)
    if initial is None:
        return out
    a, b = promote(out, initial)
    return wrap(a + b)


def mean(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Mean over ``axis`` (all when None or ``()``). An integer input gives its own dtype, the mean truncated
    towards zero, as MindSpore 2.10's ReduceMean; a Bool input is refused as there."""
    a = as_tensor_array(x)
    if a.dtype.kind in "iu":
        return wrap(_reduce(_int_mean_k, a, axis, "ReduceMean", keep_dims))
    if a.dtype == np.bool_:
        raise RuntimeError("For 'ReduceMean', unsupported reduce operation for bool.")
    return wrap(_reduce(_mean_k, a, axis, "ReduceMean", keep_dims))


def _int_mean(a: Any, axis: Any, keepdims: bool) -> Any:
    total = jnp.sum(a, axis=axis, keepdims=keepdims, dtype=jnp.int64)
    count = a.size // total.size if a.size and total.size else 1
    return lax.div(total, jnp.int64(count)).astype(a.dtype)


_sum_k = _kernel(jnp.sum, with_dtype=True)
_prod_k = _kernel(jnp.prod, with_dtype=True)
_mean_k = _kernel(jnp.mean)
_int_mean_k = _kernel(_int_mean)
_any_k = _kernel(jnp.any)
_all_k = _kernel(jnp.all)


@amp_black
def prod(input: Any, axis: Any = None, keep_dims: bool = False, dtype: Any = None) -> Tensor:
    """Product over ``axis`` (all when None or ``()``); integer and Bool inputs give Int64 unless ``dtype``
    says otherwise, as MindSpore 2.10."""
    a = _int64_accumulator(as_tensor_array(input), dtype)
    return wrap(_reduce(_prod_k, a, axis, "ReduceProd", keep_dims, a.dtype))


def _extreme(reduce: Any, input: Any, axis: Any, keepdims: bool, initial: Any, where: Any, prim: str) -> Tensor:
    a = as_tensor_array(input)
    kw: dict[str, Any] = {}
    if initial is not None:
        kw["initial"] = arr(initial)
    if where is not None:
        kw["where"] = as_tensor_array(where)
    return wrap(_reduce(reduce, a, axis, prim, keepdims=keepdims, **kw))


def amax(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Tensor:
    """Maximum over ``axis`` (all when None or ``()``); ``initial`` is the starting value and must be given with
    ``where`` (the elements to compare)."""
    return _extreme(jnp.max, input, axis, keepdims, initial, where, "ReduceMax")


def amin(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Tensor:
    """Minimum over ``axis`` (all when None or ``()``); see :func:`amax`."""
    return _extreme(jnp.min, input, axis, keepdims, initial, where, "ReduceMin")


def _max_min(input: Any, axis: Any, keepdims: bool, initial: Any, where: Any, largest: bool, op: str) -> Any:
    a = as_tensor_array(input)
    reduce, arg = (jnp.max, jnp.argmax) if largest else (jnp.min, jnp.argmin)
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, (int, np.integer))):
        raise TypeError(f"For '{op}', the 'axis' must be an int or None, but got {type(axis).__name__}.")
    if not isinstance(keepdims, bool):
        raise TypeError(f"For '{op}', the 'keepdims' must be a bool, but got {type(keepdims).__name__}.")
    if a.size == 0 and initial is None:
        raise ValueError(f"For '{op}', the 'input' is empty, so the keyword argument 'initial' must be given.")
    ax = None if axis is None or a.ndim == 0 else check_axis(axis, a.ndim, op)
    kw: dict[str, Any] = {}
    masked = a
    if initial is not None:
        kw["initial"] = initial
    if where is not None:
        if initial is None:
            raise ValueError(f"For '{op}', the keyword argument 'initial' must be given together with 'where'.")
        w = jnp.broadcast_to(as_tensor_array(where), a.shape)
        kw["where"] = w
        masked = jnp.where(w, a, jnp.asarray(initial, a.dtype))
    keep = keepdims and axis is not None
    values = reduce(a, axis=ax, keepdims=keep, **kw)
    index = arg(masked, axis=ax, keepdims=keep).astype(jnp.int64) if a.ndim else jnp.zeros((), jnp.int64)
    return wrap(values), wrap(index)


def max(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Any:
    """Maximum over ``axis`` and its index: ``(values, indices)`` (MindSpore 2.x).

    With ``axis`` None the maximum of all elements and its index in the flattened input.
    Returns:
        tuple(Tensor, Tensor): the values (input's dtype) and the indices (Int64).
    """
    return _max_min(input, axis, keepdims, initial, where, True, "max")


def min(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Any:
    """Minimum over ``axis`` and its index: ``(values, indices)`` (MindSpore 2.x)."""
    return _max_min(input, axis, keepdims, initial, where, False, "min")


def tensor_max(
    input: Any,
    axis: Any = None,
    keepdims: bool = False,
    *,
    initial: Any = None,
    where: Any = None,
    return_indices: bool = False,
) -> Any:
    """``Tensor.max``: values only unless ``return_indices``."""
    return _tensor_extreme(jnp.max, jnp.argmax, input, axis, keepdims, initial, where, return_indices)


def tensor_min(
    input: Any,
    axis: Any = None,
    keepdims: bool = False,
    *,
    initial: Any = None,
    where: Any = None,
    return_indices: bool = False,
) -> Any:
    """``Tensor.min``: values only unless ``return_indices``."""
    return _tensor_extreme(jnp.min, jnp.argmin, input, axis, keepdims, initial, where, return_indices)


def _tensor_extreme(
    reduce: Any, arg: Any, input: Any, axis: Any, keepdims: bool, initial: Any, where: Any, return_indices: bool
) -> Any:
    a = as_tensor_array(input)
    kw: dict[str, Any] = {}
    if initial is not None:
        kw["initial"] = initial
    if where is not None:
        kw["where"] = arr(where)
    vals = wrap(reduce(a, axis=_axis(axis), keepdims=keepdims, **kw))
    if return_indices:
        return vals, wrap(arg(a, axis=_axis(axis), keepdims=keepdims).astype(jnp.int64))
    return vals


def argmax(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Index of the maximum (Int64), over the flattened input when ``dim`` is None."""
    a = as_tensor_array(input)
    return wrap(jnp.argmax(a, axis=None if dim is None else int(dim), keepdims=keepdim).astype(jnp.int64))


def argmin(input: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    a = as_tensor_array(input)
    return wrap(jnp.argmin(a, axis=None if axis is None else int(axis), keepdims=keepdims).astype(jnp.int64))


def all(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return wrap(_reduce(_all_k, as_tensor_array(input), axis, "ReduceAll", keep_dims))


def any(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return wrap(_reduce(_any_k, as_tensor_array(input), axis, "ReduceAny", keep_dims))


def std(input: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    a = float_result(as_tensor_array(input))
    return wrap(jnp.std(a, axis=_axis(axis), ddof=ddof, keepdims=keepdims))


@amp_black
def var(input: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    a = float_result(as_tensor_array(input))
    return wrap(jnp.var(a, axis=_axis(axis), ddof=ddof, keepdims=keepdims))


tensor_std = std
tensor_var = var


@amp_black
def logsumexp(input: Any, dim: Any, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input), dim))``, computed stably; ``keepdim`` keeps the reduced axes."""
    a = float_result(as_tensor_array(input))
    return wrap(_logsumexp(a, _axis(dim), keepdim))


@amp_black
def cumsum(x: Any, axis: Any, dtype: Any = None) -> Tensor:
    """Running sum along ``axis`` in the input's dtype (or ``dtype``); Bool is refused, as MindSpore's CumSum."""
    a = as_tensor_array(x)
    if a.dtype == np.bool_:
        raise TypeError(
            "For primitive[CumSum], the input argument[x] must be a type of {Tensor[BFloat16], Tensor[Complex128], "
            "Tensor[Complex64], Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int16], Tensor[Int32], "
            "Tensor[Int64], Tensor[Int8], Tensor[UInt16], Tensor[UInt32], Tensor[UInt64], Tensor[UInt8]}, "
            "but got Tensor[Bool]."
        )
    if axis is None:
        a, axis = a.reshape(-1), 0
    return wrap(jnp.cumsum(a, axis=int(axis), dtype=None if dtype is None else np_dtype(dtype)))


def tensor_cumsum(x: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """``Tensor.cumsum``: Bool, Int8, Int16 and UInt8 inputs accumulate in Int32 (the result stays Int32 when
    ``dtype`` is the input's own dtype), a None ``axis`` flattens, as MindSpore 2.10's Tensor method."""
    a = as_tensor_array(x)
    original = a.dtype
    if a.dtype == np.bool_ or (a.dtype.kind in "iu" and a.dtype.itemsize < 4 and a.dtype != np.uint16):
        a = a.astype(jnp.int32)
    out = cumsum(a, axis)
    if dtype is not None and np_dtype(dtype) != original:
        return out.astype(dtype)
    return out


@amp_black
def cumprod(input: Any, dim: int, dtype: Any = None) -> Tensor:
    """Running product along ``dim``; integer and bool inputs give Int64 unless ``dtype`` says otherwise."""
    a = as_tensor_array(input)
    if dtype is None and not jnp.issubdtype(a.dtype, jnp.inexact):
        dtype = mstype.int64
    return wrap(jnp.cumprod(a, axis=int(dim), dtype=None if dtype is None else np_dtype(dtype)))


def norm(A: Any, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    a = float_result(as_tensor_array(A))
    if dtype is not None:
        a = a.astype(np_dtype(dtype))
    return wrap(jnp.linalg.norm(a, ord=ord, axis=_axis(dim), keepdims=keepdim))


def square_sum(x: Any) -> Tensor:
    a = as_tensor_array(x)
    return wrap(jnp.sum(a * a))


def count_nonzero(x: Any, axis: Any = (), keep_dims: bool = False, dtype: Any = mstype.int32) -> Tensor:
    a = as_tensor_array(x)
    return wrap(jnp.count_nonzero(a, axis=_axis(axis), keepdims=keep_dims).astype(np_dtype(dtype)))


def nansum(input: Any, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    a = as_tensor_array(input)
    if dtype is not None:
        a = a.astype(np_dtype(dtype))
    return wrap(jnp.nansum(a, axis=_axis(axis), keepdims=keepdims, dtype=a.dtype))


def std_mean(input: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    return std(input, axis, ddof, keepdims), mean(input, axis, keepdims)


def var_mean(input: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    return var(input, axis, ddof, keepdims), mean(input, axis, keepdims)


@compiled_op
def median(input: Any, axis: int = -1, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """The lower median along ``axis`` and its index."""
    a = as_tensor_array(input)
    ax = check_axis(axis, a.ndim, "median") if a.ndim else None
    if ax is None:
        return wrap(a), wrap(jnp.zeros((), jnp.int64))
    order = jnp.argsort(a, axis=ax, stable=True)
    k = (a.shape[ax] - 1) // 2
    idx = lax.index_in_dim(order, k, axis=ax, keepdims=True)
    vals = jnp.take_along_axis(a, idx, axis=ax)
    if not keepdims:
        vals, idx = jnp.squeeze(vals, ax), jnp.squeeze(idx, ax)
    return wrap(vals), wrap(idx.astype(jnp.int64))


def _cum_extreme(input: Any, axis: int, largest: bool, op: str) -> tuple[Tensor, Tensor]:
    a = as_tensor_array(input)
    ax = check_axis(axis, a.ndim, op)
    vals = (lax.cummax if largest else lax.cummin)(a, axis=ax)
    pos = lax.broadcasted_iota(jnp.int64, a.shape, ax)
    idx = lax.cummax(jnp.where(a == vals, pos, -1), axis=ax)
    return wrap(vals), wrap(idx)


def cummax(input: Any, axis: int) -> tuple[Tensor, Tensor]:
    """Running maximum along ``axis`` and the index where it was reached."""
    return _cum_extreme(input, axis, True, "cummax")


def cummin(input: Any, axis: int) -> tuple[Tensor, Tensor]:
    """Running minimum along ``axis`` and the index where it was reached (Int32, as MindSpore's, where
    ``cummax`` gives Int64)."""
    values, index = _cum_extreme(input, axis, False, "cummin")
    return values, wrap(index._data.astype(jnp.int32))


@compiled_op
def logcumsumexp(input: Any, axis: int) -> Tensor:
    a = float_result(as_tensor_array(input))
    return wrap(lax.cumlogsumexp(a, axis=check_axis(axis, a.ndim, "logcumsumexp")))


def diff(x: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
    kw = {}
    if prepend is not None:
        kw["prepend"] = as_tensor_array(prepend)
    if append is not None:
        kw["append"] = as_tensor_array(append)
    return wrap(jnp.diff(as_tensor_array(x), n=n, axis=axis, **kw))


def diff_ext(input: Any, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
    """``diff`` with ``dim`` for ``axis``."""
    return diff(input, n, dim, prepend, append)


def nanmean(input: Any, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    """Mean over ``axis`` of the elements that are not NaN (float tensors only)."""
    a = as_tensor_array(input)
    if not jnp.issubdtype(a.dtype, jnp.inexact):
        raise TypeError(f"For 'nanmean', input should be floating point dtype, but got {mstype.from_np(a.dtype)}.")
    if dtype is not None:
        a = a.astype(np_dtype(dtype))
    return wrap(jnp.nanmean(a, axis=_axis(axis), keepdims=keepdims))


@compiled_op
def nanmedian(input: Any, axis: int = -1, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """The lower median along ``axis`` of the elements that are not NaN, and its index (NaN where all are)."""
    a = as_tensor_array(input)
    if a.ndim == 0:
        return wrap(a), wrap(jnp.zeros((), jnp.int64))
    ax = check_axis(axis, a.ndim, "nanmedian")
    order = jnp.argsort(a, axis=ax, stable=True)  # NaNs sort last
    count = jnp.sum(~jnp.isnan(a), axis=ax, keepdims=True)
    k = jnp.maximum((count - 1) // 2, 0)
    idx = jnp.take_along_axis(order, k, axis=ax)
    vals = jnp.take_along_axis(a, idx, axis=ax)
    if not keepdims:
        vals, idx = jnp.squeeze(vals, ax), jnp.squeeze(idx, ax)
    return wrap(vals), wrap(idx.astype(jnp.int64))


def _quantile(input: Any, q: Any, axis: Any, keepdims: bool, nan: bool, op: str) -> Tensor:
    a = as_tensor_array(input)
    require_dtypes(a, {"Float32", "Float64"}, "input", "Quantile")
    if isinstance(q, float):
        if not 0 <= q <= 1:
            raise ValueError(f"For '{op}', the 'q' must in the range [0, 1], but got: {q}.")
        qq = jnp.asarray(q, a.dtype)
    elif isinstance(q, Tensor):
        qq = q._data.astype(a.dtype)
        if qq.ndim > 1:
            raise ValueError(f"For '{op}', the 'q' should be a scalar or 1-D Tensor, but got {qq.ndim}-D.")
    else:
        raise TypeError(f"For '{op}', the 'q' must be a float or a Tensor, but got {type(q).__name__}.")
    if axis is not None:
        axis = check_axis(axis, a.ndim, op)
    fn = jnp.nanquantile if nan else jnp.quantile
    return wrap(fn(a, qq, axis=axis, keepdims=keepdims, method="linear"))


def quantile(input: Any, q: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The ``q``-th quantiles along ``axis`` (the flattened input when None), interpolating linearly; with a
    1-D ``q`` the quantiles are stacked on a new first axis."""
    return _quantile(input, q, axis, keepdims, False, "quantile")


def nanquantile(input: Any, q: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """:func:`quantile` of the elements that are not NaN."""
    return _quantile(input, q, axis, keepdims, True, "nanquantile")


@compiled_op
def histc(input: Any, bins: int = 100, min: float = 0.0, max: float = 0.0) -> Tensor:
    """Counts of the elements in ``bins`` equal-width bins over ``[min, max]`` (the data's range when both
    are 0); elements outside are ignored. The counts have the input's dtype."""
    a = as_tensor_array(input)
    if isinstance(bins, bool) or not isinstance(bins, int) or bins <= 0:
        raise ValueError(f"For 'histc', attr 'bins' should be greater than 0, but got {bins}.")
    if min > max:
        raise ValueError(f"For 'histc', attr 'min' value should not greater than 'max', but got {min} and {max}.")
    x = a.reshape(-1).astype(jnp.float32 if a.dtype != jnp.float64 else jnp.float64)
    lo, hi = jnp.asarray(min, x.dtype), jnp.asarray(max, x.dtype)
    if min == max:
        lo, hi = (jnp.min(x), jnp.max(x)) if x.size else (lo, hi)
        same = lo == hi
        lo, hi = jnp.where(same, lo - 1, lo), jnp.where(same, hi + 1, hi)
    inside = (x >= lo) & (x <= hi)
    idx = jnp.clip(jnp.floor((x - lo) * bins / (hi - lo)).astype(jnp.int32), 0, bins - 1)
    counts = jnp.zeros((bins,), jnp.int32).at[jnp.where(inside, idx, bins)].add(1, mode="drop")
    return wrap(counts.astype(a.dtype))


def bucketize(input: Any, boundaries: Any, *, right: bool = False) -> Tensor:
    """The index of the bucket of each element: ``boundaries[i-1] < x <= boundaries[i]``, or
    ``boundaries[i-1] <= x < boundaries[i]`` with ``right`` (Int32)."""
    if not isinstance(boundaries, (list, tuple)):
        raise TypeError(f"For 'bucketize', 'boundaries' must be a list, but got {type(boundaries).__name__}.")
    a = as_tensor_array(input)
    b = jnp.asarray(np.asarray(boundaries, np.float64)).astype(jnp.promote_types(a.dtype, jnp.float32))
    return wrap(jnp.searchsorted(b, a.astype(b.dtype), side="right" if right else "left").astype(jnp.int32))


@compiled_op
def cov(input: Any, *, correction: int = 1, fweights: Any = None, aweights: Any = None) -> Tensor:
    """The covariance matrix of the variables in the rows of ``input`` (observations in its columns)."""
    a = float_result(as_tensor_array(input))
    if a.ndim > 2:
        raise ValueError(f"For 'cov', the 'input' must be a 1-D or 2-D Tensor, but got {a.ndim}-D.")
    fw = None if fweights is None else as_tensor_array(fweights)
    aw = None if aweights is None else as_tensor_array(aweights)
    return wrap(jnp.cov(a, ddof=correction, fweights=fw, aweights=aw).astype(a.dtype))


def vecdot(x: Any, y: Any, *, axis: int = -1) -> Tensor:
    """``sum(conj(x) * y)`` over ``axis`` (broadcasting)."""
    a, b = promote(x, y, "vecdot")
    return wrap(jnp.sum(jnp.conj(a) * b, axis=axis))


def _cast_norm_input(x: Any, dtype: Any) -> Any:
    a = float_result(as_tensor_array(x))
    return a if dtype is None else a.astype(np_dtype(dtype))


@amp_black
@compiled_op
def vector_norm(x: Any, ord: Any = 2, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    """The vector ``ord``-norm over ``axis`` (every element when None): inf/-inf give max/min ``|x|``, 0 the
    count of non-zeros."""
    a = _cast_norm_input(x, dtype)
    ax = _axis(axis)
    if ax is None:
        a, ax = a.reshape(-1), 0
    return wrap(jnp.linalg.vector_norm(a, ord=ord, axis=ax, keepdims=keepdims and axis is not None))


@amp_black
@compiled_op
def matrix_norm(A: Any, ord: Any = "fro", axis: Any = (-2, -1), keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    """The matrix norm (``'fro'``, ``'nuc'``, ±1, ±2, ±inf) over the two ``axis`` dims."""
    a = _cast_norm_input(A, dtype)
    if a.ndim < 2:
        raise ValueError(f"For 'matrix_norm', the input must be at least 2-D, but got {a.ndim}-D.")
    return wrap(jnp.linalg.norm(a, ord=ord, axis=tuple(axis), keepdims=keepdims))


@compiled_op
def renorm(input: Any, p: Any, axis: int, maxnorm: float) -> Tensor:
    """Each sub-tensor along ``axis`` whose ``p``-norm exceeds ``maxnorm`` scaled to norm ``maxnorm``."""
    a = as_tensor_array(input)
    if not isinstance(p, int) or isinstance(p, bool) or p < 1:
        raise ValueError(f"For 'renorm', the 'p' must be an int >= 1, but got {p}.")
    ax = check_axis(axis, a.ndim, "renorm")
    others = tuple(i for i in range(a.ndim) if i != ax)
    n = jnp.sum(jnp.abs(a) ** p, axis=others, keepdims=True) ** (1.0 / p)
    scale = jnp.where(n > maxnorm, maxnorm / (n + 1e-7), 1.0)
    return wrap((a * scale).astype(a.dtype))


# ------------------------------------------------ MindSpore 1.x names still in use
def reduce_sum(x: Any, axis: Any = ()) -> Tensor:
    """``ReduceSum()(x, axis)``: the sum over ``axis`` (every axis when empty), in the input's dtype."""
    return reduce_sum_keep_dtype(x, _axis(axis), False)


def reduce_mean(x: Any, axis: Any = ()) -> Tensor:
    """``ReduceMean()(x, axis)``: the mean over ``axis`` (every axis when empty)."""
    return mean(x, axis, False)


def reduce_max(x: Any, axis: Any = ()) -> Tensor:
    """``ReduceMax()(x, axis)``: the maximum over ``axis`` (every axis when empty)."""
    return amax(x, axis, False)


def reduce_min(x: Any, axis: Any = ()) -> Tensor:
    """``ReduceMin()(x, axis)``: the minimum over ``axis`` (every axis when empty)."""
    return amin(x, axis, False)


__all__ += ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min"]


# ---------------------------------------------- kernels of primitive classes only
def _bincount_with_size(array: Any, size: int, weights: Any) -> Tensor:
    """``Bincount()``: the ``weights``-weighted count of each value in ``[0, size)`` (others are dropped)."""
    a = as_tensor_array(array).reshape(-1)
    w = as_tensor_array(weights).reshape(-1)
    return wrap(jnp.zeros((size,), w.dtype).at[a].add(w, mode="drop"))


def _histogram_fixed_width(x: Any, value_range: Any, nbins: int) -> Tensor:
    """``HistogramFixedWidth``: Int32 counts in ``nbins`` equal bins over ``value_range``; values outside fall
    in the first or the last bin."""
    a = float_result(as_tensor_array(x)).reshape(-1)
    r = as_tensor_array(value_range).astype(a.dtype)
    idx = jnp.clip(jnp.floor((a - r[0]) * nbins / (r[1] - r[0])).astype(jnp.int32), 0, nbins - 1)
    return wrap(jnp.zeros((nbins,), jnp.int32).at[idx].add(1))


def _compare_and_bitpack(x: Any, threshold: Any) -> Tensor:
    """``CompareAndBitpack``: ``x > threshold`` packed 8 to a UInt8 (most significant bit first) along the
    last axis, whose size must be a multiple of 8."""
    a = as_tensor_array(x)
    if a.ndim == 0 or a.shape[-1] % 8:
        raise ValueError(
            f"For 'CompareAndBitpack', the last dimension of 'x' must be a multiple of 8, but got {a.shape}."
        )
    return wrap(jnp.packbits(a > as_tensor_array(threshold).astype(a.dtype), axis=-1))
