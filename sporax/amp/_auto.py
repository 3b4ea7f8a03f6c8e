"""``amp_level="auto"``: per-operator mixed precision (MindSpore's ``AmpLevel.AmpAuto`` strategy).

MindSpore keeps three operator lists (``mindspore.train.amp.AMP_AUTO_WHITE_LIST`` / ``AMP_AUTO_BLACK_LIST``
and a promote list in its C++ dispatcher). While a network converted with ``auto_mixed_precision(net,
"auto", dtype)`` runs, white-list operators compute in ``dtype``, black-list operators in float32,
promote-list operators in the widest float type of their inputs, and every other operator in the type its
inputs have. sporax sets the strategy (a thread-local) around the network's ``construct`` and its op entry
points cast (:mod:`sporax.ops._amp`); a jit or GRAPH_MODE trace sees the same casts, so PyNative and
GRAPH_MODE compute alike. Parameters stay float32.
"""

from __future__ import annotations

import enum
import functools
import inspect
import types
from collections.abc import Callable
from typing import Any

from .. import nn
from .._engine import state
from ..common import dtype as mstype

__all__ = ["AmpLevel", "AmpStrategy", "AMP_AUTO_WHITE_LIST", "AMP_AUTO_BLACK_LIST", "AMP_AUTO_PROMOTE_LIST"]

# MindSpore 2.10's lists (primitive names), as ``AmpStrategy.get_white_list()`` reports them.
AMP_AUTO_WHITE_LIST: list[str] = [
    "Conv2D",
    "Conv3D",
    "Conv2DExt",
    "Conv3DExt",
    "ConvTranspose2D",
    "Conv2DTranspose",
    "Conv3DTranspose",
    "Convolution",
    "MatMul",
    "MatMulExt",
    "BatchMatMul",
    "BatchMatMulExt",
    "PReLU",
    "Einsum",
    "Dense",
    "Addmm",
    "Addbmm",
    "Addmv",
    "Baddbmm",
    "Mv",
]

AMP_AUTO_BLACK_LIST: list[str] = [
    "Pow",
    "ACos",
    "Asin",
    "Cosh",
    "Erfinv",
    "Exp",
    "Expm1",
    "Log",
    "Log10",
    "Log1p",
    "Log2",
    "Reciprocal",
    "Rsqrt",
    "Sinh",
    "Tan",
    "Softplus",
    "SoftplusExt",
    "LayerNorm",
    "LayerNormExt",
    "BatchNorm",
    "BatchNormExt",
    "GroupNorm",
    "Norm",
    "KLDivLoss",
    "SmoothL1Loss",
    "MultilabelMarginLoss",
    "SoftMarginLoss",
    "TripletMarginLoss",
    "MultiMarginLoss",
    "BCEWithLogitsLoss",
    "Pdist",
    "Cdist",
    "Renorm",
    "ReduceProd",
    "Softmax",
    "LogSoftmax",
    "LogSoftmaxExt",
    "CumProd",
    "CumSum",
    "CumsumExt",
    "ProdExt",
    "SumExt",
    "L1LossExt",
    "MSELossExt",
    "NLLLoss",
    "NLLLoss2d",
]

AMP_AUTO_PROMOTE_LIST: list[str] = [
    "Addcdiv",
    "Addcmul",
    "Cross",
    "_PyboostCrossPrim",
    "Dot",
    "GridSampler2D",
    "GridSampler3D",
    "BiasAdd",
    "AddN",
    "Concat",
]


class AmpLevel(enum.Enum):
    """The mixed precision levels of an :class:`AmpStrategy` (``AmpLevel.AmpAuto`` for ``"auto"``)."""

    AmpO0 = 0
    AmpO1 = 1
    AmpO2 = 2
    AmpO3 = 3
    AmpAuto = 4


class AmpStrategy:
    """What ``auto_mixed_precision(net, "auto", dtype)`` attaches to the network as ``net.amp_strategy``:
    its level, low precision type, and white and black lists as ``(primitive name, converted inputs)``
    pairs (an empty input list: all floating inputs)."""

    def __init__(self, level: AmpLevel, dtype: Any, white_list: list[tuple[str, list[int]]], black_list: Any) -> None:
        self._level, self._dtype = level, dtype
        self._white, self._black = list(white_list), list(black_list)

    def get_amp_level(self) -> AmpLevel:
        return self._level

    def get_amp_dtype(self) -> Any:
        return self._dtype

    def get_white_list(self) -> list[tuple[str, list[int]]]:
        return list(self._white)

    def get_black_list(self) -> list[tuple[str, list[int]]]:
        return list(self._black)

    def __repr__(self) -> str:
        return f"AmpStrategy(level={self._level}, dtype={self._dtype})"


def _with_strategy(fn: Callable[..., Any], dtype: Any) -> Callable[..., Any]:
    """``fn`` run with the auto strategy for ``dtype`` set (restored afterwards, so scopes nest)."""
    np_dtype = mstype.to_np(dtype)

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        prev = state.set_amp_dtype(np_dtype)
        try:
            return fn(*args, **kwargs)
        finally:
            state.set_amp_dtype(prev)

    return run


def amp_auto(network: Any, dtype: Any) -> Any:
    """The ``"auto"`` level of ``auto_mixed_precision``: ``network`` (a Cell, changed in place, or a
    function, wrapped) runs with the per-operator strategy."""
    strategy = AmpStrategy(
        AmpLevel.AmpAuto,
        dtype,
        [(name, []) for name in AMP_AUTO_WHITE_LIST],
        [(name, []) for name in AMP_AUTO_BLACK_LIST],
    )
    if isinstance(network, nn.Cell):
        network.__dict__["amp_strategy"] = strategy
        # The instance's construct (as MindSpore's context decorator): the strategy is set while it runs,
        # eagerly and while it is traced; the Cell's own call path (hooks, to_float, jit) is unchanged.
        # Bound to the network (a copy.deepcopy of it binds to the copy).
        construct = network.construct
        if inspect.ismethod(construct) and construct.__self__ is network:
            construct = types.MethodType(_with_strategy(construct.__func__, dtype), network)
        else:  # a callable the user put on the instance
            construct = _with_strategy(construct, dtype)
        network.__dict__["construct"] = construct
        state.bump_epoch()  # a program compiled before the conversion must not be reused
        return network
    if inspect.isfunction(network):
        network.amp_strategy = strategy  # type: ignore[attr-defined]
    return _with_strategy(network, dtype)
