"""The one autodiff core behind ``grad``, ``value_and_grad``, ``GradOperation`` and ``vjp``.

:func:`vjp_stateful` differentiates ``fn(*args)`` with respect to some positional arguments and some
holders (Parameters). The holders are bound in a frame to the values being differentiated; any holder
the function *writes* (BatchNorm moving statistics, the RNG key) leaves as a side output and is written
to the enclosing scope afterwards, so state updates survive differentiation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from . import _concrete, _state

_float0 = jax.dtypes.float0


def _is_float(x: Any) -> bool:
    return jnp.issubdtype(x.dtype, jnp.inexact)


def ones_cotangent(x: Any) -> Any:
    if _is_float(x):
        return jnp.ones(x.shape, x.dtype)
    return np.zeros(x.shape, _float0)


def zeros_cotangent(x: Any) -> Any:
    if _is_float(x):
        return jnp.zeros(x.shape, x.dtype)
    return np.zeros(x.shape, _float0)


def _fix_float0(g: Any, like: Any) -> Any:
    """Integer inputs get integer zeros, as MindSpore returns, instead of jax's float0."""
    if getattr(g, "dtype", None) == _float0:
        return jnp.zeros(like.shape, like.dtype)
    return g


def vjp_stateful(
    fn: Callable[..., Any],
    args: Sequence[Any],
    positions: Sequence[int],
    holders: Sequence[Any],
    kwargs: dict[str, Any] | None = None,
) -> tuple[Any, Callable[[Any], tuple[list[Any], list[Any]]]]:
    """Run ``fn(*args, **kwargs)`` and return ``(out, pullback)``.

    ``pullback(cotangent)`` returns ``(grads of args[positions], grads of holders)``. ``out`` keeps the
    function's structure (Tensors stay Tensors: they are pytree nodes).
    """
    kwargs = kwargs or {}
    args = list(args)
    xs = [args[i] for i in positions]
    ws = [_state.read(h) for h in holders]
    if _concrete.is_recording():
        # The concrete forward of an eager-fallback gradient: only its Python decisions matter.
        out = fn(*args, **kwargs)
        return out, lambda ct: (jax.tree_util.tree_map(jnp.zeros_like, xs), [jnp.zeros_like(w) for w in ws])
    side_holders: list[Any] = []

    def f(w_vals: list[Any], x_vals: list[Any]) -> Any:
        a = list(args)
        for i, v in zip(positions, x_vals, strict=True):
            a[i] = v
        with _state.Frame(zip(holders, w_vals, strict=True)) as fr:
            out = fn(*a, **kwargs)
        items = fr.written_items()
        side_holders[:] = [h for h, _ in items]
        return out, [v for _, v in items]

    out, pull, side = jax.vjp(f, ws, xs, has_aux=True)
    for h, v in zip(side_holders, side, strict=True):
        _state.write(h, v)

    def pullback(ct: Any) -> tuple[list[Any], list[Any]]:
        gw, gx = pull(ct)
        gx = jax.tree_util.tree_map(_fix_float0, gx, xs)
        gw = [_fix_float0(g, w) for g, w in zip(gw, ws, strict=True)]
        return gx, gw

    return out, pullback


def custom_vjp_call(
    forward: Callable[..., Any],
    backward: Callable[..., Any],
    args: Sequence[Any],
    holders: Sequence[Any],
) -> Any:
    """Call ``forward(*args)`` with a user-written backward (``Cell.bprop``).

    ``backward(args, out, dout)`` returns the gradients of ``args``. The holders ``forward`` may read
    are passed explicitly (and get zero gradients), so no differentiated value is closed over.
    """
    holders = list(holders)

    def run(h_vals: list[Any], a: tuple[Any, ...]) -> Any:
        with _state.Frame(zip(holders, h_vals, strict=True)):
            return forward(*a)

    @jax.custom_vjp
    def call(h_vals: list[Any], a: tuple[Any, ...]) -> Any:
        return run(h_vals, a)

    def fwd(h_vals: list[Any], a: tuple[Any, ...]) -> Any:
        out = run(h_vals, a)
        return out, (h_vals, a, out)

    def bwd(res: Any, dout: Any) -> Any:
        h_vals, a, out = res
        with _state.Frame(zip(holders, h_vals, strict=True)):
            ga = backward(a, out, dout)
        ga = tuple(ga) if isinstance(ga, (tuple, list)) else (ga,)
        if len(ga) != len(a):
            raise ValueError(
                f"For 'bprop', the number of returned gradients must be {len(a)} (one per input), but got {len(ga)}."
            )
        ga = tuple(jax.tree_util.tree_map(_fix_float0_like_input, g, x) for g, x in zip(ga, a, strict=True))
        return [jnp.zeros_like(v) for v in h_vals], ga

    call.defvjp(fwd, bwd)
    return call([_state.read(h) for h in holders], tuple(args))


def _fix_float0_like_input(g: Any, x: Any) -> Any:
    if not _is_float(x):
        return np.zeros(x.shape, _float0)
    return jnp.asarray(g, x.dtype)


def remat_call(fn: Callable[..., Any], args: Sequence[Any], holders: Sequence[Any]) -> Any:
    """``fn(*args)`` whose activations are recomputed in the backward pass (``Cell.recompute``).

    The holders ``fn`` may read are passed explicitly, and holders it writes leave as outputs and are
    written to the enclosing scope, as in :func:`vjp_stateful`.
    """
    holders = list(holders)
    side_holders: list[Any] = []

    def run(h_vals: list[Any], a: tuple[Any, ...]) -> Any:
        with _state.Frame(zip(holders, h_vals, strict=True)) as fr:
            out = fn(*a)
        items = fr.written_items()
        side_holders[:] = [h for h, _ in items]
        return out, [v for _, v in items]

    out, side = jax.checkpoint(run)([_state.read(h) for h in holders], tuple(args))
    for h, v in zip(side_holders, side, strict=True):
        _state.write(h, v)
    return out
