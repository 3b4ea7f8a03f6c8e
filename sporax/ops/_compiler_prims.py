"""MindSpore's compiler-internal primitives that programs also call (``F.coo_tensor_get_indices``,
``F.make_coo_tensor``, ``F.environ_set``, ``F.switch_layer``, ``F.J``...). MindSpore's graph compiler uses
them to express sparse-tensor fields, environments (gradient accumulation state), layer switches and the
gradient transform; sporax traces Python, so each is the Python operation it stands for (valid inside
``jit`` too, on trace-time values)."""

from __future__ import annotations

from typing import Any

from ..common._sparse_tensor import COOTensor, CSRTensor, RowTensor
from ..common.tensor import Tensor
from ._graph_prims import _GraphPrim

__all__ = [
    "coo_tensor_get_indices", "coo_tensor_get_values", "coo_tensor_get_dense_shape",
    "csr_tensor_get_indptr", "csr_tensor_get_indices", "csr_tensor_get_values", "csr_tensor_get_dense_shape",
    "row_tensor_get_indices", "row_tensor_get_values", "row_tensor_get_dense_shape",
    "make_coo_tensor", "make_csr_tensor", "make_row_tensor_inner",
    "environ_create", "environ_set", "environ_get", "environ_add",
    "array_to_scalar", "reduced_shape", "switch_layer", "SliceGetItem", "J",
    "is_sequence_value_unknown", "is_sequence_shape_unknown", "is_dynamic_sequence_element_unknown",
    "is_tensor_bool_cond",
]  # fmt: skip


def _field(kind: type, attr: str, name: str) -> _GraphPrim:
    def get(x: Any) -> Any:
        if not isinstance(x, kind):
            raise TypeError(f"For '{name}', the input must be a {kind.__name__}, but got {type(x).__name__}.")
        return getattr(x, attr)

    return _GraphPrim(name, get)


coo_tensor_get_indices = _field(COOTensor, "indices", "coo_tensor_get_indices")
coo_tensor_get_values = _field(COOTensor, "values", "coo_tensor_get_values")
coo_tensor_get_dense_shape = _field(COOTensor, "shape", "coo_tensor_get_dense_shape")
csr_tensor_get_indptr = _field(CSRTensor, "indptr", "csr_tensor_get_indptr")
csr_tensor_get_indices = _field(CSRTensor, "indices", "csr_tensor_get_indices")
csr_tensor_get_values = _field(CSRTensor, "values", "csr_tensor_get_values")
csr_tensor_get_dense_shape = _field(CSRTensor, "shape", "csr_tensor_get_dense_shape")
row_tensor_get_indices = _field(RowTensor, "indices", "row_tensor_get_indices")
row_tensor_get_values = _field(RowTensor, "values", "row_tensor_get_values")
row_tensor_get_dense_shape = _field(RowTensor, "dense_shape", "row_tensor_get_dense_shape")
make_coo_tensor = _GraphPrim("MakeCOOTensor", lambda indices, values, shape: COOTensor(indices, values, shape))
make_csr_tensor = _GraphPrim(
    "MakeCSRTensor", lambda indptr, indices, values, shape: CSRTensor(indptr, indices, values, shape)
)
make_row_tensor_inner = _GraphPrim("MakeRowTensor", lambda indices, values, shape: RowTensor(indices, values, shape))


# --------------------------------------------------------- environments: immutable dicts of state
def _environ_set(env: dict, key: Any, value: Any) -> dict:
    """A copy of ``env`` with ``key`` set to ``value``."""
    out = dict(env)
    out[key] = value
    return out


def _environ_add(env1: dict, env2: dict) -> dict:
    """The union of two environments; a key in both holds the sum of its values (gradients accumulated)."""
    out = dict(env1)
    for k, v in env2.items():
        out[k] = out[k] + v if k in out else v
    return out


environ_create = _GraphPrim("EnvironCreate", lambda: {})
environ_set = _GraphPrim("EnvironSet", _environ_set)
environ_get = _GraphPrim("EnvironGet", lambda env, key, default: env.get(key, default))
environ_add = _GraphPrim("EnvironAdd", _environ_add)


# -------------------------------------------------------------------------- values and shapes
def _array_to_scalar(x: Any) -> Any:
    """A one-element Tensor as its Python number."""
    if isinstance(x, Tensor):
        if x.size != 1:
            raise ValueError(f"For 'array_to_scalar', the input must have one element, but got shape {x.shape}.")
        return x.item()
    return x


def _reduced_shape(shape: tuple, axis: Any) -> tuple:
    """``shape`` with the reduced axes (all when ``axis`` is empty) set to 1, the shape a keep-dims reduction
    leaves."""
    n = len(shape)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if not axes:
        return (1,) * n
    picked = {a % n for a in axes}
    return tuple(1 if i in picked else d for i, d in enumerate(shape))


def _switch_layer(index: Any, layers: Any) -> Any:
    """The function (a Cell or a callable) of ``layers`` at ``index`` (a scalar Tensor or an int)."""
    i = int(index.item()) if isinstance(index, Tensor) else int(index)
    if not -len(layers) <= i < len(layers):
        raise ValueError(f"For 'switch_layer', the index must be in [{-len(layers)}, {len(layers)}), but got {i}.")
    return layers[i]


def _slice_get_item(s: slice, attr: str) -> Any:
    """``slice.start``, ``.stop`` or ``.step``."""
    if attr not in ("start", "stop", "step"):
        raise ValueError(f"For 'SliceGetItem', the attribute must be 'start', 'stop' or 'step', but got {attr!r}.")
    return getattr(s, attr)


def _j(fn: Any) -> Any:
    """The gradient transform: ``J(fn)(*args)`` returns ``(fn(*args), bprop)``, ``bprop(dout)`` the
    gradients of the inputs (:func:`ops.vjp`)."""
    from .composite import vjp

    return lambda *args: vjp(fn, *args)


array_to_scalar = _GraphPrim("array_to_scalar", _array_to_scalar)
reduced_shape = _GraphPrim("reduced_shape", _reduced_shape)
switch_layer = _GraphPrim("switch_layer", _switch_layer)
SliceGetItem = _GraphPrim("SliceGetItem", _slice_get_item)
J = _GraphPrim("J", _j)

# A sequence's length, shape and values are always known when sporax traces (Python runs), and a Tensor
# condition is what MindSpore calls a tensor-bool condition.
is_sequence_value_unknown = _GraphPrim("IsShapeUnKnown", lambda seq: False)
is_sequence_shape_unknown = _GraphPrim("IsDimUnKnown", lambda seq: False)
is_dynamic_sequence_element_unknown = _GraphPrim("IsElementUnknown", lambda seq: False)
is_tensor_bool_cond = _GraphPrim("IsTensorBoolCond", lambda cond: isinstance(cond, Tensor))
