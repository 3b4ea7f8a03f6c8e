"""Values and recordings of the control-flow rewrite: the undefined marker, its errors, how a traced value
is told from a Python one, and the recording of a branch or a loop body (``jax.make_jaxpr`` under its own
state frame) that :mod:`._cond` and :mod:`._while` replay inside ``lax.cond`` / ``lax.while_loop``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .. import _state
from .._errors import is_trace_error

_Tracer = jax.core.Tracer
_NUMBER = (bool, int, float, complex, np.bool_, np.number)


class _Undefined:
    """The value of a name that is not bound (``get`` of the rewrite returns it; ``set`` unbinds)."""

    _inst: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst

    def __repr__(self) -> str:
        return "<undefined>"


UNDEF = _Undefined()


class ControlFlowError(Exception):
    """Marks the rewrite's own errors (mismatched branches, undefined names): they reach the user."""


class ControlFlowTypeError(ControlFlowError, TypeError):
    pass


class ControlFlowValueError(ControlFlowError, ValueError):
    pass


class ControlFlowNameError(ControlFlowError, UnboundLocalError):
    pass


class PrintTraced(Exception):
    """A user function that calls ``print`` is formatting a traced tensor: the trace is retried with the
    function converted, so the print happens when the program runs, with the values."""


class Unconvertible(Exception):
    """A tensor-conditioned block that cannot be traced (it raises, or calls out to Python values):
    the function falls back to eager execution."""

    def __init__(self, msg: str, cause: BaseException | None = None) -> None:
        super().__init__(msg)
        self.cause = cause


# ---------------------------------------------------------------------------------------- values
def tensor_type() -> Any:
    mod = sys.modules.get("sporax.common.tensor")
    return getattr(mod, "Tensor", None)


def wrap(a: Any) -> Any:
    t = tensor_type()
    return t._from_data(a) if t is not None else a


def traced(x: Any) -> bool:
    """Whether ``x`` is a tensor whose value is only known when the compiled program runs."""
    t = type(x)
    if t is bool or t is int or t is float or t is str or x is None:
        return False
    if isinstance(x, _Tracer):
        return True
    return isinstance(getattr(x, "_data", None), _Tracer)


def is_tensor_like(x: Any) -> bool:
    return isinstance(x, (_Tracer, jax.Array)) or isinstance(getattr(x, "_data", None), (_Tracer, jax.Array))


def _raw(x: Any) -> Any:
    d = getattr(x, "_data", None)
    return d if d is not None and not isinstance(x, (_Tracer, jax.Array)) else x


def to_pred(x: Any, where: str) -> Any:
    """A scalar bool array from a tensor condition (or a Python value)."""
    if not is_tensor_like(x):
        return jnp.asarray(bool(x))
    a = jnp.asarray(_raw(x))
    if a.size != 1:
        raise ControlFlowValueError(
            f"The truth value of a Tensor with {a.size} elements is ambiguous ({where}); use .any() or .all()."
        )
    a = a.reshape(())
    return a if a.dtype == jnp.bool_ else a != 0


def _is_array(x: Any) -> bool:
    return isinstance(x, (_Tracer, jax.Array, np.ndarray))


def _is_tensor(x: Any) -> bool:
    t = tensor_type()
    return t is not None and isinstance(x, t)


def _flatten(v: Any) -> tuple[list[Any], Any]:
    """Leaves and structure of a value; Tensors are leaves (so a number can stand where a Tensor is)."""
    return jax.tree_util.tree_flatten(v, is_leaf=_is_tensor)


def _leaf_array(leaf: Any) -> Any:
    """The array of a Tensor (not a Parameter: that is a Python object here) or array leaf, else None."""
    if _is_array(leaf):
        return leaf
    if _is_tensor(leaf) and not hasattr(leaf, "_stored"):
        return leaf._data
    return None


def _desc(v: Any) -> str:
    if v is UNDEF:
        return "undefined"
    a = _leaf_array(v)
    if a is not None:
        return f"a {'Tensor' if _is_tensor(v) else 'array'} of shape {tuple(a.shape)} and dtype {a.dtype}"
    if isinstance(v, _NUMBER):
        return f"the Python {type(v).__name__} {v!r}"
    if isinstance(v, (tuple, list, dict)):
        return f"a {type(v).__name__} of {len(v)} item(s) ({', '.join(_desc(x) for x in (v.values() if isinstance(v, dict) else v))})"
    return f"{type(v).__name__} {v!r}"


def _aval(shape: Any, dtype: Any) -> str:
    return f"{np.dtype(dtype).name}{list(shape)}"


def _number_dtype(a: Any, b: Any = False) -> Any:
    if isinstance(a, (bool, np.bool_)) and isinstance(b, (bool, np.bool_)):
        return jnp.bool_
    if isinstance(a, np.number) and not isinstance(b, (float, complex)):
        return a.dtype
    if isinstance(a, complex) or isinstance(b, complex):
        return jnp.complex64
    if isinstance(a, (float, np.floating)) or isinstance(b, (float, np.floating)):
        return jnp.float32
    return jnp.int64


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


# ------------------------------------------------------------------------------- recording
class _Recording:
    """One traced run of a branch or loop body: its jaxpr and how to rebuild the Python values."""

    __slots__ = ("closed", "shapes", "struct", "vals", "holders", "n_dyn")

    closed: Any  # the ClosedJaxpr
    shapes: Any  # its output shapes (jax.ShapeDtypeStruct)
    struct: list[Any]  # per tracked name: (pytree structure, leaf kinds), or UNDEF
    vals: list[Any]
    holders: list[Any]  # the Parameters the run wrote
    n_dyn: int  # how many outputs are the names' dynamic leaves (the holders' values follow)


def _record(run: Callable[[], Sequence[Any]], avals: Sequence[Any] = (), bound: Sequence[Any] = ()) -> _Recording:
    """Trace ``run`` (which returns the tracked names' values) with ``jax.make_jaxpr``.

    ``avals`` are the shapes of the recording's array inputs; the last ``len(bound)`` of them are the
    values of the holders ``bound`` (a loop's carried Parameters), the others are passed to ``run``.
    """
    rec = _Recording()
    bound = list(bound)

    def flat(*inputs: Any) -> list[Any]:
        nb = len(bound)
        with _state.Frame(zip(bound, inputs[len(inputs) - nb :], strict=True) if nb else ()) as fr:
            vals = run(*inputs[: len(inputs) - nb]) if avals else run()
        items = fr.written_items()
        rec.holders = [h for h, _ in items]
        rec.vals = []  # copies of the containers (for messages: lists may be restored in place later)
        dyn: list[Any] = []
        rec.struct = []
        for v in vals:
            if v is UNDEF:
                rec.struct.append(UNDEF)
                rec.vals.append(UNDEF)
                continue
            leaves, tree = _flatten(v)
            rec.vals.append(jax.tree_util.tree_unflatten(tree, leaves))
            kinds: list[tuple[Any, ...]] = []  # ("dyn", index, is_tensor) or ("py", value)
            for leaf in leaves:
                arr = _leaf_array(leaf)
                if arr is not None:
                    kinds.append(("dyn", len(dyn), _is_tensor(leaf)))
                    dyn.append(jnp.asarray(arr))
                else:
                    kinds.append(("py", leaf))
            rec.struct.append((tree, kinds))
        rec.n_dyn = len(dyn)
        return dyn + [v for _, v in items]

    try:
        rec.closed, rec.shapes = jax.make_jaxpr(flat, return_shape=True)(*avals)
    except (ControlFlowError, Unconvertible, PrintTraced):
        raise
    except Exception as err:
        if is_trace_error(err):
            raise
        raise Unconvertible(f"{type(err).__name__}: {err}", err) from err
    return rec


def _replay(rec: _Recording, inputs: Sequence[Any] = ()) -> list[Any]:
    return jax.core.eval_jaxpr(rec.closed.jaxpr, rec.closed.consts, *inputs)


def _outer_assigned(name: str, where: str) -> Unconvertible:
    return Unconvertible(
        f"the global or nonlocal variable '{name}' is assigned under a tensor condition at {where}; a compiled "
        "program cannot change it (use a Parameter for state)"
    )
