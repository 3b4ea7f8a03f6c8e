"""Operator classes for channel dropout and normalisation (``ops.Dropout2D``, ``ops.Dropout3D``,
``ops.RmsNorm``). Each keeps its construction arguments as attributes and calls the functional op."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..function import dropout_func as DF
from ..function import nn_extra_func as NX
from ..function import norm_func as NRM
from ._primitive import Primitive
from .array_ops import Reshape, Shape

__all__ = [
    "Dropout2D",
    "Dropout3D",
    "RmsNorm",
    "InTopK",
    "CheckValid",
    "Pdist",
    "NthElement",
    "NuclearNorm",
    "SeLU",
    "Dense",
    "DataFormatDimMap",
    "DataFormatVecPermute",
    "TensorToTuple",
    "reshape_",
    "shape_",
    "isconstant",
    "mixed_precision_cast",
]


class _ChannelDropout(Primitive):
    _ndim = 4

    def __init__(self, keep_prob: float = 0.5) -> None:
        super().__init__()
        self.keep_prob = validator.check_keep_prob(keep_prob, type(self).__name__)
        self.attrs.update(keep_prob=keep_prob)

    def __call__(self, x: Any) -> Any:
        return DF.channel_dropout(x, self.keep_prob, self._ndim, type(self).__name__)


class Dropout2D(_ChannelDropout):
    """``(output, mask)``: each channel of an ``(N, C, H, W)`` input is kept with probability ``keep_prob``
    (and scaled by ``1 / keep_prob``) or zeroed; ``mask`` is bool, of the input's shape.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> out, mask = ms.ops.Dropout2D(0.5)(ms.Tensor(np.ones([2, 1, 2, 3], np.float32)))
        >>> out.shape, mask.dtype
        ((2, 1, 2, 3), Bool)
    """

    _ndim = 4


class Dropout3D(_ChannelDropout):
    """``(output, mask)`` as :class:`Dropout2D` for an ``(N, C, D, H, W)`` input.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> out, mask = ms.ops.Dropout3D(0.5)(ms.Tensor(np.ones([2, 1, 2, 1, 2], np.float32)))
        >>> out.shape
        (2, 1, 2, 1, 2)
    """

    _ndim = 5


class RmsNorm(Primitive):
    """``(y, rstd)`` of :func:`ops.rms_norm` with this ``epsilon``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> y, rstd = ms.ops.RmsNorm()(ms.Tensor(np.ones([2, 3], np.float32)), ms.Tensor(np.ones([3], np.float32)))
        >>> y.shape
        (2, 3)
    """

    def __init__(self, epsilon: float = 1e-6) -> None:
        super().__init__()
        self.epsilon = epsilon
        self.attrs.update(epsilon=epsilon)

    def __call__(self, x: Any, gamma: Any) -> Any:
        return NRM.rms_norm(x, gamma, self.epsilon)


class InTopK(Primitive):
    """``InTopK(k)(x1, x2)``: :func:`ops.intopk`."""

    def __init__(self, k: int) -> None:
        super().__init__()
        validator.check_value_type("k", k, [int], "InTopK")
        self.k = k
        self.attrs.update(k=k)

    def __call__(self, x1: Any, x2: Any) -> Any:
        return NX.intopk(x1, x2, self.k)


class CheckValid(Primitive):
    """``CheckValid()(bboxes, img_metas)``: :func:`ops.check_valid`."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, bboxes: Any, img_metas: Any) -> Any:
        return NX.check_valid(bboxes, img_metas)


class Pdist(Primitive):
    """``Pdist(p=2.0)(x)``: :func:`ops.pdist`."""

    def __init__(self, p: float = 2.0) -> None:
        super().__init__()
        validator.check_value_type("p", p, [float], "Pdist")
        self.p = p
        self.attrs.update(p=p)

    def __call__(self, x: Any) -> Any:
        return NX.pdist(x, self.p)


class NthElement(Primitive):
    """``NthElement(reverse=False)(input, n)``: the ``n``-th smallest (largest with ``reverse``) value along the
    last axis."""

    def __init__(self, reverse: bool = False) -> None:
        super().__init__()
        self.reverse = validator.check_bool(reverse, "reverse", "NthElement")
        self.attrs.update(reverse=reverse)

    def __call__(self, input: Any, n: Any) -> Any:
        return NX.nth_element(input, n, self.reverse)


class NuclearNorm(Primitive):
    """``NuclearNorm(dim=None, keepdim=False)(input)``: the sum of singular values over the two axes ``dim``."""

    def __init__(self, dim: Any = None, keepdim: bool = False) -> None:
        super().__init__()
        self.dim, self.keepdim = dim, keepdim
        self.attrs.update(dim=dim, keepdim=keepdim)

    def __call__(self, input: Any) -> Any:
        return NX.nuclear_norm(input, self.dim, self.keepdim)


class SeLU(Primitive):
    """``SeLU()(input_x)``: :func:`ops.selu`."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any) -> Any:
        from .. import function as F

        return F.selu(input_x)


class Dense(Primitive):
    """``Dense()(x, w, b=None)``: :func:`ops.dense`."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, w: Any, b: Any = None) -> Any:
        from .. import function as F

        return F.dense(x, w, b)


class _DataFormat(Primitive):
    def __init__(self, src_format: str = "NHWC", dst_format: str = "NCHW") -> None:
        super().__init__()
        name = type(self).__name__
        valid = ["NHWC", "NCHW"]
        self.src_format = validator.check_string(src_format, valid, "src_format", name)
        self.dst_format = validator.check_string(dst_format, valid, "dst_format", name)
        self.attrs.update(src_format=src_format, dst_format=dst_format)


class DataFormatDimMap(_DataFormat):
    """``DataFormatDimMap(src_format='NHWC', dst_format='NCHW')(input_x)``: for each axis index of
    ``dst_format``, the index of the same axis in ``src_format``."""

    def __call__(self, input_x: Any) -> Any:
        return NX.data_format_dim_map(input_x, self.src_format, self.dst_format)


class DataFormatVecPermute(_DataFormat):
    """``DataFormatVecPermute(src_format='NHWC', dst_format='NCHW')(x)``: a ``(4,)`` shape vector or ``(4, 2)``
    table reordered from ``src_format`` to ``dst_format``."""

    def __call__(self, x: Any) -> Any:
        return NX.data_format_vec_permute(x, self.src_format, self.dst_format)


class TensorToTuple(Primitive):
    """``TensorToTuple()(x)``: the elements of a 1-D Tensor as a tuple of Python numbers (a host read)."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> Any:
        validator.check_ndim(x.ndim, 1, "x", "TensorToTuple")
        return tuple(x.asnumpy().tolist())


class _IsConstant(Primitive):
    """``isconstant(x)``: whether ``x`` is a compile-time constant (everything but a Tensor)."""

    def __init__(self) -> None:
        super().__init__("IsConstant")

    def __call__(self, x: Any) -> bool:
        from ..functional import isconstant as _isconstant

        return _isconstant(x)


class _MixedPrecisionCast(Primitive):
    """``mixed_precision_cast(dst_dtype, x)``: the floating Tensors in ``x`` (nested tuples, lists and dicts
    too) cast to ``dst_dtype``."""

    def __init__(self) -> None:
        super().__init__("MixedPrecisionCast")

    def __call__(self, dst_dtype: Any, x: Any) -> Any:
        from ..composite._multitype import mixed_precision_cast as _cast

        return _cast(dst_dtype, x)


# MindSpore's primitive instances under ops (``ops.reshape_(x, shape)``, ``ops.shape_(x)``...)
reshape_ = Reshape()
shape_ = Shape()
isconstant = _IsConstant()
mixed_precision_cast = _MixedPrecisionCast()
