"""Spectral ops (``mindspore.ops`` functional, MindSpore's ``spectral_func`` and the fft functions): the
window functions and ``fft``/``ifft`` (1-, 2- and n-D) and ``stft`` on ``jnp.fft``.

Real and integer inputs transform as complex64 (float64 as complex128), as MindSpore's FFT kernels do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._utils import as_tensor_array, np_dtype, wrap

__all__ = [
    "bartlett_window",
    "blackman_window",
    "hann_window",
    "kaiser_window",
    "fft",
    "fft2",
    "fftn",
    "ifft",
    "ifft2",
    "ifftn",
    "stft",
]


# ------------------------------------------------------------------- windows
def _length(window_length: Any, op: str, tensor_only: bool) -> int:
    if isinstance(window_length, Tensor):
        a = window_length.asnumpy()
        if a.dtype.kind not in "iu" or a.size != 1:
            raise TypeError(f"For '{op}', the 'window_length' must be an integer Tensor with one element.")
        n = int(a.reshape(()))
    elif tensor_only:
        raise TypeError(
            f"For Primitive[{op}], the type of input argument[window_length] must be Tensor but got "
            f"{mstype.get_py_obj_dtype(window_length)}."
        )
    elif isinstance(window_length, bool) or not isinstance(window_length, (int, np.integer)):
        raise TypeError(f"For '{op}', the 'window_length' must be an int, but got {type(window_length).__name__}.")
    else:
        n = int(window_length)
    if n < 0:
        raise ValueError(f"For '{op}', the 'window_length' must be non-negative, but got {n}.")
    return n


def _window(values: np.ndarray, dtype: Any, default: Any) -> Tensor:
    return wrap(jnp.asarray(values.astype(np_dtype(default if dtype is None else dtype))))


def _cosine_window(n: int, periodic: bool, coeffs: tuple[float, ...]) -> np.ndarray:
    """``sum_k (-1)^k c_k cos(2 pi k i / N)`` with ``N = n`` (periodic) or ``n - 1`` (symmetric)."""
    if n <= 1:
        return np.ones((n,))
    denom = n if periodic else n - 1
    i = np.arange(n) * (2 * np.pi / denom)
    return sum((-1) ** k * c * np.cos(k * i) for k, c in enumerate(coeffs))


def bartlett_window(window_length: Any, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """The Bartlett (triangular) window of ``window_length`` (an integer Tensor) points."""
    n = _length(window_length, "BartlettWindow", True)
    if n <= 1:
        return _window(np.ones((n,)), dtype, mstype.float32)
    denom = n if periodic else n - 1
    return _window(1 - np.abs(2 * np.arange(n) / denom - 1), dtype, mstype.float32)


def blackman_window(window_length: Any, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """The Blackman window of ``window_length`` (an integer Tensor) points."""
    n = _length(window_length, "BlackmanWindow", True)
    return _window(_cosine_window(n, periodic, (0.42, 0.5, 0.08)), dtype, mstype.float32)


def hann_window(window_length: int, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """The Hann window of ``window_length`` points (Float64 unless ``dtype`` says otherwise, as MindSpore's)."""
    n = _length(window_length, "hann_window", False)
    return _window(_cosine_window(n, periodic, (0.5, 0.5)), dtype, mstype.float64)


def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *, dtype: Any = None) -> Tensor:
    """The Kaiser window of ``window_length`` points with shape parameter ``beta`` (Float64 by default)."""
    n = _length(window_length, "kaiser_window", False)
    if n <= 1:
        return _window(np.ones((n,)), dtype, mstype.float64)
    m = n + 1 if periodic else n
    values = np.kaiser(m, beta)[:n]
    return _window(values, dtype, mstype.float64)


# ----------------------------------------------------------------------- fft
def _complex_input(input: Any) -> Any:
    a = as_tensor_array(input)
    if jnp.issubdtype(a.dtype, jnp.complexfloating):
        return a
    return a.astype(jnp.complex128 if a.dtype == jnp.float64 else jnp.complex64)


NORMS = (None, "backward", "forward", "ortho")  # the FFTs' 'norm' choices
NORMS_TEXT = "'backward', 'forward', 'ortho' or None"


def fft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:
    """The 1-D discrete Fourier transform along ``dim`` (cropped or zero-padded to ``n``)."""
    validator.check_one_of(norm, NORMS, "norm", "fft", NORMS_TEXT)
    return wrap(jnp.fft.fft(_complex_input(input), n=n, axis=dim, norm=norm))


def ifft(input: Any, n: Any = None, dim: int = -1, norm: Any = None) -> Tensor:
    """The inverse of :func:`fft`."""
    validator.check_one_of(norm, NORMS, "norm", "ifft", NORMS_TEXT)
    return wrap(jnp.fft.ifft(_complex_input(input), n=n, axis=dim, norm=norm))


def fft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Any = None) -> Tensor:
    """The 2-D discrete Fourier transform over ``dim``."""
    validator.check_one_of(norm, NORMS, "norm", "fft2", NORMS_TEXT)
    return wrap(jnp.fft.fft2(_complex_input(input), s=s, axes=tuple(dim), norm=norm))


def ifft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Any = None) -> Tensor:
    """The inverse of :func:`fft2`."""
    validator.check_one_of(norm, NORMS, "norm", "ifft2", NORMS_TEXT)
    return wrap(jnp.fft.ifft2(_complex_input(input), s=s, axes=tuple(dim), norm=norm))


def fftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:
    """The n-D discrete Fourier transform over ``dim`` (every axis, or the last ``len(s)``, when None)."""
    axes = None if dim is None else tuple(dim)
    validator.check_one_of(norm, NORMS, "norm", "fftn", NORMS_TEXT)
    return wrap(jnp.fft.fftn(_complex_input(input), s=s, axes=axes, norm=norm))


def ifftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None) -> Tensor:
    """The inverse of :func:`fftn`."""
    axes = None if dim is None else tuple(dim)
    validator.check_one_of(norm, NORMS, "norm", "ifftn", NORMS_TEXT)
    return wrap(jnp.fft.ifftn(_complex_input(input), s=s, axes=axes, norm=norm))


def stft(
    x: Any,
    n_fft: int,
    hop_length: Any = None,
    win_length: Any = None,
    window: Any = None,
    center: bool = True,
    pad_mode: str = "REFLECT",
    normalized: bool = False,
    onesided: Any = None,
    return_complex: Any = None,
) -> Tensor:
    """The short-time Fourier transform of 1-D signals (or a batch of them): ``(..., freq, frames)``, complex
    with ``return_complex``, else real and imaginary parts on a last axis of size 2.

    Frames of ``n_fft`` samples every ``hop_length`` (``n_fft // 4``) samples, multiplied by ``window``
    (ones of ``win_length``, default ``n_fft``, centered in ``n_fft``); with ``center`` the signal is first
    padded by ``n_fft // 2`` on both sides (``pad_mode`` ``'REFLECT'`` or ``'CONSTANT'``); ``normalized``
    scales by ``n_fft ** -0.5``; ``onesided`` (default for real input) keeps ``n_fft // 2 + 1`` frequencies.
    """
    a = as_tensor_array(x)
    if a.ndim not in (1, 2):
        raise ValueError(f"For 'stft', the 'x' must be a 1-D or 2-D Tensor, but got {a.ndim}-D.")
    hop = n_fft // 4 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)
    if not 0 < win <= n_fft:
        raise ValueError(f"For 'stft', the 'win_length' must be in (0, n_fft], but got {win}.")
    w = jnp.ones((win,), a.dtype if jnp.issubdtype(a.dtype, jnp.inexact) else jnp.float32)
    if window is not None:
        w = as_tensor_array(window)
        if w.shape != (win,):
            raise ValueError(f"For 'stft', the 'window' must have shape ({win},), but got {tuple(w.shape)}.")
    left = (n_fft - win) // 2
    w = jnp.pad(w, (left, n_fft - win - left))
    if center:
        mode = pad_mode.lower()
        if mode not in ("reflect", "constant"):
            raise ValueError(f"For 'stft', the 'pad_mode' must be 'REFLECT' or 'CONSTANT', but got '{pad_mode}'.")
        a = jnp.pad(a, [(0, 0)] * (a.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode=mode)
    frames = 1 + (a.shape[-1] - n_fft) // hop
    if frames < 1:
        raise ValueError(f"For 'stft', the input is shorter than 'n_fft' ({n_fft}).")
    idx = np.arange(n_fft)[None, :] + hop * np.arange(frames)[:, None]
    seg = a[..., idx] * w  # (..., frames, n_fft)
    complex_in = jnp.issubdtype(a.dtype, jnp.complexfloating) or jnp.issubdtype(w.dtype, jnp.complexfloating)
    one = (not complex_in) if onesided is None else bool(onesided)
    spec = jnp.fft.rfft(seg, axis=-1) if one and not complex_in else jnp.fft.fft(seg, axis=-1)
    if one and complex_in:
        spec = spec[..., : n_fft // 2 + 1]
    if normalized:
        spec = spec * (n_fft**-0.5)
    spec = jnp.swapaxes(spec, -1, -2)
    if not jnp.issubdtype(a.dtype, jnp.float64) and not jnp.issubdtype(a.dtype, jnp.complex128):
        spec = spec.astype(jnp.complex64)
    rc = complex_in if return_complex is None else bool(return_complex)
    return wrap(spec if rc else jnp.stack([jnp.real(spec), jnp.imag(spec)], axis=-1))
