"""``nn.ClipByNorm``: clip a tensor to a maximum L2 norm."""

from __future__ import annotations

from typing import Any

from ... import ops
from ..._checkparam import check_instance
from ...common import dtype as mstype
from ...common.tensor import Tensor
from ..cell import Cell

__all__ = ["ClipByNorm"]


class ClipByNorm(Cell):
    r"""Clips tensor values to a maximum :math:`L_2`-norm.

    The output is the input if its :math:`L_2`-norm (over `axis`) is at most `clip_norm`; otherwise

    .. math::
        \text{output}(X) = \frac{\text{clip_norm} * X}{L_2(X)}.

    Args:
        axis (Union[None, int, tuple(int), list(int)]): The dimensions the norm is computed over.
            Default: ``None``, all dimensions.

    Inputs:
        - **x** (Tensor) - An N-D Tensor of float16, bfloat16 or float32.
        - **clip_norm** (Tensor) - A Tensor of shape :math:`()` or :math:`(1)`, or broadcastable to the
          norm's shape (`x` with `axis` kept as size 1). A Python number is accepted too.

    Outputs:
        Tensor, of the shape of `x`, float32.

    Raises:
        TypeError: If `axis` is not None, an int, a tuple or a list of ints.
        TypeError: If the dtype of `x` is not a float16, bfloat16 or float32.

    Examples:
        >>> net = nn.ClipByNorm()
        >>> x = Tensor(np.random.randint(0, 10, [4, 16]), ms.float32)
        >>> clip_norm = Tensor(np.array([100]).astype(np.float32))
        >>> net(x, clip_norm).shape
        (4, 16)
    """

    def __init__(self, axis: Any = None) -> None:
        super().__init__()
        if axis is not None and (isinstance(axis, bool) or not isinstance(axis, (int, tuple, list))):
            raise TypeError(
                "For 'ClipByNorm', the type of 'axis' should be one of '['int', 'tuple', 'list']', "
                f"but got type '{type(axis).__name__}'."
            )
        if isinstance(axis, (tuple, list)):
            for a in axis:
                if isinstance(a, bool) or not isinstance(a, int):
                    raise TypeError(
                        f"For 'ClipByNorm', every element of 'axis' should be an int, but got {type(a).__name__}."
                    )
        self.axis = () if axis is None else axis
        self._axis = None if axis is None else (tuple(axis) if isinstance(axis, (tuple, list)) else (axis,))

    def construct(self, x: Any, clip_norm: Any) -> Any:
        check_instance(x, Tensor, "x", "ClipByNorm")
        if x.dtype not in (mstype.float16, mstype.float32, mstype.bfloat16):
            raise TypeError(
                f"For 'ClipByNorm', the input argument[x] must be a type of {{Float16, Float32, BFloat16}}, "
                f"but got {x.dtype}."
            )
        if self._axis is not None:
            for a in self._axis:
                if not -x.ndim <= a < max(x.ndim, 1):
                    raise ValueError(f"For 'ClipByNorm', the 'axis' {a} is out of range for an input of rank {x.ndim}.")
        x = ops.cast(x, mstype.float32)
        clip = ops.cast(clip_norm if isinstance(clip_norm, Tensor) else Tensor(clip_norm), mstype.float32)
        l2sum = ops.sum(ops.square(x), self._axis, keepdim=True)
        positive = l2sum > 0
        l2norm = ops.select(positive, ops.sqrt(ops.select(positive, l2sum, ops.ones_like(l2sum))), l2sum)
        intermediate = x * clip
        return intermediate / ops.maximum(l2norm, clip)

    def extend_repr(self) -> str:
        return f"axis={None if self._axis is None else self.axis}"
