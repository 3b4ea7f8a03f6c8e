"""Real and Hermitian FFTs and the FFT helpers (``mindspore.ops`` functional): ``rfft``/``irfft`` (1-D, 2-D,
n-D), ``hfft``/``ihfft`` (1-D, 2-D, n-D), ``fftshift``/``ifftshift``, ``fftfreq``/``rfftfreq``. The complex FFTs
(``fft``, ``ifft``, ``fft2``...) are in :mod:`.spectral_func`, whose argument checks these share."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import as_tensor_array, np_dtype, wrap
from .spectral_func import NORMS, NORMS_TEXT, _complex_input

__all__ = [
    "rfft",
    "irfft",
    "rfft2",
    "irfft2",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "hfft2",
    "ihfft2",
    "hfftn",
    "ihfftn",
    "fftshift",
    "ifftshift",
    "fftfreq",
    "rfftfreq",
]

_SWAP = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


def _real_input(input: Any, op: str) -> Any:
    a = as_tensor_array(input)
    if jnp.issubdtype(a.dtype, jnp.complexfloating):
        raise TypeError(f"For '{op}', the 'input' must be a real Tensor, but got {mstype.from_np(a.dtype)}.")
    return a if jnp.issubdtype(a.dtype, jnp.floating) else a.astype(jnp.float32)


def _axes(dim: Any) -> Any:
    return None if dim is None else tuple(dim)


def _c64(out: Any, a: Any) -> Any:
    """Complex64 unless the input was double precision (MindSpore's result dtype rule)."""
    return out if a.dtype in (jnp.float64, jnp.complex128) else out.astype(jnp.complex64)


def _f32(out: Any, a: Any) -> Any:
    return out if a.dtype in (jnp.float64, jnp.complex128) else out.astype(jnp.float32)


def rfft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:
    """The 1-D FFT of a real signal: the ``n // 2 + 1`` non-negative frequencies."""
    a = _real_input(input, "rfft")
    validator.check_one_of(norm, NORMS, "norm", "rfft", NORMS_TEXT)
    return wrap(_c64(jnp.fft.rfft(a, n=n, axis=dim, norm=norm), a))


def irfft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:
    """The inverse of :func:`rfft`: a real signal of length ``n`` (default ``2 * (m - 1)``)."""
    a = _complex_input(input)
    validator.check_one_of(norm, NORMS, "norm", "irfft", NORMS_TEXT)
    return wrap(_f32(jnp.fft.irfft(a, n=n, axis=dim, norm=norm), a))


def rfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Any = None) -> Tensor:
    """:func:`rfftn` over two dims."""
    a = _real_input(input, "rfft2")
    validator.check_one_of(norm, NORMS, "norm", "rfft2", NORMS_TEXT)
    return wrap(_c64(jnp.fft.rfft2(a, s=s, axes=tuple(dim), norm=norm), a))


def irfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Any = None) -> Tensor:
    """The inverse of :func:`rfft2`."""
    a = _complex_input(input)
    validator.check_one_of(norm, NORMS, "norm", "irfft2", NORMS_TEXT)
    return wrap(_f32(jnp.fft.irfft2(a, s=s, axes=tuple(dim), norm=norm), a))


def rfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:
    """The n-D FFT of a real signal (the last dim halved)."""
    a = _real_input(input, "rfftn")
    validator.check_one_of(norm, NORMS, "norm", "rfftn", NORMS_TEXT)
    return wrap(_c64(jnp.fft.rfftn(a, s=s, axes=_axes(dim), norm=norm), a))


def irfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:
    """The inverse of :func:`rfftn`."""
    a = _complex_input(input)
    validator.check_one_of(norm, NORMS, "norm", "irfftn", NORMS_TEXT)
    return wrap(_f32(jnp.fft.irfftn(a, s=s, axes=_axes(dim), norm=norm), a))


def hfft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:
    """The FFT of a Hermitian-symmetric signal given by its first half: a real spectrum of length ``n``."""
    a = _complex_input(input)
    validator.check_one_of(norm, NORMS, "norm", "hfft", NORMS_TEXT)
    return wrap(_f32(jnp.fft.hfft(a, n=n, axis=dim, norm=norm), a))


def ihfft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:
    """The inverse of :func:`hfft`."""
    a = _real_input(input, "ihfft")
    validator.check_one_of(norm, NORMS, "norm", "ihfft", NORMS_TEXT)
    return wrap(_c64(jnp.fft.ihfft(a, n=n, axis=dim, norm=norm), a))


def hfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:
    """The n-D :func:`hfft` (``irfftn`` of the conjugate with the normalisation direction swapped)."""
    a = _complex_input(input)
    validator.check_one_of(norm, NORMS, "norm", "hfftn", NORMS_TEXT)
    out = jnp.fft.irfftn(jnp.conj(a), s=s, axes=_axes(dim), norm=_SWAP[norm])
    return wrap(_f32(out, a))


def ihfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:
    """The inverse of :func:`hfftn`."""
    a = _real_input(input, "ihfftn")
    validator.check_one_of(norm, NORMS, "norm", "ihfftn", NORMS_TEXT)
    out = jnp.conj(jnp.fft.rfftn(a, s=s, axes=_axes(dim), norm=_SWAP[norm]))
    return wrap(_c64(out, a))


def hfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Any = None) -> Tensor:
    """:func:`hfftn` over two dims."""
    return hfftn(input, s, dim, norm)


def ihfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Any = None) -> Tensor:
    """:func:`ihfftn` over two dims."""
    return ihfftn(input, s, dim, norm)


def fftshift(input: Any, dim: Any = None) -> Tensor:
    """Move the zero frequency to the middle of ``dim`` (every dim by default)."""
    return wrap(
        jnp.fft.fftshift(as_tensor_array(input), axes=dim if dim is None or isinstance(dim, int) else tuple(dim))
    )


def ifftshift(input: Any, dim: Any = None) -> Tensor:
    """The inverse of :func:`fftshift`."""
    return wrap(
        jnp.fft.ifftshift(as_tensor_array(input), axes=dim if dim is None or isinstance(dim, int) else tuple(dim))
    )


def _freq_args(n: Any, d: Any, dtype: Any, op: str) -> tuple[int, float, Any]:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
        raise ValueError(f"For '{op}', the 'n' must be a positive int, but got {n!r}.")
    return int(n), float(d), np_dtype(mstype.float32 if dtype is None else dtype)


def fftfreq(n: int, d: float = 1.0, dtype: Any = None) -> Tensor:
    """The sample frequencies of an ``n``-point FFT with sample spacing ``d``."""
    n, d, dt = _freq_args(n, d, dtype, "fftfreq")
    return wrap(jnp.asarray(np.fft.fftfreq(n, d), dt))


def rfftfreq(n: int, d: float = 1.0, dtype: Any = None) -> Tensor:
    """The non-negative sample frequencies of an ``n``-point :func:`rfft`."""
    n, d, dt = _freq_args(n, d, dtype, "rfftfreq")
    return wrap(jnp.asarray(np.fft.rfftfreq(n, d), dt))
