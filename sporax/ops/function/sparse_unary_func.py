"""Element-wise ops on the stored values of a sparse tensor (``mindspore.ops`` functional, MindSpore's
``sparse_unary_func``): ``coo_sin(x)`` is a COOTensor with the structure of ``x`` and ``sin`` of its values,
``csr_relu(x)`` a CSRTensor likewise (for ops with ``f(0) != 0``, as in MindSpore, only the stored values
change). Each calls the dense functional op of the same name."""

from __future__ import annotations

from typing import Any

from ...common._sparse_tensor import COOTensor, CSRTensor

_OPS = {  # sparse name -> the dense op in sporax.ops
    "abs": "abs",
    "acos": "acos",
    "acosh": "acosh",
    "asin": "asin",
    "asinh": "asinh",
    "atan": "atan",
    "atanh": "atanh",
    "ceil": "ceil",
    "cos": "cos",
    "cosh": "cosh",
    "exp": "exp",
    "expm1": "expm1",
    "floor": "floor",
    "inv": "inv",
    "isfinite": "isfinite",
    "isinf": "isinf",
    "isnan": "isnan",
    "log": "log",
    "log1p": "log1p",
    "neg": "neg",
    "relu": "relu",
    "relu6": "relu6",
    "round": "round",
    "sigmoid": "sigmoid",
    "sin": "sin",
    "sinh": "sinh",
    "softsign": "softsign",
    "sqrt": "sqrt",
    "square": "square",
    "tan": "tan",
    "tanh": "tanh",
}

__all__ = [f"{kind}_{name}" for kind in ("coo", "csr") for name in _OPS]


def _dense(name: str) -> Any:
    from .. import function

    return getattr(function, name)


def _make(kind: str, name: str, dense: str) -> Any:
    cls = COOTensor if kind == "coo" else CSRTensor

    def op(x: Any) -> Any:
        if not isinstance(x, cls):
            raise TypeError(f"For '{kind}_{name}', the input must be a {cls.__name__}, but got {type(x).__name__}.")
        values = _dense(dense)(x.values)
        if isinstance(x, COOTensor):
            return COOTensor(x.indices, values, x.shape)
        return CSRTensor(x.indptr, x.indices, values, x.shape)

    op.__name__ = op.__qualname__ = f"{kind}_{name}"
    op.__doc__ = f"``{dense}`` of the stored values of a {cls.__name__} (the structure is kept)."
    return op


for _kind in ("coo", "csr"):
    for _name, _dense_name in _OPS.items():
        globals()[f"{_kind}_{_name}"] = _make(_kind, _name, _dense_name)
