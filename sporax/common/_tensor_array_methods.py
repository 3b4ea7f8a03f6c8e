"""The Tensor methods of the array family (gather/scatter/index, layout, sort/search, in-place random fills)
that delegate to ``sporax.ops``. :class:`TensorMethods` inherits them; each is a thin call of the functional
op that holds the one implementation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import dtype as mstype
from ._op_registry import op_function as _fn
from ._op_registry import ops as _ops

if TYPE_CHECKING:
    from .tensor import Tensor

__all__ = ["TensorArrayMethods"]


class TensorArrayMethods:
    """Mixin of :class:`Tensor` (through ``TensorMethods``)."""

    __slots__ = ()

    # ---------------------------------------------------------------- gather / scatter / index
    def index_fill(self, axis: Any, index: Any, value: Any) -> Tensor:
        return _ops().index_fill(self, axis, index, value)

    def index_fill_(self, dim: Any, index: Any, value: Any) -> Tensor:
        return _fn("gather_scatter_func").index_fill_(self, dim, index, value)

    def put_(self, index: Any, source: Any, accumulate: bool = False) -> Tensor:
        return _ops().put_(self, index, source, accumulate)

    def select_scatter(self, src: Any, axis: int, index: int) -> Tensor:
        return _ops().select_scatter(self, src, axis, index)

    def slice_scatter(self, src: Any, axis: int = 0, start: Any = None, end: Any = None, step: int = 1) -> Tensor:
        return _ops().slice_scatter(self, src, axis, start, end, step)

    def diagonal_scatter(self, src: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        return _ops().diagonal_scatter(self, src, offset, dim1, dim2)

    def select(self, *args: Any, **kwargs: Any) -> Tensor:
        """``x.select(dim, index)`` (the slice at ``index`` of ``dim``) or the older ``x.select(condition, y)``
        (``x`` where ``condition``, else ``y``)."""
        if len(args) + len(kwargs) != 2:
            raise TypeError("Tensor.select takes (dim, index) or (condition, y).")
        first = args[0] if args else kwargs.get("dim", kwargs.get("condition"))
        second = args[1] if len(args) > 1 else kwargs.get("index", kwargs.get("y"))
        if isinstance(first, int) and not isinstance(first, bool):
            ndim = len(self.shape)  # type: ignore[attr-defined]
            dim = first % max(ndim, 1)
            return self[(slice(None),) * dim + (second,)]  # type: ignore[index]
        return _ops().select(first, self, second)

    def scatter_add(self, *args: Any) -> Tensor:
        """``x.scatter_add(indices, updates)`` (:func:`tensor_scatter_add`; a Parameter is updated in place)
        or ``x.scatter_add(dim, index, src)`` (add ``src`` along ``dim``)."""
        if len(args) == 3:
            return _ops().tensor_scatter_elements(self, args[1], args[2], args[0], "add")
        out = _ops().tensor_scatter_add(self, *args)
        from .parameter import Parameter

        return _ops().assign(self, out) if isinstance(self, Parameter) else out

    def scatter_add_(self, dim: int, index: Any, src: Any) -> Tensor:
        out = _ops().tensor_scatter_elements(self, index, src, dim, "add")
        return _fn("gather_scatter_func")._write_back(self, out)

    def scatter_mul(self, indices: Any, updates: Any) -> Tensor:
        return _ops().tensor_scatter_mul(self, indices, updates)

    def scatter_div(self, indices: Any, updates: Any) -> Tensor:
        return _ops().tensor_scatter_div(self, indices, updates)

    def scatter_max(self, indices: Any, updates: Any) -> Tensor:
        return _ops().tensor_scatter_max(self, indices, updates)

    def scatter_min(self, indices: Any, updates: Any) -> Tensor:
        return _ops().tensor_scatter_min(self, indices, updates)

    def unsorted_segment_max(self, segment_ids: Any, num_segments: Any) -> Tensor:
        return _ops().unsorted_segment_max(self, segment_ids, num_segments)

    def unsorted_segment_min(self, segment_ids: Any, num_segments: Any) -> Tensor:
        return _ops().unsorted_segment_min(self, segment_ids, num_segments)

    def unsorted_segment_prod(self, segment_ids: Any, num_segments: Any) -> Tensor:
        return _ops().unsorted_segment_prod(self, segment_ids, num_segments)

    # ---------------------------------------------------------------- layout / creation
    def fills(self, value: Any) -> Tensor:
        return _ops().fills(self, value)

    def diagflat(self, offset: int = 0) -> Tensor:
        return _ops().diagflat(self, offset)

    def dsplit(self, indices_or_sections: Any) -> Any:
        return _ops().dsplit(self, indices_or_sections)

    def reverse(self, axis: Any) -> Tensor:
        return _ops().reverse(self, axis)

    def reverse_sequence(self, seq_lengths: Any, seq_dim: int = 0, batch_dim: int = 0) -> Tensor:
        return _ops().reverse_sequence(self, seq_lengths, seq_dim, batch_dim)

    def move_to(self, to: str, blocking: bool = True) -> Tensor:
        return _ops().move_to(self, to, blocking)

    # ---------------------------------------------------------------- sort / search
    def top_k(self, k: int, sorted: bool = True) -> Any:
        return _ops().top_k(self, k, sorted)

    def aminmax(self, *, axis: int = 0, keepdims: bool = False) -> Any:
        return _ops().aminmax(self, axis=axis, keepdims=keepdims)

    def unique_with_pad(self, pad_num: Any) -> Any:
        return _ops().unique_with_pad(self, pad_num)

    # ---------------------------------------------------------------- random
    def uniform(self, from_: Any = 0.0, to: Any = 1.0, generator: Any = None) -> Tensor:
        return _fn("random_func").tensor_uniform(self, from_, to, generator)

    def uniform_(self, from_: Any = 0, to: Any = 1, *, generator: Any = None) -> Tensor:
        return _ops().uniform_(self, from_, to, generator=generator)

    def normal_(self, mean: Any = 0, std: Any = 1, *, generator: Any = None) -> Tensor:
        return _ops().normal_(self, mean, std, generator=generator)

    def exponential_(self, lambd: Any = 1, *, generator: Any = None) -> Tensor:
        return _ops().exponential_(self, lambd, generator=generator)

    def random_(self, from_: Any = 0, to: Any = None, *, generator: Any = None) -> Tensor:
        return _ops().random_(self, from_, to, generator=generator)

    def random_categorical(self, num_sample: int, seed: int = 0, dtype: Any = mstype.int64) -> Tensor:
        return _ops().random_categorical(self, num_sample, seed, dtype)

    # ---------------------------------------------------------------- misc math
    def ger(self, vec2: Any) -> Tensor:
        return _ops().ger(self, vec2)

    def lstsq(self, A: Any) -> Tensor:  # noqa: N803  (MindSpore's name)
        return _ops().lstsq(self, A)

    def mvlgamma(self, p: int) -> Tensor:
        return _ops().mvlgamma(self, p)

    # ---------------------------------------------------------------- patches
    def unfold(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:
        return _ops().unfold(self, kernel_size, dilation, padding, stride)

    def fold(self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:
        return _ops().fold(self, output_size, kernel_size, dilation, padding, stride)

    def col2im(self, output_size: Any, kernel_size: Any, dilation: Any, padding_value: Any, stride: Any) -> Tensor:
        return _ops().col2im(self, output_size, kernel_size, dilation, padding_value, stride)
