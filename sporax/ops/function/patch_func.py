"""Sliding-window patch ops (``mindspore.ops`` functional): ``unfold`` (im2col: ``(N, C, H, W)`` ->
``(N, C*kh*kw, L)``), its adjoint ``fold``/``col2im`` (overlapping patches summed back), and ``affine_grid``
(the sampling grid of an affine transform, for ``grid_sample``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._engine import jax, jnp, lax
from ...common.tensor import Tensor
from .._utils import as_tensor_array, float_result, wrap

__all__ = ["unfold", "fold", "col2im", "affine_grid"]


def _pair(v: Any, name: str, op: str) -> tuple[int, int]:
    if isinstance(v, Tensor):
        v = v.asnumpy().reshape(-1).tolist()
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return int(v), int(v)
    vals = tuple(int(x) for x in v)
    if len(vals) == 1:
        return vals[0], vals[0]
    if len(vals) != 2:
        raise ValueError(f"For '{op}', the '{name}' must be an int or a pair of ints, but got {v}.")
    return vals  # type: ignore[return-value]


def _patch_args(kernel_size: Any, dilation: Any, padding: Any, stride: Any, op: str) -> tuple[Any, ...]:
    k, d, p, s = (
        _pair(v, n, op)
        for v, n in ((kernel_size, "kernel_size"), (dilation, "dilation"), (padding, "padding"), (stride, "stride"))
    )
    if min(k + d + s) < 1 or min(p) < 0:
        raise ValueError(
            f"For '{op}', 'kernel_size', 'dilation' and 'stride' must be positive and 'padding' non-negative, but "
            f"got kernel_size={k}, dilation={d}, padding={p}, stride={s}."
        )
    return k, d, p, s


def _unfold_array(a: Any, k: Any, d: Any, p: Any, s: Any) -> Any:
    patches = lax.conv_general_dilated_patches(
        a, filter_shape=k, window_strides=s, padding=[(p[0], p[0]), (p[1], p[1])], rhs_dilation=d
    )  # (N, C*kh*kw, oh, ow), channel-major as MindSpore's/PyTorch's
    return patches.reshape(patches.shape[0], patches.shape[1], -1)


def unfold(input: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:
    """The sliding ``kernel_size`` patches of a 4-D ``input`` as columns: ``(N, C*kh*kw, L)``."""
    a = as_tensor_array(input)
    if a.ndim != 4:
        raise ValueError(f"For 'Im2Col', the 'input' must be a 4-D Tensor, but got {a.ndim}-D.")
    k, d, p, s = _patch_args(kernel_size, dilation, padding, stride, "Im2Col")
    return wrap(_unfold_array(float_result(a) if a.dtype == jnp.bool_ else a, k, d, p, s))


def fold(
    input: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
) -> Tensor:
    """The adjoint of :func:`unfold`: columns ``(N, C*kh*kw, L)`` summed back into ``(N, C) + output_size``."""
    a = as_tensor_array(input)
    hw = _pair(output_size, "output_size", "Col2Im")
    k, d, p, s = _patch_args(kernel_size, dilation, padding, stride, "Col2Im")
    if a.ndim == 4:  # (N, C, kh*kw, L), the Col2Im layout
        a = a.reshape(a.shape[0], a.shape[1] * a.shape[2], a.shape[3])
    if a.ndim != 3 or a.shape[1] % (k[0] * k[1]):
        raise ValueError(
            f"For 'Col2Im', the 'input' must be (N, C*kh*kw, L) with C*kh*kw divisible by {k[0] * k[1]}, but got "
            f"shape {tuple(a.shape)}."
        )
    n, ck, length = a.shape
    c = ck // (k[0] * k[1])
    blocks = [(hw[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2)]
    if blocks[0] * blocks[1] != length:
        raise ValueError(
            f"For 'Col2Im', the number of blocks ({length}) does not match output_size {hw} with kernel_size {k}, "
            f"dilation {d}, padding {p}, stride {s} (expected {blocks[0] * blocks[1]})."
        )
    base = jnp.zeros((n, c) + hw, a.dtype)
    (out,) = jax.linear_transpose(lambda v: _unfold_array(v, k, d, p, s), base)(a)
    return wrap(out)


def col2im(input_x: Any, output_size: Any, kernel_size: Any, dilation: Any, padding_value: Any, stride: Any) -> Tensor:
    """:func:`fold` under MindSpore's older argument names."""
    return fold(input_x, output_size, kernel_size, dilation, padding_value, stride)


def affine_grid(theta: Any, size: Any, align_corners: bool = False) -> Tensor:
    """The sampling grid ``(N, H, W, 2)`` (or ``(N, D, H, W, 3)``) of the affine maps ``theta`` ``(N, 2, 3)``
    (``(N, 3, 4)``) over an output of ``size`` ``(N, C, H, W)`` (``(N, C, D, H, W)``), in [-1, 1] coordinates."""
    t = float_result(as_tensor_array(theta))
    size = tuple(int(v) for v in size)
    spatial = size[2:]
    nd = len(spatial)
    if nd not in (2, 3) or t.shape != (size[0], nd, nd + 1):
        raise ValueError(
            f"For 'AffineGrid', 'theta' must have shape (N, {nd}, {nd + 1}) for a size of rank {len(size)}, "
            f"but got theta {tuple(t.shape)} and size {size}."
        )

    def coords(n: int) -> Any:
        if n == 1:
            return jnp.zeros((1,), t.dtype)
        lin = jnp.linspace(-1.0, 1.0, n, dtype=t.dtype)
        return lin if align_corners else lin * (n - 1) / n

    axes = [coords(n) for n in reversed(spatial)]  # x (W) first, then y (H), then z (D)
    mesh = jnp.meshgrid(*axes, indexing="ij")  # each (W, H[, D])
    base = jnp.stack([*mesh, jnp.ones_like(mesh[0])], axis=-1)  # (W, H[, D], nd+1)
    base = jnp.transpose(base, tuple(range(nd - 1, -1, -1)) + (nd,))  # (D, H, W, nd+1)
    grid = jnp.einsum("...k,njk->n...j", base, t)
    return wrap(grid)


def extract_volume_patches(input_x: Any, kernel_size: Any, strides: Any, padding: str) -> Tensor:
    """The ``kd x kh x kw`` patches of an NCDHW input: ``(N, kd*kh*kw*C, od, oh, ow)``, each patch's values in
    (depth, height, width, channel) order as MindSpore's; ``padding`` ``'VALID'`` or ``'SAME'``."""
    a = as_tensor_array(input_x)
    if a.ndim != 5:
        raise ValueError(f"For 'ExtractVolumePatches', the 'input_x' must be 5-D (NCDHW), but got {a.ndim}-D.")
    k = tuple(int(v) for v in kernel_size)[-3:]
    s = tuple(int(v) for v in strides)[-3:]
    pad = padding.upper() if isinstance(padding, str) else padding
    if pad not in ("VALID", "SAME"):
        raise ValueError(f"For 'ExtractVolumePatches', the 'padding' must be 'VALID' or 'SAME', but got {padding!r}.")
    p = lax.conv_general_dilated_patches(a, filter_shape=k, window_strides=s, padding=pad)  # (N, C*K, od, oh, ow)
    n, c = a.shape[:2]
    p = p.reshape((n, c, k[0] * k[1] * k[2]) + p.shape[2:])
    return wrap(jnp.swapaxes(p, 1, 2).reshape((n, c * k[0] * k[1] * k[2]) + p.shape[3:]))


def confusion_matrix(labels: Any, predictions: Any, num_classes: int, weights: Any = None, dtype: Any = None) -> Tensor:
    """``out[i, j]``: the (weighted) number of samples with label ``i`` predicted as ``j``."""
    lab, pred = as_tensor_array(labels).reshape(-1), as_tensor_array(predictions).reshape(-1)
    if lab.shape != pred.shape:
        raise ValueError(
            f"For 'ConfusionMatrix', 'labels' and 'predictions' must have the same shape, but got {lab.shape} "
            f"and {pred.shape}."
        )
    w = jnp.ones(lab.shape, jnp.float32) if weights is None else as_tensor_array(weights).reshape(-1)
    flat = jax.ops.segment_sum(w, lab * num_classes + pred, num_classes * num_classes)
    out = flat.reshape(num_classes, num_classes)
    return wrap(out if dtype is None else out.astype(dtype))
