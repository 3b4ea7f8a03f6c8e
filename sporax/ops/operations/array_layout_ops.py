"""Array operator classes for layout, diagonals and creation beyond the classic ones in ``array_ops``
(``ops.SpaceToBatchND(...)``, ``ops.DepthToSpace(2)``, ``ops.MatrixDiagV3()``, ``ops.SplitV(...)``...).

Each class keeps its construction arguments as attributes and delegates to the functional ops.
"""

from __future__ import annotations

from typing import Any

from ..._checkparam import check_bool
from ...common import dtype as mstype
from .. import function as F
from .._utils import check_int
from ._primitive import Primitive
from .math_ops import _set_attrs

__all__ = [
    "Reshard",
    "SelectView",
    "CopyWithSlice",
    "BatchToSpace",
    "BatchToSpaceND",
    "BatchToSpaceNDV2",
    "SpaceToBatch",
    "SpaceToBatchND",
    "DepthToSpace",
    "SpaceToDepth",
    "ReverseSequence",
    "MatrixDiagV3",
    "MatrixDiagPartV3",
    "MatrixBandPart",
    "DiagPart",
    "FillDiagonal",
    "FillV2",
    "Fills",
    "Expand",
    "ConjugateTranspose",
    "TransposeView",
    "TransposeExtView",
    "SplitV",
    "ParallelConcat",
    "IdentityN",
    "ScalarToArray",
    "PopulationCount",
    "HammingWindow",
    "LogSpace",
    "CountNonZero",
    "MoveTo",
]


def _block(prim: Primitive, block_size: Any) -> int:
    return check_int(block_size, "block_size", prim.name, 2)


class BatchToSpace(Primitive):
    """``BatchToSpace(block_size, crops)(x)``: NCHW batch blocks back into H and W, then crop."""

    def __init__(self, block_size: int, crops: Any) -> None:
        super().__init__()
        _set_attrs(self, block_size=_block(self, block_size), crops=[list(c) for c in crops])

    def __call__(self, x: Any) -> Any:
        return F.batch_to_space_nd(x, (self.block_size, self.block_size), self.crops)


class BatchToSpaceND(Primitive):
    """``BatchToSpaceND(block_shape, crops)(input_x)``."""

    def __init__(self, block_shape: Any, crops: Any) -> None:
        super().__init__()
        _set_attrs(self, block_shape=block_shape, crops=[list(c) for c in crops])

    def __call__(self, input_x: Any) -> Any:
        return F.batch_to_space_nd(input_x, self.block_shape, self.crops)


class BatchToSpaceNDV2(Primitive):
    """``BatchToSpaceNDV2()(input_x, block_shape, crops)``."""

    def __call__(self, input_x: Any, block_shape: Any, crops: Any) -> Any:
        return F.batch_to_space_nd(input_x, block_shape, crops)


class SpaceToBatch(Primitive):
    """``SpaceToBatch(block_size, paddings)(input_x)``: pad H and W of an NCHW input, move blocks to the batch."""

    def __init__(self, block_size: int, paddings: Any) -> None:
        super().__init__()
        _set_attrs(self, block_size=_block(self, block_size), paddings=[list(p) for p in paddings])

    def __call__(self, input_x: Any) -> Any:
        return F.space_to_batch_nd(input_x, (self.block_size, self.block_size), self.paddings)


class SpaceToBatchND(Primitive):
    """``SpaceToBatchND(block_shape, paddings)(input_x)``."""

    def __init__(self, block_shape: Any, paddings: Any) -> None:
        super().__init__()
        _set_attrs(self, block_shape=block_shape, paddings=[list(p) for p in paddings])

    def __call__(self, input_x: Any) -> Any:
        return F.space_to_batch_nd(input_x, self.block_shape, self.paddings)


class DepthToSpace(Primitive):
    """``DepthToSpace(block_size)(x)``: NCHW channels into ``block_size x block_size`` spatial blocks
    (``out[n, c, h*b+i, w*b+j] = x[n, (i*b+j)*C' + c, h, w]``)."""

    def __init__(self, block_size: int) -> None:
        super().__init__()
        _set_attrs(self, block_size=_block(self, block_size))

    def __call__(self, x: Any) -> Any:
        n, c, h, w = F.shape(x)
        b = self.block_size
        if c % (b * b):
            raise ValueError(f"For 'DepthToSpace', the channels ({c}) must be divisible by block_size**2 ({b * b}).")
        y = F.reshape(x, (n, b, b, c // (b * b), h, w))
        return F.reshape(F.transpose(y, (0, 3, 4, 1, 5, 2)), (n, c // (b * b), h * b, w * b))


class SpaceToDepth(DepthToSpace):
    """``SpaceToDepth(block_size)(x)``: the inverse of :class:`DepthToSpace`."""

    def __call__(self, x: Any) -> Any:
        n, c, h, w = F.shape(x)
        b = self.block_size
        if h % b or w % b:
            raise ValueError(f"For 'SpaceToDepth', H ({h}) and W ({w}) must be divisible by block_size ({b}).")
        y = F.reshape(x, (n, c, h // b, b, w // b, b))
        return F.reshape(F.transpose(y, (0, 3, 5, 1, 2, 4)), (n, c * b * b, h // b, w // b))


class ReverseSequence(Primitive):
    """``ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths)``."""

    def __init__(self, seq_dim: int, batch_dim: int = 0) -> None:
        super().__init__()
        _set_attrs(
            self,
            seq_dim=check_int(seq_dim, "seq_dim", self.name),
            batch_dim=check_int(batch_dim, "batch_dim", self.name),
        )

    def __call__(self, x: Any, seq_lengths: Any) -> Any:
        return F.reverse_sequence(x, seq_lengths, self.seq_dim, self.batch_dim)


class MatrixDiagV3(Primitive):
    """``MatrixDiagV3(align='RIGHT_LEFT')(x, k, num_rows, num_cols, padding_value)``."""

    def __init__(self, align: str = "RIGHT_LEFT") -> None:
        super().__init__()
        _set_attrs(self, align=align)

    def __call__(self, x: Any, k: Any, num_rows: Any, num_cols: Any, padding_value: Any) -> Any:
        return F.matrix_diag(x, k, num_rows, num_cols, padding_value, self.align)


class MatrixDiagPartV3(MatrixDiagV3):
    """``MatrixDiagPartV3(align='RIGHT_LEFT')(x, k, padding_value)``."""

    def __call__(self, x: Any, k: Any, padding_value: Any) -> Any:  # type: ignore[override]
        return F.matrix_diag_part(x, k, padding_value, self.align)


class MatrixBandPart(Primitive):
    """``MatrixBandPart()(x, lower, upper)``."""

    def __call__(self, x: Any, lower: Any, upper: Any) -> Any:
        return F.matrix_band_part(x, lower, upper)


class DiagPart(Primitive):
    """``DiagPart()(input_x)``: for an input of shape ``S + S``, the diagonal ``out[i] = x[i, i]`` of shape ``S``."""

    def __call__(self, input_x: Any) -> Any:
        shp = F.shape(input_x)
        k = len(shp) // 2
        if len(shp) % 2 or shp[:k] != shp[k:] or not k:
            raise ValueError(f"For 'DiagPart', the input shape must be S + S, but got {shp}.")
        n = 1
        for d in shp[:k]:
            n *= d
        return F.reshape(F.diagonal(F.reshape(input_x, (n, n))), shp[:k])


class FillDiagonal(Primitive):
    """``FillDiagonal(fill_value, wrap=False)(input_x)``: ``input_x`` with its main diagonal set to
    ``fill_value`` (for a tall matrix with ``wrap``, the diagonal restarts every ``cols + 1`` rows)."""

    def __init__(self, fill_value: float, wrap: bool = False) -> None:
        super().__init__()
        _set_attrs(self, fill_value=float(fill_value), wrap=check_bool(wrap, "wrap", self.name))

    def __call__(self, input_x: Any) -> Any:
        shp = F.shape(input_x)
        if len(shp) < 2 or (len(shp) > 2 and len(set(shp)) != 1):
            raise ValueError(f"For 'FillDiagonal', the input must be 2-D or have all dimensions equal, but got {shp}.")
        if len(shp) > 2:
            idx = F.arange(shp[0])
            return F.tensor_scatter_update(
                input_x, F.stack([idx] * len(shp), -1), F.full((shp[0],), self.fill_value, dtype=F.dtype(input_x))
            )
        rows, cols = shp
        flat = F.reshape(input_x, (-1,))
        stop = rows * cols if self.wrap else min(rows, cols) * cols
        pos = F.arange(0, stop, cols + 1)
        pos = pos[: min(pos.shape[0], rows * cols)]
        vals = F.full((pos.shape[0],), self.fill_value, dtype=F.dtype(input_x))
        return F.reshape(F.tensor_scatter_update(flat, F.expand_dims(pos, -1), vals), shp)


class FillV2(Primitive):
    """``FillV2()(shape, value)``: a tensor of ``shape`` filled with the 0-d Tensor ``value`` (its dtype)."""

    def __call__(self, shape: Any, value: Any) -> Any:
        return F.full(shape, value, dtype=F.dtype(value) if hasattr(value, "dtype") else None)


class Fills(Primitive):
    """``Fills()(x, value)``."""

    def __call__(self, x: Any, value: Any) -> Any:
        return F.fills(x, value)


class Expand(Primitive):
    """``Expand()(x, shape)``."""

    def __call__(self, x: Any, shape: Any) -> Any:
        return F.expand(x, shape)


class ConjugateTranspose(Primitive):
    """``ConjugateTranspose()(x, perm)``: the transpose of the complex conjugate."""

    def __call__(self, x: Any, perm: Any) -> Any:
        return F.transpose(F.conj(x), perm)


class TransposeView(Primitive):
    """``TransposeView()(input, perm)``: the transpose (a new array: XLA arrays have no views)."""

    def __call__(self, input: Any, perm: Any) -> Any:
        return F.transpose(input, perm)


class TransposeExtView(Primitive):
    """``TransposeExtView()(input, dim0, dim1)``: ``input`` with two dims swapped (a new array)."""

    def __call__(self, input: Any, dim0: int, dim1: int) -> Any:
        return F.swapaxes(input, dim0, dim1)


class SplitV(Primitive):
    """``SplitV(size_splits, split_dim, num_split)(input_x)``: split into the listed sizes (one may be -1)."""

    def __init__(self, size_splits: Any, split_dim: int, num_split: int) -> None:
        super().__init__()
        _set_attrs(
            self,
            size_splits=list(size_splits),
            split_dim=check_int(split_dim, "split_dim", self.name),
            num_split=check_int(num_split, "num_split", self.name, 1),
        )
        if len(self.size_splits) != self.num_split:
            raise ValueError(
                f"For 'SplitV', the length of 'size_splits' ({len(self.size_splits)}) must equal 'num_split' "
                f"({self.num_split})."
            )

    def __call__(self, input_x: Any) -> Any:
        n = F.shape(input_x)[self.split_dim]
        sizes = list(self.size_splits)
        if sizes.count(-1) > 1:
            raise ValueError(f"For 'SplitV', at most one of 'size_splits' may be -1, but got {sizes}.")
        if -1 in sizes:
            sizes[sizes.index(-1)] = n - (sum(sizes) + 1)
        return F.split(input_x, sizes, self.split_dim)


class ParallelConcat(Primitive):
    """``ParallelConcat()(values)``: join tensors of shape ``(1, ...)`` along axis 0."""

    def __call__(self, values: Any) -> Any:
        for v in values:
            if F.shape(v)[:1] != (1,):
                raise ValueError(f"For 'ParallelConcat', each input must have first dim 1, but got {F.shape(v)}.")
        return F.concat(tuple(values), 0)


class IdentityN(Primitive):
    """``IdentityN()(x)``: the list or tuple of Tensors ``x`` itself."""

    def __call__(self, x: Any) -> Any:
        if not isinstance(x, (list, tuple)):
            raise TypeError(
                f"For 'IdentityN', the input must be a list or tuple of Tensors, but got {type(x).__name__}."
            )
        return x


class ScalarToArray(Primitive):
    """``ScalarToArray()(input_x)``: a number as a 0-d Tensor."""

    def __call__(self, input_x: Any) -> Any:
        return F.scalar_to_array(input_x)


class PopulationCount(Primitive):
    """``PopulationCount()(input_x)``."""

    def __call__(self, input_x: Any) -> Any:
        return F.population_count(input_x)


class HammingWindow(Primitive):
    """``HammingWindow(periodic=True, alpha=0.54, beta=0.46, dtype=mstype.float32)(length)``."""

    def __init__(self, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, dtype: Any = mstype.float32):
        super().__init__()
        _set_attrs(self, periodic=check_bool(periodic, "periodic", self.name), alpha=alpha, beta=beta, dtype=dtype)

    def __call__(self, length: Any) -> Any:
        n = int(length.reshape(-1)[0].item()) if hasattr(length, "reshape") else int(length)
        return F.hamming_window(n, self.periodic, self.alpha, self.beta, dtype=self.dtype)


class LogSpace(Primitive):
    """``LogSpace(steps=10, base=10, dtype=mstype.float32)(start, end)``: ``base ** linspace(start, end, steps)``."""

    def __init__(self, steps: int = 10, base: int = 10, dtype: Any = mstype.float32) -> None:
        super().__init__()
        _set_attrs(
            self, steps=check_int(steps, "steps", self.name, 0), base=check_int(base, "base", self.name), dtype=dtype
        )

    def __call__(self, start: Any, end: Any) -> Any:
        exps = F.cast(F.linspace(start, end, self.steps), mstype.float64)
        return F.cast(F.pow(float(self.base), exps), self.dtype)


class CountNonZero(Primitive):
    """``CountNonZero(dims=None)(x)``: the number of non-zero elements over ``dims`` (all by default), Int64."""

    def __init__(self, dims: Any = None) -> None:
        super().__init__()
        _set_attrs(self, dims=dims)

    def __call__(self, x: Any) -> Any:
        axis = () if self.dims is None else self.dims
        return F.count_nonzero(x, axis, False, mstype.int64)


class MoveTo(Primitive):
    """``MoveTo()(x, to, blocking)``."""

    def __call__(self, x: Any, to: str, blocking: bool) -> Any:
        return F.move_to(x, to, blocking)


class identity(Primitive):  # noqa: N801  (MindSpore's class name)
    """``identity()(x)``: ``x`` itself (the class of ``ops.identity``)."""

    def __call__(self, x: Any) -> Any:
        return x


class SelectView(Primitive):
    """``SelectView()(input, index, dim)``: the slice of ``input`` at ``index`` along ``dim`` (that dimension
    removed), MindSpore's view form of ``Tensor.select``; an XLA array is a copy, not a view."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, index: int, dim: int) -> Any:
        for value in (index, dim):
            if value < 0:
                raise RuntimeError(f"The int64_t value({value}) is less than 0.")
        n = input.shape[dim]
        if index >= n:
            raise IndexError(f"For 'SelectView', the 'index' must be in [0, {n}), but got {index}.")
        return F.squeeze(F.narrow(input, dim, index, 1), dim)


class CopyWithSlice(Primitive):
    """``CopyWithSlice()(self_tensor, src)``: copy ``src`` (of the same shape, cast to its dtype) into
    ``self_tensor`` in place; returns the copied value (a new Tensor, as MindSpore's)."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, self_tensor: Any, src: Any) -> Any:
        if tuple(src.shape) != tuple(self_tensor.shape):
            dst_shape, src_shape = (", ".join(map(str, t.shape)) for t in (self_tensor, src))
            raise RuntimeError(
                "storage_info->shape is not equal to src_tensor->shape(), storage_info->shape:[const vector]"
                f"{{{dst_shape}}}, src_tensor->shape:[const vector]{{{src_shape}}}"
            )
        value = F.cast(src, self_tensor.dtype)
        self_tensor.assign_value(value)
        return value


class Reshard(Primitive):
    """``Reshard(in_layout, out_layout, in_strategy)(tensor)``: ``tensor`` laid out as ``out_layout`` (a tuple of
    one called Layout) in semi-auto parallel, the same tensor otherwise (the primitive behind
    :func:`sporax.reshard`, which is the one to use)."""

    def __init__(self, in_layout: Any, out_layout: Any, in_strategy: Any) -> None:
        super().__init__()
        _set_attrs(self, in_layout=in_layout, out_layout=out_layout, in_strategy=in_strategy)

    def __call__(self, tensor: Any) -> Any:
        from .._sharding import reshard

        layout = self.out_layout[0] if isinstance(self.out_layout, (tuple, list)) else self.out_layout
        return reshard(tensor, layout)
