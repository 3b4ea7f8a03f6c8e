"""``mindspore.ops.auto_generate.pyboost_inner_prim``: the ``*_impl`` primitives MindSpore's functions call
(positional arguments in the op definition's order). sporax has no separate kernel layer: each is a
:class:`PrimitiveFunction_` that calls the functional op."""

from __future__ import annotations

from typing import Any

from .. import function as F
from ..operations._primitive import PrimitiveFunction_

__all__ = [
    "cross_impl",
    "broadcast_to_impl",
    "meshgrid_impl",
    "nan_to_num_impl",
    "roll_impl",
    "squeeze_impl",
    "softshrink_impl",
    "reduce_max_impl",
    "reduce_min_impl",
    "reduce_all_impl",
]


class _Impl(PrimitiveFunction_):
    def __init__(self, name: str, fn: Any) -> None:
        super().__init__(name)
        self._fn = fn

    def __call__(self, *args: Any) -> Any:
        return self._fn(*args)

    def clone(self) -> _Impl:
        return _Impl(self.name, self._fn)


cross_impl = _Impl("Cross", F.cross)
broadcast_to_impl = _Impl("BroadcastTo", F.broadcast_to)
meshgrid_impl = _Impl("Meshgrid", lambda inputs, indexing="xy": F.meshgrid(*inputs, indexing=indexing))
nan_to_num_impl = _Impl("NanToNum", F.nan_to_num)
roll_impl = _Impl("Roll", F.roll)
squeeze_impl = _Impl("Squeeze", F.squeeze)
softshrink_impl = _Impl("SoftShrink", F.softshrink)
reduce_max_impl = _Impl("ReduceMax", lambda x, axis=(), keep_dims=False: F.amax(x, axis, keep_dims))
reduce_min_impl = _Impl("ReduceMin", lambda x, axis=(), keep_dims=False: F.amin(x, axis, keep_dims))
reduce_all_impl = _Impl("ReduceAll", lambda x, axis=(), keep_dims=False: F.all(x, axis, keep_dims))
