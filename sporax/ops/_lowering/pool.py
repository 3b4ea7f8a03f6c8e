"""Pooling kernels on arrays (no argument checks): the lowerings ``_lowering/__init__`` picks from.

* ``blockmax``: a non-overlapping max-pool (kernel == stride, no padding) as reshape + max, with an
  elementwise first-max mask as its VJP. XLA's ``select_and_scatter`` (the autodiff of
  ``reduce_window``) is slow on CPU (DESIGN §5).
* ``phasemax``: the same pool of an array in the GEMM convolutions' phase layout
  (``layout.to_phases``: each window's pixels in kh * kw contiguous blocks): the max of the blocks, written
  in NCHW order, and as its VJP the gradient where the block index equals the first maximum's (an argmax over the blocks): both
  vectorised loops over whole blocks (LeNet5's first pool, forward + backward: 274 -> 120 us).
* ``CPU_POOL_OPTIONS``: XLA:CPU's YNNPACK "reduce" library fusion (on by default) slows the reshape
  max-pool and its mask fusions; executables that trace one ask the engine to keep library fusion to dots
  and convolutions (LeNet5 b32 step 2.43 -> 2.07 ms; attention blocks are faster with the default: no
  global switch). Re-check this experimental switch on every jaxlib upgrade.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..._engine import jax, jnp, lax

__all__ = ["blockmax", "phasemax", "CPU_POOL_OPTIONS"]

CPU_POOL_OPTIONS = {
    "xla_cpu_experimental_ynn_fusion_type": "LIBRARY_FUSION_TYPE_DOT,LIBRARY_FUSION_TYPE_INDIVIDUAL_CONVOLUTION"
}


@functools.partial(jax.custom_vjp, nondiff_argnums=(1, 2))
def blockmax(x: Any, kh: int, kw: int) -> Any:
    """Max over non-overlapping ``kh x kw`` blocks of the last two axes of 4-D ``x``."""
    n, c, h, w = x.shape
    return jnp.max(x.reshape(n, c, h // kh, kh, w // kw, kw), axis=(3, 5))


def _blockmax_fwd(x: Any, kh: int, kw: int) -> tuple[Any, Any]:
    y = blockmax(x, kh, kw)
    return y, (x, y)


def _blockmax_bwd(kh: int, kw: int, res: Any, g: Any) -> tuple[Any]:
    x, y = res
    n, c, h, w = x.shape
    oh, ow = h // kh, w // kw
    xr = x.reshape(n, c, oh, kh, ow, kw)
    yb = y[:, :, :, None, :, None]
    # only the first maximum of each window (row-major) gets the gradient, as select_and_scatter does;
    # the mask is built per window offset (no cumsum) and stacked back: one fused elementwise loop
    found = None
    rows = []
    for i in range(kh):
        row = []
        for j in range(kw):
            hit = xr[:, :, :, i : i + 1, :, j : j + 1] == yb
            row.append(hit if found is None else hit & ~found)
            found = hit if found is None else found | hit
        rows.append(row[0] if kw == 1 else jnp.concatenate(row, axis=5))
    mask = rows[0] if kh == 1 else jnp.concatenate(rows, axis=3)
    gx = jnp.where(mask, g[:, :, :, None, :, None], jnp.zeros((), g.dtype))
    return (gx.reshape(n, c, h, w),)


blockmax.defvjp(_blockmax_fwd, _blockmax_bwd)


@jax.custom_vjp
def phasemax(z: Any) -> Any:
    """Max over axes 1 and 2 of phase-layout ``z`` [C, kh, kw, B, OH, OW]: [B, C, OH, OW] (NCHW)."""
    return jnp.max(_blocks_last(z), axis=2)  # one reduced axis: a vectorised loop


def _blocks_last(z: Any) -> Any:
    """[B, C, kh * kw, OH, OW] of phase-layout ``z``: a reduction over the blocks writes NCHW, which a
    flatten into a Dense layer (LeNet5's second pool) reads as it is, and a GEMM convolution after it
    ([C, B, H, W]) takes the transpose into its patch slices. Written in the phase layout's [C, B] order
    the flatten was a separate transpose (25 us of LeNet5 b32's step; the step 0.97x without it, one core)."""
    c, kh, kw = z.shape[:3]
    return jnp.moveaxis(z.reshape(c, kh * kw, *z.shape[3:]), 2, 0)


def _first_max(a: tuple, b: tuple) -> tuple:
    """The reducer of (value, index) pairs keeping the larger value, the lower index among equal ones
    (a NaN wins, as in ``jnp.argmax``)."""
    (av, ai), (bv, bi) = a, b
    pick_a = (av > bv) | (av != av) | ((av == bv) & (ai < bi))
    return lax.select(pick_a, av, bv), lax.select(pick_a, ai, bi)


def _phasemax_fwd(z: Any) -> tuple[Any, Any]:
    flat = _blocks_last(z)
    lowest = -np.inf if jnp.issubdtype(z.dtype, jnp.floating) else jnp.iinfo(z.dtype).min
    # the max and the first maximum's block (row-major in the window, where select_and_scatter and
    # MindSpore send the gradient) in one reduction over a whole-block axis (a vectorised loop)
    init = (np.array(lowest, z.dtype), np.array(0, np.int32))
    y, first = lax.reduce((flat, lax.broadcasted_iota(np.int32, flat.shape, 2)), init, _first_max, (2,))
    return y, (first, z.shape)


def _phasemax_bwd(res: Any, g: Any) -> tuple[Any]:
    first, shape = res
    c, kh, kw = shape[:3]
    hit = lax.broadcasted_iota(np.int32, (c, kh * kw, *shape[3:]), 1) == jnp.swapaxes(first, 0, 1)[:, None]
    # XLA:CPU fuses g's producer into this select (an optimization_barrier is dropped before fusion): it
    # runs kh * kw times per element. Materialising g first (a reduction over a stacked copy) was slower
    # (LeNet5 b32 step 1.04x): this loop is bound by its 1.5 MB of traffic, not by the producer.
    return (jnp.where(hit, jnp.swapaxes(g, 0, 1)[:, None], jnp.zeros((), g.dtype)).reshape(shape),)


phasemax.defvjp(_phasemax_fwd, _phasemax_bwd)
