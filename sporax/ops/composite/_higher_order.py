"""Forward-mode and higher-order derivatives: ``linearize``, ``derivative``, ``jet`` (Taylor-mode
propagation, ``jax.experimental.jet``). Series are in derivative form: ``series[k]`` is the (k+1)-th
derivative along the input direction, as in MindSpore."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import _checkparam as validator
from ..._engine import jax
from ...common.tensor import Tensor
from .._lowering import forward_mode
from ._grad import _traced

__all__ = ["linearize", "derivative", "jet"]


def _as_tuple(x: Any, op: str, what: str) -> tuple[Tensor, ...]:
    items = (x,) if isinstance(x, Tensor) else tuple(x) if isinstance(x, (tuple, list)) else None
    if not items or not all(isinstance(t, Tensor) for t in items):
        raise TypeError(f"For '{op}', the '{what}' must be a Tensor or a tuple of Tensors, but got {type(x).__name__}.")
    return items


def _pure(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` on raw arrays (Tensors in and out), run under a state frame."""
    run = _traced(fn)

    def pure(*raw: Any) -> Any:
        with forward_mode():  # the lowerings forward mode differentiates (no custom VJPs)
            out = run(*[Tensor._from_data(r) for r in raw])
        return jax.tree_util.tree_map(lambda t: t._data, out, is_leaf=lambda t: isinstance(t, Tensor))

    return pure


def _wrap(tree: Any) -> Any:
    return jax.tree_util.tree_map(Tensor._from_data, tree)


def linearize(fn: Callable[..., Any], inputs: Any) -> tuple[Any, Callable[..., Any]]:
    """``(fn(*inputs), jvp_fn)``: ``jvp_fn(*v)`` is the Jacobian of ``fn`` at ``inputs`` applied to ``v``,
    evaluated without recomputing the forward pass."""
    ins = _as_tuple(inputs, "linearize", "inputs")
    out, lin = jax.linearize(_pure(fn), *[t._data for t in ins])

    def jvp_fn(*v: Any) -> Any:
        vs = _as_tuple(v[0] if len(v) == 1 and isinstance(v[0], (tuple, list)) else v, "linearize", "v")
        if len(vs) != len(ins):
            raise ValueError(f"For 'linearize', 'v' must hold {len(ins)} tangent(s), but got {len(vs)}.")
        return _wrap(lin(*[t._data.astype(i._data.dtype) for t, i in zip(vs, ins, strict=True)]))

    return _wrap(out), jvp_fn


def jet(fn: Callable[..., Any], primals: Any, series: Any) -> tuple[Any, Any]:
    """Taylor-mode propagation: ``series`` (one Tensor per primal, its first axis the order) are the input's
    derivatives along a curve; returns ``(fn(primals), out_series)`` with the output's derivatives."""
    ps = _as_tuple(primals, "jet", "primals")
    ss = _as_tuple(series, "jet", "series")
    if len(ps) != len(ss):
        raise ValueError(
            f"For 'jet', 'primals' and 'series' must have the same length, but got {len(ps)} and {len(ss)}."
        )
    for p, s in zip(ps, ss, strict=True):
        if tuple(s.shape[1:]) != tuple(p.shape):
            raise ValueError(
                f"For 'jet', each series must have the shape (order, *primal.shape) = (n, {', '.join(map(str, p.shape))}), "
                f"but got {tuple(s.shape)}."
            )
    raw_series = tuple(
        tuple(s._data[k].astype(p._data.dtype) for k in range(s.shape[0])) for p, s in zip(ps, ss, strict=True)
    )
    from jax.experimental import jet as _jet

    out, out_series = _jet.jet(_pure(fn), tuple(p._data for p in ps), raw_series)
    stacked = jax.tree_util.tree_map(jax.numpy.stack, out_series, is_leaf=lambda t: isinstance(t, list))
    return _wrap(out), _wrap(stacked)


def derivative(fn: Callable[..., Any], primals: Any, order: int) -> tuple[Any, Any]:
    """``(fn(primals), d^order fn / dt^order)`` along the all-ones direction of the primals."""
    validator.check_int_at_least(order, 1, "order", "derivative", quote=True)
    ps = _as_tuple(primals, "derivative", "primals")
    from jax.experimental import jet as _jet

    raw = tuple(p._data for p in ps)
    series = tuple((jax.numpy.ones_like(r),) + tuple(jax.numpy.zeros_like(r) for _ in range(order - 1)) for r in raw)
    out, out_series = _jet.jet(_pure(fn), raw, series)
    return _wrap(out), _wrap(
        jax.tree_util.tree_map(lambda terms: terms[-1], out_series, is_leaf=lambda t: isinstance(t, list))
    )
