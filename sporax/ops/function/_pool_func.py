"""Pooling beyond 2-D windows, with MindSpore's argument semantics: 1-D and 3-D max/avg pooling (with
indices), adaptive pooling in 1-D/3-D, LP pooling, max-unpooling.

1-D pools run as 2-D pools with a unit height (``_conv_pool.pool2d``: the fast reshape max-pool where the
geometry allows); 3-D pools are ``lax.reduce_window`` (argmax through strided window views).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jnp, lax
from ...common.tensor import Tensor
from .._utils import as_tensor_array, wrap
from ._conv_pool import (
    PAD_MODES,
    _bins,
    _dtype_name,
    _out_size,
    _pool_max_identity,
    _resolve_pads,
    pool2d,
    tuple_n,
)

__all__ = [
    "avg_pool1d",
    "avg_pool3d",
    "max_pool3d",
    "adaptive_avg_pool1d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool3d",
    "lp_pool1d",
    "lp_pool2d",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
]


def _int_arg(value: Any, name: str, op: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'int', but got type '{type(value).__name__}'.")
    if value < minimum:
        raise ValueError(f"For '{op}', the '{name}' must be >= {minimum}, but got {value}.")
    return int(value)


# ------------------------------------------------------------------ N-d windows
def pool_nd(
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
    nsp: int = 3,
    op: str = "max_pool3d",
) -> Any:
    """Max or average pooling over the last ``nsp`` dimensions of an (N, C, *sp) or (C, *sp) input;
    indices (with ``return_indices``) are flat over the input's spatial positions."""
    a = as_tensor_array(input)
    if a.ndim not in (nsp + 1, nsp + 2):
        raise ValueError(f"For '{op}', the dimension of 'input' must be {nsp + 1} or {nsp + 2}, but got {a.ndim}.")
    squeeze = a.ndim == nsp + 1
    x = a[None] if squeeze else a
    if nsp == 1:
        k1 = tuple_n(kernel_size, 1, "kernel_size", op)
        s1 = tuple_n(k1 if stride is None else stride, 1, "stride", op)
        d1 = tuple_n(dilation, 1, "dilation", op)
        p1 = padding if isinstance(padding, (int, np.integer)) else tuple(padding)
        p1 = (0, p1) if isinstance(p1, (int, np.integer)) else (0, 0, *p1) if len(p1) == 2 else (0, *p1)
        res = pool2d(
            x[:, :, None, :],
            kind,
            (1, k1[0]),
            (1, s1[0]),
            pad_mode,
            p1,
            (1, d1[0]),
            ceil_mode,
            count_include_pad,
            divisor_override,
            return_indices,
            op,
        )
        res = (res[0]._data[:, :, 0], res[1]._data[:, :, 0]) if return_indices else res._data[:, :, 0]
    elif nsp == 2:
        res = pool2d(
            x,
            kind,
            kernel_size,
            stride,
            pad_mode,
            padding,
            dilation,
            ceil_mode,
            count_include_pad,
            divisor_override,
            return_indices,
            op,
        )
        res = (res[0]._data, res[1]._data) if return_indices else res._data
    else:
        res = _pool3d(x, kind, kernel_size, stride, pad_mode, padding, dilation, ceil_mode, count_include_pad,
                      divisor_override, return_indices, op)  # fmt: skip
    if squeeze:
        res = (res[0][0], res[1][0]) if return_indices else res[0]
    return (wrap(res[0]), wrap(res[1])) if return_indices else wrap(res)


def _views(xp: Any, k: tuple, s: tuple, d: tuple, outs: tuple) -> list[Any]:
    nsp = len(k)
    views = []
    for off in np.ndindex(*k):
        start = (0, 0, *(off[i] * d[i] for i in range(nsp)))
        limit = (*xp.shape[:2], *(off[i] * d[i] + (outs[i] - 1) * s[i] + 1 for i in range(nsp)))
        views.append(lax.slice(xp, start, limit, (1, 1, *s)))
    return views


def _np_window_count(shape: tuple, k: tuple, s: tuple, d: tuple, pads: list, outs: tuple) -> np.ndarray:
    ap = np.pad(np.ones(shape), pads)
    out = np.zeros(outs)
    for off in np.ndindex(*k):
        idx = tuple(slice(off[i] * d[i], off[i] * d[i] + (outs[i] - 1) * s[i] + 1, s[i]) for i in range(len(k)))
        out += ap[idx]
    return out


def _pool3d(
    x: Any,
    kind: str,
    kernel_size: Any,
    stride: Any,
    pad_mode: str,
    padding: Any,
    dilation: Any,
    ceil_mode: bool,
    count_include_pad: bool,
    divisor_override: Any,
    return_indices: bool,
    op: str,
) -> Any:
    nsp = 3
    pad_mode = validator.check_one_of(pad_mode, PAD_MODES, "pad_mode", op, ignore_case=True)
    k = tuple_n(kernel_size, nsp, "kernel_size", op, allow_long=True)
    s = tuple_n(k if stride is None else stride, nsp, "stride", op, allow_long=True)
    d = tuple_n(dilation, nsp, "dilation", op, allow_long=True)
    sp = tuple(x.shape[2:])
    pads = _resolve_pads(sp, k, s, d, pad_mode, padding, op)
    if pad_mode == "pad" and any(pads[i][0] > k[i] // 2 or pads[i][1] > k[i] // 2 for i in range(nsp)):
        raise ValueError(f"For '{op}', the 'padding' must be at most half of 'kernel_size' {k}, but got {padding}.")
    sizes = [_out_size(sp[i], k[i], s[i], d[i], *pads[i], ceil_mode) for i in range(nsp)]
    outs = tuple(z[0] for z in sizes)
    if any(o <= 0 for o in outs):
        raise ValueError(
            f"For '{op}', the input shape {tuple(x.shape)} is too small for 'kernel_size' {k}: the output shape "
            f"would be {outs}; it must be positive."
        )
    full = [(pads[i][0], pads[i][1] + sizes[i][1]) for i in range(nsp)]
    window, strides, dil = (1, 1, *k), (1, 1, *s), (1, 1, *d)
    pad5 = [(0, 0), (0, 0), *full]
    if kind == "max":
        if return_indices or any(v != 1 for v in d):  # reduce_window's VJP takes no dilation
            fill = _pool_max_identity(x.dtype)
            stacked = jnp.stack(_views(jnp.pad(x, pad5, constant_values=fill), k, s, d, outs))
            arg = jnp.argmax(stacked, axis=0)
            y = jnp.max(stacked, axis=0)
            grids = np.meshgrid(*(np.arange(outs[i]) * s[i] - full[i][0] for i in range(nsp)), indexing="ij")
            flat = np.stack(
                [
                    np.ravel_multi_index(
                        tuple(grids[i] + off[i] * d[i] for i in range(nsp)), sp, mode="clip"
                    )  # padded positions never win (they hold -inf)
                    for off in np.ndindex(*k)
                ]
            ).astype(np.int64)
            idx = jnp.take_along_axis(jnp.broadcast_to(jnp.asarray(flat)[:, None, None], stacked.shape), arg[None], 0)
            return (y, idx[0]) if return_indices else y
        init = np.array(_pool_max_identity(x.dtype), x.dtype)
        return lax.reduce_window(x, init, lax.max, window, strides, pad5, window_dilation=dil)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"For '{op}', the dtype of 'input' must be float, but got {_dtype_name(x)}.")
    total = lax.reduce_window(x, np.array(0, x.dtype), lax.add, window, strides, pad5, window_dilation=dil)
    if divisor_override:
        div = np.full(outs, float(divisor_override))
    elif pad_mode in ("pad", "same") and count_include_pad:  # AvgPool3D counts 'same' padding too
        padded = tuple(sp[i] + pads[i][0] + pads[i][1] for i in range(nsp))
        div = _np_window_count(padded, k, s, d, [(0, z[1]) for z in sizes], outs)
    else:
        div = _np_window_count(sp, k, s, d, full, outs)
    return total / jnp.asarray(div, x.dtype)


# ---------------------------------------------------------------- functional ops
def avg_pool1d(
    input_x: Any,
    kernel_size: Any = 1,
    stride: Any = 1,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """1-D average pooling of an (N, C, L) input; ``padding``: an int or a 1-tuple (both sides)."""
    op = "avg_pool1d"
    if not isinstance(input_x, Tensor):
        raise TypeError(f"For {op}, the input 'input_x' must be a Tensor, but got {type(input_x).__name__}.")
    if input_x.ndim != 3:
        raise ValueError(f"For '{op}', the dimension of 'input_x' must be 3, but got {input_x.ndim}.")
    k = _int_arg(kernel_size, "kernel_size", op)
    s = _int_arg(stride[0] if isinstance(stride, tuple) and len(stride) == 1 else stride, "stride", op)
    if isinstance(padding, tuple):
        if len(padding) != 1:
            raise ValueError("For avg_pool1d, padding should be int or tuple of length 1.")
        padding = padding[0]
    p = _int_arg(padding, "padding", op, minimum=0)
    return pool_nd(input_x, "avg", k, s, "pad", (p, p), 1, ceil_mode, count_include_pad, nsp=1, op=op)


def avg_pool3d(
    input_x: Any,
    kernel_size: Any = 1,
    stride: Any = 1,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int = 0,
) -> Tensor:
    """3-D average pooling of an (N, C, D, H, W) input (``padding``: an int or 6 ints; ``divisor_override``
    0 divides by the window's size)."""
    a = as_tensor_array(input_x)
    if a.ndim != 5:
        raise ValueError(f"For 'avg_pool3d', the dimension of 'input_x' must be 5, but got {a.ndim}.")
    return pool_nd(
        input_x, "avg", kernel_size, stride, "pad", padding, 1, ceil_mode, count_include_pad,
        divisor_override or None, nsp=3, op="avg_pool3d",
    )  # fmt: skip


def max_pool3d(
    x: Any,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """3-D max pooling of an (N, C, D, H, W) or (C, D, H, W) input; with ``return_indices`` also the
    argmax positions (int64, flat over the input's D*H*W)."""
    return pool_nd(
        x, "max", kernel_size, stride, "pad", padding, dilation, ceil_mode,
        return_indices=return_indices, nsp=3, op="max_pool3d",
    )  # fmt: skip


def _adaptive_out(shape: tuple, output_size: Any, nsp: int, op: str) -> tuple[int, ...]:
    sp = shape[-nsp:]
    if isinstance(output_size, (int, np.integer)) and not isinstance(output_size, bool):
        out = (int(output_size),) * nsp
    elif isinstance(output_size, (tuple, list)) and len(output_size) == nsp:
        out = tuple(sp[i] if v is None else int(v) for i, v in enumerate(output_size))
    else:
        raise TypeError(
            f"For '{op}', the 'output_size' must be an int or a tuple of {nsp} ints/None, but got {output_size}."
        )
    if any(o <= 0 for o in out):
        raise ValueError(f"For '{op}', the 'output_size' must be positive, but got {output_size}.")
    return out


def adaptive_avg_nd(a: Any, out: tuple[int, ...]) -> Any:
    """Average over adaptive bins ``[floor(i*n/o), ceil((i+1)*n/o))`` of the last ``len(out)`` axes."""
    nsp = len(out)
    y = a
    for i in range(nsp):
        axis = a.ndim - nsp + i
        n_in = a.shape[axis]
        m = np.zeros((out[i], n_in))
        for j, (lo, hi) in enumerate(_bins(n_in, out[i])):
            m[j, lo:hi] = 1.0 / (hi - lo)
        y = jnp.moveaxis(jnp.tensordot(y, jnp.asarray(m, a.dtype), axes=([axis], [1])), -1, axis)
    return y


def adaptive_max_nd(a: Any, out: tuple[int, ...], return_indices: bool) -> Any:
    """Maximum over adaptive bins of the last ``len(out)`` axes (and the flat argmax positions): every
    window as a fixed-size gather (short windows repeat their last index: max is idempotent)."""
    nsp = len(out)
    sp = a.shape[-nsp:]
    per_axis = []
    for i in range(nsp):
        bins = _bins(sp[i], out[i])
        m = max(hi - lo for lo, hi in bins)
        per_axis.append(np.array([[min(lo + t, hi - 1) for t in range(m)] for lo, hi in bins]))
    # flat input position of every (output position, window offset) pair
    grids = np.meshgrid(*(np.arange(out[i]) for i in range(nsp)), indexing="ij")
    offs = np.meshgrid(*(np.arange(p.shape[1]) for p in per_axis), indexing="ij")
    coords = [per_axis[i][grids[i].reshape(-1, 1), offs[i].reshape(1, -1)] for i in range(nsp)]
    flat = np.ravel_multi_index(tuple(coords), sp)  # [prod(out), prod(window)]
    lead = a.shape[:-nsp]
    win = jnp.take(a.reshape(*lead, -1), jnp.asarray(flat.reshape(-1)), axis=-1).reshape(*lead, *flat.shape)
    y = jnp.max(win, axis=-1).reshape(*lead, *out)
    if not return_indices:
        return y
    am = jnp.argmax(win, axis=-1)
    idx = jnp.take_along_axis(jnp.broadcast_to(jnp.asarray(flat), win.shape), am[..., None], axis=-1)[..., 0]
    return y, idx.reshape(*lead, *out).astype(jnp.int64)


def adaptive_avg_pool1d(input: Any, output_size: int) -> Tensor:
    """Average over ``output_size`` equal bins of the last axis of an (N, C, L) input (L divisible)."""
    validator.check_adaptive_pool1d(input, output_size, "adaptive_avg_pool1d", isinstance(input, Tensor))
    a = as_tensor_array(input)
    if a.dtype not in (np.float16, np.float32):
        raise TypeError(
            f"For adaptive_avg_pool1d, the input dtype must be float16 or float32, but got {_dtype_name(a)}."
        )
    return wrap(adaptive_avg_nd(a, (output_size,)))


def adaptive_max_pool1d(input: Any, output_size: int) -> Tensor:
    """Maximum over ``output_size`` equal bins of the last axis of an (N, C, L) input (L divisible)."""
    validator.check_adaptive_pool1d(input, output_size, "adaptive_max_pool1d", isinstance(input, Tensor))
    a = as_tensor_array(input)
    if a.dtype not in (np.float16, np.float32):
        raise TypeError(
            f"For adaptive_max_pool1d, the input dtype must be float16 or float32, but got {_dtype_name(a)}."
        )
    return wrap(adaptive_max_nd(a, (output_size,), False))


def _nd_input(input: Any, ndims: tuple[int, ...], op: str) -> Any:
    a = as_tensor_array(input)
    if a.ndim not in ndims:
        raise ValueError(
            f"For '{op}', the dimension of 'input' must be {' or '.join(map(str, ndims))}, but got {a.ndim}."
        )
    return a


def adaptive_avg_pool3d(input: Any, output_size: Any) -> Tensor:
    """Average over adaptive 3-D bins of a (C, D, H, W) or (N, C, D, H, W) input (None keeps a size)."""
    a = _nd_input(input, (4, 5), "adaptive_avg_pool3d")
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For 'adaptive_avg_pool3d', the dtype of 'input' must be float, but got {_dtype_name(a)}.")
    return wrap(adaptive_avg_nd(a, _adaptive_out(a.shape, output_size, 3, "adaptive_avg_pool3d")))


def adaptive_max_pool3d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    """Maximum over adaptive 3-D bins (and, with ``return_indices``, flat argmax positions)."""
    a = _nd_input(input, (4, 5), "adaptive_max_pool3d")
    res = adaptive_max_nd(a, _adaptive_out(a.shape, output_size, 3, "adaptive_max_pool3d"), return_indices)
    return (wrap(res[0]), wrap(res[1])) if return_indices else wrap(res)


def _lp(x: Any, norm_type: Any, kernel_size: Any, stride: Any, ceil_mode: bool, nsp: int, op: str) -> Tensor:
    if isinstance(norm_type, bool) or not isinstance(norm_type, (float, int)):
        raise TypeError(f"For {op}, the type of 'norm_type' must be float or int, but got {type(norm_type)}")
    p = float(norm_type)
    if p == 0:
        raise ValueError(f"For {op}, the value of 'norm_type' can not be 0.")
    a = as_tensor_array(x)
    k = tuple_n(kernel_size, nsp, "kernel_size", op)
    s = k if stride is None else tuple_n(stride, nsp, "stride", op)
    avg = pool_nd(wrap(a**p), "avg", k, s, "pad", 0, 1, ceil_mode, nsp=nsp, op=op)._data
    mag = jnp.sign(avg) * jnp.maximum(jnp.abs(avg), 0) * math.prod(k)
    return wrap(mag ** (1.0 / p))


def lp_pool1d(x: Any, norm_type: Any, kernel_size: int, stride: Any = None, ceil_mode: bool = False) -> Tensor:
    """``(sum over the window of x ** p) ** (1 / p)`` over 1-D windows of an (N, C, L) or (C, L) input."""
    return _lp(x, norm_type, kernel_size, stride, ceil_mode, 1, "lp_pool1d")


def lp_pool2d(x: Any, norm_type: Any, kernel_size: Any, stride: Any = None, ceil_mode: bool = False) -> Tensor:
    """``(sum over the window of x ** p) ** (1 / p)`` over 2-D windows of an (N, C, H, W) input."""
    return _lp(x, norm_type, kernel_size, stride, ceil_mode, 2, "lp_pool2d")


# ------------------------------------------------------------------- unpooling
def max_unpool_nd(
    x: Any, indices: Any, kernel_size: Any, stride: Any, padding: Any, output_size: Any, nsp: int, op: str
) -> Tensor:
    """Scatter ``x`` into zeros at the flat spatial positions ``indices`` (the inverse of a max-pool)."""
    a, idx = as_tensor_array(x), as_tensor_array(indices)
    if a.ndim not in (nsp + 1, nsp + 2):
        raise ValueError(f"For '{op}', the dimension of 'x' must be {nsp + 1} or {nsp + 2}, but got {a.ndim}.")
    if tuple(idx.shape) != tuple(a.shape):
        raise ValueError(
            f"For '{op}', the shape of 'indices' must be equal to the shape of 'x', but got {tuple(idx.shape)} "
            f"and {tuple(a.shape)}."
        )
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For '{op}', the dtype of 'indices' must be int32 or int64, but got {_dtype_name(idx)}.")
    k = tuple_n(kernel_size, nsp, "kernel_size", op)
    s = k if stride is None or stride == 0 else tuple_n(stride, nsp, "stride", op)
    p = tuple_n(padding, nsp, "padding", op, minimum=0)
    sp = tuple(a.shape[-nsp:])
    default = tuple((sp[i] - 1) * s[i] - 2 * p[i] + k[i] for i in range(nsp))
    if output_size is None or len(output_size) == 0:
        out = default
    else:
        out = tuple(int(v) for v in tuple(output_size)[-nsp:])
        for i in range(nsp):
            if not default[i] - s[i] < out[i] < default[i] + s[i]:
                raise ValueError(
                    f"For '{op}', the 'output_size' must be in the range ({tuple(d - t for d, t in zip(default, s))}, "
                    f"{tuple(d + t for d, t in zip(default, s))}) per dimension, but got {tuple(output_size)}."
                )
    lead = a.shape[:-nsp]
    total = math.prod(out)
    flat_x = a.reshape(-1, math.prod(sp))
    flat_i = idx.reshape(-1, math.prod(sp)).astype(jnp.int32)
    rows = jnp.arange(flat_x.shape[0])[:, None]
    y = jnp.zeros((flat_x.shape[0], total), a.dtype).at[rows, flat_i].set(flat_x, mode="drop")
    return wrap(y.reshape(*lead, *out))


def max_unpool1d(
    x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, output_size: Any = None
) -> Tensor:
    """Inverse of ``max_pool1d`` with indices: (N, C, L) or (C, L)."""
    return max_unpool_nd(x, indices, kernel_size, stride, padding, output_size, 1, "max_unpool1d")


def max_unpool2d(
    x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, output_size: Any = None
) -> Tensor:
    """Inverse of ``max_pool2d`` with indices: (N, C, H, W) or (C, H, W); indices flat over H*W."""
    return max_unpool_nd(x, indices, kernel_size, stride, padding, output_size, 2, "max_unpool2d")


def max_unpool3d(
    x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, output_size: Any = None
) -> Tensor:
    """Inverse of ``max_pool3d`` with indices: (N, C, D, H, W) or (C, D, H, W); indices flat over D*H*W."""
    return max_unpool_nd(x, indices, kernel_size, stride, padding, output_size, 3, "max_unpool3d")
