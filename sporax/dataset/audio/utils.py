"""``mindspore.dataset.audio`` enums and filter-bank utilities (torchaudio's definitions, as MindSpore's)."""

from __future__ import annotations

import enum
import math

import numpy as np

__all__ = [
    "BorderType",
    "DensityFunction",
    "FadeShape",
    "GainType",
    "Interpolation",
    "MelType",
    "Modulation",
    "NormMode",
    "NormType",
    "ResampleMethod",
    "ScaleType",
    "WindowType",
    "create_dct",
    "linear_fbanks",
    "melscale_fbanks",
]


class _StrEnum(str, enum.Enum):  # noqa: UP042  (MindSpore's enums are str Enums)
    pass


class BorderType(_StrEnum):
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class DensityFunction(_StrEnum):
    TPDF = "TPDF"
    RPDF = "RPDF"
    GPDF = "GPDF"


class FadeShape(_StrEnum):
    QUARTER_SINE = "quarter_sine"
    HALF_SINE = "half_sine"
    LINEAR = "linear"
    LOGARITHMIC = "logarithmic"
    EXPONENTIAL = "exponential"


class GainType(_StrEnum):
    AMPLITUDE = "amplitude"
    POWER = "power"
    DB = "db"


class Interpolation(_StrEnum):
    LINEAR = "linear"
    QUADRATIC = "quadratic"


class MelType(_StrEnum):
    HTK = "htk"
    SLANEY = "slaney"


class Modulation(_StrEnum):
    SINUSOIDAL = "sinusoidal"
    TRIANGULAR = "triangular"


class NormMode(_StrEnum):
    ORTHO = "ortho"
    NONE = "none"


class NormType(_StrEnum):
    SLANEY = "slaney"
    NONE = "none"


class ResampleMethod(_StrEnum):
    SINC_INTERPOLATION = "sinc_interpolation"
    KAISER_WINDOW = "kaiser_window"


class ScaleType(_StrEnum):
    POWER = "power"
    MAGNITUDE = "magnitude"


class WindowType(_StrEnum):
    BARTLETT = "bartlett"
    BLACKMAN = "blackman"
    HAMMING = "hamming"
    HANN = "hann"
    KAISER = "kaiser"


def _hz_to_mel(f, mel_type):
    if MelType(mel_type) == MelType.HTK:
        return 2595.0 * np.log10(1.0 + np.asarray(f, np.float64) / 700.0)
    f = np.asarray(f, np.float64)
    f_sp, min_log_hz, min_log_mel, logstep = 200.0 / 3, 1000.0, 15.0, math.log(6.4) / 27.0
    return np.where(f >= min_log_hz, min_log_mel + np.log(np.maximum(f, 1e-10) / min_log_hz) / logstep, f / f_sp)


def _mel_to_hz(m, mel_type):
    m = np.asarray(m, np.float64)
    if MelType(mel_type) == MelType.HTK:
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)
    f_sp, min_log_hz, min_log_mel, logstep = 200.0 / 3, 1000.0, 15.0, math.log(6.4) / 27.0
    return np.where(m >= min_log_mel, min_log_hz * np.exp(logstep * (m - min_log_mel)), f_sp * m)


def _triangular(all_freqs, f_pts):
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down, up))


def melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm=NormType.NONE, mel_type=MelType.HTK):
    """Triangular mel filters, shape ``(n_freqs, n_mels)`` (float32)."""
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m, mel_type)
    fb = _triangular(all_freqs, f_pts)
    if NormType(norm) == NormType.SLANEY:
        fb *= (2.0 / (f_pts[2 : n_mels + 2] - f_pts[:n_mels]))[None, :]
    return fb.astype(np.float32)


def linear_fbanks(n_freqs, f_min, f_max, n_filter, sample_rate):
    """Triangular filters on a linear frequency scale, shape ``(n_freqs, n_filter)`` (float32)."""
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    f_pts = np.linspace(f_min, f_max, n_filter + 2)
    return _triangular(all_freqs, f_pts).astype(np.float32)


def create_dct(n_mfcc, n_mels, norm=NormMode.NONE):
    """DCT-II matrix, shape ``(n_mels, n_mfcc)`` (orthonormal with ``NormMode.ORTHO``)."""
    n = np.arange(n_mels, dtype=np.float64)
    k = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(math.pi / n_mels * (n + 0.5) * k)
    if NormMode(norm) == NormMode.ORTHO:
        dct[0] *= 1.0 / math.sqrt(2.0)
        dct *= math.sqrt(2.0 / n_mels)
    else:
        dct *= 2.0
    return dct.T.astype(np.float32)
