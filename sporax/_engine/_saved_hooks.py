"""A function whose backward pass reads its inputs through user hooks (``saved_tensors_hooks``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax

from ._autodiff import _fix_float0_like_input

__all__ = ["saved_hooks_call"]


def saved_hooks_call(fn: Callable[..., Any], args: Sequence[Any], pack: Callable, unpack: Callable) -> Any:
    """``fn(*args)``; the forward pass keeps ``pack(a)`` of each argument (a pytree of arrays, Tensors included)
    instead of ``a``, and the backward pass differentiates ``fn`` at ``unpack(kept)``."""

    @jax.custom_vjp
    def call(a: tuple) -> Any:
        return fn(*a)

    def fwd(a: tuple) -> Any:
        return fn(*a), tuple(pack(x) for x in a)

    def bwd(kept: tuple, dout: Any) -> Any:
        restored = tuple(unpack(k) for k in kept)
        _, pullback = jax.vjp(fn, *restored)
        grads = pullback(dout)
        return (
            tuple(jax.tree_util.tree_map(_fix_float0_like_input, g, x) for g, x in zip(grads, restored, strict=True)),
        )

    call.defvjp(fwd, bwd)
    return call(tuple(args))
