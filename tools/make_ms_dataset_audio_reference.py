"""Reference outputs of MindSpore 2.10's deterministic dataset.audio operations (issue 16).

    cd /tmp && /work/msvenv/bin/python /work/main/tools/make_ms_dataset_audio_reference.py
Writes tests/ut/dataset/fixtures/ms_audio_reference.npz: the inputs and one output per case.
"""

import os

import mindspore.dataset.audio as A
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "ut", "dataset", "fixtures", "ms_audio_reference.npz")

rng = np.random.default_rng(7)
WAV = (rng.standard_normal((2, 800)) * 0.3).astype(np.float32)  # 2 channels
SPEC = np.abs(rng.standard_normal((2, 65, 20))).astype(np.float32) + 0.01
CPLX = rng.standard_normal((2, 65, 20, 2)).astype(np.float32)


def mel(**kw):
    d = {
        "n_fft": 128,
        "win_length": 128,
        "hop_length": 64,
        "f_min": 0.0,
        "f_max": 4000.0,
        "pad": 0,
        "n_mels": 128,
        "window": A.WindowType.HANN,
        "power": 2.0,
        "normalized": False,
        "center": True,
        "pad_mode": A.BorderType.REFLECT,
        "onesided": True,
        "norm": A.NormType.NONE,
        "mel_scale": A.MelType.HTK,
    }
    d.update(kw)
    return d


def spec(**kw):
    d = {
        "n_fft": 128,
        "win_length": 128,
        "hop_length": 64,
        "pad": 0,
        "window": A.WindowType.HANN,
        "power": 2.0,
        "normalized": False,
        "center": True,
        "pad_mode": A.BorderType.REFLECT,
        "onesided": True,
    }
    d.update(kw)
    return d


def cases():
    return {
        "spectrogram": (A.Spectrogram(n_fft=128), WAV),
        "spectrogram_opts": (
            A.Spectrogram(
                n_fft=64,
                win_length=48,
                hop_length=20,
                pad=3,
                window=A.WindowType.HAMMING,
                power=1.0,
                normalized=True,
                center=True,
                pad_mode=A.BorderType.CONSTANT,
            ),
            WAV,
        ),
        "spectrogram_nocenter": (A.Spectrogram(n_fft=64, center=False, window=A.WindowType.BLACKMAN), WAV),
        "mel_spectrogram": (A.MelSpectrogram(sample_rate=8000, n_fft=128, n_mels=20), WAV),
        "mel_spectrogram_slaney": (
            A.MelSpectrogram(
                sample_rate=8000,
                n_fft=128,
                n_mels=16,
                f_min=50.0,
                f_max=3000.0,
                norm=A.NormType.SLANEY,
                mel_scale=A.MelType.SLANEY,
            ),
            WAV,
        ),
        "mel_scale": (A.MelScale(n_mels=12, sample_rate=8000, n_stft=65), SPEC),
        "mfcc": (A.MFCC(sample_rate=8000, n_mfcc=10, melkwargs=mel(n_fft=128, n_mels=20)), WAV),
        "mfcc_log": (
            A.MFCC(
                sample_rate=8000, n_mfcc=8, log_mels=True, norm=A.NormMode.NONE, melkwargs=mel(n_fft=128, n_mels=16)
            ),
            WAV,
        ),
        "lfcc": (A.LFCC(sample_rate=8000, n_filter=20, n_lfcc=10, speckwargs=spec(n_fft=128)), WAV),
        "amplitude_to_db": (A.AmplitudeToDB(), SPEC),
        "amplitude_to_db_mag": (A.AmplitudeToDB(A.ScaleType.MAGNITUDE, 2.0, 1e-5, 40.0), SPEC),
        "db_to_amplitude": (A.DBToAmplitude(0.5, 0.5), SPEC),
        "complex_norm": (A.ComplexNorm(1.5), CPLX),
        "angle": (A.Angle(), CPLX),
        "mulaw_encode": (A.MuLawEncoding(256), WAV),
        "mulaw_decode": (A.MuLawDecoding(256), np.arange(0, 256, 7, dtype=np.int32).reshape(1, -1)),
        "gain": (A.Gain(3.5), WAV),
        "vol_amp": (A.Vol(0.6), WAV),
        "vol_db": (A.Vol(-3.0, A.GainType.DB), WAV),
        "vol_power": (A.Vol(2.0, A.GainType.POWER), WAV),
        "dc_shift": (A.DCShift(0.2), WAV),
        "dc_shift_limit": (A.DCShift(0.5, 0.05), WAV),
        "fade_linear": (A.Fade(100, 200, A.FadeShape.LINEAR), WAV),
        "fade_log": (A.Fade(50, 80, A.FadeShape.LOGARITHMIC), WAV),
        "fade_exp": (A.Fade(50, 80, A.FadeShape.EXPONENTIAL), WAV),
        "fade_qsine": (A.Fade(50, 80, A.FadeShape.QUARTER_SINE), WAV),
        "fade_hsine": (A.Fade(50, 80, A.FadeShape.HALF_SINE), WAV),
        "biquad": (A.Biquad(0.4, 0.2, 0.1, 1.0, -0.3, 0.2), WAV),
        "allpass": (A.AllpassBiquad(8000, 1000.0, 0.8), WAV),
        "band": (A.BandBiquad(8000, 1200.0, 0.7, True), WAV),
        "bandpass": (A.BandpassBiquad(8000, 1500.0, 0.9, True), WAV),
        "bandreject": (A.BandrejectBiquad(8000, 900.0), WAV),
        "bass": (A.BassBiquad(8000, 6.0, 150.0), WAV),
        "treble": (A.TrebleBiquad(8000, -4.0, 2500.0), WAV),
        "equalizer": (A.EqualizerBiquad(8000, 1000.0, 5.0, 0.9), WAV),
        "highpass": (A.HighpassBiquad(8000, 700.0), WAV),
        "lowpass": (A.LowpassBiquad(8000, 1100.0), WAV),
        "deemph": (A.DeemphBiquad(44100), WAV),
        "riaa": (A.RiaaBiquad(44100), WAV),
        "lfilter": (A.LFilter([1.0, -0.5, 0.2], [0.3, 0.2, 0.1]), WAV),
        "lfilter_noclamp": (A.LFilter([1.0, -0.9], [2.0, 1.0], clamp=False), WAV),
        "filtfilt": (A.Filtfilt([1.0, -0.5, 0.2], [0.3, 0.2, 0.1]), WAV),
        "compute_deltas": (A.ComputeDeltas(5), SPEC),
        "compute_deltas_7": (A.ComputeDeltas(7, A.BorderType.REFLECT), SPEC),
        "contrast": (A.Contrast(60.0), WAV),
        "overdrive": (A.Overdrive(15.0, 30.0), WAV),
        "mask_along_axis": (A.MaskAlongAxis(3, 5, 0.5, 2), SPEC),
        "mask_along_axis_freq": (A.MaskAlongAxis(10, 4, -1.0, 1), SPEC),
        "frequency_masking": (A.FrequencyMasking(False, 5, 10, 0.0), SPEC),
        "time_masking": (A.TimeMasking(False, 4, 2, 1.0), SPEC),
        "inverse_spectrogram": (
            A.InverseSpectrogram(length=800, n_fft=128),
            np.stack([A.Spectrogram(n_fft=128, power=None)(WAV)], 0)[0] if False else None,
        ),
        "spectral_centroid": (A.SpectralCentroid(8000, n_fft=128), WAV),
        "sliding_cmn": (A.SlidingWindowCmn(10, 5, False, False), SPEC[0].T.copy()),
        "sliding_cmn_center": (A.SlidingWindowCmn(8, 3, True, True), SPEC[0].T.copy()),
        "resample": (A.Resample(8000, 6000), WAV),
        "resample_kaiser": (A.Resample(8000, 12000, A.ResampleMethod.KAISER_WINDOW, 6, 0.95, 14.0), WAV),
        "magphase_mag": (None, None),
    }


def main():
    out = {"WAV": WAV, "SPEC": SPEC, "CPLX": CPLX}
    for name, (op, x) in cases().items():
        if op is None or x is None:
            continue
        out[name] = np.asarray(op(x))
    mag, ph = A.Magphase(2.0)(CPLX)
    out["magphase_mag"], out["magphase_phase"] = mag, ph
    out["melscale_fbanks"] = A.melscale_fbanks(65, 0.0, 4000.0, 12, 8000)
    out["melscale_fbanks_slaney"] = A.melscale_fbanks(65, 20.0, 3500.0, 10, 8000, A.NormType.SLANEY, A.MelType.SLANEY)
    out["linear_fbanks"] = A.linear_fbanks(65, 0.0, 4000.0, 12, 8000)
    out["create_dct"] = A.create_dct(10, 20, A.NormMode.ORTHO)
    out["create_dct_none"] = A.create_dct(6, 12, A.NormMode.NONE)
    out["time_stretch"] = A.TimeStretch(hop_length=32, n_freq=65, fixed_rate=1.3)(CPLX)
    out["phase_vocoder"] = A.PhaseVocoder(0.8, np.linspace(0, np.pi * 32, 65, dtype=np.float32)[:, None])(CPLX)
    out["phaser"] = A.Phaser(8000, 0.5, 0.8, 2.0, 0.3, 1.0, True)(WAV)
    out["phaser_tri"] = A.Phaser(8000, sinusoidal=False)(WAV)
    t = np.arange(4000) / 8000.0
    out["PITCH_WAV"] = np.stack([np.sin(2 * np.pi * 220 * t), np.sin(2 * np.pi * 330 * t) * 0.5]).astype(np.float32)
    out["detect_pitch"] = A.DetectPitchFrequency(8000, 0.02, 5, 85, 2000)(out["PITCH_WAV"])
    out["flanger"] = A.Flanger(8000)(WAV)
    out["flanger_quad"] = A.Flanger(
        8000, 2.0, 3.0, 20.0, 50.0, 1.5, 40.0, A.Modulation.TRIANGULAR, A.Interpolation.QUADRATIC
    )(WAV)
    # Vad on noise only (no trigger: the trailing search + pre-trigger + measure span, wrapping as MindSpore's
    # negative index does when that span exceeds the input); MindSpore 2.10's detector measures 0 on any input
    out["VAD_WAV"] = (np.random.default_rng(11).standard_normal((2, 6000)) * 0.01).astype(np.float32)
    out["vad"] = A.Vad(8000)(out["VAD_WAV"])
    out["vad_pre"] = A.Vad(8000, pre_trigger_time=0.1, search_time=0.5)(out["VAD_WAV"])
    out["vad_wrap"] = A.Vad(8000, trigger_level=5.0, pre_trigger_time=0.3)(out["VAD_WAV"][0])
    out["vad_freq"] = A.Vad(8000, search_time=0.5, allowed_gap=0.1, measure_freq=25.0, measure_duration=0.05)(
        out["VAD_WAV"]
    )
    np.savez_compressed(OUT, **out)
    print("wrote", OUT, len(out))


if __name__ == "__main__":
    main()
