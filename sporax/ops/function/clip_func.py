"""Clipping (``mindspore.ops`` functional, MindSpore's ``ops.function.clip_func``): ``clamp``/``clip``,
``clip_by_value``, ``clip_by_norm`` and ``clip_by_global_norm``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._engine import is_tracer, jnp
from ...common.tensor import Tensor
from .._utils import arr, as_tensor_array, compiled_op, float_result, promote, wrap

__all__ = ["clamp", "clip", "clip_by_value", "clip_by_norm", "clip_by_global_norm"]


def clamp(input: Any, min: Any = None, max: Any = None) -> Tensor:
    """Clip to [min, max]; either bound may be None (not both)."""
    if min is None and max is None:
        raise ValueError("For 'clamp', at least one of 'min' and 'max' must be given.")
    a = as_tensor_array(input)
    if min is not None:  # the bounds promote with the input (an Int32 tensor clamped to 1.5 gives Float32)
        a, lo = promote(a, min)
        a = jnp.maximum(a, lo)
    if max is not None:
        a, hi = promote(a, max)
        a = jnp.minimum(a, hi)
    return wrap(a)


clip = clamp


def clip_by_value(x: Any, clip_value_min: Any = None, clip_value_max: Any = None) -> Any:
    """Clip a Tensor, or each Tensor of a list/tuple, to [min, max]."""
    if isinstance(x, (list, tuple)):
        return type(x)(clamp(t, clip_value_min, clip_value_max) for t in x)
    return clamp(x, clip_value_min, clip_value_max)


def _l2(a: Any, norm_type: Any = 2.0) -> Any:
    a = float_result(a)
    if norm_type in (float("inf"), "inf"):
        return jnp.max(jnp.abs(a))
    if norm_type in (float("-inf"), "-inf"):
        return jnp.min(jnp.abs(a))
    p = float(norm_type)
    if p == 2.0:
        return jnp.sqrt(jnp.sum(a * a))
    return jnp.sum(jnp.abs(a) ** p) ** (1.0 / p)


@compiled_op
def clip_by_global_norm(x: Any, clip_norm: Any = 1.0, use_norm: Any = None) -> tuple[Tensor, ...]:
    """Scale a tuple of Tensors so their global L2 norm is at most ``clip_norm``.

    ``scale = clip_norm / max(global_norm, clip_norm)``, with ``global_norm = sqrt(sum(l2(x_i)**2))``
    MindSpore's formula; a single Tensor is accepted too.

    Args:
        x (Union[tuple[Tensor], list[Tensor]]): the tensors to clip.
        clip_norm (Union[float, int, Tensor]): the clipping ratio, > 0. Default: ``1.0``.
        use_norm (None): must be None (as in MindSpore). Default: ``None``.

    Returns:
        tuple[Tensor], the clipped tensors, each in its input's dtype.
    """
    if isinstance(x, Tensor):  # MindSpore accepts one Tensor too
        return clip_by_global_norm((x,), clip_norm, use_norm)[0]
    if not isinstance(x, (list, tuple)):
        raise TypeError(
            f"For 'clip_by_global_norm', the 'x' must be a tuple or list of Tensors, but got {type(x).__name__}."
        )
    if use_norm is not None:
        raise ValueError(
            f"For 'clip_by_global_norm', the 'use_norm' only supports None currently, but got {use_norm!r}."
        )
    if _is_real_number(clip_norm) and float(clip_norm) <= 0:
        raise ValueError(f"For 'clip_by_global_norm', the 'clip_norm' must be > 0, but got {clip_norm}.")
    arrays = [as_tensor_array(t) for t in x]
    if use_norm is None:
        sq = [jnp.sum(jnp.square(float_result(a).astype(jnp.float32))) for a in arrays]
        gnorm = jnp.sqrt(jnp.sum(jnp.stack(sq))) if sq else jnp.zeros((), jnp.float32)
    else:
        gnorm = jnp.asarray(arr(use_norm), jnp.float32)
    cn = jnp.asarray(arr(clip_norm), jnp.float32)
    scale = cn / jnp.maximum(gnorm, cn)
    return tuple(wrap(a * scale.astype(a.dtype) if jnp.issubdtype(a.dtype, jnp.inexact) else a) for a in arrays)


def clip_by_norm(x: Any, max_norm: Any, norm_type: Any = 2.0, error_if_nonfinite: bool = False) -> Any:
    """Clip a Tensor (or a tuple/list of them) so that the total ``norm_type`` norm is at most ``max_norm``.

    ``coef = max_norm / (total_norm + 1e-6)``, applied when below 1.

    Returns:
        Tensor, or a tuple of Tensors when ``x`` is a tuple/list.
    """
    single = not isinstance(x, (list, tuple))
    arrays = [as_tensor_array(t) for t in ([x] if single else x)]
    if not arrays:
        return ()
    norms = jnp.stack([_l2(a, norm_type).astype(jnp.float32) for a in arrays])
    total = _l2(norms, norm_type)
    if error_if_nonfinite and not is_tracer(total) and not bool(jnp.isfinite(total)):
        raise RuntimeError(
            f"For 'clip_by_norm', the total norm of order {norm_type} is non-finite, so it cannot be clipped. "
            "Set 'error_if_nonfinite=False' to clip anyway."
        )
    coef = jnp.minimum(jnp.asarray(arr(max_norm), jnp.float32) / (total + 1e-6), 1.0)
    out = tuple(wrap(a * coef.astype(a.dtype)) for a in arrays)
    return out[0] if single else out


def _is_real_number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
