"""MindSpore's graph-syntax primitives on Python values (``F.tuple_getitem``, ``F.make_range``, ``F.typeof``,
``F.hastype``, ``F.switch``...). MindSpore's compiler uses them to express Python operations in its graphs;
programs also call them directly. sporax traces Python, so each is the Python operation it stands for
(valid inside ``jit`` too, on the trace-time values)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._checkparam import check_instance
from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = [
    "bool_and", "bool_or", "bool_not", "bool_eq",
    "tuple_len", "tuple_getitem", "tuple_setitem", "tuple_equal", "tuple_reversed", "tuple_div",
    "list_len", "list_getitem", "list_setitem", "list_equal",
    "dict_getitem", "dict_setitem", "in_dict", "not_in_dict",
    "make_tuple", "make_list", "make_dict", "make_range", "make_slice",
    "string_eq", "string_concat", "scalar_ne", "is_", "is_not",
    "typeof", "hastype", "switch", "broadcast_gradient_args", "stop_gradient_",
]  # fmt: skip


class _GraphPrim:
    """A named graph primitive, called with positional arguments."""

    def __init__(self, name: str, fn: Callable[..., Any]) -> None:
        self.name = name
        self._fn = fn
        self.__doc__ = fn.__doc__

    def __call__(self, *args: Any) -> Any:
        return self._fn(*args)

    def __repr__(self) -> str:
        return f"Prim[{self.name}]"


def _prim(fn: Callable[..., Any]) -> _GraphPrim:
    return _GraphPrim(fn.__name__.lstrip("_"), fn)


def _tuple_setitem(seq: tuple, index: int, value: Any) -> tuple:
    """``seq`` with element ``index`` replaced."""
    items = list(seq)
    items[index] = value
    return tuple(items)


def _list_setitem(seq: list, index: int, value: Any) -> list:
    """A copy of ``seq`` with element ``index`` replaced."""
    items = list(seq)
    items[index] = value
    return items


def _dict_setitem(d: dict, key: Any, value: Any) -> dict:
    """A copy of ``d`` with ``key`` set."""
    out = dict(d)
    out[key] = value
    return out


def _make_range(*args: int) -> tuple:
    """``tuple(range(*args))``."""
    if not 1 <= len(args) <= 3 or not all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        raise TypeError("For 'make_range', the inputs must be 1 to 3 ints.")
    return tuple(range(*args))


def _typeof(x: Any) -> mstype.Type:
    """The MindSpore type of ``x``: ``TensorType(dtype)`` for a Tensor, the dtype of a Python scalar (int:
    Int64, float: Float32, bool: Bool), ``tuple_``/``list_``/``string``/``type_none`` for the others."""
    if isinstance(x, Tensor):
        return mstype.TensorType(x.dtype)
    if isinstance(x, bool):
        return mstype.bool_
    if isinstance(x, int):
        return mstype.int64
    if isinstance(x, float):
        return mstype.float32
    if isinstance(x, tuple):
        return mstype.tuple_
    if isinstance(x, list):
        return mstype.list_
    if isinstance(x, str):
        return mstype.string
    if x is None:
        return mstype.type_none
    if isinstance(x, mstype.Type):
        return x
    raise TypeError(f"For 'typeof', the type of {type(x).__name__} has no MindSpore type.")


def _hastype(x: Any, t: Any) -> bool:
    """Whether ``x``'s type is ``t`` or belongs to it (``number``, ``tensor_type``, ``tuple_``...)."""
    xt = _typeof(x)
    if t is mstype.tensor_type:
        return isinstance(xt, mstype.TensorType)
    if t is mstype.number:
        return isinstance(xt, mstype.Number) and not isinstance(xt, mstype.TensorType)
    if isinstance(t, mstype.TensorType) and isinstance(xt, mstype.TensorType):
        return t.element_type() is None or t == xt
    return xt == t


def _broadcast_gradient_args(x_shape: tuple, y_shape: tuple) -> tuple[tuple, tuple]:
    """The axes to sum the gradients of ``x`` and ``y`` over after they broadcast together."""
    n = max(len(x_shape), len(y_shape))
    xs = (1,) * (n - len(x_shape)) + tuple(x_shape)
    ys = (1,) * (n - len(y_shape)) + tuple(y_shape)
    rx, ry = [], []
    for i, (a, b) in enumerate(zip(xs, ys, strict=True)):
        if a == b:
            continue
        if a == 1:
            rx.append(i)
        elif b == 1:
            ry.append(i)
        else:
            raise ValueError(f"For 'broadcast_gradient_args', the shapes {x_shape} and {y_shape} cannot broadcast.")
    return tuple(rx), tuple(ry)


def stop_gradient_(input: Any) -> None:  # noqa: A002
    """Stop gradients flowing back through ``input`` from here on (in place)."""
    from .function import stop_gradient

    check_instance(input, Tensor, "input", "stop_gradient_")
    input._data = stop_gradient(input)._data


bool_and = _GraphPrim("bool_and", lambda x, y: bool(x) and bool(y))
bool_or = _GraphPrim("bool_or", lambda x, y: bool(x) or bool(y))
bool_not = _GraphPrim("bool_not", lambda x: not bool(x))
bool_eq = _GraphPrim("bool_eq", lambda x, y: bool(x) == bool(y))
tuple_len = _GraphPrim("tuple_len", len)
tuple_getitem = _GraphPrim("tuple_getitem", lambda seq, i: seq[i])
tuple_setitem = _prim(_tuple_setitem)
tuple_equal = _GraphPrim("tuple_equal", lambda x, y: tuple(x) == tuple(y))
tuple_reversed = _GraphPrim("tuple_reversed", lambda seq: tuple(reversed(seq)))
tuple_div = _GraphPrim("tuple_div", lambda x, y: tuple(a // b for a, b in zip(x, y, strict=True)))
list_len = _GraphPrim("list_len", len)
list_getitem = _GraphPrim("list_getitem", lambda seq, i: seq[i])
list_setitem = _prim(_list_setitem)
list_equal = _GraphPrim("list_equal", lambda x, y: list(x) == list(y))
dict_getitem = _GraphPrim("dict_getitem", lambda d, k: d[k])
dict_setitem = _prim(_dict_setitem)
in_dict = _GraphPrim("in_dict", lambda k, d: k in d)
not_in_dict = _GraphPrim("not_in_dict", lambda k, d: k not in d)
make_tuple = _GraphPrim("make_tuple", lambda *args: tuple(args))
make_list = _GraphPrim("make_list", lambda *args: list(args))
make_dict = _GraphPrim("make_dict", lambda keys, values: dict(zip(keys, values, strict=True)))
make_range = _prim(_make_range)
make_slice = _GraphPrim("make_slice", lambda *args: slice(*args))
string_eq = _GraphPrim("string_eq", lambda x, y: x == y)
string_concat = _GraphPrim("string_concat", lambda x, y: x + y)
scalar_ne = _GraphPrim("scalar_ne", lambda x, y: x != y)
is_ = _GraphPrim("is_", lambda x, y: x is y)
is_not = _GraphPrim("is_not", lambda x, y: x is not y)
typeof = _prim(_typeof)
hastype = _prim(_hastype)
switch = _GraphPrim("switch", lambda cond, x, y: x if cond else y)
broadcast_gradient_args = _prim(_broadcast_gradient_args)
