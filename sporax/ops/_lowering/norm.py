"""Layer normalisation of arrays, written so that the forward is the same HLO with and without autodiff.

``TrainOneStepCell`` runs the network's forward for the loss and again inside the gradient; XLA merges the
two (CSE) only when every instruction of both is identical after its simplifier. The textbook form
(``mean(x, keepdims=True)``, ``rsqrt(var + eps)`` on ``[..., 1]``) is not: in the loss-only forward the
simplifier moves the size-1 reshapes through ``rsqrt``, in the gradient's forward (where ``rsqrt`` also
feeds its derivative) it cannot, so the two forwards differ from the first layer norm on and the whole
network's forward runs twice (the Transformer step: 25 GEMMs more than its JAX twin, ~1.3x its time).

Here the statistics are computed on the ``[M, N]`` view (``M`` rows of ``N`` normalised elements), with
no size-1 axes for the simplifier to move: both forwards stay identical and merge. Autodiff of this form
is also ~1.6x faster than of the keepdims form on one CPU core (``[2048, 256]``: 0.46 ms against 0.73 ms
forward + backward); a hand-written VJP (the two-reduction closed form) gained only ~5 % more and would
take forward-mode differentiation away, so there is none.

Batch normalisation in training (``batch_norm_train``) has a hand-written VJP. JAX's autodiff of the
textbook form keeps ``x - mean`` and the full-size broadcast ``rsqrt(var + eps) * gamma`` as residuals and
its backward runs six to seven passes over the activations (``dy * scale``, ``(x - mean) * ...``, their
sums and ``add_any``s, each written out). Here: forward ``sum x``, then ``sum (x - mean)^2`` (the two-pass
statistics, the same values as before), and one normalise pass (fused with the ReLU / residual addition
after it where XLA's loop fusions run); backward ``sum dy``, ``sum dy * (x - mean)`` and one pass
``dx = dy * a + (x - mean) * q + r`` with per-channel ``a, q, r``. The residuals are ``x`` and per-channel
vectors only. The primal and the VJP's forward run the same function, so the loss-only forward that
``TrainOneStepCell`` traces beside the gradient's stays identical and XLA merges the two.

Measured (ResNet-18 CIFAR, one core, GRAPH step against the autodiff form; XLA:CPU with YNNPACK fusions):
the same losses to the last bit at batch 64; peak RSS 1483 -> 1328 MB at batch 64, width 64; the step time
unchanged within noise (b64 w64 ~1.22 s: 1.003x median over 18 alternating rounds; b16 w16 ~36 ms: 1.002x).
The profile's batch-norm fusions shrink (~128 -> ~112 ms at b64), but the wall clock does not follow: the
per-op times of a profiled step add up to ~1.45 s against its ~1.2 s (overlap or profiler overhead), so
differences of ~1 % between profiles are not measurements. What the form works around:

* a broadcast or ``x - mean`` shared by two passes is written out in full once (XLA CSEs it; a YNNPACK
  fusion does not take a broadcast that has other users): each pass gets its own copy of the per-channel
  vector behind an optimisation barrier (``_apart``);
* XLA:CPU rewrites a reduction over an axis longer than 32 (the batch at 64) into reduce-window + reduce,
  which YNNPACK runs ~2x slower (2.3 ms against 1.1 ms at [64, 32, 32, 64]); the backward sums reduce the
  batch axis last, behind a barrier (``_channel_sum``). The forward sums are not rewritten (unclear why);
* not better: one-pass ``sum x, sum x^2`` (YNNPACK does not merge sibling reductions, so it saves no pass;
  ``(x - m)^2`` costs 2.3x ``x^2`` inside YNNPACK, but the one-pass variance loses all precision when
  ``|mean| >> std``); a variadic ``(sum x, sum x^2)`` reduce (XLA's own emitter, ~10x slower); folding
  few channels into a wider minor axis ([M, 16] -> [M / 8, 128], no gain on the 4-D form).
* what remains per layer: ReLU's ``max`` and its backward ``select`` run as their own passes under the
  ``LIBRARY_FUSION_TYPE_ELTWISE`` YNNPACK fusions that channels-last convolutions ask for (``conv.py``).
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from ..._engine import jax, jnp, lax

__all__ = ["layer_norm_array", "batch_norm_train"]


def layer_norm_array(x: Any, begin_axis: int, weight: Any, bias: Any, eps: float) -> tuple[Any, Any, Any]:
    """``(y, mean, var)`` of layer normalisation over axes ``begin_axis:`` (``mean``/``var`` keep those
    axes as size 1; ``var`` is the biased variance); ``weight``/``bias`` (arrays or None) broadcast against
    the trailing axes. Half-precision inputs are normalised in float32: ``y`` has ``x``'s dtype, the
    statistics the computation's."""
    cdt = jnp.float32 if x.dtype in (jnp.float16, jnp.bfloat16) else x.dtype
    lead = x.shape[:begin_axis]
    m, n = math.prod(lead), math.prod(x.shape[begin_axis:])
    x2 = x.astype(cdt).reshape(m, n)
    count = jnp.asarray(n, cdt)
    mean = jnp.sum(x2, axis=1) / count
    xc = x2 - mean[:, None]
    var = jnp.sum(xc * xc, axis=1) / count
    y = (xc * lax.rsqrt(var + jnp.asarray(eps, cdt))[:, None]).reshape(x.shape)
    if weight is not None:
        y = y * weight.astype(cdt)
    if bias is not None:
        y = y + bias.astype(cdt)
    kshape = lead + (1,) * (x.ndim - begin_axis)
    return y.astype(x.dtype), mean.reshape(kshape), var.reshape(kshape)


def _bn_forward(x: Any, w: Any, b: Any, axes: tuple[int, ...], eps: float) -> tuple[Any, Any, Any, Any]:
    """``(y, mean, var, 1 / sqrt(var + eps))``; ``var`` biased; ``w``/``b`` per channel."""
    bshape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    count = jnp.asarray(math.prod(x.shape[i] for i in axes), x.dtype)
    mean = jnp.sum(x, axis=axes) / count
    # the variance pass's own x - mean (see module doc: _apart)
    dev = x - _apart(mean).reshape(bshape)
    var = jnp.sum(dev * dev, axis=axes) / count
    invstd = lax.rsqrt(var + jnp.asarray(eps, x.dtype))
    y = (x - mean.reshape(bshape)) * (invstd * w).reshape(bshape) + b.reshape(bshape)
    return y, mean, var, invstd


def _apart(*vectors: Any) -> Any:
    """The per-channel ``vectors`` behind an optimisation barrier: XLA neither shares their broadcasts nor
    the subtractions/products on them with other passes' (it would write a shared full-size broadcast or
    ``x - mean`` out once and read it back, instead of fusing it into each pass). One vector: that vector."""
    out = lax.optimization_barrier(vectors)
    return out[0] if len(vectors) == 1 else out


def _channel_sum(v: Any, axes: tuple[int, ...]) -> Any:
    """``sum(v, axes)``, the batch axis (0) last: XLA:CPU rewrites a reduction over an axis longer than 32
    into a reduce-window + reduce, which YNNPACK runs ~2x slower; the per-sample sums are small."""
    if 0 not in axes or v.shape[0] <= 32 or len(axes) == 1:
        return jnp.sum(v, axis=axes)
    return jnp.sum(lax.optimization_barrier(jnp.sum(v, axis=tuple(a for a in axes if a != 0))), axis=0)


@partial(jax.custom_vjp, nondiff_argnums=(3, 4))
def _bn_train(x: Any, w: Any, b: Any, axes: tuple[int, ...], eps: float) -> tuple[Any, Any, Any]:
    return _bn_forward(x, w, b, axes, eps)[:3]


def _bn_train_fwd(x: Any, w: Any, b: Any, axes: tuple[int, ...], eps: float) -> tuple[Any, Any]:
    y, mean, var, invstd = _bn_forward(x, w, b, axes, eps)
    return (y, mean, var), (x, w, mean, invstd)


def _bn_train_bwd(axes: tuple[int, ...], eps: float, res: Any, cts: Any) -> tuple[Any, Any, Any]:
    x, w, mean, invstd = res
    gy, gmean, gvar = cts
    bshape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    count = jnp.asarray(math.prod(x.shape[i] for i in axes), x.dtype)
    m_red, _ = _apart(mean, invstd)
    sdy = _channel_sum(gy, axes)
    sdyxc = _channel_sum(gy * (x - m_red.reshape(bshape)), axes)
    a, m_dx = _apart(invstd * w, mean)
    # dx = a * (gy - sdy / n - (x - mean) * invstd^2 * sdyxc / n) + gmean / n + 2 * gvar * (x - mean) / n
    q = (2 * gvar - a * invstd * invstd * sdyxc) / count
    r = (gmean - a * sdy) / count
    dx = gy * a.reshape(bshape) + (x - m_dx.reshape(bshape)) * q.reshape(bshape) + r.reshape(bshape)
    return dx, sdyxc * invstd, sdy


_bn_train.defvjp(_bn_train_fwd, _bn_train_bwd)


def batch_norm_train(x: Any, weight: Any, bias: Any, axes: tuple[int, ...], eps: float) -> tuple[Any, Any, Any]:
    """``(y, mean, var)`` of batch normalisation with the batch statistics over ``axes`` of ``x`` (the
    computation dtype; the channel axis is the one not in ``axes``); ``var`` is the biased variance;
    ``weight``/``bias``: per-channel arrays or None. Differentiable in all three results (see module doc)."""
    from . import rnn_differentiated_by_jax  # forward_mode(): no custom VJPs (the plain form)

    c = math.prod(d for i, d in enumerate(x.shape) if i not in axes)
    w = jnp.ones((c,), x.dtype) if weight is None else weight.astype(x.dtype)
    b = jnp.zeros((c,), x.dtype) if bias is None else bias.astype(x.dtype)
    axes = tuple(int(a) for a in axes)
    if rnn_differentiated_by_jax():
        return _bn_forward(x, w, b, axes, float(eps))[:3]
    return _bn_train(x, w, b, axes, float(eps))
