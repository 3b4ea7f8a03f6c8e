"""Traced loops with Parameter state (the JAX side of a converted ``while``).

A converted ``while`` on a tensor becomes ``lax.while_loop`` whose carry holds the loop's live names and
the Parameters its body writes (found by recording the body, then recording again with them carried).
Under reverse-mode autodiff the loop gets a custom VJP that re-runs the forward loop to each step (time
quadratic in the trip count, memory constant), since XLA loops have no static bound to store steps in.
That recomputation runs a copy of the body with the rewrite's runtime ``print`` calls taken out, so a
``print`` in the loop prints once per forward iteration, as in PyNative.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import ClosedJaxpr, Jaxpr, jaxprs_in_params

from .. import _state
from ._analysis import RET
from ._values import (
    _NUMBER,
    UNDEF,
    ControlFlowNameError,
    ControlFlowTypeError,
    ControlFlowValueError,
    _aval,
    _desc,
    _flatten,
    _is_array,
    _is_tensor,
    _leaf_array,
    _number_dtype,
    _outer_assigned,
    _raw,
    _record,
    _Recording,
    _same,
    to_pred,
    wrap,
)


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
    ret_init: dict[int, tuple[Any, list[Any], list[Any]]] = {}  # (tree, leaf kinds, initial arrays)

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
            retry |= _verify_carry(names[i], i, tree, kinds, body_rec, avals, overrides, where, out_idx)
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


def _verify_carry(
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
