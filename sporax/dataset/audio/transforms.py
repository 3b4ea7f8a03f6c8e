"""``mindspore.dataset.audio`` transforms on NumPy waveforms ``(..., time)`` and spectrograms
``(..., freq, time)``, with torchaudio's formulas (which MindSpore's kernels follow)."""

from __future__ import annotations

import math

import numpy as np

from ..._checkparam import check_pipeline_int, check_pipeline_range
from ..transforms.transforms import TensorOperation
from .utils import (
    BorderType,
    FadeShape,
    GainType,
    MelType,
    NormMode,
    NormType,
    ScaleType,
    WindowType,
    create_dct,
    linear_fbanks,
    melscale_fbanks,
)  # fmt: skip

__all__ = [
    "Spectrogram", "InverseSpectrogram", "MelScale", "InverseMelScale", "MelSpectrogram", "MFCC", "LFCC",
    "AmplitudeToDB", "DBToAmplitude", "ComplexNorm", "Angle", "Magphase", "MuLawEncoding", "MuLawDecoding",
    "Gain", "Vol", "DCShift", "Fade", "Biquad", "AllpassBiquad", "BandBiquad", "BandpassBiquad",
    "BandrejectBiquad", "BassBiquad", "TrebleBiquad", "EqualizerBiquad", "HighpassBiquad", "LowpassBiquad",
    "DeemphBiquad", "RiaaBiquad", "LFilter", "Filtfilt", "ComputeDeltas", "Contrast", "Overdrive",
]  # fmt: skip

_PAD = {BorderType.CONSTANT: "constant", BorderType.EDGE: "edge", BorderType.REFLECT: "reflect",
        BorderType.SYMMETRIC: "symmetric"}  # fmt: skip


def _window(kind, n):
    kind = WindowType(kind)
    if n == 1:
        return np.ones(1)
    k = np.arange(n)
    if kind == WindowType.HANN:
        return 0.5 - 0.5 * np.cos(2 * math.pi * k / n)
    if kind == WindowType.HAMMING:
        return 0.54 - 0.46 * np.cos(2 * math.pi * k / n)
    if kind == WindowType.BLACKMAN:
        return 0.42 - 0.5 * np.cos(2 * math.pi * k / n) + 0.08 * np.cos(4 * math.pi * k / n)
    if kind == WindowType.BARTLETT:
        return 1 - np.abs(2 * k / n - 1)
    return np.kaiser(n + 1, 12.0)[:-1]


def _stft(x, n_fft, hop, win, window, center, pad_mode, onesided=True):
    w = np.zeros(n_fft)
    left = (n_fft - win) // 2
    w[left : left + win] = _window(window, win)
    if center:
        pad = [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)]
        x = np.pad(x, pad, mode=_PAD[BorderType(pad_mode)])
    n_frames = 1 + (x.shape[-1] - n_fft) // hop
    idx = np.arange(n_fft)[None, :] + hop * np.arange(n_frames)[:, None]
    frames = x[..., idx] * w
    spec = np.fft.rfft(frames, axis=-1) if onesided else np.fft.fft(frames, axis=-1)
    return np.swapaxes(spec, -1, -2), w


def _spectrogram(x, pad, window, n_fft, hop, win, power, normalized, center, pad_mode, onesided):
    x = np.asarray(x, np.float64)
    if pad > 0:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(pad, pad)])
    spec, w = _stft(x, n_fft, hop, win, window, center, pad_mode, onesided)
    if normalized:
        spec = spec / math.sqrt((w**2).sum())
    if power is None:
        return np.stack([spec.real, spec.imag], -1).astype(np.float32)
    return (np.abs(spec) ** power).astype(np.float32)


class Spectrogram(TensorOperation):
    """``|STFT(waveform)| ** power`` (a complex ``[..., 2]`` array when ``power`` is ``None``)."""

    def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN, power=2.0,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True) -> None:  # fmt: skip
        self.n_fft = check_pipeline_int(n_fft, "n_fft", 1, 2**31 - 1)
        self.win_length = n_fft if win_length is None else check_pipeline_int(win_length, "win_length", 1, n_fft)
        self.hop_length = (
            self.win_length // 2 if hop_length is None else check_pipeline_int(hop_length, "hop_length", 1, 2**31 - 1)
        )
        self.pad = check_pipeline_int(pad, "pad", 0, 2**31 - 1)
        self.window, self.power = WindowType(window), power
        self.normalized, self.center, self.pad_mode, self.onesided = normalized, center, BorderType(pad_mode), onesided

    def _apply(self, x):
        return _spectrogram(x, self.pad, self.window, self.n_fft, self.hop_length, self.win_length, self.power,
                            self.normalized, self.center, self.pad_mode, self.onesided)  # fmt: skip


class InverseSpectrogram(TensorOperation):
    """Inverse STFT of a complex ``[..., freq, time, 2]`` spectrogram (overlap-add with window normalization)."""

    def __init__(self, length=None, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True) -> None:  # fmt: skip
        self.length, self.n_fft = length, n_fft
        self.win_length = n_fft if win_length is None else win_length
        self.hop_length = self.win_length // 2 if hop_length is None else hop_length
        self.pad, self.window, self.normalized = pad, WindowType(window), normalized
        self.center, self.pad_mode, self.onesided = center, BorderType(pad_mode), onesided

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        spec = a[..., 0] + 1j * a[..., 1]
        w = np.zeros(self.n_fft)
        left = (self.n_fft - self.win_length) // 2
        w[left : left + self.win_length] = _window(self.window, self.win_length)
        if self.normalized:
            spec = spec * math.sqrt((w**2).sum())
        frames = np.fft.irfft(np.swapaxes(spec, -1, -2), n=self.n_fft, axis=-1) * w
        n_frames, hop = frames.shape[-2], self.hop_length
        total = self.n_fft + hop * (n_frames - 1)
        out = np.zeros(frames.shape[:-2] + (total,))
        norm = np.zeros(total)
        for t in range(n_frames):
            out[..., t * hop : t * hop + self.n_fft] += frames[..., t, :]
            norm[t * hop : t * hop + self.n_fft] += w**2
        out = out / np.where(norm > 1e-11, norm, 1.0)
        start = self.n_fft // 2 if self.center else 0
        out = out[..., start:]
        if self.length is not None:
            out = out[..., : self.length]
            if out.shape[-1] < self.length:
                out = np.pad(out, [(0, 0)] * (out.ndim - 1) + [(0, self.length - out.shape[-1])])
        elif self.center:
            out = out[..., : total - self.n_fft]
        if self.pad:
            out = out[..., self.pad : out.shape[-1] - self.pad]
        return out.astype(np.float32)


def _apply_fb(spec, fb):
    return np.swapaxes(np.swapaxes(np.asarray(spec, np.float64), -1, -2) @ fb.astype(np.float64), -1, -2).astype(
        np.float32
    )


class MelScale(TensorOperation):
    """A spectrogram ``(..., n_stft, time)`` on mel filters ``(..., n_mels, time)``."""

    def __init__(self, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, n_stft=201, norm=NormType.NONE,
                 mel_type=MelType.HTK) -> None:  # fmt: skip
        self.n_mels, self.sample_rate, self.f_min = n_mels, sample_rate, f_min
        self.f_max = float(sample_rate // 2) if f_max is None else f_max
        self.n_stft, self.norm, self.mel_type = n_stft, NormType(norm), MelType(mel_type)
        self._fb = melscale_fbanks(n_stft, f_min, self.f_max, n_mels, sample_rate, self.norm, self.mel_type)

    def _apply(self, x):
        return _apply_fb(x, self._fb)


class InverseMelScale(MelScale):
    """A linear-frequency spectrogram from a mel one, by non-negative least squares on the filter bank."""

    def __init__(self, n_stft, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, max_iter=100000,
                 tolerance_loss=1e-5, tolerance_change=1e-8, sgdargs=None, norm=NormType.NONE, mel_type=MelType.HTK) -> None:  # fmt: skip
        super().__init__(n_mels, sample_rate, f_min, f_max, n_stft, norm, mel_type)
        self.max_iter, self.tolerance_loss, self.tolerance_change, self.sgdargs = (
            max_iter,
            tolerance_loss,
            tolerance_change,
            sgdargs,
        )

    def _apply(self, x):
        mel = np.asarray(x, np.float64)
        pinv = np.linalg.pinv(self._fb.T.astype(np.float64))
        return np.maximum(0.0, np.swapaxes(np.swapaxes(mel, -1, -2) @ pinv.T, -1, -2)).astype(np.float32)


def _spec_kwargs(kw, **defaults):
    d = dict(n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN, power=2.0, normalized=False,
             center=True, pad_mode=BorderType.REFLECT, onesided=True)  # fmt: skip
    d.update(defaults)
    d.update(kw or {})
    return d


class MelSpectrogram(TensorOperation):
    """:class:`Spectrogram` then :class:`MelScale`."""

    def __init__(self, sample_rate=16000, n_fft=400, win_length=None, hop_length=None, f_min=0.0, f_max=None, pad=0,
                 n_mels=128, window=WindowType.HANN, power=2.0, normalized=False, center=True,
                 pad_mode=BorderType.REFLECT, onesided=True, norm=NormType.NONE, mel_scale=MelType.HTK) -> None:  # fmt: skip
        self.sample_rate, self.n_fft, self.win_length, self.hop_length = sample_rate, n_fft, win_length, hop_length
        self.f_min, self.f_max, self.pad, self.n_mels, self.window, self.power = (
            f_min,
            f_max,
            pad,
            n_mels,
            window,
            power,
        )
        self.normalized, self.center, self.pad_mode, self.onesided = normalized, center, pad_mode, onesided
        self.norm, self.mel_scale = NormType(norm), MelType(mel_scale)
        self._spec = Spectrogram(
            n_fft, win_length, hop_length, pad, window, power, normalized, center, pad_mode, onesided
        )
        self._mel = MelScale(n_mels, sample_rate, f_min, f_max, n_fft // 2 + 1, norm, mel_scale)

    def _apply(self, x):
        return self._mel._apply(self._spec._apply(x))


def _to_db(x, multiplier, amin, db_multiplier, top_db):
    x_db = multiplier * np.log10(np.maximum(np.asarray(x, np.float64), amin)) - multiplier * db_multiplier
    if top_db is not None:
        shape = x_db.shape
        packed = shape[-3] if x_db.ndim > 2 else 1
        r = x_db.reshape(-1, packed, shape[-2], shape[-1])
        r = np.maximum(r, (r.max(axis=(-3, -2, -1)) - top_db)[:, None, None, None])
        x_db = r.reshape(shape)
    return x_db.astype(np.float32)


class AmplitudeToDB(TensorOperation):
    """Power (``10 log10``) or magnitude (``20 log10``) to decibels, floored ``top_db`` below the maximum."""

    def __init__(self, stype=ScaleType.POWER, ref_value=1.0, amin=1e-10, top_db=80.0) -> None:
        self.stype = ScaleType(stype)
        if ref_value <= 0 or amin <= 0:
            raise ValueError("ref_value and amin must be greater than 0.")
        if top_db is not None and top_db <= 0:
            raise ValueError("Input top_db is not within the required interval of (0, 16777216].")
        self.ref_value, self.amin, self.top_db = ref_value, amin, top_db

    def _apply(self, x):
        mult = 10.0 if self.stype == ScaleType.POWER else 20.0
        return _to_db(x, mult, self.amin, math.log10(max(self.amin, self.ref_value)), self.top_db)


class DBToAmplitude(TensorOperation):
    """``ref * (10 ** (0.1 * x)) ** power``."""

    def __init__(self, ref, power) -> None:
        self.ref, self.power = ref, power

    def _apply(self, x):
        return (self.ref * np.power(np.power(10.0, 0.1 * np.asarray(x, np.float64)), self.power)).astype(np.float32)


class MFCC(TensorOperation):
    """Mel-frequency cepstral coefficients: DCT of the (log or dB) mel spectrogram."""

    def __init__(
        self, sample_rate=16000, n_mfcc=40, dct_type=2, norm=NormMode.ORTHO, log_mels=False, melkwargs=None
    ) -> None:
        if dct_type != 2:
            raise ValueError("MFCC: only dct_type 2 is supported.")
        self.sample_rate, self.n_mfcc, self.dct_type, self.norm, self.log_mels = (
            sample_rate,
            n_mfcc,
            dct_type,
            NormMode(norm),
            log_mels,
        )
        kw = _spec_kwargs(melkwargs, f_min=0.0, f_max=None, n_mels=128, norm=NormType.NONE, mel_scale=MelType.HTK)
        self.melkwargs = kw
        self._mel = MelSpectrogram(sample_rate=sample_rate, **kw)
        if n_mfcc > kw["n_mels"]:
            raise ValueError("n_mfcc cannot be larger than n_mels.")
        self._dct = create_dct(n_mfcc, kw["n_mels"], self.norm)

    def _apply(self, x):
        mel = self._mel._apply(x)
        mel = np.log(mel.astype(np.float64) + 1e-6) if self.log_mels else _to_db(mel, 10.0, 1e-10, 0.0, 80.0)
        return _apply_fb(mel, self._dct)


class LFCC(TensorOperation):
    """Linear-frequency cepstral coefficients: DCT of the (log or dB) linear-filter-bank spectrogram."""

    def __init__(self, sample_rate=16000, n_filter=128, n_lfcc=40, f_min=0.0, f_max=None, dct_type=2,
                 norm=NormMode.ORTHO, log_lf=False, speckwargs=None) -> None:  # fmt: skip
        self.sample_rate, self.n_filter, self.n_lfcc, self.f_min = sample_rate, n_filter, n_lfcc, f_min
        self.f_max = float(sample_rate // 2) if f_max is None else f_max
        self.dct_type, self.norm, self.log_lf = dct_type, NormMode(norm), log_lf
        self.speckwargs = _spec_kwargs(speckwargs)
        self._spec = Spectrogram(**self.speckwargs)
        self._fb = linear_fbanks(self.speckwargs["n_fft"] // 2 + 1, f_min, self.f_max, n_filter, sample_rate)
        self._dct = create_dct(n_lfcc, n_filter, self.norm)

    def _apply(self, x):
        lf = _apply_fb(self._spec._apply(x), self._fb)
        lf = np.log(lf.astype(np.float64) + 1e-6) if self.log_lf else _to_db(lf, 10.0, 1e-10, 0.0, 80.0)
        return _apply_fb(lf, self._dct)


def _complex(x, name):
    a = np.asarray(x, np.float64)
    if a.shape[-1] != 2:
        raise RuntimeError(f"{name}: the shape of input tensor does not match the requirement of operator. "
                           f"Expecting tensor in shape of <..., complex=2>. But got tensor with shape: {list(a.shape)}.")  # fmt: skip
    return a


class ComplexNorm(TensorOperation):
    """``|z| ** power`` of a complex ``[..., 2]`` array."""

    def __init__(self, power=1.0) -> None:
        self.power = power

    def _apply(self, x):
        a = _complex(x, "ComplexNorm")
        return np.power(a[..., 0] ** 2 + a[..., 1] ** 2, 0.5 * self.power).astype(np.float32)


class Angle(TensorOperation):
    """The angle of a complex ``[..., 2]`` array."""

    def _apply(self, x):
        a = _complex(x, "Angle")
        return np.arctan2(a[..., 1], a[..., 0]).astype(np.float32)


class Magphase(TensorOperation):
    """(``|z| ** power``, angle) of a complex ``[..., 2]`` array."""

    def __init__(self, power=1.0) -> None:
        self.power = power

    def __call__(self, *args):
        return ComplexNorm(self.power)(*args), Angle()(*args)


class MuLawEncoding(TensorOperation):
    """mu-law companding of a waveform in [-1, 1] to ``quantization_channels`` levels (int32)."""

    def __init__(self, quantization_channels=256) -> None:
        self.quantization_channels = check_pipeline_int(quantization_channels, "quantization_channels", 1, 2**31 - 1)

    def _apply(self, x):
        mu = self.quantization_channels - 1.0
        a = np.asarray(x, np.float64)
        x_mu = np.sign(a) * np.log1p(mu * np.abs(a)) / math.log1p(mu)
        return ((x_mu + 1) / 2 * mu + 0.5).astype(np.int32)


class MuLawDecoding(MuLawEncoding):
    """The inverse of :class:`MuLawEncoding` (float32)."""

    def _apply(self, x):
        mu = self.quantization_channels - 1.0
        a = np.asarray(x, np.float64) / mu * 2 - 1.0
        return (np.sign(a) * (np.exp(np.abs(a) * math.log1p(mu)) - 1.0) / mu).astype(np.float32)


def _out(x, like):
    return x.astype(np.asarray(like).dtype if np.asarray(like).dtype.kind == "f" else np.float32)


class Gain(TensorOperation):
    """Amplify by ``gain_db`` decibels."""

    def __init__(self, gain_db=1.0) -> None:
        self.gain_db = gain_db

    def _apply(self, x):
        return _out(np.asarray(x, np.float64) * 10 ** (self.gain_db / 20.0), x)


class Vol(TensorOperation):
    """Scale by ``gain`` (an amplitude ratio, a power ratio or decibels) and clamp to [-1, 1]."""

    def __init__(self, gain, gain_type=GainType.AMPLITUDE) -> None:
        self.gain_type = GainType(gain_type)
        if self.gain_type != GainType.DB and gain < 0:
            raise ValueError("Input gain is not within the required interval of [0, 16777216].")
        self.gain = gain

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        if self.gain_type == GainType.AMPLITUDE:
            a = a * self.gain
        else:
            db = self.gain if self.gain_type == GainType.DB else 10 * math.log10(self.gain)
            a = a * 10 ** (db / 20.0)
        return _out(np.clip(a, -1, 1), x)


class DCShift(TensorOperation):
    """Add ``shift``, with an optional limiter (``limiter_gain``) near the clipping point."""

    def __init__(self, shift, limiter_gain=None) -> None:
        if not -2.0 <= shift <= 2.0:
            raise ValueError("Input shift is not within the required interval of [-2.0, 2.0].")
        self.shift, self.limiter_gain = shift, limiter_gain

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        s, g = self.shift, self.limiter_gain
        if g is None or s == 0:
            return _out(np.clip(a + s, -1, 1), x)
        t = 1.0 - (abs(s) - g)
        out = np.clip(a + s, -1, 1)
        if s > 0:
            m = a > t
            out[m] = np.minimum((a[m] - t) * g / (1 - t) + t + s, t)
        else:
            m = a < -t
            out[m] = np.maximum((a[m] + t) * g / (1 - t) - t + s, -t)
        return _out(out, x)


class Fade(TensorOperation):
    """Fade in over the first ``fade_in_len`` samples and out over the last ``fade_out_len``."""

    def __init__(self, fade_in_len=0, fade_out_len=0, fade_shape=FadeShape.LINEAR) -> None:
        self.fade_in_len = check_pipeline_int(fade_in_len, "fade_in_len", 0, 2**31 - 1)
        self.fade_out_len = check_pipeline_int(fade_out_len, "fade_out_len", 0, 2**31 - 1)
        self.fade_shape = FadeShape(fade_shape)

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        n = a.shape[-1]
        if self.fade_in_len > n or self.fade_out_len > n:
            raise RuntimeError("Fade: fade_in_len and fade_out_len should not be greater than the waveform length.")
        fi = np.linspace(0, 1, self.fade_in_len)
        fo = np.linspace(0, 1, self.fade_out_len)
        sh = self.fade_shape
        if sh == FadeShape.LINEAR:
            fi, fo = fi, 1 - fo
        elif sh == FadeShape.EXPONENTIAL:
            fi, fo = fi * 2 ** (fi - 1), (1 - fo) * 2 ** (-fo)  # MindSpore's exponential curves
        elif sh == FadeShape.LOGARITHMIC:
            fi, fo = np.log10(0.1 + fi) + 1, np.log10(1.1 - fo) + 1
        elif sh == FadeShape.QUARTER_SINE:
            fi, fo = np.sin(fi * math.pi / 2), np.sin(fo * math.pi / 2 + math.pi / 2)
        else:
            fi, fo = np.sin(fi * math.pi - math.pi / 2) / 2 + 0.5, np.sin(fo * math.pi + math.pi / 2) / 2 + 0.5
        env = np.ones(n)
        env[: self.fade_in_len] *= fi
        if self.fade_out_len:
            env[n - self.fade_out_len :] *= fo
        return _out(a * env, x)


def lfilter(x, a_coeffs, b_coeffs, clamp=True):
    """IIR filter ``a[0] y[n] = sum b[k] x[n-k] - sum_{k>=1} a[k] y[n-k]`` along the last axis."""
    a = np.asarray(a_coeffs, np.float64)
    b = np.asarray(b_coeffs, np.float64)
    xs = np.asarray(x, np.float64)
    b, a = b / a[0], a / a[0]
    try:
        from scipy.signal import lfilter as _lf

        y = _lf(b, a, xs, axis=-1)
    except ImportError:  # pragma: no cover
        flat = xs.reshape(-1, xs.shape[-1])
        y = np.zeros_like(flat)
        for n in range(flat.shape[1]):
            acc = sum(b[k] * flat[:, n - k] for k in range(len(b)) if n - k >= 0)
            acc = acc - sum(a[k] * y[:, n - k] for k in range(1, len(a)) if n - k >= 0)
            y[:, n] = acc
        y = y.reshape(xs.shape)
    return np.clip(y, -1, 1) if clamp else y


class Biquad(TensorOperation):
    """A second-order IIR filter with the given coefficients."""

    def __init__(self, b0, b1, b2, a0, a1, a2) -> None:
        if a0 == 0:
            raise ValueError("Input a0 can not be 0.")
        self.b0, self.b1, self.b2, self.a0, self.a1, self.a2 = b0, b1, b2, a0, a1, a2

    def _coeffs(self):
        return [self.b0, self.b1, self.b2], [self.a0, self.a1, self.a2]

    def _apply(self, x):
        b, a = self._coeffs()
        return _out(lfilter(x, a, b), x)


def _w0_alpha(sr, f, q):
    w0 = 2 * math.pi * f / sr
    return w0, math.sin(w0) / 2 / q


class AllpassBiquad(Biquad):
    """Two-pole all-pass filter."""

    def __init__(self, sample_rate, central_freq, Q=0.707) -> None:  # noqa: N803
        if sample_rate == 0:
            raise ValueError("Input sample_rate can not be 0.")
        self.sample_rate, self.central_freq, self.Q = (
            sample_rate,
            central_freq,
            check_pipeline_range(Q, "Q", 0, 1, left_open=True),
        )

    def _coeffs(self):
        w0, al = _w0_alpha(self.sample_rate, self.central_freq, self.Q)
        c = math.cos(w0)
        return [1 - al, -2 * c, 1 + al], [1 + al, -2 * c, 1 - al]


class BandBiquad(AllpassBiquad):
    """Two-pole band filter (``noise``: for unpitched audio)."""

    def __init__(self, sample_rate, central_freq, Q=0.707, noise=False) -> None:  # noqa: N803
        super().__init__(sample_rate, central_freq, Q)
        self.noise = noise

    def _coeffs(self):
        w0 = 2 * math.pi * self.central_freq / self.sample_rate
        bw = self.central_freq / self.Q
        a2 = math.exp(-2 * math.pi * bw / self.sample_rate)
        a1 = -4 * a2 / (1 + a2) * math.cos(w0)
        b0 = math.sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2)
        if self.noise:
            b0 *= math.sqrt(((1 + a2) * (1 + a2) - a1 * a1) * (1 - a2) / (1 + a2)) / b0
        return [b0, 0.0, 0.0], [1.0, a1, a2]


class BandpassBiquad(AllpassBiquad):
    """Two-pole band-pass filter (``const_skirt_gain``: constant skirt gain, else constant 0 dB peak)."""

    def __init__(self, sample_rate, central_freq, Q=0.707, const_skirt_gain=False) -> None:  # noqa: N803
        super().__init__(sample_rate, central_freq, Q)
        self.const_skirt_gain = const_skirt_gain

    def _coeffs(self):
        w0, al = _w0_alpha(self.sample_rate, self.central_freq, self.Q)
        t = math.sin(w0) / 2 if self.const_skirt_gain else al
        return [t, 0.0, -t], [1 + al, -2 * math.cos(w0), 1 - al]


class BandrejectBiquad(AllpassBiquad):
    """Two-pole band-reject filter."""

    def _coeffs(self):
        w0, al = _w0_alpha(self.sample_rate, self.central_freq, self.Q)
        c = math.cos(w0)
        return [1.0, -2 * c, 1.0], [1 + al, -2 * c, 1 - al]


def _shelf(sr, gain, f, q, treble):
    w0, al = _w0_alpha(sr, f, q)
    A = math.exp(gain / 40 * math.log(10))  # noqa: N806
    t1, t2, t3 = 2 * math.sqrt(A) * al, (A - 1) * math.cos(w0), (A + 1) * math.cos(w0)
    if treble:
        return ([A * ((A + 1) + t2 + t1), -2 * A * ((A - 1) + t3), A * ((A + 1) + t2 - t1)],
                [(A + 1) - t2 + t1, 2 * ((A - 1) - t3), (A + 1) - t2 - t1])  # fmt: skip
    return ([A * ((A + 1) - t2 + t1), 2 * A * ((A - 1) - t3), A * ((A + 1) - t2 - t1)],
            [(A + 1) + t2 + t1, -2 * ((A - 1) + t3), (A + 1) + t2 - t1])  # fmt: skip


class BassBiquad(Biquad):
    """Bass tone control (low shelf) by ``gain`` dB."""

    def __init__(self, sample_rate, gain, central_freq=100.0, Q=0.707) -> None:  # noqa: N803
        self.sample_rate, self.gain, self.central_freq, self.Q = (
            sample_rate,
            gain,
            central_freq,
            check_pipeline_range(Q, "Q", 0, 1, left_open=True),
        )

    def _coeffs(self):
        return _shelf(self.sample_rate, self.gain, self.central_freq, self.Q, False)


class TrebleBiquad(BassBiquad):
    """Treble tone control (high shelf) by ``gain`` dB."""

    def __init__(self, sample_rate, gain, central_freq=3000, Q=0.707) -> None:  # noqa: N803
        super().__init__(sample_rate, gain, central_freq, Q)

    def _coeffs(self):
        return _shelf(self.sample_rate, self.gain, self.central_freq, self.Q, True)


class EqualizerBiquad(Biquad):
    """Peaking equalizer by ``gain`` dB at ``center_freq``."""

    def __init__(self, sample_rate, center_freq, gain, Q=0.707) -> None:  # noqa: N803
        self.sample_rate, self.center_freq, self.gain, self.Q = (
            sample_rate,
            center_freq,
            gain,
            check_pipeline_range(Q, "Q", 0, 1, left_open=True),
        )

    def _coeffs(self):
        w0, al = _w0_alpha(self.sample_rate, self.center_freq, self.Q)
        A = math.exp(self.gain / 40.0 * math.log(10))  # noqa: N806
        c = math.cos(w0)
        return [1 + al * A, -2 * c, 1 - al * A], [1 + al / A, -2 * c, 1 - al / A]


class HighpassBiquad(Biquad):
    """Two-pole high-pass filter."""

    def __init__(self, sample_rate, cutoff_freq, Q=0.707) -> None:  # noqa: N803
        self.sample_rate, self.cutoff_freq, self.Q = (
            sample_rate,
            cutoff_freq,
            check_pipeline_range(Q, "Q", 0, 1, left_open=True),
        )

    def _coeffs(self):
        w0, al = _w0_alpha(self.sample_rate, self.cutoff_freq, self.Q)
        c = math.cos(w0)
        return [(1 + c) / 2, -1 - c, (1 + c) / 2], [1 + al, -2 * c, 1 - al]


class LowpassBiquad(HighpassBiquad):
    """Two-pole low-pass filter."""

    def _coeffs(self):
        w0, al = _w0_alpha(self.sample_rate, self.cutoff_freq, self.Q)
        c = math.cos(w0)
        return [(1 - c) / 2, 1 - c, (1 - c) / 2], [1 + al, -2 * c, 1 - al]


class DeemphBiquad(Biquad):
    """ISO 908 CD de-emphasis (44.1 or 48 kHz)."""

    def __init__(self, sample_rate) -> None:
        if sample_rate not in (44100, 48000):
            raise ValueError(f"Input sample_rate should be 44100 or 48000, but got {sample_rate}.")
        self.sample_rate = sample_rate

    def _coeffs(self):
        cf, ws, gain = (5283, 0.4845, -9.477) if self.sample_rate == 44100 else (5356, 0.479, -9.62)
        w0 = 2 * math.pi * cf / self.sample_rate
        A = math.exp(gain / 40.0 * math.log(10))  # noqa: N806
        al = math.sin(w0) / 2 * math.sqrt((A + 1 / A) * (1 / ws - 1) + 2)
        t1, t2, t3 = 2 * math.sqrt(A) * al, (A - 1) * math.cos(w0), (A + 1) * math.cos(w0)
        return ([A * ((A + 1) + t2 + t1), -2 * A * ((A - 1) + t3), A * ((A + 1) + t2 - t1)],
                [(A + 1) - t2 + t1, 2 * ((A - 1) - t3), (A + 1) - t2 - t1])  # fmt: skip


_RIAA = {44100: ([-0.2014898, 0.9233820], [0.7083149, 0.9924091]), 48000: ([-0.1766069, 0.9321590], [0.7396325, 0.9931330]),
         88200: ([-0.1168735, 0.9648312], [0.8590646, 0.9964002]), 96000: ([-0.1141486, 0.9676817], [0.8699137, 0.9966946])}  # fmt: skip


class RiaaBiquad(DeemphBiquad):
    """RIAA vinyl playback equalization (44.1, 48, 88.2 or 96 kHz)."""

    def __init__(self, sample_rate) -> None:
        if sample_rate not in _RIAA:
            raise ValueError(f"Input sample_rate should be one of [44100, 48000, 88200, 96000], but got {sample_rate}.")
        self.sample_rate = sample_rate

    def _coeffs(self):
        z, p = _RIAA[self.sample_rate]
        b = [1.0, -(z[0] + z[1]), z[0] * z[1]]
        a = [1.0, -(p[0] + p[1]), p[0] * p[1]]
        y = 2 * math.pi * 1000 / self.sample_rate
        b_re = b[0] + b[1] * math.cos(-y) + b[2] * math.cos(-2 * y)
        a_re = a[0] + a[1] * math.cos(-y) + a[2] * math.cos(-2 * y)
        b_im = b[1] * math.sin(-y) + b[2] * math.sin(-2 * y)
        a_im = a[1] * math.sin(-y) + a[2] * math.sin(-2 * y)
        g = 1 / math.sqrt((b_re**2 + b_im**2) / (a_re**2 + a_im**2))
        return [v * g for v in b], a


class LFilter(TensorOperation):
    """IIR filter with ``a_coeffs`` (denominator) and ``b_coeffs`` (numerator), clamped to [-1, 1] if ``clamp``."""

    def __init__(self, a_coeffs, b_coeffs, clamp=True) -> None:
        if len(a_coeffs) != len(b_coeffs):
            raise ValueError("The size of a_coeffs and b_coeffs should be the same.")
        self.a_coeffs, self.b_coeffs, self.clamp = list(a_coeffs), list(b_coeffs), clamp

    def _apply(self, x):
        return _out(lfilter(x, self.a_coeffs, self.b_coeffs, self.clamp), x)


class Filtfilt(LFilter):
    """Zero-phase filtering: :class:`LFilter` forwards, then backwards."""

    def _apply(self, x):
        fwd = lfilter(x, self.a_coeffs, self.b_coeffs, False)
        back = lfilter(fwd[..., ::-1], self.a_coeffs, self.b_coeffs, self.clamp)[..., ::-1]
        return _out(np.ascontiguousarray(back), x)


class ComputeDeltas(TensorOperation):
    """Delta coefficients along time: ``sum_k k (x[t+k] - x[t-k]) / (2 sum k^2)`` over ``win_length``."""

    def __init__(self, win_length=5, pad_mode=BorderType.EDGE) -> None:
        self.win_length = check_pipeline_int(win_length, "win_length", 3, 2**31 - 1)
        self.pad_mode = BorderType(pad_mode)

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        n = (self.win_length - 1) // 2
        denom = n * (n + 1) * (2 * n + 1) / 3
        p = np.pad(a, [(0, 0)] * (a.ndim - 1) + [(n, n)], mode=_PAD[self.pad_mode])
        t = a.shape[-1]
        out = sum(k * p[..., n + k : n + k + t] for k in range(-n, n + 1)) / denom
        return out.astype(np.float32)


class Contrast(TensorOperation):
    """SoX's contrast effect (``enhancement_amount`` in [0, 100])."""

    def __init__(self, enhancement_amount=75.0) -> None:
        if not 0 <= enhancement_amount <= 100:
            raise ValueError("Input enhancement_amount is not within the required interval of [0, 100].")
        self.enhancement_amount = enhancement_amount

    def _apply(self, x):
        a = np.asarray(x, np.float64) * (math.pi / 2)
        return _out(np.sin(a + self.enhancement_amount / 750.0 * np.sin(a * 4)), x)


class Overdrive(TensorOperation):
    """SoX's overdrive effect."""

    def __init__(self, gain=20.0, color=20.0) -> None:
        if not 0 <= gain <= 100 or not 0 <= color <= 100:
            raise ValueError("Input gain and color should be within the required interval of [0, 100].")
        self.gain, self.color = gain, color

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        t = a * math.exp(self.gain * math.log(10) / 20) + self.color / 200
        t = np.where(t < -1, -2.0 / 3, np.where(t > 1, 2.0 / 3, t - t**3 / 3))
        flat_t, flat_a = t.reshape(-1, t.shape[-1]), a.reshape(-1, a.shape[-1])
        out = np.zeros_like(flat_a)
        last_in = np.zeros(flat_a.shape[0])
        last_out = np.zeros(flat_a.shape[0])
        for i in range(flat_a.shape[1]):
            last_out = flat_t[:, i] - last_in + 0.995 * last_out
            last_in = flat_t[:, i]
            out[:, i] = flat_a[:, i] * 0.5 + last_out * 0.75
        return _out(np.clip(out.reshape(a.shape), -1, 1), x)
