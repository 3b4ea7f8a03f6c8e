"""``mindspore.dataset.audio``: masking, SpectralCentroid, Resample, TimeStretch/PhaseVocoder, GriffinLim,
PitchShift, Dither, SlidingWindowCmn (torchaudio's definitions)."""

from __future__ import annotations

import math

import numpy as np

from ..._checkparam import check_pipeline_int
from ..engine import _random
from ..transforms.transforms import TensorOperation
from .transforms import InverseSpectrogram, Spectrogram, _out, _spectrogram
from .utils import BorderType, DensityFunction, ResampleMethod, WindowType

__all__ = [
    "MaskAlongAxis",
    "MaskAlongAxisIID",
    "FrequencyMasking",
    "TimeMasking",
    "SpectralCentroid",
    "Resample",
    "TimeStretch",
    "PhaseVocoder",
    "GriffinLim",
    "PitchShift",
    "Dither",
    "SlidingWindowCmn",
]


def _mask(a, start, width, value, axis):
    out = np.array(a, dtype=np.asarray(a).dtype, copy=True)
    idx = [slice(None)] * out.ndim
    idx[axis] = slice(start, start + width)
    out[tuple(idx)] = value
    return out


class MaskAlongAxis(TensorOperation):
    """Set ``[mask_start, mask_start + mask_width)`` along ``axis`` (1: frequency, 2: time) to ``mask_value``."""

    def __init__(self, mask_start, mask_width, mask_value, axis) -> None:
        self.mask_start = check_pipeline_int(mask_start, "mask_start", 0, 2**31 - 1)
        self.mask_width = check_pipeline_int(mask_width, "mask_width", 1, 2**31 - 1)
        self.mask_value, self.axis = mask_value, check_pipeline_int(axis, "axis", 1, 2)

    def _apply(self, x):
        a = np.asarray(x)
        ax = a.ndim - (3 - self.axis)
        if self.mask_start + self.mask_width > a.shape[ax]:
            raise RuntimeError("MaskAlongAxis: the sum of mask_start and mask_width is out of bounds.")
        return _mask(a, self.mask_start, self.mask_width, self.mask_value, ax)


class MaskAlongAxisIID(TensorOperation):
    """Mask a random band of width in ``[0, mask_param]`` along ``axis``."""

    _random = True

    def __init__(self, mask_param, mask_value, axis) -> None:
        self.mask_param = check_pipeline_int(mask_param, "mask_param", 0, 2**31 - 1)
        self.mask_value, self.axis = mask_value, check_pipeline_int(axis, "axis", 1, 2)

    def _apply(self, x):
        a = np.asarray(x)
        ax = a.ndim - (3 - self.axis)
        g = _random.rng()
        width = int(g.uniform(0, self.mask_param))
        start = int(g.uniform(0, a.shape[ax] - width))
        return _mask(a, start, width, self.mask_value, ax)


class FrequencyMasking(TensorOperation):
    """SpecAugment frequency masking: with ``iid_masks`` a band of random width in ``[0, freq_mask_param]`` at a
    random bin, else the band ``[mask_start, mask_start + freq_mask_param)``."""

    _random = True
    _axis = -2

    def __init__(self, iid_masks=False, freq_mask_param=0, mask_start=0, mask_value=0.0) -> None:
        self.iid_masks = iid_masks
        self.mask_param = check_pipeline_int(freq_mask_param, "freq_mask_param", 0, 2**31 - 1)
        self.mask_start = check_pipeline_int(mask_start, "mask_start", 0, 2**31 - 1)
        self.mask_value = mask_value

    def _apply(self, x):
        a = np.asarray(x)
        if self.iid_masks:
            g = _random.rng()
            width = int(g.integers(0, self.mask_param + 1))
            start = int(g.integers(0, a.shape[self._axis] - width + 1))
        else:
            start, width = self.mask_start, self.mask_param
            if start + width > a.shape[self._axis]:
                raise RuntimeError(f"{type(self).__name__}: mask_start plus the mask width is out of bounds.")
        return _mask(a, start, width, self.mask_value, a.ndim + self._axis)


class TimeMasking(FrequencyMasking):
    """SpecAugment time masking (see :class:`FrequencyMasking`)."""

    _axis = -1

    def __init__(self, iid_masks=False, time_mask_param=0, mask_start=0, mask_value=0.0) -> None:
        super().__init__(iid_masks, time_mask_param, mask_start, mask_value)


class SpectralCentroid(TensorOperation):
    """The centre of mass of each frame's magnitude spectrum, in Hz: shape ``(..., 1, time)``."""

    def __init__(self, sample_rate, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN) -> None:
        self.sample_rate, self.n_fft = sample_rate, n_fft
        self.win_length = n_fft if win_length is None else win_length
        self.hop_length = self.win_length // 2 if hop_length is None else hop_length
        self.pad, self.window = pad, WindowType(window)

    def _apply(self, x):
        spec = _spectrogram(x, self.pad, self.window, self.n_fft, self.hop_length, self.win_length, 1.0, False, True,
                            BorderType.REFLECT, True).astype(np.float64)  # fmt: skip
        freqs = np.linspace(0, self.sample_rate // 2, 1 + self.n_fft // 2)[:, None]
        return ((freqs * spec).sum(-2) / spec.sum(-2))[..., None, :].astype(np.float32)


def _sinc_kernel(orig, new, width, rolloff, method, beta):
    g = math.gcd(int(orig), int(new))
    orig, new = int(orig) // g, int(new) // g
    base = min(orig, new) * rolloff
    w = math.ceil(width * orig / base)
    idx = np.arange(-w, w + orig, dtype=np.float64)[None, None] / orig
    t = np.arange(0, -new, -1, dtype=np.float64)[:, None, None] / new + idx
    t = t * base
    t = np.clip(t, -width, width)
    if method == ResampleMethod.SINC_INTERPOLATION:
        window = np.cos(t * math.pi / width / 2) ** 2
    else:
        b = 14.769656459379492 if beta is None else beta
        window = np.i0(b * np.sqrt(1 - (t / width) ** 2)) / np.i0(b)
    t = t * math.pi
    scale = base / orig
    kernels = np.where(t == 0, 1.0, np.sin(t) / np.where(t == 0, 1, t)) * window * scale
    return kernels, w, orig, new


class Resample(TensorOperation):
    """Band-limited resampling from ``orig_freq`` to ``new_freq`` (windowed sinc or Kaiser window)."""

    def __init__(self, orig_freq=16000, new_freq=16000, resample_method=ResampleMethod.SINC_INTERPOLATION,
                 lowpass_filter_width=6, rolloff=0.99, beta=None) -> None:  # fmt: skip
        self.orig_freq, self.new_freq = orig_freq, new_freq
        self.resample_method = ResampleMethod(resample_method)
        self.lowpass_filter_width = check_pipeline_int(lowpass_filter_width, "lowpass_filter_width", 1, 2**31 - 1)
        self.rolloff, self.beta = rolloff, beta

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        if self.orig_freq == self.new_freq:
            return _out(a, x)
        k, w, orig, new = _sinc_kernel(self.orig_freq, self.new_freq, self.lowpass_filter_width, self.rolloff,
                                       self.resample_method, self.beta)  # fmt: skip
        shape = a.shape
        flat = a.reshape(-1, shape[-1])
        length = shape[-1]
        padded = np.pad(flat, [(0, 0), (w, w + orig)])
        kern = k[:, 0, :]  # (new, K)
        n_out_frames = (padded.shape[1] - kern.shape[1]) // orig + 1
        idx = np.arange(kern.shape[1])[None, :] + orig * np.arange(n_out_frames)[:, None]
        frames = padded[:, idx]  # (B, frames, K)
        res = np.einsum("bfk,nk->bfn", frames, kern).reshape(flat.shape[0], -1)
        target = int(math.ceil(new * length / orig))
        return res[:, :target].reshape(*shape[:-1], target).astype(np.float32)


def _phase_vocoder(spec, rate, phase_advance):
    """torchaudio's phase vocoder on a complex spectrogram ``(..., freq, time)``."""
    time_steps = np.arange(0, spec.shape[-1], rate)
    alphas = np.mod(time_steps, 1.0)
    phase_0 = np.angle(spec[..., :1])
    spec = np.pad(spec, [(0, 0)] * (spec.ndim - 1) + [(0, 2)])
    idx = time_steps.astype(np.int64)
    s0, s1 = spec[..., idx], spec[..., idx + 1]
    angle_0, angle_1 = np.angle(s0), np.angle(s1)
    norm_0, norm_1 = np.abs(s0), np.abs(s1)
    pa = np.asarray(phase_advance, np.float64).reshape(-1, 1)
    phase = angle_1 - angle_0 - pa
    phase = phase - 2 * math.pi * np.round(phase / (2 * math.pi))
    phase = phase + pa
    phase = np.concatenate([phase_0, phase[..., :-1]], axis=-1)
    phase_acc = np.cumsum(phase, -1)
    mag = alphas * norm_1 + (1 - alphas) * norm_0
    return mag * np.exp(1j * phase_acc)


class PhaseVocoder(TensorOperation):
    """Speed a complex ``(..., freq, time, 2)`` spectrogram up by ``rate`` without changing the pitch."""

    def __init__(self, rate, phase_advance) -> None:
        if rate <= 0:
            raise ValueError("Input rate is not within the required interval of (0, 16777216].")
        self.rate, self.phase_advance = rate, np.asarray(phase_advance)

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        out = _phase_vocoder(a[..., 0] + 1j * a[..., 1], self.rate, self.phase_advance)
        return np.stack([out.real, out.imag], -1).astype(np.float32)


class TimeStretch(TensorOperation):
    """:class:`PhaseVocoder` with the phase advance of ``hop_length`` over ``n_freq`` bins; ``fixed_rate``."""

    def __init__(self, hop_length=None, n_freq=201, fixed_rate=None) -> None:
        self.n_freq = n_freq
        self.hop_length = (n_freq - 1) if hop_length is None else hop_length
        self.fixed_rate = 1.0 if fixed_rate is None else fixed_rate
        self._advance = np.linspace(0, math.pi * self.hop_length, n_freq)[:, None]

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        if self.fixed_rate == 1.0:
            return a.astype(np.float32)
        out = _phase_vocoder(a[..., 0] + 1j * a[..., 1], self.fixed_rate, self._advance)
        return np.stack([out.real, out.imag], -1).astype(np.float32)


class GriffinLim(TensorOperation):
    """Waveform from a magnitude spectrogram by the Griffin-Lim algorithm (``n_iter`` iterations, ``momentum``;
    random initial phases with ``rand_init``)."""

    _random = True

    def __init__(self, n_fft=400, n_iter=32, win_length=None, hop_length=None, window_type=WindowType.HANN, power=2.0,
                 momentum=0.99, length=None, rand_init=True) -> None:  # fmt: skip
        self.n_fft, self.n_iter = n_fft, check_pipeline_int(n_iter, "n_iter", 1, 2**31 - 1)
        self.win_length = n_fft if win_length is None else win_length
        self.hop_length = self.win_length // 2 if hop_length is None else hop_length
        self.window_type, self.power, self.momentum = WindowType(window_type), power, momentum
        self.length, self.rand_init = length, rand_init

    def _apply(self, x):
        spec = np.asarray(x, np.float64) ** (1.0 / self.power)
        g = _random.rng()
        angles = np.exp(2j * math.pi * g.random(spec.shape)) if self.rand_init else np.ones(spec.shape, complex)
        inv = InverseSpectrogram(self.length, self.n_fft, self.win_length, self.hop_length, 0, self.window_type)
        fwd = Spectrogram(self.n_fft, self.win_length, self.hop_length, 0, self.window_type, None)
        tprev = np.zeros_like(angles)
        for _ in range(self.n_iter):
            z = spec * angles
            wav = inv._apply(np.stack([z.real, z.imag], -1))
            rebuilt = fwd._apply(wav).astype(np.float64)
            rebuilt = rebuilt[..., 0] + 1j * rebuilt[..., 1]
            rebuilt = rebuilt[..., : spec.shape[-1]]
            angles = rebuilt - self.momentum / (1 + self.momentum) * tprev
            angles = angles / (np.abs(angles) + 1e-16)
            tprev = rebuilt
        z = spec * angles
        return inv._apply(np.stack([z.real, z.imag], -1))


class PitchShift(TensorOperation):
    """Shift the pitch by ``n_steps`` (of ``bins_per_octave``): time-stretch, then resample back."""

    def __init__(self, sample_rate, n_steps, bins_per_octave=12, n_fft=512, win_length=None, hop_length=None,
                 window=WindowType.HANN) -> None:  # fmt: skip
        self.sample_rate, self.n_steps, self.bins_per_octave, self.n_fft = sample_rate, n_steps, bins_per_octave, n_fft
        self.win_length = n_fft if win_length is None else win_length
        self.hop_length = self.win_length // 4 if hop_length is None else hop_length
        self.window = WindowType(window)

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        length = a.shape[-1]
        rate = 2.0 ** (-float(self.n_steps) / self.bins_per_octave)
        spec = _spectrogram(a, 0, self.window, self.n_fft, self.hop_length, self.win_length, None, False, True,
                            BorderType.REFLECT, True).astype(np.float64)  # fmt: skip
        advance = np.linspace(0, math.pi * self.hop_length, self.n_fft // 2 + 1)[:, None]
        st = _phase_vocoder(spec[..., 0] + 1j * spec[..., 1], rate, advance)
        stretched_len = int(round(length / rate))
        wav = InverseSpectrogram(stretched_len, self.n_fft, self.win_length, self.hop_length, 0, self.window)._apply(
            np.stack([st.real, st.imag], -1)
        )
        out = Resample(int(self.sample_rate / rate), self.sample_rate)._apply(wav)
        out = out[..., :length]
        if out.shape[-1] < length:
            out = np.pad(out, [(0, 0)] * (out.ndim - 1) + [(0, length - out.shape[-1])])
        return out.astype(np.float32)


class Dither(TensorOperation):
    """Add dither noise at 16-bit resolution (TPDF, RPDF or GPDF), optionally noise-shaped."""

    _random = True

    def __init__(self, density_function=DensityFunction.TPDF, noise_shaping=False) -> None:
        self.density_function, self.noise_shaping = DensityFunction(density_function), bool(noise_shaping)

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        g = _random.rng()
        if self.density_function == DensityFunction.TPDF:
            noise = g.triangular(-1, 0, 1, a.shape)
        elif self.density_function == DensityFunction.RPDF:
            noise = g.uniform(-1, 1, a.shape)
        else:
            noise = g.normal(0, 1, a.shape)
        scaled = a * 32768.0 + noise
        if self.noise_shaping:
            err = np.zeros(a.shape[:-1])
            out = np.empty_like(scaled)
            for i in range(a.shape[-1]):
                v = scaled[..., i] - err
                out[..., i] = np.round(v)
                err = out[..., i] - v
            scaled = out
        return _out(np.clip(np.round(scaled), -32768, 32767) / 32768.0, x)


class SlidingWindowCmn(TensorOperation):
    """Kaldi's sliding-window cepstral mean (and variance) normalization over ``(..., time, feature)``."""

    def __init__(self, cmn_window=600, min_cmn_window=100, center=False, norm_vars=False) -> None:
        self.cmn_window = check_pipeline_int(cmn_window, "cmn_window", 0, 2**31 - 1)
        self.min_cmn_window = check_pipeline_int(min_cmn_window, "min_cmn_window", 0, 2**31 - 1)
        self.center, self.norm_vars = bool(center), bool(norm_vars)

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        shape = a.shape
        feats = a.reshape(-1, shape[-2], shape[-1])
        t = shape[-2]
        out = np.zeros_like(feats)
        for i in range(t):
            if self.center:
                start = i - self.cmn_window // 2
                end = start + self.cmn_window
                if start < 0:
                    end -= start
                    start = 0
                if end > t:
                    start = max(0, start - (end - t))
                    end = t
            else:
                start, end = max(0, i - self.cmn_window), i + 1
                if end < self.min_cmn_window:
                    end = min(self.min_cmn_window, t)
            win = feats[:, start:end]
            out[:, i] = feats[:, i] - win.mean(1)
            if self.norm_vars:
                var = (win**2).mean(1) - win.mean(1) ** 2
                out[:, i] /= np.sqrt(np.maximum(var, 1e-20))
        return out.reshape(shape).astype(np.float32)


def _wave_table(sine, table_size, lo, hi, phase, as_int=True):
    """torchaudio's modulation table (int32, or float32 with ``as_int=False``)."""
    offset = int(phase / math.pi / 2 * table_size + 0.5)
    point = (np.arange(table_size) + offset) % table_size
    if sine:
        d = (np.sin(point / table_size * 2 * math.pi) + 1) / 2
    else:
        d = point * 2.0 / table_size
        v = np.floor(4 * point / table_size)
        d = np.where(v == 0, d + 0.5, np.where((v == 1) | (v == 2), 1.5 - d, d - 1.5))
    d = d * (hi - lo) + lo
    if not as_int:
        return d.astype(np.float32)
    return np.where(d < 0, d - 0.5, d + 0.5).astype(np.int32)


class Phaser(TensorOperation):
    """A phaser effect: the input mixed with a delayed copy whose delay is modulated (sine or triangle)."""

    def __init__(self, sample_rate, gain_in=0.4, gain_out=0.74, delay_ms=3.0, decay=0.4, mod_speed=0.5,
                 sinusoidal=True) -> None:  # fmt: skip
        self.sample_rate = check_pipeline_int(sample_rate, "sample_rate", -(2**31), 2**31 - 1)
        if not 0 <= gain_in <= 1 or not 0 <= delay_ms <= 5 or not 0 <= decay <= 0.99 or not 0.1 <= mod_speed <= 2:
            raise ValueError("Phaser: gain_in, delay_ms, decay or mod_speed is out of its valid range.")
        self.gain_in, self.gain_out, self.delay_ms, self.decay = gain_in, gain_out, delay_ms, decay
        self.mod_speed, self.sinusoidal = mod_speed, bool(sinusoidal)

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        flat = a.reshape(-1, a.shape[-1]) * self.gain_in
        dlen = int(self.delay_ms * 0.001 * self.sample_rate + 0.5)
        mlen = int(self.sample_rate / self.mod_speed + 0.5)
        mod = _wave_table(self.sinusoidal, mlen, 1.0, float(dlen), math.pi / 2)
        buf = np.zeros((dlen, flat.shape[0]))
        out = np.empty_like(flat)
        dpos = mpos = 0
        for i in range(flat.shape[1]):
            idx = int((dpos + mod[mpos]) % dlen)
            mpos = (mpos + 1) % mlen
            dpos = (dpos + 1) % dlen
            t = flat[:, i] + buf[idx]
            buf[dpos] = t * self.decay
            out[:, i] = t
        return _out(np.clip(out * self.gain_out, -1, 1).reshape(a.shape), x)


class Flanger(TensorOperation):
    """A flanger effect on ``(..., channel, time)``: each channel mixed with a copy delayed by a modulated
    ``delay`` .. ``delay + depth`` ms (with feedback ``regen`` %, mix ``width`` %, channel phase ``phase`` %)."""

    def __init__(self, sample_rate, delay=0.0, depth=2.0, regen=0.0, width=71.0, speed=0.5, phase=25.0,
                 modulation="sinusoidal", interpolation="linear") -> None:  # fmt: skip
        from .utils import Interpolation, Modulation

        self.sample_rate = check_pipeline_int(sample_rate, "sample_rate", -(2**31), 2**31 - 1)
        if not 0 <= delay <= 30 or not 0 <= depth <= 10 or not -95 <= regen <= 95 or not 0 <= width <= 100:
            raise ValueError("Flanger: delay, depth, regen or width is out of its valid range.")
        if not 0.1 <= speed <= 10 or not 0 <= phase <= 100:
            raise ValueError("Flanger: speed or phase is out of its valid range.")
        self.delay, self.depth, self.regen, self.width, self.speed, self.phase = (
            delay,
            depth,
            regen,
            width,
            speed,
            phase,
        )
        self.modulation, self.interpolation = Modulation(modulation), Interpolation(interpolation)

    def _apply(self, x):
        a = np.asarray(x, np.float64)
        shape = a.shape
        w = a.reshape(-1, shape[-2], shape[-1])
        fb, dg, cph = self.regen / 100, self.width / 100, self.phase / 100
        dmin, ddepth = self.delay / 1000, self.depth / 1000
        nch, sr = w.shape[-2], self.sample_rate
        in_gain = 1.0 / (1 + dg)
        dg = dg / (1 + dg) * (1 - abs(fb))
        blen = int((dmin + ddepth) * sr + 0.5) + 2
        bufs = np.zeros((w.shape[0], nch, blen))
        last = np.zeros((w.shape[0], nch))
        lfo_len = int(sr / self.speed)
        lfo = _wave_table(self.modulation.value == "sinusoidal", lfo_len, float(math.floor(dmin * sr + 0.5)),
                          float(blen - 2.0), 3 * math.pi / 2, as_int=False).astype(np.float64)  # fmt: skip
        out = np.zeros_like(w)
        pos = lfo_pos = 0
        ch = np.arange(nch)
        cur_phase = (ch * lfo_len * cph + 0.5).astype(np.int64)
        quad = self.interpolation.value == "quadratic"
        for i in range(w.shape[-1]):
            pos = (pos + blen - 1) % blen
            d = lfo[(lfo_pos + cur_phase) % lfo_len].astype(np.float32).astype(np.float64)
            frac, idel = d - np.floor(d), np.floor(d).astype(np.int64)
            bufs[:, :, pos] = w[:, :, i] + last * fb
            d0 = bufs[:, ch, (pos + idel) % blen]
            d1 = bufs[:, ch, (pos + idel + 1) % blen]
            if quad:
                d2 = bufs[:, ch, (pos + idel + 2) % blen] - d0
                d1 = d1 - d0
                delayed = d0 + ((d2 * 0.5 - d1) * frac + (d1 * 2 - d2 * 0.5)) * frac
            else:
                delayed = d0 + (d1 - d0) * frac
            last = delayed
            out[:, :, i] = w[:, :, i] * in_gain + delayed * dg
            lfo_pos = (lfo_pos + 1) % lfo_len
        return _out(np.clip(out, -1, 1).reshape(shape), x)


class DetectPitchFrequency(TensorOperation):
    """Pitch (Hz) per frame by normalized cross-correlation (NCCF) over lags, median-smoothed over
    ``win_length`` frames: shape ``(..., frames)``."""

    def __init__(self, sample_rate, frame_time=0.01, win_length=30, freq_low=85, freq_high=3400) -> None:
        if sample_rate == 0 or frame_time <= 0 or freq_low <= 0 or freq_high <= 0:
            raise ValueError("DetectPitchFrequency: sample_rate, frame_time, freq_low and freq_high must be positive.")
        self.sample_rate, self.frame_time = sample_rate, frame_time
        self.win_length = check_pipeline_int(win_length, "win_length", 1, 2**31 - 1)
        self.freq_low, self.freq_high = freq_low, freq_high

    def _apply(self, x):
        a = np.asarray(x, np.float32)
        shape = a.shape
        w = a.reshape(-1, shape[-1]).astype(np.float32)
        eps = np.float32(1e-9)
        sr = self.sample_rate
        lags = int(math.ceil(sr / self.freq_low))
        fsize = int(math.ceil(sr * self.frame_time))
        nframes = int(math.ceil(w.shape[-1] / fsize))
        w = np.pad(w, [(0, 0), (0, lags + nframes * fsize - w.shape[-1])])
        nccf = np.empty((w.shape[0], nframes, lags), np.float32)
        for lag in range(1, lags + 1):
            s1 = w[:, :-lag][:, : nframes * fsize].reshape(w.shape[0], nframes, fsize)
            s2 = w[:, lag:][:, : nframes * fsize].reshape(w.shape[0], nframes, fsize)
            n1 = (eps + np.sqrt((s1 * s1).sum(-1))) ** 2
            n2 = (eps + np.sqrt((s2 * s2).sum(-1))) ** 2
            nccf[..., lag - 1] = (s1 * s2).sum(-1) / n1 / n2
        lag_min = int(math.ceil(sr / self.freq_high))
        best_v, best_i = nccf[..., lag_min:].max(-1), nccf[..., lag_min:].argmax(-1)
        half = nccf.shape[-1] // 2
        half_v, half_i = nccf[..., lag_min:half].max(-1), nccf[..., lag_min:half].argmax(-1)
        mask = half_v > 0.99 * best_v
        idx = np.where(mask, half_i, best_i) + lag_min + 1
        pad = (self.win_length - 1) // 2
        idx = np.concatenate([np.repeat(idx[:, :1], pad, 1), idx], 1) if pad else idx
        n_out = idx.shape[1] - self.win_length + 1
        rolled = np.stack([idx[:, j : j + self.win_length] for j in range(n_out)], 1)
        med = np.sort(rolled, -1)[..., (self.win_length - 1) // 2]
        freq = sr / (eps + med.astype(np.float32))
        return freq.reshape(*shape[:-1], -1).astype(np.float32)


__all__ += ["Phaser", "Flanger", "DetectPitchFrequency"]
