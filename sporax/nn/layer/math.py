"""Math cells: ReduceLogSumExp, Range, LGamma, DiGamma, IGamma, LBeta, MatMul, Moments, MatInverse, MatDet
(MindSpore's deprecated cell forms of ops; each delegates to the op)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.tensor import Tensor
from ..cell import Cell

__all__ = [
    "ReduceLogSumExp",
    "Range",
    "LGamma",
    "DiGamma",
    "IGamma",
    "LBeta",
    "MatMul",
    "Moments",
    "MatInverse",
    "MatDet",
]


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x), axis))``, computed stably (the max subtracted first).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.ReduceLogSumExp(1, keep_dims=True)(ms.Tensor(np.zeros([2, 4], np.float32))).shape
        (2, 1)
    """

    def __init__(self, axis: Any, keep_dims: bool = False) -> None:
        super().__init__()
        validator.check_value_type("axis", axis, [int, list, tuple], self.cls_name)
        validator.check_value_type("keep_dims", keep_dims, [bool], self.cls_name)
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x: Tensor) -> Tensor:
        axis = tuple(self.axis) if isinstance(self.axis, list) else self.axis
        return ops.logsumexp(x, axis, self.keep_dims)


class Range(Cell):
    """The constant ``arange(start, limit, delta)`` (float32 when any bound is a float, else int32).

    Examples:
        >>> import sporax as ms
        >>> ms.nn.Range(1, 8, 2)().asnumpy().tolist()
        [1, 3, 5, 7]
    """

    def __init__(self, start: Any, limit: Any = None, delta: Any = 1) -> None:
        super().__init__()
        if delta == 0:
            raise ValueError(f"For '{self.cls_name}', the 'delta' can not be zero.")
        data = np.arange(start, limit, delta)
        self.ms_dtype = mstype.float32 if data.dtype == np.float64 else mstype.int32
        self.result_tensor = Tensor(data, dtype=self.ms_dtype)

    def construct(self) -> Tensor:
        return self.result_tensor


class _Unary(Cell):
    _op = ""

    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Tensor) -> Tensor:
        validator.check_type_name("x", x.dtype, [mstype.float16, mstype.float32], self.cls_name)
        return getattr(ops, self._op)(x)


class LGamma(_Unary):
    """``log|Γ(x)|`` elementwise (float16/float32).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.LGamma()(ms.Tensor(np.array([2.0, 3.0], np.float32))).asnumpy().round(4).tolist()
        [0.0, 0.6931]
    """

    _op = "lgamma"


class DiGamma(_Unary):
    """``ψ(x) = d/dx log Γ(x)`` elementwise (float16/float32).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.DiGamma()(ms.Tensor(np.array([1.0], np.float32))).asnumpy().round(4).tolist()
        [-0.5772]
    """

    _op = "digamma"


class IGamma(Cell):
    """The regularised lower incomplete gamma function ``P(a, x)`` (float32/float64, broadcast).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> a = ms.Tensor(np.array([1.0], np.float32))
        >>> ms.nn.IGamma()(a, a).asnumpy().round(4).tolist()
        [0.6321]
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, a: Tensor, x: Tensor) -> Tensor:
        validator.check_tensors_dtypes_same_and_valid(
            {"a": a.dtype, "x": x.dtype}, [mstype.float32, mstype.float64], self.cls_name
        )
        return ops.igamma(a, x)


class LBeta(Cell):
    """``log|B(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y)`` (float16/float32, broadcast).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> one = ms.Tensor(np.array([1.0], np.float32))
        >>> ms.nn.LBeta()(one, one).asnumpy().tolist()
        [0.0]
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, x: Tensor, y: Tensor) -> Tensor:
        validator.check_tensors_dtypes_same_and_valid(
            {"x": x.dtype, "y": y.dtype}, [mstype.float16, mstype.float32], self.cls_name
        )
        return ops.lgamma(x) + ops.lgamma(y) - ops.lgamma(x + y)


class MatMul(Cell):
    """``x1 @ x2`` with optional transposes of the last two axes; 1-D operands as in ``numpy.matmul``; batch
    axes broadcast.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.MatMul(transpose_x2=True)(ms.Tensor(np.ones([2, 3], np.float32)),
        ...                                 ms.Tensor(np.ones([4, 3], np.float32))).shape
        (2, 4)
    """

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False) -> None:
        super().__init__()
        validator.check_value_type("transpose_x1", transpose_x1, [bool], self.cls_name)
        validator.check_value_type("transpose_x2", transpose_x2, [bool], self.cls_name)
        self.transpose_x1 = transpose_x1
        self.transpose_x2 = transpose_x2

    def construct(self, x1: Tensor, x2: Tensor) -> Tensor:
        if self.transpose_x1 and x1.ndim > 1:
            x1 = ops.swapaxes(x1, -1, -2)
        if self.transpose_x2 and x2.ndim > 1:
            x2 = ops.swapaxes(x2, -1, -2)
        k1 = x1.shape[-1]
        k2 = x2.shape[-2] if x2.ndim > 1 else x2.shape[-1]
        if k1 != k2:
            raise ValueError(
                f"For '{self.cls_name}', the 'x1' column (transposed: {self.transpose_x1}) must be equal to the "
                f"'x2' row (transposed: {self.transpose_x2}), but got {k1} and {k2}."
            )
        return ops.matmul(x1, x2)


class Moments(Cell):
    """``(mean, variance)`` of ``x`` over ``axis`` (all axes by default); float16 is computed in float32.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> mean, var = ms.nn.Moments(axis=0)(ms.Tensor(np.array([1.0, 3.0], np.float32)))
        >>> float(mean), float(var)
        (2.0, 1.0)
    """

    def __init__(self, axis: Any = None, keep_dims: bool | None = None) -> None:
        super().__init__()
        if axis is None:
            axis = ()
        if isinstance(axis, tuple):
            for idx, item in enumerate(axis):
                validator.check_value_type(f"axis[{idx}]", item, [int], self.cls_name)
        self.axis = validator.check_value_type("axis", axis, [int, tuple], self.cls_name)
        self.keep_dims = validator.check_value_type(
            "keep_dims", False if keep_dims is None else keep_dims, [bool], self.cls_name
        )

    def construct(self, x: Tensor) -> tuple[Tensor, Tensor]:
        validator.check_type_name("input x", x.dtype, [mstype.float16, mstype.float32], self.cls_name)
        xf = ops.cast(x, mstype.float32) if x.dtype == mstype.float16 else x
        axis = self.axis if self.axis != () else tuple(range(x.ndim))
        mean = ops.mean(xf, axis, keep_dims=True)
        var = ops.mean(ops.square(xf - ops.stop_gradient(mean)), axis, keep_dims=True)
        if not self.keep_dims:
            mean, var = ops.squeeze(mean, axis), ops.squeeze(var, axis)
        if x.dtype == mstype.float16:
            mean, var = ops.cast(mean, mstype.float16), ops.cast(var, mstype.float16)
        return mean, var


class MatInverse(Cell):
    """The inverse of a symmetric positive-definite matrix (through its Cholesky factor, as MindSpore).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> a = ms.Tensor(np.array([[4.0, 0.0], [0.0, 2.0]], np.float32))
        >>> ms.nn.MatInverse()(a).asnumpy().tolist()
        [[0.25, 0.0], [0.0, 0.5]]
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, a: Tensor) -> Tensor:
        validator.check_type_name("input_a", a.dtype, [mstype.float16, mstype.float32], self.cls_name)
        l_inv = ops.inverse(ops.cholesky(a))
        return ops.matmul(ops.swapaxes(l_inv, -1, -2), l_inv)


class MatDet(Cell):
    """The determinant of a symmetric positive-definite matrix (the squared product of its Cholesky
    factor's diagonal, as MindSpore).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> a = ms.Tensor(np.array([[4.0, 0.0], [0.0, 2.0]], np.float32))
        >>> float(ms.nn.MatDet()(a))
        8.0
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, a: Tensor) -> Tensor:
        validator.check_type_name("input_a", a.dtype, [mstype.float16, mstype.float32], self.cls_name)
        diag = ops.diagonal(ops.cholesky(a), 0, -2, -1)
        return ops.square(ops.prod(diag, -1))
