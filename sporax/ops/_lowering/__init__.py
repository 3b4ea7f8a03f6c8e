"""Per-backend lowerings of the heavy ops: the one place that decides, per backend, how a convolution or
pooling runs. ``ops/function/*`` keep MindSpore's argument semantics and call these array functions.

Convolutions (``conv2d_array``, ``conv_nd_array``, ``conv_transpose_array``; kernels in ``conv.py``):

* GPU/TPU: ``lax.conv_general_dilated`` (cuDNN): "plain".
* CPU, small 2-D convolutions (float32/float64; im2col matrix up to ``_GEMM_MAX_PATCH`` elements with up
  to ``_GEMM_CBHW_MAX_CHANNELS`` input channels, which covers LeNet-sized layers, or up to
  ``_GEMM_MAX_PATCH_CAP`` with few input channels): "gemm", im2col +
  one GEMM with the batch folded into the long dimension, on activations transposed to [C, B, H, W], the
  backward written as GEMMs too. Eigen's convolution is slow with one input channel or few output
  channels; this is several times faster there. Few input channels into many output channels (an RGB
  stem before channels-last layers): "gemm_cl", the same GEMMs with the pixels as rows, channels last.
* CPU, larger 2-D convolutions and every 3-D and transposed one (groups == 1): "nhwc", Eigen convolutions
  with canonical channels-last dimension numbers in the forward *and* both backward convolutions (a
  custom VJP; the padding inside the windows, which XLA:CPU runs 2-4x faster than on a padded copy; 1x1
  convolutions without padding as one GEMM; stride-1 ones whose windows lie a quarter or more on the
  padding, 3x3 on 4x4 images, as one GEMM per kernel tap over the pixels it reaches). im2col stops
  paying once the patches leave the cache, and inside a while loop (sink mode, ``scan_steps``) XLA:CPU
  skips the pass that canonicalises convolutions: autodiff's backward convolutions then run as naive
  loops, 10-100x slower.
* CPU, grouped convolutions: "gemm" up to ``_GEMM_MAX_PATCH_CAP`` (2-D), "plain" beyond.
* CPU, float16 and bfloat16 convolutions (amp): the float32 lowering of the widened operands, the result
  rounded back (``_widened_on_cpu``): XLA:CPU has no fast low-precision convolution.
* A program with "nhwc" convolutions on inputs of ``_CONV_OPTIONS_MIN_BYTES`` or more compiles with
  ``conv.CPU_CONV_OPTIONS`` (YNNPACK's elementwise fusions added: batch norm's and ReLU's passes), also
  when it has max-pools (their options are a default request, ``request_compiler_options(default=True)``).

Pooling (``block_max_pool``; kernels in ``pool.py``): a non-overlapping max-pool is a reshape + max with
an elementwise mask VJP on every backend; on CPU in the phase layout (``layout.to_phases``: each window's
pixels in contiguous blocks, the max and its argmax over whole blocks), with the compiler options of
``pool.CPU_POOL_OPTIONS`` unless channels-last convolutions in the same program ask for theirs. GEMM
convolutions (groups == 1) with even output sizes write their result in 2x2 phases, so the common 2x2
pool after them (and its backward) reads blocks without any transpose
(LeNet5 b32 step: 1.57 -> 1.44 ms, one core); their result carries no layout hint then (batch norm after
such a convolution computes in NCHW, the transposes fused into its loops). Stride-1 ones with at most
``_S2D_MAX_K`` patch rows (LeNet5's first layer, K = 25) go through space-to-depth (``conv.conv_s2d``: a
2.8x smaller patch matrix for 1.44x the multiply-adds; the step 0.91-0.95x; with LeNet5's second layer too,
K = 150, 1.06x: that GEMM is bound by arithmetic, the first by memory traffic).

Measured on the LeNet5 b32 train step and a 4-layer 3x3 CNN, one core: see bench/bench_conv.py and
DESIGN §5. ``force_lowering`` overrides the choice for code traced inside it (benchmarks, tests).

Where LeNet5 b32's GRAPH step goes (sporax.profiler per HLO op, one core, ~0.82-0.89 ms, 1.36 ms before
the space-to-depth first layer, the NCHW pool result and the weight-gradient operand order): GEMMs 57 %
(the second layer's near 210 GFLOP/s, the first layer's and its input gradient's bound by writing
0.6-1.9 MB of patches or patch gradients: the core's L2 holds 1 MB), patch slices and stacks 18 % (45
small fusions, ~1-2 us each), the pools' backward with the ReLU masks 11 %, col2im 5 %, the pools'
forward 4 %; loss, optimizer update and fully connected layers' elementwise work under 2 %. Tried without
gain: patches as sliding windows of the distinct views (1.03x), unit-stride views of the input's stride
phases (0.99x), nested stacks for the 3x3 space-to-depth patches (0.99x), space-to-depth for the second
layer too (1.06x), the pool's output gradient materialised before its mask (1.04x), the input gradient
one GEMM per kernel row (1.01x).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..._engine import jax, jnp
from ..._engine import request_compiler_options
from . import conv as _conv
from . import layout as _layout
from . import pool as _pool
from .pool import CPU_POOL_OPTIONS

__all__ = [
    "backend",
    "force_lowering",
    "conv_lowering",
    "conv2d_array",
    "conv_nd_array",
    "conv_transpose_array",
    "maxpool_lowering",
    "block_max_pool",
    "CPU_POOL_OPTIONS",
]

# im2col matrix elements up to which CPU convs use "gemm": measured crossover with "nhwc" ~1-2.5M per
# conv; larger patches leave the cache and swell the executable's temporaries (a step then spends as long
# in page faults as in compute: glibc maps blocks over 32 MB afresh on every call). With few input
# channels per group Eigen is 2-4x slower, so those (and grouped convs, which have no "nhwc") keep "gemm"
# up to a cap.
_GEMM_MAX_PATCH = 1 << 20
_GEMM_FEW_CHANNELS = 4
_GEMM_MAX_PATCH_CAP = 1 << 22
# Wider layers keep channels last (batch norm and residual additions then need no transposes: ResNet-18
# b16 w16 step -20 %); few input channels into at least _GEMM_CL_MIN_OUT (an RGB stem feeding them) run as
# im2col + GEMM in channels-last order, "gemm_cl".
_GEMM_CBHW_MAX_CHANNELS = 8
# "nhwc" convolutions with inputs from this size on ask for ``conv.CPU_CONV_OPTIONS``: ResNet-18 at batch
# 64, width 64 (16 MiB activations) 3 % faster, a 4-layer CNN (2 MiB) 12 %; at batch 16, width 16 (1 MiB)
# 3 % slower.
_CONV_OPTIONS_MIN_BYTES = 2 << 20
_GEMM_CL_MIN_OUT = 16
# Stride-1 GEMM convolutions into 2x2 phases with at most this many patch rows (C * kh * kw) run through
# space-to-depth (``conv.conv_s2d``): LeNet5's first layer (K = 25).
_S2D_MAX_K = 25
_LOWERINGS = ("auto", "plain", "gemm", "gemm_cl", "nhwc")
# the physical orders of the CPU convolutions' results (``layout.tag``): channels last, [C, B, H, W]
_NHWC, _CBHW = (0, 2, 3, 1), (1, 0, 2, 3)
# What ``force_lowering`` sets for code traced inside it (benchmarks and tests): None = per backend.
_FORCED: dict[str, Any] = {"conv": None, "maxpool": None, "phases": None, "rnn": None}


def backend() -> str:
    """The backend the lowerings are chosen for ('cpu', 'gpu', 'tpu', ...)."""
    return jax.default_backend()


@contextlib.contextmanager
def force_lowering(conv: str | None = None, maxpool: str | None = None, phases: bool | None = None) -> Iterator[None]:
    """Trace convolutions with ``conv`` ('plain', 'gemm' or 'nhwc'; grouped ones keep the per-backend
    choice under 'nhwc') and non-overlapping max-pools with ``maxpool`` ('plain': ``reduce_window``;
    'reshape': reshape + max) instead of the per-backend choice; ``phases=False``: GEMM convolutions and
    CPU reshape max-pools without the 2x2 phase layout ([C, B, H, W] and ``pool.blockmax``). For
    benchmarks and tests: a compiled function keeps the lowering it was traced with."""
    if conv not in (None, "plain", "gemm", "gemm_cl", "nhwc") or maxpool not in (None, "plain", "reshape"):
        raise ValueError(f"force_lowering: unknown lowering conv={conv!r}, maxpool={maxpool!r}.")
    old = dict(_FORCED)
    _FORCED.update(conv=conv, maxpool=maxpool, phases=phases)
    try:
        yield
    finally:
        _FORCED.update(old)


@contextlib.contextmanager
def forward_mode() -> Iterator[None]:
    """Trace the code inside with the lowerings JAX differentiates in forward mode: the chosen convolution,
    max-pool and RNN kernels have hand-written backward passes (``jax.custom_vjp``), which forward mode
    cannot go through, so sporax's forward-mode transforms (``jvp``, ``jacfwd``, ``linearize``, ``jet``)
    trace ``lax.conv``, ``reduce_window`` and the RNN scan as they are. Same values; only their speed differs."""
    old = dict(_FORCED)
    _FORCED.update(conv="plain", maxpool="plain", rnn="plain")
    try:
        yield
    finally:
        _FORCED.update(old)


def rnn_differentiated_by_jax() -> bool:
    """Whether the RNN scan is traced as it is (inside ``forward_mode``) rather than with its own backward."""
    return _FORCED["rnn"] == "plain"


def _cpu_float(x: Any, w: Any) -> bool:
    return backend() == "cpu" and x.dtype in (np.float32, np.float64) and w.dtype == x.dtype


_LOW_FLOATS = (np.dtype(jnp.bfloat16), np.dtype(np.float16))


def _widened_on_cpu(x: Any, w: Any) -> bool:
    """Whether a convolution of these operands computes in float32 (operands widened, the result rounded back
    once: float32 accumulation, as cuDNN's and oneDNN's half-precision convolutions accumulate): float16 and
    bfloat16 on CPU, where XLA has no fast low-precision convolution (LeNet5 b32's bfloat16 step took 4.0 ms
    against 1.1 ms in float32, one core) and its plain convolutions' backward inside a while loop (sink mode)
    runs as naive loops (the same step sunk: 9.5 ms)."""
    return backend() == "cpu" and x.dtype in _LOW_FLOATS and w.dtype == x.dtype


def _rounded(y: Any, dtype: Any) -> Any:
    """A widened convolution's float32 result ``y`` in ``dtype``, cast in the order it was computed in (its layout
    hint kept, so batch norm after it computes in that order too)."""
    perm = _layout.physical_perm(y)
    if perm is None:
        return y.astype(dtype)
    return _layout.from_physical(_layout.to_physical(y, perm).astype(dtype), perm)


# ------------------------------------------------------------------ convolution
def conv_lowering(x: Any, w: Any, stride: tuple[int, int], dilation: tuple[int, int], groups: int) -> str:
    """'gemm', 'gemm_cl', 'nhwc' or 'plain': the lowering ``conv2d_array`` picks for these operands (``x``: the
    padded input; see module doc)."""
    if not _cpu_float(x, w):
        return "plain"
    n, h, wd = x.shape[0], x.shape[2], x.shape[3]
    k = w.shape[1] * w.shape[2] * w.shape[3]
    oh = max((h - dilation[0] * (w.shape[2] - 1) - 1) // stride[0] + 1, 1)
    ow = max((wd - dilation[1] * (w.shape[3] - 1) - 1) // stride[1] + 1, 1)
    patch = groups * k * n * oh * ow
    few = w.shape[1] <= _GEMM_FEW_CHANNELS
    if groups == 1 and few and w.shape[0] >= _GEMM_CL_MIN_OUT and patch <= _GEMM_MAX_PATCH_CAP:
        return "gemm_cl"
    if patch <= _GEMM_MAX_PATCH_CAP and (few or groups > 1):
        return "gemm"
    if patch <= _GEMM_MAX_PATCH and w.shape[1] <= _GEMM_CBHW_MAX_CHANNELS:
        return "gemm"
    return "nhwc" if groups == 1 else "plain"


def _channels_last(x: Any) -> Any:
    return jnp.moveaxis(x, 1, -1)


def _channels_first(x: Any) -> Any:
    return jnp.moveaxis(x, -1, 1)


def _spatial_first_weight(w: Any) -> Any:
    """OI... -> ...IO."""
    return jnp.transpose(w, (*range(2, w.ndim), 1, 0))


def conv2d_array(
    x: Any,
    w: Any,
    stride: tuple[int, int],
    pads: list[tuple[int, int]],
    dilation: tuple[int, int],
    groups: int,
    lowering: str = "auto",
) -> Any:
    """The NCHW/OIHW convolution of arrays (explicit padding).

    ``lowering``: 'auto' (per backend, see ``conv_lowering``), 'plain' (``lax.conv_general_dilated``),
    'gemm' (im2col + GEMM with a GEMM-written VJP, on [C, B, H, W]), 'gemm_cl' (the same on NHWC; groups
    == 1) or 'nhwc' (canonical NHWC/HWIO convolutions in the forward and the VJP; groups == 1). Any backend: for tests and benchmarks.
    """
    if lowering not in _LOWERINGS:
        raise ValueError(f"conv2d_array: 'lowering' must be one of {_LOWERINGS}, but got {lowering!r}.")
    if lowering == "auto" and _widened_on_cpu(x, w):
        f32 = np.float32
        return _rounded(conv2d_array(x.astype(f32), w.astype(f32), stride, pads, dilation, groups), x.dtype)
    stride, dilation = (int(stride[0]), int(stride[1])), (int(dilation[0]), int(dilation[1]))
    pads_t = tuple((int(lo), int(hi)) for lo, hi in pads)
    if lowering == "auto" and _FORCED["conv"] is not None and (_FORCED["conv"] in ("plain", "gemm") or groups == 1):
        lowering = _FORCED["conv"]
    if lowering == "auto":
        padded = jax.ShapeDtypeStruct(
            (x.shape[0], x.shape[1], x.shape[2] + sum(pads_t[0]), x.shape[3] + sum(pads_t[1])), x.dtype
        )
        lowering = conv_lowering(padded, w, stride, dilation, groups)
    if lowering == "plain":
        return _conv.conv_plain(x, w, stride, pads_t, dilation, groups)
    if lowering == "nhwc":
        if groups != 1:
            raise ValueError("conv2d_array: the 'nhwc' lowering takes groups == 1.")
        y = _conv.conv_cl(_channels_last(x), _spatial_first_weight(w), stride, pads_t, dilation)
        if backend() == "cpu" and x.size * x.dtype.itemsize >= _CONV_OPTIONS_MIN_BYTES:
            request_compiler_options(_conv.CPU_CONV_OPTIONS)
        return _layout.from_physical(y, _NHWC)
    if lowering == "gemm_cl":
        if groups != 1:
            raise ValueError("conv2d_array: the 'gemm_cl' lowering takes groups == 1.")
        return _layout.from_physical(_conv.conv_gemm_cl(_channels_last(x), w, stride, pads_t, dilation), _NHWC)
    # [C, B, H, W] inside: the GEMMs' long dimension is B*OH*OW and needs no transposes. XLA fuses
    # these boundary transposes into the neighbouring patch/activation fusions.
    xt = jnp.transpose(x, (1, 0, 2, 3))
    split = _phase_split(xt, w, stride, pads_t, dilation, groups)
    if split == (2, 2) and stride == dilation == (1, 1) and w.shape[1] * w.shape[2] * w.shape[3] <= _S2D_MAX_K:
        y = _conv.conv_s2d(xt, w, pads_t)
    else:
        y = _conv.conv_cbhw(xt, w, stride, pads_t, dilation, int(groups), split)
    if split != (1, 1):
        return _layout.from_phases(y)
    return _layout.from_physical(y.reshape(y.shape[0], *y.shape[3:]), _CBHW)


def _phase_split(xt: Any, w: Any, stride: tuple, pads: tuple, dilation: tuple, groups: int) -> tuple[int, int]:
    """(2, 2): the GEMM convolution writes its output in 2x2 phases (``layout.to_phases``), where a 2x2
    max-pool after it (LeNet's) reads whole blocks; (1, 1): plain [C, B, H, W] (odd sizes; grouped
    convolutions, which batch norm follows rather than a pool: it computes in [C, B, H, W] then)."""
    if groups != 1 or _FORCED["phases"] is False:
        return (1, 1)
    oh, ow = _conv._gemm_geometry((xt.shape[1], xt.shape[0], *xt.shape[2:]), w.shape, stride, pads, dilation)
    return (2, 2) if oh % 2 == 0 and ow % 2 == 0 else (1, 1)


def _nd_lowering(x: Any, w: Any, groups: int) -> str:
    forced = _FORCED["conv"]
    if forced == "plain" or groups != 1:
        return "plain"
    if forced in ("nhwc", "gemm", "gemm_cl"):  # no N-d im2col: channels-last canonical convolutions
        return "nhwc"
    return "nhwc" if _cpu_float(x, w) else "plain"


def conv_nd_array(x: Any, w: Any, stride: tuple, pads: list, dilation: tuple, groups: int) -> Any:
    """The NC.../OI... convolution of arrays with any number of spatial dimensions (explicit padding):
    2-D goes to ``conv2d_array``; 3-D runs channels-last canonical convolutions on CPU (also inside
    ``lax.scan``), ``lax.conv`` elsewhere and for grouped ones."""
    nsp = x.ndim - 2
    if nsp == 2:
        return conv2d_array(x, w, stride, pads, dilation, groups)
    if _widened_on_cpu(x, w):
        f32 = np.float32
        return _rounded(conv_nd_array(x.astype(f32), w.astype(f32), stride, pads, dilation, groups), x.dtype)
    stride, dilation = tuple(int(v) for v in stride), tuple(int(v) for v in dilation)
    pads_t = tuple((int(lo), int(hi)) for lo, hi in pads)
    if _nd_lowering(x, w, groups) == "plain":
        return _conv.conv_plain(x, w, stride, pads_t, dilation, groups)
    y = _conv.conv_cl(_channels_last(x), _spatial_first_weight(w), stride, pads_t, dilation)
    return _channels_first(y)


def conv_transpose_array(
    x: Any, w: Any, stride: tuple, pads: list, dilation: tuple, groups: int, out_shape: tuple
) -> Any:
    """The transposed convolution (the input gradient of ``conv_nd_array`` with weight ``w``
    [C_x, C_out / groups, k...]) of NC... ``x``: an [N, C_out, *out_shape] result, where ``out_shape`` is
    the unpadded spatial shape (``pads`` are cropped from the full result; any ``output_padding`` is
    already in ``out_shape``). CPU: canonical channels-last convolutions in forward and VJP (groups == 1);
    elsewhere ``lax.conv`` (its autodiff)."""
    if _widened_on_cpu(x, w):
        f32 = np.float32
        y = conv_transpose_array(x.astype(f32), w.astype(f32), stride, pads, dilation, groups, out_shape)
        return _rounded(y, x.dtype)
    stride, dilation = tuple(int(v) for v in stride), tuple(int(v) for v in dilation)
    pads_t = tuple((int(lo), int(hi)) for lo, hi in pads)
    if _nd_lowering(x, w, groups) == "plain":
        return _conv.conv_transpose_plain(x, w, stride, pads_t, dilation, groups, tuple(out_shape))
    lo = tuple(p[0] for p in pads_t)
    y = _conv.conv_transpose_cl(_channels_last(x), _spatial_first_weight(w), stride, lo, dilation, tuple(out_shape))
    return _channels_first(y)


# ---------------------------------------------------------------------- pooling
def maxpool_lowering() -> str:
    """'reshape' (``block_max_pool``) or 'plain' (``reduce_window``) for non-overlapping max-pools."""
    return "plain" if _FORCED["maxpool"] == "plain" else "reshape"


def block_max_pool(x: Any, kh: int, kw: int) -> Any:
    """Max over non-overlapping ``kh x kw`` blocks of NCHW ``x`` (H, W multiples of the kernel)."""
    if backend() == "cpu":
        # the pool's own options (LeNet5, GEMM convolutions: 2.0 -> 1.4 ms) give way to those of
        # channels-last convolutions in the same program (a 4-layer CNN with one pool: 16.8 -> 14.9 ms)
        request_compiler_options(CPU_POOL_OPTIONS, default=True)
        if _FORCED["phases"] is False:  # the GEMM convolutions' [C, B, H, W] order
            return jnp.transpose(_pool.blockmax(jnp.transpose(x, (1, 0, 2, 3)), kh, kw), (1, 0, 2, 3))
        # in the GEMM convolutions' phase layout (the 2x2 windows as four contiguous blocks; XLA cancels
        # the conversions between conv, activation and pool), the result in NCHW
        return _pool.phasemax(_layout.to_phases(x, kh, kw))
    return _pool.blockmax(x, kh, kw)
