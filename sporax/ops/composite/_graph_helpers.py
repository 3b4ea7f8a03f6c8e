"""``mindspore.ops.composite``'s helper instances and re-exported functions.

The ``augassign_*`` graphs are MindSpore's meaning of ``x += y`` (and ``-=``, ``*=``, ``/=``, ``//=``, ``%=``)
on Tensors, numbers, tuples and lists; ``hyper_add`` adds nested structures leaf by leaf; ``ones_like`` /
``zeros_like`` work on nested structures; ``tail``, ``zip_operation``, ``ms_next``/``ms_hasnext`` are the
sequence helpers of MindSpore's graph syntax, here plain Python. The functions (``dot``, ``normal``...) are the
ones of :mod:`sporax.ops.function`.
"""

from __future__ import annotations

import operator
from typing import Any

from ...common.tensor import Tensor
from ._grad import GradOperation
from ._multitype import HyperMap, MultitypeFuncGraph

__all__ = [
    "augassign_add",
    "augassign_sub",
    "augassign_mul",
    "augassign_div",
    "augassign_floordiv",
    "augassign_mod",
    "hyper_add",
    "ones_like",
    "zeros_like",
    "tail",
    "zip_operation",
    "ms_next",
    "ms_hasnext",
    "iter_converter",
    "add_flags",
    "matmul",
    "env_get",
    "recompute_block",
    "_Grad",
    "_Vmap",
    "_ones_like_for_grad",
]


def _functional() -> Any:
    from .. import function

    return function


def _augassign(name: str, op: Any, fn_name: str) -> MultitypeFuncGraph:
    graph = MultitypeFuncGraph(name)

    def on_tensors(x: Any, y: Any) -> Any:
        return getattr(_functional(), fn_name)(x, y)

    for types in (("Tensor", "Tensor"), ("Tensor", "Number"), ("Number", "Tensor")):
        graph.register(*types)(on_tensors)
    graph.register("Number", "Number")(op)
    if op in (operator.add, operator.mul):
        for types in (
            ("Tuple", "Tuple"),
            ("List", "List"),
            ("String", "String"),
            ("Tuple", "Number"),
            ("List", "Number"),
        ):
            graph.register(*types)(op)
    return graph


augassign_add = _augassign("augassign_add", operator.add, "add")
augassign_sub = _augassign("augassign_sub", operator.sub, "sub")
augassign_mul = _augassign("augassign_mul", operator.mul, "mul")
augassign_div = _augassign("augassign_div", operator.truediv, "div")
augassign_floordiv = _augassign("augassign_floordiv", operator.floordiv, "floor_divide")
augassign_mod = _augassign("augassign_mod", operator.mod, "remainder")

_add = MultitypeFuncGraph("add")
_add.register("Tensor", "Tensor")(lambda x, y: _functional().add(x, y))
_add.register("Number", "Number")(operator.add)
_add.register("Tensor", "Number")(lambda x, y: _functional().add(x, y))
_add.register("Number", "Tensor")(lambda x, y: _functional().add(x, y))
hyper_add = HyperMap(_add)

_ones = MultitypeFuncGraph("ones_like")
_ones.register("Tensor")(lambda x: _functional().ones_like(x))
_ones.register("Number")(lambda x: type(x)(1))
ones_like = HyperMap(_ones)
_ones_like_for_grad = HyperMap(_ones)


class _ZerosLike:
    """``zeros_like(x)``: zeros shaped like ``x``, through nested tuples and lists."""

    def __call__(self, x: Any) -> Any:
        if isinstance(x, (tuple, list)):
            return type(x)(self(v) for v in x)
        if isinstance(x, Tensor):
            return _functional().zeros_like(x)
        if isinstance(x, (bool, int, float, complex)):
            return type(x)(0)
        raise TypeError(
            f"For 'zeros_like', the input must be a Tensor, a number or a tuple/list of them, but got {type(x).__name__}."
        )


zeros_like = _ZerosLike()


class _Tail:
    """``tail(seq)``: the tuple or list without its first element."""

    def __call__(self, *args: Any) -> Any:
        if len(args) != 1 or not isinstance(args[0], (tuple, list)):
            raise TypeError("For 'tail', the input must be one tuple or list.")
        return args[0][1:]


class _ZipOperation:
    """``zip_operation(*seqs)``: a tuple of tuples, as ``tuple(zip(*seqs))``."""

    def __call__(self, *args: Any) -> Any:
        if not args:
            raise ValueError("For 'zip_operation', at least one sequence is needed.")
        for a in args:
            if not isinstance(a, (tuple, list, Tensor)):
                raise TypeError(f"For 'zip_operation', each input must be a sequence, but got {type(a).__name__}.")
        return tuple(zip(*args, strict=False))


class _Next:
    """``ms_next(it)``: ``(first element, the rest)`` of a sequence (MindSpore's iteration in graph syntax)."""

    def __call__(self, *args: Any) -> Any:
        (seq,) = args
        return seq[0], seq[1:]


class _HasNext:
    """``ms_hasnext(seq)``: whether the sequence has an element left."""

    def __call__(self, *args: Any) -> Any:
        (seq,) = args
        return len(seq) > 0


class _IterConverter:
    """``iter_converter(x)``: a sequence to iterate over (a Tensor iterates over its first axis)."""

    def __call__(self, *args: Any) -> Any:
        (x,) = args
        if isinstance(x, Tensor):
            return tuple(x)
        if isinstance(x, dict):
            return tuple(x.keys())
        return tuple(x)


class _EnvGet:
    """``env_get(env, key, default)``: the value of ``key`` in a dict-like environment, else ``default``."""

    def __call__(self, *args: Any) -> Any:
        env, key, default = args
        return env.get(key, default) if hasattr(env, "get") else default


class _RecomputeBlock:
    """``recompute_block(block)``: a callable running ``block`` with its activations recomputed in the backward
    pass (:func:`sporax.recompute`)."""

    def __call__(self, *args: Any) -> Any:
        block = args[0]
        from ...common.api import recompute

        return lambda *a, **kw: recompute(block, *a, **kw)


tail = _Tail()
zip_operation = _ZipOperation()
ms_next = _Next()
ms_hasnext = _HasNext()
iter_converter = _IterConverter()
env_get = _EnvGet()
recompute_block = _RecomputeBlock()


def add_flags(fn: Any = None, **flags: Any) -> Any:
    """Attach MindSpore's compile flags to a function or Cell method (kept in ``fn._ms_flags``; XLA compiles
    the same either way)."""

    def deco(f: Any) -> Any:
        target = getattr(f, "__func__", f)
        existing = dict(getattr(target, "_ms_flags", {}))
        existing.update(flags)
        target._ms_flags = existing
        return f

    return deco if fn is None else deco(fn)


def matmul(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """NumPy-style matmul of ``x1`` and ``x2`` (broadcast batch dimensions), cast to ``dtype`` if given."""
    out = _functional().matmul(x1, x2)
    return out if dtype is None else _functional().cast(out, dtype)


class _Grad(GradOperation):
    """MindSpore's internal ``_Grad`` (what ``ms.grad`` builds): ``GradOperation`` with ``get_by_position``,
    ``has_aux``, ``get_value``, ``return_ids``. Called as ``_Grad(...)(fn, weights, grad_position)``."""

    def __init__(
        self,
        get_all: bool = False,
        get_by_list: bool = False,
        sens_param: bool = False,
        get_by_position: bool = False,
        has_aux: bool = False,
        get_value: bool = False,
        return_ids: bool = False,
        merge_forward: bool = False,
    ) -> None:
        super().__init__(get_all, get_by_list, sens_param)
        self.get_by_position, self.has_aux, self.get_value = get_by_position, has_aux, get_value
        self.return_ids, self.merge_forward = return_ids, merge_forward

    def __call__(self, fn: Any, weights: Any = None, grad_position: Any = 0) -> Any:  # type: ignore[override]
        from ._grad import grad, value_and_grad

        position = grad_position if (self.get_by_position or not self.get_by_list) else None
        w = weights if self.get_by_list else None
        make = value_and_grad if self.get_value else grad
        return make(fn, position, w, self.has_aux, self.return_ids, self.sens_param)


class _Vmap:
    """MindSpore's vmap operation object: ``_Vmap()(fn, in_axes=0, out_axes=0)`` is :func:`ops.vmap`."""

    def __call__(self, fn: Any, in_axes: Any = 0, out_axes: Any = 0) -> Any:
        from ._vmap import vmap

        return vmap(fn, in_axes, out_axes)
