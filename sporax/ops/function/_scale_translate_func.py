"""``ScaleAndTranslate``: resample an NHWC image batch to ``size`` with a scale and translation of the
sampling grid, through a separable kernel (TensorFlow's / MindSpore's sampling kernels: Lanczos 1/3/5,
Gaussian, box, triangle, Keys and Mitchell cubics), antialiased when downscaling.

Each spatial axis is a matrix product with an ``(in, out)`` weight matrix: the kernel evaluated at the
distances between each output sample's source position and the input pixels (stretched by ``1 / scale``
when antialiasing a downscale), normalised per output sample; samples whose source lies outside the image
are zero.
"""

from __future__ import annotations

from typing import Any

from ..._engine import jnp

__all__ = ["KERNEL_TYPES", "scale_and_translate"]


def _lanczos(radius: float) -> Any:
    def k(x: Any) -> Any:
        px = jnp.pi * x
        safe = jnp.where(x < 1e-6, 1.0, px)
        val = radius * jnp.sin(safe) * jnp.sin(safe / radius) / (safe * safe)
        return jnp.where(x > radius, 0.0, jnp.where(x < 1e-6, 1.0, val))

    return k


def _cubic(b: float, c: float) -> Any:
    """The (B, C) family of cubics: Keys (0, 0.5) and Mitchell-Netravali (1/3, 1/3)."""

    def k(x: Any) -> Any:
        near = ((12 - 9 * b - 6 * c) * x**3 + (-18 + 12 * b + 6 * c) * x**2 + (6 - 2 * b)) / 6
        far = ((-b - 6 * c) * x**3 + (6 * b + 30 * c) * x**2 + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
        return jnp.where(x < 1, near, jnp.where(x < 2, far, 0.0))

    return k


_KERNELS = {
    "lanczos1": _lanczos(1.0),
    "lanczos3": _lanczos(3.0),
    "lanczos5": _lanczos(5.0),
    "gaussian": lambda x: jnp.where(x < 1.5, jnp.exp(-x * x / 0.5), 0.0),  # sigma 0.5, radius 3 sigma
    "box": lambda x: jnp.where(x < 0.5, 1.0, jnp.where(x == 0.5, 0.5, 0.0)),
    "triangle": lambda x: jnp.maximum(0.0, 1.0 - x),
    "keyscubic": _cubic(0.0, 0.5),
    "mitchellcubic": _cubic(1.0 / 3.0, 1.0 / 3.0),
}
KERNEL_TYPES = tuple(_KERNELS)


def _weights(n_in: int, n_out: int, scale: Any, translation: Any, kernel: Any, antialias: bool) -> Any:
    f32 = jnp.float32
    inv = (1.0 / scale).astype(f32)
    shift = (-inv * translation).astype(f32)
    inv_stretch = 1.0 / jnp.maximum(inv, 1.0) if antialias else f32(1.0)
    sample = (jnp.arange(n_out, dtype=f32) + 0.5) * inv + shift  # each output's centre in input coordinates
    dist = jnp.abs((jnp.arange(n_in, dtype=f32)[:, None] + 0.5 - sample[None, :]) * inv_stretch)
    w = kernel(dist).astype(f32)
    total = jnp.sum(w, axis=0, keepdims=True)
    w = jnp.where(jnp.abs(total) >= 1000 * jnp.finfo(f32).tiny, w / jnp.where(total == 0, 1, total), 0.0)
    inside = (sample >= 0) & (sample <= n_in)
    return jnp.where(inside[None, :], w, 0.0)


def scale_and_translate(
    images: Any, size: tuple[int, int], scale: Any, translation: Any, kernel_type: str, antialias: bool
) -> Any:
    """``images`` (N, H, W, C) resampled to (N, *size, C) in float32."""
    a = images.astype(jnp.float32)
    kernel = _KERNELS[kernel_type]
    wh = _weights(a.shape[1], size[0], scale[0], translation[0], kernel, antialias)
    ww = _weights(a.shape[2], size[1], scale[1], translation[1], kernel, antialias)
    return jnp.einsum("nhwc,hy,wx->nyxc", a, wh, ww, precision="highest")
