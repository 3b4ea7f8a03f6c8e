"""``ExtractGlimpse``: windows of ``size`` cut from an NHWC image batch at per-image offsets, the parts outside
the image filled with noise (TensorFlow's glimpse semantics, MindSpore's argument rules)."""

from __future__ import annotations

from typing import Any

from ..._engine import jax, jnp

__all__ = ["NOISES", "extract_glimpse"]

NOISES = ("uniform", "gaussian", "zero")


def _origin(offsets: Any, h: int, w: int, gh: int, gw: int, centered: bool, normalized: bool) -> Any:
    """The window's top-left pixel per image: the offset (y, x) in pixels from the top-left corner (in units of
    the image size when ``normalized``; halved and taken from the centre when ``centered``, as MindSpore 2.10's
    kernel does with and without ``normalized``), minus half the window, truncated towards zero."""
    y, x = offsets[:, 0].astype(jnp.float32), offsets[:, 1].astype(jnp.float32)
    if normalized:
        y, x = y * h, x * w
    if centered:
        y, x = y / 2.0 + h / 2.0, x / 2.0 + w / 2.0
    return jnp.trunc(y - gh / 2.0).astype(jnp.int32), jnp.trunc(x - gw / 2.0).astype(jnp.int32)


def extract_glimpse(
    images: Any, size: tuple[int, int], offsets: Any, centered: bool, normalized: bool, noise: str, key: Any
) -> Any:
    """``(N, gh, gw, C)`` windows of ``images``; outside the image: zeros (``"zero"``), uniform noise between
    each image channel's minimum and maximum, or Gaussian noise with its mean and standard deviation."""
    a = images.astype(jnp.float32)
    n, h, w, c = a.shape
    gh, gw = size
    top, left = _origin(offsets, h, w, gh, gw, centered, normalized)
    rows = top[:, None] + jnp.arange(gh, dtype=jnp.int32)[None, :]  # (N, gh)
    cols = left[:, None] + jnp.arange(gw, dtype=jnp.int32)[None, :]  # (N, gw)
    batch = jnp.arange(n)[:, None, None]
    window = a[batch, jnp.clip(rows, 0, h - 1)[:, :, None], jnp.clip(cols, 0, w - 1)[:, None, :]]
    inside = ((rows >= 0) & (rows < h))[:, :, None, None] & ((cols >= 0) & (cols < w))[:, None, :, None]
    if noise == "zero":
        fill = jnp.zeros_like(window)
    elif noise == "uniform":
        lo, hi = a.min(axis=(1, 2))[:, None, None, :], a.max(axis=(1, 2))[:, None, None, :]
        fill = lo + (hi - lo) * jax.random.uniform(key, window.shape, jnp.float32)
    else:
        mean, std = a.mean(axis=(1, 2))[:, None, None, :], a.std(axis=(1, 2))[:, None, None, :]
        fill = mean + std * jax.random.normal(key, window.shape, jnp.float32)
    return jnp.where(inside, window, fill)
