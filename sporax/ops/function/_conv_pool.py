"""Convolution and pooling with MindSpore's argument semantics (NCHW / NCL): padding modes, output
sizes and argument checks. The array kernels, chosen per backend, are in ``ops/_lowering`` (DESIGN §5).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jnp, lax
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .. import _lowering as L
from .._amp import amp_white
from .._lowering import layout as _layout
from .._utils import as_tensor_array, wrap

__all__ = [
    "conv1d",
    "conv2d",
    "conv3d",
    "max_pool2d",
    "avg_pool2d",
    "pool2d",
    "adaptive_avg_pool2d",
    "adaptive_max_pool2d",
    "tuple_n",
]


# ---------------------------------------------------------------- arguments
def tuple_n(value: Any, n: int, name: str, op: str, minimum: int = 1, allow_long: bool = False) -> tuple[int, ...]:
    """An int or a tuple of ``n`` ints (``allow_long``: also ``(1, 1, h, w)`` as the primitives take)."""
    if isinstance(value, bool):
        raise TypeError(f"For '{op}', the '{name}' must be an int or a tuple of {n} ints, but got bool.")
    if isinstance(value, (int, np.integer)):
        vals = (int(value),) * n
    elif isinstance(value, (tuple, list)) and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value
    ):
        vals = tuple(int(v) for v in value)
        if allow_long and len(vals) == n + 2:
            vals = vals[2:]
        if len(vals) != n:
            raise ValueError(f"For '{op}', the '{name}' must be an int or a tuple of {n} ints, but got {value}.")
    else:
        raise TypeError(
            f"For '{op}', the '{name}' must be an int or a tuple of {n} ints, but got {type(value).__name__}."
        )
    for v in vals:
        if v < minimum:
            raise ValueError(f"For '{op}', each element of '{name}' must be >= {minimum}, but got {value}.")
    return vals


PAD_MODES = ("same", "valid", "pad")  # the convolutions' and pools' 'pad_mode' choices (any case)


def _explicit_pads(padding: Any, nsp: int, op: str) -> list[tuple[int, int]]:
    """``padding`` as (lo, hi) per spatial dim: an int, ``nsp`` ints (symmetric) or ``2*nsp`` ints."""
    if isinstance(padding, (int, np.integer)) and not isinstance(padding, bool):
        vals = [int(padding)] * (2 * nsp)
    elif isinstance(padding, (tuple, list)) and len(padding) in (nsp, 2 * nsp):
        p = [int(v) for v in padding]
        vals = [v for v in p for _ in range(2)] if len(p) == nsp else p
    else:
        raise ValueError(
            f"For '{op}', the 'padding' must be an int or a tuple of {nsp} or {2 * nsp} ints, but got {padding}."
        )
    if any(v < 0 for v in vals):
        raise ValueError(f"For '{op}', the 'padding' must be non-negative, but got {padding}.")
    return [(vals[2 * i], vals[2 * i + 1]) for i in range(nsp)]


def _same_pads(size: int, k: int, s: int, d: int) -> tuple[int, int]:
    out = -(-size // s)
    total = max((out - 1) * s + d * (k - 1) + 1 - size, 0)
    return total // 2, total - total // 2


def _resolve_pads(
    shape: tuple[int, ...],
    k: tuple[int, ...],
    s: tuple[int, ...],
    d: tuple[int, ...],
    pad_mode: str,
    padding: Any,
    op: str,
) -> list[tuple[int, int]]:
    nsp = len(k)
    if pad_mode == "pad":
        return _explicit_pads(padding, nsp, op)
    if padding not in (0, (0,) * nsp, (0,) * (2 * nsp), [0] * nsp, [0] * (2 * nsp)):
        raise ValueError(f"For '{op}', the 'padding' must be 0 when 'pad_mode' is '{pad_mode}', but got {padding}.")
    if pad_mode == "valid":
        return [(0, 0)] * nsp
    return [_same_pads(shape[i], k[i], s[i], d[i]) for i in range(nsp)]


def _out_size(size: int, k: int, s: int, d: int, lo: int, hi: int, ceil_mode: bool = False) -> tuple[int, int]:
    """Output length and the extra high padding ``ceil_mode`` needs."""
    span = size + lo + hi - d * (k - 1) - 1
    if span < 0:
        return 0, 0
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + lo:
        out -= 1
    extra = max((out - 1) * s + d * (k - 1) + 1 - (size + lo + hi), 0)
    return out, extra


def _dtype_name(a: Any) -> str:
    return str(mstype.from_np(a.dtype))


# ------------------------------------------------------------------ convolution
def _conv_nd(
    input: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    pad_mode: str,
    padding: Any,
    dilation: Any,
    groups: int,
    nsp: int,
    op: str,
) -> Any:
    x, w = as_tensor_array(input), as_tensor_array(weight)
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 1:
        raise ValueError(f"For '{op}', the 'groups' must be a positive int, but got {groups}.")
    pad_mode = validator.check_one_of(pad_mode, PAD_MODES, "pad_mode", op, ignore_case=True)
    s = tuple_n(stride, nsp, "stride", op, allow_long=True)
    d = tuple_n(dilation, nsp, "dilation", op, allow_long=True)
    validator.check_conv_operands(x, w, groups, nsp, op, _dtype_name)
    k = tuple(w.shape[2:])
    pads = _resolve_pads(tuple(x.shape[2:]), k, s, d, pad_mode, padding, op)
    outs = [_out_size(x.shape[2 + i], k[i], s[i], d[i], *pads[i])[0] for i in range(nsp)]
    if any(o <= 0 for o in outs):
        raise ValueError(
            f"For '{op}', the input spatial shape {tuple(x.shape[2:])} is too small for the kernel {k} "
            f"(dilation {d}, padding {pads}): the output shape would be {tuple(outs)}; it must be positive."
        )
    if nsp == 1:
        y = L.conv2d_array(x[:, :, None, :], w[:, :, None, :], (1, s[0]), [(0, 0), pads[0]], (1, d[0]), groups)[
            :, :, 0, :
        ]
    else:
        y = L.conv_nd_array(x, w, s, pads, d, groups)
    if bias is not None:
        b = as_tensor_array(bias)
        if b.shape != (w.shape[0],):
            raise ValueError(f"For '{op}', the 'bias' shape must be ({w.shape[0]},), but got {tuple(b.shape)}.")
        y = _layout.add_per_channel(y, b.astype(y.dtype))  # in the order the lowering left y in
    return y


@amp_white(bias=("bias", 1))
def conv2d(
    input: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    pad_mode: str = "valid",
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """2-D convolution (cross-correlation) of NCHW ``input`` with OIHW ``weight``.

    ``pad_mode``: 'valid' (no padding), 'same' (output = ceil(input / stride), extra padding at the
    bottom/right) or 'pad' (``padding``: an int, ``(pad_h, pad_w)`` or ``(top, bottom, left, right)``).
    """
    return wrap(_conv_nd(input, weight, bias, stride, pad_mode, padding, dilation, groups, 2, "conv2d"))


@amp_white(bias=("bias", 1))
def conv3d(
    input: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    pad_mode: str = "valid",
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """3-D convolution of NCDHW ``input`` with OIDHW ``weight`` (``padding``: an int, 3 ints or 6 ints
    (head, tail, top, bottom, left, right)); 'same' puts the odd extra padding at the far end."""
    return wrap(_conv_nd(input, weight, bias, stride, pad_mode, padding, dilation, groups, 3, "conv3d"))


@amp_white(bias=("bias", 1))
def conv1d(
    input: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    pad_mode: str = "valid",
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """1-D convolution of NCL ``input`` with OIL ``weight`` (``padding``: an int or ``(left, right)``)."""
    return wrap(_conv_nd(input, weight, bias, stride, pad_mode, padding, dilation, groups, 1, "conv1d"))


# ---------------------------------------------------------------------- pooling
def _pool_max_identity(dtype: Any) -> Any:
    if jnp.issubdtype(dtype, jnp.floating):
        return -jnp.inf
    return jnp.iinfo(dtype).min


def _windows(
    x: Any, k: tuple[int, ...], s: tuple[int, ...], d: tuple[int, ...], pads: list, fill: Any, outs: tuple[int, ...]
) -> list[Any]:
    """The ``kh * kw`` strided views of the padded input, one per window offset (row-major)."""
    xp = jnp.pad(x, [(0, 0), (0, 0), *pads], constant_values=fill)
    views = []
    for i in range(k[0]):
        for j in range(k[1]):
            views.append(
                lax.slice(
                    xp,
                    (0, 0, i * d[0], j * d[1]),
                    (x.shape[0], x.shape[1], i * d[0] + (outs[0] - 1) * s[0] + 1, j * d[1] + (outs[1] - 1) * s[1] + 1),
                    (1, 1, s[0], s[1]),
                )
            )
    return views


def pool2d(
    input: Any,
    kind: str,
    kernel_size: Any,
    stride: Any,
    pad_mode: str = "pad",
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: Any = None,
    return_indices: bool = False,
    op: str = "max_pool2d",
) -> Any:
    """Max (``kind='max'``) or average pooling of a 3-D (CHW) or 4-D (NCHW) input; returns a Tensor
    (and the argmax positions, flattened over the input's H*W, with ``return_indices``)."""
    a = as_tensor_array(input)
    if a.ndim not in (3, 4):
        raise ValueError(f"For '{op}', the dimension of 'input' must be 3 or 4, but got {a.ndim}.")
    squeeze = a.ndim == 3
    x = a[None] if squeeze else a
    pad_mode = validator.check_one_of(pad_mode, PAD_MODES, "pad_mode", op, ignore_case=True)
    k = tuple_n(kernel_size, 2, "kernel_size", op, allow_long=True)
    s = tuple_n(k if stride is None else stride, 2, "stride", op, allow_long=True)
    d = tuple_n(dilation, 2, "dilation", op, allow_long=True)
    pads = _resolve_pads(tuple(x.shape[2:]), k, s, d, pad_mode, padding, op)
    if pad_mode == "pad":
        for i in range(2):
            if pads[i][0] > k[i] // 2 or pads[i][1] > k[i] // 2:
                raise ValueError(
                    f"For '{op}', the 'padding' must be at most half of 'kernel_size' {k}, but got {padding}."
                )
    sizes = [_out_size(x.shape[2 + i], k[i], s[i], d[i], *pads[i], ceil_mode) for i in range(2)]
    outs = (sizes[0][0], sizes[1][0])
    if outs[0] <= 0 or outs[1] <= 0:
        raise ValueError(
            f"For '{op}', the input shape {tuple(a.shape)} is too small for 'kernel_size' {k} with pad_mode "
            f"'{pad_mode}': the output height and width would be {outs[0]} and {outs[1]}; they must be positive."
        )
    full = [(pads[i][0], pads[i][1] + sizes[i][1]) for i in range(2)]
    window, strides, dil = (1, 1, *k), (1, 1, *s), (1, 1, *d)
    padding4 = [(0, 0), (0, 0), *full]
    idx = None
    if kind == "max":
        fast = k == s and d == (1, 1) and all(p == (0, 0) for p in full) and not return_indices
        fast = fast and L.maxpool_lowering() == "reshape"
        if fast:
            h, w = outs[0] * k[0], outs[1] * k[1]
            xc = x if (h, w) == tuple(x.shape[2:]) else x[:, :, :h, :w]
            y = L.block_max_pool(xc, k[0], k[1])
        elif return_indices or d != (1, 1):  # reduce_window's VJP (select_and_scatter) takes no dilation
            fill = _pool_max_identity(x.dtype)
            views = _windows(x, k, s, d, full, fill, outs)
            stacked = jnp.stack(views)
            arg = jnp.argmax(stacked, axis=0)
            y = jnp.max(stacked, axis=0)
            h_in, w_in = x.shape[2:]
            oi = np.arange(outs[0])[:, None] * s[0] - full[0][0]
            oj = np.arange(outs[1])[None, :] * s[1] - full[1][0]
            ki, kj = np.divmod(np.arange(k[0] * k[1]), k[1])
            rows = oi[None] + (ki * d[0])[:, None, None]
            cols = oj[None] + (kj * d[1])[:, None, None]
            flat = jnp.asarray((rows * w_in + cols).astype(np.int64))[:, None, None]
            idx = jnp.take_along_axis(jnp.broadcast_to(flat, (k[0] * k[1], *x.shape[:2], *outs)), arg[None], axis=0)[0]
        else:
            init = np.array(_pool_max_identity(x.dtype), x.dtype)  # a constant: reduce_window_max_p (differentiable)
            y = lax.reduce_window(x, init, lax.max, window, strides, padding4, window_dilation=dil)
    else:
        if not jnp.issubdtype(x.dtype, jnp.floating):
            raise TypeError(f"For '{op}', the dtype of 'input' must be float, but got {_dtype_name(x)}.")
        total = lax.reduce_window(x, np.array(0, x.dtype), lax.add, window, strides, padding4, window_dilation=dil)
        if divisor_override:
            div = np.full(outs, float(divisor_override))
        elif pad_mode == "pad" and count_include_pad:
            region = np.ones((x.shape[2] + pads[0][0] + pads[0][1], x.shape[3] + pads[1][0] + pads[1][1]))
            div = _np_window_sum(region, k, s, d, [(0, sizes[0][1]), (0, sizes[1][1])], outs)
        else:
            div = _np_window_sum(np.ones(x.shape[2:]), k, s, d, full, outs)
        y = total / jnp.asarray(div, x.dtype)
    if squeeze:
        y = y[0]
        idx = None if idx is None else idx[0]
    return (wrap(y), wrap(idx)) if return_indices else wrap(y)


def _np_window_sum(a: np.ndarray, k: tuple, s: tuple, d: tuple, pads: list, outs: tuple) -> np.ndarray:
    ap = np.pad(a, pads)
    out = np.zeros(outs)
    for i in range(k[0]):
        for j in range(k[1]):
            out += ap[
                i * d[0] : i * d[0] + (outs[0] - 1) * s[0] + 1 : s[0],
                j * d[1] : j * d[1] + (outs[1] - 1) * s[1] + 1 : s[1],
            ]
    return out


def max_pool2d(
    x: Any,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    return_indices: bool = False,
    ceil_mode: bool = False,
) -> Any:
    """2-D max pooling of a 3-D or 4-D input; ``stride`` defaults to ``kernel_size``; with
    ``return_indices`` also the argmax positions (flattened over H*W of the input)."""
    res = pool2d(
        x,
        "max",
        kernel_size,
        stride,
        "pad",
        padding,
        dilation,
        ceil_mode,
        return_indices=return_indices,
        op="max_pool2d",
    )
    return res


def avg_pool2d(
    input_x: Any,
    kernel_size: Any = 1,
    stride: Any = 1,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int = 0,
) -> Tensor:
    """2-D average pooling of a 3-D or 4-D input (``divisor_override`` 0: the window's element count)."""
    return pool2d(
        input_x,
        "avg",
        kernel_size,
        stride,
        "pad",
        padding,
        1,
        ceil_mode,
        count_include_pad,
        divisor_override,
        op="avg_pool2d",
    )


def _adaptive_sizes(shape: tuple[int, ...], output_size: Any, op: str) -> tuple[int, int]:
    if isinstance(output_size, (int, np.integer)) and not isinstance(output_size, bool):
        out = (int(output_size), int(output_size))
    elif isinstance(output_size, (tuple, list)) and len(output_size) == 2:
        out = (
            int(shape[-2] if output_size[0] is None else output_size[0]),
            int(shape[-1] if output_size[1] is None else output_size[1]),
        )
    else:
        raise TypeError(
            f"For '{op}', the 'output_size' must be an int or a tuple of 2 ints/None, but got {output_size}."
        )
    if out[0] <= 0 or out[1] <= 0:
        raise ValueError(f"For '{op}', the 'output_size' must be positive, but got {output_size}.")
    return out  # type: ignore[return-value]


def _bins(n_in: int, n_out: int) -> list[tuple[int, int]]:
    return [(i * n_in // n_out, -(-(i + 1) * n_in // n_out)) for i in range(n_out)]


def adaptive_avg_pool2d(input: Any, output_size: Any) -> Tensor:
    """Average over adaptive windows ``[floor(i*H/oh), ceil((i+1)*H/oh))`` to an ``output_size`` map."""
    a = as_tensor_array(input)
    if a.ndim not in (3, 4):
        raise ValueError(f"For 'adaptive_avg_pool2d', the dimension of 'input' must be 3 or 4, but got {a.ndim}.")
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For 'adaptive_avg_pool2d', the dtype of 'input' must be float, but got {_dtype_name(a)}.")
    oh, ow = _adaptive_sizes(a.shape, output_size, "adaptive_avg_pool2d")
    h, w = a.shape[-2:]
    mats = []
    for n_in, n_out in ((h, oh), (w, ow)):
        m = np.zeros((n_out, n_in))
        for i, (lo, hi) in enumerate(_bins(n_in, n_out)):
            m[i, lo:hi] = 1.0 / (hi - lo)
        mats.append(jnp.asarray(m, a.dtype))
    y = jnp.einsum("...hw,ph,qw->...pq", a, mats[0], mats[1])
    return wrap(y)


def adaptive_max_pool2d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    """Maximum over adaptive windows to an ``output_size`` map."""
    a = as_tensor_array(input)
    if a.ndim not in (3, 4):
        raise ValueError(f"For 'adaptive_max_pool2d', the dimension of 'input' must be 3 or 4, but got {a.ndim}.")
    oh, ow = _adaptive_sizes(a.shape, output_size, "adaptive_max_pool2d")
    h, w = a.shape[-2:]
    # every window as a fixed-size gather (short windows repeat their last index: max is idempotent)
    rows, cols = _bins(h, oh), _bins(w, ow)
    mh, mw = max(hi - lo for lo, hi in rows), max(hi - lo for lo, hi in cols)
    ri = np.array([[min(lo + t, hi - 1) for t in range(mh)] for lo, hi in rows])
    ci = np.array([[min(lo + t, hi - 1) for t in range(mw)] for lo, hi in cols])
    win = a[..., ri.reshape(-1), :][..., ci.reshape(-1)]
    win = win.reshape(*a.shape[:-2], oh, mh, ow, mw)
    win = jnp.moveaxis(win, -3, -2).reshape(*a.shape[:-2], oh, ow, mh * mw)
    y = jnp.max(win, axis=-1)
    if return_indices:
        flat = jnp.asarray((ri[:, None, :, None] * w + ci[None, :, None, :]).reshape(oh, ow, mh * mw))
        am = jnp.argmax(win, axis=-1)
        idx = jnp.take_along_axis(jnp.broadcast_to(flat, win.shape), am[..., None], axis=-1)[..., 0]
        return wrap(y), wrap(idx.astype(jnp.int64))
    return wrap(y)
