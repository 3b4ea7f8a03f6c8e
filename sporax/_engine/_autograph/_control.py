"""Traced conditionals and loops with Parameter state (the JAX side of the rewrite).

A converted ``if`` on a tensor runs each branch once, under its own state frame, while
``jax.make_jaxpr`` records it: the local names the branch binds and the Parameters it writes become the
branch's outputs. The two recordings are then replayed inside one ``lax.cond``; a name or Parameter only
one branch sets keeps its previous value in the other. So ``if finite: optimizer(grads)`` is a
conditional update, the untaken branch costs nothing at run time, and gradients flow through the taken
branch only (no NaN leaks from the other, as a select would give).

A converted ``while`` on a tensor becomes ``lax.while_loop`` whose carry holds the loop's live names and
the Parameters its body writes (found by recording the body, then recording again with them carried).
Under reverse-mode autodiff the loop gets a custom VJP that re-runs the forward loop to each step (time
quadratic in the trip count, memory constant), since XLA loops have no static bound to store steps in.
That recomputation runs a copy of the body with the rewrite's runtime ``print`` calls taken out, so a
``print`` in the loop prints once per forward iteration, as in PyNative.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import ClosedJaxpr, Jaxpr, jaxprs_in_params

from .. import _state
from ._analysis import RET

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
            kinds = []
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
        from .._jit import TRACE_ERRORS

        if isinstance(err, TRACE_ERRORS):
            raise
        raise Unconvertible(f"{type(err).__name__}: {err}", err) from err
    return rec


def _replay(rec: _Recording, inputs: Sequence[Any] = ()) -> list[Any]:
    return jax.core.eval_jaxpr(rec.closed.jaxpr, rec.closed.consts, *inputs)


# ------------------------------------------------------------------------------- if / else
def _outer_assigned(name: str, where: str) -> Unconvertible:
    return Unconvertible(
        f"the global or nonlocal variable '{name}' is assigned under a tensor condition at {where}; a compiled "
        "program cannot change it (use a Parameter for state)"
    )


def run_cond(
    pred: Any,
    runs: Sequence[Callable[[], Sequence[Any]]],
    names: Sequence[str],
    live: Any,
    where: str,
    outer: Sequence[str] = (),
) -> list[Any]:
    """Trace both branches, run them as one ``lax.cond``, write the Parameters they set, and return the
    merged values of ``names`` (``UNDEF`` for names not live afterwards)."""
    p = to_pred(pred, where)
    recs = [_record(r) for r in runs]
    live = set(live)
    srcs: list[list[Any]] = [[], []]  # per branch: how to make each cond output
    avals: list[tuple[Any, Any]] = []
    plans: list[Any] = []

    def out(src_t: Any, src_f: Any, shape: Any, dtype: Any) -> int:
        srcs[0].append(src_t)
        srcs[1].append(src_f)
        avals.append((tuple(shape), dtype))
        return len(avals) - 1

    for i, name in enumerate(names):
        st, sf = recs[0].struct[i], recs[1].struct[i]
        if name not in live or (st is UNDEF and sf is UNDEF):
            plans.append(UNDEF)
            continue
        if st is UNDEF or sf is UNDEF:
            if name != RET:
                which = "true" if sf is UNDEF else "false"
                raise ControlFlowNameError(
                    f"The variable '{name}' is assigned only in the {which} branch of the 'if' on a tensor at "
                    f"{where}, and it is used afterwards. Under GRAPH_MODE/jit both branches run as one "
                    f"program: give '{name}' a value before the 'if' (or in both branches)."
                )
            k = 0 if sf is UNDEF else 1
            tree, kinds = recs[k].struct[i]
            leaf_plan = []
            for kind in kinds:
                if kind[0] == "py":
                    leaf_plan.append(kind)
                    continue
                x = kind[1]
                shp = recs[k].shapes[x]
                o = (("out", x), ("zeros",)) if k == 0 else (("zeros",), ("out", x))
                leaf_plan.append(("dyn", out(o[0], o[1], shp.shape, shp.dtype), kind[2]))
            plans.append((tree, leaf_plan))
            continue
        plans.append(_merge_var(name, recs, i, st, sf, out, where))
        if name in outer and any(k[0] == "dyn" for k in plans[-1][1]):
            raise _outer_assigned(name, where)

    holders: list[Any] = []
    for rec in recs:
        for h in rec.holders:
            if all(h is not g for g in holders):
                holders.append(h)
    h_out = []
    for h in holders:
        hsrc = []
        for rec in recs:
            idx = next((j for j, g in enumerate(rec.holders) if g is h), None)
            hsrc.append(("out", rec.n_dyn + idx) if idx is not None else ("outer", _state.read(h)))
        shapes = [
            recs[k].shapes[s[1]] if s[0] == "out" else jax.ShapeDtypeStruct(s[1].shape, s[1].dtype)
            for k, s in enumerate(hsrc)
        ]
        if shapes[0].shape != shapes[1].shape or shapes[0].dtype != shapes[1].dtype:
            raise ControlFlowTypeError(
                f"The Parameter '{getattr(h, 'name', h)}' is {_aval(shapes[0].shape, shapes[0].dtype)} after the true "
                f"branch and {_aval(shapes[1].shape, shapes[1].dtype)} after the false branch of the 'if' on a tensor "
                f"at {where}; both must keep its shape and dtype."
            )
        h_out.append(out(hsrc[0], hsrc[1], shapes[0].shape, shapes[0].dtype))

    def replay(k: int) -> Callable[[], list[Any]]:
        def branch() -> list[Any]:
            vals = _replay(recs[k])
            res = []
            for src, (shape, dtype) in zip(srcs[k], avals, strict=True):
                if src[0] == "out":
                    v = vals[src[1]]
                elif src[0] == "num":
                    v = jnp.full(shape, src[1], dtype)
                elif src[0] == "outer":
                    v = src[1]
                else:
                    v = jnp.zeros(shape, dtype)
                res.append(lax.convert_element_type(v, dtype))
            return res

        return branch

    results = lax.cond(p, replay(0), replay(1))
    for h, j in zip(holders, h_out, strict=True):
        _state.write(h, results[j])
    return [_rebuild(plan, results) for plan in plans]


def _merge_var(name: str, recs: list[_Recording], i: int, st: Any, sf: Any, out: Callable[..., int], where: str) -> Any:
    (tt, kt), (tf, kf) = st, sf
    if tt != tf:
        raise ControlFlowTypeError(
            f"The variable '{name}' is {_desc(recs[0].vals[i])} after the true branch but {_desc(recs[1].vals[i])} "
            f"after the false branch of the 'if' on a tensor at {where}; both branches must give it the same type."
        )
    leaf_plan = []
    for a, b in zip(kt, kf, strict=True):
        if a[0] == "py" and b[0] == "py":
            if _same(a[1], b[1]):
                leaf_plan.append(a)
            elif isinstance(a[1], _NUMBER) and isinstance(b[1], _NUMBER):
                dt = _number_dtype(a[1], b[1])
                leaf_plan.append(("dyn", out(("num", a[1]), ("num", b[1]), (), dt), True))
            else:
                raise ControlFlowTypeError(
                    f"The variable '{name}' is {a[1]!r} after the true branch and {b[1]!r} after the false branch of "
                    f"the 'if' on a tensor at {where}; under a tensor condition both branches must give it the same "
                    "Python value, or tensors."
                )
        elif a[0] == "dyn" and b[0] == "dyn":
            sa, sb = recs[0].shapes[a[1]], recs[1].shapes[b[1]]
            if sa.dtype != sb.dtype or sa.shape != sb.shape:
                cls = ControlFlowTypeError if sa.dtype != sb.dtype else ControlFlowValueError
                raise cls(
                    f"The variable '{name}' is {_aval(sa.shape, sa.dtype)} after the true branch and "
                    f"{_aval(sb.shape, sb.dtype)} after the false branch of the 'if' on a tensor at {where}; both "
                    "branches must give it the same shape and dtype."
                )
            leaf_plan.append(("dyn", out(("out", a[1]), ("out", b[1]), sa.shape, sa.dtype), a[2] or b[2]))
        else:
            arr_k, arr, num = (0, a, b[1]) if a[0] == "dyn" else (1, b, a[1])
            if not isinstance(num, _NUMBER):
                raise ControlFlowTypeError(
                    f"The variable '{name}' is a tensor in one branch and {num!r} in the other of the 'if' on a "
                    f"tensor at {where}; both branches must give it a tensor (or a number)."
                )
            s = recs[arr_k].shapes[arr[1]]
            srcs = (("out", arr[1]), ("num", num)) if arr_k == 0 else (("num", num), ("out", arr[1]))
            leaf_plan.append(("dyn", out(srcs[0], srcs[1], s.shape, s.dtype), arr[2]))
    return (tt, leaf_plan)


def _rebuild(plan: Any, results: Sequence[Any]) -> Any:
    if plan is UNDEF:
        return UNDEF
    tree, leaf_plan = plan
    leaves = []
    for p in leaf_plan:
        if p[0] == "py":
            leaves.append(p[1])
        else:
            v = results[p[1]]
            leaves.append(wrap(v) if p[2] else v)
    return jax.tree_util.tree_unflatten(tree, leaves)


# ---------------------------------------------------------------------------------- loops
class Counter:
    """The hidden index of ``for i in range(start, stop, step)`` with tensor bounds."""

    def __init__(self, start: Any, stop: Any, step: Any) -> None:
        vals = [_raw(v) for v in (start, stop, step)]
        dtype = jnp.result_type(*[v.dtype if _is_array(v) else jnp.int64 for v in vals])
        if not jnp.issubdtype(dtype, jnp.integer):
            raise ControlFlowTypeError(f"range() needs integer bounds, but got a tensor of dtype {dtype}.")
        if isinstance(step, int) and step == 0:
            raise ValueError("range() arg 3 must not be zero")
        self.dtype = dtype
        self.start, self.stop, self.step = (jnp.asarray(v, dtype) for v in vals)
        self.static_step = step if isinstance(step, int) else None

    def cond(self, i: Any) -> Any:
        if self.static_step is not None:
            return i < self.stop if self.static_step > 0 else i > self.stop
        return jnp.where(self.step > 0, i < self.stop, i > self.stop)


def _flatten_carry(value: Any, i: int, overrides: dict) -> tuple[Any, list[Any], list[Any]]:
    """(structure, leaf kinds, arrays) of a loop variable; Python numbers become (0-d) Tensors.

    Kinds: ``("dyn", is_tensor, was_number)`` or ``("py", value)``."""
    leaves, tree = _flatten(value)
    kinds: list[Any] = []
    arrays: list[Any] = []
    for j, leaf in enumerate(leaves):
        arr = _leaf_array(leaf)
        if arr is not None:
            kinds.append(("dyn", _is_tensor(leaf), False))
            arrays.append(jnp.asarray(arr))
        elif isinstance(leaf, _NUMBER):
            shape, dtype = overrides.get((i, j), ((), _number_dtype(leaf)))
            kinds.append(("dyn", True, True))
            arrays.append(jnp.full(shape, leaf, dtype))
        else:
            kinds.append(("py", leaf))
    return tree, kinds, arrays


def _unflatten_carry(plans: list[Any], carry: Sequence[Any], n: int) -> list[Any]:
    vals: list[Any] = [UNDEF] * n
    k = 0
    for i, tree, kinds in plans:
        leaves = []
        for kind in kinds:
            if kind[0] == "py":
                leaves.append(kind[1])
            else:
                leaves.append(wrap(carry[k]) if kind[1] else carry[k])
                k += 1
        vals[i] = jax.tree_util.tree_unflatten(tree, leaves)
    return vals


def run_while(
    test: Callable[[], Any] | None,
    body: Callable[..., Any],
    get: Callable[[], Sequence[Any]] | None,
    set_: Callable[[Sequence[Any]], None] | None,
    names: Sequence[str],
    live: Any,
    where: str,
    counter: Counter | None = None,
    outer: Sequence[str] = (),
) -> None:
    """``while test(): body()`` (or ``for i in range(...)`` with ``counter``) as one ``lax.while_loop``.

    The carry is the live names bound before the loop (Python numbers among them become arrays, widened
    to what the body makes of them), the counter, and the Parameters the body writes.
    """
    n_names = len(names)
    init = tuple(get()) if get else ()
    live = set(live)
    carried = [i for i, n in enumerate(names) if n in live and init[i] is not UNDEF]
    for i in carried:
        if names[i] in outer:
            raise _outer_assigned(names[i], where)
    fresh = [i for i, n in enumerate(names) if n in live and init[i] is UNDEF]
    holders: list[Any] = []
    overrides: dict[tuple[int, int], tuple[Any, Any]] = {}
    ret_init: dict[int, tuple[Any, list[Any]]] = {}

    def set_all(vals: Sequence[Any]) -> None:
        if set_ is not None:
            set_(vals)

    for _attempt in range(12):
        plans: list[Any] = []
        leaves: list[Any] = []
        for i in carried:
            tree, kinds, arrays = _flatten_carry(init[i], i, overrides)
            plans.append((i, tree, kinds))
            leaves.extend(arrays)
        for i, (tree, kinds, arrays) in ret_init.items():
            plans.append((i, tree, kinds))
            leaves.extend(arrays)
        n_vars = len(leaves)
        if counter is not None:
            leaves.append(counter.start)
        n_carry = len(leaves)
        leaves.extend(_state.read(h) for h in holders)
        avals = [jax.ShapeDtypeStruct(jnp.shape(x), jnp.result_type(x)) for x in leaves]

        def body_run(*carry: Any, plans: list[Any] = plans, n_vars: int = n_vars) -> list[Any]:
            set_all(_unflatten_carry(plans, carry, n_names))
            if counter is not None:
                body(wrap(carry[n_vars]))
            else:
                body()
            vals = list(get()) if get is not None else []
            if counter is not None:
                vals.append(carry[n_vars] + counter.step)
            return vals

        body_rec = _record(body_run, avals, holders)
        set_all(init)
        missing = [h for h in body_rec.holders if not _has(holders, h)]
        if missing:
            holders.extend(missing)
            continue
        out_idx: list[Any] = []
        retry = False
        for i, tree, kinds in plans:
            retry |= _check_carry(names[i], i, tree, kinds, body_rec, avals, overrides, where, out_idx)
        for i in fresh:
            if i in ret_init or body_rec.struct[i] is UNDEF:
                continue
            if names[i] != RET:
                raise ControlFlowNameError(
                    f"The variable '{names[i]}' is assigned in the loop at {where} but not before it, and it is used "
                    f"after the loop. Under GRAPH_MODE/jit a loop on a tensor condition needs '{names[i]}' to have a "
                    "value (of the same shape and dtype) before the loop."
                )
            tree, kinds = body_rec.struct[i]
            shapes = [body_rec.shapes[k[1]] for k in kinds if k[0] == "dyn"]
            plan = [("dyn", k[2], False) if k[0] == "dyn" else k for k in kinds]
            ret_init[i] = (tree, plan, [jnp.zeros(s.shape, s.dtype) for s in shapes])
            retry = True
        if retry:
            continue
        if counter is not None:
            _, ckinds = body_rec.struct[n_names]
            out_idx.append(("out", ckinds[0][1]))
        body_outs = out_idx + [
            ("out", body_rec.n_dyn + _index(body_rec.holders, h)) if _has(body_rec.holders, h) else ("in", n_carry + k)
            for k, h in enumerate(holders)
        ]

        def cond_run(*carry: Any, plans: list[Any] = plans, n_vars: int = n_vars) -> list[Any]:
            set_all(_unflatten_carry(plans, carry, n_names))
            ok = to_pred(test(), where) if test is not None else jnp.asarray(True)
            if counter is not None:
                ok = jnp.logical_and(ok, counter.cond(carry[n_vars]))
            return [ok]

        cond_rec = _record(cond_run, avals, holders)
        set_all(init)
        break
    else:
        raise ControlFlowTypeError(f"The loop at {where} does not settle on a fixed set of loop variables.")

    dtypes = [a.dtype for a in avals]
    final = _while_loop(cond_rec, body_rec, body_outs, dtypes, [jnp.asarray(x, d) for x, d in zip(leaves, dtypes)])
    result = _unflatten_carry(plans, final, n_names)
    set_all(result)
    for j, h in enumerate(holders):
        _state.write(h, final[n_carry + j])


def _has(items: list[Any], x: Any) -> bool:
    return any(x is g for g in items)


def _index(items: list[Any], x: Any) -> int:
    return next(j for j, g in enumerate(items) if g is x)


def _check_carry(
    name: str,
    i: int,
    tree: Any,
    kinds: list[Any],
    rec: _Recording,
    avals: list[Any],
    overrides: dict,
    where: str,
    out_idx: list[Any],
) -> bool:
    """Check that a loop variable keeps its structure, shape and dtype through the body; record which
    body output carries each of its arrays. A Python number may widen (the caller then retries)."""
    new = rec.struct[i]
    if new is UNDEF:
        raise ControlFlowNameError(
            f"The loop at {where} deletes the variable '{name}'; loop variables must stay defined."
        )
    new_tree, new_kinds = new
    if new_tree != tree:
        raise ControlFlowTypeError(
            f"The variable '{name}' changes type in the loop on a tensor at {where} (it becomes {_desc(rec.vals[i])}); "
            "loop variables must keep their type, shape and dtype."
        )
    retry = False
    for j, (old, nk) in enumerate(zip(kinds, new_kinds, strict=True)):
        if old[0] == "py":
            if nk[0] != "py" or not _same(old[1], nk[1]):
                after = repr(nk[1]) if nk[0] == "py" else "a tensor"
                raise ControlFlowTypeError(
                    f"The variable '{name}' is {old[1]!r} before the loop on a tensor at {where} and {after} after an "
                    "iteration; a Python value cannot change in a loop on a tensor condition."
                )
            continue
        in_aval = avals[len(out_idx)]
        if nk[0] == "py":
            if not isinstance(nk[1], _NUMBER):
                raise ControlFlowTypeError(
                    f"The variable '{name}' becomes {nk[1]!r} in the loop on a tensor at {where}; it must stay a tensor."
                )
            out_idx.append(("num", nk[1]))
            continue
        s = rec.shapes[nk[1]]
        if s.shape != in_aval.shape or s.dtype != in_aval.dtype:
            if old[2]:  # a Python number before the loop: widen it to what the body makes of it
                overrides[(i, j)] = (s.shape, s.dtype)
                retry = True
            else:
                cls = ControlFlowTypeError if s.dtype != in_aval.dtype else ControlFlowValueError
                raise cls(
                    f"The variable '{name}' is {_aval(in_aval.shape, in_aval.dtype)} before the loop on a tensor at "
                    f"{where} and {_aval(s.shape, s.dtype)} after one iteration; loop variables must keep their "
                    "shape and dtype."
                )
        out_idx.append(("out", nk[1]))
    return retry


def _is_float(x: Any) -> bool:
    return jnp.issubdtype(jnp.result_type(x), jnp.inexact)


def _while_loop(
    cond_rec: _Recording, body_rec: _Recording, body_outs: list[Any], dtypes: list[Any], init: list[Any]
) -> list[Any]:
    cond_jaxpr, cc = cond_rec.closed.jaxpr, list(cond_rec.closed.consts)
    body_jaxpr, bc = body_rec.closed.jaxpr, list(body_rec.closed.consts)

    def cond_fn(consts: list[Any], carry: list[Any]) -> Any:
        return jax.core.eval_jaxpr(cond_jaxpr, consts, *carry)[0]

    def body_fn(consts: list[Any], carry: list[Any], jaxpr: Jaxpr = body_jaxpr) -> list[Any]:
        vals = jax.core.eval_jaxpr(jaxpr, consts, *carry)
        outs = []
        for (kind, j), d, cur in zip(body_outs, dtypes, carry, strict=True):
            v = vals[j] if kind == "out" else jnp.full(jnp.shape(cur), j, d) if kind == "num" else cur
            outs.append(lax.convert_element_type(v, d))
        return outs

    if any(type(x).__name__ == "LinearizeTracer" for x in (*bc, *cc, *init)):
        quiet = _quiet(body_jaxpr)
        return _while_with_vjp(cond_fn, body_fn, lambda b, c: body_fn(b, c, quiet), bc, cc, init)
    return lax.while_loop(lambda c: cond_fn(cc, c), lambda c: body_fn(bc, c), init)


# ------------------------------------------------------------------ silent recomputation
_PRINT_MARK = "_sporax_runtime_print"


def mark_print(fn: Callable[..., None]) -> Callable[..., None]:
    """Tag the run-time half of a converted ``print`` (what ``jax.debug.callback`` calls), so that
    :func:`_quiet` can find it in a jaxpr; a user's own ``jax.debug.callback`` stays."""
    setattr(fn, _PRINT_MARK, True)
    return fn


def _is_print(eqn: Any) -> bool:
    if eqn.primitive.name != "debug_callback":
        return False
    cb = eqn.params.get("callback")
    # jax.debug.callback binds a wrapper (``_flat_callback``) that closes over the function it was given
    cells = getattr(cb, "__closure__", None) or ()
    fns = [cb]
    for cell in cells:
        try:
            fns.append(cell.cell_contents)
        except ValueError:  # an empty cell
            pass
    return any(getattr(f, _PRINT_MARK, False) is True for f in fns)


def _quiet(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` without the converted ``print`` calls, also those in nested jaxprs (``cond`` branches,
    inner loops, ``jit``): what a recomputation evaluates so that it does not print a second time."""
    drop = set().union(*(eqn.effects for eqn in _walk(jaxpr) if _is_print(eqn)))
    return _strip(jaxpr, drop) if drop else jaxpr


def _walk(jaxpr: Jaxpr) -> Iterator[Any]:
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in jaxprs_in_params(eqn.params):
            yield from _walk(sub)


def _strip(jaxpr: Jaxpr, drop: set[Any]) -> Jaxpr:
    """A print has no outputs, so it is simply left out. Then the effects a print has (``drop``: the
    ordered-callback effect) are recounted: a jaxpr or equation keeps one only if an equation left
    inside it still has it (a ``cond`` branch without prints declares it too: JAX joins the branches'
    effects). Other effects stay as recorded."""
    eqns = []
    for eqn in jaxpr.eqns:
        if _is_print(eqn):
            continue
        if any(True for _ in jaxprs_in_params(eqn.params)):
            params = {k: _strip_param(v, drop) for k, v in eqn.params.items()}
            inner = [sub.effects for sub in jaxprs_in_params(params)]
            eqn = eqn.replace(params=params, effects=_recount(eqn.effects, drop, inner))
        eqns.append(eqn)
    return jaxpr.replace(eqns=eqns, effects=_recount(jaxpr.effects, drop, [eqn.effects for eqn in eqns]))


def _strip_param(v: Any, drop: set[Any]) -> Any:
    if isinstance(v, Jaxpr):
        return _strip(v, drop)
    if isinstance(v, ClosedJaxpr):
        return v.replace(jaxpr=_strip(v.jaxpr, drop))
    if isinstance(v, tuple):  # ``cond`` branches
        return tuple(_strip_param(x, drop) for x in v)
    return v


def _recount(declared: Any, drop: set[Any], inner: list[Any]) -> set[Any]:
    return set(declared) - (drop - set().union(*inner))


def _float0_like(x: Any) -> Any:
    return np.zeros(jnp.shape(x), jax.dtypes.float0)


def _while_with_vjp(
    cond_fn: Callable[..., Any],
    body_fn: Callable[..., Any],
    quiet_body_fn: Callable[..., Any],
    bc: list[Any],
    cc: list[Any],
    init: list[Any],
) -> list[Any]:
    """A while loop reverse-mode autodiff can go through: the backward pass walks the steps from last to
    first, recomputing the carry at step k by re-running k forward steps from the start (with
    ``quiet_body_fn``: the body without its prints, which the forward loop made already)."""
    fb = [i for i, x in enumerate(bc) if _is_float(x)]
    fc = [i for i, x in enumerate(init) if _is_float(x)]

    @jax.custom_vjp
    def loop(bc: list[Any], cc: list[Any], init: list[Any]) -> list[Any]:
        return lax.while_loop(lambda c: cond_fn(cc, c), lambda c: body_fn(bc, c), init)

    def fwd(bc: list[Any], cc: list[Any], init: list[Any]) -> Any:
        n, final = lax.while_loop(
            lambda s: cond_fn(cc, s[1]), lambda s: (s[0] + 1, body_fn(bc, s[1])), (jnp.asarray(0, jnp.int64), init)
        )
        return final, (bc, cc, init, n)

    def bwd(res: Any, ct: list[Any]) -> Any:
        bc, cc, init, n = res

        def step_back(s: Any) -> Any:
            k, ct_c, ct_b = s
            c_k = lax.fori_loop(jnp.asarray(0, jnp.int64), k - 1, lambda _, c: quiet_body_fn(bc, c), init)

            def f(b_f: list[Any], c_f: list[Any]) -> list[Any]:
                b = list(bc)
                for i, v in zip(fb, b_f, strict=True):
                    b[i] = v
                c = list(c_k)
                for i, v in zip(fc, c_f, strict=True):
                    c[i] = v
                out = quiet_body_fn(b, c)
                return [out[i] for i in fc]

            _, pull = jax.vjp(f, [bc[i] for i in fb], [c_k[i] for i in fc])
            g_b, g_c = pull(list(ct_c))
            return k - 1, g_c, [a + b for a, b in zip(ct_b, g_b, strict=True)]

        ct_c0 = [jnp.asarray(ct[i]) for i in fc]
        ct_b0 = [jnp.zeros_like(bc[i]) for i in fb]
        _, ct_c, ct_b = lax.while_loop(lambda s: s[0] > 0, step_back, (n, ct_c0, ct_b0))
        g_bc = [_float0_like(x) for x in bc]
        for i, g in zip(fb, ct_b, strict=True):
            g_bc[i] = g
        g_init = [_float0_like(x) for x in init]
        for i, g in zip(fc, ct_c, strict=True):
            g_init[i] = g
        return g_bc, [_float0_like(x) if not _is_float(x) else jnp.zeros_like(x) for x in cc], g_init

    loop.defvjp(fwd, bwd)
    return loop(bc, cc, init)
