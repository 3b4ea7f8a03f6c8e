"""``mindspore.dataset.audio.Vad``: SoX's voice activity detector (the cepstral-power detector torchaudio ports),
trimming leading silence from ``(..., time)`` waveforms."""

from __future__ import annotations

import math

import numpy as np

from ..._checkparam import check_pipeline_float, check_pipeline_int
from ..transforms.transforms import TensorOperation
from .transforms import _out

__all__ = ["Vad"]

_F32_MAX = 16777216


def _hann(n):
    return 0.5 - 0.5 * np.cos(2.0 * np.pi * np.arange(n) / n)


class Vad(TensorOperation):
    """Voice activity detection: every ``1 / measure_freq`` s the last ``measure_duration`` s of each channel are
    measured (windowed spectrum, band-limited to ``hp_filter_freq``..``lp_filter_freq``, smoothed and adaptively
    de-noised, then the liftered cepstral power in ``hp_lifter_freq``..``lp_lifter_freq``); once a channel's
    smoothed measure reaches ``trigger_level`` the waveform is cut to start ``search_time`` (less the quiet
    measures found there) plus ``pre_trigger_time`` before that point. Without a trigger the trailing
    ``search_time + pre_trigger_time + measure_duration`` seconds are kept; when that span exceeds the input,
    the cut wraps around as MindSpore's (and torchaudio's) negative index does.

    MindSpore 2.10's C++ kernel loses its de-noised spectrum before the cepstrum (a pre-sized buffer is appended
    to), so every measure it takes is 0 and it never triggers for a positive ``trigger_level``; sporax measures
    as SoX and torchaudio do and agrees with MindSpore wherever the detector does not trigger."""

    def __init__(self, sample_rate, trigger_level=7.0, trigger_time=0.25, search_time=1.0, allowed_gap=0.25,
                 pre_trigger_time=0.0, boot_time=0.35, noise_up_time=0.1, noise_down_time=0.01,
                 noise_reduction_amount=1.35, measure_freq=20.0, measure_duration=None, measure_smooth_time=0.4,
                 hp_filter_freq=50.0, lp_filter_freq=6000.0, hp_lifter_freq=150.0, lp_lifter_freq=2000.0) -> None:  # fmt: skip
        self.sample_rate = check_pipeline_int(sample_rate, "sample_rate", 1, 2**31 - 1)
        self.trigger_level = check_pipeline_float(trigger_level, "trigger_level", -_F32_MAX, _F32_MAX)
        bounded = {"trigger_time": trigger_time, "search_time": search_time, "allowed_gap": allowed_gap,
                   "pre_trigger_time": pre_trigger_time, "boot_time": boot_time, "noise_up_time": noise_up_time,
                   "noise_down_time": noise_down_time, "noise_reduction_amount": noise_reduction_amount}  # fmt: skip
        checked = {k: check_pipeline_float(v, k, 0, _F32_MAX) for k, v in bounded.items()}
        self.trigger_time, self.search_time = checked["trigger_time"], checked["search_time"]
        self.allowed_gap, self.pre_trigger_time = checked["allowed_gap"], checked["pre_trigger_time"]
        self.boot_time, self.noise_reduction_amount = checked["boot_time"], checked["noise_reduction_amount"]
        self.noise_up_time, self.noise_down_time = checked["noise_up_time"], checked["noise_down_time"]
        if self.noise_up_time < self.noise_down_time:
            raise ValueError(
                "Input noise_up_time should be greater than noise_down_time, but got noise_up_time: "
                f"{noise_up_time} and noise_down_time: {noise_down_time}."
            )
        self.measure_freq = check_pipeline_float(measure_freq, "measure_freq", 0, _F32_MAX, left_open=True)
        if measure_duration:
            check_pipeline_float(measure_duration, "measure_duration", 0, _F32_MAX)
        self.measure_duration = float(measure_duration) if measure_duration else 2.0 / self.measure_freq
        self.measure_smooth_time = check_pipeline_float(measure_smooth_time, "measure_smooth_time", 0, _F32_MAX)
        freqs = {"hp_filter_freq": hp_filter_freq, "lp_filter_freq": lp_filter_freq, "hp_lifter_freq": hp_lifter_freq,
                 "lp_lifter_freq": lp_lifter_freq}  # fmt: skip
        freqs = {k: check_pipeline_float(v, k, 0, _F32_MAX, left_open=True) for k, v in freqs.items()}
        self.hp_filter_freq, self.lp_filter_freq = freqs["hp_filter_freq"], freqs["lp_filter_freq"]
        self.hp_lifter_freq, self.lp_lifter_freq = freqs["hp_lifter_freq"], freqs["lp_lifter_freq"]

    def _apply(self, x):
        a = np.asarray(x)
        shape = a.shape
        w = a.reshape(-1, shape[-1]).astype(np.float64)
        sr = self.sample_rate
        mlen = int(sr * self.measure_duration + 0.5)
        dft = 16
        while dft < mlen:
            dft *= 2
        period = int(sr / self.measure_freq + 0.5)
        nmeas = math.ceil(self.search_time * self.measure_freq)
        gap = int(self.allowed_gap * self.measure_freq + 0.5)
        samples_len = int(self.pre_trigger_time * sr + 0.5) + nmeas * period + mlen
        s0 = max(int(self.hp_filter_freq / sr * dft + 0.5), 1)
        s1 = min(int(self.lp_filter_freq / sr * dft + 0.5), dft // 2)
        if s1 <= s0:
            raise RuntimeError(
                "Vad: the end of spectrum must be greater than the start. Check if `hp_filter_freq` is too large or "
                "`lp_filter_freq` is too small."
            )
        c0 = math.ceil(sr * 0.5 / self.lp_lifter_freq)
        c1 = min(math.floor(sr * 0.5 / self.hp_lifter_freq), dft // 4)
        if c1 <= c0:
            raise RuntimeError(
                "Vad: the end of cepstrum must be greater than the start. Check if `hp_lifter_freq` is too large or "
                "`lp_lifter_freq` is too small."
            )
        swin = 2.0 / math.sqrt(mlen) * _hann(mlen)
        cwin = 2.0 / math.sqrt(s1 - s0) * _hann(s1 - s0)
        up = math.exp(-1.0 / (self.noise_up_time * self.measure_freq))
        down = math.exp(-1.0 / (self.noise_down_time * self.measure_freq))
        smooth = math.exp(-1.0 / (self.measure_smooth_time * self.measure_freq))
        trig_mult = math.exp(-1.0 / (self.trigger_time * self.measure_freq))
        boot_max = int(self.boot_time * self.measure_freq - 0.5)
        nch, ilen = w.shape
        spec = np.zeros((nch, s1 - s0))
        noise = np.zeros((nch, s1 - s0))
        meas = np.zeros((nch, nmeas))
        mean = np.zeros(nch)
        boot, index, flush, pos, triggered = 0, 0, 0, ilen, False
        for end in range(mlen, ilen + 1, period):  # each measure ends at sample end - 1
            mult = boot / (1.0 + boot) if boot >= 0 else smooth
            buf = np.zeros((nch, dft))
            buf[:, :mlen] = w[:, end - mlen : end] * swin
            spec = spec * mult + np.abs(np.fft.rfft(buf)[:, s0:s1]) * (1 - mult)
            power = spec**2
            m2 = 0.0 if boot >= 0 else np.where(power > noise, up, down)
            noise = noise * m2 + power * (1 - m2)
            ceps = np.zeros((nch, dft // 2))
            ceps[:, s0:s1] = np.sqrt(np.maximum(0.0, power - self.noise_reduction_amount * noise)) * cwin
            total = np.sum(np.abs(np.fft.rfft(ceps)[:, c0:c1]) ** 2, axis=1)
            with np.errstate(divide="ignore"):
                level = np.where(total > 0, np.log(np.maximum(total, 1e-300) / (c1 - c0)), -np.inf)
            meas[:, index] = np.maximum(0.0, 21.0 + level)
            for i in range(nch):
                mean[i] = mean[i] * trig_mult + meas[i, index] * (1.0 - trig_mult)
                triggered = triggered or mean[i] >= self.trigger_level
                if triggered:
                    j_trig = j_zero = nmeas
                    k, j = index, 0
                    for j in range(nmeas):
                        if meas[i, k] >= self.trigger_level and j <= j_trig + gap:
                            j_zero = j_trig = j
                        elif meas[i, k] == 0 and j_trig >= j_zero:
                            j_zero = j
                        k = (k + nmeas - 1) % nmeas
                    flush = min(max(flush, min(j, j_zero)), nmeas)
            index = (index + 1) % nmeas
            if boot >= 0:
                boot = -1 if boot == boot_max else boot + 1
            if triggered:
                pos = end
                break
        start = pos - samples_len + ((nmeas - flush) * period if triggered else 0)
        if start < -ilen:
            start = 0
        elif start < 0:
            start += ilen
        res = w[:, start:]
        return _out(res.reshape(shape[:-1] + res.shape[-1:]).astype(np.float32), x)
