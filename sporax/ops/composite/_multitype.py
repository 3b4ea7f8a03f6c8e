"""Composite ops over Python structures: ``MultitypeFuncGraph`` (type-dispatched functions), ``HyperMap``
(map over nested tuples/lists), ``Map`` (map over one level), ``partial`` / ``Partial``.

They run as plain Python: inside a compiled function (GRAPH_MODE, ``jit``) the dispatch happens once, at
trace time, on the Python types of the arguments, exactly as MindSpore resolves them when compiling.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ...common import dtype as mstype
from ...common.tensor import Tensor
from ..operations._primitive import Primitive

__all__ = ["MultitypeFuncGraph", "HyperMap", "Map", "partial", "Partial"]  # and F.mixed_precision_cast


# ------------------------------------------------------------------ type names
def _is_number(x: Any) -> bool:
    return isinstance(x, (bool, int, float, complex, np.number, np.bool_))


def _is_int(x: Any) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, np.signedinteger)


def _is_uint(x: Any) -> bool:
    return isinstance(x, np.unsignedinteger)


def _is_bool(x: Any) -> bool:
    return isinstance(x, (bool, np.bool_))


def _is_float(x: Any) -> bool:
    return isinstance(x, (float, np.floating))


def _scalar_dtype(x: Any) -> Any:
    """The MindSpore dtype of a Python/NumPy scalar (Python int: Int64, float: Float64)."""
    if isinstance(x, bool):
        return mstype.bool_
    if isinstance(x, int):
        return mstype.int64
    if isinstance(x, float):
        return mstype.float64
    if isinstance(x, complex):
        return mstype.complex128
    return mstype.from_np(np.asarray(x).dtype)


def _is_function(x: Any) -> bool:
    # a Cell is a callable instance (ops does not import nn)
    return isinstance(x, (Primitive, MultitypeFuncGraph, functools.partial)) or (
        callable(x) and not isinstance(x, (type, Tensor))
    )


def _class_named(name: str) -> Callable[[Any], bool]:
    return lambda x: type(x).__name__ == name or any(c.__name__ == name for c in type(x).__mro__)


_KINDS: dict[str, Callable[[Any], bool]] = {
    "Tensor": lambda x: isinstance(x, Tensor),
    "TensorType": lambda x: isinstance(x, Tensor),
    "Number": _is_number,
    "Bool": _is_bool,
    "Int": _is_int,
    "UInt": _is_uint,
    "Float": _is_float,
    "Complex": lambda x: isinstance(x, (complex, np.complexfloating)),
    "Tuple": lambda x: isinstance(x, tuple),
    "List": lambda x: isinstance(x, list),
    "Dictionary": lambda x: isinstance(x, dict),
    "Dict": lambda x: isinstance(x, dict),
    "String": lambda x: isinstance(x, str),
    "Str": lambda x: isinstance(x, str),
    "None": lambda x: x is None,
    "NoneType": lambda x: x is None,
    "Function": _is_function,
    "Func": _is_function,
    "Slice": lambda x: isinstance(x, slice),
    "Ellipsis": lambda x: x is Ellipsis,
    "TypeType": lambda x: isinstance(x, mstype.Type),
    "RowTensor": _class_named("RowTensor"),
    "COOTensor": _class_named("COOTensor"),
    "CSRTensor": _class_named("CSRTensor"),
}

_TENSOR_OF = re.compile(r"^Tensor\[(\w+)\]$")


def _dtype_named(name: str) -> Any:
    for t in mstype.all_types:
        if mstype.type_name(t) == name:
            return t
    return None


def _predicate(type_input: Any) -> tuple[str, Callable[[Any], bool]]:
    """(display name, predicate) for one registered type."""
    if isinstance(type_input, mstype.Type):
        type_input = mstype.type_name(type_input)
    if not isinstance(type_input, str):
        raise TypeError(
            "For 'MultitypeFuncGraph', register only supports str or mindspore.dtype, but got "
            f"'type_input': {type_input!r}."
        )
    name = type_input.strip()
    kind = _KINDS.get(name)
    if kind is not None:
        return name, kind
    m = _TENSOR_OF.match(name)
    if m:
        dt = _dtype_named(m.group(1))
        if dt is None:
            raise RuntimeError(f"Unsupported type name: {name}!")
        return name, lambda x: isinstance(x, Tensor) and x.dtype == dt
    dt = _dtype_named(name)
    if dt is not None:  # a scalar of that exact dtype ("Int64": a Python int, "Float32": numpy.float32)
        return name, lambda x: _is_number(x) and _scalar_dtype(x) == dt
    raise RuntimeError(f"Unsupported type name: {name}!")


def _type_label(x: Any) -> str:
    if isinstance(x, Tensor):
        return f"Tensor[{mstype.type_name(x.dtype)}]"
    if _is_number(x):
        return mstype.type_name(_scalar_dtype(x))
    if x is None:
        return "None"
    for name in ("Tuple", "List", "Dictionary", "String", "Function"):
        if _KINDS[name](x):
            return name
    return type(x).__name__


# --------------------------------------------------------- MultitypeFuncGraph
class MultitypeFuncGraph:
    """A function overloaded on the types of its arguments.

    Register implementations with ``register(*type_names)`` (``"Tensor"``, ``"Number"``, ``"Bool"``,
    ``"Int"``, ``"Float"``, ``"Tuple"``, ``"List"``, ``"Dictionary"``, ``"String"``, ``"None"``,
    ``"Function"``, ``"RowTensor"``, dtype names such as ``"Float32"`` and ``"Tensor[Float32]"``); a call
    runs the first registered function whose types match. It works with :class:`HyperMap` and
    :class:`Map`.

    Args:
        name (str): Operator name.
        read_value (bool, optional): Kept for compatibility (the inputs are always passed by value).
            Default: ``False``.

    Raises:
        ValueError: If no registered function matches the given arguments.

    Examples:
        >>> add = ops.MultitypeFuncGraph('add')
        >>> @add.register("Number", "Number")
        ... def add_scalar(x, y):
        ...     return x + y
        >>> @add.register("Tensor", "Tensor")
        ... def add_tensor(x, y):
        ...     return ops.add(x, y)
        >>> add(1, 2)
        3
    """

    def __init__(self, name: str, read_value: bool = False) -> None:
        if not isinstance(name, str):
            raise TypeError(f"For 'MultitypeFuncGraph', the 'name' must be a str, but got {type(name).__name__}.")
        self.name = name
        self.read_value = read_value
        self.entries: list[tuple[tuple[str, ...], tuple[Callable[[Any], bool], ...], Callable[..., Any]]] = []
        self.default_func: Callable[..., Any] | None = None

    def register(self, *type_names: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register a function for the given type names.

        Args:
            type_names (Union[str, mindspore.dtype]): One type per argument.

        Returns:
            A decorator that registers the function and returns it unchanged.
        """
        parsed = [_predicate(t) for t in type_names]

        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
            if not callable(fn):
                raise TypeError(
                    f"For 'MultitypeFuncGraph', the registered object must be callable, but got {type(fn).__name__}."
                )
            self.entries.append((tuple(n for n, _ in parsed), tuple(p for _, p in parsed), fn))
            return fn

        return deco

    def _register_default(self, convert_to_interpret: bool = True) -> Callable[..., Any]:
        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.default_func = fn
            return fn

        return deco

    def __call__(self, *args: Any) -> Any:
        if self.default_func is not None:
            return self.default_func(*args)
        for arg in args:
            if isinstance(arg, np.ndarray):
                raise TypeError(f"For 'MultitypeFuncGraph' '{self.name}', the input can not be numpy.ndarray.")
        if len(self.entries) == 1:  # as MindSpore's PyNative: the only function takes any arguments
            return self.entries[0][2](*args)
        for _names, preds, fn in self.entries:
            if len(preds) == len(args) and all(p(a) for p, a in zip(preds, args)):
                return fn(*args)
        registered = ", ".join("(" + ", ".join(names) + ")" for names, _, _ in self.entries) or "nothing"
        got = "(" + ", ".join(_type_label(a) for a in args) + ")"
        raise ValueError(
            f"For 'MultitypeFuncGraph' '{self.name}', cannot find fn match given args: got types {got}, "
            f"registered: {registered}."
        )

    def __repr__(self) -> str:
        return f"MultitypeFuncGraph<{self.name}>"


# --------------------------------------------------------------- HyperMap, Map
def _operation_and_inputs(fn: Any, args: tuple[Any, ...], op: str) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """The operation of a ``HyperMap``/``Map`` call (its own, or else the call's first input) and the inputs."""
    if fn is None:
        if not args:
            raise TypeError(f"For '{op}', the operation must be given as the first input, but got no input.")
        fn, args = validator.check_map_fn(args[0], op), args[1:]
    if not args:
        raise TypeError(f"For '{op}', at least one input sequence is required.")
    return fn, args


def _is_seq(x: Any) -> bool:
    return isinstance(x, (tuple, list))


class HyperMap:
    """Apply an operation to every leaf of (nested) tuples or lists, element-wise across the inputs.

    Args:
        ops (Union[MultitypeFuncGraph, Callable, None], optional): The operation. If ``None``, it is the first
            input of each call. Default: ``None``.
        reverse (bool, optional): Apply the operation from the last element to the first (the results keep
            their order). Default: ``False``.

    Inputs:
        - **args** (Tuple[sequence]) - If `ops` is not ``None``, sequences of the same structure; leaf ``i`` of
          each is passed to the operation together. Otherwise the first input is the operation.

    Outputs:
        A tuple (nested as the inputs) of the operation's results.

    Raises:
        TypeError: If the operation is not callable, or the inputs do not have the same structure.
        ValueError: If sequences at the same position have different lengths.
    """

    def __init__(self, ops: Any = None, reverse: bool = False) -> None:
        if ops is not None:
            validator.check_map_fn(ops, "HyperMap")
        validator.check_bool(reverse, "reverse", "HyperMap")
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args: Any) -> Any:
        fn, args = _operation_and_inputs(self.ops, args, "HyperMap")
        return self._map(fn, args)

    def _map(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        if not _is_seq(args[0]):
            if any(_is_seq(a) for a in args[1:]):
                raise TypeError(
                    "For 'HyperMap', the inputs must have the same structure, but got "
                    f"({', '.join(type(a).__name__ for a in args)})."
                )
            return fn(*args)
        n = len(args[0])
        for a in args[1:]:
            if not _is_seq(a):
                raise TypeError(
                    "For 'HyperMap', the inputs must have the same structure, but got "
                    f"({', '.join(type(x).__name__ for x in args)})."
                )
            if len(a) != n:
                raise ValueError(
                    f"For 'HyperMap', the sequences must have the same length, but got lengths "
                    f"{[len(x) for x in args]}."
                )
        order = range(n - 1, -1, -1) if self.reverse else range(n)
        out: list[Any] = [None] * n
        for i in order:
            out[i] = self._map(fn, tuple(a[i] for a in args))
        return tuple(out)


class Map:
    """Apply an operation to the elements of sequences (one level; see :class:`HyperMap` for nesting).

    Args:
        ops (Union[MultitypeFuncGraph, Callable, None], optional): The operation. If ``None``, it is the first
            input of each call. Default: ``None``.
        reverse (bool, optional): Apply from the last element to the first. Default: ``False``.

    Outputs:
        A tuple ``(ops(args[0][i], args[1][i], ...) for i ...)``.
    """

    def __init__(self, ops: Any = None, reverse: bool = False) -> None:
        if ops is not None:
            validator.check_map_fn(ops, "Map")
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args: Any) -> Any:
        fn, args = _operation_and_inputs(self.ops, args, "Map")
        for a in args:
            if not _is_seq(a):
                raise TypeError(f"For 'Map', the inputs must be tuples or lists, but got {type(a).__name__}.")
        if len({len(a) for a in args}) != 1:
            raise ValueError(
                f"For 'Map', the sequences must have the same length, but got lengths {[len(a) for a in args]}."
            )
        n = len(args[0])
        out: list[Any] = [None] * n
        for i in range(n - 1, -1, -1) if self.reverse else range(n):
            out[i] = fn(*(a[i] for a in args))
        return tuple(out)


# -------------------------------------------------------------------- partial
# One implementation: ops.function.debug_func.partial and the ops.operations Partial primitive.
from ..function.debug_func import partial  # noqa: E402
from ..operations.debug_ops import Partial  # noqa: E402


# ------------------------------------------------------------- mixed precision
def mixed_precision_cast(dst_dtype: Any, x: Any) -> Any:
    """Cast the floating Tensors in `x` (a Tensor, or nested tuples, lists and dicts of them) to
    `dst_dtype`; everything else is returned unchanged (MindSpore's ``F.mixed_precision_cast``).

    Args:
        dst_dtype (mindspore.dtype): The float type to cast to.
        x (Union[Tensor, tuple, list, dict]): The value to cast.
    """
    if isinstance(x, Tensor):
        if isinstance(x.dtype, mstype.Float) and x.dtype != dst_dtype:
            return x.astype(dst_dtype)
        return x
    if isinstance(x, (tuple, list)):
        return type(x)(mixed_precision_cast(dst_dtype, v) for v in x)
    if isinstance(x, dict):
        return {k: mixed_precision_cast(dst_dtype, v) for k, v in x.items()}
    return x
