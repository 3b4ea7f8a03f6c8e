"""Convolution kernels on arrays (no argument checks): the lowerings ``_lowering/__init__`` picks from.

* ``conv_plain`` / ``conv_transpose_plain``: ``lax.conv_general_dilated`` in NC... layout (cuDNN on GPU).
* ``conv_cbhw``: 2-D im2col + one GEMM on [C, B, H, W] activations with a GEMM-written VJP (weight
  gradient ``g @ patches.T``; input gradient ``w.T @ g`` then col2im: per kernel row, a fused sum of pads added in place).
  Patches are one stack of all window views (XLA computes repeated views once).
* ``conv_cl`` / ``conv_transpose_cl``: channels-last convolutions (NHWC/HWIO, NDHWC/DHWIO) whose
  forward *and* VJP are convolutions with canonical dimension numbers, the padding inside their windows
  (1x1 ones without padding: a GEMM). Inside a while loop (sink mode, scan) XLA:CPU skips the pass that
  canonicalises convolutions: autodiff's backward convolutions would run as naive loop nests, 10-100x
  slower.

DESIGN §5 has the measurements; bench/bench_conv.py compares them.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..._engine import jax, jnp, lax

__all__ = [
    "conv_plain",
    "conv_transpose_plain",
    "conv_cbhw",
    "conv_s2d",
    "conv_gemm_cl",
    "conv_cl",
    "conv_transpose_cl",
    "CL_DIMS",
    "CPU_CONV_OPTIONS",
]

# XLA:CPU's YNNPACK library fusions for programs with channels-last convolutions: jaxlib's default kinds
# (dots, convolutions, reductions) plus elementwise fusions, which take batch norm's and ReLU's passes
# between the convolutions (a ResNet basic block at batch 64, 64 channels, 32x32, forward and backward:
# 179 -> 159 ms, one core). Experimental: re-check on every jaxlib upgrade.
CPU_CONV_OPTIONS = {
    "xla_cpu_experimental_ynn_fusion_type": "LIBRARY_FUSION_TYPE_INDIVIDUAL_DOT,LIBRARY_FUSION_TYPE_INDIVIDUAL_CONVOLUTION,"
    "LIBRARY_FUSION_TYPE_REDUCE,LIBRARY_FUSION_TYPE_ELTWISE"
}

# canonical channels-last dimension numbers per spatial rank
CL_DIMS = {
    1: ("NWC", "WIO", "NWC"),
    2: ("NHWC", "HWIO", "NHWC"),
    3: ("NDHWC", "DHWIO", "NDHWC"),
}
_NC_DIMS = {
    1: ("NCW", "OIW", "NCW"),
    2: ("NCHW", "OIHW", "NCHW"),
    3: ("NCDHW", "OIDHW", "NCDHW"),
}


# ------------------------------------------------------------------ plain (NC... layout)
def conv_plain(x: Any, w: Any, stride: tuple, pads: tuple, dilation: tuple, groups: int) -> Any:
    """``lax.conv_general_dilated`` of NC... ``x`` with OI... ``w`` (explicit padding)."""
    return lax.conv_general_dilated(
        x,
        w,
        window_strides=stride,
        padding=pads,
        rhs_dilation=dilation,
        dimension_numbers=_NC_DIMS[len(stride)],
        feature_group_count=groups,
    )


def conv_transpose_plain(
    x: Any, w: Any, stride: tuple, pads: tuple, dilation: tuple, groups: int, out_shape: tuple
) -> Any:
    """The transpose (input gradient) of ``conv_plain`` with weight ``w`` [C_x, C_out / groups, k...],
    applied to ``x`` [N, C_x, ...]: an [N, C_out, *out_shape] result (``out_shape`` unpadded)."""
    a = jnp.zeros((x.shape[0], w.shape[1] * groups, *out_shape), x.dtype)
    _, pull = jax.vjp(lambda t: conv_plain(t, w, stride, pads, dilation, groups), a)
    return pull(x)[0]


# ------------------------------------------------------------------ im2col + GEMM (2-D)
def _gemm_geometry(
    xs: tuple[int, ...], ws: tuple[int, ...], stride: tuple, pads: tuple, dilation: tuple
) -> tuple[int, int]:
    hp, wp = xs[2] + pads[0][0] + pads[0][1], xs[3] + pads[1][0] + pads[1][1]
    oh = (hp - dilation[0] * (ws[2] - 1) - 1) // stride[0] + 1
    ow = (wp - dilation[1] * (ws[3] - 1) - 1) // stride[1] + 1
    return oh, ow


def _patches(xp: Any, kh: int, kw: int, oh: int, ow: int, stride: tuple, dilation: tuple, split: tuple) -> Any:
    """[C, kh, kw, sh, sw, B, oh / sh, ow / sw]: the strided window views of padded [C, B, H, W] ``xp``, the
    output pixels split into ``split`` interleaved phases (output row ``r * sh + a`` is phase ``a``'s row
    ``r``; (1, 1): [C, kh, kw, 1, 1, B, oh, ow]), as one stack of all kh * kw * sh * sw views. With phases,
    views repeat (kernel row ``i`` of phase ``a`` starts where row ``i + 1`` of phase ``a - 1`` does, for
    unit strides): XLA computes each distinct one once (36 of LeNet5's 100 per layer) and the stack is one
    copy into the patch matrix. (Nested stacks of <= 8 operands, which XLA:CPU fuses into one loop each,
    wrote every view, each level in its own pass: the LeNet5 b32 step 4 % slower, one core.)"""
    c, b = xp.shape[:2]
    sh, sw = split
    ph, pw = oh // sh, ow // sw
    step = (stride[0] * sh, stride[1] * sw)

    def view(h0: int, w0: int) -> Any:
        end = (c, b, h0 + (ph - 1) * step[0] + 1, w0 + (pw - 1) * step[1] + 1)
        return lax.slice(xp, (0, 0, h0, w0), end, (1, 1, *step))

    views = [
        view(i * dilation[0] + a * stride[0], j * dilation[1] + e * stride[1])
        for i in range(kh)
        for j in range(kw)
        for a in range(sh)
        for e in range(sw)
    ]
    return jnp.stack(views, axis=1).reshape(c, kh, kw, sh, sw, b, ph, pw)


def _gemm(a: Any, b: Any, groups: int, contract: tuple[int, int]) -> Any:
    """``a @ b`` per group over leading group axes (dropped when ``groups == 1``: a canonical 2-D dot)."""
    if groups == 1:
        return lax.dot_general(a[0], b[0], (((contract[0] - 1,), (contract[1] - 1,)), ((), ())))[None]
    return lax.dot_general(a, b, (((contract[0],), (contract[1],)), ((0,), (0,))))


def _col2im(block: Any, shape: tuple, hax: int, offsets: tuple, stride: tuple) -> Any:
    """The padded input gradient of ``shape`` (spatial axes ``hax``, ``hax + 1``) from the patches' gradients
    ``block(a, e)``, whose element (r, q) belongs at input position ``(offsets[0][a] + r * stride[0],
    offsets[1][e] + q * stride[1])``: the blocks of one input row offset summed as one fusion of pads
    (stride-dilated, shifted along the width), then added into their rows in place (one update per row
    offset: 2x faster than one per block, LeNet5's second layer)."""
    wp = shape[hax + 1]
    rows: dict[int, list[int]] = {}
    for a, h0 in enumerate(offsets[0]):
        rows.setdefault(h0, []).append(a)
    dx: Any = None
    for h0, blocks in rows.items():
        row: Any = None
        for a in blocks:
            for e, w0 in enumerate(offsets[1]):
                blk = block(a, e)
                bw = (blk.shape[hax + 1] - 1) * stride[1] + 1
                cfg = [(0, 0, 0)] * blk.ndim
                cfg[hax] = (0, 0, stride[0] - 1)
                cfg[hax + 1] = (w0, wp - w0 - bw, stride[1] - 1)
                blk = lax.pad(blk, np.array(0, blk.dtype), cfg)
                row = blk if row is None else row + blk
        if dx is None:
            dx = jnp.zeros(shape, row.dtype)
        at = [0] * len(shape)
        at[hax] = h0
        dx = lax.dynamic_update_slice(dx, lax.dynamic_slice(dx, at, row.shape) + row, at)
    return dx


def _kernel_offsets(ks: tuple, stride: tuple, dilation: tuple, split: tuple) -> tuple:
    """Per spatial axis, the input offset of each (kernel tap, output phase) pair in ``_patches``' order."""
    return tuple(
        tuple(i * dilation[ax] + a * stride[ax] for i in range(ks[ax]) for a in range(split[ax])) for ax in range(2)
    )


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3, 4, 5, 6))
def conv_cbhw(x: Any, w: Any, stride: tuple, pads: tuple, dilation: tuple, groups: int, split: tuple = (1, 1)) -> Any:
    """Convolution of [C, B, H, W] ``x`` with OIHW ``w`` as im2col + GEMM: [O, sh, sw, B, OH / sh, OW / sw],
    the output pixels in ``split`` = (sh, sw) interleaved phases (``layout.from_phases`` gives NCHW back;
    (1, 1): [O, 1, 1, B, OH, OW]). With ``split`` a max-pool's non-overlapping window, each window's
    pixels lie in sh * sw contiguous blocks (``pool.phasemax``)."""
    return _conv_cbhw_fwd(x, w, stride, pads, dilation, groups, split)[0]


def _conv_cbhw_fwd(
    x: Any, w: Any, stride: tuple, pads: tuple, dilation: tuple, groups: int, split: tuple
) -> tuple[Any, Any]:
    c, b = x.shape[:2]
    o, cg, kh, kw = w.shape
    oh, ow = _gemm_geometry((b, c, *x.shape[2:]), w.shape, stride, pads, dilation)
    xp = jnp.pad(x, ((0, 0), (0, 0), *pads)) if any(p for pp in pads for p in pp) else x
    p = _patches(xp, kh, kw, oh, ow, stride, dilation, split).reshape(groups, cg * kh * kw, b * oh * ow)
    y = _gemm(w.reshape(groups, o // groups, cg * kh * kw), p, groups, (2, 1))
    return y.reshape(o, *split, b, oh // split[0], ow // split[1]), (p, w, x.shape)


# The weight gradient puts the patches first from this ratio of patch rows to output channels (see _wgrad_gemm).
_WGRAD_PATCHES_FIRST = 4


def _wgrad_gemm(g2: Any, p: Any, groups: int) -> Any:
    """The weight gradient ``g2 @ p.T`` per group ([groups, O / groups, K]). Both operands contract their
    long, contiguous pixel axis; with K at least ``_WGRAD_PATCHES_FIRST`` times O / groups, XLA:CPU's GEMM
    (YNNPACK) runs it 1.6x faster as ``(p @ g2.T).T`` (LeNet5 b32: [6, 25088] x [25, 25088] 197 -> 115 us,
    [16, 3200] x [150, 3200] 131 -> 84 us, one core; the step 0.87x), but 1.18x slower for the space-to-depth
    first layer's [24, 6272] x [36, 6272] (85 us as it is; the step 0.97x kept so). The transpose of the small
    result is free."""
    if p.shape[1] >= _WGRAD_PATCHES_FIRST * g2.shape[1]:
        return jnp.swapaxes(_gemm(p, g2, groups, (2, 2)), 1, 2)
    return _gemm(g2, p, groups, (2, 2))


def _conv_cbhw_bwd(
    stride: tuple, pads: tuple, dilation: tuple, groups: int, split: tuple, res: Any, g: Any
) -> tuple[Any, Any]:
    p, w, xshape = res
    c, b, h, wd = xshape
    o, cg, kh, kw = w.shape
    og = o // groups
    sh, sw = split
    g2 = g.reshape(groups, og, -1)
    dw = _wgrad_gemm(g2, p, groups).reshape(w.shape)
    # the input gradient from g in plain [O, B, OH, OW] order (a small transpose): col2im over the phases'
    # blocks would take sh * sw times more, sparser pads
    oh, ow = g.shape[-2] * sh, g.shape[-1] * sw
    if split != (1, 1):
        g2 = jnp.transpose(g, (0, 3, 4, 1, 5, 2)).reshape(groups, og, -1)
    # w.T @ g with the transposed weight materialised (tiny): a canonical GEMM; XLA would otherwise fold
    # the transpose into a slower transposed-operand dot.
    wt = lax.optimization_barrier(jnp.swapaxes(w.reshape(groups, og, cg * kh * kw), 1, 2))
    hp, wp = h + pads[0][0] + pads[0][1], wd + pads[1][0] + pads[1][1]
    offsets = _kernel_offsets((kh, kw), stride, dilation, (1, 1))
    # (one GEMM per kernel row, each row's patch gradients summed while in cache: LeNet5 b32 step 1.01x)
    dp = _gemm(wt, g2, groups, (2, 1)).reshape(c, kh, kw, b, oh, ow)
    dx = _col2im(lambda i, j: dp[:, i, j], (c, b, hp, wp), 2, offsets, stride)
    if (hp, wp) != (h, wd):
        dx = dx[:, :, pads[0][0] : pads[0][0] + h, pads[1][0] : pads[1][0] + wd]
    return dx, dw


conv_cbhw.defvjp(_conv_cbhw_fwd, _conv_cbhw_bwd)


def _s2d_weight_index(k: int) -> np.ndarray:
    """[2, 2, k // 2 + 1]: per output phase ``a``, input phase ``al`` and block offset ``d``, the kernel
    tap ``2 * d + al - a`` of a ``k``-tap kernel, shifted by one (0 and >= k + 1: a zero of the padded kernel)."""
    a, al, d = np.meshgrid(np.arange(2), np.arange(2), np.arange(k // 2 + 1), indexing="ij")
    return 2 * d + al - a + 1


def conv_s2d(x: Any, w: Any, pads: tuple) -> Any:
    """The stride-1 convolution of [C, B, H, W] ``x`` with OIHW ``w`` in 2x2 output phases (``conv_cbhw``
    with split (2, 2): [O, 2, 2, B, OH / 2, OW / 2]; OH, OW even) through space-to-depth: the input's 2x2
    pixel phases become channels ([4 C, B, H / 2, W / 2]) and the output phases output channels, a
    (k // 2 + 1)^2 convolution with the kernel's taps spread over a [4 O, 4 C, k // 2 + 1, ...] weight
    (zeros where a phase pair has no tap). 1.44x the multiply-adds of a 5x5 kernel, but a patch matrix
    2.8x smaller: the first layer of LeNet5 (one input channel, K = 25) is bound by the memory traffic of
    its 2.5 MB patches, not by arithmetic."""
    c, b = x.shape[:2]
    o, _, kh, kw = w.shape
    xp = jnp.pad(x, ((0, 0), (0, 0), *pads)) if any(p for pp in pads for p in pp) else x
    hp, wp = xp.shape[2:]
    oh, ow = hp - kh + 1, wp - kw + 1
    hs, ws = -(-hp // 2), -(-wp // 2)
    if (2 * hs, 2 * ws) != (hp, wp):  # the extra row / column meets only zero taps
        xp = jnp.pad(xp, ((0, 0), (0, 0), (0, 2 * hs - hp), (0, 2 * ws - wp)))
    xs = xp.reshape(c, b, hs, 2, ws, 2).transpose(0, 3, 5, 1, 2, 4).reshape(4 * c, b, hs, ws)
    ii, jj = _s2d_weight_index(kh), _s2d_weight_index(kw)
    wpad = jnp.pad(w, ((0, 0), (0, 0), (1, 2), (1, 2)))
    # [O, C, a, al, di, e, be, dj] -> [O, a, e, C, al, be, di, dj]
    ws_ = wpad[:, :, ii[:, :, :, None, None, None], jj[None, None, None]]
    ws_ = ws_.transpose(0, 2, 5, 1, 3, 6, 4, 7).reshape(4 * o, 4 * c, kh // 2 + 1, kw // 2 + 1)
    y = conv_cbhw(xs, ws_, (1, 1), ((0, 0), (0, 0)), (1, 1), 1, (1, 1))
    return y.reshape(o, 2, 2, b, oh // 2, ow // 2)


def _patches_cl(xp: Any, kh: int, kw: int, oh: int, ow: int, stride: tuple, dilation: tuple) -> Any:
    """[B, oh, ow, kh, kw, C]: the strided window views of padded channels-last [B, H, W, C] ``xp``."""
    b, c = xp.shape[0], xp.shape[3]
    views = []
    for i in range(kh):
        for j in range(kw):
            h0, w0 = i * dilation[0], j * dilation[1]
            end = (b, h0 + (oh - 1) * stride[0] + 1, w0 + (ow - 1) * stride[1] + 1, c)
            views.append(lax.slice(xp, (0, h0, w0, 0), end, (1, stride[0], stride[1], 1)))
    return jnp.stack(views, axis=3).reshape(b, oh, ow, kh, kw, c)


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3, 4))
def conv_gemm_cl(x: Any, w: Any, stride: tuple, pads: tuple, dilation: tuple) -> Any:
    """Convolution of channels-last [B, H, W, C] ``x`` with OIHW ``w`` as im2col + one GEMM with the
    pixels as rows: [B, OH, OW, O] (for few input channels feeding channels-last layers: a network's RGB
    stem, where Eigen's convolution is slow and the [C, B, H, W] GEMM would need transposes around it)."""
    return _conv_gemm_cl_fwd(x, w, stride, pads, dilation)[0]


def _conv_gemm_cl_fwd(x: Any, w: Any, stride: tuple, pads: tuple, dilation: tuple) -> tuple[Any, Any]:
    b, c = x.shape[0], x.shape[3]
    o, _, kh, kw = w.shape
    oh, ow = _gemm_geometry((b, c, *x.shape[1:3]), w.shape, stride, pads, dilation)
    xp = jnp.pad(x, ((0, 0), *pads, (0, 0))) if any(p for pp in pads for p in pp) else x
    p = _patches_cl(xp, kh, kw, oh, ow, stride, dilation).reshape(b * oh * ow, kh * kw * c)
    wm = jnp.transpose(w, (2, 3, 1, 0)).reshape(kh * kw * c, o)
    y = lax.dot_general(p, wm, (((1,), (0,)), ((), ())))
    return y.reshape(b, oh, ow, o), (p, w, x.shape)


def _conv_gemm_cl_bwd(stride: tuple, pads: tuple, dilation: tuple, res: Any, g: Any) -> tuple[Any, Any]:
    p, w, xshape = res
    b, h, wd, c = xshape
    o, _, kh, kw = w.shape
    oh, ow = g.shape[1:3]
    g2 = g.reshape(b * oh * ow, o)
    dw = lax.dot_general(p, g2, (((0,), (0,)), ((), ()))).reshape(kh, kw, c, o)
    wm = lax.optimization_barrier(jnp.transpose(w, (0, 2, 3, 1)).reshape(o, kh * kw * c))
    dp = lax.dot_general(g2, wm, (((1,), (0,)), ((), ()))).reshape(b, oh, ow, kh, kw, c)
    hp, wp = h + pads[0][0] + pads[0][1], wd + pads[1][0] + pads[1][1]
    offsets = _kernel_offsets((kh, kw), stride, dilation, (1, 1))
    dx = _col2im(lambda i, j: dp[:, :, :, i, j], (b, hp, wp, c), 1, offsets, stride)
    if (hp, wp) != (h, wd):
        dx = dx[:, pads[0][0] : pads[0][0] + h, pads[1][0] : pads[1][0] + wd]
    return dx, jnp.transpose(dw, (3, 2, 0, 1))


conv_gemm_cl.defvjp(_conv_gemm_cl_fwd, _conv_gemm_cl_bwd)


# ------------------------------------------------------------------ channels-last, canonical (N-d)
# The padding goes into the convolutions' windows, never into a padded copy of the operand: XLA:CPU's
# convolutions on a pre-padded input (a 'VALID' window on 34x34 instead of pad 1 on 32x32) run 2-4x
# slower (ResNet-18's 3x3 layers: 50 vs 190 GFLOP/s forward, 35 vs 105 weight gradient; bench_conv.py
# --convs). Window paddings stay >= 0: a negative one is a crop of the result instead.
def _cl_conv(x: Any, w: Any, stride: tuple, pads: tuple, dilation: tuple) -> Any:
    """Convolution of channels-last ``x`` with spatial-first ``w`` (…IO), ``pads`` (lo, hi) >= 0 per dim."""
    return lax.conv_general_dilated(x, w, stride, pads, rhs_dilation=dilation, dimension_numbers=CL_DIMS[x.ndim - 2])


def _crop(x: Any, starts: list, sizes: tuple) -> Any:
    """``x[:, starts[i] : starts[i] + sizes[i], ..., :]`` (no op when nothing is cut)."""
    if all(st == 0 for st in starts) and tuple(x.shape[1:-1]) == tuple(sizes):
        return x
    return x[(slice(None), *(slice(st, st + n) for st, n in zip(starts, sizes)))]


def _chunk(n: int, item_bytes: int, chunk_bytes: int) -> int:
    """The largest divisor of ``n`` (batch size) whose items take at most ``chunk_bytes`` (at least 1)."""
    return max([d for d in range(1, n + 1) if n % d == 0 and d * item_bytes <= chunk_bytes] or [1])


# A strided convolution's input gradient correlates the stride-dilated ``g``; over about this many bytes
# of it (the whole batch) XLA:CPU's convolution slows down 2x and more (ResNet-18's first stride-2 layer,
# batch 64: 31 MB, 30% of the GEMM rate), so it runs in a loop over chunks of about _DGRAD_CHUNK_BYTES.
_DGRAD_WHOLE_BYTES = 16 << 20
_DGRAD_CHUNK_BYTES = 2 << 20


def _cl_dgrad(g: Any, w: Any, stride: tuple, lo: tuple, dilation: tuple, in_sp: tuple) -> Any:
    """Input gradient of ``_cl_conv`` (low paddings ``lo``) for an input of spatial shape ``in_sp`` (see
    ``_cl_dgrad_whole``), over batch chunks when the stride-dilated ``g`` is large."""
    n = g.shape[0]
    per_image = g.dtype.itemsize * g.shape[-1] * int(np.prod([(o - 1) * s + 1 for o, s in zip(g.shape[1:-1], stride)]))
    if n * per_image <= _DGRAD_WHOLE_BYTES or all(s == 1 for s in stride):
        return _cl_dgrad_whole(g, w, stride, lo, dilation, in_sp)
    nb = _chunk(n, per_image, _DGRAD_CHUNK_BYTES)
    dx = lax.map(lambda gc: _cl_dgrad_whole(gc, w, stride, lo, dilation, in_sp), g.reshape(n // nb, nb, *g.shape[1:]))
    return dx.reshape(n, *dx.shape[2:])


def _cl_dgrad_whole(g: Any, w: Any, stride: tuple, lo: tuple, dilation: tuple, in_sp: tuple) -> Any:
    """Input gradient of ``_cl_conv`` (low paddings ``lo``) for an input of spatial shape ``in_sp``: the
    stride-dilated ``g`` correlated with the flipped kernel, in/out channels swapped."""
    nsp = g.ndim - 2
    ks, outs = w.shape[:nsp], g.shape[1 : 1 + nsp]
    ext = [dilation[i] * (ks[i] - 1) for i in range(nsp)]
    flip = w[(slice(None, None, -1),) * nsp]
    w_t = jnp.swapaxes(flip, -1, -2)
    want = [(ext[i] - lo[i], in_sp[i] - (outs[i] - 1) * stride[i] - 1 + lo[i]) for i in range(nsp)]
    pads = [(max(a, 0), max(b, 0)) for a, b in want]
    dx = lax.conv_general_dilated(
        g, w_t, (1,) * nsp, pads, lhs_dilation=stride, rhs_dilation=dilation, dimension_numbers=CL_DIMS[nsp]
    )
    return _crop(dx, [max(-a, 0) for a, _ in want], in_sp)


# Batch chunk of the weight gradient: about this many bytes of input per chunk (see _cl_wgrad).
_WGRAD_CHUNK_BYTES = 512 * 1024
_WGRAD_CHUNK_MIN_OUT = 64  # output positions per image below which the gradient is taken whole


def _cl_wgrad(x: Any, g: Any, stride: tuple, lo: tuple, dilation: tuple, ks: tuple) -> Any:
    """Weight gradient of ``_cl_conv`` (low paddings ``lo``), summed over batch chunks of about
    ``_WGRAD_CHUNK_BYTES`` of ``x`` in a loop: XLA:CPU's weight-gradient convolution contracts over the batch
    and the whole image, and runs at half the GEMM rate or less once that leaves the cache; on chunks of
    ~512 KB it runs 1.3-2.8x faster (ResNet-18's 3x3 layers, batch 64: bench_conv.py --convs). Small
    outputs (under 8x8: ResNet-18's last stage) are as fast or faster whole."""
    n = x.shape[0]
    nb = _chunk(n, x.dtype.itemsize * int(np.prod(x.shape[1:])), _WGRAD_CHUNK_BYTES)
    if nb == n or int(np.prod(g.shape[1:-1])) < _WGRAD_CHUNK_MIN_OUT:
        return _cl_wgrad_whole(x, g, stride, lo, dilation, ks)

    def body(acc: Any, xg: tuple) -> tuple:
        return acc + _cl_wgrad_whole(xg[0], xg[1], stride, lo, dilation, ks), None

    chunks = (x.reshape(n // nb, nb, *x.shape[1:]), g.reshape(n // nb, nb, *g.shape[1:]))
    acc = jnp.zeros((*ks, x.shape[-1], g.shape[-1]), jnp.result_type(x.dtype, g.dtype))
    return lax.scan(body, acc, chunks)[0]


def _cl_wgrad_whole(x: Any, g: Any, stride: tuple, lo: tuple, dilation: tuple, ks: tuple) -> Any:
    """Weight gradient of ``_cl_conv`` (low paddings ``lo``): batch and channels swapped (``x`` as
    [C, *sp, N], ``g`` as an [*out, N, O] kernel) over the positions the windows reach."""
    nsp = x.ndim - 2
    ins, outs = x.shape[1 : 1 + nsp], g.shape[1 : 1 + nsp]
    hi = [(outs[i] - 1) * stride[i] + dilation[i] * (ks[i] - 1) + 1 - ins[i] - lo[i] for i in range(nsp)]
    x = _crop(x, [0] * nsp, tuple(ins[i] + min(hi[i], 0) for i in range(nsp)))
    x_t = jnp.transpose(x, (nsp + 1, *range(1, nsp + 1), 0))
    kperm = (*range(1, nsp + 1), 0, nsp + 1)
    pads = [(lo[i], max(hi[i], 0)) for i in range(nsp)]
    dw = lax.conv_general_dilated(
        x_t, jnp.transpose(g, kperm), dilation, pads, rhs_dilation=stride, dimension_numbers=CL_DIMS[nsp]
    )
    return jnp.transpose(dw, kperm)


def _pointwise(x: Any, w: Any, stride: tuple) -> Any:
    """A 1x1 convolution without padding: strided subsampling and one 2-D GEMM over the pixels (autodiff:
    GEMMs and an interior pad; forward-mode works too); XLA:CPU's weight-gradient convolution is about 2x
    slower on those shapes. The pixels flattened first: autodiff's weight gradient of a GEMM contracting
    over [B, H, W] runs 2-3x slower (ResNet-18's strided 1x1 layers, batch 64: 7.8 / 4.0 / 2.7 -> 2.8 /
    1.6 / 1.3 ms; batch 16, width 16: 0.16 -> 0.06 ms)."""
    if any(s != 1 for s in stride):
        x = x[(slice(None), *(slice(None, None, s) for s in stride))]
    y = lax.dot_general(x.reshape(-1, x.shape[-1]), w.reshape(w.shape[-2:]), (((1,), (0,)), ((), ())))
    return y.reshape(*x.shape[:-1], w.shape[-1])


# ------------------------------------------------------------------ per-tap GEMMs (tiny images)
# Share of a padded convolution's multiply-adds that fall on the padding from which "taps" pays: a 3x3
# convolution with padding 1 on 4x4 images spends 31 % of XLA's work on zeros (ResNet-18's last stage:
# 25.1 -> 17.1 ms forward at batch 64, 512 channels; on 8x8 images, 16 %, it is no faster).
_TAPS_MIN_PADDED_SHARE = 0.25


def _tap_ranges(ks: tuple, pads: tuple, dilation: tuple, ins: tuple, outs: tuple) -> list[tuple]:
    """Per kernel tap (i, j) that reaches the image: (i, j, rows, cols, in_rows, in_cols), the output
    slices it contributes to and the input slices it reads (stride 1)."""
    taps = []
    for i in range(ks[0]):
        for j in range(ks[1]):
            off = (i * dilation[0] - pads[0][0], j * dilation[1] - pads[1][0])
            lo = [max(0, -off[a]) for a in range(2)]
            hi = [min((outs[a], ins[a] - off[a])[k] for k in range(2)) for a in range(2)]
            if hi[0] > lo[0] and hi[1] > lo[1]:
                rows, cols = slice(lo[0], hi[0]), slice(lo[1], hi[1])
                taps.append(
                    (i, j, rows, cols, slice(lo[0] + off[0], hi[0] + off[0]), slice(lo[1] + off[1], hi[1] + off[1]))
                )
    return taps


def _padded_share(ks: tuple, pads: tuple, dilation: tuple, ins: tuple, outs: tuple) -> float:
    valid = sum((t[2].stop - t[2].start) * (t[3].stop - t[3].start) for t in _tap_ranges(ks, pads, dilation, ins, outs))
    return 1.0 - valid / (ks[0] * ks[1] * outs[0] * outs[1])


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3))
def _conv_taps(x: Any, w: Any, pads: tuple, dilation: tuple) -> Any:
    """Stride-1 convolution of NHWC ``x`` with HWIO ``w`` as one GEMM per kernel tap over the output
    pixels it reaches (none on the padding), added into the result in place; its VJP the same way (input
    gradient per tap into the input's slices, weight gradient per tap as one GEMM over the batch)."""
    ks, ins = w.shape[:2], x.shape[1:3]
    outs = tuple(ins[a] + pads[a][0] + pads[a][1] - dilation[a] * (ks[a] - 1) for a in range(2))
    y = jnp.zeros((x.shape[0], *outs, w.shape[-1]), jnp.result_type(x.dtype, w.dtype))
    for i, j, rows, cols, irows, icols in _tap_ranges(ks, pads, dilation, ins, outs):
        t = lax.dot_general(x[:, irows, icols], w[i, j], (((3,), (0,)), ((), ())))
        y = y.at[:, rows, cols].add(t)
    return y


def _conv_taps_fwd(x: Any, w: Any, pads: tuple, dilation: tuple) -> tuple[Any, Any]:
    return _conv_taps(x, w, pads, dilation), (x, w)


def _conv_taps_bwd(pads: tuple, dilation: tuple, res: Any, g: Any) -> tuple[Any, Any]:
    x, w = res
    ks, ins, outs = w.shape[:2], x.shape[1:3], g.shape[1:3]
    # the transposed taps materialised (small): canonical GEMMs instead of transposed-operand ones
    wt = lax.optimization_barrier(jnp.swapaxes(w, 2, 3))
    dx = jnp.zeros(x.shape, g.dtype)
    dw = [[jnp.zeros(w.shape[2:], w.dtype) for _ in range(ks[1])] for _ in range(ks[0])]
    for i, j, rows, cols, irows, icols in _tap_ranges(ks, pads, dilation, ins, outs):
        gs = g[:, rows, cols]
        dx = dx.at[:, irows, icols].add(lax.dot_general(gs, wt[i, j], (((3,), (0,)), ((), ()))))
        dw[i][j] = lax.dot_general(x[:, irows, icols], gs, (((0, 1, 2), (0, 1, 2)), ((), ()))).astype(w.dtype)
    return dx, jnp.stack([jnp.stack(row) for row in dw])


_conv_taps.defvjp(_conv_taps_fwd, _conv_taps_bwd)


def conv_cl(x: Any, w: Any, stride: tuple, pads: tuple, dilation: tuple) -> Any:
    """Convolution of channels-last ``x`` with ``w`` (HWIO / DHWIO), paddings ``pads`` ((lo, hi) per
    spatial dim), canonical for XLA:CPU's kernels in the forward and the VJP; 1x1 ones as a GEMM."""
    nsp = x.ndim - 2
    if all(k == 1 for k in w.shape[:nsp]) and not any(p for pp in pads for p in pp):
        return _pointwise(x, w, stride)
    if nsp == 2 and stride == (1, 1) and all(p >= 0 for pp in pads for p in pp):
        ks, ins = w.shape[:2], x.shape[1:3]
        outs = tuple(ins[a] + pads[a][0] + pads[a][1] - dilation[a] * (ks[a] - 1) for a in range(2))
        if min(outs) > 0 and _padded_share(ks, pads, dilation, ins, outs) >= _TAPS_MIN_PADDED_SHARE:
            return _conv_taps(x, w, pads, dilation)
    return _conv_cl(x, w, stride, pads, dilation)


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3, 4))
def _conv_cl(x: Any, w: Any, stride: tuple, pads: tuple, dilation: tuple) -> Any:
    return _cl_conv(x, w, stride, pads, dilation)


def _conv_cl_fwd(x: Any, w: Any, stride: tuple, pads: tuple, dilation: tuple) -> tuple[Any, Any]:
    return _cl_conv(x, w, stride, pads, dilation), (x, w)


def _conv_cl_bwd(stride: tuple, pads: tuple, dilation: tuple, res: Any, g: Any) -> tuple[Any, Any]:
    x, w = res
    nsp = x.ndim - 2
    lo = tuple(p[0] for p in pads)
    dx = _cl_dgrad(g, w, stride, lo, dilation, x.shape[1 : 1 + nsp])
    return dx, _cl_wgrad(x, g, stride, lo, dilation, w.shape[:nsp])


_conv_cl.defvjp(_conv_cl_fwd, _conv_cl_bwd)


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3, 4, 5))
def conv_transpose_cl(x: Any, w: Any, stride: tuple, lo: tuple, dilation: tuple, out_sp: tuple) -> Any:
    """The transpose of ``conv_cl`` (a forward input of spatial shape ``out_sp`` with low paddings ``lo``)
    applied to channels-last ``x``; ``w`` as in ``conv_cl`` (its O is ``x``'s channels). Forward and VJP
    are canonical convolutions: d/dx is ``conv_cl(g, w)``, d/dw the weight gradient with ``g`` as the
    input."""
    return _cl_dgrad(x, w, stride, lo, dilation, out_sp)


def _convt_cl_fwd(x: Any, w: Any, stride: tuple, lo: tuple, dilation: tuple, out_sp: tuple) -> tuple[Any, Any]:
    return _cl_dgrad(x, w, stride, lo, dilation, out_sp), (x, w)


def _convt_cl_bwd(stride: tuple, lo: tuple, dilation: tuple, out_sp: tuple, res: Any, g: Any) -> tuple[Any, Any]:
    x, w = res
    nsp = x.ndim - 2
    ins, ks = x.shape[1 : 1 + nsp], w.shape[:nsp]
    # the high padding that gives x's spatial shape back (negative: rows past x's windows, cut off)
    hi = [(ins[i] - 1) * stride[i] + dilation[i] * (ks[i] - 1) + 1 - out_sp[i] - lo[i] for i in range(nsp)]
    gc = _crop(g, [0] * nsp, tuple(out_sp[i] + min(hi[i], 0) for i in range(nsp)))
    dx = _cl_conv(gc, w, stride, tuple((lo[i], max(hi[i], 0)) for i in range(nsp)), dilation)
    return dx, _cl_wgrad(g, x, stride, lo, dilation, ks)


conv_transpose_cl.defvjp(_convt_cl_fwd, _convt_cl_bwd)
