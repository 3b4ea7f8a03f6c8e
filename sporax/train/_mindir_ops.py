"""MindSpore operators of a loaded MindIR, run with sporax's primitive classes.

sporax's ``ops.<Name>`` classes take MindSpore's constructor arguments, so one rule runs most operators:

* a *primitive* (``Conv2D``, ``MaxPool``, ``Pad``, ``Stack``) carries its constructor arguments as
  attributes: ``ops.<Name>(**attrs)(*inputs)``;
* a *primitive function* (most operators in MindSpore 2.x) takes them as its last inputs, after the call
  arguments, in the constructor's order: ``ReduceSum(x, axis, keep_dims, skip_mode)`` is
  ``ops.ReduceSum(keep_dims, skip_mode)(x, axis)``. Enumerations arrive as integers (format 0 = NCHW,
  pad mode 2 = VALID, a dtype as its TypeId) and are converted back.

Graph plumbing (``Load``, ``UpdateState``, ``Depend``, ``MakeTuple``, ``TupleGetItem``) and operators
whose MindIR form differs from the class (``Cast``, ``MatMulExt``, ``ClampScalar``) are handled first.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import ops
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..ops._lowering.mindir import TYPE_IDS
from ._mindir_read import MONAD, MindIRError

__all__ = ["run_node"]

_DTYPE_OF_ID = {v: mstype.from_np(k) for k, v in TYPE_IDS.items()}
_FORMATS = {0: "NCHW", 1: "NHWC", 2: "NC1HWC0", 3: "NCDHW"}
_PAD_MODES = {0: "PAD", 1: "SAME", 2: "VALID"}
_ATTR_NAMES = {"format": "data_format"}


def _dtype(v: Any) -> Any:
    if isinstance(v, int):
        try:
            return _DTYPE_OF_ID[v]
        except KeyError:
            raise MindIRError(f"For 'load', the MindIR dtype number {v} is not supported.") from None
    return v


def _init_value(name: str, v: Any) -> Any:
    if isinstance(v, np.ndarray) and v.ndim == 0:
        v = v.item()
    if name in ("data_format", "format") and isinstance(v, int):
        return _FORMATS.get(v, v)
    if name == "pad_mode" and isinstance(v, int):
        return _PAD_MODES.get(v, v)
    if name in ("output_type", "dtype", "type"):
        return _dtype(v)
    return v


def _call_value(v: Any) -> Any:
    return Tensor(v) if isinstance(v, np.ndarray) else v


@functools.cache
def _init_params(cls: type) -> tuple[str, ...]:
    sig = inspect.signature(cls.__init__)  # type: ignore[misc]
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(p.name for p in list(sig.parameters.values())[1:] if p.kind in kinds)


def _cast(args: list[Any], attrs: dict[str, Any]) -> Any:
    return ops.cast(_call_value(args[0]), _dtype(args[1]))


def _tuple_get_item(args: list[Any], attrs: dict[str, Any]) -> Any:
    return args[0][int(args[1])]


_SPECIAL: dict[str, Callable[[list[Any], dict[str, Any]], Any]] = {
    "Load": lambda a, _: a[0],
    "Depend": lambda a, _: a[0],
    "UpdateState": lambda a, _: MONAD,
    "Return": lambda a, _: a[0],
    "MakeTuple": lambda a, _: tuple(a),
    "make_list": lambda a, _: list(a),
    "make_tuple": lambda a, _: tuple(a),
    "TupleGetItem": _tuple_get_item,
    "Cast": _cast,
    "MatMulExt": lambda a, _: ops.matmul(_call_value(a[0]), _call_value(a[1])),
    "ClampScalar": lambda a, _: ops.clamp(_call_value(a[0]), a[1], a[2]),
}


def run_node(op: str, args: list[Any], attrs: dict[str, Any], function: bool) -> Any:
    """The value of operator ``op`` on ``args`` (``attrs``: a primitive's attributes)."""
    special = _SPECIAL.get(op)
    if special is not None:
        return special(args, attrs)
    args = [a for a in args if a is not MONAD]
    cls = getattr(ops, op, None)
    if not isinstance(cls, type):
        raise MindIRError(f"For 'load', the MindIR operator '{op}' is not supported by sporax.")
    names = _init_params(cls)
    if function:
        n = min(len(names), max(len(args) - 1, 0))
        call, init = args[: len(args) - n], args[len(args) - n :]
        kwargs = {name: _init_value(name, v) for name, v in zip(names, init, strict=False)}
    else:
        call = args
        kwargs = {}
        for key, v in attrs.items():
            name = _ATTR_NAMES.get(key, key)
            if name in names:
                kwargs[name] = _init_value(name, v)
    try:
        prim = cls(**kwargs)
    except TypeError as err:
        raise MindIRError(f"For 'load', the MindIR operator '{op}' has arguments sporax cannot take: {err}") from None
    return prim(*[_call_value(a) for a in call])
