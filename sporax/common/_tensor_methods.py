"""The Tensor methods that delegate to ``sporax.ops`` (``x.sum()``, ``x.reshape()``, ``x.argmax()``...).

Each is a thin call of the functional op that holds the one implementation; ``Tensor`` inherits them. The
operators (``+``, ``@``, indexing) and everything about construction, conversion and printing are in
``tensor.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

import numpy as np

from . import dtype as mstype
from ._op_registry import op_function
from ._op_registry import ops as _ops
from ._tensor_array_methods import TensorArrayMethods
from ._tensor_cpp_members import TensorCppMembers
from ._tensor_fields import TensorFields
from ._tensor_math_methods import TensorMathMethods

if TYPE_CHECKING:
    from .tensor import Tensor

__all__ = ["TensorMethods"]


def _shape_args(shape: tuple[Any, ...]) -> Any:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    if len(shape) == 1 and shape[0] is None:
        return None
    return tuple(shape)


class _TensorCasts:
    """The casts named after types (``x.float()``, ``x.int()``, ``x.bool()``...): their own class, so that ``int``,
    ``float`` and ``bool`` in TensorMethods' annotations stay the builtins."""

    __slots__ = ()

    def float(self) -> Tensor:
        return _ops().cast(self, mstype.float32)

    def half(self) -> Tensor:
        return _ops().cast(self, mstype.float16)

    def double(self) -> Tensor:
        return _ops().cast(self, mstype.float64)

    def int(self) -> Tensor:
        return _ops().cast(self, mstype.int32)

    def long(self) -> Tensor:
        return _ops().cast(self, mstype.int64)

    def bool(self) -> Tensor:
        return _ops().cast(self, mstype.bool_)

    def bfloat16(self) -> Tensor:
        return _ops().cast(self, mstype.bfloat16)


class TensorMethods(_TensorCasts, TensorArrayMethods, TensorMathMethods, TensorCppMembers, TensorFields):
    """Mixin of :class:`Tensor`: the methods that call ``sporax.ops``."""

    __slots__ = ()

    def astype(self, dtype: Any, copy: bool = True) -> Tensor:
        return _ops().cast(self, dtype)

    def to(self, dtype: Any = None, *args: Any, **kwargs: Any) -> Self | Tensor:
        dtype = kwargs.get("dtype", dtype)
        return self if dtype is None or not isinstance(dtype, mstype.Type) else _ops().cast(self, dtype)

    def type(self, dtype: Any = None) -> Any:
        return str(self.dtype) if dtype is None else _ops().cast(self, dtype)

    def type_as(self, other: Tensor) -> Tensor:
        return _ops().cast(self, other.dtype)

    def set_dtype(self, dtype: Any) -> Self:
        self._data = self._data.astype(mstype.to_np(dtype))
        return self

    def reshape(self, *shape: Any) -> Tensor:
        return _ops().reshape(self, _shape_args(shape))

    def view(self, *shape: Any) -> Tensor:
        if len(shape) == 1 and isinstance(shape[0], mstype.Type):
            return _ops().bitcast(self, shape[0])
        return _ops().reshape(self, _shape_args(shape))

    def view_as(self, other: Tensor) -> Tensor:
        return _ops().reshape(self, other.shape)

    def reshape_as(self, other: Tensor) -> Tensor:
        return _ops().reshape(self, other.shape)

    def resize(self, *new_shape: Any) -> Tensor:
        """A new tensor of ``new_shape`` holding this one's values in row-major order, cut short or padded with
        zeros (MindSpore's; NumPy's ``resize`` repeats instead). This tensor is left alone."""
        shape = _shape_args(new_shape)
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        n = int(np.prod(shape))
        flat = _ops().reshape(self, (-1,))
        if n <= self.size:
            return _ops().reshape(flat[:n], shape)
        pad = _ops().zeros((n - self.size,), self.dtype)
        return _ops().reshape(_ops().concat((flat, pad)), shape)

    def transpose(self, *axes: Any) -> Tensor:
        return _ops().transpose(self, _shape_args(axes) if axes else None)

    def permute(self, *axes: Any) -> Tensor:
        return _ops().permute(self, _shape_args(axes))

    def swapaxes(self, axis0: int, axis1: int) -> Tensor:
        return _ops().swapaxes(self, axis0, axis1)

    def moveaxis(self, source: Any, destination: Any) -> Tensor:
        return _ops().moveaxis(self, source, destination)

    def expand_dims(self, axis: int) -> Tensor:
        return _ops().expand_dims(self, axis)

    def unsqueeze(self, dim: int) -> Tensor:
        return _ops().expand_dims(self, dim)

    def squeeze(self, axis: Any = None) -> Tensor:
        return _ops().squeeze(self, axis)

    def flatten(self, order: str = "C", *, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        return _ops().flatten(self, order, start_dim=start_dim, end_dim=end_dim)

    def ravel(self) -> Tensor:
        return _ops().reshape(self, (-1,))

    def broadcast_to(self, shape: Any) -> Tensor:
        return _ops().broadcast_to(self, shape)

    def expand_as(self, other: Tensor) -> Tensor:
        return _ops().broadcast_to(self, other.shape)

    def expand(self, *size: Any) -> Tensor:
        return _ops().broadcast_to(self, _shape_args(size))

    def repeat(self, repeats: Any, axis: Any = None) -> Tensor:
        return _ops().repeat_elements_np(self, repeats, axis)

    def tile(self, reps: Any) -> Tensor:
        return _ops().tile(self, reps)

    def fill(self, value: Any) -> Tensor:
        return _ops().full_like(self, value)

    def fill_(self, value: Any) -> Self:
        self._data = _ops().full_like(self, value)._data
        return self

    def zero_(self) -> Self:
        return self.fill_(0)

    def narrow(self, axis: int, start: int, length: int) -> Tensor:
        return _ops().narrow(self, axis, start, length)

    def split(self, split_size_or_sections: Any, axis: int = 0) -> Any:
        return _ops().split(self, split_size_or_sections, axis)

    def chunk(self, chunks: int, axis: int = 0) -> Any:
        return _ops().chunk(self, chunks, axis)

    def gather(self, input_indices: Any, axis: int, batch_dims: int = 0) -> Tensor:
        return _ops().gather(self, input_indices, axis, batch_dims)

    def gather_elements(self, dim: int, index: Any) -> Tensor:
        return _ops().gather_elements(self, dim, index)

    def take(self, indices: Any, axis: Any = None, mode: str = "clip") -> Tensor:
        return op_function("gather_scatter_func").tensor_take(self, indices, axis, mode)

    def masked_fill(self, mask: Any, value: Any) -> Tensor:
        return _ops().masked_fill(self, mask, value)

    def where(self, condition: Any, y: Any) -> Tensor:
        return _ops().where(condition, self, y)

    def index_select(self, axis: int, index: Any) -> Tensor:
        return _ops().index_select(self, axis, index)

    def nonzero(self, *, as_tuple: bool = False) -> Any:
        return _ops().nonzero(self, as_tuple=as_tuple)

    def diag(self) -> Tensor:
        return _ops().diag(self)

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
        return _ops().diagonal(self, offset, axis1, axis2)

    def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Tensor:
        if (offset, axis1, axis2, dtype) == (0, 0, 1, None):
            return _ops().trace(self)
        out = _ops().diagonal(self, offset, axis1, axis2).sum(-1)
        return out if dtype is None else _ops().cast(out, dtype)

    def tril(self, diagonal: int = 0) -> Tensor:
        return _ops().tril(self, diagonal)

    def triu(self, diagonal: int = 0) -> Tensor:
        return _ops().triu(self, diagonal)

    def flip(self, dims: Any) -> Tensor:
        return _ops().flip(self, dims)

    def roll(self, shifts: Any, dims: Any = None) -> Tensor:
        return _ops().roll(self, shifts, dims)

    def sort(self, axis: int = -1, descending: bool = False) -> Any:
        return _ops().sort(self, axis, descending)

    def argsort(self, axis: int = -1, descending: bool = False) -> Tensor:
        return _ops().argsort(self, axis, descending)

    def topk(self, k: int, dim: Any = None, largest: bool = True, sorted: bool = True) -> Any:
        return _ops().topk(self, k, dim, largest, sorted)

    # reductions (MindSpore's argument names)
    def sum(self, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:
        return _ops().tensor_sum(self, axis, dtype, keepdims, initial)

    def mean(self, axis: Any = None, keep_dims: bool = False) -> Tensor:
        return _ops().mean(self, axis, keep_dims)

    def prod(self, axis: Any = None, keep_dims: bool = False) -> Tensor:
        return _ops().prod(self, axis, keep_dims)

    def max(
        self,
        axis: Any = None,
        keepdims: bool = False,
        *,
        initial: Any = None,
        where: Any = None,
        return_indices: bool = False,
    ) -> Any:
        return _ops().tensor_max(self, axis, keepdims, initial=initial, where=where, return_indices=return_indices)

    def min(
        self,
        axis: Any = None,
        keepdims: bool = False,
        *,
        initial: Any = None,
        where: Any = None,
        return_indices: bool = False,
    ) -> Any:
        return _ops().tensor_min(self, axis, keepdims, initial=initial, where=where, return_indices=return_indices)

    def amax(self, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Tensor:
        return _ops().amax(self, axis, keepdims, initial=initial, where=where)

    def amin(self, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Tensor:
        return _ops().amin(self, axis, keepdims, initial=initial, where=where)

    def argmax(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _ops().argmax(self, axis, keepdims)

    def argmin(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _ops().argmin(self, axis, keepdims)

    def std(self, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
        return _ops().tensor_std(self, axis, ddof, keepdims)

    def var(self, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
        return _ops().tensor_var(self, axis, ddof, keepdims)

    def all(self, axis: Any = None, keep_dims: bool = False) -> Tensor:
        return _ops().all(self, axis, keep_dims)

    def any(self, axis: Any = None, keep_dims: bool = False) -> Tensor:
        return _ops().any(self, axis, keep_dims)

    def cumsum(self, axis: Any = None, dtype: Any = None) -> Tensor:
        return _ops().tensor_cumsum(self, axis, dtype)

    def cumprod(self, dim: int, dtype: Any = None) -> Tensor:
        return _ops().cumprod(self, dim, dtype)

    def norm(self, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
        return _ops().norm(self, ord, dim, keepdim, dtype=dtype)

    def logsumexp(self, axis: Any, keepdims: bool = False) -> Tensor:
        return _ops().logsumexp(self, axis, keepdims)

    def count_nonzero(self, axis: Any = (), keep_dims: bool = False) -> Tensor:
        return _ops().count_nonzero(self, axis, keep_dims)

    # element-wise
    def abs(self) -> Tensor:
        return _ops().abs(self)

    def absolute(self) -> Tensor:
        return _ops().abs(self)

    def neg(self) -> Tensor:
        return _ops().neg(self)

    def negative(self) -> Tensor:
        return _ops().neg(self)

    def exp(self) -> Tensor:
        return _ops().exp(self)

    def expm1(self) -> Tensor:
        return _ops().expm1(self)

    def log(self) -> Tensor:
        return _ops().log(self)

    def log1p(self) -> Tensor:
        return _ops().log1p(self)

    def log2(self) -> Tensor:
        return _ops().log2(self)

    def log10(self) -> Tensor:
        return _ops().log10(self)

    def sqrt(self) -> Tensor:
        return _ops().sqrt(self)

    def rsqrt(self) -> Tensor:
        return _ops().rsqrt(self)

    def square(self) -> Tensor:
        return _ops().square(self)

    def reciprocal(self) -> Tensor:
        return _ops().reciprocal(self)

    def sin(self) -> Tensor:
        return _ops().sin(self)

    def cos(self) -> Tensor:
        return _ops().cos(self)

    def tan(self) -> Tensor:
        return _ops().tan(self)

    def tanh(self) -> Tensor:
        return _ops().tanh(self)

    def sigmoid(self) -> Tensor:
        return _ops().sigmoid(self)

    def relu(self) -> Tensor:
        return _ops().relu(self)

    def hardshrink(self, lambd: float = 0.5) -> Tensor:
        return _ops().hardshrink(self, lambd)

    def soft_shrink(self, lambd: float = 0.5) -> Tensor:
        return _ops().softshrink(self, lambd)

    def softmax(self, axis: int, dtype: Any = None) -> Tensor:
        return _ops().softmax(self, axis, dtype=dtype)

    def floor(self) -> Tensor:
        return _ops().floor(self)

    def ceil(self) -> Tensor:
        return _ops().ceil(self)

    def trunc(self) -> Tensor:
        return _ops().trunc(self)

    def sign(self) -> Tensor:
        return _ops().sign(self)

    def isnan(self) -> Tensor:
        return _ops().isnan(self)

    def isinf(self) -> Tensor:
        return _ops().isinf(self)

    def isfinite(self) -> Tensor:
        return _ops().isfinite(self)

    def logical_not(self) -> Tensor:
        return _ops().logical_not(self)

    def logical_and(self, other: Any) -> Tensor:
        return _ops().logical_and(self, other)

    def logical_or(self, other: Any) -> Tensor:
        return _ops().logical_or(self, other)

    def clip(self, xmin: Any = None, xmax: Any = None, dtype: Any = None) -> Tensor:
        out = _ops().clamp(self, xmin, xmax)
        return out if dtype is None else out.astype(dtype)

    def clamp(self, min: Any = None, max: Any = None) -> Tensor:
        return _ops().clamp(self, min, max)

    def clamp_(self, min: Any = None, max: Any = None) -> Tensor:
        return _ops().clamp_(self, min, max)

    def fliplr(self) -> Tensor:
        return _ops().fliplr(self)

    def flipud(self) -> Tensor:
        return _ops().flipud(self)

    def msort(self) -> Tensor:
        return _ops().msort(self)

    def pow(self, exponent: Any) -> Tensor:
        return _ops().pow(self, exponent)

    def add(self, other: Any, *, alpha: Any = 1) -> Tensor:
        return _ops().add(self, other if alpha == 1 else other * alpha)

    def sub(self, other: Any, *, alpha: Any = 1) -> Tensor:
        return _ops().sub(self, other if alpha == 1 else other * alpha)

    def mul(self, other: Any) -> Tensor:
        return _ops().mul(self, other)

    def div(self, other: Any, *, rounding_mode: Any = None) -> Tensor:
        return _ops().div(self, other, rounding_mode=rounding_mode)

    def matmul(self, other: Any) -> Tensor:
        return _ops().matmul(self, other)

    def maximum(self, other: Any) -> Tensor:
        return _ops().maximum(self, other)

    def minimum(self, other: Any) -> Tensor:
        return _ops().minimum(self, other)

    def lerp(self, end: Any, weight: Any) -> Tensor:
        return _ops().lerp(self, end, weight)

    def equal(self, other: Any) -> Tensor:
        return _ops().equal(self, other)

    def ne(self, other: Any) -> Tensor:
        return _ops().not_equal(self, other)

    def eq(self, other: Any) -> Tensor:
        return _ops().equal(self, other)

    def gt(self, other: Any) -> Tensor:
        return _ops().greater(self, other)

    def ge(self, other: Any) -> Tensor:
        return _ops().greater_equal(self, other)

    def lt(self, other: Any) -> Tensor:
        return _ops().less(self, other)

    def le(self, other: Any) -> Tensor:
        return _ops().less_equal(self, other)

    def allclose(self, other: Any, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False) -> bool:
        return bool(np.allclose(self.asnumpy(), np.asarray(other), rtol, atol, equal_nan))

    def isclose(self, other: Any, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False) -> Tensor:
        return _ops().isclose(self, other, rtol, atol, equal_nan)

    def stop_gradient(self) -> Tensor:
        return _ops().stop_gradient(self)

    def round(self, decimals: int = 0) -> Tensor:
        return _ops().round(self, decimals=decimals)

    def true_divide(self, value: Any) -> Tensor:
        return _ops().true_divide(self, value)

    def floor_divide(self, value: Any) -> Tensor:
        return _ops().floor_divide(self, value)

    def remainder(self, divisor: Any) -> Tensor:
        return _ops().remainder(self, divisor)

    def fmod(self, other: Any) -> Tensor:
        return _ops().fmod(self, other)

    def float_power(self, other: Any) -> Tensor:
        return _ops().float_power(self, other)

    def xlogy(self, y: Any) -> Tensor:
        return _ops().xlogy(self, y)

    def atan2(self, other: Any) -> Tensor:
        return _ops().atan2(self, other)

    def hypot(self, other: Any) -> Tensor:
        return _ops().hypot(self, other)

    def logaddexp(self, other: Any) -> Tensor:
        return _ops().logaddexp(self, other)

    def addcmul(self, tensor1: Any, tensor2: Any, value: Any = 1) -> Tensor:
        return _ops().addcmul(self, tensor1, tensor2, value)

    def addcdiv(self, tensor1: Any, tensor2: Any, value: Any = 1) -> Tensor:
        return _ops().addcdiv(self, tensor1, tensor2, value)

    def logical_xor(self, other: Any) -> Tensor:
        return _ops().logical_xor(self, other)

    def bitwise_and(self, other: Any) -> Tensor:
        return _ops().bitwise_and(self, other)

    def bitwise_or(self, other: Any) -> Tensor:
        return _ops().bitwise_or(self, other)

    def bitwise_xor(self, other: Any) -> Tensor:
        return _ops().bitwise_xor(self, other)

    def asin(self) -> Tensor:
        return _ops().asin(self)

    def acos(self) -> Tensor:
        return _ops().acos(self)

    def atan(self) -> Tensor:
        return _ops().atan(self)

    def sinh(self) -> Tensor:
        return _ops().sinh(self)

    def cosh(self) -> Tensor:
        return _ops().cosh(self)

    def asinh(self) -> Tensor:
        return _ops().asinh(self)

    def acosh(self) -> Tensor:
        return _ops().acosh(self)

    def atanh(self) -> Tensor:
        return _ops().atanh(self)

    def erf(self) -> Tensor:
        return _ops().erf(self)

    def erfc(self) -> Tensor:
        return _ops().erfc(self)

    def erfinv(self) -> Tensor:
        return _ops().erfinv(self)

    def lgamma(self) -> Tensor:
        return _ops().lgamma(self)

    def digamma(self) -> Tensor:
        return _ops().digamma(self)

    def sinc(self) -> Tensor:
        return _ops().sinc(self)

    def frac(self) -> Tensor:
        return _ops().frac(self)

    def logit(self, eps: Any = None) -> Tensor:
        return _ops().logit(self, eps)

    def nan_to_num(self, nan: float = 0.0, posinf: Any = None, neginf: Any = None) -> Tensor:
        return _ops().nan_to_num(self, nan, posinf, neginf)

    def signbit(self) -> Tensor:
        return _ops().signbit(self)

    def deg2rad(self) -> Tensor:
        return _ops().deg2rad(self)

    def rad2deg(self) -> Tensor:
        return _ops().rad2deg(self)

    def exp2(self) -> Tensor:
        return _ops().exp2(self)

    def nansum(self, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
        return _ops().nansum(self, axis, keepdims, dtype=dtype)

    def median(self, axis: int = -1, keepdims: bool = False) -> Any:
        return _ops().median(self, axis, keepdims)

    def cummax(self, axis: int) -> Any:
        return _ops().cummax(self, axis)

    def cummin(self, axis: int) -> Any:
        return _ops().cummin(self, axis)

    def logcumsumexp(self, axis: int) -> Tensor:
        return _ops().logcumsumexp(self, axis)

    def diff(self, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
        return _ops().diff(self, n, axis, prepend, append)

    def argmax_with_value(self, axis: int = 0, keep_dims: bool = False) -> Any:
        # MindSpore 2.10's Tensor method returns (values, indices); ops.ArgMaxWithValue gives (indices, values)
        return _ops().max(self, axis, keep_dims)

    def argmin_with_value(self, axis: int = 0, keep_dims: bool = False) -> Any:
        # MindSpore 2.10's Tensor method returns (values, indices); ops.ArgMinWithValue gives (indices, values)
        return _ops().min(self, axis, keep_dims)

    def mm(self, mat2: Any) -> Tensor:
        return _ops().mm(self, mat2)

    def bmm(self, mat2: Any) -> Tensor:
        return _ops().bmm(self, mat2)

    def dot(self, other: Any) -> Tensor:
        return _ops().dot(self, other)

    def inner(self, other: Any) -> Tensor:
        return _ops().inner(self, other)

    def outer(self, vec2: Any) -> Tensor:
        return _ops().outer(self, vec2)

    def cross(self, other: Any, dim: Any = None) -> Tensor:
        return _ops().cross(self, other, dim)

    def det(self) -> Tensor:
        return _ops().det(self)

    def inverse(self) -> Tensor:
        return _ops().inverse(self)

    def kron(self, other: Any) -> Tensor:
        return _ops().kron(self, other)

    def t(self) -> Tensor:
        return _ops().t(self)

    def swapdims(self, dim0: int, dim1: int) -> Tensor:
        return _ops().swapdims(self, dim0, dim1)

    def movedim(self, source: Any, destination: Any) -> Tensor:
        return _ops().movedim(self, source, destination)

    def unbind(self, dim: int = 0) -> Any:
        return _ops().unbind(self, dim)

    def tensor_split(self, indices_or_sections: Any, axis: int = 0) -> Any:
        return _ops().tensor_split(self, indices_or_sections, axis)

    def hsplit(self, indices_or_sections: Any) -> Any:
        return _ops().hsplit(self, indices_or_sections)

    def vsplit(self, indices_or_sections: Any) -> Any:
        return _ops().vsplit(self, indices_or_sections)

    def masked_select(self, mask: Any) -> Tensor:
        return _ops().masked_select(self, mask)

    def masked_scatter(self, mask: Any, x: Any) -> Tensor:
        return _ops().masked_scatter(self, mask, x)

    def argwhere(self) -> Tensor:
        return _ops().argwhere(self)

    def unique_consecutive(self, return_inverse: bool = False, return_counts: bool = False, dim: Any = None) -> Any:
        return _ops().unique_consecutive(self, return_inverse, return_counts, dim)

    def searchsorted(self, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
        return _ops().searchsorted(self, v, side=side, sorter=sorter)

    def bincount(self, weights: Any = None, minlength: int = 0) -> Tensor:
        return _ops().bincount(self, weights, minlength)

    def scatter(self, axis: int, index: Any, src: Any) -> Tensor:
        return _ops().scatter(self, axis, index, src)

    def gather_nd(self, indices: Any) -> Tensor:
        return _ops().gather_nd(self, indices)

    def isin(self, test_elements: Any) -> Tensor:
        return _ops().isin(self, test_elements)

    def new_zeros(self, size: Any, *, dtype: Any = None) -> Tensor:
        return _ops().zeros(size, dtype or self.dtype)

    def new_ones(self, size: Any, *, dtype: Any = None) -> Tensor:
        return _ops().ones(size, dtype or self.dtype)

    def bernoulli(self, *, generator: Any = None) -> Tensor:
        """0/1 draws with the probabilities held in this tensor (from ``generator``, else the global state)."""
        return _ops().bernoulli_ext(self, generator=generator)

    def multinomial(self, num_samples: int, replacement: bool = True, seed: Any = None) -> Tensor:
        return _ops().multinomial(self, num_samples, replacement, seed)

    def detach(self) -> Tensor:
        return _ops().stop_gradient(self)
