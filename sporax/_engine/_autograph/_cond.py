"""Traced conditionals with Parameter state (the JAX side of a converted ``if``).

A converted ``if`` on a tensor runs each branch once, under its own state frame, while
``jax.make_jaxpr`` records it: the local names the branch binds and the Parameters it writes become the
branch's outputs. The two recordings are then replayed inside one ``lax.cond``; a name or Parameter only
one branch sets keeps its previous value in the other. So ``if finite: optimizer(grads)`` is a
conditional update, the untaken branch costs nothing at run time, and gradients flow through the taken
branch only (no NaN leaks from the other, as a select would give). :func:`run_if` is that conditional
update as a function (the loss-scale and gradient-accumulation cells use it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax

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
    _number_dtype,
    _outer_assigned,
    _record,
    _Recording,
    _replay,
    _same,
    to_pred,
    wrap,
)


# ------------------------------------------------------------------------------- if / else
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
        hsrc: list[tuple[str, Any]] = []  # ("out", output index) or ("outer", value)
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


def run_if(pred: Any, fn: Callable[..., Any], *args: Any) -> None:
    """Run ``fn(*args)`` (an optimizer step, say) as the true branch of one ``lax.cond`` on the traced 0-d
    bool ``pred``, the false branch doing nothing: what a converted ``if pred: fn(*args)`` runs. The
    Parameters ``fn`` writes keep their values when ``pred`` is False. Call it while tracing."""

    def update() -> tuple[()]:
        fn(*args)
        return ()

    run_cond(pred, [update, lambda: ()], (), (), "a conditional update")
